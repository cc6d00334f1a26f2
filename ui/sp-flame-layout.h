/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-flame-layout.h: where a flame graph's frames go, in plain C.
 *
 * Each node of a top-down call tree is a frame whose width is its total
 * within the zoomed node's total; children sit side by side in the row
 * after their parent's, the largest total first. The zoomed node spans
 * the whole width with its ancestors full width in the rows before it, as
 * a breadcrumb. Rows count from the root's (0); the widget
 * (sp-flame-graph.c) turns rows into pixels, either way up. The drawing
 * and the hit-testing use the same frames. GLib only. */
#pragma once

#include <glib.h>

#include "sp-call-tree.h"

G_BEGIN_DECLS

/* Frames narrower than this (and their children) are left out. */
#define SP_FLAME_MIN_FRAME_WIDTH 1.0

typedef struct {
  guint32 node;
  guint   row;    /* 0 is the root's row */
  double  x;
  double  width;
} SpFlameFrame;

/* The node's row: how many ancestors it has. */
guint sp_flame_layout_depth (const SpCallTree *tree,
                             guint32 node);

/* Replaces frames' contents (SpFlameFrame) with tree's frames zoomed into
 * zoom, for width: ancestors, the zoomed node, then its descendants
 * depth first. */
void sp_flame_layout_frames (const SpCallTree *tree,
                             guint32 zoom,
                             double width,
                             GArray *frames);

/* The frame of frames in row that holds x, or NULL. */
const SpFlameFrame *sp_flame_layout_frame_at (const GArray *frames,
                                              guint row,
                                              double x);

G_END_DECLS
