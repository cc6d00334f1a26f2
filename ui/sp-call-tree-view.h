/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-call-tree-view.h: the call tree (top-down or bottom-up) as a sortable
 * tree table: Function, Module, Self, Total.
 *
 * A GtkScrollable: put it straight into a GtkScrolledWindow, so only the
 * visible rows get widgets. */
#pragma once

#include <gtk/gtk.h>

#include "sp-call-tree.h"
#include "sp-profile.h"

G_BEGIN_DECLS

#define SP_TYPE_CALL_TREE_VIEW (sp_call_tree_view_get_type ())

G_DECLARE_FINAL_TYPE (SpCallTreeView, sp_call_tree_view, SP, CALL_TREE_VIEW, GtkWidget)

SpCallTreeView *sp_call_tree_view_new (void);

/* The view holds a reference to profile while it shows its tree; tree is
 * taken (freed with sp_call_tree_free). NULL clears the view. Expands the
 * hottest path and selects its end; once the user has expanded, collapsed
 * or selected rows, a new tree of the same profile (a live update, a
 * filter) gets the same rows expanded and selected instead, found by
 * function path, at the same scroll position; rows open before a tree
 * that lacked them (a transform) open again when a later tree has them
 * (the transform cleared). While the view is not
 * mapped, the tree waits: only the last one given is built, when the view
 * is shown or its rows, selection or search are asked for. */
void sp_call_tree_view_set_tree (SpCallTreeView *self,
                                 SpProfile *profile,
                                 SpCallTree *tree);

/* Selects, reveals (expanding its ancestors) and scrolls to a node whose
 * function name contains text (ignoring case): the heaviest (by total)
 * for a new text; for the text of the last search, the next heaviest
 * after the selected node (wrapping around). FALSE when none matches. */
gboolean sp_call_tree_view_search_next (SpCallTreeView *self,
                                        const char *text);

/* A right-click on a row selects it and opens menu there (NULL: no
 * menu); its actions are looked up from the view's ancestors. */
void sp_call_tree_view_set_context_menu (SpCallTreeView *self,
                                         GMenuModel *menu);

/* The selected node's index in the tree, or SP_CALL_TREE_NONE. */
guint32 sp_call_tree_view_get_selected_node (SpCallTreeView *self);

/* The rows as shown: the sorted, flattened tree (GtkTreeListRow items,
 * each holding an SpTreeItem), as a reader of the view sees them. */
GListModel *sp_call_tree_view_get_model (SpCallTreeView *self);

/* The rows the column view has now: unlike sp_call_tree_view_get_model,
 * a first tree's rows still coming a few a frame are not handed over at
 * once (nor a tree given while hidden shown), so a probe of what is on
 * screen changes nothing. */
GListModel *sp_call_tree_view_get_shown_rows (SpCallTreeView *self);

/* The functions from the root to the selected row, the selected function
 * last (newly allocated), or NULL when nothing is selected. */
GArray *sp_call_tree_view_get_selected_path (SpCallTreeView *self);
/* Whether a first tree's rows are still on their way to the column view,
 * a few dozen a frame (its accessors above hand them all over at once). */
gboolean sp_call_tree_view_is_revealing (SpCallTreeView *self);

G_END_DECLS
