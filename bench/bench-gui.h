/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-gui.h: the GUI benchmark's measuring children (bench/run-gui).
 *
 * Each runs in a fresh process started by bench-gui's parent and prints
 * "key value" lines on stdout (times as CLOCK_MONOTONIC seconds, so the
 * parent can subtract the moment it started the child). */
#pragma once

#include <gtk/gtk.h>

/* What the application window does once the file is shown. */
typedef enum {
  BENCH_GUI_OPEN,   /* draw the call tree, then the flame graph, and quit */
  BENCH_GUI_ZOOM,   /* then click frames of the flame graph and its root */
  BENCH_GUI_DRAG,   /* then drag ranges on the timeline */
} BenchGuiScenario;

/* `stackpulse FILE` (the same application object and command line), with
 * the window's frames timed; cycles: clicks or drags for ZOOM and DRAG. */
int bench_gui_child_app (const char *path,
                         BenchGuiScenario scenario,
                         guint cycles);

/* The window records burn (threads, seconds) through the real recorder
 * at freq Hz; prints how long samples took from the spool to the screen. */
int bench_gui_child_live (const char *burn,
                          guint threads,
                          double seconds,
                          guint freq);

/* Starts argv (NULL-terminated) and watches the X screen from outside:
 * when its first window maps, and when its content last changed a lot
 * before it stayed still for settle seconds (or timeout passed). Saves
 * that last content as png (when not NULL). */
int bench_gui_child_watch (char **argv,
                           double settle,
                           double timeout,
                           const char *png);

/* ---- Helpers shared by the children ----------------------------------- */

/* The first widget of type under root (depth first), or NULL. */
GtkWidget *bench_gui_find_widget (GtkWidget *root,
                                  GType type);

/* Samples under the call tree's top-level rows (what it shows). Asking
 * the window for its model hands over every row still to come. */
guint64 bench_gui_call_tree_total (GtkWidget *window);

/* The same over rows (GtkTreeListRow items of SpFunctionItems). */
guint64 bench_gui_rows_total (GListModel *rows);
