/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-tree-item.c: call-tree nodes as GObjects, made only for the rows a
 * list view asks for (see sp-tree-item.h). */
#include "sp-tree-item.h"

#include "sp-function-item-private.h"

struct _SpTreeSource
{
  SpProfile  *profile;  /* owned */
  SpCallTree *tree;     /* owned */
};

struct _SpTreeItem
{
  SpFunctionItem parent_instance;

  /* Owned references */
  SpTreeSource *source;

  guint32 node;
};

enum {
  PROP_0,
  PROP_NODE,
  N_PROPS
};

G_DEFINE_FINAL_TYPE (SpTreeItem, sp_tree_item, SP_TYPE_FUNCTION_ITEM)

static GParamSpec *properties[N_PROPS];

static void
sp_tree_source_clear (gpointer data)
{
  SpTreeSource *source = data;

  /* The last row of an old tree may go on the main thread. */
  g_clear_pointer (&source->tree, sp_call_tree_free_in_background);
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
  SP_FUNCTION_ITEM_CLASS (klass)->no_function_name = "[all samples]";

  properties[PROP_NODE] = g_param_spec_uint ("node", NULL, NULL, 0, G_MAXUINT32, 0, flags);
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
  const SpCallTreeNode *n;
  SpFunctionCost cost;
  SpTreeItem *self;

  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (node < source->tree->n_nodes, NULL);

  n = &source->tree->nodes[node];
  cost = (SpFunctionCost) { n->function, n->self, n->total };

  self = g_object_new (SP_TYPE_TREE_ITEM, NULL);
  self->source = sp_tree_source_ref (source);
  self->node = node;
  _sp_function_item_set_cost (SP_FUNCTION_ITEM (self), source->profile, &cost, source->tree->nodes[0].total);
  _sp_function_item_set_metric (SP_FUNCTION_ITEM (self), source->tree->metric);
  return self;
}

void
sp_tree_item_move_to (SpTreeItem *self,
                      SpTreeSource *source,
                      guint32 node)
{
  const SpCallTreeNode *n;

  g_return_if_fail (SP_IS_TREE_ITEM (self));
  g_return_if_fail (source != NULL);
  g_return_if_fail (node < source->tree->n_nodes);
  g_return_if_fail (source->profile == self->source->profile);
  g_return_if_fail (source->tree->nodes[node].function == get_node (self)->function);

  if (source != self->source)
    {
      sp_tree_source_unref (self->source);
      self->source = sp_tree_source_ref (source);
    }
  g_object_freeze_notify (G_OBJECT (self));
  if (node != self->node)
    {
      self->node = node;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_NODE]);
    }
  n = get_node (self);
  _sp_function_item_set_metric (SP_FUNCTION_ITEM (self), source->tree->metric);
  _sp_function_item_update_counts (SP_FUNCTION_ITEM (self), n->self, n->total, source->tree->nodes[0].total);
  g_object_thaw_notify (G_OBJECT (self));
}

guint32
sp_tree_item_get_node (SpTreeItem *self)
{
  g_return_val_if_fail (SP_IS_TREE_ITEM (self), SP_CALL_TREE_NONE);

  return self->node;
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
