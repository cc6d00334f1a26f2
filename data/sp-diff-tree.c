/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-diff-tree.c: A's and B's call trees merged path by path. */
#include "sp-diff-tree.h"

#include <math.h>
#include <string.h>

/* A merged node by (parent << 32 | key): a table of its own, sized once
 * for both trees' nodes, since it is looked up for every node of both. */
typedef struct {
  guint64 id;     /* EMPTY_SLOT when free */
  guint32 node;
} ChildSlot;

#define EMPTY_SLOT G_MAXUINT64

/* While building: functions as keys, and merged nodes by (parent, key). */
typedef struct {
  SpDiffTree *tree;
  GArray     *nodes;        /* SpDiffTreeNode */
  GHashTable *key_ids;      /* "module\x1fname" -> key + 1 */
  GArray     *key_rows;     /* key -> SpDiffRow index in tree->functions */
  ChildSlot  *children;     /* open addressing: (parent << 32 | key) -> node */
  gsize       children_mask;
  GArray     *node_keys;    /* node -> key */
  GHashTable *module_map;   /* B's module file name -> A's; may be NULL */
} Builder;

static guint32
key_of (Builder *b,
        const SpFunction *function,
        gboolean is_b,
        guint32 function_id)
{
  const char *module = function->module != NULL ? function->module : "";
  const char *mapped = is_b && b->module_map != NULL ? g_hash_table_lookup (b->module_map, module) : NULL;
  g_autofree char *text = NULL;
  gpointer found;
  SpDiffRow row = { 0 };

  if (mapped != NULL)
    module = mapped;
  text = g_strconcat (module, "\x1f", function->name, NULL);
  found = g_hash_table_lookup (b->key_ids, text);
  if (found != NULL)
    {
      SpDiffRow *known = &g_array_index (b->tree->functions, SpDiffRow,
                                         g_array_index (b->key_rows, guint32, GPOINTER_TO_UINT (found) - 1));
      if (is_b)
        known->function_b = function_id;
      else
        known->function_a = function_id;
      return GPOINTER_TO_UINT (found) - 1;
    }
  row.name = g_string_chunk_insert_const (b->tree->strings, function->name);
  row.module = g_string_chunk_insert_const (b->tree->strings, module);
  row.function_a = is_b ? SP_DIFF_NONE : function_id;
  row.function_b = is_b ? function_id : SP_DIFF_NONE;
  guint32 row_index = b->tree->functions->len;

  g_array_append_val (b->tree->functions, row);
  g_array_append_val (b->key_rows, row_index);
  g_hash_table_insert (b->key_ids, g_steal_pointer (&text), GUINT_TO_POINTER (b->key_rows->len));
  return b->key_rows->len - 1;
}

/* The slot of id: where it is, or the free one where it goes. */
static ChildSlot *
child_slot (Builder *b,
            guint64 id)
{
  gsize i = (gsize) ((id * 0x9e3779b97f4a7c15u) >> 20) & b->children_mask;

  while (b->children[i].id != EMPTY_SLOT && b->children[i].id != id)
    i = (i + 1) & b->children_mask;
  return &b->children[i];
}

/* The merged child of parent for key, made when new. */
static guint32
child_of (Builder *b,
          guint32 parent,
          guint32 key)
{
  ChildSlot *slot = child_slot (b, ((guint64) parent << 32) | key);
  const SpDiffRow *row;
  SpDiffTreeNode node = { 0 };

  if (slot->id != EMPTY_SLOT)
    return slot->node;
  row = &g_array_index (b->tree->functions, SpDiffRow, g_array_index (b->key_rows, guint32, key));
  node.name = row->name;
  node.module = row->module;
  node.parent = parent;
  node.first_child = node.next_sibling = SP_DIFF_TREE_NONE;
  node.function_a = node.function_b = SP_DIFF_NONE;
  node.row = g_array_index (b->key_rows, guint32, key);
  g_array_append_val (b->nodes, node);
  g_array_append_val (b->node_keys, key);
  slot->id = ((guint64) parent << 32) | key;
  slot->node = b->nodes->len - 1;
  return slot->node;
}

/* Adds one side's counts: each of its nodes to the merged node of the
 * same path (a node comes after its parent, so parents are mapped first). */
static void
add_side (Builder *b,
          const SpDiffTreeSide *side,
          gboolean is_b)
{
  const SpCallTree *tree = side->tree;
  g_autofree guint32 *merged = g_new (guint32, MAX (tree->n_nodes, 1));
  /* Each function's key, looked up once (names are hashed per function,
   * not per node): the tree names only functions below n_functions. */
  g_autofree guint32 *keys = g_new (guint32, MAX (tree->n_functions, 1));

  memset (keys, 0xff, MAX (tree->n_functions, 1) * sizeof (guint32));
  merged[0] = 0;
  for (guint i = 0; i < tree->n_nodes; i++)
    {
      const SpCallTreeNode *n = &tree->nodes[i];
      SpDiffTreeNode *node;

      if (i > 0)
        {
          if (keys[n->function] == G_MAXUINT32)
            keys[n->function] = key_of (b, sp_profile_get_function (side->profile, n->function), is_b, n->function);
          merged[i] = child_of (b, merged[n->parent], keys[n->function]);
        }
      node = &g_array_index (b->nodes, SpDiffTreeNode, merged[i]);
      if (is_b)
        {
          node->function_b = i > 0 ? n->function : SP_DIFF_NONE;
          node->self_b += n->self;
          node->total_b += n->total;
        }
      else
        {
          node->function_a = i > 0 ? n->function : SP_DIFF_NONE;
          node->self_a += n->self;
          node->total_a += n->total;
        }
    }
}

/* What one count is worth in the normalized unit. */
static double
unit_of (const SpDiffTreeSide *side,
         SpDiffNormalize normalize)
{
  if (normalize == SP_DIFF_NORMALIZE_SHARE)
    return side->tree->nodes[0].total > 0 ? 100.0 / (double) side->tree->nodes[0].total : 0;
  return side->span_s > 0 ? 100.0 * side->count_s / side->span_s : 0;
}

static gint
compare_children (gconstpointer x,
                  gconstpointer y,
                  gpointer data)
{
  const SpDiffTreeNode *nodes = data;
  const SpDiffTreeNode *a = &nodes[*(const guint32 *) x];
  const SpDiffTreeNode *b = &nodes[*(const guint32 *) y];

  if (a->total_value_b != b->total_value_b)
    return a->total_value_b > b->total_value_b ? -1 : 1;
  if (a->total_value_a != b->total_value_a)
    return a->total_value_a > b->total_value_a ? -1 : 1;
  return g_strcmp0 (a->name, b->name);
}

/* Links each node's children, largest first: the children of all nodes
 * gathered by parent in one array (counted first), each run sorted. */
static void
link_children (SpDiffTree *tree)
{
  g_autofree guint32 *start = g_new0 (guint32, tree->n_nodes + 1);
  g_autofree guint32 *filled = NULL;
  g_autofree guint32 *children = g_new (guint32, MAX (tree->n_nodes, 1));

  for (guint i = 1; i < tree->n_nodes; i++)
    start[tree->nodes[i].parent + 1]++;
  for (guint i = 0; i < tree->n_nodes; i++)
    start[i + 1] += start[i];
  filled = g_memdup2 (start, (tree->n_nodes + 1) * sizeof (guint32));
  for (guint i = 1; i < tree->n_nodes; i++)
    children[filled[tree->nodes[i].parent]++] = i;
  for (guint i = 0; i < tree->n_nodes; i++)
    {
      guint32 n = start[i + 1] - start[i];
      guint32 next = SP_DIFF_TREE_NONE;

      g_qsort_with_data (children + start[i], (gint) n, sizeof (guint32), compare_children, tree->nodes);
      for (guint c = n; c > 0; c--)
        {
          guint32 child = children[start[i] + c - 1];

          tree->nodes[child].next_sibling = next;
          next = child;
        }
      tree->nodes[i].first_child = next;
      tree->nodes[i].n_children = n;
    }
}

/* Each function's self (all its nodes) and total (its outermost nodes
 * only: a recursive function's samples count once), raw. Depth first,
 * with how often each key is on the current path. */
static void
count_functions (SpDiffTree *tree,
                 const GArray *node_keys)
{
  g_autofree guint *on_path = g_new0 (guint, MAX (tree->functions->len, 1));
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 node = tree->nodes[0].first_child;

  while (node != SP_DIFF_TREE_NONE)
    {
      const SpDiffTreeNode *n = &tree->nodes[node];
      guint32 key = g_array_index (node_keys, guint32, node);
      SpDiffRow *row = &g_array_index (tree->functions, SpDiffRow, n->row);

      row->self_a += n->self_a;
      row->self_b += n->self_b;
      if (on_path[key] == 0)
        {
          row->total_a += n->total_a;
          row->total_b += n->total_b;
        }
      if (n->first_child != SP_DIFF_TREE_NONE)
        {
          /* Down: this node is on the path of its descendants. */
          on_path[key]++;
          g_array_append_val (stack, node);
          node = n->first_child;
          continue;
        }
      /* Across, or up until a node has a next sibling. */
      while (tree->nodes[node].next_sibling == SP_DIFF_TREE_NONE && stack->len > 0)
        {
          node = g_array_index (stack, guint32, stack->len - 1);
          g_array_set_size (stack, stack->len - 1);
          on_path[g_array_index (node_keys, guint32, node)]--;
        }
      node = tree->nodes[node].next_sibling;
    }
}

static void
normalize (SpDiffTree *tree,
           double unit_a,
           double unit_b)
{
  tree->max_change = 0;
  for (guint i = 0; i < tree->n_nodes; i++)
    {
      SpDiffTreeNode *n = &tree->nodes[i];

      n->self_value_a = (double) n->self_a * unit_a;
      n->total_value_a = (double) n->total_a * unit_a;
      n->self_value_b = (double) n->self_b * unit_b;
      n->total_value_b = (double) n->total_b * unit_b;
      n->delta = n->total_value_b - n->total_value_a;
      if (i > 0)
        tree->max_change = MAX (tree->max_change, fabs (n->delta));
    }
}

static gint
compare_rows_at (gconstpointer x,
                 gconstpointer y,
                 gpointer data)
{
  const GArray *rows = data;

  return sp_diff_row_compare (&g_array_index (rows, SpDiffRow, *(const guint32 *) x),
                         &g_array_index (rows, SpDiffRow, *(const guint32 *) y));
}

/* The function rows normalized and sorted by the size of the change;
 * nodes follow their rows to the new places. */
static void
normalize_functions (SpDiffTree *tree,
                     double unit_a,
                     double unit_b)
{
  guint n = tree->functions->len;
  g_autoptr (GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  g_autofree guint32 *place = g_new (guint32, MAX (n, 1));
  GArray *sorted = g_array_sized_new (FALSE, FALSE, sizeof (SpDiffRow), n);

  for (guint32 i = 0; i < n; i++)
    {
      sp_diff_row_normalize (&g_array_index (tree->functions, SpDiffRow, i), unit_a, unit_b);
      g_array_append_val (order, i);
    }
  g_array_sort_with_data (order, compare_rows_at, tree->functions);
  for (guint i = 0; i < n; i++)
    {
      guint32 from = g_array_index (order, guint32, i);

      g_array_append_val (sorted, g_array_index (tree->functions, SpDiffRow, from));
      place[from] = i;
    }
  for (guint i = 1; i < tree->n_nodes; i++)
    tree->nodes[i].row = place[tree->nodes[i].row];
  g_array_unref (tree->functions);
  tree->functions = sorted;
}

SpDiffTree *
sp_diff_tree_new (const SpDiffTreeSide *a,
                  const SpDiffTreeSide *b,
                  SpDiffNormalize normalize_as,
                  GHashTable *module_map)
{
  SpDiffTree *tree = g_atomic_rc_box_new0 (SpDiffTree);
  SpDiffTreeNode root = { .name = "", .module = "", .parent = SP_DIFF_TREE_NONE, .row = SP_DIFF_TREE_NONE,
                          .function_a = SP_DIFF_NONE, .function_b = SP_DIFF_NONE };
  guint32 no_key = G_MAXUINT32;
  Builder builder = { tree, g_array_new (FALSE, FALSE, sizeof (SpDiffTreeNode)),
                      g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
                      g_array_new (FALSE, FALSE, sizeof (guint32)),
                      NULL, 0, g_array_new (FALSE, FALSE, sizeof (guint32)), module_map };
  gsize slots = 16;

  /* At most every node of both trees is a merged node; half full at most. */
  while (slots < 2 * ((gsize) a->tree->n_nodes + b->tree->n_nodes))
    slots *= 2;
  builder.children = g_new (ChildSlot, slots);
  memset (builder.children, 0xff, slots * sizeof (ChildSlot));
  builder.children_mask = slots - 1;

  tree->functions = g_array_new (FALSE, FALSE, sizeof (SpDiffRow));
  tree->strings = g_string_chunk_new (4096);
  tree->normalize = normalize_as;
  g_array_append_val (builder.nodes, root);
  g_array_append_val (builder.node_keys, no_key);
  add_side (&builder, a, FALSE);
  add_side (&builder, b, TRUE);
  tree->n_nodes = builder.nodes->len;
  tree->nodes = (SpDiffTreeNode *) g_array_free (builder.nodes, FALSE);
  tree->total_a = tree->nodes[0].total_a;
  tree->total_b = tree->nodes[0].total_b;
  normalize (tree, unit_of (a, normalize_as), unit_of (b, normalize_as));
  link_children (tree);
  count_functions (tree, builder.node_keys);
  normalize_functions (tree, unit_of (a, normalize_as), unit_of (b, normalize_as));
  g_hash_table_unref (builder.key_ids);
  g_free (builder.children);
  g_array_unref (builder.key_rows);
  g_array_unref (builder.node_keys);
  return tree;
}

GArray *
sp_diff_tree_get_children (const SpDiffTree *tree,
                           guint32 node)
{
  GArray *children = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 c = tree->nodes[node].first_child; c != SP_DIFF_TREE_NONE; c = tree->nodes[c].next_sibling)
    g_array_append_val (children, c);
  return children;
}

SpCallTree *
sp_diff_tree_after_shape (const SpDiffTree *tree,
                          const SpCallTree *b_tree,
                          guint32 **to_diff)
{
  SpCallTree *shape = g_new0 (SpCallTree, 1);
  g_autofree guint32 *to_shape = g_new (guint32, tree->n_nodes);
  guint32 *back = g_new (guint32, tree->n_nodes);
  guint n = 0;

  shape->nodes = g_new0 (SpCallTreeNode, tree->n_nodes);
  for (guint i = 0; i < tree->n_nodes; i++)
    {
      const SpDiffTreeNode *d = &tree->nodes[i];
      SpCallTreeNode *node;

      to_shape[i] = SP_CALL_TREE_NONE;
      /* The root always; others where B has samples (their parents do). */
      if (i > 0 && d->total_b == 0)
        continue;
      node = &shape->nodes[n];
      node->function = i > 0 ? d->function_b : SP_CALL_TREE_NONE;
      node->parent = i > 0 ? to_shape[d->parent] : SP_CALL_TREE_NONE;
      node->first_child = node->next_sibling = SP_CALL_TREE_NONE;
      node->self = d->self_b;
      node->total = d->total_b;
      back[n] = i;
      to_shape[i] = n++;
    }
  /* Linked backwards so siblings stay in order; then by total. */
  for (guint i = n; i-- > 1;)
    {
      SpCallTreeNode *parent = &shape->nodes[shape->nodes[i].parent];

      shape->nodes[i].next_sibling = parent->first_child;
      parent->first_child = i;
      parent->n_children++;
    }
  shape->n_nodes = n;
  shape->bottom_up = FALSE;
  shape->n_functions = b_tree->n_functions;
  shape->metric = b_tree->metric;
  sp_call_tree_sort_children (shape);
  *to_diff = back;
  return shape;
}

/* ---- On a worker ---------------------------------------------------------- */

typedef struct {
  SpDiffTreeSide   a;
  SpDiffTreeSide   b;
  SpDiffNormalize  normalize;
  gboolean         map_modules;
} BuildJob;

static void
build_job_free (BuildJob *job)
{
  sp_call_tree_free ((SpCallTree *) job->a.tree);
  sp_call_tree_free ((SpCallTree *) job->b.tree);
  sp_profile_unref (job->a.profile);
  sp_profile_unref (job->b.profile);
  g_free (job);
}

static void
build_thread (GTask *task,
              gpointer source_object,
              gpointer task_data,
              GCancellable *cancellable)
{
  BuildJob *job = task_data;
  g_autoptr (GHashTable) map = job->map_modules ? sp_diff_module_map (job->a.profile, job->b.profile) : NULL;
  SpDiffTree *tree = sp_diff_tree_new (&job->a, &job->b, job->normalize, map);

  tree->after = sp_diff_tree_after_shape (tree, job->b.tree, &tree->after_to_diff);
  g_task_return_pointer (task, tree, (GDestroyNotify) sp_diff_tree_unref);
}

void
sp_diff_tree_build_async (const SpDiffTreeSide *a,
                          const SpDiffTreeSide *b,
                          SpDiffNormalize normalize_as,
                          gboolean map_modules,
                          GCancellable *cancellable,
                          GAsyncReadyCallback callback,
                          gpointer user_data)
{
  BuildJob *job = g_new0 (BuildJob, 1);
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  job->a = *a;
  job->b = *b;
  sp_profile_ref (a->profile);
  sp_profile_ref (b->profile);
  job->normalize = normalize_as;
  job->map_modules = map_modules;
  g_task_set_task_data (task, job, (GDestroyNotify) build_job_free);
  g_task_run_in_thread (task, build_thread);
}

SpDiffTree *
sp_diff_tree_build_finish (GAsyncResult *result,
                           GError **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
clear_tree (gpointer data)
{
  SpDiffTree *tree = data;

  g_free (tree->nodes);
  g_array_unref (tree->functions);
  g_string_chunk_free (tree->strings);
  g_clear_pointer (&tree->after, sp_call_tree_free);
  g_free (tree->after_to_diff);
}

SpDiffTree *
sp_diff_tree_ref (SpDiffTree *tree)
{
  return g_atomic_rc_box_acquire (tree);
}

void
sp_diff_tree_unref (SpDiffTree *tree)
{
  if (tree != NULL)
    g_atomic_rc_box_release_full (tree, clear_tree);
}
