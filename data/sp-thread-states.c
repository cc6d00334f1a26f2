/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-thread-states.c: switch records to per-thread intervals and totals. */
#include "sp-thread-states.h"

#include <string.h>

struct _SpThreadStates
{
  gatomicrefcount ref_count;
  guint           n_threads;
  guint64         last_known_ns;
  GArray         *intervals;   /* SpStateInterval, thread by thread */
  gsize          *first;       /* n_threads + 1 offsets into intervals */
  SpThreadTotals *totals;
};

/* A record's place in the per-thread time order. */
typedef struct {
  guint32 thread;
  guint32 index;               /* in the record array: file order breaks ties */
  guint64 ts;
} Key;

static gint
compare_keys (gconstpointer a,
              gconstpointer b)
{
  const Key *x = a, *y = b;

  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* Where one thread's walk is. */
typedef struct {
  SpThreadStates *states;
  guint           thread;
  gboolean        ended;
  gboolean        begun;       /* sampled or switched: it has run */
  SpThreadState   state;
  guint32         stack;       /* off the CPU: the switch-out's */
  guint64         since_ns;
} Walk;

static void
emit (Walk *w,
      guint64 end_ns,
      guint32 stack,
      gboolean open)
{
  SpThreadTotals *totals = &w->states->totals[w->thread];
  SpStateInterval interval = { w->since_ns, MAX (end_ns, w->since_ns), stack, (guint8) w->state, (guint8) open };
  guint64 duration = interval.end_ns - interval.start_ns;

  if (duration == 0 && !open)
    return;
  g_array_append_val (w->states->intervals, interval);
  if (w->state == SP_THREAD_RUNNING)
    totals->running_ns += duration;
  else if (w->state == SP_THREAD_BLOCKED)
    totals->blocked_ns += duration;
  else
    totals->runnable_ns += duration;
}

static void
switch_to (Walk *w,
           SpThreadState state,
           guint32 stack,
           guint64 ts)
{
  w->state = state;
  w->stack = stack;
  w->since_ns = MAX (ts, w->since_ns);
}

/* Lost records are tolerated: a switch-in while running is ignored, a
 * second switch-out ends the first off-CPU stretch there. */
static void
step (Walk *w,
      const SpOffCpuRecord *r)
{
  gboolean begun = w->begun;

  if (w->ended)
    return;
  w->begun = TRUE;
  switch (r->tag)
    {
    case SP_OFFCPU_SWITCH_OUT:
      {
        /* A thread's first record, runnable without a stack and before
         * any sample of it: its creation (it has not run yet; no switch). */
        gboolean creation = !begun && r->state == SP_OFFCPU_RUNNABLE && r->stack == SP_SPOOL_NO_ID;

        emit (w, r->timestamp_ns, w->state == SP_THREAD_RUNNING ? r->stack : w->stack, FALSE);
        if (!creation)
          w->states->totals[w->thread].switches++;
        switch_to (w, r->state == SP_OFFCPU_RUNNABLE ? SP_THREAD_RUNNABLE : SP_THREAD_BLOCKED,
                   creation ? SP_THREAD_NOT_STARTED_STACK : r->stack, r->timestamp_ns);
        break;
      }
    case SP_OFFCPU_SWITCH_IN:
      if (w->state == SP_THREAD_RUNNING)
        break;
      emit (w, r->timestamp_ns, w->stack, FALSE);
      switch_to (w, SP_THREAD_RUNNING, SP_SPOOL_NO_ID, r->timestamp_ns);
      break;
    case SP_OFFCPU_THREAD_END:
      emit (w, r->timestamp_ns, w->state == SP_THREAD_RUNNING ? SP_SPOOL_NO_ID : w->stack, FALSE);
      w->ended = TRUE;
      break;
    default:
      break;
    }
}

static void
walk_thread (SpThreadStates *states,
             guint thread,
             const SpOffCpuRecord *records,
             const Key *keys,
             gsize n_keys,
             guint64 first_sample_ns)
{
  Walk w = { states, thread, FALSE, FALSE, SP_THREAD_RUNNING, SP_SPOOL_NO_ID, first_sample_ns };

  if (n_keys == 0 && first_sample_ns == G_MAXUINT64)
    return;
  if (n_keys > 0)
    w.since_ns = MIN (first_sample_ns, keys[0].ts);
  w.begun = n_keys == 0 || first_sample_ns < keys[0].ts;
  for (gsize i = 0; i < n_keys; i++)
    step (&w, &records[keys[i].index]);
  if (!w.ended)
    emit (&w, states->last_known_ns, w.state == SP_THREAD_RUNNING ? SP_SPOOL_NO_ID : w.stack, TRUE);
}

static gboolean
keeps_record (const SpOffCpuRecord *record,
              guint n_threads)
{
  return record->tag != SP_OFFCPU_SYNC && record->thread < n_threads;
}

/* The records by (thread, time, file order). Placed thread by thread in
 * file order (a counting sort), each thread's run is already in time
 * order but where records of several CPUs crossed: only those runs are
 * sorted. (One comparison sort of all the records took most of the time
 * a live recording of 300k switches a second spent here.) */
static GArray *
sorted_keys (const SpOffCpuRecord *records,
             gsize n_records,
             guint n_threads)
{
  g_autofree gsize *next = g_new0 (gsize, n_threads + 1);
  GArray *keys;
  Key *k;
  gsize n_kept = 0;

  for (gsize i = 0; i < n_records; i++)
    if (keeps_record (&records[i], n_threads))
      next[records[i].thread + 1]++;
  for (guint t = 0; t < n_threads; t++)
    next[t + 1] += next[t];
  n_kept = next[n_threads];
  keys = g_array_sized_new (FALSE, FALSE, sizeof (Key), (guint) n_kept);
  g_array_set_size (keys, (guint) n_kept);
  k = (Key *) keys->data;
  for (gsize i = 0; i < n_records; i++)
    if (keeps_record (&records[i], n_threads))
      k[next[records[i].thread]++] = (Key) { records[i].thread, (guint32) i, records[i].timestamp_ns };
  /* next[t] is now where thread t's run ends. */
  for (guint t = 0, start = 0; t < n_threads; start = (guint) next[t], t++)
    for (gsize i = start + 1; i < next[t]; i++)
      if (k[i].ts < k[i - 1].ts)
        {
          qsort (k + start, next[t] - start, sizeof (Key), compare_keys);
          break;
        }
  return keys;
}

SpThreadStates *
sp_thread_states_new (const SpOffCpuRecord *records,
                      gsize n_records,
                      guint n_threads,
                      const guint64 *first_sample_ns,
                      guint64 last_known_ns)
{
  SpThreadStates *states = g_new0 (SpThreadStates, 1);

  g_atomic_ref_count_init (&states->ref_count);
  g_autoptr (GArray) keys = sorted_keys (records, n_records, n_threads);
  const Key *k = (const Key *) keys->data;
  gsize pos = 0;

  states->n_threads = n_threads;
  states->last_known_ns = last_known_ns;
  states->intervals = g_array_new (FALSE, FALSE, sizeof (SpStateInterval));
  states->first = g_new0 (gsize, n_threads + 1);
  states->totals = g_new0 (SpThreadTotals, MAX (n_threads, 1));
  for (guint t = 0; t < n_threads; t++)
    {
      gsize end = pos;

      while (end < keys->len && k[end].thread == t)
        end++;
      states->first[t] = states->intervals->len;
      /* (No records at all: no key array to point into.) */
      walk_thread (states, t, records, end > pos ? k + pos : NULL, end - pos,
                   first_sample_ns != NULL ? first_sample_ns[t] : G_MAXUINT64);
      pos = end;
    }
  states->first[n_threads] = states->intervals->len;
  return states;
}

SpThreadStates *
sp_thread_states_ref (SpThreadStates *states)
{
  g_atomic_ref_count_inc (&states->ref_count);
  return states;
}

void
sp_thread_states_unref (SpThreadStates *states)
{
  if (states == NULL || !g_atomic_ref_count_dec (&states->ref_count))
    return;
  g_array_unref (states->intervals);
  g_free (states->first);
  g_free (states->totals);
  g_free (states);
}

guint sp_thread_states_get_n_threads (const SpThreadStates *states) { return states->n_threads; }
guint64 sp_thread_states_get_last_known_ns (const SpThreadStates *states) { return states->last_known_ns; }

gboolean
sp_thread_states_get_span (const SpThreadStates *states,
                           guint64 *first_ns,
                           guint64 *last_ns)
{
  const SpStateInterval *iv = (const SpStateInterval *) states->intervals->data;

  *first_ns = G_MAXUINT64;
  *last_ns = 0;
  /* Each thread's intervals are in time order: its first and last. */
  for (guint t = 0; t < states->n_threads; t++)
    if (states->first[t + 1] > states->first[t])
      {
        *first_ns = MIN (*first_ns, iv[states->first[t]].start_ns);
        *last_ns = MAX (*last_ns, iv[states->first[t + 1] - 1].end_ns);
      }
  return *first_ns <= *last_ns;
}

const SpStateInterval *
sp_thread_states_get_intervals (const SpThreadStates *states,
                                guint thread,
                                gsize *n_intervals)
{
  if (thread >= states->n_threads)
    {
      *n_intervals = 0;
      return NULL;
    }
  *n_intervals = states->first[thread + 1] - states->first[thread];
  /* (None at all: no array to point into.) */
  return *n_intervals > 0 ? &g_array_index (states->intervals, SpStateInterval, states->first[thread]) : NULL;
}

const SpThreadTotals *
sp_thread_states_get_totals (const SpThreadStates *states,
                             guint thread)
{
  static const SpThreadTotals none;

  return thread < states->n_threads ? &states->totals[thread] : &none;
}

void
sp_thread_states_sum_range (const SpThreadStates *states,
                            guint thread,
                            guint64 from_ns,
                            guint64 to_ns,
                            SpThreadTotals *totals)
{
  gsize n;
  const SpStateInterval *iv = sp_thread_states_get_intervals (states, thread, &n);

  *totals = (SpThreadTotals) { 0, 0, 0, 0 };
  for (gsize i = 0; i < n; i++)
    {
      guint64 part = sp_state_interval_overlap (&iv[i], from_ns, to_ns);

      if (iv[i].state == SP_THREAD_RUNNING)
        totals->running_ns += part;
      else if (iv[i].state == SP_THREAD_BLOCKED)
        totals->blocked_ns += part;
      else
        totals->runnable_ns += part;
      if (iv[i].state != SP_THREAD_RUNNING && iv[i].start_ns >= from_ns && iv[i].start_ns < to_ns)
        totals->switches++;
    }
}

guint64
sp_state_interval_overlap (const SpStateInterval *interval,
                           guint64 from_ns,
                           guint64 to_ns)
{
  guint64 start = MAX (interval->start_ns, from_ns);
  guint64 end = MIN (interval->end_ns, to_ns);

  return end > start ? end - start : 0;
}

/* The first of a thread's intervals that ends after t (they are in time
 * order and do not overlap): n when none does. */
static gsize
first_ending_after (const SpStateInterval *iv,
                    gsize n,
                    guint64 t)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (iv[mid].end_ns <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

const SpStateInterval *
sp_thread_states_find (const SpThreadStates *states,
                       guint thread,
                       guint64 t_ns)
{
  gsize n;
  const SpStateInterval *iv = sp_thread_states_get_intervals (states, thread, &n);
  gsize i = first_ending_after (iv, n, t_ns);

  return i < n && iv[i].start_ns <= t_ns ? &iv[i] : NULL;
}

void
sp_thread_states_bucket (const SpThreadStates *states,
                         guint thread,
                         guint64 from_ns,
                         guint64 to_ns,
                         guint n_buckets,
                         SpStateBucket *buckets)
{
  gsize n;
  const SpStateInterval *iv = sp_thread_states_get_intervals (states, thread, &n);
  double width = (double) (to_ns - from_ns) / n_buckets;

  memset (buckets, 0, n_buckets * sizeof *buckets);
  if (to_ns <= from_ns || n_buckets == 0)
    return;
  /* Each interval adds its overlap to the buckets it spans: the work is
   * the intervals in range plus the buckets, however long they are. */
  for (gsize i = first_ending_after (iv, n, from_ns); i < n && iv[i].start_ns < to_ns; i++)
    {
      guint64 start = MAX (iv[i].start_ns, from_ns), end = MIN (iv[i].end_ns, to_ns);
      guint b = MIN ((guint) ((start - from_ns) / width), n_buckets - 1);

      for (; b < n_buckets && start < end; b++)
        {
          guint64 bucket_end = b + 1 == n_buckets ? to_ns : from_ns + (guint64) ((b + 1) * width);
          guint64 part = MIN (end, bucket_end) - start;

          if (bucket_end <= start)
            continue;
          buckets[b].ns[iv[i].state] += part;
          start += part;
        }
    }
}
