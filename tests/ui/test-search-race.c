/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-search-race.c: searching while a live recording grows.
 *
 * The analysis (data/sp-analysis.h) follows a spool the test writes, each
 * round adding samples at addresses never seen, so every update's worker
 * interns hundreds of new functions ("[unknown]+0x…"). Between results
 * the main thread searches the last call tree, as the views do
 * (ui/sp-function-search.h, below the tree's n_functions), over and over
 * while the worker is adding functions. The matches must stay exactly
 * those of the tree handed over: a search that read the profile's growing
 * table (the race issue #12 names) would find the new functions, and read
 * them while they are written. The test checks that the searches did
 * overlap a worker that grew the table. */
#include <glib.h>
#include <glib/gstdio.h>

#include "sp-analysis.h"
#include "sp-function-search.h"
#include "sp-spool-writer.h"

#define ROUNDS 6
#define NEW_PER_ROUND 3000

typedef struct {
  SpCallTree *tree;      /* the last tree handed over */
  SpProfile  *profile;
  guint       results;
  gboolean    finished;
} Seen;

static void
on_result (SpAnalysis *analysis,
           SpAnalysisResult *result,
           Seen *seen)
{
  seen->results++;
  seen->finished |= result->finished;
  if (result->call_tree == NULL)
    return;
  g_clear_pointer (&seen->tree, sp_call_tree_free);
  seen->tree = g_steal_pointer (&result->call_tree);
  if (seen->profile == NULL)
    seen->profile = sp_profile_ref (result->profile);
}

/* count samples, each at an address of its own from *next on. */
static void
write_new_addresses (SpSpoolWriter *writer,
                     guint count,
                     guint64 *next,
                     guint64 *now_ns)
{
  SpSpoolError err;

  for (guint i = 0; i < count; i++)
    {
      SpFrame frames[2] = {
        { *next, *next, SP_SPOOL_NO_ID, SP_FRAME_USER },
        { 0x400000, 0x400000, SP_SPOOL_NO_ID, SP_FRAME_USER },
      };

      *next += 16;
      g_assert_true (sp_spool_writer_write_sample (writer, *now_ns += 100000, 1, 1, frames, 2, NULL, &err));
    }
  g_assert_true (sp_spool_writer_flush (writer, &err));
}

static guint
count_matches (SpProfile *profile,
               guint n_functions,
               const char *text)
{
  g_autofree gboolean *matches = sp_function_search_match (profile, n_functions, text);
  guint count = 0;

  for (guint f = 0; f < n_functions; f++)
    count += matches[f] != FALSE;
  return count;
}

static void
wait_for_tree (Seen *seen,
               guint after)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while ((seen->results <= after || seen->tree == NULL) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (seen->tree);
}

static void
test_search_while_growing (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-race-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "live.spool", NULL);
  g_autofree char *meta = g_strconcat (path, ".meta", NULL);
  SpSpoolError err;
  SpSpoolWriter *writer = sp_spool_writer_create (path, 0, 1000, &err);
  SpAnalysis *analysis = sp_analysis_new ();
  Seen seen = { 0 };
  guint64 next = 0x10000, now_ns = 1000000000;
  guint searches = 0, while_busy = 0, while_growing = 0;

  g_assert_nonnull (writer);
  write_new_addresses (writer, NEW_PER_ROUND, &next, &now_ns);
  g_signal_connect (analysis, "result", G_CALLBACK (on_result), &seen);
  sp_analysis_follow_recording (analysis, path);
  wait_for_tree (&seen, 0);

  for (guint round = 0; round < ROUNDS; round++)
    {
      guint n = seen.tree->n_functions;
      guint expected = count_matches (seen.profile, n, "unknown");
      guint results = seen.results;

      g_assert_cmpuint (expected, >=, NEW_PER_ROUND * (round + 1));
      write_new_addresses (writer, NEW_PER_ROUND, &next, &now_ns);
      /* Until the next update arrives: search as a user typing would. */
      while (seen.results == results)
        {
          gboolean busy = sp_analysis_is_busy (analysis);

          g_assert_cmpuint (count_matches (seen.profile, n, "unknown"), ==, expected);
          searches++;
          while_busy += busy;
          while_growing += sp_profile_get_n_functions (seen.profile) > n;
          g_main_context_iteration (NULL, FALSE);
        }
      wait_for_tree (&seen, results);
    }
  g_test_message ("%u searches, %u while the worker ran, %u while the function table had grown past the tree",
                  searches, while_busy, while_growing);
  g_assert_cmpuint (while_busy, >, 0);
  g_assert_cmpuint (while_growing, >, 0);

  g_assert_true (sp_spool_writer_close (writer, &err));
  sp_analysis_recording_ended (analysis);
  while (!seen.finished)
    g_main_context_iteration (NULL, TRUE);
  g_object_unref (analysis);
  g_clear_pointer (&seen.tree, sp_call_tree_free);
  g_clear_pointer (&seen.profile, sp_profile_unref);
  g_unlink (meta);
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/search-race/search-while-growing", test_search_while_growing);
  return g_test_run ();
}
