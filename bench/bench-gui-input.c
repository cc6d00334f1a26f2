/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-gui-input.c: XTEST pointer events on a schedule, from a thread. */
#include "bench-gui-input.h"

#include <X11/Xlib.h>
#include <X11/extensions/XTest.h>
#include <gdk/x11/gdkx.h>
#include <time.h>

#include "bench-probe.h"

struct _BenchInput
{
  Display         *display;   /* the thread's own connection */
  GThread         *thread;
  BenchInputEvent *events;
  guint            n_events;
  double           t0;
  gint             done;      /* atomic */
};

gboolean
bench_input_root_point (GtkWidget *widget,
                        double x,
                        double y,
                        int *root_x,
                        int *root_y)
{
  GtkNative *native = gtk_widget_get_native (widget);
  GdkSurface *surface = native != NULL ? gtk_native_get_surface (native) : NULL;
  graphene_point_t in = GRAPHENE_POINT_INIT (x, y), out;
  double sx, sy;
  Window child;

  if (surface == NULL || !GDK_IS_X11_SURFACE (surface)
      || !gtk_widget_compute_point (widget, GTK_WIDGET (native), &in, &out))
    return FALSE;
  /* Window coordinates to surface coordinates (client-side shadows). */
  gtk_native_get_surface_transform (native, &sx, &sy);
  return XTranslateCoordinates (gdk_x11_display_get_xdisplay (gdk_surface_get_display (surface)),
                                gdk_x11_surface_get_xid (surface),
                                DefaultRootWindow (gdk_x11_display_get_xdisplay (gdk_surface_get_display (surface))),
                                (int) (out.x + sx), (int) (out.y + sy), root_x, root_y, &child);
}

static void
sleep_until (double t)
{
  struct timespec ts = { (time_t) t, (long) ((t - (time_t) t) * 1e9) };

  while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) != 0)
    ;
}

static gpointer
send_events (gpointer data)
{
  BenchInput *self = data;

  for (guint i = 0; i < self->n_events; i++)
    {
      BenchInputEvent *e = &self->events[i];

      sleep_until (self->t0 + e->at);
      if (e->kind == BENCH_INPUT_MOVE)
        XTestFakeMotionEvent (self->display, -1, e->x, e->y, CurrentTime);
      else
        {
          /* A press lands where the pointer is: move there first. */
          XTestFakeMotionEvent (self->display, -1, e->x, e->y, CurrentTime);
          XTestFakeButtonEvent (self->display, 1, e->kind == BENCH_INPUT_PRESS, CurrentTime);
        }
      XFlush (self->display);
      e->sent = bench_wall_now ();
    }
  g_atomic_int_set (&self->done, 1);
  return NULL;
}

BenchInput *
bench_input_start (BenchInputEvent *events,
                   guint n_events,
                   GError **error)
{
  BenchInput *self;
  Display *display = XOpenDisplay (NULL);
  int event_base, error_base, major, minor;

  if (display == NULL || !XTestQueryExtension (display, &event_base, &error_base, &major, &minor))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   display == NULL ? "cannot open the X display" : "the X server has no XTEST extension");
      if (display != NULL)
        XCloseDisplay (display);
      return NULL;
    }
  self = g_new0 (BenchInput, 1);
  self->display = display;
  self->events = events;
  self->n_events = n_events;
  self->t0 = bench_wall_now ();
  self->thread = g_thread_new ("bench-input", send_events, self);
  return self;
}

gboolean
bench_input_is_done (BenchInput *self)
{
  return g_atomic_int_get (&self->done) != 0;
}

void
bench_input_finish (BenchInput *self)
{
  if (self == NULL)
    return;
  g_thread_join (self->thread);
  XCloseDisplay (self->display);
  g_free (self);
}
