/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-function-cells-private.h: the columns of a table of functions:
 * Function, Module, Self, Total.
 *
 * The call tree views and the caller/callee view show the same columns of
 * the same items (SpFunctionItem; SpTreeItem in a tree), so their cells
 * and sorters are made here once. In a tree the rows are GtkTreeListRows
 * and the function's cell has an expander. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum {
  SP_FUNCTION_COLUMN_NAME,
  SP_FUNCTION_COLUMN_MODULE,
  SP_FUNCTION_COLUMN_SELF,
  SP_FUNCTION_COLUMN_TOTAL,
} SpFunctionColumn;

/* Appends column to column_view (resizable, sorted by the items'
 * property: name, module, self or total) with its title; in_tree: the
 * rows are a tree list model's. Returns the column (the view holds it). */
GtkColumnViewColumn *_sp_function_cells_add_column (GtkColumnView *column_view,
                                                    SpFunctionColumn column,
                                                    gboolean in_tree);

G_END_DECLS
