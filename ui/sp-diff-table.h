/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-diff-table.h: a comparison (data/sp-diff-tree.h) as a sortable table:
 * either its functions (Function, Module, self before, after and change,
 * total before, after and change; by the size of the self change) or its
 * call tree (Function with expanders, total before, after and change,
 * self before, after and change; children by the total after).
 *
 * Rows on one side only say so in their Function cell. A GtkScrollable:
 * put it straight into a GtkScrolledWindow. */
#pragma once

#include <gtk/gtk.h>

#include "sp-diff-tree.h"

G_BEGIN_DECLS

typedef enum {
  SP_DIFF_TABLE_FUNCTIONS,
  SP_DIFF_TABLE_CALL_TREE,
} SpDiffTableKind;

#define SP_TYPE_DIFF_TABLE (sp_diff_table_get_type ())

G_DECLARE_FINAL_TYPE (SpDiffTable, sp_diff_table, SP, DIFF_TABLE, GtkWidget)

SpDiffTable *sp_diff_table_new (SpDiffTableKind kind);

/* Shows tree (the table takes a reference; NULL clears). A call tree
 * keeps its open rows, found by name path, when the next tree of a live
 * comparison comes. */
void sp_diff_table_set_tree (SpDiffTable *self,
                             SpDiffTree *tree);

/* The function list shows only functions whose name contains text
 * (ignoring case); NULL or "" shows all. The call tree ignores it. */
void sp_diff_table_set_filter (SpDiffTable *self,
                               const char *text);

/* Selects, reveals and scrolls to the next row (after the selected one,
 * wrapping) whose function name contains text, ignoring case. FALSE when
 * none does. */
gboolean sp_diff_table_search_next (SpDiffTable *self,
                                    const char *text);

/* A right-click on a row selects it and opens menu there; its actions are
 * looked up from the table's ancestors. */
void sp_diff_table_set_context_menu (SpDiffTable *self,
                                     GMenuModel *menu);

/* The selected row's function in A and in B (SP_DIFF_NONE where that side
 * lacks it); FALSE when nothing is selected. */
gboolean sp_diff_table_get_selected (SpDiffTable *self,
                                     guint32 *function_a,
                                     guint32 *function_b);

/* The rows as shown, top to bottom: how many, and one's function name and
 * what its columns say (title as in the header: "Self Before",
 * "Total Change"…;
 * newly allocated, NULL for no such column). For tests and readers. */
guint sp_diff_table_get_n_rows (SpDiffTable *self);
const char *sp_diff_table_get_row_name (SpDiffTable *self,
                                        guint position);
char *sp_diff_table_get_row_text (SpDiffTable *self,
                                  guint position,
                                  const char *title);

/* Sorts by the column titled title, descending or not. */
void sp_diff_table_sort_by (SpDiffTable *self,
                            const char *title,
                            gboolean descending);

/* "+12.3 pp", "−4.0 pp", "0.0 pp": a change in percentage points. */
char *sp_diff_format_change (double delta);

G_END_DECLS
