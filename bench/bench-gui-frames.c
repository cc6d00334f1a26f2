/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-gui-frames.c: frame timing from a window's GdkFrameClock. */
#include "bench-gui-frames.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench-probe.h"

struct _BenchFrames
{
  GtkWindow      *window;         /* borrowed: the probe lives shorter */
  GdkFrameClock  *clock;          /* owned */
  GArray         *frames;         /* BenchFrame */
  BenchFrameFunc  func;
  gpointer        user_data;
  double          input_start;    /* flush-events of the coming frame, or 0 */
  BenchFrame      current;
  guint           tick_id;
  gulong          realize_id;
};

static void
on_flush_events (GdkFrameClock *clock,
                 BenchFrames *self)
{
  if (self->input_start == 0)
    self->input_start = bench_wall_now ();
}

static void
on_before_paint (GdkFrameClock *clock,
                 BenchFrames *self)
{
  self->current.start = self->input_start != 0 ? self->input_start : bench_wall_now ();
  self->current.painted = FALSE;
  self->input_start = 0;
}

static void
on_paint (GdkFrameClock *clock,
          BenchFrames *self)
{
  self->current.painted = TRUE;
}

static void
on_after_paint (GdkFrameClock *clock,
                BenchFrames *self)
{
  if (self->current.start == 0)
    return;
  self->current.end = bench_wall_now ();
  self->current.cpu = bench_cpu_now ();
  g_array_append_val (self->frames, self->current);
  if (self->func != NULL)
    self->func (self, &self->current, self->user_data);
  self->current.start = 0;
}

/* Keeps the clock running every refresh interval: an idle window would
 * otherwise run no frames, and a stall would not show as a gap. */
static gboolean
keep_ticking (GtkWidget *widget,
              GdkFrameClock *clock,
              gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

static void
attach (BenchFrames *self)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (self->window));

  self->clock = g_object_ref (gdk_surface_get_frame_clock (surface));
  g_signal_connect (self->clock, "flush-events", G_CALLBACK (on_flush_events), self);
  g_signal_connect (self->clock, "before-paint", G_CALLBACK (on_before_paint), self);
  g_signal_connect (self->clock, "paint", G_CALLBACK (on_paint), self);
  g_signal_connect_after (self->clock, "after-paint", G_CALLBACK (on_after_paint), self);
  self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self->window), keep_ticking, NULL, NULL);
}

static void
on_realize (GtkWidget *window,
            BenchFrames *self)
{
  g_clear_signal_handler (&self->realize_id, window);
  attach (self);
}

BenchFrames *
bench_frames_new (GtkWindow *window,
                  BenchFrameFunc func,
                  gpointer user_data)
{
  BenchFrames *self = g_new0 (BenchFrames, 1);

  self->window = window;
  self->frames = g_array_new (FALSE, FALSE, sizeof (BenchFrame));
  self->func = func;
  self->user_data = user_data;
  if (gtk_widget_get_realized (GTK_WIDGET (window)))
    attach (self);
  else
    self->realize_id = g_signal_connect_after (window, "realize", G_CALLBACK (on_realize), self);
  return self;
}

void
bench_frames_free (BenchFrames *self)
{
  if (self == NULL)
    return;
  g_clear_signal_handler (&self->realize_id, self->window);
  if (self->clock != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->clock, self);
      gtk_widget_remove_tick_callback (GTK_WIDGET (self->window), self->tick_id);
      g_object_unref (self->clock);
    }
  g_array_unref (self->frames);
  g_free (self);
}

const BenchFrame *
bench_frames_get (BenchFrames *self,
                  guint *n_frames)
{
  *n_frames = self->frames->len;
  return (const BenchFrame *) (gpointer) self->frames->data;
}

double
bench_frames_get_refresh_interval (BenchFrames *self)
{
  gint64 interval = 0, presentation = 0;

  if (self->clock == NULL)
    return 1 / 60.0;
  gdk_frame_clock_get_refresh_info (self->clock, 0, &interval, &presentation);
  return interval > 0 ? interval / 1e6 : 1 / 60.0;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

double
bench_quantile (double *values,
                guint n,
                double q)
{
  guint rank;

  if (n == 0)
    return 0;
  qsort (values, n, sizeof *values, compare_doubles);
  rank = (guint) MAX (ceil (q * n), 1);
  return values[MIN (rank, n) - 1];
}

void
bench_frames_stats (BenchFrames *self,
                    double from,
                    double to,
                    BenchFrameStats *stats)
{
  const BenchFrame *frames = (const BenchFrame *) (gpointer) self->frames->data;
  g_autofree double *work = g_new (double, self->frames->len + 1);
  g_autofree double *gaps = g_new (double, self->frames->len + 1);
  double interval = bench_frames_get_refresh_interval (self);
  guint n_gaps = 0;
  double previous = 0;

  memset (stats, 0, sizeof *stats);
  for (guint i = 0; i < self->frames->len; i++)
    {
      const BenchFrame *f = &frames[i];

      if (f->start < from || f->start > to)
        {
          previous = f->start;
          continue;
        }
      stats->n_frames++;
      if (f->painted)
        work[stats->n_painted++] = f->end - f->start;
      if (previous > 0)
        {
          gaps[n_gaps++] = f->start - previous;
          stats->n_late += f->start - previous > 2 * interval;
        }
      previous = f->start;
    }
  stats->work_median = bench_quantile (work, stats->n_painted, 0.5);
  stats->work_p95 = bench_quantile (work, stats->n_painted, 0.95);
  stats->work_max = bench_quantile (work, stats->n_painted, 1);
  stats->gap_median = bench_quantile (gaps, n_gaps, 0.5);
  stats->gap_p95 = bench_quantile (gaps, n_gaps, 0.95);
  stats->gap_max = bench_quantile (gaps, n_gaps, 1);
}

void
bench_frames_write (BenchFrames *frames,
                    FILE *out,
                    double t0)
{
  guint n;
  const BenchFrame *f = bench_frames_get (frames, &n);

  for (guint i = 0; i < n; i++)
    fprintf (out, "%.4f %.4f %.1f %.1f %d %.1f\n", f[i].start - t0, f[i].end - t0, (f[i].end - f[i].start) * 1e3,
             i > 0 ? (f[i].start - f[i - 1].start) * 1e3 : 0, f[i].painted, i > 0 ? (f[i].cpu - f[i - 1].cpu) * 1e3 : 0);
}
