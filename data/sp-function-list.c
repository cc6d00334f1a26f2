/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-function-list.c: per distinct stack, each function counted once. */
#include "sp-function-list.h"

typedef struct {
  GArray  *costs;     /* SpFunctionCost, indexed by function id */
  GArray  *seen_at;   /* guint32 per function: last path that counted it */
  guint32  path_id;
} ListBuilder;

static SpFunctionCost *
cost_of (GArray *costs,
         guint32 function)
{
  if (function >= costs->len)
    g_array_set_size (costs, function + 1);
  return &g_array_index (costs, SpFunctionCost, function);
}

static void
count_path (const guint32 *path,
            guint n,
            const SpStackCount *stack,
            gpointer user_data)
{
  ListBuilder *b = user_data;

  if (path == NULL || n == 0)
    return;
  b->path_id++;
  for (guint i = 0; i < n; i++)
    {
      SpFunctionCost *cost = cost_of (b->costs, path[i]);

      if (path[i] >= b->seen_at->len)
        g_array_set_size (b->seen_at, path[i] + 1024);
      if (g_array_index (b->seen_at, guint32, path[i]) != b->path_id)
        {
          g_array_index (b->seen_at, guint32, path[i]) = b->path_id;
          cost->total += stack->count;
        }
    }
  cost_of (b->costs, path[n - 1])->self += stack->count;
}

static gint
compare_self_desc (gconstpointer a,
                   gconstpointer b)
{
  const SpFunctionCost *x = a;
  const SpFunctionCost *y = b;

  if (x->self != y->self)
    return x->self > y->self ? -1 : 1;
  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return x->function < y->function ? -1 : x->function > y->function;
}

static gint
compare_total_desc (gconstpointer a,
                    gconstpointer b)
{
  const SpFunctionCost *x = a;
  const SpFunctionCost *y = b;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return compare_self_desc (a, b);
}

/* Drops the functions without samples, fills in the ids, sorts. */
static GArray *
finish (GArray *costs,
        GCompareFunc compare)
{
  guint kept = 0;

  for (guint i = 0; i < costs->len; i++)
    {
      SpFunctionCost cost = g_array_index (costs, SpFunctionCost, i);

      if (cost.total == 0 && cost.self == 0)
        continue;
      cost.function = i;
      g_array_index (costs, SpFunctionCost, kept++) = cost;
    }
  g_array_set_size (costs, kept);
  g_array_sort (costs, compare);
  return costs;
}

GArray *
sp_function_list_new (SpProfile *profile,
                      const SpFilter *filter,
                      SpStackCounts *counts)
{
  g_autoptr (SpStackCounts) own_counts = NULL;
  ListBuilder b = { 0 };

  if (counts == NULL)
    counts = own_counts = sp_stack_counts_new (profile, filter);
  b.costs = g_array_new (FALSE, TRUE, sizeof (SpFunctionCost));
  b.seen_at = g_array_new (FALSE, TRUE, sizeof (guint32));
  sp_stack_counts_foreach_path (counts, profile, filter, count_path, &b);
  g_array_unref (b.seen_at);
  return finish (b.costs, compare_self_desc);
}

typedef struct {
  guint32         function;
  SpFunctionCost *cost;
  GHashTable     *callers;   /* function -> SpFunctionCost * */
  GHashTable     *callees;
} Butterfly;

static void
add_neighbour (GHashTable *table,
               guint32 function,
               guint64 self,
               guint64 total)
{
  SpFunctionCost *cost = g_hash_table_lookup (table, GUINT_TO_POINTER (function));

  if (cost == NULL)
    {
      cost = g_new0 (SpFunctionCost, 1);
      cost->function = function;
      g_hash_table_insert (table, GUINT_TO_POINTER (function), cost);
    }
  cost->self += self;
  cost->total += total;
}

static void
count_neighbours (const guint32 *path,
                  guint n,
                  const SpStackCount *stack,
                  gpointer user_data)
{
  Butterfly *b = user_data;
  guint first = 0;

  while (path != NULL && first < n && path[first] != b->function)
    first++;
  if (path == NULL || first == n)
    return;
  b->cost->total += stack->count;
  if (path[n - 1] == b->function)
    b->cost->self += stack->count;
  add_neighbour (b->callers, first == 0 ? SP_FUNCTION_LIST_ROOT : path[first - 1],
                 path[n - 1] == b->function ? stack->count : 0, stack->count);
  if (first + 1 < n)
    add_neighbour (b->callees, path[first + 1], first + 2 == n ? stack->count : 0, stack->count);
}

static GArray *
costs_from (GHashTable *table)
{
  GArray *costs = g_array_new (FALSE, FALSE, sizeof (SpFunctionCost));
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_array_append_val (costs, *(SpFunctionCost *) value);
  g_array_sort (costs, compare_total_desc);
  return costs;
}

void
sp_function_list_callers_callees (SpProfile *profile,
                                  const SpFilter *filter,
                                  SpStackCounts *counts,
                                  guint32 function,
                                  SpFunctionCost *cost,
                                  GArray **callers,
                                  GArray **callees)
{
  g_autoptr (SpStackCounts) own_counts = NULL;
  g_autoptr (GHashTable) caller_table = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr (GHashTable) callee_table = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  Butterfly b = { function, cost, caller_table, callee_table };

  if (counts == NULL)
    counts = own_counts = sp_stack_counts_new (profile, filter);
  *cost = (SpFunctionCost) { function, 0, 0 };
  sp_stack_counts_foreach_path (counts, profile, filter, count_neighbours, &b);
  *callers = costs_from (caller_table);
  *callees = costs_from (callee_table);
}
