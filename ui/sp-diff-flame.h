/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-diff-flame.h: a differential flame graph: B's shape (each frame as
 * wide as its total in B), each frame coloured by how much its path's
 * total share grew (red) or shrank (blue) from A to B, frames only in B
 * marked with a dark edge; a legend above it (while it shows a
 * comparison), and a tooltip with before, after and change. An SpFlameGraph with a painter
 * (sp_flame_graph_set_painter) over an SpDiffTree (data/sp-diff-tree.h). */
#pragma once

#include <gtk/gtk.h>

#include "sp-diff-tree.h"
#include "sp-flame-graph.h"

G_BEGIN_DECLS

#define SP_TYPE_DIFF_FLAME (sp_diff_flame_get_type ())

G_DECLARE_FINAL_TYPE (SpDiffFlame, sp_diff_flame, SP, DIFF_FLAME, GtkWidget)

SpDiffFlame *sp_diff_flame_new (void);

/* Shows tree's after shape (tree->after, made by
 * sp_diff_tree_build_async), whose functions are b_profile's; the widget
 * holds references to both. NULL clears. */
void sp_diff_flame_set_tree (SpDiffFlame *self,
                             SpProfile *b_profile,
                             SpDiffTree *tree);

/* The flame graph inside (search, icicle, context menu). */
SpFlameGraph *sp_diff_flame_get_graph (SpDiffFlame *self);

/* The fill of diff tree node with changes of up to scale percentage points
 * at full strength; *marked: B has the path, A does not. */
void sp_diff_flame_colour (const SpDiffTree *tree,
                           guint32 node,
                           double scale,
                           GdkRGBA *fill,
                           gboolean *marked);

/* The change (percentage points) that gets the full colour: the largest
 * in tree, at least 2. */
double sp_diff_flame_scale (const SpDiffTree *tree);

/* The frame of the heaviest node named name, as drawn: its colour and
 * whether it is marked. FALSE when no frame is. For tests. */
gboolean sp_diff_flame_get_frame_colour (SpDiffFlame *self,
                                         const char *name,
                                         GdkRGBA *fill,
                                         gboolean *marked);

/* The name of the function drawn at (x, y) in the graph's coordinates,
 * or NULL. For tests. */
const char *sp_diff_flame_name_at (SpDiffFlame *self,
                                   double x,
                                   double y);

/* Whether the legend shows (a comparison does). For tests. */
gboolean sp_diff_flame_get_legend_shown (SpDiffFlame *self);

/* The diff tree node of the frame last clicked or right-clicked, or
 * SP_DIFF_TREE_NONE. */
guint32 sp_diff_flame_get_selected_node (SpDiffFlame *self);

G_END_DECLS
