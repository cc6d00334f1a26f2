/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-skeleton-plan.c: one backward pass over the stack nodes (children
 * come after their prefix) says which stack nodes a first tree needs, in
 * which role, and when the walk from each counted stack would first have
 * reached each frame in each role; the frames are then resolved in that
 * order. */
#include "sp-skeleton-plan-private.h"

#include <stdlib.h>
#include <string.h>

#define NOT_REACHED G_MAXUINT32

/* How many stack nodes ahead the pass asks for what it will write at random. */
#define PREFETCH_AHEAD 16

/* Per stack node in the backward pass: the first counted stack (its index
 * in the counts) whose walk reaches it as a caller, and with its address
 * exact (itself counted, or under a kernel frame); NOT_REACHED for none.
 * One struct: a node's children write into it in no order. */
typedef struct {
  guint32 as_caller;
  guint32 as_exact;
  guint32 unused;    /* the scratch's third word */
} FirstReach;

/* When the walk first reaches a frame in a role: the index of the counted
 * stack it walked up from, and the depth there (it descends from the root,
 * so a smaller depth comes first). */
typedef struct {
  guint32 first;
  guint32 depth;
  guint32 key;     /* frame_id * 2 + exact */
} Visit;

/* The leading run of counts in increasing stack order: every stack that
 * one pid used (sp-stack-counts.c lists them first, by stack). What
 * follows (a second pid's use of a stack, a time metric's synthetic
 * stacks) is left to the walk, in order, after the pass. */
static guint
covered_run (const SpStackCounts *counts,
             gsize n_nodes)
{
  guint i;

  for (i = 0; i < counts->stacks->len; i++)
    {
      const SpStackCount *s = &g_array_index (counts->stacks, SpStackCount, i);

      if (s->stack >= n_nodes || (i > 0 && s->stack <= g_array_index (counts->stacks, SpStackCount, i - 1).stack))
        break;
    }
  return i;
}

static inline void
note_visit (Visit *visits,
            guint32 *uses,
            guint32 key,
            guint32 first,
            guint32 depth)
{
  Visit *v = &visits[key];

  if (first < v->first || (first == v->first && depth < v->depth))
    {
      v->first = first;
      v->depth = depth;
    }
  uses[key]++;
}

/* Per frame: 1 when its functions depend on the sample's pid (then the
 * plan does not apply), 2 for a kernel frame (only a kernel frame can make
 * its prefix exact: sp_profile_frame_is_exact), 0 otherwise. Asked once
 * per frame rather than per stack node. */
static guint8 *
frame_kinds (SpProfile *profile)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  const SpFrame *frames = sp_spool_reader_get_frames (reader);
  gsize n_frames = sp_spool_reader_get_n_frames (reader);
  guint8 *kinds = g_new (guint8, MAX (n_frames, 1));

  for (gsize f = 0; f < n_frames; f++)
    kinds[f] = sp_profile_frame_depends_on_pid (profile, (guint32) f) ? 1 : frames[f].mode == SP_FRAME_KERNEL ? 2 : 0;
  return kinds;
}

/* From the deepest node up: each reached node notes its own visits and
 * passes the first counted stack that reaches it to its prefix, in the
 * role the prefix plays for it. FALSE when a reached frame depends on
 * the pid. */
static gboolean
plan_backward (SpSkeletonPlan *plan,
               SpProfile *profile,
               const SpStackCounts *counts,
               Visit *visits,
               guint32 *uses)
{
  const SpStackNode *nodes = sp_spool_reader_get_stack_nodes (sp_profile_get_reader (profile));
  g_autofree guint8 *kinds = frame_kinds (profile);
  FirstReach *reach = (FirstReach *) plan->scratch;

  G_STATIC_ASSERT (sizeof (FirstReach) == SP_PLAN_SCRATCH * sizeof (guint32));
  memset (reach, 0xff, plan->n_nodes * sizeof *reach);
  for (guint i = 0; i < plan->n_counted; i++)
    reach[g_array_index (counts->stacks, SpStackCount, i).stack].as_exact = i;
  for (gsize n = plan->n_nodes; n-- > 0;)
    {
      FirstReach r = reach[n];
      guint32 frame_id = nodes[n].frame_id, p = nodes[n].prefix;
      guint8 need = 0;

      /* The prefix a node a few before writes, asked for now: most are in
       * no cache, and the reads overlap this node's work. */
      if (n >= PREFETCH_AHEAD && nodes[n - PREFETCH_AHEAD].prefix != SP_SPOOL_NO_ID)
        __builtin_prefetch (&reach[nodes[n - PREFETCH_AHEAD].prefix], 1);

      if (r.as_caller == NOT_REACHED && r.as_exact == NOT_REACHED)
        continue;
      if (kinds[frame_id] == 1)
        return FALSE;
      if (r.as_caller != NOT_REACHED)
        {
          need |= SP_PLAN_CALLER;
          note_visit (visits, uses, frame_id * 2, r.as_caller, nodes[n].depth);
        }
      if (r.as_exact != NOT_REACHED)
        {
          need |= SP_PLAN_EXACT;
          note_visit (visits, uses, frame_id * 2 + 1, r.as_exact, nodes[n].depth);
        }
      if (p != SP_SPOOL_NO_ID)
        {
          guint32 first = MIN (r.as_caller, r.as_exact);

          if (kinds[frame_id] == 2 && sp_profile_frame_is_exact (profile, frame_id, nodes[p].frame_id))
            {
              need |= SP_PLAN_UNDER_EXACT;
              reach[p].as_exact = MIN (reach[p].as_exact, first);
            }
          else
            reach[p].as_caller = MIN (reach[p].as_caller, first);
        }
      plan->need[n] = need;
    }
  return TRUE;
}

/* Equal lists of functions get the same number (frames of different
 * addresses in one function, as a leaf or as a caller). */
static void
number_chains (SpSkeletonPlan *plan,
               gsize n_keys)
{
  g_autoptr (GHashTable) numbers = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, NULL);

  for (gsize k = 0; k < n_keys; k++)
    {
      g_autoptr (GBytes) chain = NULL;
      gpointer number;

      if (plan->functions[k] == NULL)
        continue;
      chain = g_bytes_new_static (plan->functions[k], plan->n_functions[k] * sizeof (guint32));
      if (!g_hash_table_lookup_extended (numbers, chain, NULL, &number))
        {
          number = GUINT_TO_POINTER (g_hash_table_size (numbers));
          g_hash_table_insert (numbers, g_bytes_ref (chain), number);
        }
      plan->chain[k] = GPOINTER_TO_UINT (number);
    }
}

static int
compare_visits (const void *a,
                const void *b)
{
  const Visit *x = a, *y = b;

  if (x->first != y->first)
    return x->first < y->first ? -1 : 1;
  return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* Resolves the visited frames in the order of their first visits (each
 * with the pid of the stack that reached it first, as the walk did), then
 * takes their functions: resolving grows the profile's arrays, so the
 * pointers are read once all are resolved. */
static void
resolve_in_order (SpSkeletonPlan *plan,
                  SpProfile *profile,
                  const SpStackCounts *counts,
                  Visit *visits,
                  gsize n_keys,
                  const guint32 *uses)
{
  gsize n_visited = 0;

  for (gsize k = 0; k < n_keys; k++)
    if (visits[k].first != NOT_REACHED)
      visits[n_visited++] = (Visit) { visits[k].first, visits[k].depth, (guint32) k };
  qsort (visits, n_visited, sizeof *visits, compare_visits);
  for (gsize i = 0; i < n_visited; i++)
    {
      const guint32 *functions;
      gint32 pid = g_array_index (counts->stacks, SpStackCount, visits[i].first).pid;

      sp_profile_get_frame_functions (profile, visits[i].key / 2, pid, visits[i].key % 2, &functions);
    }
  for (gsize i = 0; i < n_visited; i++)
    {
      guint32 key = visits[i].key;
      gint32 pid = g_array_index (counts->stacks, SpStackCount, visits[i].first).pid;
      guint n = sp_profile_get_frame_functions (profile, key / 2, pid, key % 2, &plan->functions[key]);

      /* As descend_frame: a chain is cut at 64 functions. */
      plan->n_functions[key] = (guint16) MIN (n, 64);
      plan->n_calls += (gsize) plan->n_functions[key] * uses[key];
    }
  number_chains (plan, n_keys);
}

SpSkeletonPlan *
_sp_skeleton_plan_new (SpProfile *profile,
                       const SpStackCounts *counts)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  gsize n_keys = sp_spool_reader_get_n_frames (reader) * 2;
  g_autofree Visit *visits = g_new (Visit, MAX (n_keys, 1));
  g_autofree guint32 *uses = g_new0 (guint32, MAX (n_keys, 1));
  SpSkeletonPlan *plan = g_new0 (SpSkeletonPlan, 1);

  plan->n_nodes = sp_spool_reader_get_n_stack_nodes (reader);
  plan->n_counted = covered_run (counts, plan->n_nodes);
  plan->need = g_new0 (guint8, MAX (plan->n_nodes, 1));
  plan->scratch = g_new (guint32, MAX (plan->n_nodes, 1) * SP_PLAN_SCRATCH);
  plan->functions = g_new0 (const guint32 *, MAX (n_keys, 1));
  plan->n_functions = g_new0 (guint16, MAX (n_keys, 1));
  plan->chain = g_new0 (guint32, MAX (n_keys, 1));
  memset (visits, 0xff, n_keys * sizeof *visits);
  if (plan->n_counted == 0 || !plan_backward (plan, profile, counts, visits, uses))
    {
      _sp_skeleton_plan_free (plan);
      return NULL;
    }
  resolve_in_order (plan, profile, counts, visits, n_keys, uses);
  return plan;
}

void
_sp_skeleton_plan_free (SpSkeletonPlan *plan)
{
  if (plan == NULL)
    return;
  g_free (plan->need);
  g_free (plan->scratch);
  g_free (plan->functions);
  g_free (plan->n_functions);
  g_free (plan->chain);
  g_free (plan);
}
