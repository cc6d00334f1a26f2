/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-analysis-source.c: the Source page's part of an analysis's results
 * (sp_analysis_annotate, data/sp-source-annotation.h): the function asked
 * for comes annotated with the filter; a new time range brings it again
 * while the page is shown, and only once shown again when it was hidden.
 * On a recording written from text (profile-builder.h): its functions are
 * kernel symbols, without source or code to disassemble, so the source
 * says it names no file and the instructions are the sampled addresses. */
#include <glib.h>

#include "profile-builder.h"
#include "sp-analysis.h"

/* lex: 10 samples from 1000 ms, then 3 more from 1100 ms. */
static const char *const recording[] = {
  "main;parse;lex 10 +1",
  "main;parse 5 +1",
  "main;eval;lex 3 +1",
  NULL,
};

typedef struct {
  guint               results;
  SpSourceAnnotation *source;    /* the last one a result brought */
  guint               sources;   /* how many results brought one */
} Seen;

static void
on_result (SpAnalysis *analysis,
           SpAnalysisResult *result,
           Seen *seen)
{
  seen->results++;
  if (result->source == NULL)
    return;
  seen->sources++;
  g_clear_pointer (&seen->source, sp_source_annotation_unref);
  seen->source = g_steal_pointer (&result->source);
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

/* The recording written, opened by analysis, its results seen. */
static void
open_recording (RecordingBuilder *builder,
                SpAnalysis *analysis,
                Seen *seen)
{
  for (guint i = 0; recording[i] != NULL; i++)
    recording_builder_add_line (builder, recording[i]);
  recording_builder_finish (builder);
  g_signal_connect (analysis, "result", G_CALLBACK (on_result), seen);
  sp_analysis_open (analysis, recording_builder_get_path (builder));
  wait_idle (analysis);
}

static guint32
function_named (SpAnalysis *analysis,
                const char *name)
{
  g_autoptr (GArray) found = sp_profile_find_functions (sp_analysis_get_profile (analysis), name);

  g_assert_cmpuint (found->len, ==, 1);
  return g_array_index (found, guint32, 0);
}

static void
test_annotate_with_filter (void)
{
  RecordingBuilder *builder = recording_builder_new ();
  SpAnalysis *analysis = sp_analysis_new ();
  Seen seen = { 0 };
  guint32 lex;
  guint sources;

  open_recording (builder, analysis, &seen);
  g_assert_cmpuint (seen.sources, ==, 0);

  /* Asked for: the whole recording's. */
  lex = function_named (analysis, "lex");
  sp_analysis_set_source_shown (analysis, TRUE);
  sp_analysis_annotate (analysis, lex, SP_SOURCE_PLACE_HEAVIEST);
  wait_idle (analysis);
  g_assert_cmpuint (seen.sources, ==, 1);
  g_assert_cmpuint (sp_analysis_get_annotated (analysis), ==, lex);
  g_assert_cmpuint (seen.source->function, ==, lex);
  g_assert_cmpstr (seen.source->name, ==, "lex");
  g_assert_cmpuint (seen.source->self, ==, 13);
  g_assert_cmpuint (seen.source->total, ==, 13);
  g_assert_cmpuint (seen.source->all, ==, 18);
  /* A kernel symbol: no file to show, nor code to decode. */
  g_assert_null (seen.source->wanted);
  g_assert_null (seen.source->text);
  g_assert_nonnull (seen.source->disassembly_problem);

  /* Shown: a time range brings it again, counted in the range. */
  sp_analysis_set_time_range (analysis, 1000000000, 1005000000);
  wait_idle (analysis);
  g_assert_cmpuint (seen.sources, ==, 2);
  g_assert_cmpuint (seen.source->total, ==, 5);
  g_assert_cmpuint (seen.source->all, ==, 5);

  /* Hidden: no annotation with the new trees, until it is shown again. */
  sp_analysis_set_source_shown (analysis, FALSE);
  sp_analysis_set_time_range (analysis, 0, G_MAXUINT64);
  wait_idle (analysis);
  sources = seen.sources;
  g_assert_cmpuint (sources, ==, 2);
  sp_analysis_set_source_shown (analysis, TRUE);
  wait_idle (analysis);
  g_assert_cmpuint (seen.sources, ==, 3);
  g_assert_cmpuint (seen.source->total, ==, 13);

  g_clear_pointer (&seen.source, sp_source_annotation_unref);
  g_object_unref (analysis);
  recording_builder_free (builder);
}

/* Another file opened: nothing is annotated in it until asked. */
static void
test_open_forgets (void)
{
  RecordingBuilder *builder = recording_builder_new ();
  SpAnalysis *analysis = sp_analysis_new ();
  Seen seen = { 0 };

  open_recording (builder, analysis, &seen);
  sp_analysis_set_source_shown (analysis, TRUE);
  sp_analysis_annotate (analysis, function_named (analysis, "parse"), SP_SOURCE_PLACE_HEAVIEST);
  wait_idle (analysis);
  g_assert_cmpuint (seen.sources, ==, 1);
  sp_analysis_open (analysis, recording_builder_get_path (builder));
  wait_idle (analysis);
  g_assert_cmpuint (sp_analysis_get_annotated (analysis), ==, SP_FUNCTION_LIST_ROOT);
  g_assert_cmpuint (seen.sources, ==, 1);
  g_clear_pointer (&seen.source, sp_source_annotation_unref);
  g_object_unref (analysis);
  recording_builder_free (builder);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/analysis-source/annotate-with-filter", test_annotate_with_filter);
  g_test_add_func ("/data/analysis-source/open-forgets", test_open_forgets);
  return g_test_run ();
}
