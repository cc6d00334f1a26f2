/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline-viewport.h: the timeline's time axis in plain C: which
 * part of the recording is in view, time <-> x, zoom and pan held inside
 * the recording, and the ruler's ticks and labels.
 *
 * The widget (sp-timeline-view.c) draws and handles input; this is the
 * arithmetic under it, GLib only and tested without a display. Times are
 * the spool's sample timestamps (ns); x counts pixels from the plot's left
 * edge (the widget's lane labels are left of it). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The deepest zoom: 1 µs across (or the whole recording, if shorter). */
#define SP_TIMELINE_MIN_SPAN_NS 1000

typedef struct {
  guint64 data_from_ns;   /* the recording: its first sample */
  guint64 data_span_ns;   /* to just past its last; 0: no data */
  guint64 view_from_ns;   /* the part in view */
  guint64 view_span_ns;
  int     width;          /* the plot's, in pixels */
} SpTimelineViewport;

/* The time at x (which may be outside the plot), and the x of a time. */
double sp_timeline_viewport_time_at (const SpTimelineViewport *self,
                                     double x);
double sp_timeline_viewport_x_of (const SpTimelineViewport *self,
                                  double t_ns);

/* The time at x, held inside the recording. */
guint64 sp_timeline_viewport_clamped_time_at (const SpTimelineViewport *self,
                                              double x);

/* Shows from_ns for span_ns, held inside the recording: no wider than
 * it, no narrower than SP_TIMELINE_MIN_SPAN_NS. TRUE when the view
 * changed. */
gboolean sp_timeline_viewport_set_view (SpTimelineViewport *self,
                                        double from_ns,
                                        guint64 span_ns);

/* The view scaled by factor around x (the middle when x is not over the
 * plot), before set_view holds it inside the recording. */
void sp_timeline_viewport_zoomed (const SpTimelineViewport *self,
                                  double factor,
                                  double x,
                                  double *from_ns,
                                  guint64 *span_ns);

/* Whether the view shows the whole recording. */
gboolean sp_timeline_viewport_shows_all (const SpTimelineViewport *self);

/* The ruler's ticks: 1, 2 or 5 times a power of ten ns apart, at least
 * min_spacing pixels; tick k is at data_from_ns + k * step_ns, labelled
 * in seconds from the first sample with as many decimals as the step
 * needs. */
typedef struct {
  guint64 step_ns;
  int     decimals;
  guint64 first;     /* the first tick at or after the view's start */
} SpTimelineTicks;

void sp_timeline_viewport_ticks (const SpTimelineViewport *self,
                                 double min_spacing,
                                 SpTimelineTicks *ticks);

/* "1.5 s": tick k's label; newly allocated. */
char *sp_timeline_ticks_label (const SpTimelineTicks *ticks,
                               guint64 k);

/* "12.5 ms": a duration with three significant digits or so; newly
 * allocated. */
char *sp_timeline_format_duration (guint64 ns);

G_END_DECLS
