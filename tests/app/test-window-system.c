/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-window-system.c: recording the whole system from the window
 * (Record the Whole System: stackpulse-record -a, issue 17).
 *
 * The threads workload (sp-work-threads) runs, started by the test; the
 * window records every process for about 5 s and is stopped. Its
 * Processes page must list the workload's pid with its name and the
 * samples `stackpulse-report processes --tsv` counts for it on the same
 * spool; unticking it must take as many samples out of the call tree.
 * The timeline groups the lanes: CPU usage on top, a lane per process
 * that unfolds into its threads (screenshot: system-timeline.png).
 * Refused (the recorder run as nobody), the window explains and offers
 * pkexec as for any refused recording, and taking the offer records.
 * The tests run as root, where -a is allowed; elsewhere the test is
 * skipped, except in CI, which must be able to record. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gui-test.h"
#include "sp-process-list.h"
#include "sp-process-rows.h"
#include "sp-timeline-view.h"
#include "sp-window-testing.h"
#include "window-test.h"

static gboolean
not_recording (gpointer window)
{
  return !sp_window_is_recording (window);
}

static gboolean
idle (gpointer window)
{
  return !sp_window_is_busy (window);
}

static gboolean
has_samples (gpointer window)
{
  return window_test_top_level_total (sp_window_get_call_tree_model (window)) > 0;
}

/* The spool the window records into (its only one in the test's cache). */
static char *
recording_in_cache (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "stackpulse", "recordings", NULL);
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_prefix (name, "system-") && g_str_has_suffix (name, ".spool"))
      return g_build_filename (dir, name, NULL);
  return NULL;
}

/* stackpulse-report processes --tsv's samples for pid, and its name in *name. */
static guint64
report_samples (const char *spool,
                int pid,
                char **name)
{
  const char *argv[] = { g_getenv ("SP_REPORT"), "processes", "--tsv", spool, NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) lines = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], "\t", -1);

      if (g_strv_length (fields) >= 4 && atoi (fields[0]) == pid)
        {
          *name = g_strdup (fields[1]);
          return g_ascii_strtoull (fields[3], NULL, 10);
        }
    }
  *name = NULL;
  return 0;
}

/* Live: the Processes page has rows (the side file, refreshed while
 * recording, says system_wide) and the timeline lanes, or the recording
 * ended. */
static gboolean
processes_listed_or_ended (gpointer window)
{
  SpProcessList *list = SP_PROCESS_LIST (window_test_find_widget (GTK_WIDGET (window), SP_TYPE_PROCESS_LIST));

  return (sp_process_list_get_rows (list) != NULL && sp_timeline_view_get_n_lanes (sp_window_get_timeline_view (window)) > 0)
         || !sp_window_is_recording (window);
}

static const SpProcessRow *
shown_row (SpWindow *window,
           int pid)
{
  SpProcessList *list = SP_PROCESS_LIST (window_test_find_widget (GTK_WIDGET (window), SP_TYPE_PROCESS_LIST));
  GArray *rows = sp_process_list_get_rows (list);

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    if (g_array_index (rows, SpProcessRow, i).pid == pid)
      return &g_array_index (rows, SpProcessRow, i);
  return NULL;
}

/* The Processes page's check of pid's row (the list sets the pid on its cells). */
static GtkCheckButton *
process_check (GtkWidget *widget,
               int pid)
{
  if (GTK_IS_CHECK_BUTTON (widget) && g_object_get_data (G_OBJECT (widget), "sp-process-pid") == GINT_TO_POINTER (pid))
    return GTK_CHECK_BUTTON (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkCheckButton *found = process_check (child, pid);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static const char *const thread_lanes[] = { "    sp-alpha (", "    sp-beta (", "    sp-gamma (" };

/* The lane labelled as starting with prefix, or -1. */
static int
lane_starting (SpTimelineView *timeline,
               const char *prefix)
{
  for (guint i = 0; i < sp_timeline_view_get_n_lanes (timeline); i++)
    if (g_str_has_prefix (sp_timeline_view_get_lane_label (timeline, i), prefix))
      return (int) i;
  return -1;
}

/* The lane of process pid ("▸ name (pid)", "▾ ..."), or -1. */
static int
process_lane (SpTimelineView *timeline,
              GPid pid)
{
  g_autofree char *suffix = g_strdup_printf (" (%d)", (int) pid);

  for (guint i = 0; i < sp_timeline_view_get_n_lanes (timeline); i++)
    {
      const char *label = sp_timeline_view_get_lane_label (timeline, i);

      if ((g_str_has_prefix (label, "▸ ") || g_str_has_prefix (label, "▾ ")) && g_str_has_suffix (label, suffix))
        return (int) i;
    }
  return -1;
}

typedef struct
{
  SpWindow *window;
  GPid workload;
} Recording;

/* Live: the workload's three named threads each have samples (unfolding
 * its lane shows theirs; folded again after), or the recording ended. */
static gboolean
named_threads_sampled_or_ended (gpointer data)
{
  Recording *recording = data;
  SpTimelineView *timeline = sp_window_get_timeline_view (recording->window);
  gboolean all = TRUE;

  if (!sp_window_is_recording (recording->window))
    return TRUE;
  if (process_lane (timeline, recording->workload) < 0)
    return FALSE;
  sp_timeline_view_set_process_expanded (timeline, recording->workload, TRUE);
  for (guint n = 0; n < G_N_ELEMENTS (thread_lanes); n++)
    all = all && lane_starting (timeline, thread_lanes[n]) >= 0;
  sp_timeline_view_set_process_expanded (timeline, recording->workload, FALSE);
  return all;
}

/* Records the whole system from the window while the workload runs: the
 * window, or NULL (the test skipped) where -a is refused outside CI. */
static SpWindow *
record_system (GPid workload,
               char **spool)
{
  SpWindow *window = sp_window_new (NULL);

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.record-system", NULL));
  g_assert_true (sp_window_is_recording (window));
  /* 5 s: a sanitizer build's recorder on a slow machine takes a second or
   * so to start sampling every CPU, then drops much of what it samples;
   * each of the workload's four threads must still have samples. */
  window_test_run (5.0);
  /* Live: the processes and the grouped lanes while it records. */
  if (window_test_wait (processes_listed_or_ended, window, 10) && sp_window_is_recording (window))
    {
      g_assert_true (g_str_has_prefix (sp_timeline_view_get_lane_label (sp_window_get_timeline_view (window), 0),
                                       "CPU usage ("));
      gui_test_save_png (GTK_WIDGET (window), "system-live.png");
    }
  else
    g_assert_true (g_strcmp0 (sp_window_get_page (window), "error") == 0);
  /* A sanitizer build's recorder on a slow host may have sampled so little
   * by now that one of the threads has no sample yet (a CI run): stop once
   * each has some, as a person would wait to see them. */
  g_assert_true (window_test_wait (named_threads_sampled_or_ended, &(Recording) { window, workload }, 30));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL));
  g_assert_true (window_test_wait (not_recording, window, 30));
  if (g_strcmp0 (sp_window_get_page (window), "error") == 0)
    {
      gui_test_save_png (GTK_WIDGET (window), "system-refused.png");
      if (g_getenv ("CI") != NULL)
        g_error ("the window could not record the whole system: CI must be able to");
      g_test_skip ("recording the whole system is refused here (not root, no CAP_PERFMON)");
      gtk_window_destroy (GTK_WINDOW (window));
      return NULL;
    }
  /* The last update reads the finished file. */
  window_test_run (1.0);
  g_assert_true (window_test_wait (idle, window, 30));
  g_assert_true (window_test_wait (has_samples, window, 30));
  *spool = recording_in_cache ();
  g_assert_nonnull (*spool);
  return window;
}

static void
remove_recording (const char *spool)
{
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);

  g_unlink (spool);
  g_unlink (meta);
}

/* The workload's process lane, then its three named threads' lanes right
 * under it once unfolded. */
static void
assert_grouped_lanes (SpWindow *window,
                      const char *spool,
                      int pid,
                      const char *name)
{
  SpTimelineView *timeline = sp_window_get_timeline_view (window);
  g_autofree char *meta_path = g_strconcat (spool, ".meta", NULL);
  g_autoptr (GKeyFile) meta = g_key_file_new ();
  g_autofree gint *cpus = NULL;
  g_autofree char *cpu_label = NULL;
  gsize n_cpus = 0;
  g_autofree char *folded = g_strdup_printf ("▸ %s (%d)", name, pid);
  g_autofree char *unfolded = g_strdup_printf ("▾ %s (%d)", name, pid);
  guint n_folded = sp_timeline_view_get_n_lanes (timeline);
  guint n_threads;
  int lane;

  /* The CPU lane on top, as many CPUs as the recorder sampled. */
  g_assert_true (g_key_file_load_from_file (meta, meta_path, G_KEY_FILE_NONE, NULL));
  cpus = g_key_file_get_integer_list (meta, "recording", "cpus", &n_cpus, NULL);
  g_assert_cmpuint (n_cpus, >, 0);
  cpu_label = g_strdup_printf ("CPU usage (%u CPUs)", (guint) n_cpus);
  g_assert_cmpstr (sp_timeline_view_get_lane_label (timeline, 0), ==, cpu_label);
  lane = lane_starting (timeline, folded);
  g_assert_cmpint (lane, >, 0);
  g_assert_cmpint (lane_starting (timeline, "    sp-alpha"), ==, -1);
  sp_timeline_view_set_process_expanded (timeline, pid, TRUE);
  g_assert_cmpint (lane_starting (timeline, unfolded), ==, lane);
  /* Right under it, its threads: the three named ones, which spin, and
   * the main one, which waits, when the recording has a sample of it (a
   * sanitizer build's whole-system recorder on a slow host left out every
   * sample of it). */
  n_threads = sp_timeline_view_get_n_lanes (timeline) - n_folded;
  g_assert_cmpuint (n_threads, >=, 3);
  for (guint i = 1; i <= MIN (n_threads, 4); i++)
    g_assert_true (g_str_has_prefix (sp_timeline_view_get_lane_label (timeline, lane + i), "    sp-"));
  for (guint n = 0; n < G_N_ELEMENTS (thread_lanes); n++)
    {
      int at = lane_starting (timeline, thread_lanes[n]);

      g_assert_cmpint (at, >, lane);
      g_assert_cmpint (at, <=, lane + (int) MIN (n_threads, 4));
    }
}

static void
test_processes_page (void)
{
  GPid workload = window_test_start_workload (60.0);
  g_autofree char *spool = NULL;
  g_autofree char *report_name = NULL;
  SpWindow *window = record_system (workload, &spool);
  const SpProcessRow *row;
  guint64 expected, before, after;
  GtkCheckButton *check;

  window_test_stop_workload (workload);
  if (window == NULL)
    return;
  expected = report_samples (spool, workload, &report_name);
  g_assert_cmpuint (expected, >, 0);
  sp_window_show_view (window, "processes");
  window_test_run (0.3);
  gui_test_save_png (GTK_WIDGET (window), "system-processes.png");
  row = shown_row (window, workload);
  g_assert_nonnull (row);
  g_assert_cmpstr (row->name, ==, report_name);
  g_assert_cmpuint (row->n_samples, ==, expected);
  g_assert_nonnull (window_test_find_label (GTK_WIDGET (window), "Idle: "));
  assert_grouped_lanes (window, spool, workload, row->name);
  sp_window_show_view (window, "call-tree");
  window_test_run (0.3);
  gui_test_save_png (GTK_WIDGET (window), "system-timeline.png");
  sp_window_show_view (window, "processes");
  window_test_run (0.2);

  /* Unticked, its samples leave the call tree, and its lane the timeline. */
  g_assert_cmpint (process_lane (sp_window_get_timeline_view (window), workload), >=, 0);
  g_assert_cmpint (window_test_process_thread_shown (GTK_WIDGET (window), "sp-alpha", workload), ==, 1);
  before = window_test_top_level_total (sp_window_get_call_tree_model (window));
  check = process_check (GTK_WIDGET (window), workload);
  g_assert_nonnull (check);
  gtk_check_button_set_active (check, FALSE);
  window_test_run (0.2);
  g_assert_true (window_test_wait (idle, window, 30));
  after = window_test_top_level_total (sp_window_get_call_tree_model (window));
  g_assert_cmpuint (before - after, ==, expected);
  g_assert_cmpint (process_lane (sp_window_get_timeline_view (window), workload), ==, -1);
  /* The Threads page follows: the workload's threads are unticked (its
   * own: other programs may have threads of that name). */
  g_assert_cmpint (window_test_process_thread_shown (GTK_WIDGET (window), "sp-alpha", workload), ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
  remove_recording (spool);
}

static gboolean
shows_error_page (gpointer window)
{
  return g_strcmp0 (sp_window_get_page (window), "error") == 0;
}

/* Record the Whole System in a new window, refused: the explanation, and
 * whether pkexec is offered (for window_test_check_pkexec_offer). */
static SpWindow *
attempt_refused (gpointer data,
                 gboolean *offered)
{
  SpWindow *window = sp_window_new (NULL);
  GtkLabel *explanation;
  GtkButton *elevate;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.record-system", NULL));
  g_assert_true (window_test_wait (shows_error_page, window, 20));
  explanation = window_test_find_label (GTK_WIDGET (window), "the kernel refused to sample every process");
  g_assert_nonnull (explanation);
  g_assert_nonnull (strstr (gtk_label_get_text (explanation), "perf_event_paranoid"));
  elevate = window_test_find_button (GTK_WIDGET (window), "Record with Administrator Rights");
  g_assert_nonnull (elevate);
  *offered = window_test_is_shown (GTK_WIDGET (elevate));
  return window;
}

static gboolean
recording (gpointer window)
{
  return sp_window_is_recording (window);
}

static void
test_refused (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *wrapper = NULL;
  g_autofree char *paranoid = NULL;
  SpWindow *window;

  /* At 0 or less anyone may record the whole system: nothing refuses. */
  if (g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &paranoid, NULL, NULL) && atoi (paranoid) <= 0)
    {
      g_test_skip ("perf_event_paranoid <= 0: the kernel refuses nobody");
      return;
    }
  dir = g_dir_make_tmp ("stackpulse-system-refused-XXXXXX", &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
  /* As root, the recorder as nobody (raised by the stand-in pkexec, root
   * again); not root, the recorder is unprivileged already. */
  wrapper = getuid () == 0 ? window_test_write_nobody_recorder (dir) : g_strdup (g_getenv ("SP_RECORD"));
  g_setenv ("STACKPULSE_RECORD", wrapper, TRUE);
  if (!window_test_check_pkexec_offer (dir, attempt_refused, NULL, "system-refused.png"))
    {
      window_test_remove_dir (dir);
      return;
    }
  /* Taking the offer records the whole system with raised rights. */
  window = attempt_refused (NULL, &(gboolean) { FALSE });
  gtk_widget_activate_action (GTK_WIDGET (window), "win.record-elevated", NULL);
  g_assert_true (window_test_wait (recording, window, 20));
  window_test_run (1.0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL));
  g_assert_true (window_test_wait (not_recording, window, 30));
  g_assert_cmpstr (sp_window_get_page (window), ==, "profile");
  gui_test_save_png (GTK_WIDGET (window), "system-elevated.png");
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_pkexec_offer_end (dir);
  window_test_remove_dir (dir);
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/app/window-system/processes-page", test_processes_page);
  g_test_add_func ("/app/window-system/refused", test_refused);
  return g_test_run ();
}
