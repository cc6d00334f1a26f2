/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-thread-rows.c: a copy of each thread's ids, name, samples and times. */
#include "sp-thread-rows.h"

#include "sp-offcpu-stacks.h"
#include "sp-profile-private.h"

static void
clear_row (gpointer data)
{
  SpThreadRow *row = data;

  g_clear_pointer (&row->name, g_free);
}

static void
set_times (SpThreadRow *row,
           const SpThreadStates *states,
           GKeyFile *meta,
           guint64 interval_ns,
           guint64 from_ns,
           guint64 to_ns)
{
  SpThreadTotals totals;

  if (states == NULL || row->thread >= sp_thread_states_get_n_threads (states))
    {
      row->cpu_ns = row->n_samples * interval_ns;
      row->cpu_estimated = TRUE;
      /* The companion missing: the side file's totals, for the whole
       * recording only. */
      if (from_ns == 0 && to_ns == G_MAXUINT64 && sp_offcpu_side_file_totals (meta, row->tid, &totals))
        {
          row->has_states = TRUE;
          row->blocked_ns = totals.blocked_ns;
          row->runnable_ns = totals.runnable_ns;
          row->switches = totals.switches;
        }
      return;
    }
  if (from_ns == 0 && to_ns == G_MAXUINT64)
    totals = *sp_thread_states_get_totals (states, row->thread);
  else
    sp_thread_states_sum_range (states, row->thread, from_ns, to_ns, &totals);
  row->has_states = TRUE;
  row->cpu_ns = totals.running_ns;
  row->blocked_ns = totals.blocked_ns;
  row->runnable_ns = totals.runnable_ns;
  row->switches = totals.switches;
}

/* Per thread, the samples in [from, to): counted along the time order
 * (the whole recording's counts are kept by the index). */
static guint64 *
count_samples (const SpSampleIndex *index,
               guint n_threads,
               guint64 from_ns,
               guint64 to_ns)
{
  guint64 *counts = g_new0 (guint64, MAX (n_threads, 1));
  gsize first, last;
  SpSampleRun run;

  if (from_ns == 0 && to_ns == G_MAXUINT64)
    {
      for (guint t = 0; t < n_threads; t++)
        counts[t] = sp_sample_index_get_thread_samples (index, t);
      return counts;
    }
  sp_sample_index_find_range (index, from_ns, to_ns, &first, &last);
  for (gsize pos = first; pos < last; pos += run.n)
    {
      sp_sample_index_get_run (index, pos, last, &run);
      for (gsize i = 0; i < run.n; i++)
        if (run.thread[i] < n_threads)
          counts[run.thread[i]]++;
    }
  return counts;
}

GArray *
sp_thread_rows_new (SpProfile *profile,
                    const SpSampleIndex *index,
                    const SpThreadStates *states,
                    guint64 from_ns,
                    guint64 to_ns)
{
  guint n_threads = sp_profile_get_n_threads (profile);
  guint64 interval_ns = sp_spool_reader_get_sample_interval_us (sp_profile_get_reader (profile)) * 1000;
  g_autofree guint64 *samples = count_samples (index, n_threads, from_ns, to_ns);
  GArray *rows = g_array_sized_new (FALSE, TRUE, sizeof (SpThreadRow), n_threads);

  g_array_set_clear_func (rows, clear_row);
  for (guint t = 0; t < n_threads; t++)
    {
      SpThreadRow row = { .thread = t, .n_samples = samples[t] };
      const char *name;

      sp_profile_get_thread (profile, t, &row.pid, &row.tid);
      name = sp_profile_get_thread_name (profile, row.tid);
      row.name = name != NULL && name[0] != '\0' ? g_strdup (name) : NULL;
      set_times (&row, states, states == NULL ? sp_profile_get_meta (profile) : NULL, interval_ns, from_ns, to_ns);
      g_array_append_val (rows, row);
    }
  return rows;
}

GArray *
sp_thread_rows_of_profile (SpProfile *profile,
                           guint64 from_ns,
                           guint64 to_ns)
{
  return sp_thread_rows_new (profile, _sp_profile_get_sample_index (profile), sp_profile_get_thread_states (profile),
                             from_ns, to_ns);
}

gboolean
sp_thread_rows_from_side_file (const GArray *rows)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const SpThreadRow *row = &g_array_index (rows, SpThreadRow, i);

      if (row->has_states && row->cpu_estimated)
        return TRUE;
    }
  return FALSE;
}

guint64 sp_thread_row_get_off_cpu_ns (const SpThreadRow *row) { return row->blocked_ns + row->runnable_ns; }
guint64 sp_thread_row_get_wall_ns (const SpThreadRow *row) { return row->cpu_ns + sp_thread_row_get_off_cpu_ns (row); }

gboolean
sp_thread_rows_equal (const GArray *a,
                      const GArray *b)
{
  if (a == NULL || b == NULL || a->len != b->len)
    return a == b;
  for (guint i = 0; i < a->len; i++)
    {
      const SpThreadRow *x = &g_array_index (a, SpThreadRow, i);
      const SpThreadRow *y = &g_array_index (b, SpThreadRow, i);

      if (x->tid != y->tid || x->pid != y->pid || x->n_samples != y->n_samples || g_strcmp0 (x->name, y->name) != 0
          || x->has_states != y->has_states || x->cpu_estimated != y->cpu_estimated || x->cpu_ns != y->cpu_ns || x->blocked_ns != y->blocked_ns
          || x->runnable_ns != y->runnable_ns || x->switches != y->switches)
        return FALSE;
    }
  return TRUE;
}
