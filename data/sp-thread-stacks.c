/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-thread-stacks.c: weights per (thread, stack). */
#include "sp-thread-stacks.h"

#include "sp-hash-private.h"
#include "sp-metric-weights.h"

typedef struct {
  GHashTable *weights;   /* (thread << 32 | stack) -> guint64 * */
  guint32     thread;
} Tally;

static void
add (Tally *tally,
     guint32 stack,
     guint64 weight)
{
  gint64 key = (gint64) ((guint64) tally->thread << 32 | stack);
  guint64 *sum = g_hash_table_lookup (tally->weights, &key);

  if (sum == NULL)
    g_hash_table_insert (tally->weights, g_memdup2 (&key, sizeof key), sum = g_new0 (guint64, 1));
  *sum += weight;
}

static gboolean
thread_shown (const SpFilter *filter,
              guint32 thread)
{
  return filter == NULL || !sp_filter_is_thread_hidden (filter, thread);
}

static void
count_samples (Tally *tally,
               const SpSpoolReader *reader,
               const SpFilter *filter)
{
  const uint32_t *stacks = sp_spool_reader_get_sample_stacks (reader);
  gsize n = sp_spool_reader_get_n_samples (reader);
  gsize n_threads = sp_spool_reader_get_n_threads (reader);
  guint64 from = filter != NULL ? filter->from_ns : 0;
  guint64 to = filter != NULL ? filter->to_ns : G_MAXUINT64;
  g_autofree guint8 *shown = g_malloc (MAX (n_threads, 1));
  guint64 ts[SP_SPOOL_SAMPLE_BATCH];
  guint32 thread[SP_SPOOL_SAMPLE_BATCH];

  for (gsize t = 0; t < n_threads; t++)
    shown[t] = thread_shown (filter, (guint32) t);
  for (gsize first = 0; first < n; first += SP_SPOOL_SAMPLE_BATCH)
    {
      gsize batch = MIN (n - first, SP_SPOOL_SAMPLE_BATCH);

      sp_spool_reader_copy_sample_timestamps (reader, first, batch, ts);
      sp_spool_reader_copy_sample_threads (reader, first, batch, thread);
      for (gsize i = 0; i < batch; i++)
        {
          tally->thread = thread[i];
          if (ts[i] >= from && ts[i] < to && shown[tally->thread])
            add (tally, stacks[first + i], 1);
        }
    }
}

static void
add_weight_cb (guint32 stack,
               gint32 pid,
               guint64 weight,
               gpointer user_data)
{
  add (user_data, stack, weight);
}

/* The weigher says the process, not the thread, of what it weighs: one
 * thread at a time (a time metric's export is rare, and its cost is the
 * threads' intervals plus, for wall, their samples per thread). */
static void
weigh_threads (Tally *tally,
               SpProfile *profile,
               const SpFilter *filter)
{
  gsize n_threads = sp_spool_reader_get_n_threads (sp_profile_get_reader (profile));
  g_autofree guint8 *only = g_malloc0 (MAX (n_threads, 1));
  SpMetricTotals totals;

  for (gsize t = 0; t < n_threads; t++)
    {
      if (!thread_shown (filter, (guint32) t))
        continue;
      only[t] = 1;
      tally->thread = (guint32) t;
      sp_metric_weigh (profile, filter, only, add_weight_cb, tally, &totals);
      only[t] = 0;
    }
}

static gint
compare_thread_stacks (gconstpointer a,
                       gconstpointer b)
{
  const SpThreadStack *x = a, *y = b;

  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  return x->stack < y->stack ? -1 : x->stack > y->stack;
}

GArray *
sp_thread_stacks_new (SpProfile *profile,
                      const SpFilter *filter,
                      guint64 *total)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  g_autoptr (GHashTable) weights = g_hash_table_new_full (_sp_int64_hash, g_int64_equal, g_free, g_free);
  GArray *stacks = g_array_new (FALSE, FALSE, sizeof (SpThreadStack));
  Tally tally = { weights, 0 };
  GHashTableIter iter;
  gpointer key, value;

  if (filter != NULL && filter->metric != SP_METRIC_CPU)
    weigh_threads (&tally, profile, filter);
  else
    count_samples (&tally, reader, filter);
  *total = 0;
  g_hash_table_iter_init (&iter, weights);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint64 k = *(guint64 *) key;
      SpThreadStack s = { (guint32) (k >> 32), (guint32) k, threads[k >> 32].pid, *(guint64 *) value };

      g_array_append_val (stacks, s);
      *total += s.weight;
    }
  g_array_sort (stacks, compare_thread_stacks);
  return stacks;
}
