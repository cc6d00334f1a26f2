/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-thread-item.c: an SpThreadRow as a GObject (sp-thread-item-private.h). */
#include "sp-thread-item-private.h"

struct _SpThreadItem
{
  GObject     parent_instance;

  SpThreadRow row;      /* its name owned */
  gboolean    shown;
};

enum {
  PROP_0,
  PROP_NAME,
  PROP_PID,
  PROP_TID,
  PROP_SAMPLES,
  PROP_CPU,
  PROP_OFF_CPU,
  PROP_WALL,
  PROP_BLOCKED,
  PROP_RUNNABLE,
  PROP_SWITCHES,
  PROP_SHOWN,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (SpThreadItem, sp_thread_item, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

/* The value of a guint64 property (PROP_TID .. PROP_SWITCHES) in row. */
static guint64
row_value (const SpThreadRow *row,
           guint prop_id)
{
  switch (prop_id)
    {
    case PROP_TID:
      return row->tid;
    case PROP_SAMPLES:
      return row->n_samples;
    case PROP_CPU:
      return row->cpu_ns;
    case PROP_OFF_CPU:
      return sp_thread_row_get_off_cpu_ns (row);
    case PROP_WALL:
      return sp_thread_row_get_wall_ns (row);
    case PROP_BLOCKED:
      return row->blocked_ns;
    case PROP_RUNNABLE:
      return row->runnable_ns;
    case PROP_SWITCHES:
      return row->switches;
    default:
      g_assert_not_reached ();
    }
}

static void
sp_thread_item_finalize (GObject *object)
{
  SpThreadItem *self = SP_THREAD_ITEM (object);

  g_clear_pointer (&self->row.name, g_free);
  G_OBJECT_CLASS (sp_thread_item_parent_class)->finalize (object);
}

static void
sp_thread_item_get_property (GObject *object,
                             guint prop_id,
                             GValue *value,
                             GParamSpec *pspec)
{
  SpThreadItem *self = SP_THREAD_ITEM (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, _sp_thread_item_get_name (self));
      break;
    case PROP_PID:
      g_value_set_int (value, self->row.pid);
      break;
    case PROP_SHOWN:
      g_value_set_boolean (value, self->shown);
      break;
    case PROP_TID:
    case PROP_SAMPLES:
    case PROP_CPU:
    case PROP_OFF_CPU:
    case PROP_WALL:
    case PROP_BLOCKED:
    case PROP_RUNNABLE:
    case PROP_SWITCHES:
      g_value_set_uint64 (value, row_value (&self->row, prop_id));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sp_thread_item_class_init (SpThreadItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;
  static const char *const counts[] = {
    [PROP_TID] = "tid", [PROP_SAMPLES] = "samples", [PROP_CPU] = "cpu", [PROP_OFF_CPU] = "off-cpu",
    [PROP_WALL] = "wall", [PROP_BLOCKED] = "blocked", [PROP_RUNNABLE] = "runnable", [PROP_SWITCHES] = "switches",
  };

  object_class->finalize = sp_thread_item_finalize;
  object_class->get_property = sp_thread_item_get_property;
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_PID] = g_param_spec_int ("pid", NULL, NULL, G_MININT32, G_MAXINT32, 0, flags);
  properties[PROP_SHOWN] = g_param_spec_boolean ("shown", NULL, NULL, TRUE, flags);
  for (guint p = PROP_TID; p <= PROP_SWITCHES; p++)
    properties[p] = g_param_spec_uint64 (counts[p], NULL, NULL, 0, G_MAXUINT64, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sp_thread_item_init (SpThreadItem *self)
{
}

SpThreadItem *
_sp_thread_item_new (const SpThreadRow *row,
                     gboolean shown)
{
  SpThreadItem *self = g_object_new (SP_TYPE_THREAD_ITEM, NULL);

  self->row = *row;
  self->row.name = g_strdup (row->name);
  self->shown = shown;
  return self;
}

void
_sp_thread_item_set_row (SpThreadItem *self,
                         const SpThreadRow *row)
{
  SpThreadRow old = self->row;

  g_return_if_fail (SP_IS_THREAD_ITEM (self));
  g_return_if_fail (row->thread == old.thread);

  self->row = *row;
  self->row.name = g_strdup (row->name);
  g_object_freeze_notify (G_OBJECT (self));
  if (g_strcmp0 (old.name, row->name) != 0)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NAME]);
  if (old.pid != row->pid)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PID]);
  /* Gaining states changes how the times are written, not only them. */
  for (guint p = PROP_TID; p <= PROP_SWITCHES; p++)
    if (row_value (&old, p) != row_value (row, p) || old.has_states != row->has_states
        || old.cpu_estimated != row->cpu_estimated)
      g_object_notify_by_pspec (G_OBJECT (self), properties[p]);
  g_object_thaw_notify (G_OBJECT (self));
  g_free (old.name);
}

const SpThreadRow *
_sp_thread_item_get_row (SpThreadItem *self)
{
  g_return_val_if_fail (SP_IS_THREAD_ITEM (self), NULL);

  return &self->row;
}

gboolean
_sp_thread_item_get_shown (SpThreadItem *self)
{
  g_return_val_if_fail (SP_IS_THREAD_ITEM (self), FALSE);

  return self->shown;
}

void
_sp_thread_item_set_shown (SpThreadItem *self,
                           gboolean shown)
{
  g_return_if_fail (SP_IS_THREAD_ITEM (self));

  if (self->shown == !!shown)
    return;
  self->shown = !!shown;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHOWN]);
}

const char *
_sp_thread_item_get_name (SpThreadItem *self)
{
  g_return_val_if_fail (SP_IS_THREAD_ITEM (self), NULL);

  return self->row.name != NULL ? self->row.name : "(unnamed)";
}
