/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-gui-app.c: `stackpulse FILE` with its frames timed, then zooming
 * the flame graph or dragging ranges on the timeline.
 *
 * The child builds the application exactly as app/stackpulse.c does and
 * runs it with the file on its command line; it only watches: the window
 * (from the application's window-added) gets a frame probe, and the
 * interactions are real pointer events through the X server. What it
 * prints:
 *   open: when the first frame showing the profile (timeline with its bars
 *     and call tree) ended, then when the flame graph, asked for right after, was drawn;
 *     the frame gaps while the file was read (the window must keep drawing);
 *   zoom: frame times while clicking frames of the flame graph (zoom in)
 *     and its root row (zoom out), and each click's time to the frame
 *     showing the new zoom;
 *   drag: frame times while dragging ranges on the timeline, and each
 *     release's time to the frame showing the re-aggregated call tree. */
#include <math.h>
#include <stdio.h>

#include "bench-gui-frames.h"
#include "bench-gui-input.h"
#include "bench-gui.h"
#include "bench-probe.h"
#include "sp-application.h"
#include "sp-flame-graph.h"
#include "sp-timeline-view.h"
#include "sp-tree-item.h"
#include "sp-window-testing.h"

#define ROW_HEIGHT      18     /* the flame graph's (ui/sp-flame-graph.c) */
#define LABEL_WIDTH     160    /* the timeline's lane labels, */
#define RULER_HEIGHT    24     /* ruler */
#define LANE_HEIGHT     28     /* and lanes (ui/sp-timeline-view.c) */
#define ZOOM_PERIOD     0.7    /* s per zoom in + zoom out (two clicks) */
#define CLICK_HOLD      0.04
#define DRAG_PERIOD     1.5    /* s per drag: the new trees arrive in between */
#define DRAG_LENGTH     0.25   /* s from press to release */
#define DRAG_STEP       0.008  /* s between motion events (a 125 Hz mouse) */
#define SETTLE          1.0    /* s of frames after the last event */
#define GIVE_UP_S       180    /* a child still running then has failed */

typedef struct {
  double  time;
  guint64 total;
} TotalChange;

typedef struct {
  BenchGuiScenario scenario;
  guint            cycles;
  GApplication    *app;
  SpWindow        *window;
  BenchFrames     *frames;
  double           t_main;
  double           t_first;       /* end of the window's first frame */
  double           t_profile;     /* end of the first frame showing the profile */
  double           t_flame_asked;
  double           t_flame;       /* end of the first frame showing the flame graph */
  guint            profile_rows;
  guint64          profile_total;
  /* Interactions */
  GArray          *events;        /* BenchInputEvent */
  BenchInput      *input;
  GArray          *zooms;         /* double: when the flame graph's zoom changed */
  GArray          *totals;        /* TotalChange: frames drawing another call tree */
  guint64          last_total;
  int              status;
} AppRun;

/* ---- Widgets ------------------------------------------------------------ */

GtkWidget *
bench_gui_find_widget (GtkWidget *root,
                       GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = bench_gui_find_widget (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

guint64
bench_gui_call_tree_total (GtkWidget *window)
{
  return bench_gui_rows_total (sp_window_get_call_tree_model (SP_WINDOW (window)));
}

guint64
bench_gui_rows_total (GListModel *rows)
{
  guint64 total = 0;

  for (guint i = 0; rows != NULL && i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);

      if (gtk_tree_list_row_get_depth (row) == 0)
        {
          g_autoptr (SpTreeItem) item = gtk_tree_list_row_get_item (row);

          total += sp_function_item_get_total (SP_FUNCTION_ITEM (item));
        }
    }
  return total;
}

/* ---- Finishing ---------------------------------------------------------- */

static void fail (AppRun *run,
                  const char *message);

static void
print_stats (const char *prefix,
             const BenchFrameStats *s)
{
  printf ("%s_frames %u\n%s_painted %u\n", prefix, s->n_frames, prefix, s->n_painted);
  printf ("%s_work_median %.6f\n%s_work_p95 %.6f\n%s_work_max %.6f\n", prefix, s->work_median, prefix, s->work_p95,
          prefix, s->work_max);
  printf ("%s_gap_median %.6f\n%s_gap_p95 %.6f\n%s_gap_max %.6f\n%s_late %u\n", prefix, s->gap_median, prefix,
          s->gap_p95, prefix, s->gap_max, prefix, s->n_late);
}

/* The frame (painted, ending after t) that first showed a change made at t. */
static const BenchFrame *
frame_showing (AppRun *run,
               double t)
{
  guint n;
  const BenchFrame *frames = bench_frames_get (run->frames, &n);

  for (guint i = 0; i < n; i++)
    if (frames[i].painted && frames[i].end > t)
      return &frames[i];
  return NULL;
}

/* The most CPU time the main thread spent from one frame's end to the
 * next's, over the frames ending up to t: a stall's own work, which a
 * shared machine's load does not stretch as it does the gaps. */
static double
max_cpu_between_frames (AppRun *run,
                        double t)
{
  guint n;
  const BenchFrame *frames = bench_frames_get (run->frames, &n);
  double max = 0;

  for (guint i = 1; i < n && frames[i].end <= t; i++)
    max = MAX (max, frames[i].cpu - frames[i - 1].cpu);
  return max;
}

/* $BENCH_GUI_FRAMES: every frame, for a closer look (seconds after main). */
static void
dump_frames (AppRun *run)
{
  const char *path = g_getenv ("BENCH_GUI_FRAMES");
  FILE *out;

  if (path == NULL || (out = fopen (path, "w")) == NULL)
    return;
  fprintf (out, "# start end work_ms gap_ms painted cpu_ms (s after main; profile shown at %.3f;"
           " cpu_ms: the main thread's since the frame before ended)\n",
           run->t_profile - run->t_main);
  /* To find the frames in `perf record -k CLOCK_MONOTONIC`'s samples. */
  fprintf (out, "# main at %.6f s of CLOCK_MONOTONIC\n", run->t_main);
  /* The input events sent, and the frames that drew another call tree. */
  for (guint i = 0; run->events != NULL && i < run->events->len; i++)
    {
      const BenchInputEvent *e = &g_array_index (run->events, BenchInputEvent, i);

      if (e->kind != BENCH_INPUT_MOVE)
        fprintf (out, "# %s at %.4f\n", e->kind == BENCH_INPUT_PRESS ? "press" : "release", e->sent - run->t_main);
    }
  for (guint i = 0; run->totals != NULL && i < run->totals->len; i++)
    fprintf (out, "# new call tree drawn at %.4f\n", g_array_index (run->totals, TotalChange, i).time - run->t_main);
  bench_frames_write (run->frames, out, run->t_main);
  fclose (out);
}

static void
print_open (AppRun *run)
{
  BenchFrameStats load;
  BenchStatus status;
  const BenchFrame *profile = frame_showing (run, run->t_profile - 1e-9);
  const BenchFrame *flame = frame_showing (run, run->t_flame - 1e-9);

  bench_frames_stats (run->frames, 0, run->t_profile, &load);
  bench_read_status (&status);
  printf ("t_main %.6f\nt_first %.6f\nt_profile %.6f\nt_flame %.6f\n", run->t_main, run->t_first, run->t_profile,
          run->t_flame);
  printf ("flame_after %.6f\n", run->t_flame - run->t_profile);
  printf ("profile_rows %u\nsamples %" G_GUINT64_FORMAT "\n", run->profile_rows, run->profile_total);
  printf ("profile_work %.6f\nflame_work %.6f\n", profile->end - profile->start, flame->end - flame->start);
  print_stats ("load", &load);
  printf ("load_cpu_max %.6f\n", max_cpu_between_frames (run, run->t_profile));
  printf ("refresh %.6f\nhwm %" G_GINT64_FORMAT "\n", bench_frames_get_refresh_interval (run->frames),
          (gint64) status.vm_hwm);
  dump_frames (run);
}

/* Each click (press) to the frame that showed the zoom it caused. */
static void
print_zoom (AppRun *run)
{
  g_autofree double *latency = g_new0 (double, run->events->len + 1);
  guint n_clicks = 0, n_latency = 0, z = 0;

  for (guint i = 0; i < run->events->len; i++)
    {
      const BenchInputEvent *e = &g_array_index (run->events, BenchInputEvent, i);
      const BenchFrame *frame;

      if (e->kind != BENCH_INPUT_PRESS)
        continue;
      n_clicks++;
      while (z < run->zooms->len && g_array_index (run->zooms, double, z) < e->sent)
        z++;
      if (z == run->zooms->len || g_array_index (run->zooms, double, z) > e->sent + ZOOM_PERIOD / 2)
        continue;
      frame = frame_showing (run, g_array_index (run->zooms, double, z));
      if (frame != NULL)
        latency[n_latency++] = frame->end - e->sent;
    }
  printf ("clicks %u\nzooms %u\nshown %u\n", n_clicks, run->zooms->len, n_latency);
  printf ("click_median %.6f\nclick_max %.6f\n", bench_quantile (latency, n_latency, 0.5),
          bench_quantile (latency, n_latency, 1));
}

/* Each release to the frame that showed a call tree with other totals. */
static void
print_drag (AppRun *run)
{
  g_autofree double *latency = g_new0 (double, run->events->len + 1);
  guint n_drags = 0, n_latency = 0, c = 0;

  for (guint i = 0; i < run->events->len; i++)
    {
      const BenchInputEvent *e = &g_array_index (run->events, BenchInputEvent, i);

      if (e->kind != BENCH_INPUT_RELEASE)
        continue;
      n_drags++;
      while (c < run->totals->len && g_array_index (run->totals, TotalChange, c).time < e->sent)
        c++;
      if (c < run->totals->len && g_array_index (run->totals, TotalChange, c).time < e->sent + DRAG_PERIOD)
        latency[n_latency++] = g_array_index (run->totals, TotalChange, c).time - e->sent;
    }
  printf ("drags %u\nupdates %u\n", n_drags, n_latency);
  printf ("release_median %.6f\nrelease_max %.6f\n", bench_quantile (latency, n_latency, 0.5),
          bench_quantile (latency, n_latency, 1));
}

static void
finish (AppRun *run)
{
  if (run->input != NULL)
    {
      BenchFrameStats stats;
      const BenchInputEvent *first = &g_array_index (run->events, BenchInputEvent, 0);
      const BenchInputEvent *last = &g_array_index (run->events, BenchInputEvent, run->events->len - 1);

      bench_input_finish (g_steal_pointer (&run->input));
      bench_frames_stats (run->frames, first->sent, last->sent + SETTLE, &stats);
      print_stats ("act", &stats);
      if (run->scenario == BENCH_GUI_ZOOM)
        print_zoom (run);
      else
        print_drag (run);
    }
  print_open (run);
  fflush (stdout);
  g_clear_pointer (&run->frames, bench_frames_free);
  g_application_quit (run->app);
}

static gboolean
finish_later (gpointer data)
{
  finish (data);
  return G_SOURCE_REMOVE;
}

static gboolean
wait_for_input (gpointer data)
{
  AppRun *run = data;

  if (!bench_input_is_done (run->input))
    return G_SOURCE_CONTINUE;
  g_timeout_add ((guint) (SETTLE * 1000), finish_later, run);
  return G_SOURCE_REMOVE;
}

static void
fail (AppRun *run,
      const char *message)
{
  fprintf (stderr, "bench-gui: %s\n", message);
  run->status = 1;
  if (run->input != NULL)
    bench_input_finish (g_steal_pointer (&run->input));
  g_clear_pointer (&run->frames, bench_frames_free);
  g_application_quit (run->app);
}

static void
start_input (AppRun *run)
{
  g_autoptr (GError) error = NULL;

  run->input = bench_input_start ((BenchInputEvent *) (gpointer) run->events->data, run->events->len, &error);
  if (run->input == NULL)
    {
      fail (run, error->message);
      return;
    }
  g_timeout_add (50, wait_for_input, run);
}

static void
add_event (AppRun *run,
           double at,
           BenchInputKind kind,
           int x,
           int y)
{
  BenchInputEvent e = { at, kind, x, y, 0 };

  g_array_append_val (run->events, e);
}

/* ---- Zooming the flame graph -------------------------------------------- */

static void
on_zoom_changed (SpFlameGraph *flame_graph,
                 AppRun *run)
{
  double now = bench_wall_now ();

  g_array_append_val (run->zooms, now);
}

/* Frames of the bottom rows, a few rows up from the root, spread across
 * the width: distinct nodes to zoom into. */
static guint
pick_zoom_targets (GtkWidget *flame_graph,
                   GtkWidget *scroller,
                   graphene_point_t *points,
                   guint max)
{
  int w = gtk_widget_get_width (scroller), h = gtk_widget_get_height (scroller);
  g_autoptr (GArray) seen = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n = 0;

  for (int row = 1; row <= 8 && n < max; row++)
    for (double f = 0.05; f < 1 && n < max; f += 0.1)
      {
        graphene_point_t in = GRAPHENE_POINT_INIT (w * f, h - ROW_HEIGHT / 2.0 - row * ROW_HEIGHT), out;
        guint32 node;
        gboolean known = FALSE;

        if (!gtk_widget_compute_point (scroller, flame_graph, &in, &out))
          continue;
        node = sp_flame_graph_node_at (SP_FLAME_GRAPH (flame_graph), out.x, out.y);
        for (guint i = 0; i < seen->len; i++)
          known |= g_array_index (seen, guint32, i) == node;
        if (node == 0 || node == SP_CALL_TREE_NONE || known)
          continue;
        g_array_append_val (seen, node);
        points[n++] = in;
      }
  return n;
}

static gboolean
start_zoom (gpointer data)
{
  AppRun *run = data;
  GtkWidget *flame_graph = bench_gui_find_widget (GTK_WIDGET (run->window), SP_TYPE_FLAME_GRAPH);
  GtkWidget *scroller = gtk_widget_get_ancestor (flame_graph, GTK_TYPE_SCROLLED_WINDOW);
  graphene_point_t root = GRAPHENE_POINT_INIT (gtk_widget_get_width (scroller) / 2.0,
                                               gtk_widget_get_height (scroller) - ROW_HEIGHT / 2.0), at;
  g_autofree graphene_point_t *targets = g_new (graphene_point_t, run->cycles);
  guint n_targets = pick_zoom_targets (flame_graph, scroller, targets, run->cycles);
  int root_x, root_y;

  if (!gtk_widget_compute_point (scroller, flame_graph, &root, &at)
      || sp_flame_graph_node_at (SP_FLAME_GRAPH (flame_graph), at.x, at.y) != 0
      || !bench_input_root_point (scroller, root.x, root.y, &root_x, &root_y))
    {
      fail (run, "the flame graph's root row is not at the bottom of its view");
      return G_SOURCE_REMOVE;
    }
  if (n_targets == 0)
    {
      fail (run, "no frame to zoom into in the flame graph's bottom rows");
      return G_SOURCE_REMOVE;
    }
  for (guint i = 0; i < run->cycles; i++)
    {
      double t = 0.3 + i * ZOOM_PERIOD;
      int x, y;

      bench_input_root_point (scroller, targets[i % n_targets].x, targets[i % n_targets].y, &x, &y);
      add_event (run, t, BENCH_INPUT_PRESS, x, y);
      add_event (run, t + CLICK_HOLD, BENCH_INPUT_RELEASE, x, y);
      add_event (run, t + ZOOM_PERIOD / 2, BENCH_INPUT_PRESS, root_x, root_y);
      add_event (run, t + ZOOM_PERIOD / 2 + CLICK_HOLD, BENCH_INPUT_RELEASE, root_x, root_y);
    }
  g_signal_connect (flame_graph, "zoom-changed", G_CALLBACK (on_zoom_changed), run);
  start_input (run);
  return G_SOURCE_REMOVE;
}

/* ---- Dragging ranges on the timeline ------------------------------------ */

static gboolean
start_drag (gpointer data)
{
  AppRun *run = data;
  GtkWidget *timeline = bench_gui_find_widget (GTK_WIDGET (run->window), SP_TYPE_TIMELINE_VIEW);
  double plot = gtk_widget_get_width (timeline) - LABEL_WIDTH;
  double y = RULER_HEIGHT + LANE_HEIGHT / 2.0;

  if (plot < 100 || sp_timeline_view_get_n_lanes (SP_TIMELINE_VIEW (timeline)) == 0)
    {
      fail (run, "the timeline has no room or no lanes to drag on");
      return G_SOURCE_REMOVE;
    }
  for (guint i = 0; i < run->cycles; i++)
    {
      double t = 0.3 + i * DRAG_PERIOD;
      double x0 = LABEL_WIDTH + plot * (0.05 + 0.08 * (i % 8));
      double x1 = MIN (x0 + plot * 0.25, LABEL_WIDTH + plot - 2);
      guint steps = (guint) (DRAG_LENGTH / DRAG_STEP);
      int x, ry;

      bench_input_root_point (timeline, x0, y, &x, &ry);
      add_event (run, t, BENCH_INPUT_PRESS, x, ry);
      for (guint s = 1; s <= steps; s++)
        {
          bench_input_root_point (timeline, x0 + (x1 - x0) * s / steps, y, &x, &ry);
          add_event (run, t + s * DRAG_STEP, BENCH_INPUT_MOVE, x, ry);
        }
      add_event (run, t + (steps + 1) * DRAG_STEP, BENCH_INPUT_RELEASE, x, ry);
    }
  run->last_total = bench_gui_call_tree_total (GTK_WIDGET (run->window));
  start_input (run);
  return G_SOURCE_REMOVE;
}

/* ---- Frames ------------------------------------------------------------- */

static void
after_flame_graph (AppRun *run)
{
  switch (run->scenario)
    {
    case BENCH_GUI_OPEN:
      g_timeout_add (300, finish_later, run);
      break;
    case BENCH_GUI_ZOOM:
      /* Let the view settle (it scrolls to the roots in an idle). */
      g_timeout_add (500, start_zoom, run);
      break;
    case BENCH_GUI_DRAG:
      /* The call tree is what a range changes first. */
      sp_window_show_view (run->window, "call-tree");
      g_timeout_add (500, start_drag, run);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
on_frame (BenchFrames *frames,
          const BenchFrame *frame,
          gpointer user_data)
{
  AppRun *run = user_data;

  if (run->t_first == 0)
    run->t_first = frame->end;
  if (!frame->painted)
    return;
  if (g_strcmp0 (sp_window_get_page (run->window), "error") == 0)
    {
      fail (run, "the window shows an error instead of the profile");
      return;
    }
  /* The timeline's bars too (a large range is counted on a worker), and
   * the call tree's rows all handed over (a few dozen a frame). */
  if (run->t_profile == 0 && g_strcmp0 (sp_window_get_page (run->window), "profile") == 0
      && !sp_timeline_view_is_counting (SP_TIMELINE_VIEW (bench_gui_find_widget (GTK_WIDGET (run->window),
                                                                                   SP_TYPE_TIMELINE_VIEW)))
      && !sp_call_tree_view_is_revealing (sp_window_get_call_tree_view (run->window)))
    {
      run->t_profile = frame->end;
      run->profile_rows = g_list_model_get_n_items (sp_window_get_call_tree_model (run->window));
      run->profile_total = bench_gui_call_tree_total (GTK_WIDGET (run->window));
      sp_window_show_view (run->window, "flame-graph");
      run->t_flame_asked = bench_wall_now ();
    }
  else if (run->t_flame == 0 && run->t_flame_asked > 0 && frame->start > run->t_flame_asked)
    {
      run->t_flame = frame->end;
      after_flame_graph (run);
    }
  else if (run->input != NULL && run->scenario == BENCH_GUI_DRAG)
    {
      guint64 total = bench_gui_call_tree_total (GTK_WIDGET (run->window));

      if (total != run->last_total)
        {
          TotalChange change = { frame->end, total };

          g_array_append_val (run->totals, change);
          run->last_total = total;
        }
    }
}

static gboolean
give_up (gpointer data)
{
  fail (data, "timed out");
  return G_SOURCE_REMOVE;
}

static void
on_window_added (GtkApplication *app,
                 GtkWindow *window,
                 AppRun *run)
{
  if (run->window != NULL || !SP_IS_WINDOW (window))
    return;
  run->window = SP_WINDOW (window);
  run->frames = bench_frames_new (window, on_frame, run);
}

int
bench_gui_child_app (const char *path,
                     BenchGuiScenario scenario,
                     guint cycles)
{
  AppRun run = { scenario, MAX (cycles, 1) };
  g_autoptr (SpApplication) app = NULL;
  char *argv[] = { (char *) "stackpulse", (char *) path, NULL };

  run.t_main = bench_wall_now ();
  /* As app/stackpulse.c: the application and its files read ahead
   * first, then a display. */
  app = sp_application_new ();
  sp_application_read_ahead (app, 2, argv);
  if (!gtk_init_check ())
    {
      fprintf (stderr, "bench-gui: no display (run under xvfb-run)\n");
      return 1;
    }
  run.app = G_APPLICATION (app);
  run.events = g_array_new (FALSE, FALSE, sizeof (BenchInputEvent));
  run.zooms = g_array_new (FALSE, FALSE, sizeof (double));
  run.totals = g_array_new (FALSE, FALSE, sizeof (TotalChange));
  g_signal_connect (app, "window-added", G_CALLBACK (on_window_added), &run);
  g_timeout_add_seconds (GIVE_UP_S, give_up, &run);
  if (g_application_run (G_APPLICATION (app), 2, argv) != 0)
    run.status = 1;
  if (run.t_flame == 0 && run.status == 0)
    {
      fprintf (stderr, "bench-gui: the window closed before showing the profile\n");
      run.status = 1;
    }
  bench_frames_free (run.frames);
  g_array_unref (run.events);
  g_array_unref (run.zooms);
  g_array_unref (run.totals);
  return run.status;
}
