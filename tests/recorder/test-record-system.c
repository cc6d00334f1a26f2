/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-system.c: stackpulse-record -a, the whole system.
 *
 * Two workloads run before the recorder starts (sp-work-threads, four
 * threads, and sp-work-deep), a third starts while it records: all three
 * must be in the recording by pid, with their threads' names, and the two
 * that ran throughout with as many samples as their CPU time in the
 * recorded window (polled from /proc/PID/task/TID/schedstat while the
 * recorder runs) says, within a margin for a shared machine. Kernel
 * threads are named as the kernel names them, the idle task is idle time
 * (idle_samples), never a process 0. As nobody with
 * kernel.perf_event_paranoid above 0, -a is refused with what would allow
 * it, and leaves no file. Without --duration it records until a line
 * "stop" on its control channel.
 *
 * -a needs root, CAP_PERFMON or paranoid <= 0: without them the cases
 * skip, but fail under CI (env CI set), like the other recorder tests. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "record-run.h"
#include "record-stacks.h"

/* Long enough for the late workload to start, exec and run inside the
 * recording when a sanitizer build on a slow machine takes most of a
 * second to start it: with 1.5 s, a fresh-clone CI run had its exec after
 * the recording's end (its fork recorded, its exec and samples not). */
#define DURATION_TEXT "3"
#define FREQUENCY_HZ  1000
/* The shared machine's noise: samples within this share of CPU time. */
#define TOLERANCE     0.35

typedef struct {
  guint64 time_ns;     /* CLOCK_MONOTONIC, as the side file */
  guint64 cpu_ns[2];   /* the two workloads' threads together */
} CpuPoll;

typedef struct {
  SpTestRecording *rec;
  char            *dir;
  gint32           pids[2];     /* sp-work-threads, sp-work-deep */
  gint32           late_pid;    /* sp-work-threads started while recording */
  char            *late_ready;
  GArray          *polls;
} System;

static System sys;

/* Whether -a may work here: root, or paranoid 0 or less. Outside CI a
 * case skips when not; under CI it fails. */
static gboolean
system_wide_allowed (void)
{
  g_autofree char *reason = NULL;

  if (!sp_test_perf_usable (&reason))
    {
      g_test_skip (reason);
      return FALSE;
    }
  if (geteuid () == 0 || sp_test_perf_event_paranoid () <= 0)
    return TRUE;
  reason = g_strdup_printf ("-a needs root or kernel.perf_event_paranoid <= 0 (it is %d)",
                            sp_test_perf_event_paranoid ());
  if (g_getenv ("CI") != NULL)
    g_error ("%s, but CI is set: the recorder's tests must run in CI", reason);
  g_test_skip (reason);
  return FALSE;
}

/* Every thread's time on a CPU so far, from /proc/PID/task/ * /schedstat;
 * a thread that ended since the listing counts no more. */
static guint64
process_cpu_ns (gint32 pid)
{
  g_autofree char *task_dir = g_strdup_printf ("/proc/%d/task", (int) pid);
  g_autoptr (GDir) dir = g_dir_open (task_dir, 0, NULL);
  const char *name;
  guint64 total = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s/schedstat", task_dir, name);
      g_autofree char *text = NULL;

      if (g_file_get_contents (path, &text, NULL, NULL))
        total += g_ascii_strtoull (text, NULL, 10);
    }
  return total;
}

static void
poll_cpu (System *s)
{
  /* GLib's monotonic clock is CLOCK_MONOTONIC, the side file's, in µs. */
  CpuPoll poll = { (guint64) g_get_monotonic_time () * 1000, { process_cpu_ns (s->pids[0]),
                                                               process_cpu_ns (s->pids[1]) } };

  g_array_append_val (s->polls, poll);
}

/* Starts sp-work-threads in the recording's third: once the side file
 * says the recording runs, so that it is new to the recorder. */
static SpChild *
start_late_workload (System *s,
                     SpChild *recorder,
                     const char *workload)
{
  g_autofree char *meta = g_build_filename (s->dir, "out.spool.meta", NULL);
  g_autofree char *ready_path = g_build_filename (s->dir, "late-ready", NULL);
  SpChild *late;

  g_free (sp_test_wait_for_file (recorder, meta));
  late = sp_child_spawn (s->dir, "late", (const char *const[]) { workload, "--ready", ready_path, "0.6", NULL },
                         FALSE);
  s->late_pid = late->pid;
  s->late_ready = sp_test_wait_for_file (late, ready_path);
  return late;
}

/* Records the whole system for DURATION_S beside the workloads, once for
 * every case. */
static System *
get_system (void)
{
  g_autofree char *threads = sp_test_workload ("threads");
  g_autofree char *deep = sp_test_workload ("deep");
  g_autofree char *ready_path = NULL;
  g_auto (GStrv) argv = NULL;
  SpChild *workloads[2], *recorder, *late;
  SpChildResult *result;

  if (sys.rec != NULL)
    return &sys;
  sys.dir = sp_test_make_dir ();
  ready_path = g_build_filename (sys.dir, "ready", NULL);
  workloads[0] = sp_child_spawn (sys.dir, "threads", (const char *const[]) { threads, "--ready", ready_path, "30",
                                                                           NULL }, FALSE);
  g_free (sp_test_wait_for_file (workloads[0], ready_path));
  workloads[1] = sp_child_spawn (sys.dir, "deep", (const char *const[]) { deep, "30", "40", NULL }, FALSE);
  sys.pids[0] = workloads[0]->pid;
  sys.pids[1] = workloads[1]->pid;
  sys.polls = g_array_new (FALSE, FALSE, sizeof (CpuPoll));
  g_usleep (100000);  /* sp-work-deep is past its exec */

  argv = sp_test_argv (sp_test_recorder (), "-o", "out.spool", "-F", "1000", "-a", "--duration", DURATION_TEXT,
                       NULL);
  poll_cpu (&sys);
  recorder = sp_child_spawn (sys.dir, "record", (const char *const *) argv, FALSE);
  late = start_late_workload (&sys, recorder, threads);
  /* Else the late workload was no part of the recording: the machine,
   * not the recorder, failed the cases below. */
  g_assert_null (sp_child_poll (recorder));
  while ((result = sp_child_poll (recorder)) == NULL)
    {
      poll_cpu (&sys);
      g_usleep (5000);
    }
  poll_cpu (&sys);
  sp_child_result_free (sp_child_wait (late));
  sp_child_kill (workloads[0]);
  sp_child_kill (workloads[1]);
  sys.rec = sp_test_recording_new (g_strdup (sys.dir), result);
  g_test_message ("recorder's stderr:\n%s", result->err);
  g_assert_cmpint (result->exit_code, ==, 0);
  sp_test_recording_load (sys.rec);
  return &sys;
}

/* The spool's samples of process pid. */
static gsize
count_process_samples (const SpSpoolReader *reader,
                       gint32 pid)
{
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  gsize count = 0;

  for (gsize i = 0; i < sp_spool_reader_get_n_samples (reader); i++)
    count += threads[sp_spool_reader_get_sample_thread (reader, i)].pid == pid;
  return count;
}

/* Workload w's CPU time between the side file's start and end: at least
 * *low (polls inside), at most *high (polls just outside). */
static void
cpu_in_window (System *s,
               guint w,
               guint64 *low,
               guint64 *high)
{
  const CpuPoll *polls = (const CpuPoll *) s->polls->data;

  sp_test_cpu_in_window (&polls[0].time_ns, &polls[0].cpu_ns[w], sizeof (CpuPoll) / sizeof (guint64), s->polls->len,
                         sp_test_meta_u64 (s->rec, "recording", "start_monotonic_ns"),
                         sp_test_meta_u64 (s->rec, "recording", "end_monotonic_ns"), low, high);
}

static char *
meta_string (SpTestRecording *rec,
             const char *group,
             const char *key)
{
  return g_key_file_get_string (rec->meta, group, key, NULL);
}

static char *
thread_name (SpTestRecording *rec,
             gint32 tid)
{
  g_autofree char *group = g_strdup_printf ("thread %d", (int) tid);

  return meta_string (rec, group, "name");
}

static void
test_valid_spool (void)
{
  System *s;

  if (!system_wide_allowed ())
    return;
  s = get_system ();
  g_assert_cmpuint (sp_spool_reader_get_n_samples (s->rec->reader), >, 0);
  sp_test_assert_meta_int (s->rec, "recording", "samples", (gint64) sp_spool_reader_get_n_samples (s->rec->reader));
  sp_test_assert_meta_string (s->rec, "recording", "complete", "true");
  sp_test_assert_meta_string (s->rec, "recording", "system_wide", "true");
  g_assert_true (g_key_file_has_key (s->rec->meta, "recording", "cpus", NULL));
  g_assert_true (g_key_file_has_key (s->rec->meta, "recording", "idle_samples", NULL));
  /* Nothing launched, nothing attached. */
  g_assert_false (g_key_file_has_key (s->rec->meta, "recording", "command", NULL));
  g_assert_false (g_key_file_has_key (s->rec->meta, "recording", "attached_pids", NULL));
}

/* Both workloads, by pid, with their threads' names, and samples as
 * their CPU time in the window says. */
static void
test_workloads_by_cpu_time (void)
{
  static const char *const names[] = { "sp-work-threads", "sp-work-deep" };
  System *s;
  guint64 missed;

  if (!system_wide_allowed ())
    return;
  s = get_system ();
  missed = sp_test_meta_u64 (s->rec, "recording", "lost_samples")
           + sp_test_meta_u64 (s->rec, "recording", "dropped_samples");
  for (guint w = 0; w < 2; w++)
    {
      g_autofree char *name = thread_name (s->rec, s->pids[w]);
      g_autofree char *group = g_strdup_printf ("process %d", (int) s->pids[w]);
      g_autofree char *command_line = meta_string (s->rec, group, "command_line");
      gsize n = count_process_samples (s->rec->reader, s->pids[w]);
      guint64 low, high;
      double expected_low, expected_high;

      cpu_in_window (s, w, &low, &high);
      expected_low = low / 1e9 * FREQUENCY_HZ * (1 - TOLERANCE) - 5;
      expected_high = high / 1e9 * FREQUENCY_HZ * (1 + TOLERANCE) + 10;
      g_test_message ("%s (pid %d): %.1f to %.1f ms of CPU in the window, %" G_GSIZE_FORMAT " samples "
                      "(the recorder missed %" G_GUINT64_FORMAT "), expected %.0f to %.0f", names[w],
                      (int) s->pids[w], low / 1e6, high / 1e6, n, missed, expected_low, expected_high);
      g_assert_cmpstr (name, ==, names[w]);
      g_assert_nonnull (command_line);
      g_assert_nonnull (strstr (command_line, names[w]));
      g_assert_cmpfloat ((double) (n + missed), >=, expected_low);
      g_assert_cmpfloat ((double) n, <=, expected_high);
      g_assert_cmpuint (sp_test_meta_u64 (s->rec, group, "samples"), ==, n);
    }
  /* sp-work-threads' named threads (their ids in its ready file). */
  {
    g_autofree char *ready_path = g_build_filename (s->dir, "ready", NULL);
    g_autofree char *ready = NULL;

    g_assert_true (g_file_get_contents (ready_path, &ready, NULL, NULL));
    for (guint i = 0; i < 3; i++)
      {
        static const char *const workers[] = { "sp-alpha", "sp-beta", "sp-gamma" };
        g_autofree char *name = thread_name (s->rec, sp_test_ready_id (ready, workers[i]));

        g_assert_cmpstr (name, ==, workers[i]);
      }
  }
}

/* The one started while recording: by pid, named, with samples, its
 * executable; its command line, read from /proc at its exec, when the
 * recorder was not so far behind that it had ended by then. */
static void
test_process_started_during (void)
{
  g_autofree char *group = NULL;
  g_autofree char *command_line = NULL;
  g_autofree char *executable = NULL;
  g_autofree char *alpha = NULL;
  System *s;

  if (!system_wide_allowed ())
    return;
  s = get_system ();
  group = g_strdup_printf ("process %d", (int) s->late_pid);
  command_line = meta_string (s->rec, group, "command_line");
  executable = meta_string (s->rec, group, "executable");
  g_test_message ("started during the recording: pid %d, command line %s, %" G_GSIZE_FORMAT " samples",
                  (int) s->late_pid, command_line, count_process_samples (s->rec->reader, s->late_pid));
  g_assert_true (g_key_file_has_group (s->rec->meta, group));
  g_assert_nonnull (executable);
  g_assert_true (g_str_has_suffix (executable, "/sp-work-threads"));
  if (command_line != NULL)
    {
      g_assert_nonnull (strstr (command_line, "sp-work-threads"));
      g_assert_nonnull (strstr (command_line, "0.6"));
    }
  /* Its samples, unless the recorder fell behind and left samples out
   * (counted): a sanitizer build on a slow machine left out every sample
   * of its 0.6 s, as workloads_by_cpu_time allows for the others. */
  g_assert_true (count_process_samples (s->rec->reader, s->late_pid) > 0
                 || sp_test_meta_u64 (s->rec, "recording", "lost_samples")
                        + sp_test_meta_u64 (s->rec, "recording", "dropped_samples") > 0);
  alpha = thread_name (s->rec, sp_test_ready_id (s->late_ready, "sp-alpha"));
  g_assert_cmpstr (alpha, ==, "sp-alpha");
}

/* Kernel threads by their kernel names; the idle task is no process. */
static void
test_kernel_threads_and_idle (void)
{
  g_auto (GStrv) groups = NULL;
  g_autofree char *kthreadd = NULL;
  g_autofree char *kthreadd_kind = NULL;
  const SpThread *threads;
  gsize n_kernel = 0, n_named_like_kernel = 0;
  System *s;

  if (!system_wide_allowed ())
    return;
  s = get_system ();
  kthreadd = thread_name (s->rec, 2);
  kthreadd_kind = meta_string (s->rec, "process 2", "kernel_thread");
  g_assert_cmpstr (kthreadd, ==, "kthreadd");
  g_assert_cmpstr (kthreadd_kind, ==, "true");

  groups = g_key_file_get_groups (s->rec->meta, NULL);
  for (char **group = groups; *group != NULL; group++)
    {
      g_autofree char *pid_text = NULL;
      g_autofree char *kind = NULL;

      g_assert_cmpstr (*group, !=, "process 0");
      g_assert_cmpstr (*group, !=, "thread 0");
      if (!g_str_has_prefix (*group, "thread "))
        continue;
      pid_text = meta_string (s->rec, *group, "pid");
      {
        g_autofree char *process = g_strdup_printf ("process %s", pid_text);
        g_autofree char *name = meta_string (s->rec, *group, "name");

        kind = meta_string (s->rec, process, "kernel_thread");
        if (g_strcmp0 (kind, "true") != 0)
          continue;
        n_kernel++;
        g_assert_nonnull (name);
        g_assert_cmpstr (name, !=, "");
        g_assert_cmpstr (name, !=, "[unknown]");
        n_named_like_kernel += g_str_has_prefix (name, "kworker/") || g_str_has_prefix (name, "ksoftirqd/")
                               || g_str_has_prefix (name, "migration/") || g_str_has_prefix (name, "rcu");
      }
    }
  g_test_message ("%" G_GSIZE_FORMAT " kernel threads, %" G_GSIZE_FORMAT " named kworker/, ksoftirqd/, "
                  "migration/ or rcu*; %" G_GUINT64_FORMAT " idle samples", n_kernel, n_named_like_kernel,
                  sp_test_meta_u64 (s->rec, "recording", "idle_samples"));
  g_assert_cmpuint (n_kernel, >, 0);
  g_assert_cmpuint (n_named_like_kernel, >, 0);

  threads = sp_spool_reader_get_threads (s->rec->reader);
  for (gsize i = 0; i < sp_spool_reader_get_n_threads (s->rec->reader); i++)
    g_assert_cmpint (threads[i].pid, !=, 0);
}

/* stackpulse-report's output of the recording, as TSV lines. */
static GStrv
report_lines (System *s,
              const char *command,
              const char *pid)
{
  g_autoptr (SpChildResult) result = NULL;
  const char *argv[] = { g_getenv ("SP_REPORT"), command, "--tsv", s->rec->spool, pid != NULL ? "--pid" : NULL, pid,
                         NULL };

  result = sp_test_run (s->dir, command, argv);
  g_test_message ("stackpulse-report %s: exit %d; stderr:\n%s", command, result->exit_code, result->err);
  g_assert_cmpint (result->exit_code, ==, 0);
  return g_strsplit (result->out, "\n", -1);
}

/* stackpulse-report processes: the workloads by pid with their names,
 * command lines and samples; threads --pid: only the process's threads. */
static void
test_report_processes_and_threads (void)
{
  g_autofree char *pid = NULL;
  g_auto (GStrv) processes = NULL;
  g_auto (GStrv) threads = NULL;
  gboolean found = FALSE;
  gsize n_threads = 0;
  System *s;

  if (!system_wide_allowed ())
    return;
  s = get_system ();
  pid = g_strdup_printf ("%d", (int) s->pids[0]);
  processes = report_lines (s, "processes", NULL);
  g_assert_cmpstr (processes[0], ==, "pid\tname\tcommand_line\tsamples\tcpu_s\tshare_percent");
  for (char **line = processes + 1; *line != NULL && **line != '\0'; line++)
    {
      g_auto (GStrv) fields = g_strsplit (*line, "\t", -1);

      g_assert_cmpuint (g_strv_length (fields), ==, 6);
      g_assert_cmpstr (fields[0], !=, "0");
      if (!g_str_equal (fields[0], pid))
        continue;
      found = TRUE;
      g_assert_cmpstr (fields[1], ==, "sp-work-threads");
      g_assert_nonnull (strstr (fields[2], "sp-work-threads"));
      g_assert_cmpuint (g_ascii_strtoull (fields[3], NULL, 10), ==,
                        count_process_samples (s->rec->reader, s->pids[0]));
    }
  g_assert_true (found);

  threads = report_lines (s, "threads", pid);
  for (char **line = threads + 1; *line != NULL && **line != '\0'; line++)
    {
      g_auto (GStrv) fields = g_strsplit (*line, "\t", -1);

      g_assert_cmpstr (fields[0], ==, pid);
      n_threads++;
    }
  g_assert_cmpuint (n_threads, ==, 4);
}

/* Without --duration: until a line "stop" on the control channel, then a
 * complete recording and exit status 0. */
static void
test_stops_on_control_line (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *meta = NULL;
  g_auto (GStrv) argv = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  SpChild *recorder;

  if (!system_wide_allowed ())
    return;
  dir = sp_test_make_dir ();
  meta = g_build_filename (dir, "out.spool.meta", NULL);
  argv = sp_test_argv (sp_test_recorder (), "-o", "out.spool", "-a", "--control-stdin", NULL);
  recorder = sp_child_spawn (dir, "record", (const char *const *) argv, TRUE);
  g_free (sp_test_wait_for_file (recorder, meta));
  g_usleep (300000);
  g_assert_cmpint (write (recorder->stdin_fd, "stop\n", 5), ==, 5);
  rec = sp_test_recording_new (g_steal_pointer (&dir), sp_child_wait (recorder));
  g_test_message ("recorder's stderr:\n%s", rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  sp_test_recording_load (rec);
  sp_test_assert_meta_string (rec, "recording", "complete", "true");
  sp_test_assert_meta_string (rec, "recording", "system_wide", "true");
  g_assert_cmpuint (sp_spool_reader_get_n_samples (rec->reader), >, 0);
}

/* -a with a command or with -p says how it is used. */
static void
test_usage_errors (void)
{
  const char *const with_command[] = { "-a", NULL };
  const char *const command[] = { "true", NULL };
  const char *const with_pid[] = { "-a", "-p", "1", NULL };
  g_autoptr (SpTestRecording) a = sp_test_record (with_command, command);
  g_autoptr (SpTestRecording) b = sp_test_record (with_pid, NULL);

  g_assert_cmpint (a->result->exit_code, ==, 2);
  g_assert_cmpint (b->result->exit_code, ==, 2);
  sp_test_assert_contains (a->result->err, "Usage:");
  sp_test_assert_contains (b->result->err, "Usage:");
}

/* As nobody at paranoid 1 or more: refused, said why and what allows it,
 * no file left. */
static void
test_unprivileged_refused (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *recorder = sp_test_copy_program (sp_test_recorder (), dir);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (SpChildResult) result = NULL;
  g_autofree char *rec_dir = g_build_filename (dir, "rec", NULL);
  g_autofree char *listed = NULL;
  int paranoid = sp_test_perf_event_paranoid ();

  if (getuid () != 0)
    {
      g_test_skip ("running as nobody needs root");
      return;
    }
  if (paranoid <= 0)
    {
      g_test_skip ("kernel.perf_event_paranoid allows anyone -a here");
      return;
    }
  g_assert_cmpint (g_mkdir (rec_dir, 0777), ==, 0);
  g_assert_cmpint (g_chmod (rec_dir, 0777), ==, 0);
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
  sp_test_add_as_nobody (argv);
  g_ptr_array_add (argv, recorder);
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, "rec/out.spool");
  g_ptr_array_add (argv, "-a");
  g_ptr_array_add (argv, "--duration");
  g_ptr_array_add (argv, "0.5");
  g_ptr_array_add (argv, NULL);
  result = sp_test_run (dir, "record", (const char *const *) argv->pdata);
  g_test_message ("paranoid %d; exit status %d; stderr:\n%s", paranoid, result->exit_code, result->err);
  g_assert_cmpint (result->exit_code, ==, 125);
  sp_test_assert_contains (result->err, "kernel.perf_event_paranoid is");
  sp_test_assert_contains (result->err, "CAP_PERFMON");
  sp_test_assert_contains (result->err, "sysctl kernel.perf_event_paranoid=0");
  sp_test_assert_contains (result->err, "root");
  listed = sp_test_list_dir (rec_dir);
  g_assert_cmpstr (listed, ==, "");
  sp_test_remove_dir (dir);
}

static void
free_system (void)
{
  g_clear_pointer (&sys.rec, sp_test_recording_free);
  if (sys.polls != NULL)
    g_array_free (sys.polls, TRUE);
  g_free (sys.late_ready);
  g_free (sys.dir);
}

int
main (int argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/recorder/system/valid-spool", test_valid_spool);
  g_test_add_func ("/recorder/system/workloads-by-cpu-time", test_workloads_by_cpu_time);
  g_test_add_func ("/recorder/system/process-started-during", test_process_started_during);
  g_test_add_func ("/recorder/system/kernel-threads-and-idle", test_kernel_threads_and_idle);
  g_test_add_func ("/recorder/system/report-processes-and-threads", test_report_processes_and_threads);
  g_test_add_func ("/recorder/system/stops-on-control-line", test_stops_on_control_line);
  g_test_add_func ("/recorder/system/usage-errors", test_usage_errors);
  g_test_add_func ("/recorder/system/unprivileged-refused", test_unprivileged_refused);
  status = g_test_run ();
  free_system ();
  return status;
}
