/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-flame-graph.h: a top-down call tree drawn as a flame graph. */
#pragma once

#include <gtk/gtk.h>

#include "sp-call-tree.h"
#include "sp-profile.h"

G_BEGIN_DECLS

#define SP_TYPE_FLAME_GRAPH (sp_flame_graph_get_type ())

G_DECLARE_FINAL_TYPE (SpFlameGraph, sp_flame_graph, SP, FLAME_GRAPH, GtkWidget)

SpFlameGraph *sp_flame_graph_new (void);

/* The graph holds a reference to profile while it shows tree; tree is
 * taken and freed with sp_call_tree_free. NULL clears. tree must be
 * top-down. A new tree of the same profile (a live update, a filter) stays
 * zoomed into the same function path, or the part of it the new tree has
 * ("zoom-changed" then). */
void sp_flame_graph_set_tree (SpFlameGraph *self,
                              SpProfile *profile,
                              SpCallTree *tree);

/* Root row at the top (TRUE) or at the bottom (FALSE, the default). */
void sp_flame_graph_set_icicle (SpFlameGraph *self,
                                gboolean icicle);
gboolean sp_flame_graph_get_icicle (SpFlameGraph *self);

/* Highlights frames whose function name contains text, ignoring case
 * (sp-function-search.h); NULL or "" ends the search. */
void sp_flame_graph_set_search (SpFlameGraph *self,
                                const char *text);

/* Makes node span the full width, its ancestors stacked above/below it;
 * 0 shows the whole tree. Emits "zoom-changed" when the zoom changes. */
void sp_flame_graph_zoom_to (SpFlameGraph *self,
                             guint32 node);
guint32 sp_flame_graph_get_zoom (SpFlameGraph *self);

/* The zoomed node's function (what the user chose by clicking), or
 * SP_CALL_TREE_NONE when the whole tree shows. */
guint32 sp_flame_graph_get_zoom_function (SpFlameGraph *self);

/* Zooms to a node whose function name contains text (ignoring case, as
 * the search highlights) and highlights the matches: the heaviest (by
 * total) for a new text; for the text of the last search, the next
 * heaviest after the zoomed node (wrapping around). FALSE when none
 * matches. */
gboolean sp_flame_graph_search_next (SpFlameGraph *self,
                                     const char *text);

/* A right-click on a frame picks it (without zooming) and opens menu there
 * (NULL: no menu); its actions are looked up from the graph's ancestors. */
void sp_flame_graph_set_context_menu (SpFlameGraph *self,
                                      GMenuModel *menu);

/* The function path (root first; newly allocated) of the frame last
 * clicked (zoomed into) or right-clicked, or NULL. */
GArray *sp_flame_graph_get_selected_path (SpFlameGraph *self);

/* The node drawn at (x, y) in widget coordinates, or SP_CALL_TREE_NONE. */
guint32 sp_flame_graph_node_at (SpFlameGraph *self,
                                double x,
                                double y);

/* What the tooltip says of node (Pango markup, a line each): function,
 * module, where the function is defined, self and total; newly allocated. */
char *sp_flame_graph_describe (SpFlameGraph *self,
                               guint32 node);

/* Who paints the frames instead of the graph's own colours by module
 * (a comparison, app/sp-compare-flame.c): colour gives node's fill and
 * whether to mark it with an outline; tooltip its markup (newly
 * allocated), or NULL for the graph's own. The search still highlights
 * over them. NULL functions restore the graph's own. */
typedef void (*SpFlameColourFunc) (guint32 node,
                                   GdkRGBA *fill,
                                   gboolean *marked,
                                   gpointer user_data);
typedef char *(*SpFlameTooltipFunc) (guint32 node,
                                     gpointer user_data);

void sp_flame_graph_set_painter (SpFlameGraph *self,
                                 SpFlameColourFunc colour,
                                 SpFlameTooltipFunc tooltip,
                                 gpointer user_data);

G_END_DECLS
