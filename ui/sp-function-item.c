/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-function-item.c: an SpFunctionCost as a GObject (see the header). */
#include "sp-function-item.h"

struct _SpFunctionItem
{
  GObject parent_instance;

  /* Owned references */
  SpProfile      *profile;

  SpFunctionCost  cost;
  guint64         all;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_MODULE,
  PROP_SELF,
  PROP_TOTAL,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (SpFunctionItem, sp_function_item, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static const SpFunction *
get_function (SpFunctionItem *self)
{
  if (self->cost.function == SP_FUNCTION_LIST_ROOT)
    return NULL;
  return sp_profile_get_function (self->profile, self->cost.function);
}

static double
percent_of_all (SpFunctionItem *self,
                guint64 value)
{
  return self->all > 0 ? 100.0 * (double) value / (double) self->all : 0.0;
}

static void
sp_function_item_finalize (GObject *object)
{
  SpFunctionItem *self = SP_FUNCTION_ITEM (object);

  g_clear_pointer (&self->profile, sp_profile_unref);
  G_OBJECT_CLASS (sp_function_item_parent_class)->finalize (object);
}

static void
sp_function_item_get_property (GObject *object,
                               guint prop_id,
                               GValue *value,
                               GParamSpec *pspec)
{
  SpFunctionItem *self = SP_FUNCTION_ITEM (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, sp_function_item_get_name (self));
      break;
    case PROP_MODULE:
      g_value_set_string (value, sp_function_item_get_module (self));
      break;
    case PROP_SELF:
      g_value_set_uint64 (value, self->cost.self);
      break;
    case PROP_TOTAL:
      g_value_set_uint64 (value, self->cost.total);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sp_function_item_class_init (SpFunctionItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = sp_function_item_finalize;
  object_class->get_property = sp_function_item_get_property;

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_MODULE] = g_param_spec_string ("module", NULL, NULL, NULL, flags);
  properties[PROP_SELF] = g_param_spec_uint64 ("self", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_TOTAL] = g_param_spec_uint64 ("total", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sp_function_item_init (SpFunctionItem *self)
{
}

SpFunctionItem *
sp_function_item_new (SpProfile *profile,
                      const SpFunctionCost *cost,
                      guint64 all)
{
  SpFunctionItem *self;

  g_return_val_if_fail (profile != NULL, NULL);
  g_return_val_if_fail (cost != NULL, NULL);

  self = g_object_new (SP_TYPE_FUNCTION_ITEM, NULL);
  self->profile = sp_profile_ref (profile);
  self->cost = *cost;
  self->all = all;
  return self;
}

guint32
sp_function_item_get_function (SpFunctionItem *self)
{
  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), SP_FUNCTION_LIST_ROOT);

  return self->cost.function;
}

const char *
sp_function_item_get_name (SpFunctionItem *self)
{
  const SpFunction *function;

  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), NULL);

  function = get_function (self);
  return function != NULL ? function->name : "[stack root]";
}

char *
sp_function_item_get_location (SpFunctionItem *self)
{
  const SpFunction *function;

  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), NULL);

  function = get_function (self);
  return function != NULL ? sp_function_get_location (function) : NULL;
}

const char *
sp_function_item_get_module (SpFunctionItem *self)
{
  const SpFunction *function;

  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), NULL);

  function = get_function (self);
  return function != NULL ? function->module : "";
}

SpFunctionKind
sp_function_item_get_kind (SpFunctionItem *self)
{
  const SpFunction *function;

  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), SP_FUNCTION_SYNTHETIC);

  function = get_function (self);
  return function != NULL ? function->kind : SP_FUNCTION_SYNTHETIC;
}

guint64
sp_function_item_get_self (SpFunctionItem *self)
{
  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), 0);

  return self->cost.self;
}

guint64
sp_function_item_get_total (SpFunctionItem *self)
{
  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), 0);

  return self->cost.total;
}

double
sp_function_item_get_self_percent (SpFunctionItem *self)
{
  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), 0.0);

  return percent_of_all (self, self->cost.self);
}

double
sp_function_item_get_total_percent (SpFunctionItem *self)
{
  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), 0.0);

  return percent_of_all (self, self->cost.total);
}
