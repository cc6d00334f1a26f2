/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-cells-private.h: how ui/'s tables show a function and its samples,
 * shared by the call tree and the caller/callee view so both read alike. */
#pragma once

#include <gtk/gtk.h>

#include "sp-filter.h"
#include "sp-profile.h"

G_BEGIN_DECLS

/* Unresolved frames dim, kernel and synthetic functions italic; label is
 * a GtkLabel or an SpNameLabel. */
void _sp_cells_style_function_label (GtkWidget *label,
                                     SpFunctionKind kind);

/* A function's tooltip: its name, then its module and where it is
 * defined, each on a line of its own when known (module may be "",
 * location NULL). */
char *_sp_cells_function_tooltip (const char *name,
                                  const char *module,
                                  const char *location);

/* Sets a tooltip's text (or Pango markup) in a label that wraps at a
 * width well inside the screen, even inside a long C++ name: GTK's own
 * tooltip label let such a name run off the screen. */
void _sp_cells_set_tooltip_markup (GtkTooltip *tooltip,
                                   const char *markup);
void _sp_cells_set_tooltip_text (GtkTooltip *tooltip,
                                 const char *text);

/* "12.5%  (1234)": the share of all samples, then the count; for a time
 * metric (value in ns) the share of all time, then the time:
 * "12.5%  (1.23 s)". */
char *_sp_cells_format_share (double percent,
                              guint64 value,
                              SpMetric metric);

/* Keeps a bound cell up to date with an item that can change under it:
 * calls update (cell, item) on each of item's notify::<property> for the
 * one or two properties given (property2 may be NULL), until
 * _sp_cells_unfollow or the next _sp_cells_follow on the cell. The cell
 * holds the item meanwhile. */
void _sp_cells_follow (GtkWidget *cell,
                       gpointer item,
                       const char *property1,
                       const char *property2,
                       void (*update) (GtkWidget *cell,
                                       gpointer item));

/* Stops what _sp_cells_follow started (nothing if it was not). */
void _sp_cells_unfollow (GtkWidget *cell);

/* A table's column view over store, sorted by its column headers (no
 * selection; unsorted, the store's order). */
GtkColumnView *_sp_cells_sorted_column_view (GListStore *store);
/* A column's sorter on item_type's property: by text, or by number. */
GtkSorter *_sp_cells_property_sorter (GType item_type,
                                      const char *property,
                                      gboolean text);
/* Adds a column titled title to column_view whose cells factory makes;
 * sortable and resizable when sorter is not NULL (taken). */
void _sp_cells_add_column (GtkColumnView *column_view,
                           const char *title,
                           GtkListItemFactory *factory,
                           GtkSorter *sorter,
                           gboolean expand);

/* Scrolls column_view (its model a selection model) to show the selected
 * row (the first of several), now or, before the view has a size, once it
 * has one. */
void _sp_cells_scroll_to_selected (GtkColumnView *column_view);
/* The same to the first row: after a sort or a new filter, the rows the
 * view showed are elsewhere, and the list starts at its top again. */
void _sp_cells_scroll_to_top (GtkColumnView *column_view);

G_END_DECLS
