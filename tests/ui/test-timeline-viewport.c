/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-timeline-viewport.c: the timeline's time axis
 * (ui/sp-timeline-viewport.h), without GTK or a display: time <-> x,
 * zoom and pan held inside the recording, the ruler's ticks. */
#include <glib.h>

#include "sp-timeline-viewport.h"

/* A recording from 1 ms to 11 ms, all of it in a 100-pixel plot. */
static SpTimelineViewport
ten_ms (void)
{
  return (SpTimelineViewport) { 1000000, 10000000, 1000000, 10000000, 100 };
}

static void
test_mapping (void)
{
  SpTimelineViewport vp = ten_ms ();

  g_assert_cmpfloat (sp_timeline_viewport_time_at (&vp, 0), ==, 1000000);
  g_assert_cmpfloat (sp_timeline_viewport_time_at (&vp, 50), ==, 6000000);
  g_assert_cmpfloat (sp_timeline_viewport_x_of (&vp, 6000000), ==, 50);
  g_assert_cmpfloat (sp_timeline_viewport_x_of (&vp, 11000000), ==, 100);
  /* Outside the plot: still a time, but the clamped one is in the recording. */
  g_assert_cmpfloat (sp_timeline_viewport_time_at (&vp, -10), ==, 0);
  g_assert_cmpuint (sp_timeline_viewport_clamped_time_at (&vp, -10), ==, 1000000);
  g_assert_cmpuint (sp_timeline_viewport_clamped_time_at (&vp, 250), ==, 11000000);
}

/* Zoom keeps the time under x in place; the view never leaves the
 * recording nor gets narrower than 1 µs. */
static void
test_zoom_and_pan (void)
{
  SpTimelineViewport vp = ten_ms ();
  double from;
  guint64 span;

  g_assert_true (sp_timeline_viewport_shows_all (&vp));
  sp_timeline_viewport_zoomed (&vp, 0.5, 25, &from, &span);
  g_assert_cmpfloat (from, ==, 2250000);
  g_assert_cmpuint (span, ==, 5000000);
  g_assert_true (sp_timeline_viewport_set_view (&vp, from, span));
  g_assert_false (sp_timeline_viewport_shows_all (&vp));
  g_assert_cmpfloat (sp_timeline_viewport_time_at (&vp, 25), ==, 3500000);
  g_assert_false (sp_timeline_viewport_set_view (&vp, from, span));

  /* Outside the plot, the middle stays. */
  sp_timeline_viewport_zoomed (&vp, 0.5, -1, &from, &span);
  g_assert_cmpfloat (from + span / 2.0, ==, 2250000 + 2500000);

  /* Panned past either end: held at the end. */
  g_assert_true (sp_timeline_viewport_set_view (&vp, 0, 5000000));
  g_assert_cmpuint (vp.view_from_ns, ==, 1000000);
  g_assert_true (sp_timeline_viewport_set_view (&vp, 1e12, 5000000));
  g_assert_cmpuint (vp.view_from_ns, ==, 6000000);

  /* Zoomed too far in or out. */
  g_assert_true (sp_timeline_viewport_set_view (&vp, 3000000, 10));
  g_assert_cmpuint (vp.view_span_ns, ==, SP_TIMELINE_MIN_SPAN_NS);
  g_assert_true (sp_timeline_viewport_set_view (&vp, 3000000, 50000000));
  g_assert_cmpuint (vp.view_from_ns, ==, 1000000);
  g_assert_cmpuint (vp.view_span_ns, ==, 10000000);
  g_assert_true (sp_timeline_viewport_shows_all (&vp));
}

/* 1, 2 or 5 times a power of ten apart, labelled in seconds from the
 * recording's start with the decimals the step needs. */
static void
test_ruler (void)
{
  SpTimelineViewport vp = { 5000000000, 10000000000, 5000000000, 10000000000, 1000 };
  SpTimelineTicks ticks;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *fine = NULL;

  /* 10 s over 1000 px, 80 px at least: 0.8 s, so a tick a second. */
  sp_timeline_viewport_ticks (&vp, 80, &ticks);
  g_assert_cmpuint (ticks.step_ns, ==, 1000000000);
  g_assert_cmpuint (ticks.first, ==, 0);
  first = sp_timeline_ticks_label (&ticks, 0);
  second = sp_timeline_ticks_label (&ticks, 1);
  g_assert_cmpstr (first, ==, "0 s");
  g_assert_cmpstr (second, ==, "1 s");

  /* 250 µs in view from 1.0003 s on, over 100 px: 200 µs a tick. */
  vp.view_from_ns = vp.data_from_ns + 1000300000;
  vp.view_span_ns = 250000;
  vp.width = 100;
  sp_timeline_viewport_ticks (&vp, 80, &ticks);
  g_assert_cmpuint (ticks.step_ns, ==, 200000);
  g_assert_cmpuint (ticks.first, ==, 5002);
  fine = sp_timeline_ticks_label (&ticks, ticks.first);
  g_assert_cmpstr (fine, ==, "1.0004 s");
}

static void
test_durations (void)
{
  static const struct {
    guint64     ns;
    const char *text;
  } cases[] = {
    { 999, "999 ns" },
    { 1500, "1.5 µs" },
    { 12500000, "12.5 ms" },
    { 2000000000, "2.000 s" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = sp_timeline_format_duration (cases[i].ns);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/timeline-viewport/mapping", test_mapping);
  g_test_add_func ("/ui/timeline-viewport/zoom-and-pan", test_zoom_and_pan);
  g_test_add_func ("/ui/timeline-viewport/ruler", test_ruler);
  g_test_add_func ("/ui/timeline-viewport/durations", test_durations);
  return g_test_run ();
}
