/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-context-menu-private.h: the menu a right-click opens on ui/'s views
 * (the call tree, the caller/callee tables, the flame graph).
 *
 * A right-click first asks the view to select what is under the pointer
 * (select_at), then pops the menu up there; nothing under the pointer, no
 * menu. The menu's actions are the window's (win.*): GTK looks them up
 * from the menu's place among the view's ancestors, so the menu is made
 * once and stays the view's child until the view goes. A menu removed as
 * it closed (as the window once did) had lost every action by the time
 * GTK 4.8 looked the clicked item's up, and the item did nothing.
 *
 * While the menu is open the view's tooltips stay hidden
 * (_sp_context_menu_is_open in their query-tooltip): a row's tooltip,
 * shown where the pointer rests, covered the menu. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Selects what view shows at (x, y) (view coordinates): TRUE when there
 * was something to select. */
typedef gboolean (*SpContextSelectFunc) (GtkWidget *view,
                                         double x,
                                         double y);

/* Gives view a context menu of model's items (NULL: none). */
void _sp_context_menu_set_model (GtkWidget *view,
                                 GMenuModel *model,
                                 SpContextSelectFunc select_at);

/* Whether a context menu of widget's view (widget or an ancestor) is open. */
gboolean _sp_context_menu_is_open (GtkWidget *widget);

/* Removes the menu; the view calls it in dispose. */
void _sp_context_menu_clear (GtkWidget *view);

/* In the tables: which list item a cell's widget belongs to, so that a
 * point can be turned into a row; and the row at (x, y) in widget's
 * coordinates (widget holds the tables): its position in its column
 * view's model, or GTK_INVALID_LIST_POSITION; *column_view (may be NULL)
 * gets the column view. */
void _sp_context_menu_remember_item (GtkWidget *cell,
                                     GtkListItem *list_item);
guint _sp_context_menu_row_at (GtkWidget *widget,
                               double x,
                               double y,
                               GtkColumnView **column_view);

/* Selects in selection (the model of the column view under view) the row
 * at (x, y): what a table's SpContextSelectFunc does. FALSE when no row is
 * there. */
gboolean _sp_context_menu_select_row_at (GtkWidget *view,
                                         GtkSingleSelection *selection,
                                         double x,
                                         double y);

G_END_DECLS
