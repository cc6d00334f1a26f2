/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-gui-frames.h: every frame a window's GdkFrameClock runs, timed.
 *
 * A frame starts when the clock dispatches input (flush-events) or, without
 * input, at before-paint, and ends after the last after-paint handler;
 * "painted" says whether it drew (the paint phase ran). A tick callback
 * keeps the clock running once per refresh interval even when nothing
 * changes, so the gap between two frame starts is also how long the main
 * thread was unavailable: work outside the frame clock (a GTask callback
 * swapping in a new tree) shows up as a long gap. Times are CLOCK_MONOTONIC
 * seconds (bench_wall_now), the clock the recorder stamps samples with. */
#pragma once

#include <stdio.h>

#include <gtk/gtk.h>

typedef struct {
  double   start;
  double   end;
  double   cpu;      /* the main thread's CPU time at the end (bench_cpu_now) */
  gboolean painted;
} BenchFrame;

typedef struct _BenchFrames BenchFrames;

/* Called at the end of every frame, after the window's own handlers. */
typedef void (*BenchFrameFunc) (BenchFrames *frames,
                                const BenchFrame *frame,
                                gpointer user_data);

/* Starts timing window's frames once it is realized (now, if it is). */
BenchFrames *bench_frames_new (GtkWindow *window,
                               BenchFrameFunc func,
                               gpointer user_data);
void bench_frames_free (BenchFrames *frames);

/* The frames so far, oldest first. */
const BenchFrame *bench_frames_get (BenchFrames *frames,
                                    guint *n_frames);

/* The refresh interval the clock paces itself to, in seconds. */
double bench_frames_get_refresh_interval (BenchFrames *frames);

/* Figures over the frames that start in [from, to]. */
typedef struct {
  guint  n_frames;
  guint  n_painted;
  double work_median;    /* painted frames: start to end, seconds */
  double work_p95;
  double work_max;
  double gap_median;     /* between consecutive frame starts */
  double gap_p95;
  double gap_max;
  guint  n_late;         /* gaps longer than two refresh intervals */
} BenchFrameStats;

/* One line per frame to out: "start end work_ms gap_ms painted cpu_ms",
 * times in seconds after t0. */
void bench_frames_write (BenchFrames *frames,
                         FILE *out,
                         double t0);

void bench_frames_stats (BenchFrames *frames,
                         double from,
                         double to,
                         BenchFrameStats *stats);

/* The nearest-rank quantile q (0..1) of values (sorted in place). */
double bench_quantile (double *values,
                       guint n,
                       double q);
