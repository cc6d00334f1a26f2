/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-heat-cell.c: a label on a heat colour (sp-heat-cell-private.h). */
#include "sp-heat-cell-private.h"

#include <math.h>

struct _SpHeatCell
{
  GtkWidget  parent_instance;

  GtkWidget *label;
  double     heat;
};

G_DEFINE_FINAL_TYPE (SpHeatCell, sp_heat_cell, GTK_TYPE_WIDGET)

/* A square root: a line with 1% of the cost is still seen beside one with
 * 60%; from yellow (cool) to red (hot), opaque enough at the top to read
 * as "here" from across the room, never hiding the text. */
void
_sp_heat_color (double heat,
                GdkRGBA *color)
{
  double h = sqrt (CLAMP (heat, 0.0, 1.0));

  color->red = 1.0;
  color->green = 0.85 - 0.65 * h;
  color->blue = 0.2 - 0.2 * h;
  color->alpha = heat > 0 ? 0.18 + 0.62 * h : 0;
}

static void
sp_heat_cell_snapshot (GtkWidget *widget,
                       GtkSnapshot *snapshot)
{
  SpHeatCell *self = SP_HEAT_CELL (widget);

  if (self->heat > 0)
    {
      GdkRGBA color;

      _sp_heat_color (self->heat, &color);
      gtk_snapshot_append_color (snapshot, &color,
                                 &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                      gtk_widget_get_height (widget)));
    }
  GTK_WIDGET_CLASS (sp_heat_cell_parent_class)->snapshot (widget, snapshot);
}

static void
sp_heat_cell_dispose (GObject *object)
{
  SpHeatCell *self = SP_HEAT_CELL (object);

  g_clear_pointer (&self->label, gtk_widget_unparent);
  G_OBJECT_CLASS (sp_heat_cell_parent_class)->dispose (object);
}

static void
sp_heat_cell_class_init (SpHeatCellClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = sp_heat_cell_dispose;
  widget_class->snapshot = sp_heat_cell_snapshot;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sp-heat-cell");
}

static void
sp_heat_cell_init (SpHeatCell *self)
{
  self->label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->label), 1.0);
  gtk_widget_set_margin_start (self->label, 4);
  gtk_widget_set_margin_end (self->label, 4);
  gtk_widget_set_parent (self->label, GTK_WIDGET (self));
}

GtkWidget *
_sp_heat_cell_new (void)
{
  return g_object_new (SP_TYPE_HEAT_CELL, NULL);
}

void
_sp_heat_cell_set (SpHeatCell *self,
                   const char *text,
                   double heat)
{
  gtk_label_set_text (GTK_LABEL (self->label), text != NULL ? text : "");
  if (heat != self->heat)
    {
      self->heat = heat;
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

double _sp_heat_cell_get_heat (SpHeatCell *self) { return self->heat; }
