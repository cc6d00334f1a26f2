/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-spool-summary.c: the summary's per-sample figures (cut stacks,
 * the deepest stack, stacks that reach their thread's root), counted per
 * distinct stack, are what each sample says. */
#include <glib.h>
#include <glib/gstdio.h>

#include "profile-builder.h"
#include "sp-spool-summary.h"
#include "sp-spool-writer.h"
#include "sp-stack-counts.h"

/* Stacks cut by the unwinder end in the truncated marker; random depths
 * and shares, the cut ones counted here as they are written. */
static void
test_truncated_and_depth (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-summary-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "cut.spool", NULL);
  g_autoptr (GRand) rand = g_rand_new_with_seed (18);
  SpSpoolError err;
  SpSpoolWriter *writer = sp_spool_writer_create (path, 0, 1000, &err);
  g_autoptr (SpProfile) profile = NULL;
  SpSpoolSummary summary;
  guint64 cut = 0;
  guint max_depth = 0;

  g_assert_nonnull (writer);
  for (guint i = 0; i < 20000; i++)
    {
      SpFrame frames[42];
      guint depth = (guint) g_rand_int_range (rand, 1, 40);
      gboolean truncated = g_rand_int_range (rand, 0, 5) == 0;

      /* Leaf first: a few shapes, so stacks repeat and share prefixes. */
      for (guint k = 0; k < depth; k++)
        frames[k] = (SpFrame) { 0x1000 + 16 * ((depth - k) % 7) + (k == 0 ? i % 3 : 0), 0, SP_SPOOL_NO_ID,
                                SP_FRAME_USER };
      if (truncated)
        frames[depth] = sp_frame_truncated_marker ();
      g_assert_true (sp_spool_writer_write_sample (writer, 1000000 + i * 1000, 1 + (gint32) (i % 2), 1 + i % 4, frames,
                                                   depth + truncated, NULL, &err));
      cut += truncated;
      max_depth = MAX (max_depth, depth + truncated);
    }
  g_assert_true (sp_spool_writer_close (writer, &err));
  profile = sp_profile_open (path, &error);
  g_assert_no_error (error);
  sp_spool_summary_from_profile (profile, &summary);
  g_assert_cmpuint (summary.n_samples, ==, 20000);
  g_assert_cmpuint (summary.n_truncated_samples, ==, cut);
  g_assert_cmpuint (summary.max_depth, ==, max_depth);
  /* Every user stack here is cut or starts nowhere known: none reaches a root. */
  g_assert_cmpuint (summary.roots.n_stacks, ==, 20000);
  g_assert_cmpuint (summary.roots.n_rooted, ==, 0);
  sp_spool_summary_clear (&summary);
  g_unlink (path);
  g_rmdir (dir);
}

/* Rooted (the program's entry outermost), broken (a function that is no
 * thread's start, a frame in no module) and kernel-only stacks (not
 * counted), over two processes. */
static void
test_roots (void)
{
  const char *target = g_getenv ("SP_SYMBOLIZER_TARGET");
  g_autofree char *rooted = g_strdup_printf ("@1 %s!_start;%s!main 7", target, target);
  g_autofree char *rooted_deeper = g_strdup_printf ("@2 %s!_start;%s!main;%s!main 2", target, target, target);
  g_autofree char *broken = g_strdup_printf ("@2 %s!main;%s!main 5", target, target);
  g_autofree char *moduleless = g_strdup_printf ("@1 ?0x4321;%s!main 3", target);
  const char *lines[] = { rooted, rooted_deeper, broken, moduleless, "@2 schedule;io_wait 4", NULL };
  g_autoptr (SpProfile) profile = NULL;
  g_autoptr (SpStackCounts) counts = NULL;
  SpSpoolSummary summary;

  g_assert_nonnull (target);
  profile = profile_from_text (lines);
  counts = sp_stack_counts_new (profile, NULL);
  sp_spool_summary_from_counts (profile, counts, &summary);
  g_assert_cmpuint (summary.n_samples, ==, 21);
  g_assert_cmpuint (summary.roots.n_stacks, ==, 17);
  g_assert_cmpuint (summary.roots.n_rooted, ==, 9);
  g_assert_cmpuint (summary.max_depth, ==, 3);
  sp_spool_summary_clear (&summary);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/summary/truncated-and-depth", test_truncated_and_depth);
  g_test_add_func ("/data/summary/roots", test_roots);
  return g_test_run ();
}
