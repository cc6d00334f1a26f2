/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-unwind.c: full user stacks without frame pointers.
 *
 * sp-work-threads-nofp (the threads workload built with
 * -fomit-frame-pointer, as Debian builds its packages) and Debian's own
 * python3 running a CPU-bound script are recorded with --call-graph dwarf
 * and, for comparison, fp: in dwarf mode at least 90% of the samples must
 * reach their thread's root (main or _start for the main thread, the
 * thread function and libc's start_thread/clone3 for the others), and the
 * fp-mode figure is printed beside it. A recursion deeper than the stack
 * copy ends its stacks in the truncated marker; auto mode takes frame
 * pointers where they hold and gives the same stacks; the unwinding
 * statistics of the side file match the spool. At 4 kHz every sample
 * read from the rings is written or counted as dropped, and the records
 * waiting to be unwound stay within their bound (docs/UNWINDING.md). */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record-run.h"
#include "record-stacks.h"

#define SECONDS "1.5"
#define DEBIAN_PYTHON "/usr/bin/python3"
/* Enough samples for a share to mean something. How many a run gets
 * depends on how much CPU the machine gives the workload (other tests,
 * other builds), so this is a floor, not an expectation. */
#define MIN_SAMPLES 100

/* The outermost part of a stack that reached its thread's root, as the
 * description shows it (leaf first; libc frames as "[libc.so.6]"). */
static gboolean
threads_stack_rooted (const char *text)
{
  return g_str_has_suffix (text, ";main;[libc.so.6];_start")
         || g_str_has_suffix (text, ";worker_main;[libc.so.6]");
}

static gboolean
python_stack_rooted (const char *text)
{
  return g_str_has_suffix (text, ";_start");
}

typedef struct {
  gsize n;
  gsize rooted;
  gsize truncated;
} RootCount;

/* Samples of process pid (any when -1) and how many are rooted. */
static RootCount
count_rooted (SpTestRecording *rec,
              SpElfSymbols *const *symbols,
              gint32 pid,
              gboolean (*rooted) (const char *text))
{
  g_autoptr (GHashTable) counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  RootCount count = { 0 };
  gsize n = sp_spool_reader_get_n_samples (rec->reader);

  for (gsize i = 0; i < n; i++)
    {
      SpSample sample;
      gint32 sample_pid;
      char *text;

      sp_spool_reader_get_sample (rec->reader, i, &sample);
      sample_pid = sp_spool_reader_get_threads (rec->reader)[sample.thread].pid;
      if (pid != -1 && sample_pid != pid)
        continue;
      text = sp_test_describe_stack (rec->reader, symbols, sample_pid, sample.stack);
      count.n++;
      count.rooted += rooted (text);
      count.truncated += sp_test_stack_ends_truncated (rec->reader, sample.stack);
      g_hash_table_replace (counts, text,
                            GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, text)) + 1));
    }

  /* What the stacks were, for whoever reads a failure. */
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, counts);
    while (g_hash_table_iter_next (&iter, &key, &value))
      if (GPOINTER_TO_UINT (value) * 50 >= count.n)
        g_test_message ("  %5u  %s", GPOINTER_TO_UINT (value), (const char *) key);
  }
  return count;
}

static double
percent (gsize part,
         gsize whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0.0;
}

static SpTestRecording *
record_mode (const char *mode,
             const char *const *command)
{
  SpTestRecording *rec = sp_test_record ((const char *const[]) { "--call-graph", mode, NULL }, command);

  g_test_message ("--call-graph %s: recorder's stderr:\n%s", mode, rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  sp_test_recording_load (rec);
  sp_test_assert_meta_string (rec, "recording", "call_graph", mode);
  return rec;
}

/* ---- The statistics of the side file match the spool ------------------ */

/* Per module path: samples with a user frame in it. */
static GHashTable *
samples_per_module (SpTestRecording *rec)
{
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const SpModule *modules = sp_spool_reader_get_modules (rec->reader);
  const SpFrame *frames = sp_spool_reader_get_frames (rec->reader);
  gsize n = sp_spool_reader_get_n_samples (rec->reader);

  for (gsize i = 0; i < n; i++)
    {
      g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
      SpSample sample;
      SpStackIter iter;
      guint32 frame_id;

      sp_spool_reader_get_sample (rec->reader, i, &sample);
      sp_stack_iter_init (&iter, rec->reader, sample.stack);
      while (sp_stack_iter_next (&iter, &frame_id))
        {
          const SpFrame *frame = &frames[frame_id];
          g_autofree char *path = NULL;

          if (frame->mode != SP_FRAME_USER || frame->module_id == SP_SPOOL_NO_ID)
            continue;
          path = g_strndup (modules[frame->module_id].path, modules[frame->module_id].path_len);
          if (g_hash_table_contains (seen, path))
            continue;
          g_hash_table_add (seen, g_strdup (path));
          g_hash_table_replace (counts, g_strdup (path),
                                GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, path)) + 1));
        }
      {
        GHashTableIter it;
        gpointer key;

        g_hash_table_iter_init (&it, seen);
        while (g_hash_table_iter_next (&it, &key, NULL))
          g_free (key);
      }
    }
  return counts;
}

static void
assert_statistics_match (SpTestRecording *rec)
{
  g_autoptr (GHashTable) expected = samples_per_module (rec);
  g_auto (GStrv) groups = g_key_file_get_groups (rec->meta, NULL);
  gint64 n_samples = (gint64) sp_spool_reader_get_n_samples (rec->reader);
  gint64 unwound = g_key_file_get_int64 (rec->meta, "unwinding", "samples", NULL);
  gint64 complete = g_key_file_get_int64 (rec->meta, "unwinding", "complete", NULL);
  gint64 truncated = g_key_file_get_int64 (rec->meta, "unwinding", "truncated", NULL);
  gint64 stopped = g_key_file_get_int64 (rec->meta, "unwinding", "stopped", NULL);
  gint64 dropped = g_key_file_get_int64 (rec->meta, "recording", "dropped_samples", NULL);
  guint n_modules = 0;

  g_test_message ("unwinding: %" G_GINT64_FORMAT " samples, %" G_GINT64_FORMAT " complete, %" G_GINT64_FORMAT
                  " truncated, %" G_GINT64_FORMAT " stopped, %" G_GINT64_FORMAT " dropped",
                  unwound, complete, truncated, stopped, dropped);
  /* Every sample of these user-space workloads carries user state. */
  g_assert_cmpint (unwound, ==, n_samples);
  g_assert_cmpint (complete + truncated + stopped, ==, unwound);
  sp_test_assert_meta_int (rec, "recording", "samples", n_samples);

  for (gsize i = 0; groups[i] != NULL; i++)
    {
      g_autofree char *path = NULL;
      gint64 samples;

      if (!g_str_has_prefix (groups[i], "unwind-module "))
        continue;
      path = g_key_file_get_string (rec->meta, groups[i], "path", NULL);
      samples = g_key_file_get_int64 (rec->meta, groups[i], "samples", NULL);
      g_assert_nonnull (path);
      if (g_str_equal (path, "[unknown]"))
        continue;
      g_test_message ("  %s: %" G_GINT64_FORMAT " samples", path, samples);
      g_assert_cmpint (samples, ==, (gint64) GPOINTER_TO_UINT (g_hash_table_lookup (expected, path)));
      g_assert_true (g_key_file_has_key (rec->meta, groups[i], "eh_frame", NULL));
      g_assert_true (g_key_file_has_key (rec->meta, groups[i], "symbols", NULL));
      n_modules++;
    }
  /* Every module the spool's user frames name has its line. */
  g_assert_cmpuint (n_modules, ==, g_hash_table_size (expected));
}

/* ---- Tests --------------------------------------------------------------- */

static void
test_threads_without_frame_pointers (void)
{
  g_autofree char *workload = sp_test_workload ("threads_nofp");
  const char *const command[] = { workload, SECONDS, NULL };
  g_autoptr (SpTestRecording) dwarf = record_mode ("dwarf", command);
  g_autoptr (SpTestRecording) fp = record_mode ("fp", command);
  g_autoptr (SpElfSymbols) symbols = sp_elf_symbols_load (workload);
  SpElfSymbols *list[] = { symbols, NULL };
  RootCount with_dwarf, with_fp;

  g_test_message ("dwarf stacks:");
  with_dwarf = count_rooted (dwarf, list, -1, threads_stack_rooted);
  g_test_message ("fp stacks:");
  with_fp = count_rooted (fp, list, -1, threads_stack_rooted);
  g_printerr ("# threads workload without frame pointers: %.1f%% of %zu samples reach their thread's root "
              "with --call-graph dwarf, %.1f%% of %zu with fp\n",
              percent (with_dwarf.rooted, with_dwarf.n), with_dwarf.n, percent (with_fp.rooted, with_fp.n), with_fp.n);
  g_assert_cmpuint (with_dwarf.n, >, MIN_SAMPLES);
  g_assert_cmpfloat (percent (with_dwarf.rooted, with_dwarf.n), >=, 90.0);
  assert_statistics_match (dwarf);
}

static void
test_debian_python (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sp-python-XXXXXX", NULL);
  g_autofree char *script = g_build_filename (dir, "burn.py", NULL);
  g_autofree char *python = realpath (DEBIAN_PYTHON, NULL);
  const char *const command[] = { DEBIAN_PYTHON, script, SECONDS, NULL };
  g_autoptr (SpTestRecording) dwarf = NULL;
  g_autoptr (SpTestRecording) fp = NULL;
  g_autoptr (SpElfSymbols) symbols = NULL;
  SpElfSymbols *list[2] = { NULL, NULL };
  RootCount with_dwarf, with_fp;

  if (python == NULL)
    {
      g_test_skip ("no " DEBIAN_PYTHON);
      return;
    }
  g_assert_true (g_file_set_contents (script,
                                      "import sys, time\n"
                                      "def fib(n):\n"
                                      "    return n if n < 2 else fib(n - 1) + fib(n - 2)\n"
                                      "def work(until):\n"
                                      "    while time.monotonic() < until:\n"
                                      "        fib(15)\n"
                                      "work(time.monotonic() + float(sys.argv[1]))\n",
                                      -1, NULL));
  dwarf = record_mode ("dwarf", command);
  fp = record_mode ("fp", command);
  symbols = sp_elf_symbols_load (python);
  list[0] = symbols;

  g_test_message ("dwarf stacks:");
  with_dwarf = count_rooted (dwarf, list, -1, python_stack_rooted);
  g_test_message ("fp stacks:");
  with_fp = count_rooted (fp, list, -1, python_stack_rooted);
  g_printerr ("# Debian's python3: %.1f%% of %zu samples reach _start with --call-graph dwarf, "
              "%.1f%% of %zu with fp\n",
              percent (with_dwarf.rooted, with_dwarf.n), with_dwarf.n, percent (with_fp.rooted, with_fp.n), with_fp.n);
  g_assert_cmpuint (with_dwarf.n, >, MIN_SAMPLES);
  g_assert_cmpfloat (percent (with_dwarf.rooted, with_dwarf.n), >=, 90.0);
  assert_statistics_match (dwarf);
  unlink (script);
  g_rmdir (dir);
}

/* Deeper than a 4 KiB copy: every stack in deep_leaf ends in the marker,
 * and the side file counts exactly those. */
static void
test_recursion_deeper_than_the_copy (void)
{
  g_autofree char *workload = sp_test_workload ("deep");
  g_autoptr (SpTestRecording) rec = sp_test_record (
    (const char *const[]) { "--call-graph", "dwarf", "--stack-size", "4096", NULL },
    (const char *const[]) { workload, "0.5", "1000", NULL });
  g_autoptr (SpElfSymbols) symbols = sp_elf_symbols_load (workload);
  SpElfSymbols *list[] = { symbols, NULL };
  gsize n, in_leaf = 0, in_leaf_truncated = 0, truncated = 0;

  g_test_message ("recorder's stderr:\n%s", rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  sp_test_recording_load (rec);
  sp_test_assert_meta_int (rec, "recording", "stack_size", 4096);
  n = sp_spool_reader_get_n_samples (rec->reader);
  for (gsize i = 0; i < n; i++)
    {
      SpSample sample;
      gint32 pid;
      g_autofree char *text = NULL;
      gboolean leaf, cut;

      sp_spool_reader_get_sample (rec->reader, i, &sample);
      pid = sp_spool_reader_get_threads (rec->reader)[sample.thread].pid;
      text = sp_test_describe_stack (rec->reader, list, pid, sample.stack);
      leaf = g_str_has_prefix (text, "deep_leaf;deep_work;descend;descend;descend;");
      cut = sp_test_stack_ends_truncated (rec->reader, sample.stack);
      in_leaf += leaf;
      in_leaf_truncated += leaf && cut;
      truncated += cut;
    }
  g_test_message ("%zu samples, %zu in deep_leaf, %zu of them truncated", n, in_leaf, in_leaf_truncated);
  g_assert_cmpuint (in_leaf, >, n / 2);
  g_assert_cmpuint (in_leaf_truncated, ==, in_leaf);
  sp_test_assert_meta_int (rec, "recording", "truncated_stacks", (gint64) truncated);
  sp_test_assert_meta_int (rec, "unwinding", "truncated", (gint64) truncated);
}

/* Samples read from the rings, of a deep recursion at 4 kHz (16 KiB
 * copies, unwound with libdw): each is in the spool or counted as
 * dropped, and the records waiting to be unwound stayed within their
 * bound. Whether the kernel lost any depends on how the machine schedules
 * the drain's thread, so lost_samples is only shown. */
static SpTestRecording *
record_deep_at_4khz (const char *queue_limit)
{
  g_autofree char *workload = sp_test_workload ("deep");
  SpTestRecording *rec = sp_test_record (
    (const char *const[]) { "-F", "4000", "--call-graph", "dwarf", queue_limit != NULL ? "--queue-limit" : NULL,
                            queue_limit, NULL },
    (const char *const[]) { workload, "1", "100", NULL });
  guint64 ring_samples, samples, dropped, peak, limit;

  g_test_message ("recorder's stderr:\n%s", rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  sp_test_recording_load (rec);
  ring_samples = sp_test_meta_u64 (rec, "recording", "ring_samples");
  samples = sp_test_meta_u64 (rec, "recording", "samples");
  dropped = sp_test_meta_u64 (rec, "recording", "dropped_samples");
  peak = sp_test_meta_u64 (rec, "recording", "queue_peak_bytes");
  limit = sp_test_meta_u64 (rec, "recording", "queue_limit_bytes");
  g_test_message ("%" G_GUINT64_FORMAT " samples from the rings: %" G_GUINT64_FORMAT " in the spool, %"
                  G_GUINT64_FORMAT " dropped (%" G_GUINT64_FORMAT " at the queue's bound), %" G_GUINT64_FORMAT
                  " lost by the kernel; the queue held at most %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " bytes",
                  ring_samples, samples, dropped, sp_test_meta_u64 (rec, "recording", "queue_dropped_samples"),
                  sp_test_meta_u64 (rec, "recording", "lost_samples"), peak, limit);
  g_assert_cmpuint (samples, >, 0);
  g_assert_cmpuint (samples + dropped, ==, ring_samples);
  g_assert_cmpuint (sp_test_meta_u64 (rec, "recording", "queue_dropped_samples"), <=, dropped);
  g_assert_cmpuint (sp_test_meta_u64 (rec, "recording", "ring_bytes"), >=, 4096);
  /* Samples never pass the bound; a mapping or task record is kept
   * beyond it (a few hundred bytes each). */
  g_assert_cmpuint (peak, <=, limit + 16384);
  return rec;
}

static void
test_every_sample_accounted (void)
{
  g_autoptr (SpTestRecording) rec = record_deep_at_4khz (NULL);

  g_assert_cmpuint (sp_test_meta_u64 (rec, "recording", "queue_limit_bytes"), >=, 16u << 20);
}

/* A bound of 64 KiB, a few stack copies: the drain's thread takes a
 * quarter of a ring (or 50 ms of samples) at a time, which cannot fit,
 * so samples are left out at the bound and counted, rather than waited
 * for or held without limit. */
static void
test_queue_bound_drops (void)
{
  g_autoptr (SpTestRecording) rec = record_deep_at_4khz ("65536");

  sp_test_assert_meta_int (rec, "recording", "queue_limit_bytes", 65536);
  g_assert_cmpuint (sp_test_meta_u64 (rec, "recording", "queue_dropped_samples"), >, 0);
}

/* What auto takes through its fast paths (frame pointers, the leaf's CFI
 * rule, the thread's previous outer frames) is exactly what libdw finds:
 * with --check-auto the recorder unwinds those samples with DWARF too
 * and counts every difference. */
static void
test_auto_agrees_with_dwarf (void)
{
  const char *const names[] = { "threads", "threads_nofp" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *workload = sp_test_workload (names[i]);
      const char *const options[] = { "-F", "4000", "--check-auto", NULL };
      const char *const command[] = { workload, "1", NULL };
      g_autoptr (SpTestRecording) rec = sp_test_record (options, command);
      gint64 samples, checked, mismatches;

      g_assert_cmpint (rec->result->exit_code, ==, 0);
      sp_test_recording_load (rec);
      samples = g_key_file_get_int64 (rec->meta, "unwinding", "samples", NULL);
      checked = g_key_file_get_int64 (rec->meta, "unwinding", "checked", NULL);
      mismatches = g_key_file_get_int64 (rec->meta, "unwinding", "check_mismatches", NULL);
      g_printerr ("# %s, --call-graph auto: %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT " stacks through the fast "
                  "paths, %" G_GINT64_FORMAT " differ from DWARF's\n", names[i], checked, samples, mismatches);
      g_assert_cmpint (checked, >, samples / 2);
      /* The recorder printed each difference, both stacks: kept in the log. */
      if (mismatches != 0)
        g_printerr ("# the recorder's report:\n%s\n", rec->result->err);
      g_assert_cmpint (mismatches, ==, 0);
    }
}

/* Attached to a running program without frame pointers: the mappings come
 * from /proc/PID/maps, and the stacks still reach their roots. */
static void
test_attach_without_frame_pointers (void)
{
  g_autofree char *workload = sp_test_workload ("threads_nofp");
  char *dir = sp_test_make_dir ();
  g_autofree char *ready_path = g_build_filename (dir, "ready", NULL);
  g_autofree char *ready = NULL;
  g_autofree char *pid_text = NULL;
  g_auto (GStrv) argv = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  g_autoptr (SpElfSymbols) symbols = sp_elf_symbols_load (workload);
  SpElfSymbols *list[] = { symbols, NULL };
  SpChildResult *result;
  SpChild *target;
  RootCount count;
  gint32 pid;

  target = sp_child_spawn (dir, "workload", (const char *const[]) { workload, "--ready", ready_path, "30", NULL },
                           FALSE);
  ready = sp_test_wait_for_file (target, ready_path);
  pid = sp_test_ready_id (ready, "main");
  pid_text = g_strdup_printf ("%d", (int) pid);
  argv = sp_test_argv (sp_test_recorder (), "-o", "out.spool", "-F", "1000", "--call-graph", "dwarf", "-p",
                       pid_text, "--duration", SECONDS, NULL);
  result = sp_test_run (dir, "record", (const char *const *) argv);
  sp_child_kill (target);
  rec = sp_test_recording_new (dir, result);
  g_test_message ("recorder's stderr:\n%s", result->err);
  g_assert_cmpint (result->exit_code, ==, 0);
  sp_test_recording_load (rec);

  count = count_rooted (rec, list, pid, threads_stack_rooted);
  g_printerr ("# attached, no frame pointers, --call-graph dwarf: %.1f%% of %zu samples reach their thread's "
              "root\n", percent (count.rooted, count.n), count.n);
  g_assert_cmpuint (count.n, >, MIN_SAMPLES);
  g_assert_cmpfloat (percent (count.rooted, count.n), >=, 90.0);
  assert_statistics_match (rec);
}

/* A program with frame pointers: auto takes most stacks from them and
 * gives the same stacks dwarf mode gives. */
static void
test_auto_uses_frame_pointers (void)
{
  g_autofree char *workload = sp_test_workload ("threads");
  const char *const command[] = { workload, SECONDS, NULL };
  g_autoptr (SpTestRecording) rec = record_mode ("auto", command);
  g_autoptr (SpElfSymbols) symbols = sp_elf_symbols_load (workload);
  SpElfSymbols *list[] = { symbols, NULL };
  gint64 unwound = g_key_file_get_int64 (rec->meta, "unwinding", "samples", NULL);
  gint64 by_frame_pointers = g_key_file_get_int64 (rec->meta, "unwinding", "frame_pointer", NULL);
  RootCount count;

  count = count_rooted (rec, list, -1, threads_stack_rooted);
  g_printerr ("# threads workload with frame pointers, --call-graph auto: %.1f%% of %zu samples reach their "
              "thread's root, %.1f%% through frame pointers\n",
              percent (count.rooted, count.n), count.n, percent ((gsize) by_frame_pointers, (gsize) unwound));
  g_assert_cmpfloat (percent (count.rooted, count.n), >=, 90.0);
  /* gamma's samples sit in libc's read() (no frame pointer): DWARF. */
  g_assert_cmpfloat (percent ((gsize) by_frame_pointers, (gsize) unwound), >=, 50.0);
  /* Above the chains, libc's start_thread and __libc_start_call_main:
   * the same outer frames sample after sample, unwound once per thread. */
  g_assert_cmpint (g_key_file_get_int64 (rec->meta, "unwinding", "outer_frames_reused", NULL), >,
                   by_frame_pointers / 2);
  assert_statistics_match (rec);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;
  g_test_add_func ("/recorder/unwind/threads-without-frame-pointers", test_threads_without_frame_pointers);
  g_test_add_func ("/recorder/unwind/debian-python", test_debian_python);
  g_test_add_func ("/recorder/unwind/recursion-deeper-than-the-copy", test_recursion_deeper_than_the_copy);
  g_test_add_func ("/recorder/unwind/auto-uses-frame-pointers", test_auto_uses_frame_pointers);
  g_test_add_func ("/recorder/unwind/attach-without-frame-pointers", test_attach_without_frame_pointers);
  g_test_add_func ("/recorder/unwind/auto-agrees-with-dwarf", test_auto_agrees_with_dwarf);
  g_test_add_func ("/recorder/unwind/every-sample-accounted", test_every_sample_accounted);
  g_test_add_func ("/recorder/unwind/queue-bound-drops", test_queue_bound_drops);
  return g_test_run ();
}
