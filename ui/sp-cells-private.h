/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-cells-private.h: how ui/'s tables show a function and its samples,
 * shared by the call tree and the caller/callee view so both read alike. */
#pragma once

#include <gtk/gtk.h>

#include "sp-profile.h"

G_BEGIN_DECLS

/* Unresolved frames dim, kernel and synthetic functions italic. */
void _sp_cells_style_function_label (GtkLabel *label,
                                     SpFunctionKind kind);

/* "12.5%  (1234)": the share of all samples, then the count. */
char *_sp_cells_format_share (double percent,
                              guint64 samples);

/* Scrolls column_view to show the row at position. */
void _sp_cells_scroll_to (GtkColumnView *column_view,
                          guint position);

G_END_DECLS
