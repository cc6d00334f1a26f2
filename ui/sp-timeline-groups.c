/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline-groups.c: the timeline of a recording of the whole system.
 *
 * Hundreds of processes, thousands of threads: a lane per thread would
 * bury the few that matter. The lanes are grouped instead: on top the CPU
 * usage (every process's samples per bucket; the idle task is in no
 * spool), then a lane per process, busiest first, with its samples per
 * bucket, which a click on its label (its disclosure triangle) unfolds
 * into its threads' lanes, busiest first too. */
#include "sp-timeline-view-private.h"

#include <math.h>

#include "sp-process-rows.h"
#include "sp-thread-rows.h"

static gint
busiest_thread_first (gconstpointer a,
                      gconstpointer b,
                      gpointer threads)
{
  const SpThreadRow *x = &g_array_index ((GArray *) threads, SpThreadRow, *(const guint32 *) a);
  const SpThreadRow *y = &g_array_index ((GArray *) threads, SpThreadRow, *(const guint32 *) b);

  if (x->n_samples != y->n_samples)
    return x->n_samples > y->n_samples ? -1 : 1;
  return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static gboolean
is_hidden (SpTimelineView *self,
           guint32 thread)
{
  /* Asked per thread and bucket at each draw: nothing hidden, no lookup. */
  return g_hash_table_size (self->hidden) > 0 && g_hash_table_contains (self->hidden, GUINT_TO_POINTER (thread));
}

/* Whether every thread of process is hidden (its lane goes). */
static gboolean
all_hidden (SpTimelineView *self,
            const SpProcessRow *process)
{
  for (guint i = 0; i < process->threads->len; i++)
    if (!is_hidden (self, g_array_index (process->threads, guint32, i)))
      return FALSE;
  return process->threads->len > 0;
}

static void
add_thread_lanes (SpTimelineView *self,
                  const SpProcessRow *process)
{
  g_autoptr (GArray) order = g_array_copy (process->threads);

  g_array_sort_with_data (order, busiest_thread_first, self->threads);
  for (guint i = 0; i < order->len; i++)
    {
      guint32 t = g_array_index (order, guint32, i);
      const SpThreadRow *row;
      Lane lane = { t, process->pid, 0, NULL, LANE_THREAD, NULL };

      if (t >= self->threads->len || is_hidden (self, t))
        continue;
      row = &g_array_index (self->threads, SpThreadRow, t);
      lane.tid = row->tid;
      /* Indented under its process's label. */
      if (row->name != NULL)
        lane.label = g_strdup_printf ("    %s (%" G_GUINT64_FORMAT ")", row->name, row->tid);
      else
        lane.label = g_strdup_printf ("    %" G_GUINT64_FORMAT, row->tid);
      g_array_append_val (self->lanes, lane);
    }
}

void
_sp_timeline_groups_build_lanes (SpTimelineView *self)
{
  Lane cpu = { G_MAXUINT32, -1, 0, NULL, LANE_CPU, NULL };

  cpu.label = self->n_cpus > 0 ? g_strdup_printf ("CPU usage (%u CPUs)", self->n_cpus) : g_strdup ("CPU usage");

  g_array_set_size (self->lanes, 0);
  g_array_append_val (self->lanes, cpu);
  /* The rows are busiest first (sp-process-rows.c). */
  for (guint i = 0; i < self->processes->len; i++)
    {
      const SpProcessRow *process = &g_array_index (self->processes, SpProcessRow, i);
      gboolean unfolded = g_hash_table_contains (self->expanded, GINT_TO_POINTER (process->pid));
      Lane lane = { G_MAXUINT32, process->pid, 0, NULL, LANE_PROCESS, process->threads };
      const char *name = process->name != NULL ? process->name : "(unnamed)";

      if (all_hidden (self, process))
        continue;
      lane.label = g_strdup_printf ("%s %s%s%s (%d)", unfolded ? "▾" : "▸", process->kernel_thread ? "[" : "", name,
                                    process->kernel_thread ? "]" : "", process->pid);
      g_array_append_val (self->lanes, lane);
      if (unfolded)
        add_thread_lanes (self, process);
    }
}

static guint32
threads_count (SpTimelineView *self,
               const SpTimeline *tl,
               const GArray *threads,
               guint b)
{
  guint32 count = 0;

  for (guint i = 0; i < threads->len; i++)
    {
      guint32 t = g_array_index (threads, guint32, i);

      if (t < tl->n_threads && !is_hidden (self, t))
        count += tl->counts[(gsize) t * tl->n_buckets + b];
    }
  return count;
}

static guint32
cpu_count (SpTimelineView *self,
           const SpTimeline *tl,
           guint b)
{
  guint32 count = 0;

  for (guint t = 0; t < tl->n_threads; t++)
    if (!is_hidden (self, t))
      count += tl->counts[(gsize) t * tl->n_buckets + b];
  return count;
}

guint32
_sp_timeline_lane_count (SpTimelineView *self,
                         const Lane *lane,
                         guint b)
{
  const SpTimeline *tl = self->timeline;

  if (tl == NULL || b >= tl->n_buckets)
    return 0;
  switch (lane->kind)
    {
    case LANE_PROCESS: return threads_count (self, tl, lane->threads, b);
    case LANE_CPU: return cpu_count (self, tl, b);
    default: return lane->thread < tl->n_threads ? tl->counts[(gsize) lane->thread * tl->n_buckets + b] : 0;
    }
}

guint32
_sp_timeline_lane_max (SpTimelineView *self,
                       const Lane *lane)
{
  if (self->timeline == NULL)
    return 0;
  switch (lane->kind)
    {
    case LANE_PROCESS: return self->process_max;
    case LANE_CPU: return self->cpu_max;
    default: return self->timeline->max_count;
    }
}

/* The samples all the CPUs give one bucket of the timeline when busy. */
static guint32
capacity (SpTimelineView *self)
{
  double bucket_ns = (double) (self->timeline->to_ns - self->timeline->from_ns) / self->timeline->n_buckets;

  return (guint32) MAX (round (self->n_cpus * bucket_ns / self->interval_ns), 1);
}

guint
_sp_timeline_groups_busy_percent (SpTimelineView *self,
                                  guint32 count)
{
  if (self->timeline == NULL || self->n_cpus == 0 || self->interval_ns == 0)
    return G_MAXUINT;
  return (guint) MIN (round (100.0 * count / capacity (self)), 100);
}

void
_sp_timeline_groups_measure (SpTimelineView *self)
{
  const SpTimeline *tl = self->timeline;

  self->process_max = self->cpu_max = 0;
  if (tl == NULL || self->processes == NULL)
    return;
  for (guint b = 0; b < tl->n_buckets; b++)
    self->cpu_max = MAX (self->cpu_max, cpu_count (self, tl, b));
  /* Against the CPUs' capacity: a bucket of every CPU busy is full (a
   * sample's timestamp may fall a bucket late: never over the top). */
  if (self->n_cpus > 0 && self->interval_ns > 0)
    self->cpu_max = MAX (self->cpu_max, capacity (self));
  for (guint i = 0; i < self->processes->len; i++)
    {
      const SpProcessRow *process = &g_array_index (self->processes, SpProcessRow, i);

      for (guint b = 0; b < tl->n_buckets && process->n_samples > 0; b++)
        self->process_max = MAX (self->process_max, threads_count (self, tl, process->threads, b));
    }
}

gboolean
_sp_timeline_groups_label_clicked (SpTimelineView *self,
                                   const Lane *lane)
{
  if (lane->kind != LANE_PROCESS)
    return FALSE;
  sp_timeline_view_set_process_expanded (self, lane->pid,
                                         !g_hash_table_contains (self->expanded, GINT_TO_POINTER (lane->pid)));
  return TRUE;
}

void
sp_timeline_view_set_processes (SpTimelineView *self,
                                GArray *processes,
                                guint n_cpus,
                                guint64 interval_ns)
{
  g_return_if_fail (SP_IS_TIMELINE_VIEW (self));

  if (processes != NULL)
    g_array_ref (processes);
  g_clear_pointer (&self->processes, g_array_unref);
  self->processes = processes;
  self->n_cpus = n_cpus;
  self->interval_ns = interval_ns;
  if (processes == NULL)
    g_hash_table_remove_all (self->expanded);
  /* Another recording, or the same one grown: the caller says again what
   * is hidden (sp_timeline_view_set_hidden_threads). */
  g_hash_table_remove_all (self->hidden);
  /* The lanes borrow the rows' thread lists: made anew from these. */
  if (self->index != NULL)
    sp_timeline_view_set_samples (self, self->index, self->threads);
}

/* The lanes made anew (a process unfolded, threads hidden) and drawn. */
static void
relayout (SpTimelineView *self)
{
  if (self->processes == NULL || self->threads == NULL)
    return;
  _sp_timeline_groups_build_lanes (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_clear_pointer (&self->render_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
sp_timeline_view_set_process_expanded (SpTimelineView *self,
                                       gint32 pid,
                                       gboolean expanded)
{
  g_return_if_fail (SP_IS_TIMELINE_VIEW (self));

  if (expanded)
    g_hash_table_add (self->expanded, GINT_TO_POINTER (pid));
  else
    g_hash_table_remove (self->expanded, GINT_TO_POINTER (pid));
  relayout (self);
}

void
sp_timeline_view_set_hidden_threads (SpTimelineView *self,
                                     const SpFilter *filter)
{
  guint n_threads;

  g_return_if_fail (SP_IS_TIMELINE_VIEW (self));

  n_threads = self->threads != NULL ? self->threads->len : 0;
  g_hash_table_remove_all (self->hidden);
  for (guint t = 0; filter != NULL && t < n_threads; t++)
    if (sp_filter_is_thread_hidden (filter, t))
      g_hash_table_add (self->hidden, GUINT_TO_POINTER (t));
  _sp_timeline_groups_measure (self);
  relayout (self);
}
