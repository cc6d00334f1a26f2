/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-flame-layout.c: where the flame graph's frames go
 * (ui/sp-flame-layout.h), without GTK or a display.
 *
 * Frames are printed one a line, "name row x+width", in layout order. */
#include <glib.h>

#include "profile-builder.h"
#include "sp-call-tree.h"
#include "sp-flame-layout.h"

static const char *const lines[] = {
  "main;parse;lex 10",
  "main;parse 5",
  "main;eval 5",
  "main;tiny 1",
  NULL,
};

static char *
print_frames (SpProfile *profile,
              const SpCallTree *tree,
              const GArray *frames)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < frames->len; i++)
    {
      const SpFlameFrame *frame = &g_array_index (frames, SpFlameFrame, i);
      guint32 function = tree->nodes[frame->node].function;
      const char *name = function == SP_CALL_TREE_NONE ? "all" : sp_profile_get_function (profile, function)->name;

      g_string_append_printf (text, "%s %u %g+%g\n", name, frame->row, frame->x, frame->width);
    }
  return g_string_free (text, FALSE);
}

static guint32
node_of (const SpCallTree *tree,
         const GArray *frames,
         guint row,
         double x)
{
  const SpFlameFrame *frame = sp_flame_layout_frame_at (frames, row, x);

  return frame != NULL ? frame->node : SP_CALL_TREE_NONE;
}

/* Widths in proportion to totals, largest first; frames under a pixel
 * wide left out; a zoom stacks the ancestors full width. */
static void
test_frames (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (lines);
  g_autoptr (SpCallTree) tree = sp_call_tree_new (profile, NULL, NULL, FALSE);
  g_autoptr (GArray) frames = g_array_new (FALSE, FALSE, sizeof (SpFlameFrame));
  g_autofree char *whole = NULL;
  g_autofree char *zoomed = NULL;
  const guint *heights = sp_call_tree_ensure_heights (tree);
  g_autoptr (SpCallTree) copy = sp_call_tree_copy (tree);
  guint32 parse;

  sp_flame_layout_frames (tree, 0, 42, frames);
  whole = print_frames (profile, tree, frames);
  g_assert_cmpstr (whole, ==,
                   "all 0 0+42\n"
                   "main 1 0+42\n"
                   "parse 2 0+30\n"
                   "lex 3 0+20\n"
                   "eval 2 30+10\n"
                   "tiny 2 40+2\n");
  g_assert_cmpuint (heights[0], ==, 4);

  parse = node_of (tree, frames, 2, 29.9);
  g_assert_cmpuint (parse, !=, SP_CALL_TREE_NONE);
  g_assert_cmpuint (node_of (tree, frames, 2, 30), !=, parse);
  g_assert_cmpuint (node_of (tree, frames, 3, 25), ==, SP_CALL_TREE_NONE);
  g_assert_cmpuint (node_of (tree, frames, 4, 1), ==, SP_CALL_TREE_NONE);
  g_assert_cmpuint (sp_flame_layout_depth (tree, parse), ==, 2);
  g_assert_cmpuint (heights[parse], ==, 2);
  /* A copy has them too (the window's flame graph gets one). */
  g_assert_cmpuint (copy->heights[parse], ==, 2);
  g_assert_true (sp_call_tree_ensure_heights (tree) == heights);

  /* Narrower than SP_FLAME_MIN_FRAME_WIDTH: tiny goes. */
  sp_flame_layout_frames (tree, 0, 20, frames);
  g_assert_cmpuint (frames->len, ==, 5);

  sp_flame_layout_frames (tree, parse, 30, frames);
  zoomed = print_frames (profile, tree, frames);
  g_assert_cmpstr (zoomed, ==,
                   "main 1 0+30\n"
                   "all 0 0+30\n"
                   "parse 2 0+30\n"
                   "lex 3 0+20\n");
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/flame-layout/frames", test_frames);
  return g_test_run ();
}
