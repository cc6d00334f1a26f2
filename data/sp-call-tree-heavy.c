/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-call-tree-heavy.c: the top-down tree's heavy nodes alone.
 *
 * A report prints the nodes that hold at least a share of the samples
 * (0.5% by default): a few hundred of a deep recording's hundreds of
 * thousands. Building every node to print those few was two thirds of
 * `stackpulse-report tree`. Here the reader's stack nodes (a trie: each a
 * frame and its caller's node) are summed from the leaves up, once; then
 * the tree grows from the root, and a node's children are grouped by
 * function and weighed before any of them is made, so that only heavy
 * nodes are built and only the frames next to them resolved.
 *
 * A tree node stands for a set of items. An item is a stack node's frame,
 * read exact (the leaf, or a user frame right under a kernel one) or as a
 * caller (a return address), of which the first `depth` functions,
 * outermost first (more than one where calls were inlined), lead to the
 * node; its weight is the samples through it read that way. Counted stacks
 * without a stack node (the synthetic ones of time metrics), and those
 * with a frame each pid may name apart, are items of their whole path. The shape is the one sp-call-tree.c builds: a stack
 * node's path is its caller's, read exact when the stack node is a kernel
 * frame over a user one, then its own frame's functions. */
#include "sp-call-tree.h"

#include <math.h>
#include <string.h>

#include "sp-profile-private.h"

/* sp-call-tree.c reads at most this many functions of one frame. */
#define FRAME_FUNCTIONS_MAX 64

typedef struct {
  guint32 id;            /* stack node, or index into Heavy.paths */
  guint32 next_function; /* the function after the depth consumed */
  guint32 depth;
  guint8  exact;
  guint8  is_path;
  guint64 weight;
} Item;

typedef struct {
  guint   offset;        /* into Heavy.path_functions, root first */
  guint   len;
  guint64 weight;
} Path;

typedef struct {
  SpProfile         *profile;
  const SpStackNode *stack_nodes;
  gsize              n_stack_nodes;
  guint32           *under;        /* per stack node: its samples and those of every stack above it
                                    * (32 bits: a query whose total does not fit takes the whole tree) */
  guint32           *first_child;  /* per stack node: the trie, children linked */
  guint32           *next_sibling;
  guint32            first_root;   /* the stack nodes without a caller */
  GArray            *paths;        /* Path */
  GArray            *path_functions;
  GArray            *items;        /* Item: the items of the nodes on the way down, one range each */
  GArray            *nodes;        /* SpCallTreeNode */
  guint64            min_total;
} Heavy;

typedef struct {
  guint32 function;
  guint64 total;
  guint   first;    /* its items: [first, first + n) */
  guint   n;
} Group;

/* The functions of stack node s's frame, at most FRAME_FUNCTIONS_MAX.
 * Never a frame that each pid names apart: the stacks with one are
 * paths (sum_stack_nodes), and no stack node above one carries weight. */
static guint
frame_functions (Heavy *h,
                 guint32 s,
                 gboolean exact,
                 const guint32 **functions)
{
  return MIN (sp_profile_get_frame_functions (h->profile, h->stack_nodes[s].frame_id, 0, exact, functions),
              FRAME_FUNCTIONS_MAX);
}

/* Whether child d of stack node s reads s exact (d kernel, s user). */
static gboolean
reads_exact (Heavy *h,
             guint32 d,
             guint32 s)
{
  return sp_profile_frame_is_exact (h->profile, h->stack_nodes[d].frame_id, h->stack_nodes[s].frame_id);
}

/* The samples through stack node s read exact (its own, and those of
 * the children that read it exact) and as a caller (the rest). */
static void
split_weight (Heavy *h,
              guint32 s,
              guint64 *exact,
              guint64 *caller)
{
  *exact = h->under[s];
  *caller = 0;
  for (guint32 d = h->first_child[s]; d != SP_SPOOL_NO_ID; d = h->next_sibling[d])
    if (!reads_exact (h, d, s))
      {
        *exact -= h->under[d];
        *caller += h->under[d];
      }
}

static void add_stack_node (Heavy *h,
                            guint32 s,
                            gboolean exact,
                            guint depth,
                            guint64 weight,
                            guint64 *self);

/* What continues past stack node s's frame, read exact or not: its
 * children that read it that way, each in the ways it is read. */
static void
add_children (Heavy *h,
              guint32 first,
              gint exact_parent,
              guint64 *self)
{
  for (guint32 d = first; d != SP_SPOOL_NO_ID; d = h->next_sibling[d])
    {
      guint64 exact, caller;

      if (exact_parent >= 0 && reads_exact (h, d, h->stack_nodes[d].prefix) != exact_parent)
        continue;
      split_weight (h, d, &exact, &caller);
      if (exact > 0)
        add_stack_node (h, d, TRUE, 0, exact, self);
      if (caller > 0)
        add_stack_node (h, d, FALSE, 0, caller, self);
    }
}

/* Adds an item to the node being filled; a frame whose functions are all
 * consumed is replaced by what continues past it, and a leaf's own
 * samples go to self. */
static void
add_stack_node (Heavy *h,
                guint32 s,
                gboolean exact,
                guint depth,
                guint64 weight,
                guint64 *self)
{
  const guint32 *functions;
  guint n = frame_functions (h, s, exact, &functions);
  guint64 children = 0;

  if (depth < n)
    {
      Item item = { s, functions[n - 1 - depth], depth, exact, FALSE, weight };

      g_array_append_val (h->items, item);
      return;
    }
  if (exact)
    {
      for (guint32 d = h->first_child[s]; d != SP_SPOOL_NO_ID; d = h->next_sibling[d])
        children += h->under[d];
      *self += h->under[s] - children;
    }
  add_children (h, h->first_child[s], exact, self);
}

static void
add_path (Heavy *h,
          guint32 index,
          guint depth,
          guint64 weight,
          guint64 *self)
{
  const Path *path = &g_array_index (h->paths, Path, index);

  if (depth < path->len)
    {
      Item item = { index, g_array_index (h->path_functions, guint32, path->offset + depth), depth, FALSE, TRUE,
                    weight };

      g_array_append_val (h->items, item);
    }
  else
    *self += weight;
}

static gint
compare_groups (gconstpointer a,
                gconstpointer b)
{
  const Group *x = a;
  const Group *y = b;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return x->function < y->function ? -1 : x->function > y->function;
}

static gint
compare_items_by_function (gconstpointer a,
                           gconstpointer b)
{
  const Item *x = a;
  const Item *y = b;

  return x->next_function < y->next_function ? -1 : x->next_function > y->next_function;
}

/* The heavy groups of the items in [start, end), by total (largest
 * first, equal totals by function id: the order sp-call-tree.c links
 * children in). The items are sorted by function first, so that each
 * group is a run of them: a parent with tens of thousands of children
 * would otherwise have its items scanned once per child kept. */
static GArray *
heavy_groups (Heavy *h,
              guint start,
              guint end)
{
  GArray *groups = g_array_new (FALSE, FALSE, sizeof (Group));
  Item *items = (Item *) (gpointer) h->items->data;

  if (end > start)
    qsort (items + start, end - start, sizeof (Item), compare_items_by_function);
  for (guint i = start; i < end;)
    {
      Group group = { items[i].next_function, 0, i, 0 };

      for (; i < end && items[i].next_function == group.function; i++)
        {
          group.total += items[i].weight;
          group.n++;
        }
      if (group.total >= h->min_total)
        g_array_append_val (groups, group);
    }
  g_array_sort (groups, compare_groups);
  return groups;
}

/* Makes the heavy children of node, whose items are [start, end), and
 * theirs. Each child's items are appended after end while it grows. */
static void
grow (Heavy *h,
      guint32 node,
      guint start,
      guint end)
{
  g_autoptr (GArray) groups = heavy_groups (h, start, end);
  guint32 last = SP_CALL_TREE_NONE;

  for (guint g = 0; g < groups->len; g++)
    {
      const Group *group = &g_array_index (groups, Group, g);
      SpCallTreeNode child = { group->function, node, SP_CALL_TREE_NONE, SP_CALL_TREE_NONE, 0, 0, group->total };
      guint32 id = h->nodes->len;

      for (guint i = group->first; i < group->first + group->n; i++)
        {
          Item item = g_array_index (h->items, Item, i);

          if (item.is_path)
            add_path (h, item.id, item.depth + 1, item.weight, &child.self);
          else
            add_stack_node (h, item.id, item.exact, item.depth + 1, item.weight, &child.self);
        }
      g_array_append_val (h->nodes, child);
      if (last == SP_CALL_TREE_NONE)
        g_array_index (h->nodes, SpCallTreeNode, node).first_child = id;
      else
        g_array_index (h->nodes, SpCallTreeNode, last).next_sibling = id;
      g_array_index (h->nodes, SpCallTreeNode, node).n_children++;
      last = id;
      grow (h, id, end, h->items->len);
      g_array_set_size (h->items, end);
    }
}

/* Sums the counted stacks into the trie, from the leaves up (a stack
 * node comes after its caller's), and links each node's children. Stacks
 * without a stack node become paths, and so do those with a frame that
 * each pid may name differently (a user frame without a module: the JIT
 * map and the spool's module lookup go by pid) anywhere in their chain:
 * the trie's sums are the same for every pid. */
static void
sum_stack_nodes (Heavy *h,
                 SpStackCounts *counts)
{
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  gsize n_frames = sp_spool_reader_get_n_frames (sp_profile_get_reader (h->profile));
  g_autofree guint8 *frame_per_pid = g_new (guint8, MAX (n_frames, 1));
  g_autofree guint8 *per_pid = g_new (guint8, MAX (h->n_stack_nodes, 1));

  h->under = g_new0 (guint32, MAX (h->n_stack_nodes, 1));
  h->first_child = g_new (guint32, MAX (h->n_stack_nodes, 1));
  h->next_sibling = g_new (guint32, MAX (h->n_stack_nodes, 1));
  memset (h->first_child, 0xff, h->n_stack_nodes * sizeof (guint32));
  for (gsize f = 0; f < n_frames; f++)
    frame_per_pid[f] = sp_profile_frame_depends_on_pid (h->profile, (guint32) f);
  for (gsize s = 0; s < h->n_stack_nodes; s++)
    {
      guint32 prefix = h->stack_nodes[s].prefix;

      per_pid[s] = (prefix != SP_SPOOL_NO_ID && per_pid[prefix]) || frame_per_pid[h->stack_nodes[s].frame_id];
    }
  for (guint i = 0; i < counts->stacks->len; i++)
    {
      const SpStackCount *stack = &g_array_index (counts->stacks, SpStackCount, i);

      if (stack->stack < h->n_stack_nodes && !per_pid[stack->stack])
        {
          h->under[stack->stack] += (guint32) stack->count;
          continue;
        }
      g_array_set_size (path, 0);
      sp_stack_path (h->profile, stack->stack, stack->pid, path);
      g_array_append_val (h->paths, ((Path) { h->path_functions->len, path->len, stack->count }));
      g_array_append_vals (h->path_functions, path->data, path->len);
    }
  h->first_root = SP_SPOOL_NO_ID;
  for (gsize s = h->n_stack_nodes; s-- > 0;)
    {
      guint32 prefix = h->stack_nodes[s].prefix;
      guint32 *first = prefix == SP_SPOOL_NO_ID ? &h->first_root : &h->first_child[prefix];

      if (prefix != SP_SPOOL_NO_ID)
        h->under[prefix] += h->under[s];
      h->next_sibling[s] = *first;
      *first = (guint32) s;
    }
}

/* The root and its items: every stack node without a caller, every path. */
static guint64
grow_root (Heavy *h,
           SpStackCounts *counts)
{
  SpCallTreeNode root = { SP_CALL_TREE_NONE, SP_CALL_TREE_NONE, SP_CALL_TREE_NONE, SP_CALL_TREE_NONE, 0, 0, 0 };

  g_array_append_val (h->nodes, root);
  add_children (h, h->first_root, -1, &g_array_index (h->nodes, SpCallTreeNode, 0).self);
  for (guint p = 0; p < h->paths->len; p++)
    add_path (h, p, 0, g_array_index (h->paths, Path, p).weight, &g_array_index (h->nodes, SpCallTreeNode, 0).self);
  g_array_index (h->nodes, SpCallTreeNode, 0).total = counts->total;
  return counts->total;
}

static void
heavy_clear (Heavy *h)
{
  g_free (h->under);
  g_free (h->first_child);
  g_free (h->next_sibling);
  g_array_unref (h->paths);
  g_array_unref (h->path_functions);
  g_array_unref (h->items);
  if (h->nodes != NULL)
    g_array_unref (h->nodes);
}

SpCallTree *
sp_call_tree_new_heavy (SpProfile *profile,
                        const SpFilter *filter,
                        SpStackCounts *counts,
                        double min_share)
{
  g_autoptr (SpStackCounts) own_counts = NULL;
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  Heavy h = {
    .profile = profile,
    .stack_nodes = sp_spool_reader_get_stack_nodes (reader),
    .n_stack_nodes = sp_spool_reader_get_n_stack_nodes (reader),
    .paths = g_array_new (FALSE, FALSE, sizeof (Path)),
    .path_functions = g_array_new (FALSE, FALSE, sizeof (guint32)),
    .items = g_array_new (FALSE, FALSE, sizeof (Item)),
    .nodes = g_array_new (FALSE, FALSE, sizeof (SpCallTreeNode)),
  };
  SpCallTree *tree;
  guint64 total;

  if (counts == NULL)
    counts = own_counts = sp_stack_counts_new (profile, filter);
  /* Transforms rewrite whole paths: only the whole tree has them. The
   * sums are 32-bit (a time metric over 4.3 s does not fit). */
  if ((filter != NULL && filter->transforms->len > 0) || counts->total > G_MAXUINT32)
    {
      heavy_clear (&h);
      return sp_call_tree_new (profile, filter, counts, FALSE);
    }
  sum_stack_nodes (&h, counts);
  total = grow_root (&h, counts);
  h.min_total = sp_call_tree_min_total (min_share, total);
  grow (&h, 0, 0, h.items->len);
  tree = g_new0 (SpCallTree, 1);
  tree->n_nodes = h.nodes->len;
  tree->nodes = (SpCallTreeNode *) g_array_free (g_steal_pointer (&h.nodes), FALSE);
  tree->n_functions = sp_profile_get_n_functions (profile);
  tree->metric = filter != NULL ? filter->metric : SP_METRIC_CPU;
  heavy_clear (&h);
  return tree;
}

guint64
sp_call_tree_min_total (double min_share,
                        guint64 total)
{
  /* Less a millionth: a share that is a whole count in decimal (0.5% of
   * 1000) may come out a hair above it in binary. */
  double count = ceil (min_share * (double) total - 1e-6);

  return count > 1 ? (guint64) count : 1;
}
