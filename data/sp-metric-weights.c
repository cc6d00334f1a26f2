/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-metric-weights.c: intervals and samples to weights per stack. */
#include "sp-metric-weights.h"

#include "sp-profile-private.h"
#include "sp-stack-counts.h"

typedef struct {
  guint64 ts;
  guint32 stack;
} TimedSample;

typedef struct {
  SpWeighFunc     func;
  gpointer        user_data;
  SpMetricTotals *totals;
  gint32          pid;
  gsize           n_stack_nodes;
} Weigher;

static void
weigh (Weigher *w,
       guint32 stack,
       guint64 weight)
{
  if (weight == 0)
    return;
  w->func (stack, w->pid, weight, w->user_data);
  w->totals->weight += weight;
}

/* An id the spool does not define (yet) is as good as none. */
static guint32
off_cpu_stack (const Weigher *w,
               guint32 stack)
{
  return stack < w->n_stack_nodes || stack == SP_STACK_NOT_STARTED ? stack : SP_STACK_NOT_RECORDED;
}

/* The shown threads' samples in the range, per thread in time order. */
static GArray **
samples_by_thread (SpProfile *profile,
                   const SpFilter *filter,
                   const guint8 *shown,
                   guint n_threads)
{
  SpSampleIndex *index = _sp_profile_get_sample_index (profile);
  const uint32_t *stacks = sp_spool_reader_get_sample_stacks (sp_profile_get_reader (profile));
  GArray **per_thread = g_new0 (GArray *, MAX (n_threads, 1));
  gsize first, last;
  SpSampleRun run;

  for (guint t = 0; t < n_threads; t++)
    per_thread[t] = g_array_new (FALSE, FALSE, sizeof (TimedSample));
  sp_sample_index_find_range (index, filter->from_ns, filter->to_ns, &first, &last);
  for (gsize pos = first; pos < last; pos += run.n)
    {
      sp_sample_index_get_run (index, pos, last, &run);
      for (gsize i = 0; i < run.n; i++)
        if (run.thread[i] < n_threads && shown[run.thread[i]])
          g_array_append_val (per_thread[run.thread[i]], ((TimedSample) { run.time[i], stacks[run.sample[i]] }));
    }
  return per_thread;
}

/* One running interval's clipped time shared among its samples (*next is
 * the thread's first sample not yet given a share); the remainder of the
 * division goes to the first, so the shares add up exactly. */
static void
share_running (Weigher *w,
               const SpStateInterval *iv,
               const SpFilter *filter,
               GArray *samples,
               guint *next)
{
  const TimedSample *s = (const TimedSample *) samples->data;
  guint64 lo = MAX (iv->start_ns, filter->from_ns);
  guint64 hi = MIN (iv->end_ns, filter->to_ns);
  guint64 duration = sp_state_interval_overlap (iv, filter->from_ns, filter->to_ns);
  guint first, n;

  while (*next < samples->len && s[*next].ts < lo)
    (*next)++;
  first = *next;
  /* An open interval ends at the last known time: its sample there counts. */
  while (*next < samples->len && (s[*next].ts < hi || (iv->open && s[*next].ts == hi)))
    (*next)++;
  n = *next - first;
  if (n == 0)
    {
      weigh (w, SP_STACK_NOT_SAMPLED, duration);
      return;
    }
  for (guint i = first; i < *next; i++)
    weigh (w, s[i].stack, duration / n + (i == first ? duration % n : 0));
  w->totals->n_samples += n;
}

static void
weigh_thread (Weigher *w,
              const SpThreadStates *states,
              guint thread,
              const SpFilter *filter,
              GArray *samples)
{
  gsize n;
  const SpStateInterval *iv = sp_thread_states_get_intervals (states, thread, &n);
  guint next = 0;

  for (gsize i = 0; i < n; i++)
    {
      if (iv[i].end_ns < filter->from_ns || iv[i].start_ns >= filter->to_ns)
        continue;
      if (iv[i].state != SP_THREAD_RUNNING)
        weigh (w, off_cpu_stack (w, iv[i].stack), sp_state_interval_overlap (&iv[i], filter->from_ns, filter->to_ns));
      else if (samples != NULL)
        share_running (w, &iv[i], filter, samples, &next);
    }
}

void
sp_metric_weigh (SpProfile *profile,
                 const SpFilter *filter,
                 const guint8 *shown,
                 SpWeighFunc func,
                 gpointer user_data,
                 SpMetricTotals *totals)
{
  const SpThreadStates *states = sp_profile_get_thread_states (profile);
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  guint n_threads = (guint) sp_spool_reader_get_n_threads (reader);
  Weigher w = { func, user_data, totals, 0, sp_spool_reader_get_n_stack_nodes (reader) };
  GArray **samples = NULL;

  *totals = (SpMetricTotals) { 0, 0 };
  if (states == NULL)
    return;
  if (filter->metric == SP_METRIC_WALL)
    samples = samples_by_thread (profile, filter, shown, n_threads);
  for (guint t = 0; t < n_threads; t++)
    {
      if (!shown[t])
        continue;
      w.pid = threads[t].pid;
      weigh_thread (&w, states, t, filter, samples != NULL ? samples[t] : NULL);
    }
  for (guint t = 0; samples != NULL && t < n_threads; t++)
    g_array_unref (samples[t]);
  g_free (samples);
}
