/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-function-item.c: an SpFunctionCost as a GObject (see the header). */
#include "sp-function-item-private.h"

typedef struct
{
  /* Owned references */
  SpProfile      *profile;

  SpFunctionCost  cost;
  guint64         all;
  SpMetric        metric;     /* what self and total count */
} SpFunctionItemPrivate;

enum {
  PROP_0,
  PROP_NAME,
  PROP_MODULE,
  PROP_SELF,
  PROP_TOTAL,
  PROP_SELF_PERCENT,
  PROP_TOTAL_PERCENT,
  N_PROPS
};

G_DEFINE_TYPE_WITH_PRIVATE (SpFunctionItem, sp_function_item, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static const SpFunction *
get_function (SpFunctionItem *self)
{
  SpFunctionItemPrivate *priv = sp_function_item_get_instance_private (self);

  if (priv->cost.function == SP_FUNCTION_LIST_ROOT)
    return NULL;
  return sp_profile_get_function (priv->profile, priv->cost.function);
}

static double
percent_of_all (SpFunctionItem *self,
                guint64 value)
{
  SpFunctionItemPrivate *priv = sp_function_item_get_instance_private (self);

  return priv->all > 0 ? 100.0 * (double) value / (double) priv->all : 0.0;
}

static void
sp_function_item_finalize (GObject *object)
{
  SpFunctionItemPrivate *priv = sp_function_item_get_instance_private (SP_FUNCTION_ITEM (object));

  g_clear_pointer (&priv->profile, sp_profile_unref);
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
      g_value_set_uint64 (value, sp_function_item_get_self (self));
      break;
    case PROP_TOTAL:
      g_value_set_uint64 (value, sp_function_item_get_total (self));
      break;
    case PROP_SELF_PERCENT:
      g_value_set_double (value, sp_function_item_get_self_percent (self));
      break;
    case PROP_TOTAL_PERCENT:
      g_value_set_double (value, sp_function_item_get_total_percent (self));
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
  klass->no_function_name = "[stack root]";

  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_MODULE] = g_param_spec_string ("module", NULL, NULL, NULL, flags);
  properties[PROP_SELF] = g_param_spec_uint64 ("self", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_TOTAL] = g_param_spec_uint64 ("total", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_SELF_PERCENT] = g_param_spec_double ("self-percent", NULL, NULL, 0, 100, 0, flags);
  properties[PROP_TOTAL_PERCENT] = g_param_spec_double ("total-percent", NULL, NULL, 0, 100, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sp_function_item_init (SpFunctionItem *self)
{
}

void
_sp_function_item_set_cost (SpFunctionItem *self,
                            SpProfile *profile,
                            const SpFunctionCost *cost,
                            guint64 all)
{
  SpFunctionItemPrivate *priv = sp_function_item_get_instance_private (self);

  g_return_if_fail (priv->profile == NULL);

  priv->profile = sp_profile_ref (profile);
  priv->cost = *cost;
  priv->all = all;
}

void
_sp_function_item_set_metric (SpFunctionItem *self,
                              SpMetric metric)
{
  SpFunctionItemPrivate *priv = sp_function_item_get_instance_private (self);

  if (priv->metric == metric)
    return;
  priv->metric = metric;
  /* The same numbers now read in another unit: the cells write them again. */
  g_object_freeze_notify (G_OBJECT (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELF]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOTAL]);
  g_object_thaw_notify (G_OBJECT (self));
}

/* What an update can change. */
typedef struct {
  guint64 self;
  guint64 total;
  double  self_percent;
  double  total_percent;
} Counts;

static Counts
get_counts (SpFunctionItem *self)
{
  return (Counts) { sp_function_item_get_self (self), sp_function_item_get_total (self),
                    sp_function_item_get_self_percent (self), sp_function_item_get_total_percent (self) };
}

void
_sp_function_item_update_counts (SpFunctionItem *self,
                                 guint64 self_count,
                                 guint64 total,
                                 guint64 all)
{
  SpFunctionItemPrivate *priv = sp_function_item_get_instance_private (self);
  Counts before = get_counts (self), after;

  priv->cost.self = self_count;
  priv->cost.total = total;
  priv->all = all;
  after = get_counts (self);

  g_object_freeze_notify (G_OBJECT (self));
  if (after.self != before.self)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELF]);
  if (after.total != before.total)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOTAL]);
  if (after.self_percent != before.self_percent)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELF_PERCENT]);
  if (after.total_percent != before.total_percent)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOTAL_PERCENT]);
  g_object_thaw_notify (G_OBJECT (self));
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
  _sp_function_item_set_cost (self, profile, cost, all);
  return self;
}

guint32
sp_function_item_get_function (SpFunctionItem *self)
{
  SpFunctionItemPrivate *priv = sp_function_item_get_instance_private (self);

  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), SP_FUNCTION_LIST_ROOT);

  return priv->cost.function;
}

const char *
sp_function_item_get_name (SpFunctionItem *self)
{
  const SpFunction *function;

  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), NULL);

  function = get_function (self);
  return function != NULL ? function->name : SP_FUNCTION_ITEM_GET_CLASS (self)->no_function_name;
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

SpMetric
sp_function_item_get_metric (SpFunctionItem *self)
{
  SpFunctionItemPrivate *priv = sp_function_item_get_instance_private (self);

  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), SP_METRIC_CPU);

  return priv->metric;
}

guint64
sp_function_item_get_self (SpFunctionItem *self)
{
  SpFunctionItemPrivate *priv = sp_function_item_get_instance_private (self);

  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), 0);

  return priv->cost.self;
}

guint64
sp_function_item_get_total (SpFunctionItem *self)
{
  SpFunctionItemPrivate *priv = sp_function_item_get_instance_private (self);

  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), 0);

  return priv->cost.total;
}

double
sp_function_item_get_self_percent (SpFunctionItem *self)
{
  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), 0.0);

  return percent_of_all (self, sp_function_item_get_self (self));
}

double
sp_function_item_get_total_percent (SpFunctionItem *self)
{
  g_return_val_if_fail (SP_IS_FUNCTION_ITEM (self), 0.0);

  return percent_of_all (self, sp_function_item_get_total (self));
}
