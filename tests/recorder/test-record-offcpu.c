/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-offcpu.c: stackpulse-record --off-cpu against sp-work-offcpu's
 * own clocks (docs/OFF-CPU.md, issue 13).
 *
 * The workload prints, per thread, its CPU time and its wall time from its
 * start to its end; wall - cpu is the time it spent off the CPU, which the
 * companion's switch-out -> switch-in intervals must add up to (within 15%)
 * for the threads that block (off-sleep, off-pipe, off-lock). Where kernel
 * sampling is allowed (root), >= 90% of that time must carry a stack through
 * the function that blocks (sleep_wait, pipe_wait, lock_wait). As nobody
 * (setpriv, as test-record-unprivileged.c), the times stay right, the
 * switch-outs name no stack and the side file says why. The main spool
 * must pass the whole-file read either way, and the side file's per-thread
 * totals must agree with the companion. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record-run.h"
#include "record-stacks.h"
#include "sp-offcpu.h"

#define SECONDS   "2"
#define TOLERANCE 0.15

typedef struct {
  const char *name;
  const char *blocking_function;
} BlockedThread;

static const BlockedThread blocked_threads[] = {
  { "off-sleep", "sleep_wait" },
  { "off-pipe", "pipe_wait" },
  { "off-lock", "lock_wait" },
};

/* What the companion says of one thread. */
typedef struct {
  guint64 off_ns;        /* switch-out -> switch-in (or thread end) */
  guint64 covered_ns;    /* of it, with a stack through the blocking function */
  guint64 with_stack_ns; /* of it, with any stack */
  guint64 switches;
  guint64 stackless;     /* switch-outs without a stack */
} OffCpuTotals;

/* The workload's "SP-THREAD name=N tid=T cpu_s=C wall_s=W" line for name. */
static void
find_thread_line (const char *out,
                  const char *name,
                  int *tid,
                  double *cpu_s,
                  double *wall_s)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);

  for (char **line = lines; *line != NULL; line++)
    {
      char found[32];

      if (sscanf (*line, "SP-THREAD name=%31s tid=%d cpu_s=%lf wall_s=%lf", found, tid, cpu_s, wall_s) == 4
          && strcmp (found, name) == 0)
        return;
    }
  g_error ("no SP-THREAD line for %s in:\n%s", name, out);
}

static gint
compare_time (gconstpointer a,
              gconstpointer b)
{
  const SpOffCpuRecord *ra = *(const SpOffCpuRecord *const *) a;
  const SpOffCpuRecord *rb = *(const SpOffCpuRecord *const *) b;

  if (ra->timestamp_ns != rb->timestamp_ns)
    return ra->timestamp_ns < rb->timestamp_ns ? -1 : 1;
  return ra < rb ? -1 : ra > rb;  /* file order */
}

/* The companion, whole and undamaged, summed for thread tid: its records
 * in time order (file order breaks ties), as the window reads them: a
 * recorder may write a switch-in it learnt late (an earlier one after a
 * provisional one, docs/OFF-CPU.md), and a switch-in while running is
 * nothing. */
static OffCpuTotals
sum_thread (SpTestRecording *rec,
            const SpOffCpuReader *reader,
            SpElfSymbols *const *symbols,
            int tid,
            const char *blocking_function)
{
  const SpOffCpuRecord *records = sp_offcpu_reader_get_records (reader);
  const SpThread *threads = sp_spool_reader_get_threads (rec->reader);
  size_t n_threads = sp_spool_reader_get_n_threads (rec->reader);
  g_autoptr (GPtrArray) own = g_ptr_array_new ();
  OffCpuTotals totals = { 0 };
  guint64 out_ns = 0;
  guint32 out_stack = SP_SPOOL_NO_ID;
  gboolean out_covered = FALSE;
  gboolean begun = FALSE;

  for (size_t i = 0; i < sp_offcpu_reader_get_n_records (reader); i++)
    {
      const SpOffCpuRecord *record = &records[i];

      if (record->tag == SP_OFFCPU_SYNC)
        continue;
      g_assert_cmpuint (record->thread, <, n_threads);
      if (threads[record->thread].tid == (guint64) tid)
        g_ptr_array_add (own, (gpointer) record);
    }
  g_ptr_array_sort (own, compare_time);
  for (guint i = 0; i < own->len; i++)
    {
      const SpOffCpuRecord *record = own->pdata[i];
      gboolean first = !begun;

      begun = TRUE;
      if (record->tag == SP_OFFCPU_SWITCH_OUT)
        {
          /* A thread's creation: runnable until it first runs, without a
           * stack (it has none yet; sp_offcpu_recording_fork). */
          gboolean creation = first && record->state == SP_OFFCPU_RUNNABLE && record->stack == SP_SPOOL_NO_ID;

          out_ns = record->timestamp_ns;
          out_stack = record->stack;
          out_covered = FALSE;
          if (out_stack != SP_SPOOL_NO_ID)
            {
              g_autofree char *description = sp_test_describe_stack (rec->reader, symbols,
                                                                     threads[record->thread].pid, out_stack);

              out_covered = strstr (description, blocking_function) != NULL;
            }
          else if (!creation)
            totals.stackless++;
          if (!creation)
            totals.switches++;
        }
      else if (out_ns != 0)
        {
          guint64 span = record->timestamp_ns - out_ns;

          totals.off_ns += span;
          if (out_stack != SP_SPOOL_NO_ID)
            totals.with_stack_ns += span;
          if (out_covered)
            totals.covered_ns += span;
          out_ns = 0;
        }
    }
  return totals;
}

/* The switch-out stacks there are right (90% of their time under the
 * blocking function), and 90% of the time has one; but where the kernel
 * lost switch samples or the recorder, behind on a loaded machine, dropped
 * their stacks (missed, which the side file says), every switch-out
 * without a stack must be one of those. */
static void
assert_stacks_accounted (const OffCpuTotals *totals,
                         guint64 missed)
{
  g_assert_cmpuint (totals->covered_ns * 10, >=, totals->with_stack_ns * 9);
  if (missed == 0)
    g_assert_cmpuint (totals->with_stack_ns * 10, >=, totals->off_ns * 9);
  else
    g_assert_cmpuint (totals->stackless, <=, missed);
}

static SpOffCpuReader *
read_companion (SpTestRecording *rec)
{
  g_autofree char *path = g_strconcat (rec->spool, ".offcpu", NULL);
  SpSpoolError err;
  SpOffCpuReader *reader = sp_offcpu_reader_open_follow (path, &err);

  g_assert_nonnull (reader);
  g_assert_true (sp_offcpu_reader_update (reader, &err));
  g_assert_true (sp_offcpu_reader_finish (reader, &err));
  g_assert_null (sp_offcpu_reader_get_damage (reader));
  /* Every SYNC points within the spool the whole-file read accepted. */
  g_assert_cmpuint (sp_offcpu_reader_get_synced_spool_bytes (reader), <=,
                    sp_spool_reader_get_parsed_size (rec->reader));
  return reader;
}

/* Switch-out stacks the recorder lost or dropped (the side file's). */
static guint64
missed_stacks (SpTestRecording *rec)
{
  return sp_test_meta_u64 (rec, "recording", "off_cpu_dropped") + sp_test_meta_u64 (rec, "recording", "off_cpu_lost");
}

/* copy_size: --off-cpu-stack-size, or NULL for the default; option: one
 * more option (--no-cgroup), or NULL. */
static SpTestRecording *
record_offcpu (gboolean as_nobody,
               const char *copy_size,
               const char *option,
               char **workload_out)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *recorder = sp_test_copy_program (sp_test_recorder (), dir);
  g_autofree char *built_workload = sp_test_workload ("offcpu");
  g_autofree char *workload = sp_test_copy_program (built_workload, dir);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  const char *const record[] = { recorder, "-o", "out.spool", "-F", "1000", "--off-cpu", NULL };
  const char *const command[] = { "--", workload, SECONDS, NULL };
  SpTestRecording *rec;
  SpChildResult *result;

  g_assert_cmpint (g_chmod (dir, 0777), ==, 0);
  if (as_nobody)
    sp_test_add_as_nobody (argv);
  for (const char *const *arg = record; *arg != NULL; arg++)
    g_ptr_array_add (argv, (char *) *arg);
  if (copy_size != NULL)
    {
      g_ptr_array_add (argv, "--off-cpu-stack-size");
      g_ptr_array_add (argv, (char *) copy_size);
    }
  if (option != NULL)
    g_ptr_array_add (argv, (char *) option);
  for (const char *const *arg = command; *arg != NULL; arg++)
    g_ptr_array_add (argv, (char *) *arg);
  g_ptr_array_add (argv, NULL);
  result = sp_test_run (dir, "record", (const char *const *) argv->pdata);
  rec = sp_test_recording_new (g_steal_pointer (&dir), result);
  sp_test_assert_recorded (rec, "sp-work-offcpu");
  sp_test_recording_load (rec);
  *workload_out = g_steal_pointer (&workload);
  return rec;
}

/* What the switch-out stacks must hold. */
typedef enum {
  NO_STACKS,         /* kernel sampling not allowed */
  BLOCKING_STACKS,   /* through the blocking function (unwound) */
  FP_STACKS,         /* some stack: a frame-pointer walk from libc's
                      * wrappers (no frame pointers) skips the blocking
                      * function, as perf's does */
} ExpectedStacks;

/* The checks the recordings share. */
static void
check_offcpu (SpTestRecording *rec,
              const char *workload,
              ExpectedStacks stacks)
{
  g_autoptr (SpElfSymbols) workload_symbols = sp_elf_symbols_load (workload);
  SpElfSymbols *symbols[] = { workload_symbols, NULL };
  SpOffCpuReader *reader = read_companion (rec);
  guint64 offcpu_bytes = sp_test_meta_u64 (rec, "recording", "off_cpu_bytes");
  guint64 switches = sp_test_meta_u64 (rec, "recording", "off_cpu_switches");
  guint64 missed = missed_stacks (rec);

  g_assert_true (g_key_file_get_boolean (rec->meta, "recording", "off_cpu", NULL));
  g_assert_cmpuint (switches, >, 0);
  g_test_message ("companion: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " switch-outs: %.1f bytes per "
                  "switch (out and in); dropped stacks %" G_GUINT64_FORMAT ", lost %" G_GUINT64_FORMAT,
                  offcpu_bytes, switches, (double) offcpu_bytes / (double) switches,
                  sp_test_meta_u64 (rec, "recording", "off_cpu_dropped"),
                  sp_test_meta_u64 (rec, "recording", "off_cpu_lost"));
  for (size_t i = 0; i < G_N_ELEMENTS (blocked_threads); i++)
    {
      const BlockedThread *blocked = &blocked_threads[i];
      g_autofree char *group = NULL;
      int tid;
      double cpu_s, wall_s, expected_s, measured_s, side_s;
      OffCpuTotals totals;

      find_thread_line (rec->result->out, blocked->name, &tid, &cpu_s, &wall_s);
      totals = sum_thread (rec, reader, symbols, tid, blocked->blocking_function);
      expected_s = wall_s - cpu_s;
      measured_s = totals.off_ns / 1e9;
      group = g_strdup_printf ("thread %d", tid);
      side_s = (sp_test_meta_u64 (rec, group, "blocked_ns") + sp_test_meta_u64 (rec, group, "runnable_ns")) / 1e9;
      g_test_message ("%s: wall - cpu %.3f s, companion %.3f s (side file %.3f s), %" G_GUINT64_FORMAT
                      " switch-outs, %.1f%% with a stack, %.1f%% under %s", blocked->name, expected_s, measured_s,
                      side_s, totals.switches, 100.0 * totals.with_stack_ns / MAX (totals.off_ns, 1),
                      100.0 * totals.covered_ns / MAX (totals.off_ns, 1), blocked->blocking_function);
      g_assert_cmpfloat (measured_s, >=, expected_s * (1 - TOLERANCE));
      g_assert_cmpfloat (measured_s, <=, expected_s * (1 + TOLERANCE));
      g_assert_cmpfloat (side_s, >=, expected_s * (1 - TOLERANCE));
      g_assert_cmpfloat (side_s, <=, expected_s * (1 + TOLERANCE));
      g_assert_cmpuint (sp_test_meta_u64 (rec, group, "switches"), ==, totals.switches);
      if (stacks == BLOCKING_STACKS)
        assert_stacks_accounted (&totals, missed);
      else if (stacks == FP_STACKS)
        g_assert_cmpuint (totals.stackless, <=, missed);
      else
        g_assert_cmpuint (totals.with_stack_ns, ==, 0);
    }
  sp_offcpu_reader_free (reader);
}

/* Where a cgroup2 hierarchy is mounted, root's launch with --off-cpu is
 * followed by per-CPU events of a cgroup made for it, taken away after. */
static void
assert_own_cgroup (SpTestRecording *rec)
{
  g_autofree char *mounts = NULL;
  g_autofree char *cgroup = g_key_file_get_string (rec->meta, "recording", "cgroup", NULL);
  g_autofree char *refused = g_key_file_get_string (rec->meta, "recording", "cgroup_refused", NULL);

  g_test_message ("cgroup: %s%s%s", cgroup != NULL ? cgroup : "none", refused != NULL ? ", refused: " : "",
                  refused != NULL ? refused : "");
  g_assert_true (g_file_get_contents ("/proc/self/mountinfo", &mounts, NULL, NULL));
  if (strstr (mounts, " - cgroup2 ") == NULL && strstr (mounts, "perf_event") == NULL)
    {
      g_assert_nonnull (refused);
      return;
    }
  g_assert_nonnull (cgroup);
  g_assert_null (refused);
  /* Made inside the recorder's own cgroup. */
  g_assert_nonnull (strstr (cgroup, "/stackpulse-record."));
  /* Gone: no directory of that name in any cgroup hierarchy. */
  for (const char *top = mounts; (top = strstr (top, " - cgroup")) != NULL; top++)
    {
      const char *line = top;
      g_autofree char *point = NULL;
      g_autofree char *path = NULL;
      char name[4096];

      while (line > mounts && line[-1] != '\n')
        line--;
      g_assert_cmpint (sscanf (line, "%*s %*s %*s %*s %4095s", name), ==, 1);
      point = g_strdup (name);
      path = g_build_filename (point, cgroup, NULL);
      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    }
}

/* The cgroup2 mount point, or NULL (then the cases below do not apply:
 * they move processes between cgroup2 cgroups). */
static char *
cgroup2_mount (void)
{
  g_autofree char *mounts = NULL;
  const char *line;
  char point[4096];

  if (!g_file_get_contents ("/proc/self/mountinfo", &mounts, NULL, NULL)
      || (line = strstr (mounts, " - cgroup2 ")) == NULL
      || (strstr (mounts, " - cgroup ") != NULL && strstr (mounts, "perf_event") != NULL))
    return NULL;
  while (line > mounts && line[-1] != '\n')
    line--;
  return sscanf (line, "%*s %*s %*s %*s %4095s", point) == 1 ? g_strdup (point) : NULL;
}

/* A shell script run under --off-cpu (and option, unless NULL) as root,
 * given the cgroup2 mount as $0 and its own cgroup as $cg. */
static SpTestRecording *
record_script_with (const char *option,
                    const char *script)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *mount = cgroup2_mount ();
  g_autofree char *body = g_strconcat ("cg=$(sed -n 's/^0:://p' /proc/self/cgroup); ", script, NULL);
  const char *const with[] = { sp_test_recorder (), "-o", "out.spool", "--off-cpu", option, "--", "/bin/sh", "-c", body,
                               mount, NULL };
  const char *const without[] = { sp_test_recorder (), "-o", "out.spool", "--off-cpu", "--", "/bin/sh", "-c", body, mount,
                                  NULL };
  const char *const *argv = option != NULL ? with : without;
  /* Run before dir is handed over: the order arguments are evaluated in
   * is the compiler's (clang stole dir first, and the run had no folder). */
  SpChildResult *result = sp_test_run (dir, "record", argv);
  SpTestRecording *rec = sp_test_recording_new (g_steal_pointer (&dir), result);

  g_test_message ("stderr: %s", rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  sp_test_recording_load (rec);
  return rec;
}

static SpTestRecording *
record_script (const char *script)
{
  return record_script_with (NULL, script);
}

static gboolean
cgroup_case_applies (void)
{
  g_autofree char *mount = NULL;

  if (!sp_test_case_needs_perf ())
    return FALSE;
  mount = cgroup2_mount ();
  if (getuid () != 0 || mount == NULL)
    {
      g_test_skip ("needs root and perf_event on a cgroup2 hierarchy");
      return FALSE;
    }
  return TRUE;
}

/* A program that moves itself out of the recording's cgroup is no longer
 * seen by its events: said on stderr and in the side file. */
static void
test_cgroup_left (void)
{
  g_autoptr (SpTestRecording) rec = NULL;
  g_autofree char *left = NULL;

  if (!cgroup_case_applies ())
    return;
  rec = record_script ("echo $$ > \"$0${cg%/*}/cgroup.procs\"; sleep 1.5");
  g_assert_nonnull (strstr (rec->result->err, "left the recording's cgroup"));
  left = g_key_file_get_string (rec->meta, "recording", "cgroup_left", NULL);
  g_assert_nonnull (left);
  g_assert_cmpint (atoi (left), >, 0);
}

/* Short processes that run and end without ever switching out: with
 * sched_switch samples (fp) no switch-in or switch-out of theirs is
 * written, and each sampled one is ended all the same, or a reader would
 * count it running to the end of the recording. */
static void
test_short_processes_end (void)
{
  g_autoptr (SpTestRecording) rec = NULL;
  g_autoptr (GHashTable) ended = g_hash_table_new (NULL, NULL);
  SpOffCpuReader *reader;
  const SpOffCpuRecord *records;
  const SpThread *threads;
  guint checked = 0;

  if (!cgroup_case_applies ())
    return;
  rec = record_script_with ("--call-graph=fp", "for i in $(seq 30); do /bin/true; done; sleep 0.3");
  reader = read_companion (rec);
  records = sp_offcpu_reader_get_records (reader);
  for (size_t i = 0; i < sp_offcpu_reader_get_n_records (reader); i++)
    if (records[i].tag == SP_OFFCPU_THREAD_END)
      g_hash_table_add (ended, GUINT_TO_POINTER (records[i].thread));
  threads = sp_spool_reader_get_threads (rec->reader);
  for (size_t i = 0; i < sp_spool_reader_get_n_threads (rec->reader); i++)
    {
      g_autofree char *group = g_strdup_printf ("thread %" G_GUINT64_FORMAT, (guint64) threads[i].tid);

      if (!g_key_file_has_key (rec->meta, group, "exit_ns", NULL))
        continue;
      g_assert_true (g_hash_table_contains (ended, GUINT_TO_POINTER ((guint) i)));
      checked++;
    }
  g_test_message ("%u ended threads in the spool, each with its end in the companion", checked);
  g_assert_cmpuint (checked, >, 0);
  sp_offcpu_reader_free (reader);
}

/* Cgroups the program makes inside the recording's go with it, said. */
static void
test_cgroup_nested (void)
{
  g_autoptr (SpTestRecording) rec = NULL;
  g_autofree char *cgroup = NULL;
  g_autofree char *mount = cgroup2_mount ();
  g_autofree char *path = NULL;

  if (!cgroup_case_applies ())
    return;
  rec = record_script ("mkdir \"$0$cg/sub\" && echo $$ > \"$0$cg/sub/cgroup.procs\" && sleep 0.5");
  cgroup = g_key_file_get_string (rec->meta, "recording", "cgroup", NULL);
  g_assert_nonnull (cgroup);
  g_assert_nonnull (strstr (rec->result->err, "which the recorded program made"));
  g_assert_null (strstr (rec->result->err, "cannot remove"));
  g_assert_false (g_key_file_has_key (rec->meta, "recording", "cgroup_left", NULL));
  path = g_build_filename (mount, cgroup, NULL);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
}

/* --no-cgroup: root's launch followed by per-task events, as any user's,
 * with the same figures. */
static void
test_root_per_task (void)
{
  g_autofree char *workload = NULL;
  g_autoptr (SpTestRecording) rec = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  if (getuid () != 0)
    {
      g_test_skip ("the switch-out stacks need root here");
      return;
    }
  rec = record_offcpu (FALSE, NULL, "--no-cgroup", &workload);
  g_assert_false (g_key_file_has_key (rec->meta, "recording", "cgroup", NULL));
  g_assert_false (g_key_file_has_key (rec->meta, "recording", "off_cpu_switch_source", NULL));
  g_assert_false (g_key_file_has_key (rec->meta, "recording", "cgroup_refused", NULL));
  check_offcpu (rec, workload, BLOCKING_STACKS);
}

static void
test_root (void)
{
  g_autofree char *workload = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  g_autofree char *stacks = NULL;
  g_autofree char *source = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  if (getuid () != 0)
    {
      g_test_skip ("the switch-out stacks need root here");
      return;
    }
  rec = record_offcpu (FALSE, NULL, NULL, &workload);
  assert_own_cgroup (rec);
  /* Stack copies at every switch-out: the switch records keep the states
   * (a lost sched_switch sample would be a lost switch). */
  source = g_key_file_get_string (rec->meta, "recording", "off_cpu_switch_source", NULL);
  if (g_key_file_has_key (rec->meta, "recording", "cgroup", NULL))
    g_assert_cmpstr (source, ==, "switch_records");
  stacks = g_key_file_get_string (rec->meta, "recording", "off_cpu_stacks", NULL);
  g_assert_cmpstr (stacks, ==, "kernel+user");
  g_assert_false (g_key_file_has_key (rec->meta, "recording", "off_cpu_stacks_reason", NULL));
  check_offcpu (rec, workload, BLOCKING_STACKS);
  /* The whole copy, as for running stacks: no frame-pointer tail asked. */
  g_assert_cmpuint (sp_test_meta_u64 (rec, "recording", "off_cpu_stack_size"), ==, 16384);
  g_assert_cmpuint (sp_test_meta_u64 (rec, "recording", "off_cpu_frame_pointer_tails"), ==, 0);
}

/* With sched_switch split by state (off_cpu_preempted_stacks=user): a
 * blocked thread's switch-out stack has the kernel's frames (what it waits
 * in), a preempted one's has none (the scheduler's own path, left out
 * for what walking it costs the program). */
static void
check_kernel_frames_by_state (SpTestRecording *rec,
                              const char *workload)
{
  g_autoptr (SpElfSymbols) workload_symbols = sp_elf_symbols_load (workload);
  SpElfSymbols *symbols[] = { workload_symbols, NULL };
  SpOffCpuReader *reader = read_companion (rec);
  const SpOffCpuRecord *records = sp_offcpu_reader_get_records (reader);
  const SpThread *threads = sp_spool_reader_get_threads (rec->reader);
  guint64 with_stack[3] = { 0 }, with_kernel[3] = { 0 };

  for (size_t i = 0; i < sp_offcpu_reader_get_n_records (reader); i++)
    {
      const SpOffCpuRecord *record = &records[i];
      g_autofree char *description = NULL;

      if (record->tag != SP_OFFCPU_SWITCH_OUT || record->stack == SP_SPOOL_NO_ID)
        continue;
      g_assert_true (record->state == SP_OFFCPU_BLOCKED || record->state == SP_OFFCPU_RUNNABLE);
      description = sp_test_describe_stack (rec->reader, symbols, threads[record->thread].pid, record->stack);
      with_stack[record->state]++;
      if (strstr (description, "[kernel]") != NULL)
        with_kernel[record->state]++;
    }
  g_test_message ("switch-outs with a stack: blocked %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " with kernel "
                  "frames), preempted %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " with kernel frames)",
                  with_stack[SP_OFFCPU_BLOCKED], with_kernel[SP_OFFCPU_BLOCKED], with_stack[SP_OFFCPU_RUNNABLE],
                  with_kernel[SP_OFFCPU_RUNNABLE]);
  g_assert_cmpuint (with_stack[SP_OFFCPU_BLOCKED], >, 0);
  g_assert_cmpuint (with_kernel[SP_OFFCPU_BLOCKED], ==, with_stack[SP_OFFCPU_BLOCKED]);
  /* The spinning thread shares two CPUs with five others that wake. */
  g_assert_cmpuint (with_stack[SP_OFFCPU_RUNNABLE], >, 0);
  g_assert_cmpuint (with_kernel[SP_OFFCPU_RUNNABLE], ==, 0);
  sp_offcpu_reader_free (reader);
}

/* --call-graph fp as root: the cgroup's switch-outs are sched_switch
 * tracepoint samples where tracefs has it, one record per switch instead
 * of three, and the switch-ins are inferred (next_pid, the cgroup's
 * running time on the CPU): the threads' times hold all the same. */
static void
test_root_sched_switch (void)
{
  g_autofree char *workload = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  g_autofree char *source = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  if (getuid () != 0)
    {
      g_test_skip ("the switch-out samples need root here");
      return;
    }
  rec = record_offcpu (FALSE, NULL, "--call-graph=fp", &workload);
  assert_own_cgroup (rec);
  source = g_key_file_get_string (rec->meta, "recording", "off_cpu_switch_source", NULL);
  if (!g_key_file_has_key (rec->meta, "recording", "cgroup", NULL))
    g_assert_null (source);
  else if (g_file_test ("/sys/kernel/tracing/events/sched/sched_switch/format", G_FILE_TEST_EXISTS))
    g_assert_cmpstr (source, ==, "sched_switch");
  else
    g_assert_cmpstr (source, ==, "switch_records");
  check_offcpu (rec, workload, FP_STACKS);
  /* Every kernel the project runs on takes the tracepoint's filters
   * (4.17 and later). */
  if (g_strcmp0 (source, "sched_switch") == 0)
    {
      g_autofree char *preempted = g_key_file_get_string (rec->meta, "recording", "off_cpu_preempted_stacks", NULL);

      g_assert_cmpstr (preempted, ==, "user");
      check_kernel_frames_by_state (rec, workload);
    }
}

/* --off-cpu-stack-size 128: a copy that holds the libc frames a thread
 * blocks in and little more. Where it runs out, in the workload's
 * frame-pointer code, the stack goes on along the kernel's frame-pointer
 * chain: the blocking functions are named as with the whole copy, and the
 * stacks reach the threads' entry function. */
static void
test_short_copy (void)
{
  g_autofree char *workload = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  g_autoptr (SpElfSymbols) workload_symbols = NULL;
  SpElfSymbols *symbols[2] = { NULL, NULL };
  SpOffCpuReader *reader;
  guint64 switches, tails, truncated, missed;

  if (!sp_test_case_needs_perf ())
    return;
  if (getuid () != 0)
    {
      g_test_skip ("the switch-out stacks need root here");
      return;
    }
  rec = record_offcpu (FALSE, "128", NULL, &workload);
  g_assert_cmpuint (sp_test_meta_u64 (rec, "recording", "off_cpu_stack_size"), ==, 128);
  switches = sp_test_meta_u64 (rec, "recording", "off_cpu_switches");
  tails = sp_test_meta_u64 (rec, "recording", "off_cpu_frame_pointer_tails");
  truncated = sp_test_meta_u64 (rec, "recording", "off_cpu_truncated");
  g_test_message ("%" G_GUINT64_FORMAT " switch-outs: %" G_GUINT64_FORMAT " went on along frame pointers, %"
                  G_GUINT64_FORMAT " truncated", switches, tails, truncated);
  g_assert_cmpuint (tails * 2, >=, switches);
  g_assert_cmpuint (truncated * 10, <=, switches);
  check_offcpu (rec, workload, BLOCKING_STACKS);
  missed = missed_stacks (rec);
  workload_symbols = sp_elf_symbols_load (workload);
  symbols[0] = workload_symbols;
  reader = read_companion (rec);
  for (size_t i = 0; i < G_N_ELEMENTS (blocked_threads); i++)
    {
      int tid;
      double cpu_s, wall_s;
      OffCpuTotals totals;

      find_thread_line (rec->result->out, blocked_threads[i].name, &tid, &cpu_s, &wall_s);
      totals = sum_thread (rec, reader, symbols, tid, "thread_main");
      assert_stacks_accounted (&totals, missed);
    }
  sp_offcpu_reader_free (reader);
}

static void
test_nobody (void)
{
  g_autofree char *workload = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  g_autofree char *stacks = NULL;
  g_autofree char *reason = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  if (getuid () != 0 || sp_test_perf_event_paranoid () < 2)
    {
      g_test_skip ("needs root (to become nobody) and kernel.perf_event_paranoid >= 2");
      return;
    }
  rec = record_offcpu (TRUE, NULL, NULL, &workload);
  stacks = g_key_file_get_string (rec->meta, "recording", "off_cpu_stacks", NULL);
  reason = g_key_file_get_string (rec->meta, "recording", "off_cpu_stacks_reason", NULL);
  g_assert_cmpstr (stacks, ==, "none");
  g_assert_nonnull (reason);
  sp_test_assert_contains (reason, "perf_event_paranoid");
  sp_test_assert_contains (reason, "CAP_PERFMON");
  sp_test_assert_contains (rec->result->err, "off-CPU stacks are not recorded");
  check_offcpu (rec, workload, NO_STACKS);
}

/* The companion is created as the spool is: never through a link; and a
 * recording without it, over one with it, takes the old companion away. */
static void
test_companion_file (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *workload = sp_test_workload ("offcpu");
  g_autofree char *spool = NULL;
  g_autofree char *companion = NULL;
  g_autofree char *target = NULL;
  const char *with[] = { sp_test_recorder (), "-o", NULL, "--off-cpu", "--", workload, "0.2", NULL };
  const char *without[] = { sp_test_recorder (), "-o", NULL, "--", workload, "0.2", NULL };
  g_autoptr (SpChildResult) refused = NULL;
  g_autoptr (SpChildResult) first = NULL;
  g_autoptr (SpChildResult) second = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  dir = sp_test_make_dir ();
  spool = g_build_filename (dir, "out.spool", NULL);
  companion = g_strconcat (spool, ".offcpu", NULL);
  target = g_build_filename (dir, "elsewhere", NULL);
  with[2] = without[2] = spool;

  g_assert_cmpint (symlink (target, companion), ==, 0);
  refused = sp_test_run_recorder (dir, with);
  g_assert_cmpint (refused->exit_code, !=, 0);
  sp_test_assert_contains (refused->err, "symbolic link");
  g_assert_false (g_file_test (spool, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (target, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_unlink (companion), ==, 0);

  first = sp_test_run_recorder (dir, with);
  g_assert_cmpint (first->exit_code, ==, 0);
  g_assert_true (g_file_test (companion, G_FILE_TEST_IS_REGULAR));
  second = sp_test_run_recorder (dir, without);
  g_assert_cmpint (second->exit_code, ==, 0);
  g_assert_true (g_file_test (spool, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (companion, G_FILE_TEST_EXISTS));
  sp_test_remove_dir (dir);
}

/* Attached with --off-cpu: the workload's main thread waits in
 * pthread_join for the whole recording, with no switch and no sample in
 * it. It is there all the same, blocked from the start to the end. */
static void
test_attach_blocked (void)
{
  g_autofree char *workload = sp_test_workload ("offcpu");
  g_autofree char *dir = NULL;
  g_autofree char *ready_path = NULL;
  g_autofree char *ready = NULL;
  g_autofree char *pid_text = NULL;
  g_autofree char *group = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  SpChild *target;
  GPid pid;
  guint64 blocked_ns;

  if (!sp_test_case_needs_perf ())
    return;
  dir = sp_test_make_dir ();
  ready_path = g_build_filename (dir, "ready", NULL);
  target = sp_child_spawn (dir, "workload", (const char *const[]) { workload, "--ready", ready_path, "30", NULL },
                           FALSE);
  ready = sp_test_wait_for_file (target, ready_path);
  pid = target->pid;
  pid_text = g_strdup_printf ("%d", (int) pid);
  rec = sp_test_record ((const char *const[]) { "--off-cpu", "--duration", "1", "-p", pid_text, NULL }, NULL);
  sp_child_kill (target);
  g_test_message ("recorder's stderr:\n%s", rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  sp_test_recording_load (rec);
  group = g_strdup_printf ("thread %d", (int) pid);
  blocked_ns = g_key_file_get_uint64 (rec->meta, group, "blocked_ns", NULL);
  g_test_message ("main thread blocked %.3f s", blocked_ns / 1e9);
  g_assert_cmpuint (blocked_ns, >, 900000000);
  sp_test_remove_dir (dir);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;
  g_test_add_func ("/recorder/offcpu/root", test_root);
  g_test_add_func ("/recorder/offcpu/root-per-task", test_root_per_task);
  g_test_add_func ("/recorder/offcpu/root-sched-switch", test_root_sched_switch);
  g_test_add_func ("/recorder/offcpu/cgroup-left", test_cgroup_left);
  g_test_add_func ("/recorder/offcpu/cgroup-nested", test_cgroup_nested);
  g_test_add_func ("/recorder/offcpu/short-processes-end", test_short_processes_end);
  g_test_add_func ("/recorder/offcpu/short-copy", test_short_copy);
  g_test_add_func ("/recorder/offcpu/nobody", test_nobody);
  g_test_add_func ("/recorder/offcpu/companion-file", test_companion_file);
  g_test_add_func ("/recorder/offcpu/attach-blocked", test_attach_blocked);
  return g_test_run ();
}
