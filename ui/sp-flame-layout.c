/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-flame-layout.c: a flame graph's frames (sp-flame-layout.h). */
#include "sp-flame-layout.h"

guint
sp_flame_layout_depth (const SpCallTree *tree,
                       guint32 node)
{
  guint depth = 0;

  for (guint32 n = node; n != 0; n = tree->nodes[n].parent)
    depth++;
  return depth;
}

static void
add_frame (GArray *frames,
           guint32 node,
           guint row,
           double x,
           double width)
{
  SpFlameFrame frame = { node, row, x, width };

  g_array_append_val (frames, frame);
}

/* Children are linked by total, largest first (sp-call-tree.h). */
static void
layout_children (const SpCallTree *tree,
                 guint32 node,
                 guint row,
                 double x,
                 double scale,
                 GArray *frames)
{
  const SpCallTreeNode *nodes = tree->nodes;

  for (guint32 child = nodes[node].first_child; child != SP_CALL_TREE_NONE; child = nodes[child].next_sibling)
    {
      double width = nodes[child].total * scale;

      /* Every later sibling is narrower still. */
      if (width < SP_FLAME_MIN_FRAME_WIDTH)
        break;
      add_frame (frames, child, row, x, width);
      layout_children (tree, child, row + 1, x, scale, frames);
      x += width;
    }
}

void
sp_flame_layout_frames (const SpCallTree *tree,
                        guint32 zoom,
                        double width,
                        GArray *frames)
{
  guint zoom_row;
  guint64 zoom_total;

  g_return_if_fail (tree != NULL && zoom < tree->n_nodes);
  g_return_if_fail (frames != NULL);

  g_array_set_size (frames, 0);
  if (width <= 0)
    return;
  zoom_row = sp_flame_layout_depth (tree, zoom);
  for (guint32 n = tree->nodes[zoom].parent; n != SP_CALL_TREE_NONE; n = tree->nodes[n].parent)
    add_frame (frames, n, sp_flame_layout_depth (tree, n), 0, width);
  add_frame (frames, zoom, zoom_row, 0, width);
  zoom_total = tree->nodes[zoom].total;
  if (zoom_total > 0)
    layout_children (tree, zoom, zoom_row + 1, 0, width / zoom_total, frames);
}

const SpFlameFrame *
sp_flame_layout_frame_at (const GArray *frames,
                          guint row,
                          double x)
{
  for (guint i = 0; i < frames->len; i++)
    {
      const SpFlameFrame *frame = &g_array_index (frames, SpFlameFrame, i);

      if (frame->row == row && x >= frame->x && x < frame->x + frame->width)
        return frame;
    }
  return NULL;
}
