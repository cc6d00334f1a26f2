/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-diff-tree: what the compare window's merge costs (bench/run-diff,
 * part 3): two recordings opened and counted as each side's analysis
 * would (profile open, top-down tree), then timed apart: the merge of the
 * two trees (sp_diff_tree_new) and B's flame graph shape, which is all the
 * window's own worker does for a comparison.
 *
 *   bench-diff-tree A.spool B.spool
 *
 * Prints "open_s trees_s merge_s shape_s nodes functions". */
#include <stdio.h>

#include "sp-diff-tree.h"

static double
now_s (void)
{
  return (double) g_get_monotonic_time () / G_USEC_PER_SEC;
}

static SpProfile *
open_or_die (const char *path)
{
  g_autoptr (GError) error = NULL;
  SpProfile *profile = sp_profile_open (path, &error);

  if (profile == NULL)
    {
      fprintf (stderr, "bench-diff-tree: %s\n", error->message);
      exit (1);
    }
  return profile;
}

int
main (int argc,
      char **argv)
{
  g_autoptr (SpProfile) a = NULL;
  g_autoptr (SpProfile) b = NULL;
  g_autoptr (SpFilter) filter = sp_filter_new ();
  g_autoptr (SpCallTree) tree_a = NULL;
  g_autoptr (SpCallTree) tree_b = NULL;
  g_autoptr (SpDiffTree) tree = NULL;
  g_autoptr (SpCallTree) shape = NULL;
  g_autofree guint32 *to_diff = NULL;
  double t0, t1, t2, t3, t4;

  if (argc != 3)
    {
      fprintf (stderr, "usage: bench-diff-tree A.spool B.spool\n");
      return 2;
    }
  t0 = now_s ();
  a = open_or_die (argv[1]);
  b = open_or_die (argv[2]);
  t1 = now_s ();
  tree_a = sp_call_tree_new (a, filter, NULL, FALSE);
  tree_b = sp_call_tree_new (b, filter, NULL, FALSE);
  t2 = now_s ();
  {
    SpDiffTreeSide side_a = { a, tree_a, 1, 0.001 };
    SpDiffTreeSide side_b = { b, tree_b, 1, 0.001 };

    tree = sp_diff_tree_new (&side_a, &side_b, SP_DIFF_NORMALIZE_SHARE, NULL);
  }
  t3 = now_s ();
  shape = sp_diff_tree_after_shape (tree, tree_b, &to_diff);
  t4 = now_s ();
  printf ("%.3f %.3f %.4f %.4f %u %u\n", t1 - t0, t2 - t1, t3 - t2, t4 - t3, tree->n_nodes, tree->functions->len);
  return 0;
}
