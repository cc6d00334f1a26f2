/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-tables-private.h: the Source page's two tables (ui/ only):
 * the source file's lines and the function's instructions, each row with
 * its self and total cost on a heat colour (sp-heat-cell-private.h).
 *
 * The lines' selection is single (a line), the instructions' multiple
 * (every instruction of the line selected); sp-source-view.c links them. */
#pragma once

#include <gtk/gtk.h>

#include "sp-source-annotation.h"
#include "sp-source-row-private.h"

G_BEGIN_DECLS

typedef struct {
  GtkColumnView     *column_view;
  GListStore        *store;       /* SpSourceRow */
  GtkSelectionModel *selection;   /* single (lines) or multiple (instructions) */
  SpMetric           metric;      /* what the costs are, for their text */
  guint64            function_total; /* shares are of the function's cost */
  GtkColumnViewColumn *cost_columns[2]; /* Self and Total: as wide as their longest text */
  int                cost_width;  /* their width at least */
  guint              center;      /* the row to bring to the middle, while center_tick runs */
  guint              center_frames;
  guint              center_tick;
} SpSourceTable;

/* The table in a scrolled window (returned). */
GtkWidget *_sp_source_table_init_lines (SpSourceTable *table);
GtkWidget *_sp_source_table_init_instructions (SpSourceTable *table);
void _sp_source_table_clear (SpSourceTable *table);

/* Fills the tables from source (NULL empties them): every line of its
 * text, or every instruction. With same (the function and place shown
 * already: a live update, a new filter), rows that are there get the new
 * costs in place, and the table keeps its row widgets, selection and
 * scroll position. */
void _sp_source_table_set_lines (SpSourceTable *table,
                                 const SpSourceAnnotation *source,
                                 gboolean same);
void _sp_source_table_set_instructions (SpSourceTable *table,
                                        const SpSourceAnnotation *source,
                                        gboolean same);

/* Scrolls the table to show the row at position in the middle of its
 * view (a function shown anew: its hottest line, with the lines around
 * it), now or once the table has a size. */
void _sp_source_table_center (SpSourceTable *table,
                              guint position);

/* Gives the keyboard focus to the row at position, where Up and Down
 * then go on from; FALSE when its row is not laid out. */
gboolean _sp_source_table_focus_row (SpSourceTable *table,
                                     guint position);

/* The row at position (the table's store keeps it), or NULL. */
SpSourceRow *_sp_source_table_row_at (SpSourceTable *table,
                                      guint position);

/* The row of line number line in the lines' table (line - 1), or
 * GTK_INVALID_LIST_POSITION. */
guint _sp_source_table_line_position (SpSourceTable *table,
                                      guint line);

G_END_DECLS
