/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-perf-data.c: stackpulse-record --input beside perf report, on
 * perf.data files recorded here by perf (issue #16).
 *
 *  - frame pointers (perf record -g) of sp-work-threads: the converted
 *    spool reads whole, its sample count is perf report's, and
 *    `stackpulse-report top` has perf report's top functions with their
 *    self shares within 3 points;
 *  - a forking workload: every process with perf's sample count, and the
 *    children's threads with their names;
 *  - pipe mode (perf record -o - | stackpulse-record --input -): perf
 *    report's count of the same stream, saved with tee;
 *  - two events: the clock event by default, --event for the other, each
 *    with perf report's count for it. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "perf-data-run.h"
#include "record-run.h"
#include "report-output.h"


static SpTestRecording *
load_conversion (char *dir,
                 SpChildResult *result)
{
  SpTestRecording *rec = sp_test_recording_new (dir, result);

  if (result->exit_code != 0)
    g_error ("stackpulse-record --input exited with %d:\n%s", result->exit_code, result->err);
  sp_test_recording_load (rec);
  return rec;
}

static void
test_frame_pointers (void)
{
  const char *perf = sp_test_perf_data_needs_perf ();
  g_autofree char *workload = NULL;
  g_autofree char *data = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  char *dir;
  guint64 perf_samples;

  if (perf == NULL)
    return;
  dir = sp_test_make_dir ();
  workload = sp_test_workload ("threads");
  data = sp_test_perf_record (perf, dir, "fp.data", (const char *const[]) { "-F", "2000", "-g", NULL },
                              (const char *const[]) { workload, "0.6", NULL });
  rec = load_conversion (dir, sp_test_convert (dir, data, NULL));

  perf_samples = sp_test_perf_samples (perf, dir, data, NULL);
  g_assert_cmpuint (perf_samples, >, 100);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (rec->reader), ==, perf_samples);
  g_assert_cmpuint (sp_test_meta_samples (rec->meta_path), ==, perf_samples);
  sp_test_assert_meta_string (rec, "input", "format", "perf.data");
  sp_test_assert_meta_string (rec, "input", "mode", "file");

  sp_test_assert_top_shares (perf, dir, data, rec->spool, 4);
}

/* "pid tid name samples ..." rows of stackpulse-report threads: tid -> samples. */
static GHashTable *
samples_by_tid (const char *text,
                GHashTable *names)
{
  GHashTable *by_tid = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto (GStrv) f = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      g_autoptr (GPtrArray) words = g_ptr_array_new ();
      gint64 tid;

      for (guint j = 0; f[j] != NULL; j++)
        if (*f[j] != '\0')
          g_ptr_array_add (words, f[j]);
      if (words->len < 4 || !g_ascii_isdigit (((char *) words->pdata[0])[0]))
        continue;
      tid = g_ascii_strtoll (words->pdata[1], NULL, 10);
      g_hash_table_insert (by_tid, GINT_TO_POINTER (tid),
                           GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (by_tid, GINT_TO_POINTER (tid)))
                                             + g_ascii_strtoull (words->pdata[3], NULL, 10)));
      g_hash_table_add (names, g_strdup (words->pdata[2]));
    }
  return by_tid;
}

static void
test_fork (void)
{
  const char *perf = sp_test_perf_data_needs_perf ();
  g_autofree char *fork_workload = NULL;
  g_autofree char *threads = NULL;
  g_autofree char *data = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  g_autoptr (SpChildResult) report = NULL;
  g_autoptr (GPtrArray) perf_rows = NULL;
  g_autoptr (GHashTable) by_tid = NULL;
  g_autoptr (GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  char *dir;

  if (perf == NULL)
    return;
  dir = sp_test_make_dir ();
  fork_workload = sp_test_workload ("fork");
  threads = sp_test_workload ("threads");
  data = sp_test_perf_record (perf, dir, "fork.data", (const char *const[]) { "-F", "2000", "-g", NULL },
                              (const char *const[]) { fork_workload, "0.4", threads, NULL });
  rec = load_conversion (dir, sp_test_convert (dir, data, NULL));
  report = sp_test_report_run (dir, (const char *const[]) { "threads", rec->spool, NULL });
  g_assert_cmpint (report->exit_code, ==, 0);
  g_test_message ("stackpulse-report threads:\n%s", report->out);
  by_tid = samples_by_tid (report->out, names);
  perf_rows = sp_test_perf_report_rows (perf, dir, data, "pid");
  /* perf's --sort pid is by thread ("TID:COMM"): the parent, the child
   * (which execs sp-work-threads) and its threads. */
  g_assert_cmpuint (perf_rows->len, >=, 2);
  g_assert_cmpuint (g_hash_table_size (by_tid), ==, perf_rows->len);
  for (guint i = 0; i < perf_rows->len; i++)
    {
      const SpPerfRow *p = g_ptr_array_index (perf_rows, i);
      gint64 tid = g_ascii_strtoll (p->key, NULL, 10);
      gsize ours = GPOINTER_TO_SIZE (g_hash_table_lookup (by_tid, GINT_TO_POINTER (tid)));

      g_test_message ("thread %s: perf %" G_GUINT64_FORMAT ", stackpulse %zu", p->key, p->samples, ours);
      g_assert_cmpuint (ours, ==, p->samples);
    }
  /* The threads keep their names across the fork and the exec. */
  g_assert_true (g_hash_table_contains (names, "sp-work-fork"));
  g_assert_true (g_hash_table_contains (names, "sp-work-threads"));
  g_assert_true (g_hash_table_contains (names, "sp-alpha"));
  g_assert_true (g_hash_table_contains (names, "sp-beta"));
}

static void
test_pipe (void)
{
  const char *perf = sp_test_perf_data_needs_perf ();
  g_autofree char *workload = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *spool = NULL;
  g_autofree char *progress = NULL;
  g_autofree char *script = NULL;
  g_autofree char *progress_text = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  SpChildResult *result;
  guint64 perf_samples;
  char *dir;

  if (perf == NULL)
    return;
  dir = sp_test_make_dir ();
  workload = sp_test_workload ("threads");
  copy = g_build_filename (dir, "pipe.data", NULL);
  spool = g_build_filename (dir, "out.spool", NULL);
  progress = g_build_filename (dir, "progress", NULL);
  script = g_strdup_printf ("set -o pipefail; '%s' record -F 2000 -g -o - -- '%s' 0.4 | tee '%s' | "
                            "'%s' --input - -o '%s' --progress-fd 3 3>'%s'", perf, workload, copy,
                            sp_test_recorder (), spool, progress);
  result = sp_test_run (dir, "pipe", (const char *const[]) { "/bin/bash", "-c", script, NULL });
  rec = load_conversion (dir, result);
  perf_samples = sp_test_perf_samples (perf, dir, copy, NULL);
  g_assert_cmpuint (perf_samples, >, 50);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (rec->reader), ==, perf_samples);
  sp_test_assert_meta_string (rec, "input", "mode", "pipe");
  g_assert_true (g_file_get_contents (progress, &progress_text, NULL, NULL));
  g_test_message ("progress:\n%s", progress_text);
  sp_test_assert_contains (progress_text, "input_total=0");
  sp_test_assert_contains (progress_text, "state=done");
}

static void
test_events (void)
{
  const char *perf = sp_test_perf_data_needs_perf ();
  g_autofree char *workload = NULL;
  g_autofree char *data = NULL;
  g_autofree char *dir2 = NULL;
  g_autoptr (SpTestRecording) clock_rec = NULL;
  g_autoptr (SpTestRecording) faults_rec = NULL;
  guint64 clock_samples, fault_samples;
  char *dir;

  if (perf == NULL)
    return;
  dir = sp_test_make_dir ();
  dir2 = sp_test_make_dir ();
  workload = sp_test_workload ("threads");
  data = sp_test_perf_record (perf, dir, "events.data",
                              (const char *const[]) { "-e", "page-faults", "-e", "cpu-clock", "-g", NULL },
                              (const char *const[]) { workload, "0.4", NULL });
  clock_samples = sp_test_perf_samples (perf, dir, data, "cpu-clock");
  fault_samples = sp_test_perf_samples (perf, dir, data, "page-faults");
  g_assert_cmpuint (clock_samples, >, 0);
  g_assert_cmpuint (fault_samples, >, 0);

  /* cpu-clock by default, though page-faults comes first. */
  clock_rec = load_conversion (dir, sp_test_convert (dir, data, NULL));
  sp_test_assert_contains (clock_rec->result->err, "converting cpu-clock");
  sp_test_assert_meta_string (clock_rec, "input", "event", "cpu-clock");
  g_assert_cmpuint (sp_spool_reader_get_n_samples (clock_rec->reader), ==, clock_samples);

  faults_rec = load_conversion (g_strdup (dir2), sp_test_convert (dir2, data, (const char *const[]) { "--event",
                                                                                              "page-faults", NULL }));
  sp_test_assert_meta_string (faults_rec, "input", "event", "page-faults");
  g_assert_cmpuint (sp_spool_reader_get_n_samples (faults_rec->reader), ==, fault_samples);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perf-data/frame-pointers", test_frame_pointers);
  g_test_add_func ("/perf-data/fork", test_fork);
  g_test_add_func ("/perf-data/pipe", test_pipe);
  g_test_add_func ("/perf-data/events", test_events);
  return g_test_run ();
}
