/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-sample-index.c: an insertion-sorted order (samples arrive almost
 * sorted), binary search for ranges, per-thread counts and spans kept as
 * samples come in. */
#include "sp-sample-index.h"

/* Beyond this many moves per sample the input is not "almost sorted". */
#define MAX_MOVES_PER_SAMPLE 16

struct _SpSampleIndex
{
  GArray *order;        /* guint32 sample indexes, by (ts, index) */
  GArray *first_ns;     /* guint64 per thread, G_MAXUINT64 when none */
  GArray *last_ns;
  GArray *n_samples;    /* guint64 per thread */
};

SpSampleIndex *
sp_sample_index_new (void)
{
  SpSampleIndex *index = g_new0 (SpSampleIndex, 1);

  index->order = g_array_new (FALSE, FALSE, sizeof (guint32));
  index->first_ns = g_array_new (FALSE, FALSE, sizeof (guint64));
  index->last_ns = g_array_new (FALSE, FALSE, sizeof (guint64));
  index->n_samples = g_array_new (FALSE, TRUE, sizeof (guint64));
  return index;
}

void
sp_sample_index_free (SpSampleIndex *index)
{
  if (index == NULL)
    return;
  g_array_unref (index->order);
  g_array_unref (index->first_ns);
  g_array_unref (index->last_ns);
  g_array_unref (index->n_samples);
  g_free (index);
}

static gint
compare_by_time (gconstpointer a,
                 gconstpointer b,
                 gpointer user_data)
{
  const uint64_t *ts = user_data;
  guint32 x = *(const guint32 *) a;
  guint32 y = *(const guint32 *) b;

  if (ts[x] != ts[y])
    return ts[x] < ts[y] ? -1 : 1;
  return x < y ? -1 : x > y;
}

static void
update_spans (SpSampleIndex *index,
              const SpSpoolReader *reader,
              gsize first,
              gsize last)
{
  const uint64_t *ts = sp_spool_reader_get_sample_timestamps (reader);
  gsize n_threads = sp_spool_reader_get_n_threads (reader);

  while (index->first_ns->len < n_threads)
    {
      guint64 none = G_MAXUINT64, zero = 0;

      g_array_append_val (index->first_ns, none);
      g_array_append_val (index->last_ns, zero);
    }
  g_array_set_size (index->n_samples, index->first_ns->len);
  for (gsize i = first; i < last; i++)
    {
      guint32 t = sp_spool_reader_get_sample_thread (reader, i);
      guint64 *f = &g_array_index (index->first_ns, guint64, t);
      guint64 *l = &g_array_index (index->last_ns, guint64, t);

      *f = MIN (*f, ts[i]);
      *l = MAX (*l, ts[i]);
      g_array_index (index->n_samples, guint64, t)++;
    }
}

void
sp_sample_index_update (SpSampleIndex *index,
                        const SpSpoolReader *reader)
{
  const uint64_t *ts = sp_spool_reader_get_sample_timestamps (reader);
  gsize n = sp_spool_reader_get_n_samples (reader);
  gsize old = index->order->len;
  guint32 *order;
  gsize moves = 0;

  if (n == old)
    return;
  update_spans (index, reader, old, n);
  g_array_set_size (index->order, n);
  order = (guint32 *) index->order->data;
  for (gsize i = old; i < n; i++)
    {
      gsize j = i;
      guint32 sample = (guint32) i;

      /* Move it back past the later samples that came earlier. */
      while (j > 0 && ts[order[j - 1]] > ts[sample] && moves <= MAX_MOVES_PER_SAMPLE * n)
        {
          order[j] = order[j - 1];
          j--;
          moves++;
        }
      order[j] = sample;
      if (moves > MAX_MOVES_PER_SAMPLE * n)
        {
          /* Far from sorted (a hand-made file): sort it all at once. */
          for (gsize k = 0; k < n; k++)
            order[k] = (guint32) k;
          g_qsort_with_data (order, (gint) n, sizeof (guint32), compare_by_time, (gpointer) ts);
          return;
        }
    }
}

const guint32 *
sp_sample_index_get_order (const SpSampleIndex *index,
                           gsize *n_samples)
{
  *n_samples = index->order->len;
  return (const guint32 *) index->order->data;
}

/* The first position whose sample time is >= t. */
static gsize
lower_bound (const SpSampleIndex *index,
             const uint64_t *ts,
             guint64 t)
{
  const guint32 *order = (const guint32 *) index->order->data;
  gsize lo = 0, hi = index->order->len;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (ts[order[mid]] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

void
sp_sample_index_find_range (const SpSampleIndex *index,
                            const SpSpoolReader *reader,
                            guint64 from_ns,
                            guint64 to_ns,
                            gsize *first,
                            gsize *last)
{
  const uint64_t *ts = sp_spool_reader_get_sample_timestamps (reader);

  *first = lower_bound (index, ts, from_ns);
  *last = to_ns == G_MAXUINT64 ? index->order->len : lower_bound (index, ts, to_ns);
  if (*last < *first)
    *last = *first;
}

guint64
sp_sample_index_get_thread_samples (const SpSampleIndex *index,
                                    guint32 thread)
{
  return thread < index->n_samples->len ? g_array_index (index->n_samples, guint64, thread) : 0;
}

gboolean
sp_sample_index_get_thread_span (const SpSampleIndex *index,
                                 guint32 thread,
                                 guint64 *first_ns,
                                 guint64 *last_ns)
{
  if (thread >= index->first_ns->len || g_array_index (index->first_ns, guint64, thread) == G_MAXUINT64)
    return FALSE;
  *first_ns = g_array_index (index->first_ns, guint64, thread);
  *last_ns = g_array_index (index->last_ns, guint64, thread);
  return TRUE;
}

gboolean
sp_sample_index_get_time_span (const SpSampleIndex *index,
                               guint64 *first_ns,
                               guint64 *last_ns)
{
  guint64 first = G_MAXUINT64, last = 0;

  for (guint t = 0; t < index->first_ns->len; t++)
    {
      first = MIN (first, g_array_index (index->first_ns, guint64, t));
      last = MAX (last, g_array_index (index->last_ns, guint64, t));
    }
  if (first == G_MAXUINT64)
    return FALSE;
  *first_ns = first;
  *last_ns = last;
  return TRUE;
}
