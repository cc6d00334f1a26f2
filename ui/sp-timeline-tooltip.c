/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline-tooltip.c: what the timeline says about the lane and time
 * under the pointer: the thread, the samples of the bucket there and,
 * with thread states, the stretch the thread was in. */
#include "sp-timeline-view-private.h"

#include "sp-cells-private.h"
#include "sp-timeline-states-private.h"

static int
lane_at (SpTimelineView *self,
         double y)
{
  int lane;

  if (y < RULER_HEIGHT)
    return -1;
  lane = (int) ((y - RULER_HEIGHT) / LANE_HEIGHT);
  return lane < (int) self->lanes->len ? lane : -1;
}

/* A process's lane, or the CPU's: the samples of the bucket there. */
static char *
group_tooltip (SpTimelineView *self,
               const Lane *lane,
               const char *label,
               double x)
{
  const char *what = lane->kind == LANE_CPU ? "every process's samples" : "the process's samples";
  guint32 count;
  guint b, busy;

  if (x < LABEL_WIDTH)
    return g_strdup_printf ("<b>%s</b>\n%s%s", label, what,
                            lane->kind == LANE_PROCESS ? "\nclick to unfold or fold its threads" : " (idle excluded)");
  if (self->timeline == NULL)
    return g_strdup_printf ("<b>%s</b>", label);
  b = MIN ((guint) ((x - LABEL_WIDTH) * self->timeline->n_buckets / MAX (plot_width (self), 1)),
           self->timeline->n_buckets - 1);
  count = _sp_timeline_lane_count (self, lane, b);
  busy = lane->kind == LANE_CPU ? _sp_timeline_groups_busy_percent (self, count) : G_MAXUINT;
  if (busy != G_MAXUINT)
    return g_strdup_printf ("<b>%s</b>\n%.6f s: %u samples, %u%% of the CPUs", label,
                            (time_at (self, x) - self->data_from_ns) / 1e9, count, busy);
  return g_strdup_printf ("<b>%s</b>\n%.6f s: %u samples", label, (time_at (self, x) - self->data_from_ns) / 1e9,
                          count);
}

static char *
lane_tooltip (SpTimelineView *self,
              const Lane *lane,
              double x)
{
  g_autofree char *label = g_markup_escape_text (lane->label, -1);
  guint64 first, last;
  double t;

  if (lane->kind != LANE_THREAD)
    return group_tooltip (self, lane, label, x);
  if (x < LABEL_WIDTH)
    {
      if (!sp_sample_index_get_thread_span (self->index, lane->thread, &first, &last))
        return g_strdup_printf ("<b>%s</b>\nprocess %d, thread %" G_GUINT64_FORMAT "\nno samples",
                                label, lane->pid, lane->tid);
      return g_strdup_printf ("<b>%s</b>\nprocess %d, thread %" G_GUINT64_FORMAT "\nsamples from %.3f s to %.3f s",
                              label, lane->pid, lane->tid,
                              (first - self->data_from_ns) / 1e9, (last - self->data_from_ns) / 1e9);
    }
  t = time_at (self, x);
  if (self->timeline != NULL)
    {
      guint n = self->timeline->n_buckets, b = (guint) ((x - LABEL_WIDTH) * n / MAX (plot_width (self), 1));
      double bucket_ns = (double) self->view_span_ns / n;
      g_autofree char *states = NULL;
      guint32 count;

      b = MIN (b, n - 1);
      /* A thread may have states and no sample at all. */
      count = lane->thread < self->timeline->n_threads ? self->timeline->counts[(gsize) lane->thread * n + b] : 0;
      if (self->states != NULL)
        states = _sp_timeline_states_describe (self->states, self->blocking_names, lane->thread, (guint64) t,
                                               self->data_from_ns, self->view_from_ns + (guint64) (b * bucket_ns),
                                               self->view_from_ns + (guint64) ((b + 1) * bucket_ns));
      return g_strdup_printf ("<b>%s</b>\n%.6f s: %u samples%s%s", label, (t - self->data_from_ns) / 1e9, count,
                              states != NULL ? "\n" : "", states != NULL ? states : "");
    }
  return g_strdup_printf ("<b>%s</b>", label);
}

gboolean
_sp_timeline_view_query_tooltip (GtkWidget *widget,
                                int x,
                                int y,
                                gboolean keyboard_mode,
                                GtkTooltip *tooltip)
{
  SpTimelineView *self = SP_TIMELINE_VIEW (widget);
  int lane = lane_at (self, y);
  g_autofree char *markup = NULL;
  GdkRectangle area;

  if (lane < 0 || !has_data (self))
    return FALSE;
  markup = lane_tooltip (self, &g_array_index (self->lanes, Lane, lane), x);
  _sp_cells_set_tooltip_markup (tooltip, markup);
  area.x = x < LABEL_WIDTH ? 0 : x;
  area.y = RULER_HEIGHT + lane * LANE_HEIGHT;
  area.width = x < LABEL_WIDTH ? LABEL_WIDTH : 1;
  area.height = LANE_HEIGHT;
  gtk_tooltip_set_tip_area (tooltip, &area);
  return TRUE;
}

char *
sp_timeline_view_describe (SpTimelineView *self,
                           guint lane,
                           double from_s)
{
  g_return_val_if_fail (SP_IS_TIMELINE_VIEW (self), NULL);
  g_return_val_if_fail (lane < self->lanes->len, NULL);

  if (!has_data (self))
    return NULL;
  _sp_timeline_view_ensure_timeline (self);
  return lane_tooltip (self, &g_array_index (self->lanes, Lane, lane),
                       x_of (self, self->data_from_ns + from_s * 1e9));
}
