/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-tree-item.h: one call-tree node as a GObject, for list views.
 *
 * data/'s call tree is plain C (SpCallTree, nodes by index). A list view
 * needs GObject items, so each row gets an SpTreeItem made on demand: a
 * (tree, node index) pair that is an SpFunctionItem (its function, counts
 * and the properties the columns' sorters read), with a children model
 * built when the row is first expanded. Items share the tree through
 * SpTreeSource, a small reference-counted holder, so a row still on
 * screen stays valid while the view switches to another tree. */
#pragma once

#include <gio/gio.h>

#include "sp-call-tree.h"
#include "sp-function-item.h"
#include "sp-profile.h"

G_BEGIN_DECLS

/* The tree (taken) and the profile naming its functions (a reference is
 * taken): a row on screen can still name its function after the view has
 * moved to another profile. */
typedef struct _SpTreeSource SpTreeSource;

SpTreeSource *sp_tree_source_new (SpProfile *profile,
                                  SpCallTree *tree);
SpTreeSource *sp_tree_source_ref (SpTreeSource *source);
void sp_tree_source_unref (SpTreeSource *source);
const SpCallTree *sp_tree_source_get_tree (SpTreeSource *source);
SpProfile *sp_tree_source_get_profile (SpTreeSource *source);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpTreeSource, sp_tree_source_unref)

#define SP_TYPE_TREE_ITEM (sp_tree_item_get_type ())

G_DECLARE_FINAL_TYPE (SpTreeItem, sp_tree_item, SP, TREE_ITEM, SpFunctionItem)

SpTreeItem *sp_tree_item_new (SpTreeSource *source,
                              guint32 node);

/* The function, its name and counts: SpFunctionItem's getters (the
 * root, SP_CALL_TREE_NONE, is named "[all samples]"); percentages are of
 * the root's total (all samples in the tree). */

guint32 sp_tree_item_get_node (SpTreeItem *self);
guint sp_tree_item_get_n_children (SpTreeItem *self);

/* Points the item at node of another tree of the same profile, a node of
 * the same function (the same function path, as a view finds it), and
 * notifies the properties whose values change: a view updating its rows
 * in place keeps the item, so GTK keeps the row's widgets. */
void sp_tree_item_move_to (SpTreeItem *self,
                           SpTreeSource *source,
                           guint32 node);

/* A new model of the node's children (SpTreeItem, by total descending),
 * or NULL when it has none. */
GListModel *sp_tree_item_create_children (SpTreeItem *self);

G_END_DECLS
