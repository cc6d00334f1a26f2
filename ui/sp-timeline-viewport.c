/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline-viewport.c: the timeline's time axis
 * (sp-timeline-viewport.h). */
#include "sp-timeline-viewport.h"

#include <math.h>

double
sp_timeline_viewport_time_at (const SpTimelineViewport *self,
                              double x)
{
  return self->view_from_ns + x * (double) self->view_span_ns / MAX (self->width, 1);
}

double
sp_timeline_viewport_x_of (const SpTimelineViewport *self,
                           double t_ns)
{
  return (t_ns - self->view_from_ns) * self->width / (double) self->view_span_ns;
}

guint64
sp_timeline_viewport_clamped_time_at (const SpTimelineViewport *self,
                                      double x)
{
  double t = sp_timeline_viewport_time_at (self, x);

  t = CLAMP (t, (double) self->data_from_ns, (double) (self->data_from_ns + self->data_span_ns));
  return (guint64) t;
}

gboolean
sp_timeline_viewport_set_view (SpTimelineViewport *self,
                               double from_ns,
                               guint64 span_ns)
{
  double last_from;

  span_ns = CLAMP (span_ns, MIN (SP_TIMELINE_MIN_SPAN_NS, self->data_span_ns), self->data_span_ns);
  last_from = (double) (self->data_from_ns + (self->data_span_ns - span_ns));
  from_ns = CLAMP (from_ns, (double) self->data_from_ns, last_from);
  if ((guint64) from_ns == self->view_from_ns && span_ns == self->view_span_ns)
    return FALSE;
  self->view_from_ns = (guint64) from_ns;
  self->view_span_ns = span_ns;
  return TRUE;
}

void
sp_timeline_viewport_zoomed (const SpTimelineViewport *self,
                             double factor,
                             double x,
                             double *from_ns,
                             guint64 *span_ns)
{
  double frac = 0.5, anchor, span;

  if (self->width > 0 && x >= 0 && x < self->width)
    frac = x / self->width;
  anchor = self->view_from_ns + frac * self->view_span_ns;
  span = round (self->view_span_ns * factor);
  span = CLAMP (span, 1.0, (double) self->data_span_ns);
  *from_ns = anchor - frac * span;
  *span_ns = (guint64) span;
}

gboolean
sp_timeline_viewport_shows_all (const SpTimelineViewport *self)
{
  return self->view_span_ns == self->data_span_ns;
}

/* The tick step: 1, 2 or 5 times a power of ten ns, at least min_ns. */
static guint64
tick_step (double min_ns,
           int *decimals)
{
  static const guint mantissas[] = { 1, 2, 5 };
  guint64 power = 1;

  for (int exponent = 0; exponent < 19; exponent++, power *= 10)
    for (guint i = 0; i < G_N_ELEMENTS (mantissas); i++)
      if (mantissas[i] * (double) power >= min_ns)
        {
          *decimals = MAX (9 - exponent, 0);
          return mantissas[i] * power;
        }
  *decimals = 0;
  return power;
}

void
sp_timeline_viewport_ticks (const SpTimelineViewport *self,
                            double min_spacing,
                            SpTimelineTicks *ticks)
{
  ticks->step_ns = tick_step ((double) self->view_span_ns * min_spacing / MAX (self->width, 1), &ticks->decimals);
  ticks->first = (self->view_from_ns - self->data_from_ns + ticks->step_ns - 1) / ticks->step_ns;
}

char *
sp_timeline_ticks_label (const SpTimelineTicks *ticks,
                         guint64 k)
{
  return g_strdup_printf ("%.*f s", ticks->decimals, k * ticks->step_ns / 1e9);
}

char *
sp_timeline_format_duration (guint64 ns)
{
  if (ns < 1000)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " ns", ns);
  if (ns < 1000000)
    return g_strdup_printf ("%.3g µs", ns / 1e3);
  if (ns < G_GUINT64_CONSTANT (1000000000))
    return g_strdup_printf ("%.3g ms", ns / 1e6);
  return g_strdup_printf ("%.3f s", ns / 1e9);
}
