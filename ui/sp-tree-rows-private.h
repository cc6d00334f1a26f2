/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-tree-rows-private.h: a call tree view's rows brought up to date with
 * a new tree of the same profile, in place.
 *
 * Swapping in a new GtkTreeListModel made GTK 4.8's column view destroy
 * and rebuild every row widget (~150 ms on the main thread per new tree).
 * Updated in place instead, each row whose function is still there under
 * the same function path keeps its SpTreeItem (moved to the new node),
 * its GtkTreeListRow, its expanded state and so its widgets: GTK reuses a
 * row's widget when the same row comes back in an items-changed. Only the
 * rows of functions gone or new are removed or added. */
#pragma once

#include <gtk/gtk.h>

#include "sp-tree-item.h"

G_BEGIN_DECLS

/* model: a tree list model of SpTreeItems (sp_tree_item_create_children's
 * GListStores) over a tree of source's profile. Moves its items to
 * source's tree, removes the rows of functions the tree no longer has
 * under that path, adds those it has newly. open (node indexes of source's
 * tree, from the top level down) is NULL to leave the expanded rows
 * expanded; else only rows along it stay expanded, the others close. The
 * caller has the rows re-sorted: the totals the sort model keyed them by
 * have changed. */
void _sp_tree_rows_update (GtkTreeListModel *model,
                           SpTreeSource *source,
                           const GArray *open);

G_END_DECLS
