/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-row.c: the Source page's row items (sp-source-row-private.h). */
#include "sp-source-row-private.h"

enum { PROP_0, PROP_COSTS, N_PROPS };
static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (SpSourceRow, sp_source_row, G_TYPE_OBJECT)

/* "costs" is only notified: the cells read the fields. */
static void
sp_source_row_get_property (GObject *object,
                            guint prop_id,
                            GValue *value,
                            GParamSpec *pspec)
{
  if (prop_id == PROP_COSTS)
    g_value_set_uint64 (value, SP_SOURCE_ROW (object)->self);
  else
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
}

static void
sp_source_row_finalize (GObject *object)
{
  g_free (SP_SOURCE_ROW (object)->text);
  G_OBJECT_CLASS (sp_source_row_parent_class)->finalize (object);
}

static void
sp_source_row_class_init (SpSourceRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = sp_source_row_finalize;
  object_class->get_property = sp_source_row_get_property;
  properties[PROP_COSTS] = g_param_spec_uint64 ("costs", NULL, NULL, 0, G_MAXUINT64, 0,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sp_source_row_init (SpSourceRow *self)
{
  self->callee = G_MAXUINT32;
}

SpSourceRow *
_sp_source_row_new (char *text,
                    guint line)
{
  SpSourceRow *self = g_object_new (SP_TYPE_SOURCE_ROW, NULL);

  self->text = text;
  self->line = line;
  return self;
}

void
_sp_source_row_set_costs (SpSourceRow *self,
                          guint64 self_cost,
                          guint64 total_cost,
                          double self_heat,
                          double total_heat)
{
  self->self = self_cost;
  self->total = total_cost;
  self->self_heat = self_heat;
  self->total_heat = total_heat;
  /* Always: the shares' text also depends on the function's total. */
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COSTS]);
}
