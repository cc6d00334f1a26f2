/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-attach.c: stackpulse-record -p on a workload that runs.
 *
 * The workload's threads exist before the recorder does, so their ids,
 * names and mappings must come from /proc, and each needs its own event
 * (exactly one: two would count its samples twice). --duration must end
 * the recording of a target that would run for 30 s. While the recorder
 * runs, the test polls each thread's CPU time (/proc/.../schedstat), so
 * the CPU time inside the recorded window (the side file's start and end)
 * is known to within a few milliseconds. */
#include <glib.h>
#include <time.h>

#include "record-run.h"
#include "record-stacks.h"

#define DURATION_S    0.5
#define DURATION_TEXT "0.5"
#define FREQUENCY_HZ  1000
/* How long the recorder may take beyond --duration to finish. */
#define FINISH_S      2.5

/* The workload's threads: as its ready file names them, the name the
 * side file should give them, and the call path most samples show. */
static const struct {
  const char *key;
  const char *name;
  const char *path;
} threads[] = {
  { "main", "sp-work-threads", "main_leaf;compute_main;run_workers;main" },
  { "sp-alpha", "sp-alpha", "alpha_leaf;compute_alpha;worker_main" },
  { "sp-beta", "sp-beta", "beta_leaf;compute_beta;worker_main" },
  { "sp-gamma", "sp-gamma", "compute_gamma;worker_main" },
};

#define N_THREADS G_N_ELEMENTS (threads)

/* One look at the threads' CPU times while the recorder ran. */
typedef struct {
  guint64 time_ns;               /* CLOCK_MONOTONIC, as the side file */
  guint64 cpu_ns[N_THREADS];
} CpuPoll;

typedef struct {
  SpTestRecording *rec;
  char            *ready;        /* the workload's ready file */
  gint32           pid;
  gint32           tids[N_THREADS];
  GArray          *polls;        /* CpuPoll, in time order */
  SpElfSymbols    *symbols[2];
} Attached;

static Attached attached;

static guint64
monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * G_GUINT64_CONSTANT (1000000000) + (guint64) ts.tv_nsec;
}

/* A task's time on a CPU so far, from /proc/PID/task/TID/schedstat. */
static guint64
task_cpu_ns (gint32 pid,
             gint32 tid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/task/%d/schedstat", (int) pid, (int) tid);
  g_autofree char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return g_ascii_strtoull (text, NULL, 10);
}

static void
poll_cpu (Attached *a)
{
  CpuPoll poll;

  poll.time_ns = monotonic_ns ();
  for (guint i = 0; i < N_THREADS; i++)
    poll.cpu_ns[i] = task_cpu_ns (a->pid, a->tids[i]);
  g_array_append_val (a->polls, poll);
}

/* Runs the recorder for DURATION_S on the workload's pid, polling the
 * threads' CPU times every 2 ms until it exits. */
static SpChildResult *
record_attached (Attached *a,
                 const char *dir)
{
  g_autofree char *pid_text = g_strdup_printf ("%d", (int) a->pid);
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", "out.spool", "-F", "1000", "-p", pid_text,
                                      "--duration", DURATION_TEXT, NULL);
  SpChild *recorder;
  SpChildResult *result;

  poll_cpu (a);
  recorder = sp_child_spawn (dir, "record", (const char *const *) argv, FALSE);
  while ((result = sp_child_poll (recorder)) == NULL)
    {
      poll_cpu (a);
      g_usleep (2000);
    }
  poll_cpu (a);
  return result;
}

/* sp-work-threads runs for 30 s; the recorder attaches for DURATION_S. */
static Attached *
get_attached (void)
{
  g_autofree char *workload = NULL;
  g_autofree char *ready_path = NULL;
  SpChildResult *result;
  SpChild *target;
  char *dir;

  if (attached.rec != NULL)
    return &attached;
  workload = sp_test_workload ("threads");
  dir = sp_test_make_dir ();
  ready_path = g_build_filename (dir, "ready", NULL);
  target = sp_child_spawn (dir, "workload", (const char *const[]) { workload, "--ready", ready_path, "30", NULL },
                           FALSE);
  attached.ready = sp_test_wait_for_file (target, ready_path);
  attached.pid = sp_test_ready_id (attached.ready, "main");
  g_assert_cmpint (attached.pid, ==, target->pid);
  for (guint i = 0; i < N_THREADS; i++)
    attached.tids[i] = sp_test_ready_id (attached.ready, threads[i].key);
  attached.polls = g_array_new (FALSE, FALSE, sizeof (CpuPoll));

  result = record_attached (&attached, dir);
  sp_child_kill (target);
  attached.rec = sp_test_recording_new (dir, result);
  g_test_message ("recorder's stderr:\n%s", result->err);
  g_assert_cmpint (result->exit_code, ==, 0);
  sp_test_recording_load (attached.rec);
  attached.symbols[0] = sp_elf_symbols_load (workload);
  return &attached;
}

static guint64
meta_u64 (SpTestRecording *rec,
          const char *key)
{
  g_autoptr (GError) error = NULL;
  guint64 value = g_key_file_get_uint64 (rec->meta, "recording", key, &error);

  g_assert_no_error (error);
  return value;
}

/* Thread i's CPU time between the side file's start and end: at least
 * *low (polls inside the window), at most *high (polls just outside). */
static void
cpu_in_window (Attached *a,
               guint i,
               guint64 *low,
               guint64 *high)
{
  const CpuPoll *polls = (const CpuPoll *) a->polls->data;

  sp_test_cpu_in_window (&polls[0].time_ns, &polls[0].cpu_ns[i], sizeof (CpuPoll) / sizeof (guint64), a->polls->len,
                         meta_u64 (a->rec, "start_monotonic_ns"), meta_u64 (a->rec, "end_monotonic_ns"), low, high);
}

static void
test_attach_valid_spool (void)
{
  Attached *a = get_attached ();

  g_assert_cmpuint (sp_spool_reader_get_n_samples (a->rec->reader), >, 0);
  sp_test_assert_meta_int (a->rec, "recording", "samples", (gint64) sp_spool_reader_get_n_samples (a->rec->reader));
  sp_test_assert_meta_string (a->rec, "recording", "complete", "true");
  /* Nothing was launched, so there is no exit status to pass on. */
  g_assert_false (g_key_file_has_key (a->rec->meta, "recording", "exit_status", NULL));
  /* The workload's own mapping, read from /proc/PID/maps. */
  g_assert_cmpint (sp_test_find_module (a->rec->reader, a->pid, sp_elf_symbols_get_path (a->symbols[0])), >=, 0);
}

/* --duration 0.5 ends the recording of a target that would run 30 s. */
static void
test_attach_duration (void)
{
  Attached *a = get_attached ();
  guint64 start = meta_u64 (a->rec, "start_monotonic_ns");
  guint64 end = meta_u64 (a->rec, "end_monotonic_ns");

  g_test_message ("recorder ran %.2f s, recorded %.2f s", a->rec->result->elapsed_s, (end - start) / 1e9);
  g_assert_cmpfloat ((end - start) / 1e9, >=, DURATION_S);
  g_assert_cmpfloat ((end - start) / 1e9, <, DURATION_S + 1.0);
  g_assert_cmpfloat (a->rec->result->elapsed_s, <, DURATION_S + FINISH_S);
}

/* Threads that existed before the attach: sampled under their ids, with
 * the names they gave themselves, as often as their CPU time says. */
static void
test_attach_threads (void)
{
  Attached *a = get_attached ();

  for (guint i = 0; i < N_THREADS; i++)
    {
      g_autofree char *group = g_strdup_printf ("thread %d", (int) a->tids[i]);
      gsize n = sp_test_count_samples (a->rec->reader, a->pid, (guint64) a->tids[i]);
      guint64 low, high;

      sp_test_assert_meta_int (a->rec, group, "pid", a->pid);
      sp_test_assert_meta_string (a->rec, group, "name", threads[i].name);
      cpu_in_window (a, i, &low, &high);
      sp_test_assert_samples_fit_cpu (threads[i].name, a->tids[i], low, high, n, FREQUENCY_HZ);
    }
}

/* The known call paths, in the module read from /proc/PID/maps. */
static void
test_attach_call_paths (void)
{
  Attached *a = get_attached ();

  for (guint i = 0; i < N_THREADS; i++)
    {
      gint32 tid = a->tids[i];
      gsize n = sp_test_count_samples (a->rec->reader, a->pid, (guint64) tid);
      gsize with = sp_test_count_samples_with (a->rec->reader, a->symbols, a->pid, (guint64) tid, threads[i].path);
      g_autofree char *common = sp_test_most_common_stack (a->rec->reader, a->symbols, a->pid, (guint64) tid);

      g_test_message ("%s: %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " samples show %s; most common: %s",
                      threads[i].name, with, n, threads[i].path, common);
      g_assert_cmpuint (n, >, 0);
      g_assert_cmpuint (with * 2, >=, n);
    }
}

int
main (int argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;

  g_test_add_func ("/recorder/attach/valid-spool", test_attach_valid_spool);
  g_test_add_func ("/recorder/attach/duration", test_attach_duration);
  g_test_add_func ("/recorder/attach/threads", test_attach_threads);
  g_test_add_func ("/recorder/attach/call-paths", test_attach_call_paths);
  status = g_test_run ();

  g_clear_pointer (&attached.rec, sp_test_recording_free);
  g_clear_pointer (&attached.symbols[0], sp_elf_symbols_free);
  g_clear_pointer (&attached.polls, g_array_unref);
  g_free (attached.ready);
  return status;
}
