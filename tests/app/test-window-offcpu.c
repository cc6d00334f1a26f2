/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-window-offcpu.c: a recording made with --off-cpu, in the window.
 *
 * Records tests/workloads/sp-work-offcpu (threads that spin, sleep, read
 * a pipe, wait for a lock) with the real recorder, opens it and checks
 * what a person sees: the timeline's lanes say when each thread ran or
 * waited and, where blocked stacks were recorded (root), in which
 * function; the metric drop-down turns every view into off-CPU or
 * wall-clock time, with the totals `stackpulse-report threads` gives; a
 * recording without off-CPU data keeps the drop-down on CPU samples.
 * Saves PNGs of the timeline and the views for review. */
#include <glib/gstdio.h>
#include <math.h>
#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gui-test.h"
#include "sp-window-testing.h"
#include "window-test.h"

static char *test_dir;
static char *spool;

/* Recorded once for the tests that need it; NULL where perf is refused. */
static const char *
offcpu_spool (void)
{
  if (spool == NULL)
    {
      g_autofree char *path = g_build_filename (test_dir, "offcpu.spool", NULL);

      if (!window_test_record_off_cpu (path, g_getenv ("SP_WORK_OFFCPU"), "2", NULL))
        return NULL;
      spool = g_steal_pointer (&path);
    }
  return spool;
}

static SpWindow *
open_window (const char *path)
{
  SpWindow *window = sp_window_new (NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 900);
  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, file);
  g_assert_true (window_test_wait_for_page (window, "profile", 30));
  return window;
}

static gboolean
is_drop_down (GtkWidget *widget,
              gconstpointer data)
{
  return GTK_IS_DROP_DOWN (widget);
}

static GtkDropDown *
metric_drop_down (SpWindow *window)
{
  GtkWidget *drop_down = gui_test_find (GTK_WIDGET (window), is_drop_down, NULL);

  g_assert_nonnull (drop_down);
  return GTK_DROP_DOWN (drop_down);
}

static gboolean
drop_down_sensitive (gpointer data)
{
  return gtk_widget_is_sensitive (data);
}

static gboolean
has_width (gpointer data)
{
  return gtk_widget_get_width (data) > 200;
}

static gboolean
window_idle (gpointer data)
{
  return !sp_window_is_busy (data);
}

/* The lane whose label starts with name ("off-sleep (1234)"). */
static guint
lane_named (SpTimelineView *timeline,
            const char *name)
{
  for (guint i = 0; i < sp_timeline_view_get_n_lanes (timeline); i++)
    if (g_str_has_prefix (sp_timeline_view_get_lane_label (timeline, i), name))
      return i;
  g_error ("no lane named %s", name);
}

typedef struct {
  SpTimelineView *timeline;
  const char     *name;
} LaneQuery;

/* Whether the timeline has a lane whose label starts with the name: a
 * live recording's threads are named as the recorder learns their names. */
static gboolean
has_lane (gpointer data)
{
  LaneQuery *query = data;

  for (guint i = 0; i < sp_timeline_view_get_n_lanes (query->timeline); i++)
    if (g_str_has_prefix (sp_timeline_view_get_lane_label (query->timeline, i), query->name))
      return TRUE;
  return FALSE;
}

/* Whether the lane (it exists) says Blocked anywhere in its first 2 s. */
static gboolean
lane_shows_blocked (gpointer data)
{
  LaneQuery *query = data;
  guint lane = 0;

  while (!g_str_has_prefix (sp_timeline_view_get_lane_label (query->timeline, lane), query->name))
    lane++;
  for (double t = 0.1; t < 2.0; t += 0.1)
    {
      g_autofree char *text = sp_timeline_view_describe (query->timeline, lane, t);

      if (text != NULL && strstr (text, "Blocked") != NULL)
        return TRUE;
    }
  return FALSE;
}

/* How many of the points 0.3, 0.5 … 1.7 s the hover describes with both
 * words (the second may be NULL). */
static guint
count_hovers (SpTimelineView *timeline,
              const char *lane_name,
              const char *word,
              const char *word2)
{
  guint lane = lane_named (timeline, lane_name), n = 0;

  for (double t = 0.3; t < 1.8; t += 0.2)
    {
      g_autofree char *text = sp_timeline_view_describe (timeline, lane, t);

      g_test_message ("%s at %.1f s: %s", lane_name, t, text != NULL ? text : "(nothing)");
      if (text != NULL && strstr (text, word) != NULL && (word2 == NULL || strstr (text, word2) != NULL))
        n++;
    }
  return n;
}

/* Sums a column of `stackpulse-report threads --tsv`, in ns. */
static double
report_column_ns (const char *path,
                  const char *column)
{
  const char *argv[] = { g_getenv ("SP_REPORT"), "threads", "--tsv", path, NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  g_auto (GStrv) header = NULL;
  int status = 0, col = -1;
  double sum = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  lines = g_strsplit (out, "\n", -1);
  header = g_strsplit (lines[0], "\t", -1);
  for (int i = 0; header[i] != NULL; i++)
    if (g_str_equal (header[i], column))
      col = i;
  g_assert_cmpint (col, >=, 0);
  for (int i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], "\t", -1);

      g_assert_cmpuint (g_strv_length (fields), >, (guint) col);
      sum += g_ascii_strtod (fields[col], NULL) * 1e9;
    }
  return sum;
}

/* Picks metric in the drop-down as a person would, then waits for the views. */
static guint64
choose_metric (SpWindow *window,
               SpMetric metric)
{
  gtk_drop_down_set_selected (metric_drop_down (window), metric);
  window_test_run (0.1);
  g_assert_true (window_test_wait (window_idle, window, 30));
  window_test_run (0.1);
  return window_test_top_level_total (sp_window_get_call_tree_model (window));
}

static void
test_timeline_states (void)
{
  const char *path = offcpu_spool ();
  gboolean stacks = geteuid () == 0;
  SpTimelineView *timeline;
  SpWindow *window;

  if (path == NULL)
    return;
  window = open_window (path);
  g_assert_true (window_test_wait (drop_down_sensitive, metric_drop_down (window), 30));
  timeline = sp_window_get_timeline_view (window);
  /* Laid out: the hover finds its time by the pixel. */
  g_assert_true (window_test_wait (has_width, timeline, 10));
  /* Blocked nearly all the time, in the function that waits (its stack
   * is there where kernel sampling is allowed: as root): libc's, then the
   * workload's that called it (sleep_wait sleeps through sleep_ns). A
   * recorder that falls behind (a sanitizer build on a slow machine: in
   * its first second) drops the stacks it has no time to copy and says
   * so; the states are all there. */
  g_assert_cmpuint (count_hovers (timeline, "off-sleep", "Blocked", NULL), >=, 5);
  g_assert_cmpuint (count_hovers (timeline, "off-pipe", "Blocked", NULL), >=, 5);
  g_assert_cmpuint (count_hovers (timeline, "off-lock", "Blocked", NULL), >=, 5);
  if (stacks)
    {
      g_assert_cmpuint (count_hovers (timeline, "off-sleep", "Blocked", "← sleep_ns"), >=, 2);
      g_assert_cmpuint (count_hovers (timeline, "off-pipe", "Blocked", "← pipe_wait"), >=, 2);
      g_assert_cmpuint (count_hovers (timeline, "off-lock", "Blocked", "lock_wait"), >=, 2);
    }
  /* The spinner runs, or waits for a CPU (two spinners, two CPUs and the
   * machine's other work), never blocks. */
  g_assert_cmpuint (count_hovers (timeline, "off-spin", "Running", NULL)
                    + count_hovers (timeline, "off-spin", "Runnable", NULL), >=, 7);
  g_assert_cmpuint (count_hovers (timeline, "off-spin", "Blocked", NULL), ==, 0);
  gui_test_save_png (GTK_WIDGET (timeline), "offcpu-timeline.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_metrics (void)
{
  const char *path = offcpu_spool ();
  double off_ns, wall_ns;
  guint64 samples, total;
  SpWindow *window;

  if (path == NULL)
    return;
  window = open_window (path);
  g_assert_true (window_test_wait (drop_down_sensitive, metric_drop_down (window), 30));
  samples = choose_metric (window, SP_METRIC_CPU);
  off_ns = report_column_ns (path, "off_cpu_s");
  wall_ns = report_column_ns (path, "wall_s");

  total = choose_metric (window, SP_METRIC_OFF_CPU);
  g_test_message ("off-CPU: window %" G_GUINT64_FORMAT " ns, report %.0f ns", total, off_ns);
  /* Six threads blocked or waiting for about 2 s each, in all. */
  g_assert_cmpfloat (off_ns, >, 5e9);
  g_assert_cmpfloat (fabs (total - off_ns), <, off_ns * 0.01);
  if (geteuid () == 0)
    g_assert_true (sp_window_search_function (window, "pipe_wait"));
  gui_test_save_png (GTK_WIDGET (window), "offcpu-call-tree.png");
  sp_window_show_view (window, "flame-graph");
  gui_test_save_png (GTK_WIDGET (window), "offcpu-flame-graph.png");
  sp_window_show_view (window, "call-tree");

  total = choose_metric (window, SP_METRIC_WALL);
  g_test_message ("wall: window %" G_GUINT64_FORMAT " ns, report %.0f ns", total, wall_ns);
  g_assert_cmpfloat (fabs (total - wall_ns), <, wall_ns * 0.01);

  g_assert_cmpuint (choose_metric (window, SP_METRIC_CPU), ==, samples);
  sp_window_show_view (window, "threads");
  gui_test_save_png (GTK_WIDGET (window), "offcpu-threads.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The Threads page's value in column for the thread named name. */
static double
thread_value (SpWindow *window,
              const char *column,
              const char *name)
{
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) values = window_test_thread_column (GTK_WIDGET (window), column, names);

  g_test_message ("Threads page: %u rows", names->len);
  for (guint i = 0; i < names->len; i++)
    if (g_str_equal (g_ptr_array_index (names, i), name))
      return g_ascii_strtod (g_ptr_array_index (values, i), NULL);
  for (guint i = 0; i < names->len; i++)
    g_test_message ("row %u: %s", i, (const char *) g_ptr_array_index (names, i));
  g_error ("no thread %s on the Threads page", name);
}

/* A range chosen on the timeline: the Threads page counts in it, as
 * `stackpulse-report threads --from --to` does. */
static void
test_threads_follow_range (void)
{
  const char *path = offcpu_spool ();
  SpWindow *window;

  if (path == NULL)
    return;
  window = open_window (path);
  g_assert_true (window_test_wait (drop_down_sensitive, metric_drop_down (window), 30));
  sp_window_show_view (window, "threads");
  window_test_run (0.2);
  g_assert_cmpfloat (thread_value (window, "Wall (s)", "off-sleep"), >, 1.5);
  sp_window_select_time (window, 0.5, 1.0);
  window_test_run (0.1);
  g_assert_true (window_test_wait (window_idle, window, 30));
  window_test_run (0.2);
  /* Half a second of a thread that lives through it, nearly all blocked. */
  g_assert_cmpfloat (fabs (thread_value (window, "Wall (s)", "off-sleep") - 0.5), <, 0.01);
  g_assert_cmpfloat (thread_value (window, "Blocked (s)", "off-sleep"), >, 0.4);
  gui_test_save_png (GTK_WIDGET (window), "offcpu-threads-range.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* `sleep 1` has one sample (as it exits) or none: the timeline still
 * spans the second it waited, and says so. */
static void
test_mostly_waiting (void)
{
  g_autofree char *path = g_build_filename (test_dir, "sleep.spool", NULL);
  guint64 from, to;
  g_autofree char *text = NULL;
  SpTimelineView *timeline;
  SpWindow *window;

  if (!window_test_record_off_cpu (path, "/bin/sleep", "1", NULL))
    return;
  window = open_window (path);
  g_assert_true (window_test_wait (drop_down_sensitive, metric_drop_down (window), 30));
  timeline = sp_window_get_timeline_view (window);
  g_assert_true (window_test_wait (has_width, timeline, 10));
  sp_timeline_view_get_visible_range (timeline, &from, &to);
  g_assert_cmpuint (to - from, >, 900000000);
  g_assert_cmpuint (sp_timeline_view_get_n_lanes (timeline), ==, 1);
  text = sp_timeline_view_describe (timeline, 0, 0.5);
  g_test_message ("sleep at 0.5 s: %s", text);
  g_assert_nonnull (strstr (text, "Blocked for "));
  /* Without a CPU sample the views count the time it waited. */
  {
    g_autofree char *samples = window_test_figure_text (GTK_WIDGET (window), "Samples");

    g_test_message ("samples: %s", samples);
    g_assert_cmpuint (gtk_drop_down_get_selected (metric_drop_down (window)), ==,
                      g_str_equal (samples, "0") ? SP_METRIC_OFF_CPU : SP_METRIC_CPU);
  }
  gui_test_save_png (GTK_WIDGET (window), "offcpu-sleep.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The Summary page says what was recorded off the CPU. */
static void
test_summary (void)
{
  const char *path = offcpu_spool ();
  g_autofree char *text = NULL;
  SpWindow *window;

  if (path == NULL)
    return;
  window = open_window (path);
  window_test_run (0.3);
  text = window_test_figure_text (GTK_WIDGET (window), "Off-CPU time");
  g_test_message ("Off-CPU time: %s", text);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, " switches over "));
  if (geteuid () == 0)
    g_assert_nonnull (strstr (text, "with blocked stacks"));
  else
    g_assert_nonnull (strstr (text, "blocked stacks not recorded: "));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A file beside a recording that is no companion of it (here: text) is
 * not used, and the status line and the Summary say so. */
static void
test_foreign_companion (void)
{
  g_autofree char *vector = g_build_filename (g_getenv ("SP_TEST_VECTORS"), "valid-03.spool", NULL);
  g_autofree char *path = g_build_filename (test_dir, "foreign.spool", NULL);
  g_autofree char *companion = g_strconcat (path, ".offcpu", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *text = NULL;
  gsize length;
  SpWindow *window;

  g_assert_true (g_file_get_contents (vector, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) length, NULL));
  g_assert_true (g_file_set_contents (companion, "not a companion\n", -1, NULL));
  window = open_window (path);
  window_test_run (0.3);
  g_assert_nonnull (window_test_find_label (GTK_WIDGET (window), "off-CPU data not used"));
  g_assert_false (gtk_widget_is_sensitive (GTK_WIDGET (metric_drop_down (window))));
  text = window_test_figure_text (GTK_WIDGET (window), "Off-CPU time");
  g_test_message ("Off-CPU time: %s", text);
  g_assert_nonnull (strstr (text, "foreign.spool.offcpu"));
  gui_test_save_png (GTK_WIDGET (window), "offcpu-foreign.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The companion lost (the spool and side file copied without it): the
 * Threads page has the side file's totals, and the Summary says what is
 * missing. */
static void
test_missing_companion (void)
{
  const char *path = offcpu_spool ();
  g_autofree char *copy = g_build_filename (test_dir, "missing.spool", NULL);
  g_autofree char *text = NULL;
  SpWindow *window;

  if (path == NULL)
    return;
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *from = g_strconcat (path, i == 0 ? "" : ".meta", NULL);
      g_autofree char *to = g_strconcat (copy, i == 0 ? "" : ".meta", NULL);
      g_autofree char *contents = NULL;
      gsize length;

      g_assert_true (g_file_get_contents (from, &contents, &length, NULL));
      g_assert_true (g_file_set_contents (to, contents, (gssize) length, NULL));
    }
  window = open_window (copy);
  window_test_run (0.3);
  g_assert_false (gtk_widget_is_sensitive (GTK_WIDGET (metric_drop_down (window))));
  text = window_test_figure_text (GTK_WIDGET (window), "Off-CPU time");
  g_test_message ("Off-CPU time: %s", text);
  g_assert_nonnull (strstr (text, "is missing"));
  sp_window_show_view (window, "threads");
  window_test_run (0.2);
  g_assert_cmpfloat (thread_value (window, "Blocked (s)", "off-sleep"), >, 1.5);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
recording_has_states (gpointer data)
{
  SpWindow *window = data;

  return gtk_widget_is_sensitive (GTK_WIDGET (metric_drop_down (window))) || !sp_window_is_recording (window);
}

static gboolean
not_recording (gpointer window)
{
  return !sp_window_is_recording (window);
}

/* Recorded from the window with off-CPU time: while it records, the
 * states come in (the drop-down turns on, the lanes say when a thread is
 * blocked), and the views count off-CPU time live. */
static void
test_live (void)
{
  SpWindow *window = sp_window_new (NULL);
  SpRecordOptions options = { 0 };
  g_autoptr (GError) error = NULL;
  SpTimelineView *timeline = sp_window_get_timeline_view (window);
  guint64 first, later;

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  options.argv = g_new0 (char *, 6);
  options.argv[0] = g_strdup ("/bin/sh");
  options.argv[1] = g_strdup ("-c");
  options.argv[2] = g_strdup ("exec \"$0\" \"$1\" > /dev/null");
  options.argv[3] = g_strdup (g_getenv ("SP_WORK_OFFCPU"));
  /* Long enough to be still recording after the checks below, with a
   * sanitizer build on a slow machine too. */
  options.argv[4] = g_strdup ("10");
  options.frequency_hz = 1000;
  options.kernel_stacks = TRUE;
  options.off_cpu = TRUE;
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 900);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (sp_window_record (window, &options, &error));
  g_assert_no_error (error);
  sp_record_options_clear (&options);

  g_assert_true (window_test_wait (recording_has_states, window, 30));
  g_assert_true (sp_window_is_recording (window));
  g_assert_true (window_test_wait (has_width, timeline, 10));
  window_test_run (1.0);
  g_assert_true (sp_window_is_recording (window));
  /* The switches come in behind the samples (a sanitizer build on a slow
   * machine: seconds behind). */
  g_assert_true (window_test_wait (has_lane, &(LaneQuery) { timeline, "off-sleep" }, 30));
  g_assert_true (window_test_wait (lane_shows_blocked, &(LaneQuery) { timeline, "off-sleep" }, 30));
  first = choose_metric (window, SP_METRIC_OFF_CPU);
  window_test_run (1.0);
  g_assert_true (sp_window_is_recording (window));
  later = window_test_top_level_total (sp_window_get_call_tree_model (window));
  g_test_message ("off-CPU while recording: %" G_GUINT64_FORMAT " ns, then %" G_GUINT64_FORMAT " ns", first, later);
  /* Six threads wait about all the time: the total grows with the recording. */
  g_assert_cmpuint (later, >, first);
  gui_test_save_png (GTK_WIDGET (window), "offcpu-live.png");
  g_assert_true (window_test_wait (not_recording, window, 30));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Without off-CPU data the drop-down stays on CPU samples, insensitive. */
static void
test_without_companion (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("SP_TEST_VECTORS"), "valid-03.spool", NULL);
  SpWindow *window = open_window (path);
  GtkDropDown *drop_down = metric_drop_down (window);

  window_test_run (0.3);
  g_assert_false (gtk_widget_is_sensitive (GTK_WIDGET (drop_down)));
  g_assert_cmpuint (gtk_drop_down_get_selected (drop_down), ==, SP_METRIC_CPU);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc,
      char **argv)
{
  int status;

  if (!gui_test_init (&argc, &argv))
    return 0;
  test_dir = g_dir_make_tmp ("sp-window-offcpu-XXXXXX", NULL);
  g_test_add_func ("/window-offcpu/timeline-states", test_timeline_states);
  g_test_add_func ("/window-offcpu/metrics", test_metrics);
  g_test_add_func ("/window-offcpu/threads-follow-range", test_threads_follow_range);
  g_test_add_func ("/window-offcpu/mostly-waiting", test_mostly_waiting);
  g_test_add_func ("/window-offcpu/summary", test_summary);
  g_test_add_func ("/window-offcpu/foreign-companion", test_foreign_companion);
  g_test_add_func ("/window-offcpu/missing-companion", test_missing_companion);
  g_test_add_func ("/window-offcpu/live", test_live);
  g_test_add_func ("/window-offcpu/without-companion", test_without_companion);
  status = g_test_run ();
  window_test_remove_dir (test_dir);
  return status;
}
