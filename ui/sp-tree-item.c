/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-tree-item.c: call-tree nodes as GObjects, made only for the rows a
 * list view asks for (see sp-tree-item.h). */
#include "sp-tree-item.h"

struct _SpTreeSource
{
  SpProfile  *profile;  /* owned */
  SpCallTree *tree;     /* owned */
};

struct _SpTreeItem
{
  GObject parent_instance;

  /* Owned references */
  SpTreeSource *source;

  guint32 node;
};

enum {
  PROP_0,
  PROP_NODE,
  PROP_NAME,
  PROP_MODULE,
  PROP_SELF,
  PROP_TOTAL,
  PROP_SELF_PERCENT,
  PROP_TOTAL_PERCENT,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (SpTreeItem, sp_tree_item, G_TYPE_OBJECT)

static GParamSpec *properties[N_PROPS];

static void
sp_tree_source_clear (gpointer data)
{
  SpTreeSource *source = data;

  g_clear_pointer (&source->tree, sp_call_tree_free);
  g_clear_pointer (&source->profile, sp_profile_unref);
}

SpTreeSource *
sp_tree_source_new (SpProfile *profile,
                    SpCallTree *tree)
{
  SpTreeSource *source;

  g_return_val_if_fail (profile != NULL, NULL);
  g_return_val_if_fail (tree != NULL && tree->n_nodes > 0, NULL);

  source = g_atomic_rc_box_new0 (SpTreeSource);
  source->profile = sp_profile_ref (profile);
  source->tree = tree;
  return source;
}

SpTreeSource *
sp_tree_source_ref (SpTreeSource *source)
{
  return g_atomic_rc_box_acquire (source);
}

void
sp_tree_source_unref (SpTreeSource *source)
{
  g_atomic_rc_box_release_full (source, sp_tree_source_clear);
}

const SpCallTree *
sp_tree_source_get_tree (SpTreeSource *source)
{
  return source->tree;
}

SpProfile *
sp_tree_source_get_profile (SpTreeSource *source)
{
  return source->profile;
}

static const SpCallTreeNode *
get_node (SpTreeItem *self)
{
  return &self->source->tree->nodes[self->node];
}

static const SpFunction *
get_function (SpTreeItem *self)
{
  guint32 function = get_node (self)->function;

  if (function == SP_CALL_TREE_NONE)
    return NULL;
  return sp_profile_get_function (self->source->profile, function);
}

static double
percent_of_root (SpTreeItem *self,
                 guint64 value)
{
  guint64 all = self->source->tree->nodes[0].total;

  return all > 0 ? 100.0 * (double) value / (double) all : 0.0;
}

static void
sp_tree_item_finalize (GObject *object)
{
  SpTreeItem *self = SP_TREE_ITEM (object);

  g_clear_pointer (&self->source, sp_tree_source_unref);
  G_OBJECT_CLASS (sp_tree_item_parent_class)->finalize (object);
}

static void
sp_tree_item_get_property (GObject *object,
                           guint prop_id,
                           GValue *value,
                           GParamSpec *pspec)
{
  SpTreeItem *self = SP_TREE_ITEM (object);

  switch (prop_id)
    {
    case PROP_NODE:
      g_value_set_uint (value, self->node);
      break;
    case PROP_NAME:
      g_value_set_string (value, sp_tree_item_get_name (self));
      break;
    case PROP_MODULE:
      g_value_set_string (value, sp_tree_item_get_module (self));
      break;
    case PROP_SELF:
      g_value_set_uint64 (value, sp_tree_item_get_self (self));
      break;
    case PROP_TOTAL:
      g_value_set_uint64 (value, sp_tree_item_get_total (self));
      break;
    case PROP_SELF_PERCENT:
      g_value_set_double (value, sp_tree_item_get_self_percent (self));
      break;
    case PROP_TOTAL_PERCENT:
      g_value_set_double (value, sp_tree_item_get_total_percent (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sp_tree_item_class_init (SpTreeItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = sp_tree_item_finalize;
  object_class->get_property = sp_tree_item_get_property;

  properties[PROP_NODE] = g_param_spec_uint ("node", NULL, NULL, 0, G_MAXUINT32, 0, flags);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, flags);
  properties[PROP_MODULE] = g_param_spec_string ("module", NULL, NULL, NULL, flags);
  properties[PROP_SELF] = g_param_spec_uint64 ("self", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_TOTAL] = g_param_spec_uint64 ("total", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  properties[PROP_SELF_PERCENT] = g_param_spec_double ("self-percent", NULL, NULL, 0, 100, 0, flags);
  properties[PROP_TOTAL_PERCENT] = g_param_spec_double ("total-percent", NULL, NULL, 0, 100, 0, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
sp_tree_item_init (SpTreeItem *self)
{
}

SpTreeItem *
sp_tree_item_new (SpTreeSource *source,
                  guint32 node)
{
  SpTreeItem *self;

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (node < source->tree->n_nodes, NULL);

  self = g_object_new (SP_TYPE_TREE_ITEM, NULL);
  self->source = sp_tree_source_ref (source);
  self->node = node;
  return self;
}

/* What a move can change. */
typedef struct {
  guint32 node;
  guint64 self;
  guint64 total;
  double  self_percent;
  double  total_percent;
} Values;

static Values
get_values (SpTreeItem *self)
{
  const SpCallTreeNode *node = get_node (self);

  return (Values) { self->node, node->self, node->total,
                    percent_of_root (self, node->self), percent_of_root (self, node->total) };
}

void
sp_tree_item_move_to (SpTreeItem *self,
                      SpTreeSource *source,
                      guint32 node)
{
  Values before, after;

  g_return_if_fail (SP_IS_TREE_ITEM (self));
  g_return_if_fail (source != NULL);
  g_return_if_fail (node < source->tree->n_nodes);
  g_return_if_fail (source->profile == self->source->profile);
  g_return_if_fail (source->tree->nodes[node].function == get_node (self)->function);

  before = get_values (self);
  if (source != self->source)
    {
      sp_tree_source_unref (self->source);
      self->source = sp_tree_source_ref (source);
    }
  self->node = node;
  after = get_values (self);

  g_object_freeze_notify (G_OBJECT (self));
  if (after.node != before.node)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NODE]);
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

guint32
sp_tree_item_get_node (SpTreeItem *self)
{
  g_return_val_if_fail (SP_IS_TREE_ITEM (self), SP_CALL_TREE_NONE);

  return self->node;
}

guint32
sp_tree_item_get_function (SpTreeItem *self)
{
  g_return_val_if_fail (SP_IS_TREE_ITEM (self), SP_CALL_TREE_NONE);

  return get_node (self)->function;
}

const char *
sp_tree_item_get_name (SpTreeItem *self)
{
  const SpFunction *function;

  g_return_val_if_fail (SP_IS_TREE_ITEM (self), NULL);

  function = get_function (self);
  return function != NULL ? function->name : "[all samples]";
}

const char *
sp_tree_item_get_module (SpTreeItem *self)
{
  const SpFunction *function;

  g_return_val_if_fail (SP_IS_TREE_ITEM (self), NULL);

  function = get_function (self);
  return function != NULL ? function->module : "";
}

char *
sp_tree_item_get_location (SpTreeItem *self)
{
  const SpFunction *function;

  g_return_val_if_fail (SP_IS_TREE_ITEM (self), NULL);

  function = get_function (self);
  return function != NULL ? sp_function_get_location (function) : NULL;
}

SpFunctionKind
sp_tree_item_get_kind (SpTreeItem *self)
{
  const SpFunction *function;

  g_return_val_if_fail (SP_IS_TREE_ITEM (self), SP_FUNCTION_SYNTHETIC);

  function = get_function (self);
  return function != NULL ? function->kind : SP_FUNCTION_SYNTHETIC;
}

guint64
sp_tree_item_get_self (SpTreeItem *self)
{
  g_return_val_if_fail (SP_IS_TREE_ITEM (self), 0);

  return get_node (self)->self;
}

guint64
sp_tree_item_get_total (SpTreeItem *self)
{
  g_return_val_if_fail (SP_IS_TREE_ITEM (self), 0);

  return get_node (self)->total;
}

double
sp_tree_item_get_self_percent (SpTreeItem *self)
{
  g_return_val_if_fail (SP_IS_TREE_ITEM (self), 0.0);

  return percent_of_root (self, get_node (self)->self);
}

double
sp_tree_item_get_total_percent (SpTreeItem *self)
{
  g_return_val_if_fail (SP_IS_TREE_ITEM (self), 0.0);

  return percent_of_root (self, get_node (self)->total);
}

guint
sp_tree_item_get_n_children (SpTreeItem *self)
{
  g_return_val_if_fail (SP_IS_TREE_ITEM (self), 0);

  return get_node (self)->n_children;
}

GListModel *
sp_tree_item_create_children (SpTreeItem *self)
{
  g_autoptr (GArray) children = NULL;
  g_autoptr (GPtrArray) items = NULL;
  GListStore *store;

  g_return_val_if_fail (SP_IS_TREE_ITEM (self), NULL);

  if (get_node (self)->first_child == SP_CALL_TREE_NONE)
    return NULL;
  children = sp_call_tree_get_children (self->source->tree, self->node);
  items = g_ptr_array_new_full (children->len, g_object_unref);
  for (guint i = 0; i < children->len; i++)
    g_ptr_array_add (items, sp_tree_item_new (self->source, g_array_index (children, guint32, i)));
  store = g_list_store_new (SP_TYPE_TREE_ITEM);
  g_list_store_splice (store, 0, 0, items->pdata, items->len);
  return G_LIST_MODEL (store);
}
