/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-tree-expander.h: a tree row's indent and disclosure triangle, one
 * widget at any depth.
 *
 * What GtkTreeExpander does for a GtkTreeListRow (indent by depth, a
 * triangle that opens and closes the row on a click, the same keys and
 * listitem.* actions), but GTK 4.8's expander makes a widget per level of
 * indent: a call tree's rows are 20 to 60 levels deep, and the column
 * view makes up to 200 rows at once, so a first tree or a live update
 * paid for thousands of widgets. This one measures the indent and draws
 * the triangle itself, with the theme's pan-end/pan-down icons. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SP_TYPE_TREE_EXPANDER (sp_tree_expander_get_type ())
G_DECLARE_FINAL_TYPE (SpTreeExpander, sp_tree_expander, SP, TREE_EXPANDER, GtkWidget)

GtkWidget *sp_tree_expander_new (void);

/* The widget shown after the indent and triangle (owned by the expander). */
void       sp_tree_expander_set_child (SpTreeExpander *self,
                                       GtkWidget *child);
GtkWidget *sp_tree_expander_get_child (SpTreeExpander *self);

/* The row whose depth, expandability and state it shows and changes
 * (NULL: none). Setting the row it already has does nothing. */
void            sp_tree_expander_set_list_row (SpTreeExpander *self,
                                               GtkTreeListRow *row);
GtkTreeListRow *sp_tree_expander_get_list_row (SpTreeExpander *self);

/* Where the child starts, in the expander's coordinates: the indent
 * plus the triangle's room. */
int sp_tree_expander_get_child_offset (SpTreeExpander *self);

G_END_DECLS
