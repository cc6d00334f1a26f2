/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-debuginfod.c: debug info and sources from a real debuginfod.
 *
 * A stripped program whose debug file only a debuginfod server on
 * 127.0.0.1 has (debuginfod-server.c): recorded, its functions are
 * addresses without the server and names with it, in stackpulse-report
 * (which fetches in place) and in the window's analysis (which lists what
 * is missing; a queue fetches it in the background, then the analysis
 * resolves again); its source
 * comes from the server, and `stackpulse-report annotate` shows the source
 * and instructions of the stripped program with what the server has; a
 * fetch can be cancelled. Skips only when the
 * debuginfod program is not installed. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "debuginfod-server.h"
#include "report-output.h"
#include "sp-analysis.h"
#include "sp-debuginfod-queue.h"
#include "sp-build-id.h"
#include "sp-debuginfod.h"

static SpTestDebuginfod *server;
static SpTestRecording *recording;  /* of the stripped program, made once */

/* An empty cache of its own, so that no case sees another's fetches. */
static char *
use_server_with_new_cache (void)
{
  static guint n;
  char *cache = g_strdup_printf ("%s-%u", server->cache, n++);

  sp_test_debuginfod_use (server, cache);
  return cache;
}

static const char *
record_program (void)
{
  if (recording == NULL)
    {
      recording = sp_test_record (NULL, (const char *const[]) { server->program, NULL });
      sp_test_assert_recorded (recording, "the stripped program");
    }
  return recording->spool;
}

static SpChildResult *
report_top (const char *option)
{
  const char *args[] = { "top", "--limit", "0", option != NULL ? option : recording->spool,
                         option != NULL ? recording->spool : NULL, NULL };
  SpChildResult *result = sp_test_report_run (recording->dir, args);

  g_test_message ("stackpulse-report top %s:\n%s%s", option != NULL ? option : "", result->out, result->err);
  g_assert_cmpint (result->exit_code, ==, 0);
  return result;
}

static void
assert_unresolved (const SpChildResult *result)
{
  g_assert_null (strstr (result->out, "debuginfod_spin_inner"));
  sp_test_assert_contains (result->out, "hot+0x");
}

static void
test_report_names (void)
{
  g_autofree char *cache = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  record_program ();

  /* No server, no names: the debug file is nowhere on this machine. */
  g_unsetenv ("DEBUGINFOD_URLS");
  {
    g_autoptr (SpChildResult) result = report_top (NULL);

    assert_unresolved (result);
    g_assert_null (strstr (result->err, "debuginfod"));
  }
  cache = use_server_with_new_cache ();
  {
    g_autoptr (SpChildResult) result = report_top ("--no-debuginfod");

    assert_unresolved (result);
  }
  {
    g_autoptr (SpChildResult) result = report_top (NULL);

    sp_test_assert_contains (result->out, "debuginfod_spin_inner");
    sp_test_assert_contains (result->out, "debuginfod_spin_outer");
    g_assert_null (strstr (result->out, "hot+0x"));
    sp_test_assert_contains (result->err, "stackpulse-report: fetching debug info for hot (build-id ");
    sp_test_assert_contains (result->err, ") from debuginfod");
  }
  /* Off is off: not even the copy the fetch left in the cache. */
  {
    g_autoptr (SpChildResult) result = report_top ("--no-debuginfod");

    assert_unresolved (result);
  }
}

/* ---- annotate: the stripped program's source and instructions ---------- */

static SpChildResult *
annotate (const char *const *options)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  SpChildResult *result;

  g_ptr_array_add (args, (char *) "annotate");
  for (guint i = 0; options[i] != NULL; i++)
    g_ptr_array_add (args, (char *) options[i]);
  g_ptr_array_add (args, (char *) "debuginfod_spin_inner");
  g_ptr_array_add (args, (char *) recording->spool);
  g_ptr_array_add (args, NULL);
  result = sp_test_report_run (recording->dir, (const char *const *) args->pdata);
  g_test_message ("stackpulse-report annotate %s:\n%s%s", options[0] != NULL ? options[0] : "", result->out,
                  result->err);
  g_assert_cmpint (result->exit_code, ==, 0);
  return result;
}

/* The line marked hottest ("> 87.50%  87.50%     11      s += …"). */
static char *
hottest_line (const char *out)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] == '>')
      return g_strdup (lines[i]);
  g_error ("no line is marked hottest in:\n%s", out);
}

/* Instruction rows ("  12.50%  12.50%     1139:  addsd  %xmm1,%xmm0   hot.c:11"). */
static guint
count_instructions (const char *out)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  g_autoptr (GRegex) row = g_regex_new ("^[> ] +[0-9.]+% +[0-9.]+% +[0-9a-f]+:  \\S", 0, 0, NULL);
  guint n = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    n += g_regex_match (row, lines[i], 0, NULL);
  return n;
}

/* The source only on the server: annotate fetches the debug file (names,
 * lines, the function's bounds in the stripped program) and the source. */
static void
test_report_annotate (void)
{
  g_autofree char *cache = NULL;
  g_autofree char *hottest = NULL;
  g_autoptr (SpChildResult) source = NULL;
  g_autoptr (SpChildResult) instructions = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  record_program ();
  cache = use_server_with_new_cache ();
  sp_test_debuginfod_show_source (server, FALSE);
  source = annotate ((const char *const[]) { NULL });
  instructions = annotate ((const char *const[]) { "--asm", NULL });
  sp_test_debuginfod_show_source (server, TRUE);

  sp_test_assert_contains (source->err, "stackpulse-report: fetching debug info for hot (build-id ");
  sp_test_assert_contains (source->err, "stackpulse-report: fetching source file ");
  sp_test_assert_contains (source->err, server->source_path);
  g_assert_null (strstr (source->err, "not found"));
  sp_test_assert_contains (source->out, "debuginfod_spin_inner (long n)");
  sp_test_assert_contains (source->out, "double s = 0;");
  /* The loop (its test, or its body) is the hot line. */
  hottest = hottest_line (source->out);
  g_assert_true (strstr (hottest, "s += (double) i * 0.5 + sink;") != NULL
                 || strstr (hottest, "for (long i = 0; i < n; i++)") != NULL);

  /* The code from the stripped program, its bounds from the debug file. */
  sp_test_assert_contains (instructions->out, "debuginfod_spin_inner  [");
  g_assert_cmpuint (count_instructions (instructions->out), >=, 4);
  sp_test_assert_contains (instructions->out, "hot.c:1");
  g_free (hottest);
  hottest = hottest_line (instructions->out);
  g_assert_true (g_regex_match_simple ("^> +[0-9.]+% +[0-9.]+% +[0-9a-f]+:  ", hottest, 0, 0));
  g_assert_null (strstr (instructions->err, "no symbol with a size"));
}

/* The debug file beside the program (found without debuginfod), the
 * source nowhere here: the message says where it looked, and, when the
 * servers were asked, what they answered. */
static void
test_report_annotate_missing_source (void)
{
  g_autofree char *served = g_build_filename (server->served, "hot.debug", NULL);
  g_autofree char *beside = g_strconcat (server->program, ".debug", NULL);
  g_autofree char *cache = NULL;
  g_autoptr (SpChildResult) off = NULL;
  g_autoptr (SpChildResult) off_asm = NULL;
  g_autoptr (SpChildResult) refused = NULL;
  g_autoptr (GFile) from = g_file_new_for_path (served);
  g_autoptr (GFile) to = g_file_new_for_path (beside);
  g_autoptr (GError) error = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  record_program ();
  cache = use_server_with_new_cache ();
  g_file_copy (from, to, G_FILE_COPY_NONE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  sp_test_debuginfod_show_source (server, FALSE);
  off = annotate ((const char *const[]) { "--no-debuginfod", NULL });
  off_asm = annotate ((const char *const[]) { "--no-debuginfod", "--asm", NULL });
  /* A server that does not answer (nothing listens on port 1). */
  g_setenv ("DEBUGINFOD_URLS", "http://127.0.0.1:1", TRUE);
  refused = annotate ((const char *const[]) { NULL });
  sp_test_debuginfod_show_source (server, TRUE);
  g_assert_no_errno (g_unlink (beside));

  sp_test_assert_contains (off->err, "stackpulse-report: source file ");
  sp_test_assert_contains (off->err, " not found (looked at ");
  sp_test_assert_contains (off->err, server->source_path);
  g_assert_null (strstr (off->err, "debuginfod"));
  g_assert_null (strstr (off->out, "debuginfod_spin_inner (long n)"));
  sp_test_assert_contains (off->out, "%");

  sp_test_assert_contains (off_asm->out, "debuginfod_spin_inner  [");
  g_assert_cmpuint (count_instructions (off_asm->out), >=, 4);

  sp_test_assert_contains (refused->err, " not found (looked at ");
  sp_test_assert_contains (refused->err, ", asked debuginfod: ");
  sp_test_assert_contains (refused->err, "http://127.0.0.1:1");
  g_assert_null (strstr (refused->out, "debuginfod_spin_inner (long n)"));
}

static void
test_source (void)
{
  g_autofree char *cache = use_server_with_new_cache ();
  g_autoptr (GError) error = NULL;
  g_autofree char *build_id = sp_build_id_of_file (server->program, &error);
  /* A new cache: nothing there before the fetch. */
  g_autofree char *before = sp_debuginfod_find_cached_source (build_id, server->source_path);
  g_autofree char *path = sp_debuginfod_find_source (build_id, server->source_path, NULL, NULL, NULL, &error);
  g_autofree char *cached = sp_debuginfod_find_cached_source (build_id, server->source_path);
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  g_assert_cmpstr (build_id, ==, server->build_id);
  g_assert_null (before);
  g_assert_nonnull (path);
  g_assert_true (g_str_has_prefix (path, cache));
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, server->source_text);
  /* The worker's lookup (the window's Source page) finds the fetched copy. */
  g_assert_cmpstr (cached, ==, path);
}

typedef struct {
  guint   calls;
  guint64 total;
  gboolean cancel;
} Progress;

static gboolean
on_progress (guint64 received,
             guint64 total,
             gpointer user_data)
{
  Progress *progress = user_data;

  g_assert_true (total == 0 || received <= total);
  progress->calls++;
  progress->total = MAX (progress->total, total);
  return !progress->cancel;
}

static void
test_debuginfo (void)
{
  g_autofree char *cache = use_server_with_new_cache ();
  g_autofree char *served = g_build_filename (server->served, "hot.debug", NULL);
  g_autoptr (GError) error = NULL;
  Progress progress = { 0 };
  g_autofree char *path = sp_debuginfod_find_debuginfo (server->build_id, on_progress, &progress, NULL, &error);
  g_autofree char *cached = sp_debuginfod_find_cached_debuginfo (server->build_id);
  g_autofree char *got = NULL, *expected = NULL;
  gsize got_len = 0, expected_len = 0;

  g_assert_no_error (error);
  g_assert_cmpstr (path, ==, cached);
  g_assert_true (g_file_get_contents (path, &got, &got_len, NULL));
  g_assert_true (g_file_get_contents (served, &expected, &expected_len, NULL));
  g_assert_cmpmem (got, got_len, expected, expected_len);
  g_assert_cmpuint (progress.calls, >, 0);

  /* What the server does not have. */
  g_clear_error (&error);
  g_assert_null (sp_debuginfod_find_debuginfo ("00112233445566778899aabbccddeeff00112233", NULL, NULL, NULL,
                                               &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

static void
assert_not_in_cache (const char *cache)
{
  g_autofree char *file = g_build_filename (cache, server->build_id, "debuginfo", NULL);

  g_assert_false (g_file_test (file, G_FILE_TEST_EXISTS));
  g_assert_null (sp_debuginfod_find_cached_debuginfo (server->build_id));
}

static void
test_cancel (void)
{
  g_autofree char *cache = use_server_with_new_cache ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  Progress progress = { .cancel = TRUE };
  g_autofree char *path = sp_debuginfod_find_debuginfo (server->build_id, on_progress, &progress, NULL, &error);

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (path);
  g_assert_cmpuint (progress.calls, ==, 1);
  assert_not_in_cache (cache);

  g_clear_error (&error);
  g_cancellable_cancel (cancellable);
  g_assert_null (sp_debuginfod_find_debuginfo (server->build_id, NULL, NULL, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  assert_not_in_cache (cache);

  /* A cancel is no "the server has none": trying again fetches it. */
  g_clear_error (&error);
  path = sp_debuginfod_find_debuginfo (server->build_id, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (path);
}

typedef struct {
  GCancellable *cancellable;
  guint         notified;
  GAsyncResult *result;
} AsyncWait;

static void
on_notify (guint64 received,
           guint64 total,
           gpointer user_data)
{
  AsyncWait *wait = user_data;

  wait->notified++;
  if (wait->cancellable != NULL)
    g_cancellable_cancel (wait->cancellable);
}

static void
on_fetched (GObject *source,
            GAsyncResult *result,
            gpointer user_data)
{
  AsyncWait *wait = user_data;

  wait->result = g_object_ref (result);
}

static char *
fetch_in_background (const char *source_path,
                     GCancellable *cancellable,
                     AsyncWait *wait,
                     GError **error)
{
  char *path;

  sp_debuginfod_fetch_async (source_path != NULL ? SP_DEBUGINFOD_SOURCE : SP_DEBUGINFOD_DEBUGINFO,
                             server->build_id, source_path, cancellable, on_notify, wait, on_fetched, wait);
  while (wait->result == NULL)
    g_main_context_iteration (NULL, TRUE);
  path = sp_debuginfod_fetch_finish (wait->result, error);
  g_clear_object (&wait->result);
  return path;
}

static void
test_async (void)
{
  g_autofree char *cache = use_server_with_new_cache ();
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  AsyncWait wait = { 0 };
  g_autofree char *source = fetch_in_background (server->source_path, NULL, &wait, &error);
  g_autofree char *text = NULL;

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (source, &text, NULL, NULL));
  g_assert_cmpstr (text, ==, server->source_text);

  /* Cancelled before its thread starts: the transfer is not begun. (A
   * cancel while it runs is the progress function's, as in
   * /debuginfod/cancel; here the small file would often be in before the
   * progress reaches this thread.) */
  g_cancellable_cancel (cancellable);
  wait = (AsyncWait) { cancellable, 0, NULL };
  g_assert_null (fetch_in_background (NULL, cancellable, &wait, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  assert_not_in_cache (cache);
}

static void
test_disabled (void)
{
  g_autoptr (GError) error = NULL;

  g_unsetenv ("DEBUGINFOD_URLS");
  g_assert_false (sp_debuginfod_is_enabled ());
  g_assert_null (sp_debuginfod_find_debuginfo (server->build_id, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED);
  g_assert_null (sp_debuginfod_find_cached_debuginfo (server->build_id));
}

/* ---- The window's way: list, fetch in the background, resolve again --- */

static void
result_free (SpAnalysisResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->missing_debug_info, g_array_unref);
  g_clear_pointer (&result->call_tree, sp_call_tree_free);
  g_clear_pointer (&result->profile, sp_profile_unref);
  g_free (result);
}

static void
on_result (SpAnalysis *analysis,
           SpAnalysisResult *result,
           gpointer user_data)
{
  SpAnalysisResult **last = user_data;

  /* The bottom-up tree that follows an opened file's first result. */
  if (result->call_tree == NULL)
    return;
  g_clear_pointer (last, result_free);
  *last = g_new0 (SpAnalysisResult, 1);
  (*last)->missing_debug_info = g_steal_pointer (&result->missing_debug_info);
  (*last)->call_tree = g_steal_pointer (&result->call_tree);
  (*last)->profile = sp_profile_ref (result->profile);
}

static SpAnalysisResult *
next_result (SpAnalysis *analysis,
             SpAnalysisResult **last)
{
  while (*last == NULL || sp_analysis_is_busy (analysis))
    g_main_context_iteration (NULL, TRUE);
  return *last;
}

static gboolean
tree_has (const SpAnalysisResult *result,
          const char *name)
{
  for (guint i = 0; i < result->call_tree->n_nodes; i++)
    {
      const SpCallTreeNode *node = &result->call_tree->nodes[i];

      if (node->function != SP_CALL_TREE_NONE && node->total > 0
          && g_str_equal (sp_profile_get_function (result->profile, node->function)->name, name))
        return TRUE;
    }
  return FALSE;
}

static void
on_queue_progress (SpDebuginfodQueue *queue,
                   const char *module,
                   guint64 received,
                   guint64 total,
                   gpointer user_data)
{
  guint *n_progress = user_data;

  /* Other modules of the recording may be missing theirs too. */
  if (g_str_equal (module, server->program))
    (*n_progress)++;
}

static void
on_queue_finished (SpDebuginfodQueue *queue,
                   guint n_fetched,
                   gpointer user_data)
{
  *(guint *) user_data = n_fetched;
}

static void
test_analysis_reload (void)
{
  g_autofree char *cache = NULL;
  g_autoptr (SpAnalysis) analysis = sp_analysis_new ();
  SpAnalysisResult *last = NULL;
  g_autoptr (SpDebuginfodQueue) queue = sp_debuginfod_queue_new ();
  const SpMissingDebugInfo *missing;
  guint n_fetched = G_MAXUINT;
  guint n_progress = 0;

  if (!sp_test_case_needs_perf ())
    return;
  record_program ();
  cache = use_server_with_new_cache ();
  g_signal_connect (analysis, "result", G_CALLBACK (on_result), &last);
  sp_analysis_open (analysis, recording->spool);
  next_result (analysis, &last);
  g_assert_false (tree_has (last, "debuginfod_spin_inner"));
  /* The worker fetched nothing: it listed the module. */
  assert_not_in_cache (cache);
  missing = NULL;
  for (guint i = 0; i < last->missing_debug_info->len; i++)
    if (g_str_equal (g_array_index (last->missing_debug_info, SpMissingDebugInfo, i).module, server->program))
      missing = &g_array_index (last->missing_debug_info, SpMissingDebugInfo, i);
  g_assert_nonnull (missing);
  g_assert_cmpstr (missing->build_id, ==, server->build_id);

  /* What the window does: the queue fetches, then the analysis resolves
   * again. */
  g_signal_connect (queue, "progress", G_CALLBACK (on_queue_progress), &n_progress);
  g_signal_connect (queue, "finished", G_CALLBACK (on_queue_finished), &n_fetched);
  sp_debuginfod_queue_add (queue, last->missing_debug_info);
  g_assert_cmpstr (sp_debuginfod_queue_get_current (queue), !=, NULL);
  while (n_fetched == G_MAXUINT)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (n_fetched, >=, 1);
  g_assert_cmpuint (n_progress, >=, 1);
  g_assert_null (sp_debuginfod_queue_get_current (queue));
  g_clear_pointer (&last, result_free);
  sp_analysis_reload_symbols (analysis);
  next_result (analysis, &last);
  g_assert_true (tree_has (last, "debuginfod_spin_inner"));
  g_assert_true (tree_has (last, "debuginfod_spin_outer"));
  for (guint i = 0; i < last->missing_debug_info->len; i++)
    g_assert_cmpstr (g_array_index (last->missing_debug_info, SpMissingDebugInfo, i).module, !=, server->program);
  result_free (last);
}

int
main (int argc,
      char **argv)
{
  g_autofree char *reason = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!sp_test_debuginfod_available (&reason))
    {
      g_print ("1..0 # SKIP %s\n", reason);
      return 0;
    }
  server = sp_test_debuginfod_start ();
  g_test_add_func ("/debuginfod/report/names", test_report_names);
  g_test_add_func ("/debuginfod/report/annotate", test_report_annotate);
  g_test_add_func ("/debuginfod/report/annotate-missing-source", test_report_annotate_missing_source);
  g_test_add_func ("/debuginfod/source", test_source);
  g_test_add_func ("/debuginfod/debuginfo", test_debuginfo);
  g_test_add_func ("/debuginfod/cancel", test_cancel);
  g_test_add_func ("/debuginfod/async", test_async);
  g_test_add_func ("/debuginfod/disabled", test_disabled);
  g_test_add_func ("/debuginfod/analysis/reload", test_analysis_reload);
  status = g_test_run ();
  g_clear_pointer (&recording, sp_test_recording_free);
  sp_test_debuginfod_stop (server);
  return status;
}
