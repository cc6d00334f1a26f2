/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-heat-cell-private.h: a table cell whose background says how hot it
 * is: a label over a warm colour as strong as its share of the function's
 * cost (the Source page's self and total gutters; ui/ only). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SP_TYPE_HEAT_CELL (sp_heat_cell_get_type ())
G_DECLARE_FINAL_TYPE (SpHeatCell, sp_heat_cell, SP, HEAT_CELL, GtkWidget)

GtkWidget *_sp_heat_cell_new (void);

/* text (NULL: empty) over the colour of heat (0: none, 1: the hottest). */
void _sp_heat_cell_set (SpHeatCell *self,
                        const char *text,
                        double heat);
double _sp_heat_cell_get_heat (SpHeatCell *self);

/* The colour of heat (0..1]: transparent through yellow to red. */
void _sp_heat_color (double heat,
                     GdkRGBA *color);

G_END_DECLS
