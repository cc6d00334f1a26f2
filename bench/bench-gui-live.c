/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-gui-live.c: how long a sample takes from the spool to the screen
 * while the window records.
 *
 * The window records bench-burn through the real recorder, as the Record
 * dialog would (sp_window_record). Beside it, a thread of this process
 * follows the same spool with the codec's reader, polling every
 * millisecond, and notes when each sample became readable in the file:
 * that is when the recorder wrote it. The window's frame probe notes the
 * end of every frame that drew a call tree with more samples. A frame
 * that first shows samples a..b-1 (the call tree's total went from a to
 * b) shows sample a, the oldest of them, latest: its latency is the
 * frame's end minus when sample a was written (the worst in that frame),
 * and sample b-1's the best. Samples the call tree leaves out (if any)
 * only make the figures larger. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench-gui-frames.h"
#include "bench-gui.h"
#include "bench-probe.h"
#include "sp-application.h"
#include "sp-call-tree-view.h"
#include "sp-spool-reader.h"
#include "sp-window-testing.h"

#define POLL_US   1000
#define GIVE_UP_S 300

typedef struct {
  double  time;
  guint64 n;
} Seen;

typedef struct {
  double  time;     /* end of the frame */
  guint64 from;     /* samples shown before it */
  guint64 to;       /* samples it shows */
} Shown;

typedef struct {
  /* Set up by the main thread before the follower starts */
  char            *dir;           /* where the window's recordings go */
  GThread         *follower;
  gint             stop;          /* atomic */
  GArray          *seen;          /* Seen: the follower's, read after join */
  guint64          file_samples;

  GApplication    *app;
  SpWindow        *window;
  BenchFrames     *frames;
  SpRecordOptions  options;
  GArray          *shown;         /* Shown */
  guint64          last_total;
  double           t_record;
  double           t_done;
  int              status;
} LiveRun;

/* ---- Following the spool ---------------------------------------------- */

static char *
find_spool (const char *dir)
{
  g_autoptr (GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".spool"))
      return g_build_filename (dir, name, NULL);
  return NULL;
}

static gpointer
follow (gpointer data)
{
  LiveRun *run = data;
  g_autofree char *path = NULL;
  SpSpoolReader *reader = NULL;
  SpSpoolError err;
  guint64 last = 0;

  while (!g_atomic_int_get (&run->stop))
    {
      if (reader == NULL)
        {
          if (path == NULL)
            path = find_spool (run->dir);
          /* Until the recorder has written the header. */
          if (path != NULL)
            reader = sp_spool_reader_open_follow (path, &err);
        }
      if (reader != NULL && sp_spool_reader_update (reader, &err))
        {
          guint64 n = sp_spool_reader_get_n_samples (reader);

          if (n > last)
            {
              Seen seen = { bench_wall_now (), n };

              g_array_append_val (run->seen, seen);
              last = n;
            }
        }
      g_usleep (POLL_US);
    }
  run->file_samples = last;
  if (reader != NULL)
    sp_spool_reader_free (reader);
  return NULL;
}

/* When sample i (0-based, in file order) was first readable, or 0. */
static double
written_at (LiveRun *run,
            guint64 i)
{
  for (guint k = 0; k < run->seen->len; k++)
    if (g_array_index (run->seen, Seen, k).n > i)
      return g_array_index (run->seen, Seen, k).time;
  return 0;
}

/* ---- The window --------------------------------------------------------- */

/* $BENCH_GUI_FRAMES: every frame, for a closer look (seconds after the
 * recording started; the live updates drawn marked). */
static void
dump_frames (LiveRun *run)
{
  const char *path = g_getenv ("BENCH_GUI_FRAMES");
  FILE *out;

  if (path == NULL || (out = fopen (path, "w")) == NULL)
    return;
  fprintf (out, "# start end work_ms gap_ms painted cpu_ms (s after the recording started, at %.6f s of"
           " CLOCK_MONOTONIC)\n", run->t_record);
  for (guint k = 0; k < run->shown->len; k++)
    {
      const Shown *s = &g_array_index (run->shown, Shown, k);
      double first = written_at (run, s->from);

      fprintf (out, "# update drawn at %.4f: samples %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ", the oldest written at %.4f\n",
               s->time - run->t_record, s->from, s->to, first > 0 ? first - run->t_record : -1);
    }
  bench_frames_write (run->frames, out, run->t_record);
  fclose (out);
}

static void
report (LiveRun *run)
{
  g_autofree double *worst = g_new0 (double, run->shown->len + 1);
  g_autofree double *best = g_new0 (double, run->shown->len + 1);
  guint n = 0;
  BenchFrameStats stats;

  for (guint k = 0; k < run->shown->len; k++)
    {
      const Shown *s = &g_array_index (run->shown, Shown, k);
      double first = written_at (run, s->from), last = written_at (run, s->to - 1);

      if (first == 0 || last == 0)
        continue;
      worst[n] = s->time - first;
      best[n] = s->time - last;
      n++;
    }
  bench_frames_stats (run->frames, run->t_record, run->t_done, &stats);
  dump_frames (run);
  printf ("updates %u\nfile_samples %" G_GUINT64_FORMAT "\nshown_samples %" G_GUINT64_FORMAT "\n", n,
          run->file_samples, run->last_total);
  printf ("worst_median %.6f\nworst_p95 %.6f\nworst_max %.6f\n", bench_quantile (worst, n, 0.5),
          bench_quantile (worst, n, 0.95), bench_quantile (worst, n, 1));
  printf ("best_median %.6f\n", bench_quantile (best, n, 0.5));
  printf ("live_work_median %.6f\nlive_work_p95 %.6f\nlive_work_max %.6f\n", stats.work_median, stats.work_p95,
          stats.work_max);
  printf ("live_gap_max %.6f\nlive_late %u\nlive_frames %u\n", stats.gap_max, stats.n_late, stats.n_frames);
  fflush (stdout);
}

static void
stop (LiveRun *run,
      int status)
{
  run->status = status;
  g_atomic_int_set (&run->stop, 1);
  if (run->follower != NULL)
    g_thread_join (g_steal_pointer (&run->follower));
  if (status == 0)
    report (run);
  g_clear_pointer (&run->frames, bench_frames_free);
  g_application_quit (run->app);
}

static gboolean
stop_later (gpointer data)
{
  stop (data, 0);
  return G_SOURCE_REMOVE;
}

/* The recording ended: the window's last update follows within a tick. */
static gboolean
wait_for_end (gpointer data)
{
  LiveRun *run = data;

  if (sp_window_is_recording (run->window))
    return G_SOURCE_CONTINUE;
  run->t_done = bench_wall_now ();
  g_timeout_add (1500, stop_later, run);
  return G_SOURCE_REMOVE;
}

static gboolean
start_recording (gpointer data)
{
  LiveRun *run = data;
  g_autoptr (GError) error = NULL;

  run->t_record = bench_wall_now ();
  run->follower = g_thread_new ("bench-follow", follow, run);
  if (!sp_window_record (run->window, &run->options, &error))
    {
      fprintf (stderr, "bench-gui: cannot record: %s\n", error->message);
      stop (run, 1);
      return G_SOURCE_REMOVE;
    }
  g_timeout_add (20, wait_for_end, run);
  return G_SOURCE_REMOVE;
}

static void
on_frame (BenchFrames *frames,
          const BenchFrame *frame,
          gpointer user_data)
{
  LiveRun *run = user_data;
  guint64 total;

  if (!frame->painted || run->t_record == 0 || g_strcmp0 (sp_window_get_page (run->window), "profile") != 0)
    return;
  /* The rows on screen, not the window's model (bench_gui_call_tree_total):
   * asking for it hands over at once the rows a first tree still reveals
   * a few a frame, and the probe would change what it measures. */
  total = bench_gui_rows_total (sp_call_tree_view_get_shown_rows (sp_window_get_call_tree_view (run->window)));
  if (total > run->last_total)
    {
      Shown shown = { frame->end, run->last_total, total };

      g_array_append_val (run->shown, shown);
      run->last_total = total;
    }
}

static void
on_window_added (GtkApplication *app,
                 GtkWindow *window,
                 LiveRun *run)
{
  if (run->window != NULL || !SP_IS_WINDOW (window))
    return;
  run->window = SP_WINDOW (window);
  run->frames = bench_frames_new (window, on_frame, run);
  /* Once the start page is up, as if Record had been clicked. */
  g_timeout_add (500, start_recording, run);
}

static void
remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        unlink (child);
    }
  rmdir (path);
}

static gboolean
give_up (gpointer data)
{
  fprintf (stderr, "bench-gui: timed out\n");
  stop (data, 1);
  return G_SOURCE_REMOVE;
}

int
bench_gui_child_live (const char *burn,
                      guint threads,
                      double seconds,
                      guint freq)
{
  LiveRun run = { 0 };
  g_autoptr (SpApplication) app = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *cache = g_dir_make_tmp ("stackpulse-bench-live-XXXXXX", &error);
  char *argv[] = { (char *) "stackpulse", NULL };

  if (cache == NULL)
    {
      fprintf (stderr, "bench-gui: %s\n", error->message);
      return 1;
    }
  /* The window records into $XDG_CACHE_HOME/stackpulse/recordings: a
   * folder of our own, so the spool is the only one there. */
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  run.dir = g_build_filename (cache, "stackpulse", "recordings", NULL);
  if (!gtk_init_check ())
    {
      fprintf (stderr, "bench-gui: no display (run under xvfb-run)\n");
      return 1;
    }
  run.options.argv = g_new0 (char *, 4);
  run.options.argv[0] = g_strdup (burn);
  run.options.argv[1] = g_strdup_printf ("%u", threads);
  run.options.argv[2] = g_strdup_printf ("%.1f", seconds);
  run.options.frequency_hz = freq;
  run.options.kernel_stacks = TRUE;
  run.seen = g_array_new (FALSE, FALSE, sizeof (Seen));
  run.shown = g_array_new (FALSE, FALSE, sizeof (Shown));
  app = sp_application_new ();
  run.app = G_APPLICATION (app);
  g_signal_connect (app, "window-added", G_CALLBACK (on_window_added), &run);
  g_timeout_add_seconds (GIVE_UP_S, give_up, &run);
  g_application_run (G_APPLICATION (app), 1, argv);

  sp_record_options_clear (&run.options);
  g_array_unref (run.seen);
  g_array_unref (run.shown);
  /* The recording and whatever else went into the cache (Mesa's shaders). */
  remove_tree (cache);
  g_free (run.dir);
  return run.status;
}
