/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-tree-rows.c: rows updated in place for a new tree
 * (sp-tree-rows-private.h).
 *
 * One level at a time, from the top: the level's items are matched to the
 * new node's children by function id (a function appears once among a
 * node's children), and the level's expanded rows are then updated the
 * same way. Each level changes its GListStore with one splice per run of
 * items gone, plus one for the items new, never touching the items kept:
 * the tree list model keeps their nodes, so their GtkTreeListRows, their
 * expanded state and their open children. (Each splice is an
 * items-changed; the view holds them back and passes them on as one,
 * sp-batch-list-model.h.) */
#include "sp-tree-rows-private.h"

typedef struct {
  GtkTreeListModel *model;
  SpTreeSource     *source;
  const GArray     *open;   /* or NULL: see _sp_tree_rows_update */
} Update;

static gboolean
has_children (const SpCallTree *tree,
              guint32 node)
{
  return tree->nodes[node].first_child != SP_CALL_TREE_NONE;
}

/* node's children by function: function id -> node index (never 0, the
 * root). */
static GHashTable *
children_by_function (const SpCallTree *tree,
                      guint32 node)
{
  GHashTable *children = g_hash_table_new (NULL, NULL);

  for (guint32 c = tree->nodes[node].first_child; c != SP_CALL_TREE_NONE; c = tree->nodes[c].next_sibling)
    g_hash_table_insert (children, GUINT_TO_POINTER (tree->nodes[c].function), GUINT_TO_POINTER (c));
  return children;
}

/* Moves the items of store whose function node still has to node's
 * children, and removes the others; what is left in children is new. An
 * item that gains or loses children goes too (a new one takes its place):
 * the tree list model remembers that a row had nothing to expand. */
static void
keep_or_remove (Update *update,
                GListStore *store,
                GHashTable *children)
{
  const SpCallTree *tree = sp_tree_source_get_tree (update->source);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (store));
  g_autofree gboolean *gone = g_new0 (gboolean, n);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (SpTreeItem) item = g_list_model_get_item (G_LIST_MODEL (store), i);
      gpointer function = GUINT_TO_POINTER (sp_function_item_get_function (SP_FUNCTION_ITEM (item)));
      guint32 node = GPOINTER_TO_UINT (g_hash_table_lookup (children, function));

      gone[i] = node == 0 || (sp_tree_item_get_n_children (item) > 0) != has_children (tree, node);
      if (gone[i])
        continue;
      sp_tree_item_move_to (item, update->source, node);
      g_hash_table_remove (children, function);
    }
  /* Runs of items gone, from the end so the positions hold. */
  for (guint end = n; end > 0;)
    {
      guint start = end;

      while (start > 0 && gone[start - 1])
        start--;
      if (start < end)
        g_list_store_splice (store, start, end - start, NULL, 0);
      end = start > 0 ? start - 1 : 0;
    }
}

/* The children of node not in store yet (those left in children), in
 * the tree's order, added at the end: the sort model orders them. */
static void
add_new (Update *update,
         GListStore *store,
         guint32 node,
         GHashTable *children)
{
  const SpCallTree *tree = sp_tree_source_get_tree (update->source);
  g_autoptr (GPtrArray) items = NULL;

  if (g_hash_table_size (children) == 0)
    return;
  items = g_ptr_array_new_full (g_hash_table_size (children), g_object_unref);
  for (guint32 c = tree->nodes[node].first_child; c != SP_CALL_TREE_NONE; c = tree->nodes[c].next_sibling)
    if (g_hash_table_contains (children, GUINT_TO_POINTER (tree->nodes[c].function)))
      g_ptr_array_add (items, sp_tree_item_new (update->source, c));
  g_list_store_splice (store, g_list_model_get_n_items (G_LIST_MODEL (store)), 0, items->pdata, items->len);
}

static gboolean
may_stay_open (Update *update,
               guint depth,
               guint32 node)
{
  return update->open == NULL
         || (depth < update->open->len && g_array_index (update->open, guint32, depth) == node);
}

static void update_level (Update *update,
                          GtkTreeListRow *parent,
                          GListStore *store,
                          guint32 node,
                          guint depth);

/* The expanded rows of the level (parent's children, or the top level)
 * updated in turn, or closed if they may not stay open. */
static void
update_expanded (Update *update,
                 GtkTreeListRow *parent,
                 GListStore *store,
                 guint depth)
{
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (store)); i++)
    {
      g_autoptr (GtkTreeListRow) row = parent != NULL ? gtk_tree_list_row_get_child_row (parent, i)
                                                      : gtk_tree_list_model_get_child_row (update->model, i);
      g_autoptr (SpTreeItem) item = NULL;
      guint32 node;

      if (!gtk_tree_list_row_get_expanded (row))
        continue;
      item = gtk_tree_list_row_get_item (row);
      node = sp_tree_item_get_node (item);
      if (!may_stay_open (update, depth, node))
        gtk_tree_list_row_set_expanded (row, FALSE);
      else
        update_level (update, row, G_LIST_STORE (gtk_tree_list_row_get_children (row)), node, depth + 1);
    }
}

/* store holds the items of a node in the old tree; node is the node of the
 * same function path in the new one. */
static void
update_level (Update *update,
              GtkTreeListRow *parent,
              GListStore *store,
              guint32 node,
              guint depth)
{
  g_autoptr (GHashTable) children = children_by_function (sp_tree_source_get_tree (update->source), node);

  keep_or_remove (update, store, children);
  add_new (update, store, node, children);
  update_expanded (update, parent, store, depth);
}

void
_sp_tree_rows_update (GtkTreeListModel *model,
                      SpTreeSource *source,
                      const GArray *open)
{
  Update update = { model, source, open };

  g_return_if_fail (GTK_IS_TREE_LIST_MODEL (model));
  g_return_if_fail (source != NULL);

  update_level (&update, NULL, G_LIST_STORE (gtk_tree_list_model_get_model (model)), 0, 0);
}
