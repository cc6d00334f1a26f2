/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-call-tree.c: inserting paths, with a memo per stack node.
 *
 * Without transforms, the top-down tree node of a stack node depends on
 * that stack node alone, for chains that resolve the same whatever the
 * sample's pid: each stack node is folded into the tree once and shared by
 * every stack above it. That shape does not depend on which samples count
 * either, so it is kept in the profile (a skeleton) and each top-down query
 * only weighs its nodes and copies out the ones with samples. Everything
 * else (bottom-up trees, transforms) inserts whole paths into a fresh tree. */
#include "sp-call-tree.h"

#include <gio/gio.h>

#include "sp-intern-table.h"
#include "sp-profile-private.h"
#include "sp-skeleton-plan-private.h"

#define UNSET G_MAXUINT32

/* What the builder knows of a stack node, together: a tree visits stack
 * nodes in no order, so each is one cache miss rather than four (the
 * reader's node, two memos, the pid flag). */
typedef struct {
  guint32 prefix;
  guint32 frame_id;
  guint32 caller;    /* as a caller -> tree node */
  guint32 exact;     /* exact (a leaf) -> tree node */
  guint32 pid_free;  /* its chain: 0 unknown, 1 depends on pid, 2 does not */
} StackMemo;

/* A node as the builder links it; the weights are apart (a skeleton has
 * none: each query weighs it anew), so that twice as many nodes as
 * SpCallTreeNodes stay in the cache while children are looked up. */
typedef struct {
  guint32 function;
  guint32 parent;
  guint32 first_child;
  guint32 next_sibling;
  guint32 n_children;
} ShapeNode;

typedef struct {
  SpProfile         *profile;
  GArray            *nodes;      /* ShapeNode */
  GArray            *self;       /* guint64 per node, for a fresh tree (not a skeleton) */
  GArray            *total;      /* guint64 per node, likewise */
  SpInternTable      wide;       /* (parent << 32 | function) of the children of wide parents */
  GArray            *wide_nodes; /* guint32: key i of wide -> its node */
  guint32           *pending;    /* stack nodes to descend: a stack, each call pops what it pushed */
  gsize              n_pending;
  gsize              pending_size;
  StackMemo         *memo;       /* per stack node */
  gsize              n_memo;     /* stack nodes memo covers */
  gboolean           weighed;    /* a skeleton that has been weighed once */
} Builder;

struct _SpTreeSkeleton
{
  Builder builder;
};

/* A parent with more children than this has them in the hash table;
 * below it, walking the short list (most nodes have one to three
 * children) is cheaper than a hash lookup, which misses the cache. */
#define LIST_WALK_MAX 8

static guint32
find_child (Builder *b,
            guint32 parent,
            guint32 function)
{
  const ShapeNode *nodes = (const ShapeNode *) b->nodes->data;
  guint64 key = (guint64) parent << 32 | function;
  gint64 index;

  if (nodes[parent].n_children <= LIST_WALK_MAX)
    {
      for (guint32 c = nodes[parent].first_child; c != SP_CALL_TREE_NONE; c = nodes[c].next_sibling)
        if (nodes[c].function == function)
          return c;
      return SP_CALL_TREE_NONE;
    }
  index = sp_intern_table_lookup (&b->wide, &key);
  return index < 0 ? SP_CALL_TREE_NONE : g_array_index (b->wide_nodes, guint32, index);
}

static void
index_child (Builder *b,
             guint32 parent,
             guint32 child)
{
  guint64 key = (guint64) parent << 32 | g_array_index (b->nodes, ShapeNode, child).function;
  bool added;

  if (sp_intern_table_intern (&b->wide, &key, &added) < 0)
    g_error ("out of memory building a call tree");
  g_array_append_val (b->wide_nodes, child);
}

/* Nodes are numbered in the order they come; the parent's list gets the
 * new child in front. A parent that grows past LIST_WALK_MAX gets all its
 * children indexed. */
static guint32
child_of (Builder *b,
          guint32 parent,
          guint32 function)
{
  ShapeNode node = { function, parent, SP_CALL_TREE_NONE, SP_CALL_TREE_NONE, 0 };
  guint32 id = find_child (b, parent, function);
  ShapeNode *p;

  if (id != SP_CALL_TREE_NONE)
    return id;
  if (b->nodes->len >= SP_CALL_TREE_NONE - 1)
    g_error ("out of memory building a call tree");
  id = b->nodes->len;
  p = &g_array_index (b->nodes, ShapeNode, parent);
  node.next_sibling = p->first_child;
  p->first_child = id;
  p->n_children++;
  g_array_append_val (b->nodes, node);
  p = &g_array_index (b->nodes, ShapeNode, parent);
  if (p->n_children == LIST_WALK_MAX + 1)
    for (guint32 c = p->first_child; c != SP_CALL_TREE_NONE; c = g_array_index (b->nodes, ShapeNode, c).next_sibling)
      index_child (b, parent, c);
  else if (p->n_children > LIST_WALK_MAX + 1)
    index_child (b, parent, id);
  return id;
}

/* Nodes holds the root alone. */
static void
builder_init (Builder *b)
{
  ShapeNode root = { SP_CALL_TREE_NONE, SP_CALL_TREE_NONE, SP_CALL_TREE_NONE, SP_CALL_TREE_NONE, 0 };

  b->nodes = g_array_new (FALSE, FALSE, sizeof (ShapeNode));
  g_array_append_val (b->nodes, root);
  sp_intern_table_init (&b->wide, 1);
  b->wide_nodes = g_array_new (FALSE, FALSE, sizeof (guint32));
}

/* Everything but nodes, which the tree may take. */
static void
builder_clear_scratch (Builder *b)
{
  sp_intern_table_clear (&b->wide);
  g_clear_pointer (&b->wide_nodes, g_array_unref);
  g_clear_pointer (&b->self, g_array_unref);
  g_clear_pointer (&b->total, g_array_unref);
  g_clear_pointer (&b->pending, g_free);
}

/* Descends from node along functions[], outermost at the end (the order
 * frames give them) when inner_first, else outermost first. */
static guint32
descend (Builder *b,
         guint32 node,
         const guint32 *functions,
         guint n,
         gboolean inner_first)
{
  for (guint i = 0; i < n; i++)
    node = child_of (b, node, functions[inner_first ? n - 1 - i : i]);
  return node;
}

/* Pushed per stack node visited: no call into GLib on that path. */
static inline void
push_pending (Builder *b,
              guint32 node)
{
  if (b->n_pending == b->pending_size)
    {
      b->pending_size = MAX (b->pending_size * 2, 256);
      b->pending = g_renew (guint32, b->pending, b->pending_size);
    }
  b->pending[b->n_pending++] = node;
}

/* Whether every frame from node to the root resolves the same for every
 * pid; computed root-down so each node is looked at once. */
static gboolean
chain_is_pid_free (Builder *b,
                   guint32 node)
{
  gsize base = b->n_pending;
  gboolean free_above = TRUE;

  for (guint32 n = node; n != SP_SPOOL_NO_ID; n = b->memo[n].prefix)
    {
      if (b->memo[n].pid_free != 0)
        {
          free_above = b->memo[n].pid_free == 2;
          break;
        }
      push_pending (b, n);
    }
  for (gsize i = b->n_pending; i-- > base;)
    {
      guint32 n = b->pending[i];

      free_above = free_above && !sp_profile_frame_depends_on_pid (b->profile, b->memo[n].frame_id);
      b->memo[n].pid_free = free_above ? 2 : 1;
    }
  b->n_pending = base;
  return node == SP_SPOOL_NO_ID || b->memo[node].pid_free == 2;
}

/* Along the functions of a frame (at most 64). They are read in place:
 * descend resolves no frame, so the profile's array does not move. */
static guint32
descend_frame (Builder *b,
               guint32 node,
               guint32 frame_id,
               gint32 pid,
               gboolean is_exact)
{
  const guint32 *functions;
  guint n = sp_profile_get_frame_functions (b->profile, frame_id, pid, is_exact, &functions);

  return descend (b, node, functions, MIN (n, 64), TRUE);
}

static guint32 exact_node (Builder *b,
                           guint32 node,
                           gint32 pid);

/* Whether the frame of stack node prefix, the caller of inner's, is
 * exact (a user frame under a kernel one: sp_profile_frame_is_exact). */
static gboolean
prefix_is_exact (Builder *b,
                 guint32 inner,
                 guint32 prefix)
{
  return sp_profile_frame_is_exact (b->profile, b->memo[inner].frame_id, b->memo[prefix].frame_id);
}

/* The tree node of stack node `node` as a caller (its address a return
 * address), memoized. A caller under it that is exact is a leaf's node. */
static guint32
caller_node (Builder *b,
             guint32 node,
             gint32 pid)
{
  gsize base = b->n_pending;
  guint32 tree = 0;

  if (node == SP_SPOOL_NO_ID)
    return 0;
  if (b->memo[node].caller != UNSET)
    return b->memo[node].caller;
  for (guint32 n = node; n != SP_SPOOL_NO_ID; n = b->memo[n].prefix)
    {
      guint32 prefix = b->memo[n].prefix;

      if (b->memo[n].caller != UNSET)
        {
          tree = b->memo[n].caller;
          break;
        }
      push_pending (b, n);
      if (prefix != SP_SPOOL_NO_ID && prefix_is_exact (b, n, prefix))
        {
          tree = exact_node (b, prefix, pid);
          break;
        }
    }
  for (gsize i = b->n_pending; i-- > base;)
    {
      guint32 n = b->pending[i];

      tree = descend_frame (b, tree, b->memo[n].frame_id, pid, FALSE);
      b->memo[n].caller = tree;
    }
  b->n_pending = base;
  return tree;
}

/* The tree node of stack node `node` with its address exact (as a leaf,
 * or a user frame under a kernel one), memoized. */
static guint32
exact_node (Builder *b,
            guint32 node,
            gint32 pid)
{
  guint32 prefix = b->memo[node].prefix;
  guint32 outside;

  if (b->memo[node].exact != UNSET)
    return b->memo[node].exact;
  if (prefix == SP_SPOOL_NO_ID)
    outside = 0;
  else if (prefix_is_exact (b, node, prefix))
    outside = exact_node (b, prefix, pid);
  else
    outside = caller_node (b, prefix, pid);
  b->memo[node].exact = descend_frame (b, outside, b->memo[node].frame_id, pid, TRUE);
  return b->memo[node].exact;
}

typedef struct {
  Builder  *b;
  gboolean  bottom_up;
} PathInsert;

/* A fresh tree's weights, as many as its nodes (new ones weigh 0). */
static void
weights_follow_nodes (Builder *b)
{
  if (b->self == NULL)
    {
      b->self = g_array_new (FALSE, TRUE, sizeof (guint64));
      b->total = g_array_new (FALSE, TRUE, sizeof (guint64));
    }
  if (b->self->len < b->nodes->len)
    {
      g_array_set_size (b->self, b->nodes->len);
      g_array_set_size (b->total, b->nodes->len);
    }
}

/* Tree nodes of shape and weights (NULL: 0), numbered and linked alike. */
static SpCallTreeNode *
weighed_nodes (const ShapeNode *shape,
               guint n,
               const guint64 *self,
               const guint64 *total)
{
  SpCallTreeNode *nodes = g_new (SpCallTreeNode, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    nodes[i] = (SpCallTreeNode) { shape[i].function,     shape[i].parent,     shape[i].first_child,
                                  shape[i].next_sibling, shape[i].n_children, self != NULL ? self[i] : 0,
                                  total != NULL ? total[i] : 0 };
  return nodes;
}

static void
insert_path (const guint32 *path,
             guint n,
             const SpStackCount *stack,
             gpointer user_data)
{
  PathInsert *insert = user_data;
  Builder *b = insert->b;
  guint32 node;

  if (path == NULL)
    return;
  node = descend (b, 0, path, n, insert->bottom_up);
  weights_follow_nodes (b);
  if (insert->bottom_up)
    {
      const ShapeNode *nodes = (const ShapeNode *) b->nodes->data;
      guint32 leaf;

      /* Every node on an inverted path is passed through; the first one
       * (the leaf function) is where the sample's own time is. */
      for (guint32 up = node; up != 0; up = nodes[up].parent)
        g_array_index (b->total, guint64, up) += stack->count;
      leaf = descend (b, 0, path + n - 1, 1, FALSE);
      weights_follow_nodes (b);
      g_array_index (b->self, guint64, leaf) += stack->count;
    }
  else
    g_array_index (b->self, guint64, node) += stack->count;
}

/* The memo follows the stack nodes (a followed spool grows). */
static void
cover_stack_nodes (Builder *b)
{
  const SpSpoolReader *reader = sp_profile_get_reader (b->profile);
  gsize n_nodes = sp_spool_reader_get_n_stack_nodes (reader);
  const SpStackNode *stack_nodes = sp_spool_reader_get_stack_nodes (reader);

  if (n_nodes <= b->n_memo)
    return;
  b->memo = g_renew (StackMemo, b->memo, n_nodes);
  for (gsize i = b->n_memo; i < n_nodes; i++)
    b->memo[i] = (StackMemo) { stack_nodes[i].prefix, stack_nodes[i].frame_id, UNSET, UNSET, 0 };
  b->n_memo = n_nodes;
}

static Builder *
skeleton_of (SpProfile *profile)
{
  SpTreeSkeleton **slot = _sp_profile_get_skeleton_slot (profile);

  if (*slot == NULL)
    {
      *slot = g_new0 (SpTreeSkeleton, 1);
      (*slot)->builder.profile = profile;
      builder_init (&(*slot)->builder);
    }
  cover_stack_nodes (&(*slot)->builder);
  return &(*slot)->builder;
}

void
_sp_tree_skeleton_free (SpTreeSkeleton *skeleton)
{
  if (skeleton == NULL)
    return;
  g_array_unref (skeleton->builder.nodes);
  builder_clear_scratch (&skeleton->builder);
  g_free (skeleton->builder.memo);
  g_free (skeleton);
}

/* The skeleton node of a counted stack. */
static guint32
stack_node_in (Builder *b,
               const SpStackCount *stack,
               GArray *path)
{
  /* The synthetic stacks of time metrics have no stack node. */
  if (stack->stack >= b->n_memo || !chain_is_pid_free (b, stack->stack))
    {
      g_array_set_size (path, 0);
      sp_stack_path (b->profile, stack->stack, stack->pid, path);
      return descend (b, 0, (const guint32 *) path->data, path->len, FALSE);
    }
  return exact_node (b, stack->stack, stack->pid);
}

/* A first skeleton in one pass over the stack nodes, in their order (a
 * prefix comes before the nodes that name it, and most nodes follow their
 * prefix), where the walk up from each counted stack missed the cache at
 * every step: sp-skeleton-plan-private.h. */
/* What the planned pass keeps of a stack node as a caller, apart from the
 * memo (a node's children come in no order, and this is a third of its
 * size): its tree node, and the chain of functions of its last child and
 * the tree node that child got, so that its next child with the same
 * chain (another address in the same function) needs no lookup. */
typedef struct {
  guint32 tree;
  guint32 last_chain;
  guint32 last_child;
} CallerMemo;

/* How many stack nodes ahead a pass asks for what it will read at random. */
#define PREFETCH_AHEAD 16

/* The most nodes build_planned makes room for at once. */
#define PLANNED_ROOM_MAX ((guint) ((G_MAXUINT / 4) / sizeof (ShapeNode)))
#define PREFETCH_NEAR 4

static guint32
planned_descend (Builder *b,
                 CallerMemo *caller,
                 guint32 parent,
                 const SpSkeletonPlan *plan,
                 guint32 key)
{
  guint32 node;

  if (caller != NULL && caller->last_chain == plan->chain[key])
    return caller->last_child;
  node = descend (b, parent, plan->functions[key], plan->n_functions[key], TRUE);
  if (caller != NULL)
    {
      caller->last_chain = plan->chain[key];
      caller->last_child = node;
    }
  return node;
}

static void
build_planned (Builder *b,
               const SpSkeletonPlan *plan)
{
  CallerMemo *callers = (CallerMemo *) plan->scratch;
  guint len = b->nodes->len;

  G_STATIC_ASSERT (sizeof (CallerMemo) == SP_PLAN_SCRATCH * sizeof (guint32));
  /* Room for every node the pass may add, so that the array is not copied
   * as it grows (the pages are touched only as nodes come); up to 1 GB:
   * the pass adds fewer nodes than it descends functions, often half, and
   * a GArray holds at most 4 GB. */
  if (len < PLANNED_ROOM_MAX)
    g_array_set_size (b->nodes, len + MIN (plan->n_calls, PLANNED_ROOM_MAX - len));
  g_array_set_size (b->nodes, len);
  for (gsize n = 0; n < plan->n_nodes; n++)
    {
      guint8 need = plan->need[n];
      StackMemo *m = &b->memo[n];
      guint32 key = m->frame_id * 2;
      CallerMemo *caller = NULL;
      guint32 parent = 0;

      /* The caller a node a few ahead reads, asked for now: most are
       * in no cache, and the reads overlap this node's work. */
      if (n + PREFETCH_AHEAD < plan->n_nodes && b->memo[n + PREFETCH_AHEAD].prefix != SP_SPOOL_NO_ID)
        __builtin_prefetch (&callers[b->memo[n + PREFETCH_AHEAD].prefix]);
      /* And, nearer, the tree node of a caller known by now. */
      if (n + PREFETCH_NEAR < plan->n_nodes && b->memo[n + PREFETCH_NEAR].prefix < n)
        {
          guint32 tree = callers[b->memo[n + PREFETCH_NEAR].prefix].tree;

          if (tree < b->nodes->len)
            __builtin_prefetch (&g_array_index (b->nodes, ShapeNode, tree));
        }
      if (need == 0)
        continue;
      /* Only a node's callers are read before it is written. */
      if (m->prefix != SP_SPOOL_NO_ID && (need & SP_PLAN_UNDER_EXACT))
        parent = b->memo[m->prefix].exact;
      else if (m->prefix != SP_SPOOL_NO_ID)
        {
          caller = &callers[m->prefix];
          parent = caller->tree;
        }
      if (need & SP_PLAN_CALLER)
        {
          m->caller = planned_descend (b, caller, parent, plan, key);
          callers[n] = (CallerMemo) { m->caller, UNSET, UNSET };
        }
      if (need & SP_PLAN_EXACT)
        m->exact = planned_descend (b, caller, parent, plan, key + 1);
      m->pid_free = 2;
    }
}

/* The skeleton as tree nodes, weighed: each counted stack's count on its
 * node (node_of[i] for counts->stacks[i]), totals summed up the tree in
 * one backward pass (children come after their parent). Written straight
 * into the tree's own nodes: no arrays of weights beside them. */
static SpCallTreeNode *
weigh_shape (const ShapeNode *shape,
             guint n_shape,
             const guint32 *node_of,
             const SpStackCounts *counts)
{
  SpCallTreeNode *nodes = weighed_nodes (shape, n_shape, NULL, NULL);

  for (guint i = 0; i < counts->stacks->len; i++)
    nodes[node_of[i]].self += g_array_index (counts->stacks, SpStackCount, i).count;
  for (guint i = n_shape; i-- > 1;)
    {
      nodes[i].total += nodes[i].self;
      nodes[nodes[i].parent].total += nodes[i].total;
    }
  nodes[0].total += nodes[0].self;
  return nodes;
}

/* Drops the nodes without samples (a query that counts part of the
 * recording), in place: parents come before children, so one forward
 * pass renumbers them, each node moving only down, and links each anew
 * (newest first, as the builder does). Returns how many are left. */
static guint
drop_empty (SpCallTreeNode *nodes,
            guint n_nodes)
{
  g_autofree guint32 *renumber = NULL;
  guint first_empty = 1;
  guint n = 0;

  while (first_empty < n_nodes && nodes[first_empty].total > 0)
    first_empty++;
  if (first_empty >= n_nodes)
    return n_nodes;
  renumber = g_new (guint32, n_nodes);
  for (guint i = 0; i < n_nodes; i++)
    {
      SpCallTreeNode node = nodes[i];

      if (i > 0 && node.total == 0)
        continue;
      renumber[i] = n;
      node.parent = i == 0 ? SP_CALL_TREE_NONE : renumber[node.parent];
      node.first_child = SP_CALL_TREE_NONE;
      node.n_children = 0;
      node.next_sibling = i == 0 ? SP_CALL_TREE_NONE : nodes[node.parent].first_child;
      nodes[n] = node;
      if (i > 0)
        {
          nodes[node.parent].first_child = n;
          nodes[node.parent].n_children++;
        }
      n++;
    }
  return n;
}

/* Weighs the skeleton with counts; the tree is its nodes with samples. */
static SpCallTree *
weigh_skeleton (SpProfile *profile,
                SpStackCounts *counts)
{
  Builder *b = skeleton_of (profile);
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint32 *node_of = g_new (guint32, MAX (counts->stacks->len, 1));
  SpCallTree *tree = g_new0 (SpCallTree, 1);
  guint n_shape;

  if (!b->weighed)
    {
      SpSkeletonPlan *plan = _sp_skeleton_plan_new (profile, counts);
      if (plan != NULL)
        build_planned (b, plan);
      _sp_skeleton_plan_free (plan);
      b->weighed = TRUE;
    }
  /* First every stack's node: a stack the plan did not cover adds nodes. */
  for (guint i = 0; i < counts->stacks->len; i++)
    node_of[i] = stack_node_in (b, &g_array_index (counts->stacks, SpStackCount, i), path);
  n_shape = b->nodes->len;
  tree->nodes = weigh_shape ((const ShapeNode *) b->nodes->data, n_shape, node_of, counts);
  tree->n_nodes = drop_empty (tree->nodes, n_shape);
  if (tree->n_nodes < n_shape)
    tree->nodes = g_renew (SpCallTreeNode, tree->nodes, MAX (tree->n_nodes, 1));
  sp_call_tree_sort_children (tree);
  return tree;
}

/* Top-down totals: children come after their parent, so one backward pass
 * adds each node's total into its parent. */
static void
sum_totals (SpCallTreeNode *nodes,
            guint n_nodes)
{
  for (guint i = 0; i < n_nodes; i++)
    nodes[i].total = nodes[i].self;
  for (guint i = n_nodes; i-- > 1;)
    nodes[nodes[i].parent].total += nodes[i].total;
}

static SpCallTree *
build_tree (SpProfile *profile,
            const SpFilter *filter,
            SpStackCounts *counts,
            gboolean bottom_up)
{
  g_autoptr (SpStackCounts) own_counts = NULL;
  Builder b = { profile };
  PathInsert insert = { &b, bottom_up };
  SpCallTree *tree;

  if (counts == NULL)
    counts = own_counts = sp_stack_counts_new (profile, filter);
  if (!bottom_up && (filter == NULL || filter->transforms->len == 0))
    return weigh_skeleton (profile, counts);

  builder_init (&b);
  sp_stack_counts_foreach_path (counts, profile, filter, insert_path, &insert);

  tree = g_new0 (SpCallTree, 1);
  tree->bottom_up = bottom_up;
  tree->n_nodes = b.nodes->len;
  weights_follow_nodes (&b);
  tree->nodes = weighed_nodes ((const ShapeNode *) b.nodes->data, b.nodes->len, (const guint64 *) b.self->data,
                               (const guint64 *) b.total->data);
  g_array_unref (b.nodes);
  builder_clear_scratch (&b);
  if (!bottom_up)
    sum_totals (tree->nodes, tree->n_nodes);
  else
    for (guint32 c = tree->nodes[0].first_child; c != SP_CALL_TREE_NONE; c = tree->nodes[c].next_sibling)
      tree->nodes[0].total += tree->nodes[c].self;
  sp_call_tree_sort_children (tree);
  return tree;
}

SpCallTree *
sp_call_tree_new (SpProfile *profile,
                  const SpFilter *filter,
                  SpStackCounts *counts,
                  gboolean bottom_up)
{
  SpCallTree *tree = build_tree (profile, filter, counts, bottom_up);

  /* Read after the build: transforms intern the functions they make. */
  tree->n_functions = sp_profile_get_n_functions (profile);
  tree->metric = filter != NULL ? filter->metric : SP_METRIC_CPU;
  return tree;
}

SpCallTree *
sp_call_tree_copy (const SpCallTree *tree)
{
  SpCallTree *copy = g_memdup2 (tree, sizeof *tree);

  copy->nodes = g_memdup2 (tree->nodes, MAX (tree->n_nodes, 1) * sizeof (SpCallTreeNode));
  if (tree->heights != NULL)
    copy->heights = g_memdup2 (tree->heights, MAX (tree->n_nodes, 1) * sizeof (guint));
  return copy;
}

void
sp_call_tree_free (SpCallTree *tree)
{
  if (tree == NULL)
    return;
  g_free (tree->nodes);
  g_free (tree->heights);
  g_free (tree);
}

static void
free_tree_thread (GTask *task,
                  gpointer source_object,
                  gpointer task_data,
                  GCancellable *cancellable)
{
  sp_call_tree_free (task_data);
  /* A task that never returns is a critical warning when freed (GLib 2.76). */
  g_task_return_boolean (task, TRUE);
}

void
sp_call_tree_free_in_background (SpCallTree *tree)
{
  g_autoptr (GTask) task = NULL;

  if (tree == NULL)
    return;
  task = g_task_new (NULL, NULL, NULL, NULL);
  g_task_set_task_data (task, tree, NULL);
  g_task_run_in_thread (task, free_tree_thread);
}

/* One backward pass: children come after their parent, so each node's
 * height is known when its parent's is updated (a walk of the whole tree
 * took 12 ms on a 286,000-node tree). */
const guint *
sp_call_tree_ensure_heights (SpCallTree *tree)
{
  g_return_val_if_fail (tree != NULL, NULL);

  if (tree->heights != NULL)
    return tree->heights;
  tree->heights = g_new0 (guint, MAX (tree->n_nodes, 1));
  for (guint32 n = tree->n_nodes; n-- > 0;)
    {
      tree->heights[n]++;
      if (n > 0)
        tree->heights[tree->nodes[n].parent] = MAX (tree->heights[tree->nodes[n].parent], tree->heights[n]);
    }
  return tree->heights;
}

static gint
compare_total_desc (gconstpointer a,
                    gconstpointer b,
                    gpointer user_data)
{
  const SpCallTreeNode *nodes = user_data;
  const SpCallTreeNode *x = &nodes[*(const guint32 *) a];
  const SpCallTreeNode *y = &nodes[*(const guint32 *) b];

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return x->function < y->function ? -1 : x->function > y->function;
}

/* Most parents that have more than one child have two: swapped in place,
 * without the array and the sort. */
static void
sort_two_children (SpCallTree *tree,
                   SpCallTreeNode *parent)
{
  guint32 first = parent->first_child;
  guint32 second = tree->nodes[first].next_sibling;

  if (compare_total_desc (&first, &second, tree->nodes) <= 0)
    return;
  parent->first_child = second;
  tree->nodes[second].next_sibling = first;
  tree->nodes[first].next_sibling = SP_CALL_TREE_NONE;
}

/* Per parent rather than one sort of every node: most nodes have one or
 * two children, so this is close to a single pass. */
void
sp_call_tree_sort_children (SpCallTree *tree)
{
  g_autoptr (GArray) children = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 node = 0; node < tree->n_nodes; node++)
    {
      SpCallTreeNode *parent = &tree->nodes[node];
      guint32 next = SP_CALL_TREE_NONE;

      /* The first child of a parent a few ahead, asked for now: children
       * lie anywhere in the tree. */
      if (node + 8 < tree->n_nodes && tree->nodes[node + 8].n_children > 1)
        __builtin_prefetch (&tree->nodes[tree->nodes[node + 8].first_child]);
      if (parent->n_children < 2)
        continue;
      if (parent->n_children == 2)
        {
          sort_two_children (tree, parent);
          continue;
        }
      g_array_set_size (children, 0);
      for (guint32 c = parent->first_child; c != SP_CALL_TREE_NONE; c = tree->nodes[c].next_sibling)
        g_array_append_val (children, c);
      g_array_sort_with_data (children, compare_total_desc, tree->nodes);
      for (guint i = children->len; i-- > 0;)
        {
          guint32 c = g_array_index (children, guint32, i);

          tree->nodes[c].next_sibling = next;
          next = c;
        }
      parent->first_child = next;
    }
}

GArray *
sp_call_tree_get_children (const SpCallTree *tree,
                           guint32 node)
{
  GArray *children = g_array_sized_new (FALSE, FALSE, sizeof (guint32), tree->nodes[node].n_children);

  for (guint32 c = tree->nodes[node].first_child; c != SP_CALL_TREE_NONE; c = tree->nodes[c].next_sibling)
    g_array_append_val (children, c);
  return children;
}

GArray *
sp_call_tree_get_path (const SpCallTree *tree,
                       guint32 node)
{
  GArray *path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 n = node; n != 0 && n != SP_CALL_TREE_NONE; n = tree->nodes[n].parent)
    g_array_prepend_val (path, tree->nodes[n].function);
  return path;
}

guint32
sp_call_tree_find_path (const SpCallTree *tree,
                        const guint32 *path,
                        guint n_path,
                        guint *n_found)
{
  guint32 node = 0;
  guint i;

  for (i = 0; i < n_path; i++)
    {
      guint32 c = tree->nodes[node].first_child;

      while (c != SP_CALL_TREE_NONE && tree->nodes[c].function != path[i])
        c = tree->nodes[c].next_sibling;
      if (c == SP_CALL_TREE_NONE)
        break;
      node = c;
    }
  if (n_found != NULL)
    *n_found = i;
  return node;
}
