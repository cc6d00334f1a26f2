/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-launch.c: stackpulse-record launching the test workloads.
 *
 * Real recordings of programs whose call paths we know, checked through
 * the codec's whole-file reader and the side file: the spool is valid,
 * each thread's samples fit its CPU time, the workload's functions lie in
 * its module and show up in the expected call paths, new threads, a fork
 * and an exec are followed, a recursion deeper than the kernel's callchain
 * limit is marked truncated, and a crashing target still leaves a complete
 * spool and passes its fate on as 128 + signal. One recording of
 * sp-work-threads serves the /recorder/launch/threads/ cases. */
#include <glib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "record-run.h"
#include "record-stacks.h"

#define FREQUENCY_HZ 1000

/* sp-work-threads' threads and the call path most of their samples show
 * (sp-gamma's leaf calls read() in libc, which has no frame pointer: the
 * chain skips gamma_leaf). The first is the main thread. */
static const struct {
  const char *name;
  const char *path;
} thread_paths[] = {
  { "sp-work-threads", "main_leaf;compute_main;run_workers;main" },
  { "sp-alpha", "alpha_leaf;compute_alpha;worker_main" },
  { "sp-beta", "beta_leaf;compute_beta;worker_main" },
  { "sp-gamma", "compute_gamma;worker_main" },
};

/* The shared recording of sp-work-threads, made on first use. */
static SpTestRecording *threads_rec;
static GPtrArray *threads_reports;
static SpElfSymbols *threads_symbols[2];

static SpTestRecording *
get_threads_recording (void)
{
  g_autofree char *workload = NULL;

  if (threads_rec != NULL)
    return threads_rec;
  workload = sp_test_workload ("threads");
  threads_rec = sp_test_record (NULL, (const char *const[]) { workload, "0.6", NULL });
  g_test_message ("recorder's stderr:\n%s", threads_rec->result->err);
  g_assert_cmpint (threads_rec->result->exit_code, ==, 0);
  sp_test_recording_load (threads_rec);
  threads_reports = sp_test_parse_thread_reports (threads_rec->result->out);
  threads_symbols[0] = sp_elf_symbols_load (workload);
  return threads_rec;
}

static gint32
threads_pid (void)
{
  return sp_test_find_report (threads_reports, "sp-alpha", -1)->pid;
}

static void
test_threads_valid_spool (void)
{
  SpTestRecording *rec = get_threads_recording ();

  g_assert_cmpuint (sp_spool_reader_get_sample_interval_us (rec->reader), ==, 1000000 / FREQUENCY_HZ);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (rec->reader), >, 0);
  /* The launch itself is an exec of the workload. */
  g_assert_cmpuint (sp_spool_reader_get_n_process_execs (rec->reader), ==, 1);
  g_assert_cmpint (sp_spool_reader_get_process_execs (rec->reader)[0].pid, ==, threads_pid ());
  g_assert_cmpuint (threads_reports->len, ==, 4);
}

/* The samples the recorder said it missed (lost, dropped): a recorder
 * starved of CPU (the sanitizer build beside its fuzzers) misses some,
 * which may be any thread's. */
static guint64
recorder_missed (SpTestRecording *rec)
{
  return g_key_file_get_uint64 (rec->meta, "recording", "lost_samples", NULL)
         + g_key_file_get_uint64 (rec->meta, "recording", "dropped_samples", NULL);
}

/* Every thread, the main thread too, within the band. */
static void
test_threads_samples_per_thread (void)
{
  SpTestRecording *rec = get_threads_recording ();

  for (guint i = 0; i < threads_reports->len; i++)
    {
      const SpThreadReport *report = g_ptr_array_index (threads_reports, i);
      gsize n = sp_test_count_samples (rec->reader, report->pid, (guint64) report->tid);

      sp_test_assert_plausible_samples_missed (report, n, FREQUENCY_HZ, recorder_missed (rec));
    }
}

/* The workers start after the recording did: inherited events must follow
 * them, under their own thread ids. */
static void
test_threads_new_threads_followed (void)
{
  SpTestRecording *rec = get_threads_recording ();

  for (guint i = 1; i < G_N_ELEMENTS (thread_paths); i++)
    {
      const SpThreadReport *report = sp_test_find_report (threads_reports, thread_paths[i].name, -1);

      g_assert_cmpint (report->tid, !=, report->pid);
      g_assert_cmpuint (sp_test_count_samples (rec->reader, report->pid, (guint64) report->tid), >, 0);
    }
}

/* Each sampled frame in the workload's module is in its code, and each of
 * its functions lies inside the module's mapping. */
static void
test_threads_functions_in_module (void)
{
  SpTestRecording *rec = get_threads_recording ();
  const char *path = sp_elf_symbols_get_path (threads_symbols[0]);
  static const char *const functions[] = {
    "main_leaf", "compute_main", "run_workers", "main", "worker_main",
    "alpha_leaf", "compute_alpha", "beta_leaf", "compute_beta", "gamma_leaf", "compute_gamma",
  };
  gint64 module_id = sp_test_find_module (rec->reader, threads_pid (), path);
  const SpModule *module;
  gsize in_module = 0;

  g_assert_cmpint (module_id, >=, 0);
  module = &sp_spool_reader_get_modules (rec->reader)[module_id];
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    {
      guint64 start, end;

      g_assert_true (sp_elf_symbols_find (threads_symbols[0], functions[i], &start, &end));
      g_assert_cmpuint (start, >=, module->file_offset);
      g_assert_cmpuint (end - module->file_offset, <=, module->end - module->start);
    }
  for (gsize i = 0; i < sp_spool_reader_get_n_samples (rec->reader); i++)
    {
      SpSample sample;
      SpStackIter iter;
      guint32 frame_id, id;
      guint64 rel_ip;
      gint32 pid;

      sp_spool_reader_get_sample (rec->reader, i, &sample);
      pid = sp_spool_reader_get_threads (rec->reader)[sample.thread].pid;
      sp_stack_iter_init (&iter, rec->reader, sample.stack);
      while (sp_stack_iter_next (&iter, &frame_id))
        {
          const SpModule *m;

          if (!sp_spool_reader_resolve_frame_module (rec->reader, pid, frame_id, &id, &rel_ip))
            continue;
          m = &sp_spool_reader_get_modules (rec->reader)[id];
          if (m->path_len != strlen (path) || memcmp (m->path, path, m->path_len) != 0)
            continue;
          in_module++;
          /* A return address may sit right after the last call of a section. */
          if (!sp_elf_symbols_in_code (threads_symbols[0], rel_ip)
              && !sp_elf_symbols_in_code (threads_symbols[0], rel_ip - 1))
            g_error ("frame %u at file offset 0x%" G_GINT64_MODIFIER "x is outside the code of %s",
                     frame_id, rel_ip, path);
        }
    }
  g_assert_cmpuint (in_module, >, 0);
}

/* Most samples of thread report show path. */
static void
assert_path_shown (const SpSpoolReader *reader,
                   SpElfSymbols *const *symbols,
                   const SpThreadReport *report,
                   const char *path)
{
  gsize n = sp_test_count_samples (reader, report->pid, (guint64) report->tid);
  gsize with = sp_test_count_samples_with (reader, symbols, report->pid, (guint64) report->tid, path);
  g_autofree char *common = sp_test_most_common_stack (reader, symbols, report->pid, (guint64) report->tid);

  g_test_message ("%s (pid %d, tid %d): %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT " samples show %s; most common: %s",
                  report->name, (int) report->pid, (int) report->tid, with, n, path, common);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (with * 2, >=, n);
}

static void
test_threads_call_paths (void)
{
  SpTestRecording *rec = get_threads_recording ();

  for (guint i = 0; i < G_N_ELEMENTS (thread_paths); i++)
    assert_path_shown (rec->reader, threads_symbols,
                       sp_test_find_report (threads_reports, thread_paths[i].name, -1), thread_paths[i].path);
}

/* The [kernel-symbols] entries as (start, size) pairs, sorted by start. */
static GArray *
load_kernel_symbols (GKeyFile *meta)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) keys = g_key_file_get_keys (meta, "kernel-symbols", NULL, &error);
  GArray *symbols = g_array_new (FALSE, FALSE, sizeof (guint64) * 2);

  g_assert_no_error (error);
  for (char **key = keys; *key != NULL; key++)
    {
      g_auto (GStrv) fields = NULL;
      guint64 entry[2];

      if (g_str_equal (*key, "source"))
        continue;
      fields = g_key_file_get_string_list (meta, "kernel-symbols", *key, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (g_strv_length (fields), ==, 3);
      entry[0] = g_ascii_strtoull (*key, NULL, 16);
      entry[1] = g_ascii_strtoull (fields[0], NULL, 10);
      g_array_append_val (symbols, entry);
    }
  return symbols;
}

/* Whether a symbol of the side file contains address: the one with the
 * greatest start at or below it, as SIDE-FILE.md says to look up. */
static gboolean
kernel_symbol_covers (GArray *symbols,
                      guint64 address)
{
  const guint64 *best = NULL;

  for (guint i = 0; i < symbols->len; i++)
    {
      const guint64 *entry = &g_array_index (symbols, guint64, 2 * i);

      if (entry[0] <= address && (best == NULL || entry[0] > best[0]))
        best = entry;
    }
  return best != NULL && address - best[0] < best[1];
}

/* Every kernel frame of the spool is named by [kernel-symbols]. */
static void
assert_kernel_frames_named (SpTestRecording *rec)
{
  g_autoptr (GArray) symbols = load_kernel_symbols (rec->meta);
  const SpFrame *frames = sp_spool_reader_get_frames (rec->reader);
  gsize n_kernel = 0;

  for (gsize i = 0; i < sp_spool_reader_get_n_frames (rec->reader); i++)
    {
      if (frames[i].mode != SP_FRAME_KERNEL)
        continue;
      n_kernel++;
      if (!kernel_symbol_covers (symbols, frames[i].abs_ip))
        g_error ("kernel frame %" G_GSIZE_FORMAT " at 0x%" G_GINT64_MODIFIER "x is in no [kernel-symbols] entry",
                 i, frames[i].abs_ip);
    }
  g_test_message ("%" G_GSIZE_FORMAT " kernel frames, %u kernel symbols", n_kernel, symbols->len);
  g_assert_cmpuint (n_kernel, >, 0);
}

/* The side file: totals, thread names, and kernel symbols for the kernel
 * frames that sp-gamma's reads of /dev/zero produce (we are root). */
static void
test_threads_side_file (void)
{
  SpTestRecording *rec = get_threads_recording ();
  g_autoptr (GError) error = NULL;

  sp_test_assert_meta_int (rec, "recording", "samples", (gint64) sp_spool_reader_get_n_samples (rec->reader));
  sp_test_assert_meta_string (rec, "recording", "complete", "true");
  sp_test_assert_meta_int (rec, "recording", "exit_status", 0);
  sp_test_assert_meta_int (rec, "recording", "frequency_hz", FREQUENCY_HZ);
  for (guint i = 0; i < threads_reports->len; i++)
    {
      const SpThreadReport *report = g_ptr_array_index (threads_reports, i);
      g_autofree char *group = g_strdup_printf ("thread %d", (int) report->tid);

      sp_test_assert_meta_int (rec, group, "pid", report->pid);
      sp_test_assert_meta_string (rec, group, "name", report->name);
      sp_test_assert_meta_int (rec, group, "samples",
                       (gint64) sp_test_count_samples (rec->reader, report->pid, (guint64) report->tid));
    }
  g_assert_true (g_key_file_get_boolean (rec->meta, "recording", "kernel_stacks", &error));
  g_assert_no_error (error);
  g_assert_true (g_key_file_has_group (rec->meta, "kernel-symbols"));
  assert_kernel_frames_named (rec);
}

/* ---- Fork and exec ------------------------------------------------------ */

static gint32
parse_child_pid (const char *out)
{
  const char *line = strstr (out, "child pid=");

  g_assert_nonnull (line);
  return (gint32) g_ascii_strtoll (line + strlen ("child pid="), NULL, 10);
}

/* Both processes report a thread "sp-work-fork": the parent's is the
 * other one. */
static gint32
find_parent_pid (GPtrArray *reports,
                 gint32 child)
{
  for (guint i = 0; i < reports->len; i++)
    {
      const SpThreadReport *report = g_ptr_array_index (reports, i);

      if (g_str_equal (report->name, "sp-work-fork") && report->pid != child)
        return report->pid;
    }
  g_error ("sp-work-fork's parent did not report");
  return -1;
}

/* sp-work-fork forks; the child burns in sp-work-fork's code, then execs
 * sp-work-threads, whose new threads burn in their own code. */
static void
test_fork_exec (void)
{
  g_autofree char *fork_path = sp_test_workload ("fork");
  g_autofree char *threads_path = sp_test_workload ("threads");
  g_autoptr (SpTestRecording) rec = sp_test_record (NULL, (const char *const[]) { fork_path, "0.8", threads_path, NULL });
  g_autoptr (SpElfSymbols) fork_symbols = sp_elf_symbols_load (fork_path);
  g_autoptr (SpElfSymbols) exec_symbols = sp_elf_symbols_load (threads_path);
  SpElfSymbols *symbols[] = { fork_symbols, exec_symbols, NULL };
  g_autoptr (GPtrArray) reports = NULL;
  g_autofree char *process_group = NULL;
  g_autofree char *parent_group = NULL;
  g_autofree char *parent_line = NULL;
  g_autofree char *child_line = NULL;
  g_autofree char *expected_parent_line = g_strdup_printf ("%s 0.8 %s", fork_path, threads_path);
  const SpProcessExec *execs;
  gint32 child, parent;
  gboolean child_exec = FALSE;

  g_test_message ("recorder's stderr:\n%s", rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  sp_test_recording_load (rec);
  reports = sp_test_parse_thread_reports (rec->result->out);
  child = parse_child_pid (rec->result->out);
  parent = find_parent_pid (reports, child);
  parent_group = g_strdup_printf ("process %d", (int) parent);

  /* The parent, and the child before its exec, in sp-work-fork. */
  assert_path_shown (rec->reader, symbols, sp_test_find_report (reports, "sp-work-fork", parent),
                     "parent_leaf;parent_work;main");
  g_assert_cmpuint (sp_test_count_samples_with (rec->reader, symbols, child, (guint64) child,
                                                "child_leaf;child_work;run_child;main"), >, 0);
  /* After the exec: a PROCESS_EXEC, the new program's module, new threads. */
  execs = sp_spool_reader_get_process_execs (rec->reader);
  for (gsize i = 0; i < sp_spool_reader_get_n_process_execs (rec->reader); i++)
    child_exec |= execs[i].pid == child;
  g_assert_true (child_exec);
  g_assert_cmpint (sp_test_find_module (rec->reader, child, threads_path), >=, 0);
  g_assert_cmpuint (sp_test_count_samples_with (rec->reader, symbols, child, (guint64) child,
                                                thread_paths[0].path), >, 0);
  for (guint i = 1; i < G_N_ELEMENTS (thread_paths); i++)
    assert_path_shown (rec->reader, symbols, sp_test_find_report (reports, thread_paths[i].name, child),
                       thread_paths[i].path);

  process_group = g_strdup_printf ("process %d", (int) child);
  sp_test_assert_meta_int (rec, process_group, "parent", parent);
  sp_test_assert_meta_string (rec, process_group, "executable", threads_path);
  /* Each process's command line (the Processes views tell processes of
   * one program apart by them): the launched one's, and the child's after
   * its exec. */
  parent_line = g_key_file_get_string (rec->meta, parent_group, "command_line", NULL);
  child_line = g_key_file_get_string (rec->meta, process_group, "command_line", NULL);
  g_test_message ("command lines: %s | %s", parent_line, child_line);
  g_assert_cmpstr (parent_line, ==, expected_parent_line);
  g_assert_nonnull (child_line);
  g_assert_true (g_str_has_prefix (child_line, threads_path));
}

/* ---- Deep recursion ------------------------------------------------------ */

/* 300 levels of recursion: longer than perf_event_max_stack (127), so the
 * samples in deep_leaf end in the truncated marker, one level per frame. */
static void
test_deep_recursion (void)
{
  g_autofree char *deep_path = sp_test_workload ("deep");
  /* Frame pointers: the kernel's chain is what meets the limit here (a
   * DWARF unwinder's limit is its stack copy: test-record-unwind.c). */
  g_autoptr (SpTestRecording) rec = sp_test_record ((const char *const[]) { "--call-graph", "fp", NULL },
                                                    (const char *const[]) { deep_path, "0.5", "300", NULL });
  g_autoptr (SpElfSymbols) deep_symbols = sp_elf_symbols_load (deep_path);
  SpElfSymbols *symbols[] = { deep_symbols, NULL };
  const SpStackNode *nodes;
  gsize n, truncated = 0, in_leaf = 0, in_leaf_truncated = 0;

  g_test_message ("recorder's stderr:\n%s", rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  sp_test_recording_load (rec);
  nodes = sp_spool_reader_get_stack_nodes (rec->reader);
  n = sp_spool_reader_get_n_samples (rec->reader);
  for (gsize i = 0; i < n; i++)
    {
      SpSample sample;
      gint32 pid;
      g_autofree char *text = NULL;
      gboolean leaf;

      sp_spool_reader_get_sample (rec->reader, i, &sample);
      pid = sp_spool_reader_get_threads (rec->reader)[sample.thread].pid;
      text = sp_test_describe_stack (rec->reader, symbols, pid, sample.stack);
      leaf = g_str_has_prefix (text, "deep_leaf;deep_work;descend;descend;descend;");
      in_leaf += leaf;
      if (sp_test_stack_ends_truncated (rec->reader, sample.stack))
        {
          truncated++;
          in_leaf_truncated += leaf;
          /* The kernel's limit of frames, and the marker. */
          g_assert_cmpuint (nodes[sample.stack].depth, >=, 127 + 1);
        }
    }
  g_test_message ("%" G_GSIZE_FORMAT " samples, %" G_GSIZE_FORMAT " in deep_leaf, %" G_GSIZE_FORMAT " truncated",
                  n, in_leaf, truncated);
  g_assert_cmpuint (in_leaf, >, n / 2);
  g_assert_cmpuint (in_leaf_truncated, ==, in_leaf);
  sp_test_assert_meta_int (rec, "recording", "truncated_stacks", (gint64) truncated);
}

/* ---- A crashing target ---------------------------------------------------- */

static void
test_crash (void)
{
  g_autofree char *crash_path = sp_test_workload ("crash");
  g_autoptr (SpTestRecording) rec = sp_test_record (NULL, (const char *const[]) { crash_path, "0.3", NULL });
  g_autoptr (SpElfSymbols) crash_symbols = sp_elf_symbols_load (crash_path);
  SpElfSymbols *symbols[] = { crash_symbols, NULL };
  g_autoptr (GPtrArray) reports = NULL;
  const SpThreadReport *report;

  g_test_message ("recorder's stderr:\n%s", rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 128 + SIGABRT);
  sp_test_recording_load (rec);
  reports = sp_test_parse_thread_reports (rec->result->out);
  report = sp_test_find_report (reports, "sp-work-crash", -1);
  assert_path_shown (rec->reader, symbols, report, "crash_leaf;crash_work;main");
  sp_test_assert_meta_string (rec, "recording", "complete", "true");
  sp_test_assert_meta_int (rec, "recording", "exit_status", 128 + SIGABRT);
  sp_test_assert_meta_int (rec, "recording", "samples", (gint64) sp_spool_reader_get_n_samples (rec->reader));
}

/* ---- Environment and folder --------------------------------------------- */

/* --env and --directory reach the launched command (and only it: the
 * app passes them so they survive pkexec, which clears both). */
static void
test_environment_and_folder (void)
{
  g_autofree char *work = sp_test_make_dir ();
  g_autofree char *real_work = realpath (work, NULL);
  g_autofree char *seen_path = g_build_filename (work, "seen", NULL);
  g_autofree char *seen = NULL;
  g_autofree char *expected = g_strdup_printf ("a b=c||%s\n", real_work);
  const char *const options[] = { "--env", "SP_TEST_VALUE=a b=c", "--env", "SP_TEST_EMPTY=",
                                  "--directory", work, NULL };
  const char *const command[] = { "/bin/sh", "-c",
                                  "printf '%s|%s|%s\\n' \"$SP_TEST_VALUE\" \"$SP_TEST_EMPTY\" \"$(pwd -P)\" > seen",
                                  NULL };
  g_autoptr (SpTestRecording) rec = sp_test_record (options, command);
  g_autoptr (GError) error = NULL;

  g_test_message ("recorder's stderr:\n%s", rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  sp_test_recording_load (rec);
  g_file_get_contents (seen_path, &seen, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (seen, ==, expected);
  g_assert_null (g_getenv ("SP_TEST_VALUE"));
  sp_test_remove_dir (work);
}

/* Records /bin/sh -c "BEFORE'sp-work-threads' 0.6 &AFTER" and checks
 * that every thread of the workload was recorded to its end although the
 * shell exited first, and that the recording's status is the shell's. */
static void
assert_outliving_workload_recorded (const char *before,
                                    const char *after,
                                    int expected_status)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *script = g_strdup_printf ("%s'%s' 0.6 &%s", before, workload, after);
  g_autoptr (SpTestRecording) rec = sp_test_record (NULL, (const char *const[]) { "/bin/sh", "-c", script, NULL });
  g_autoptr (GPtrArray) reports = NULL;

  g_test_message ("sh -c %s; recorder's stderr:\n%s", script, rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, expected_status);
  sp_test_recording_load (rec);
  /* The workload reports its threads as it ends: the recorder waited. */
  reports = sp_test_parse_thread_reports (rec->result->out);
  g_assert_cmpuint (reports->len, ==, 4);
  for (guint i = 0; i < reports->len; i++)
    {
      const SpThreadReport *report = g_ptr_array_index (reports, i);

      sp_test_assert_plausible_samples_missed (report, sp_test_count_samples (rec->reader, report->pid,
                                                                              (guint64) report->tid),
                                               FREQUENCY_HZ, recorder_missed (rec));
    }
  sp_test_assert_meta_string (rec, "recording", "complete", "true");
  sp_test_assert_meta_int (rec, "recording", "exit_status", expected_status);
  /* Said when the recorder learns of the worker while it runs; a recorder
   * far behind its records (a sanitizer build, in a fresh-clone CI run)
   * may apply its fork and its exit together, after the shell's exit, and
   * then has nothing running to tell of. The recording above is whole. */
  if (strstr (rec->result->err, "still recording the processes it left running") == NULL)
    g_test_message ("the recorder did not say it followed the worker: it learned of it only once it had ended");
}

/* A worker left running by a command that exits: recorded whole (the
 * recording used to end with the shell, and the worker had no sample). */
static void
test_worker_outlives_command (void)
{
  assert_outliving_workload_recorded ("", " exit 3", 3);
}

/* A daemon: forked twice, in a session of its own, its parent gone. */
static void
test_daemon_outlives_command (void)
{
  assert_outliving_workload_recorded ("(setsid ", "); exit 0", 0);
}

int
main (int argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;

  g_test_add_func ("/recorder/launch/threads/valid-spool", test_threads_valid_spool);
  g_test_add_func ("/recorder/launch/threads/samples-per-thread", test_threads_samples_per_thread);
  g_test_add_func ("/recorder/launch/threads/new-threads-followed", test_threads_new_threads_followed);
  g_test_add_func ("/recorder/launch/threads/functions-in-module", test_threads_functions_in_module);
  g_test_add_func ("/recorder/launch/threads/call-paths", test_threads_call_paths);
  g_test_add_func ("/recorder/launch/threads/side-file", test_threads_side_file);
  g_test_add_func ("/recorder/launch/fork-exec", test_fork_exec);
  g_test_add_func ("/recorder/launch/deep-recursion", test_deep_recursion);
  g_test_add_func ("/recorder/launch/crash", test_crash);
  g_test_add_func ("/recorder/launch/environment-and-folder", test_environment_and_folder);
  g_test_add_func ("/recorder/launch/worker-outlives-command", test_worker_outlives_command);
  g_test_add_func ("/recorder/launch/daemon-outlives-command", test_daemon_outlives_command);
  status = g_test_run ();

  g_clear_pointer (&threads_rec, sp_test_recording_free);
  g_clear_pointer (&threads_reports, g_ptr_array_unref);
  g_clear_pointer (&threads_symbols[0], sp_elf_symbols_free);
  return status;
}
