/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-stack-counts.c: count per stack, then paths for the distinct ones. */
#include "sp-stack-counts.h"

#include "sp-hash-private.h"
#include "sp-metric-weights.h"
#include "sp-profile-private.h"

#define NO_PID G_MININT32

static guint8 *
thread_mask (const SpSpoolReader *reader,
             const SpFilter *filter)
{
  gsize n = sp_spool_reader_get_n_threads (reader);
  guint8 *shown = g_malloc (MAX (n, 1));

  memset (shown, 1, MAX (n, 1));
  if (filter != NULL && filter->hidden_threads != NULL)
    for (guint i = 0; i < filter->hidden_threads->len; i++)
      {
        guint32 t = g_array_index (filter->hidden_threads, guint32, i);

        if (t < n)
          shown[t] = 0;
      }
  return shown;
}

struct _SpStackCountsState
{
  gsize       samples_seen;
  guint64    *count;        /* per stack node */
  gint32     *pid_of;       /* the pid that uses it, NO_PID before any */
  gsize       n_nodes;
  GHashTable *shared;       /* (stack << 32 | pid) -> guint64 *: a second pid's use */
};

/* Stack nodes only grow: so do the arrays indexed by them. */
static void
grow_state (SpStackCountsState *state,
            gsize n_nodes)
{
  if (n_nodes <= state->n_nodes)
    return;
  state->count = g_renew (guint64, state->count, n_nodes);
  state->pid_of = g_renew (gint32, state->pid_of, n_nodes);
  for (gsize i = state->n_nodes; i < n_nodes; i++)
    {
      state->count[i] = 0;
      state->pid_of[i] = NO_PID;
    }
  state->n_nodes = n_nodes;
}

/* Almost every stack belongs to one process: a count and a pid per stack,
 * and a hash table for the rare stack a second pid shares. */
static inline void
add_weight (SpStackCountsState *state,
            uint32_t stack,
            gint32 pid,
            guint64 weight)
{
  if (stack < state->n_nodes && (state->pid_of[stack] == NO_PID || state->pid_of[stack] == pid))
    {
      state->pid_of[stack] = pid;
      state->count[stack] += weight;
    }
  else
    {
      gint64 k = (gint64) ((guint64) stack << 32 | (guint32) pid);
      guint64 *c = g_hash_table_lookup (state->shared, &k);

      if (c == NULL)
        g_hash_table_insert (state->shared, g_memdup2 (&k, sizeof k), c = g_new0 (guint64, 1));
      *c += weight;
    }
}

static inline void
count_one (SpStackCountsState *state,
           uint32_t stack,
           gint32 pid)
{
  add_weight (state, stack, pid, 1);
}

static void
add_weight_cb (guint32 stack,
               gint32 pid,
               guint64 weight,
               gpointer user_data)
{
  add_weight (user_data, stack, pid, weight);
}

/* Time metrics are weighed whole each time: the last, open interval of
 * every thread grows with the recording. */
static void
weigh_time (SpStackCounts *counts,
            SpProfile *profile,
            const SpFilter *filter)
{
  SpStackCountsState *state = counts->state;
  g_autofree guint8 *shown = thread_mask (sp_profile_get_reader (profile), filter);
  SpMetricTotals totals;

  memset (state->count, 0, state->n_nodes * sizeof (guint64));
  for (gsize i = 0; i < state->n_nodes; i++)
    state->pid_of[i] = NO_PID;
  g_hash_table_remove_all (state->shared);
  sp_metric_weigh (profile, filter, shown, add_weight_cb, state, &totals);
  counts->n_samples = totals.n_samples;
  counts->total = totals.weight;
}

/* Samples [first, last) in file order, a batch at a time; their times
 * only with a time range to check. */
static guint64
count_samples (SpStackCountsState *state,
               const SpSpoolReader *reader,
               const SpFilter *filter,
               gsize first,
               gsize last)
{
  const uint32_t *stacks = sp_spool_reader_get_sample_stacks (reader);
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  guint64 from = filter ? filter->from_ns : 0;
  guint64 to = filter ? filter->to_ns : G_MAXUINT64;
  gboolean whole_span = from == 0 && to == G_MAXUINT64;
  g_autofree guint8 *shown = thread_mask (reader, filter);
  guint64 ts[SP_SPOOL_SAMPLE_BATCH];
  guint32 thread[SP_SPOOL_SAMPLE_BATCH];
  guint64 chosen = 0;

  for (gsize start = first; start < last; start += SP_SPOOL_SAMPLE_BATCH)
    {
      gsize batch = MIN (last - start, SP_SPOOL_SAMPLE_BATCH);

      sp_spool_reader_copy_sample_threads (reader, start, batch, thread);
      if (!whole_span)
        sp_spool_reader_copy_sample_timestamps (reader, start, batch, ts);
      for (gsize i = 0; i < batch; i++)
        {
          if ((!whole_span && (ts[i] < from || ts[i] >= to)) || !shown[thread[i]])
            continue;
          chosen++;
          count_one (state, stacks[start + i], threads[thread[i]].pid);
        }
    }
  return chosen;
}

/* A time range, through the time-sorted index: only its samples are read. */
static guint64
count_range (SpStackCountsState *state,
             SpProfile *profile,
             const SpFilter *filter)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  SpSampleIndex *index = _sp_profile_get_sample_index (profile);
  const uint32_t *stacks = sp_spool_reader_get_sample_stacks (reader);
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  g_autofree guint8 *shown = thread_mask (reader, filter);
  gsize first, last;
  guint64 chosen = 0;
  SpSampleRun run;

  sp_sample_index_find_range (index, filter->from_ns, filter->to_ns, &first, &last);
  for (gsize pos = first; pos < last; pos += run.n)
    {
      sp_sample_index_get_run (index, pos, last, &run);
      for (gsize i = 0; i < run.n; i++)
        {
          if (!shown[run.thread[i]])
            continue;
          chosen++;
          count_one (state, stacks[run.sample[i]], threads[run.thread[i]].pid);
        }
    }
  return chosen;
}

static void
list_stacks (SpStackCounts *counts)
{
  SpStackCountsState *state = counts->state;
  GHashTableIter iter;
  gpointer key, value;

  g_array_set_size (counts->stacks, 0);
  for (gsize i = 0; i < state->n_nodes; i++)
    if (state->count[i] > 0)
      g_array_append_val (counts->stacks, ((SpStackCount) { (guint32) i, state->pid_of[i], state->count[i] }));
  g_hash_table_iter_init (&iter, state->shared);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint64 k = *(gint64 *) key;

      g_array_append_val (counts->stacks, ((SpStackCount) { (guint32) (k >> 32), (gint32) (guint32) k,
                                                            *(guint64 *) value }));
    }
}

gboolean
sp_stack_counts_update (SpStackCounts *counts,
                        SpProfile *profile,
                        const SpFilter *filter)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  SpStackCountsState *state = counts->state;
  gsize n_samples = sp_spool_reader_get_n_samples (reader);

  if (n_samples == state->samples_seen && counts->stacks->len > 0 && (filter == NULL || filter->metric == SP_METRIC_CPU))
    return FALSE;
  grow_state (state, sp_spool_reader_get_n_stack_nodes (reader));
  if (filter != NULL && filter->metric != SP_METRIC_CPU)
    {
      weigh_time (counts, profile, filter);
      state->samples_seen = n_samples;
      list_stacks (counts);
      return TRUE;
    }
  /* A first count of a narrow time range reads only that range; later
   * updates read what was appended. */
  if (state->samples_seen == 0 && filter != NULL && (filter->from_ns > 0 || filter->to_ns < G_MAXUINT64))
    counts->n_samples += count_range (state, profile, filter);
  else
    counts->n_samples += count_samples (state, reader, filter, state->samples_seen, n_samples);
  state->samples_seen = n_samples;
  counts->total = counts->n_samples;
  list_stacks (counts);
  return TRUE;
}

SpStackCounts *
sp_stack_counts_new (SpProfile *profile,
                     const SpFilter *filter)
{
  SpStackCounts *counts = g_new0 (SpStackCounts, 1);

  counts->stacks = g_array_new (FALSE, FALSE, sizeof (SpStackCount));
  counts->state = g_new0 (SpStackCountsState, 1);
  counts->state->shared = g_hash_table_new_full (_sp_int64_hash, g_int64_equal, g_free, g_free);
  sp_stack_counts_update (counts, profile, filter);
  return counts;
}

void
sp_stack_counts_free (SpStackCounts *counts)
{
  if (counts == NULL)
    return;
  g_array_unref (counts->stacks);
  g_free (counts->state->count);
  g_free (counts->state->pid_of);
  g_hash_table_unref (counts->state->shared);
  g_free (counts->state);
  g_free (counts);
}

/* Leaf first from the reader, so: collect, then reverse. */
void
sp_stack_path (SpProfile *profile,
               guint32 stack,
               gint32 pid,
               GArray *path)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  guint start = path->len;
  uint32_t inner = SP_SPOOL_NO_ID;
  SpStackIter iter;
  uint32_t frame_id;

  if (SP_STACK_IS_SYNTHETIC (stack))
    {
      guint32 synthetic = sp_profile_intern_function (profile,
                                                      stack == SP_STACK_NOT_RECORDED ? "[off-CPU: stack not recorded]"
                                                      : stack == SP_STACK_NOT_SAMPLED
                                                        ? "[on-CPU: not sampled]"
                                                        : "[off-CPU: waiting for its first CPU]",
                                                      "", SP_FUNCTION_SYNTHETIC);

      g_array_append_val (path, synthetic);
      return;
    }
  sp_stack_iter_init (&iter, reader, stack);
  while (sp_stack_iter_next (&iter, &frame_id))
    {
      const guint32 *functions;
      guint n = sp_profile_get_frame_functions (profile, frame_id, pid,
                                                sp_profile_frame_is_exact (profile, inner, frame_id), &functions);

      g_array_append_vals (path, functions, n);
      inner = frame_id;
    }
  for (guint i = start, j = path->len; i + 1 < j; i++, j--)
    {
      guint32 t = g_array_index (path, guint32, i);

      g_array_index (path, guint32, i) = g_array_index (path, guint32, j - 1);
      g_array_index (path, guint32, j - 1) = t;
    }
}

void
sp_stack_counts_foreach_path (SpStackCounts *counts,
                              SpProfile *profile,
                              const SpFilter *filter,
                              SpPathFunc func,
                              gpointer user_data)
{
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < counts->stacks->len; i++)
    {
      const SpStackCount *stack = &g_array_index (counts->stacks, SpStackCount, i);

      g_array_set_size (path, 0);
      sp_stack_path (profile, stack->stack, stack->pid, path);
      if (filter == NULL || sp_filter_apply_transforms (filter, profile, path))
        func ((const guint32 *) path->data, path->len, stack, user_data);
      else
        func (NULL, 0, stack, user_data);
    }
}
