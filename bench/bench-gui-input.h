/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-gui-input.h: pointer input through the X server (XTEST), sent from
 * a thread of its own on its own X connection.
 *
 * The events go the way a mouse's do: X server, GDK's event source, GTK's
 * gestures, the widget's handler. Sending them from another thread keeps
 * their pace independent of the window's main thread, like a hand on a
 * mouse: when the main thread stalls, events queue up, and the stall shows
 * in the frame clock's gaps. X11 only (the benchmark runs under Xvfb). */
#pragma once

#include <gtk/gtk.h>

typedef enum {
  BENCH_INPUT_MOVE,
  BENCH_INPUT_PRESS,      /* primary button */
  BENCH_INPUT_RELEASE,
} BenchInputKind;

typedef struct {
  double         at;      /* seconds after bench_input_start */
  BenchInputKind kind;
  int            x;       /* root window coordinates */
  int            y;
  double         sent;    /* filled in: when it was sent (bench_wall_now) */
} BenchInputEvent;

typedef struct _BenchInput BenchInput;

/* Where (x, y) in widget's coordinates is on the X screen. FALSE when
 * the display is not X11 or the widget is not in a realized window. */
gboolean bench_input_root_point (GtkWidget *widget,
                                 double x,
                                 double y,
                                 int *root_x,
                                 int *root_y);

/* Starts sending events (borrowed until bench_input_finish, which also
 * fills in their times); NULL with error when XTEST is unavailable. */
BenchInput *bench_input_start (BenchInputEvent *events,
                               guint n_events,
                               GError **error);

gboolean bench_input_is_done (BenchInput *input);

/* Waits for the last event and closes the connection. */
void bench_input_finish (BenchInput *input);
