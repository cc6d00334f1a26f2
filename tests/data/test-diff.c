/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-diff.c: comparing two recordings function by function
 * (data/sp-diff.c), on profiles written from text.
 *
 * User frames are "PATH!function" in real ELF files (the symbolizer test
 * targets) copied to paths of the test's own, so the matching rules meet
 * what they meet in real recordings: a library at another path, a file
 * renamed with the same build-id, another build with the same name. */
#include <math.h>

#include "diff-files.h"
#include "profile-builder.h"
#include "sp-diff.h"

static const SpDiffRow *
find_row (const SpDiff *diff,
          const char *name)
{
  const SpDiffRow *found = NULL;

  for (guint i = 0; i < diff->rows->len; i++)
    {
      const SpDiffRow *row = &g_array_index (diff->rows, SpDiffRow, i);

      if (g_str_equal (row->name, name))
        {
          g_assert_null (found);  /* one row per function */
          found = row;
        }
    }
  g_assert_nonnull (found);
  return found;
}

static SpDiff *
diff_of (const char *const *a_lines,
         const char *const *b_lines,
         SpDiffNormalize normalize)
{
  g_autoptr (SpProfile) a = profile_from_text (a_lines);
  g_autoptr (SpProfile) b = profile_from_text (b_lines);
  g_autoptr (SpFilter) filter = sp_filter_new ();

  return sp_diff_new (a, filter, b, filter, normalize);
}

/* The same library at another path (a new install prefix): matched by its
 * file name, never by where its code was. */
static void
test_moved_module (void)
{
  g_autofree char *dir = diff_test_dir ();
  g_autofree char *a_lib = diff_test_copy (dir, "a", "libtarget.so", "SP_SYMBOLIZER_TARGET");
  g_autofree char *b_lib = diff_test_copy (dir, "b/lib", "libtarget.so", "SP_SYMBOLIZER_TARGET");
  g_autofree char *a1 = g_strdup_printf ("main;%s!sp_target_caller;%s!sp_target_leaf 30", a_lib, a_lib);
  g_autofree char *a2 = g_strdup_printf ("main;%s!sp_target_outer 10", a_lib);
  g_autofree char *b1 = g_strdup_printf ("main;%s!sp_target_caller;%s!sp_target_leaf 10", b_lib, b_lib);
  g_autofree char *b2 = g_strdup_printf ("main;%s!sp_target_outer 30", b_lib);
  const char *const a_lines[] = { a1, a2, NULL };
  const char *const b_lines[] = { b1, b2, NULL };
  g_autoptr (SpDiff) diff = diff_of (a_lines, b_lines, SP_DIFF_NORMALIZE_SHARE);
  const SpDiffRow *leaf = find_row (diff, "sp_target_leaf");
  const SpDiffRow *outer = find_row (diff, "sp_target_outer");
  const SpDiffRow *caller = find_row (diff, "sp_target_caller");

  g_assert_cmpstr (leaf->module, ==, "libtarget.so");
  g_assert_cmpuint (leaf->function_a, !=, SP_DIFF_NONE);
  g_assert_cmpuint (leaf->function_b, !=, SP_DIFF_NONE);
  g_assert_cmpfloat_with_epsilon (leaf->self_value_a, 75.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (leaf->self_value_b, 25.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (leaf->delta, -50.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (outer->delta, 50.0, 1e-9);
  /* No self time on either side, total changed: it is there, at 0. */
  g_assert_cmpfloat_with_epsilon (caller->delta, 0.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (caller->total_value_a, 75.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (caller->total_value_b, 25.0, 1e-9);
  /* By the size of the change; main is in every sample of both. */
  g_assert_cmpfloat (fabs (g_array_index (diff->rows, SpDiffRow, 0).delta), ==, 50.0);
  g_assert_cmpfloat_with_epsilon (find_row (diff, "main")->total_value_b, 100.0, 1e-9);
  g_assert_cmpuint (diff->rows->len, ==, 4);
}

/* A renamed file with the same build-id (a copy; a soname bump of the same
 * build) is the same module: its functions match, shown under A's name. */
static void
test_renamed_module (void)
{
  g_autofree char *dir = diff_test_dir ();
  g_autofree char *a_lib = diff_test_copy (dir, "a", "libtarget.so.1", "SP_SYMBOLIZER_TARGET");
  g_autofree char *b_lib = diff_test_copy (dir, "b", "libtarget-renamed.so.2", "SP_SYMBOLIZER_TARGET");
  g_autofree char *a1 = g_strdup_printf ("main;%s!sp_target_leaf 10", a_lib);
  g_autofree char *b1 = g_strdup_printf ("main;%s!sp_target_leaf 10", b_lib);
  const char *const a_lines[] = { a1, NULL };
  const char *const b_lines[] = { b1, NULL };
  g_autoptr (SpDiff) diff = diff_of (a_lines, b_lines, SP_DIFF_NORMALIZE_SHARE);
  const SpDiffRow *leaf = find_row (diff, "sp_target_leaf");

  g_assert_cmpstr (leaf->module, ==, "libtarget.so.1");
  g_assert_cmpuint (leaf->function_a, !=, SP_DIFF_NONE);
  g_assert_cmpuint (leaf->function_b, !=, SP_DIFF_NONE);
  g_assert_cmpfloat_with_epsilon (leaf->delta, 0.0, 1e-9);
}

/* Another file name and another build (LLD's link of the same source):
 * not the same module, so each side's functions stand alone. */
static void
test_other_module (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *a_lib = NULL;
  g_autofree char *b_lib = NULL;
  g_autofree char *a1 = NULL;
  g_autofree char *b1 = NULL;

  if (g_getenv ("SP_SYMBOLIZER_TARGET_LLD") == NULL)
    {
      g_test_skip ("no LLD build of the symbolizer target (lld not installed)");
      return;
    }
  dir = diff_test_dir ();
  a_lib = diff_test_copy (dir, "a", "libone.so", "SP_SYMBOLIZER_TARGET");
  b_lib = diff_test_copy (dir, "b", "libtwo.so", "SP_SYMBOLIZER_TARGET_LLD");
  a1 = g_strdup_printf ("main;%s!sp_target_leaf 10", a_lib);
  b1 = g_strdup_printf ("main;%s!sp_target_leaf 10", b_lib);
  {
    const char *const a_lines[] = { a1, NULL };
    const char *const b_lines[] = { b1, NULL };
    g_autoptr (SpDiff) diff = diff_of (a_lines, b_lines, SP_DIFF_NORMALIZE_SHARE);
    guint n_leaf = 0;

    for (guint i = 0; i < diff->rows->len; i++)
      {
        const SpDiffRow *row = &g_array_index (diff->rows, SpDiffRow, i);

        if (!g_str_equal (row->name, "sp_target_leaf"))
          continue;
        n_leaf++;
        if (g_str_equal (row->module, "libone.so"))
          g_assert_true (row->function_b == SP_DIFF_NONE && row->delta == -100.0);
        else
          g_assert_true (g_str_equal (row->module, "libtwo.so") && row->function_a == SP_DIFF_NONE
                         && row->delta == 100.0);
      }
    g_assert_cmpuint (n_leaf, ==, 2);
  }
}

/* Functions on one side only, and recursion counted once per sample in
 * total; kernel functions (text symbols) match by name as user ones do. */
static void
test_one_side_and_recursion (void)
{
  const char *const a_lines[] = { "main;parse;parse;parse;lex 30", "main;old_path 10", NULL };
  const char *const b_lines[] = { "main;parse;parse;lex 10", "main;new_path 30", NULL };
  g_autoptr (SpDiff) diff = diff_of (a_lines, b_lines, SP_DIFF_NORMALIZE_SHARE);
  const SpDiffRow *parse = find_row (diff, "parse");
  const SpDiffRow *old_path = find_row (diff, "old_path");
  const SpDiffRow *new_path = find_row (diff, "new_path");

  g_assert_cmpfloat_with_epsilon (parse->total_value_a, 75.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (parse->total_value_b, 25.0, 1e-9);
  g_assert_cmpuint (old_path->function_b, ==, SP_DIFF_NONE);
  g_assert_cmpfloat_with_epsilon (old_path->delta, -25.0, 1e-9);
  g_assert_cmpuint (new_path->function_a, ==, SP_DIFF_NONE);
  g_assert_cmpfloat_with_epsilon (new_path->delta, 75.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (find_row (diff, "lex")->delta, -50.0, 1e-9);
}

/* Time normalization: a function's time per second of its recording. A
 * runs 40 samples at 1 ms over 40 ms with one function half the time; B
 * runs 40 samples spaced 2 ms (79 ms: the program ran about half the
 * time) with the same split: shares do not change, time per second about
 * halves. */
static void
test_normalize_time (void)
{
  const char *const a_lines[] = { "main;work 20", "main;other 20", NULL };
  const char *const b_lines[] = { "main;work 20 +2", "main;other 20 +2", NULL };
  g_autoptr (SpDiff) shares = diff_of (a_lines, b_lines, SP_DIFF_NORMALIZE_SHARE);
  g_autoptr (SpDiff) times = diff_of (a_lines, b_lines, SP_DIFF_NORMALIZE_TIME);
  const SpDiffRow *work = find_row (times, "work");

  g_assert_cmpfloat_with_epsilon (find_row (shares, "work")->delta, 0.0, 1e-9);
  /* From the first sample to the end of the interval the last one ends. */
  g_assert_cmpfloat_with_epsilon (times->span_s_a, 0.040, 1e-9);
  g_assert_cmpfloat_with_epsilon (times->span_s_b, 0.079, 1e-9);
  g_assert_cmpfloat_with_epsilon (work->self_value_a, 50.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (work->self_value_b, 100.0 * 0.020 / 0.079, 1e-6);
  g_assert_cmpfloat_with_epsilon (work->delta, 100.0 * 0.020 / 0.079 - 50.0, 1e-6);
}

/* Each side's own filter: a time range on B alone. */
static void
test_filters_per_side (void)
{
  const char *const a_lines[] = { "main;work 10", NULL };
  const char *const b_lines[] = { "main;work 10", "main;other 10", NULL };
  g_autoptr (SpProfile) a = profile_from_text (a_lines);
  g_autoptr (SpProfile) b = profile_from_text (b_lines);
  g_autoptr (SpFilter) filter_a = sp_filter_new ();
  g_autoptr (SpFilter) filter_b = sp_filter_new ();
  g_autoptr (SpDiff) diff = NULL;

  /* B's first 10 samples: 1000..1009 ms. */
  sp_filter_set_time_range (filter_b, 1000 * G_GUINT64_CONSTANT (1000000), 1010 * G_GUINT64_CONSTANT (1000000));
  diff = sp_diff_new (a, filter_a, b, filter_b, SP_DIFF_NORMALIZE_SHARE);
  g_assert_cmpfloat_with_epsilon (find_row (diff, "work")->delta, 0.0, 1e-9);
  g_assert_cmpuint (diff->total_b, ==, 10);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/diff/moved-module", test_moved_module);
  g_test_add_func ("/diff/renamed-module", test_renamed_module);
  g_test_add_func ("/diff/other-module", test_other_module);
  g_test_add_func ("/diff/one-side-and-recursion", test_one_side_and_recursion);
  g_test_add_func ("/diff/normalize-time", test_normalize_time);
  g_test_add_func ("/diff/filters-per-side", test_filters_per_side);
  return g_test_run ();
}
