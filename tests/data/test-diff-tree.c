/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-diff-tree.c: two call trees merged path by path
 * (data/sp-diff-tree.c), on profiles written from text. User frames in
 * real ELF files ("PATH!function") check that modules match by file name
 * (a moved library) or, with the module map, by build-id (a renamed one). */
#include <glib/gstdio.h>
#include <math.h>

#include "profile-builder.h"
#include "diff-files.h"
#include "sp-diff-tree.h"

/* One side from text: its profile and its tree with the default filter;
 * side_clear frees both. */
static SpDiffTreeSide
side_from_text (const char *const *lines,
                double span_s,
                double count_s)
{
  g_autoptr (SpFilter) filter = sp_filter_new ();
  SpDiffTreeSide side = { profile_from_text (lines), NULL, span_s, count_s };

  side.tree = sp_call_tree_new (side.profile, filter, NULL, FALSE);
  return side;
}

static void
side_clear (SpDiffTreeSide *side)
{
  sp_call_tree_free ((SpCallTree *) side->tree);
  sp_profile_unref (side->profile);
}

/* Both trees with the default filter, merged. */
static SpDiffTree *
merge (const char *const *a_lines,
       const char *const *b_lines,
       gboolean map_modules)
{
  SpDiffTreeSide side_a = side_from_text (a_lines, 1, 0.001);
  SpDiffTreeSide side_b = side_from_text (b_lines, 1, 0.001);
  g_autoptr (GHashTable) map = map_modules ? sp_diff_module_map (side_a.profile, side_b.profile) : NULL;
  SpDiffTree *tree = sp_diff_tree_new (&side_a, &side_b, SP_DIFF_NORMALIZE_SHARE, map);

  side_clear (&side_a);
  side_clear (&side_b);
  return tree;
}

/* The node at path ("main;a;x") from the root, or fails. */
static const SpDiffTreeNode *
node_at (const SpDiffTree *tree,
         const char *path)
{
  g_auto (GStrv) names = g_strsplit (path, ";", -1);
  guint32 node = 0;

  for (guint i = 0; names[i] != NULL; i++)
    {
      guint32 child = tree->nodes[node].first_child;

      while (child != SP_DIFF_TREE_NONE && !g_str_equal (tree->nodes[child].name, names[i]))
        child = tree->nodes[child].next_sibling;
      g_assert_true (child != SP_DIFF_TREE_NONE);
      g_assert_cmpuint (tree->nodes[child].parent, ==, node);
      node = child;
    }
  return &tree->nodes[node];
}

static const SpDiffRow *
row_of (const SpDiffTree *tree,
        const char *name)
{
  for (guint i = 0; i < tree->functions->len; i++)
    if (g_str_equal (g_array_index (tree->functions, SpDiffRow, i).name, name))
      return &g_array_index (tree->functions, SpDiffRow, i);
  g_assert_not_reached ();
}

/* Paths on both sides get both counts; one side's only get zeros on the
 * other; shares are of each side's own total. */
static void
test_merge (void)
{
  const char *const a[] = { "main;parse;lex 30", "main;emit 10", NULL };
  const char *const b[] = { "main;parse;lex 10", "main;emit 20", "main;grow 10", NULL };
  g_autoptr (SpDiffTree) tree = merge (a, b, FALSE);
  const SpDiffTreeNode *lex = node_at (tree, "main;parse;lex");
  const SpDiffTreeNode *grow = node_at (tree, "main;grow");
  const SpDiffTreeNode *main_node = node_at (tree, "main");

  g_assert_cmpuint (tree->total_a, ==, 40);
  g_assert_cmpuint (tree->total_b, ==, 40);
  g_assert_cmpuint (lex->total_a, ==, 30);
  g_assert_cmpuint (lex->total_b, ==, 10);
  g_assert_cmpfloat_with_epsilon (lex->total_value_a, 75.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (lex->total_value_b, 25.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (lex->delta, -50.0, 1e-9);
  g_assert_cmpuint (lex->function_a, !=, SP_DIFF_NONE);
  g_assert_cmpuint (lex->function_b, !=, SP_DIFF_NONE);
  /* Only in B. */
  g_assert_cmpuint (grow->function_a, ==, SP_DIFF_NONE);
  g_assert_cmpuint (grow->total_a, ==, 0);
  g_assert_cmpfloat_with_epsilon (grow->delta, 25.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (main_node->delta, 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (tree->max_change, 50.0, 1e-9);
  /* Children by B's total: emit (20), parse (10), grow (10) after parse
   * (A had parse bigger). */
  g_assert_cmpstr (tree->nodes[main_node->first_child].name, ==, "emit");
  g_assert_cmpstr (tree->nodes[tree->nodes[main_node->first_child].next_sibling].name, ==, "parse");
  g_assert_cmpuint (main_node->n_children, ==, 3);
  /* Function rows: by the size of the self change; lex and emit both 50
   * points, grow 25. */
  g_assert_cmpfloat_with_epsilon (fabs (g_array_index (tree->functions, SpDiffRow, 0).delta), 50.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (row_of (tree, "grow")->self_value_b, 25.0, 1e-9);
  g_assert_cmpuint (row_of (tree, "grow")->function_a, ==, SP_DIFF_NONE);
  /* Each node names its function's row. */
  g_assert_cmpstr (g_array_index (tree->functions, SpDiffRow, lex->row).name, ==, "lex");
}

/* A recursive function's total counts each sample once, however deep;
 * its self is all its nodes'. Paths of different depths stay apart. */
static void
test_recursion (void)
{
  const char *const a[] = { "main;walk;walk;walk 10", "main;walk 10", NULL };
  const char *const b[] = { "main;walk;walk 30", "main;idle 10", NULL };
  g_autoptr (SpDiffTree) tree = merge (a, b, FALSE);
  const SpDiffRow *walk = row_of (tree, "walk");

  g_assert_cmpuint (walk->total_a, ==, 20);
  g_assert_cmpuint (walk->self_a, ==, 20);
  g_assert_cmpuint (walk->total_b, ==, 30);
  g_assert_cmpfloat_with_epsilon (walk->total_value_a, 100.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (walk->total_value_b, 75.0, 1e-9);
  g_assert_cmpuint (node_at (tree, "main;walk;walk;walk")->total_b, ==, 0);
  g_assert_cmpuint (node_at (tree, "main;walk;walk")->total_a, ==, 10);
  g_assert_cmpuint (node_at (tree, "main;walk;walk")->total_b, ==, 30);
}

/* The flame graph's tree: B's nodes only, B's counts, mapped back. */
static void
test_after_shape (void)
{
  const char *const a[] = { "main;parse;lex 30", "main;gone 10", NULL };
  const char *const b[] = { "main;parse;lex 10", "main;grow 10", NULL };
  SpDiffTreeSide side_a = side_from_text (a, 1, 0.001);
  SpDiffTreeSide side_b = side_from_text (b, 1, 0.001);
  SpProfile *pb = side_b.profile;
  g_autoptr (SpDiffTree) tree = sp_diff_tree_new (&side_a, &side_b, SP_DIFF_NORMALIZE_SHARE, NULL);
  g_autofree guint32 *to_diff = NULL;
  g_autoptr (SpCallTree) shape = sp_diff_tree_after_shape (tree, side_b.tree, &to_diff);

  /* root, main, parse, lex, grow: not "gone". */
  g_assert_cmpuint (shape->n_nodes, ==, 5);
  g_assert_cmpuint (shape->nodes[0].total, ==, 20);
  for (guint i = 1; i < shape->n_nodes; i++)
    {
      const SpDiffTreeNode *d = &tree->nodes[to_diff[i]];

      g_assert_cmpstr (sp_profile_get_function (pb, shape->nodes[i].function)->name, ==, d->name);
      g_assert_cmpuint (shape->nodes[i].total, ==, d->total_b);
      g_assert_cmpstr (d->name, !=, "gone");
    }
  /* Linked for the flame layout: main under the root, parse and grow
   * under main (both 10). */
  g_assert_cmpuint (shape->nodes[0].n_children, ==, 1);
  g_assert_cmpuint (shape->nodes[shape->nodes[0].first_child].n_children, ==, 2);
  side_clear (&side_a);
  side_clear (&side_b);
}

/* A library at another path matches by file name; one renamed with the
 * same build-id only through the module map. */
static void
test_modules (void)
{
  g_autofree char *dir = diff_test_dir ();
  g_autofree char *a_lib = diff_test_copy (dir, "a", "libtarget.so.1", "SP_SYMBOLIZER_TARGET");
  g_autofree char *b_lib = diff_test_copy (dir, "b/lib", "libtarget-renamed.so.2", "SP_SYMBOLIZER_TARGET");
  g_autofree char *a1 = g_strdup_printf ("main;%s!sp_target_caller;%s!sp_target_leaf 30", a_lib, a_lib);
  g_autofree char *b1 = g_strdup_printf ("main;%s!sp_target_caller;%s!sp_target_leaf 10", b_lib, b_lib);
  const char *const a[] = { a1, "main;other 10", NULL };
  const char *const b[] = { b1, "main;other 30", NULL };
  g_autoptr (SpDiffTree) apart = merge (a, b, FALSE);
  g_autoptr (SpDiffTree) matched = merge (a, b, TRUE);
  const SpDiffTreeNode *leaf = node_at (matched, "main;sp_target_caller;sp_target_leaf");

  /* Without the map: two callers under main, one per module. */
  g_assert_cmpuint (node_at (apart, "main")->n_children, ==, 3);
  g_assert_cmpuint (node_at (matched, "main")->n_children, ==, 2);
  g_assert_cmpstr (leaf->module, ==, "libtarget.so.1");
  g_assert_cmpfloat_with_epsilon (leaf->total_value_a, 75.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (leaf->total_value_b, 25.0, 1e-9);
}

/* Time normalization: each count is worth count_s of the side's span. */
static void
test_time (void)
{
  const char *const a[] = { "main;work 10", NULL };
  const char *const b[] = { "main;work 30", NULL };
  /* 10 ms samples: A 0.1 s of work in 1 s, B 0.3 s in 2 s. */
  SpDiffTreeSide side_a = side_from_text (a, 1.0, 0.01);
  SpDiffTreeSide side_b = side_from_text (b, 2.0, 0.01);
  g_autoptr (SpDiffTree) tree = sp_diff_tree_new (&side_a, &side_b, SP_DIFF_NORMALIZE_TIME, NULL);

  side_clear (&side_a);
  side_clear (&side_b);
  g_assert_cmpfloat_with_epsilon (node_at (tree, "main;work")->total_value_a, 10.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (node_at (tree, "main;work")->total_value_b, 15.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (row_of (tree, "work")->delta, 5.0, 1e-9);
}

static void
built (GObject *source,
       GAsyncResult *result,
       gpointer user_data)
{
  SpDiffTree **tree = user_data;

  *tree = sp_diff_tree_build_finish (result, NULL);
}

/* On a worker: the trees are taken, the profiles kept until it ends. */
static void
test_async (void)
{
  const char *const a[] = { "main;parse 10", NULL };
  const char *const b[] = { "main;parse 10", "main;grow 10", NULL };
  SpDiffTreeSide side_a = side_from_text (a, 1, 0.001);
  SpDiffTreeSide side_b = side_from_text (b, 1, 0.001);
  g_autoptr (SpDiffTree) tree = NULL;

  /* The job takes the trees and its own references to the profiles. */
  sp_diff_tree_build_async (&side_a, &side_b, SP_DIFF_NORMALIZE_SHARE, TRUE, NULL, built, &tree);
  sp_profile_unref (side_a.profile);
  sp_profile_unref (side_b.profile);
  while (tree == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpfloat_with_epsilon (node_at (tree, "main;parse")->delta, -50.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (node_at (tree, "main;grow")->total_value_b, 50.0, 1e-9);
  /* And B's shape for the flame graph: root, main, parse, grow. */
  g_assert_nonnull (tree->after);
  g_assert_cmpuint (tree->after->n_nodes, ==, 4);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/diff-tree/merge", test_merge);
  g_test_add_func ("/diff-tree/recursion", test_recursion);
  g_test_add_func ("/diff-tree/after-shape", test_after_shape);
  g_test_add_func ("/diff-tree/modules", test_modules);
  g_test_add_func ("/diff-tree/time", test_time);
  g_test_add_func ("/diff-tree/async", test_async);
  return g_test_run ();
}
