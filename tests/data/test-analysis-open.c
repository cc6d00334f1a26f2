/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-analysis-open.c: opening a file with sp_analysis_open_now (the
 * application's read-ahead of the files on its command line): the worker
 * reads it while the main loop does not run, and the window's own
 * sp_analysis_open of the same file, asked while it is being read, takes
 * that reading instead of starting again. Another file asked meanwhile,
 * or the same file asked once it was read, is read anew. */
#include <glib.h>
#include <glib/gstdio.h>

#include "profile-builder.h"
#include "sp-analysis.h"

typedef struct {
  guint  opened;      /* results with `opened` */
  guint  failures;
  gsize  n_samples;   /* the last result's */
} Seen;

static void
on_result (SpAnalysis *analysis,
           SpAnalysisResult *result,
           Seen *seen)
{
  seen->opened += result->opened;
  seen->n_samples = result->n_samples;
}

static void
on_failed (SpAnalysis *analysis,
           GError *error,
           Seen *seen)
{
  g_test_message ("failed: %s", error->message);
  seen->failures++;
}

static SpAnalysis *
analysis_seen (Seen *seen)
{
  SpAnalysis *analysis = sp_analysis_new ();

  g_signal_connect (analysis, "result", G_CALLBACK (on_result), seen);
  g_signal_connect (analysis, "failed", G_CALLBACK (on_failed), seen);
  return analysis;
}

/* A recording of n samples (each line's count is its samples). */
static RecordingBuilder *
recording_of (guint n)
{
  RecordingBuilder *builder = recording_builder_new ();
  g_autofree char *line = g_strdup_printf ("main;parse;lex %u +1", n);

  recording_builder_add_line (builder, line);
  recording_builder_finish (builder);
  return builder;
}

/* Runs the main loop until the analysis is idle. */
static void
wait_idle (SpAnalysis *analysis)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (sp_analysis_is_busy (analysis) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (sp_analysis_is_busy (analysis));
}

/* Waits, without running the main loop, until something is ready for it:
 * here the worker's end (nothing else has a source). */
static void
wait_worker_done (void)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (!g_main_context_pending (NULL) && g_get_monotonic_time () < deadline)
    g_usleep (2000);
  g_assert_true (g_main_context_pending (NULL));
}

static void
test_read_ahead (void)
{
  RecordingBuilder *builder = recording_of (18);
  g_autofree char *path = g_strdup (recording_builder_get_path (builder));
  Seen seen = { 0 };
  SpAnalysis *analysis = analysis_seen (&seen);

  /* No idle: the worker starts now and reads the whole file. */
  g_assert_false (g_main_context_pending (NULL));
  sp_analysis_open_now (analysis, path);
  g_assert_true (sp_analysis_is_busy (analysis));
  wait_worker_done ();
  /* Read already: a new reading would find no file. */
  g_assert_cmpint (g_unlink (path), ==, 0);
  sp_analysis_open (analysis, path);
  wait_idle (analysis);
  g_assert_cmpuint (seen.failures, ==, 0);
  g_assert_cmpuint (seen.opened, ==, 1);
  g_assert_cmpuint (seen.n_samples, ==, 18);
  g_assert_nonnull (sp_analysis_get_profile (analysis));

  /* Read and shown: asked again, it is read again (and is gone now). */
  sp_analysis_open (analysis, path);
  wait_idle (analysis);
  g_assert_cmpuint (seen.failures, ==, 1);
  g_assert_null (sp_analysis_get_profile (analysis));
  g_object_unref (analysis);
  recording_builder_free (builder);
}

static void
test_other_file_meanwhile (void)
{
  RecordingBuilder *a = recording_of (18);
  RecordingBuilder *b = recording_of (7);
  Seen seen = { 0 };
  SpAnalysis *analysis = analysis_seen (&seen);

  sp_analysis_open_now (analysis, recording_builder_get_path (a));
  sp_analysis_open (analysis, recording_builder_get_path (b));
  wait_idle (analysis);
  /* A's result is dropped: only B's comes. */
  g_assert_cmpuint (seen.failures, ==, 0);
  g_assert_cmpuint (seen.opened, ==, 1);
  g_assert_cmpuint (seen.n_samples, ==, 7);

  /* A after all, then A again while it is read: one reading of A. */
  sp_analysis_open_now (analysis, recording_builder_get_path (a));
  sp_analysis_open (analysis, recording_builder_get_path (a));
  wait_idle (analysis);
  g_assert_cmpuint (seen.failures, ==, 0);
  g_assert_cmpuint (seen.opened, ==, 2);
  g_assert_cmpuint (seen.n_samples, ==, 18);
  g_object_unref (analysis);
  recording_builder_free (a);
  recording_builder_free (b);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/analysis-open/read-ahead", test_read_ahead);
  g_test_add_func ("/data/analysis-open/other-file-meanwhile", test_other_file_meanwhile);
  return g_test_run ();
}
