/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-window-live.c: the window on recordings that are still being
 * written, and on recordings whose recorder was killed.
 *
 * Real stackpulse-record runs on the threads workload (four named threads):
 * a window opens the spool of a recorder started outside it and must
 * follow it as it grows, saying it is in progress, then say it was
 * interrupted once the recorder is SIGKILLed. A recording made from the
 * window must name its threads while it runs (before the side file
 * does), and end with the file's
 * counts on the Threads page; when its recorder is killed, the window says
 * the recording was interrupted instead of blaming the program. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "gui-test.h"
#include "sp-spool-reader.h"
#include "sp-timeline-view.h"
#include "sp-tree-item.h"
#include "sp-window-testing.h"
#include "window-test.h"

static const char *const thread_names[] = { "sp-alpha", "sp-beta", "sp-gamma" };

static gboolean
file_exists (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

static gboolean
not_recording (gpointer window)
{
  return !sp_window_is_recording (window);
}

/* Samples under the call tree's top-level rows. */
static guint64
call_tree_total (SpWindow *window)
{
  return window_test_top_level_total (sp_window_get_call_tree_model (window));
}

typedef struct {
  SpWindow *window;
  guint64   more_than;
} Growth;

static gboolean
call_tree_grew (gpointer data)
{
  Growth *growth = data;

  return call_tree_total (growth->window) > growth->more_than;
}

/* The status line (the label at the window's bottom that says it). */
static gboolean
status_says (SpWindow *window,
             const char *text)
{
  GtkLabel *label = window_test_find_label (GTK_WIDGET (window), text);

  return label != NULL && window_test_is_shown (GTK_WIDGET (label));
}

typedef struct {
  SpWindow   *window;
  const char *text;
} Saying;

static gboolean
says (gpointer data)
{
  Saying *saying = data;

  return status_says (saying->window, saying->text);
}

/* Whether every workload thread's lane on the timeline has its name. */
static gboolean
lanes_named (gpointer window)
{
  SpTimelineView *timeline = SP_TIMELINE_VIEW (window_test_find_widget (window, SP_TYPE_TIMELINE_VIEW));
  guint found = 0;

  for (guint n = 0; n < G_N_ELEMENTS (thread_names); n++)
    for (guint i = 0; i < sp_timeline_view_get_n_lanes (timeline); i++)
      if (g_str_has_prefix (sp_timeline_view_get_lane_label (timeline, i), thread_names[n]))
        {
          found++;
          break;
        }
  return found == G_N_ELEMENTS (thread_names);
}

/* Whether the Threads page lists every workload thread by name. */
static gboolean
threads_named (gpointer window)
{
  for (guint n = 0; n < G_N_ELEMENTS (thread_names); n++)
    if (window_test_find_thread_check (window, thread_names[n]) == NULL)
      return FALSE;
  return TRUE;
}

/* The spool's samples per thread id, as the file has them. */
static GHashTable *
file_thread_samples (const char *spool,
                     guint64 *n_samples)
{
  SpSpoolError error;
  SpSpoolReader *reader = sp_spool_reader_open (spool, &error);
  GHashTable *counts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  const SpThread *threads;

  /* An interrupted spool may end inside a record: the good part counts. */
  if (reader == NULL)
    {
      reader = sp_spool_reader_open_follow (spool, &error);
      g_assert_nonnull (reader);
      sp_spool_reader_finish (reader, &error);
    }
  threads = sp_spool_reader_get_threads (reader);
  *n_samples = sp_spool_reader_get_n_samples (reader);
  for (gsize i = 0; i < *n_samples; i++)
    {
      gint64 tid = (gint64) threads[sp_spool_reader_get_sample_thread (reader, i)].tid;
      guint64 *count = g_hash_table_lookup (counts, &tid);

      if (count == NULL)
        {
          count = g_new0 (guint64, 1);
          g_hash_table_insert (counts, g_memdup2 (&tid, sizeof tid), count);
        }
      (*count)++;
    }
  sp_spool_reader_free (reader);
  return counts;
}

/* The Threads page shows, for every thread of the file, the file's count:
 * its row's TID and Samples. */
static void
assert_thread_counts_are_the_files (SpWindow *window,
                                    const char *spool)
{
  guint64 n_samples = 0;
  g_autoptr (GHashTable) counts = file_thread_samples (spool, &n_samples);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();
  g_autoptr (GPtrArray) tids = window_test_thread_column (GTK_WIDGET (window), "TID", names);
  g_autoptr (GPtrArray) samples = window_test_thread_column (GTK_WIDGET (window), "Samples", NULL);
  guint checked = 0;

  g_assert_cmpuint (tids->len, ==, samples->len);
  for (guint i = 0; i < tids->len; i++)
    {
      gint64 tid = g_ascii_strtoll (g_ptr_array_index (tids, i), NULL, 10);
      guint64 *expected = g_hash_table_lookup (counts, &tid);

      g_test_message ("%s   thread %s   —   %s samples (file: %" G_GUINT64_FORMAT ")",
                      (const char *) g_ptr_array_index (names, i), (const char *) g_ptr_array_index (tids, i),
                      (const char *) g_ptr_array_index (samples, i), expected != NULL ? *expected : 0);
      g_assert_cmpuint (g_ascii_strtoull (g_ptr_array_index (samples, i), NULL, 10), ==,
                        expected != NULL ? *expected : 0);
      checked++;
    }
  g_assert_cmpuint (checked, ==, g_hash_table_size (counts));
  g_assert_cmpuint (checked, >=, 4);
}

/* The recorder's pid, or a launched program's, from the side file. */
static GPid
meta_pid (const char *spool,
          const char *group,
          const char *key)
{
  g_autofree char *meta_path = g_strconcat (spool, ".meta", NULL);
  g_autoptr (GKeyFile) meta = g_key_file_new ();

  g_assert_true (g_key_file_load_from_file (meta, meta_path, G_KEY_FILE_NONE, NULL));
  return (GPid) g_key_file_get_int64 (meta, group, key, NULL);
}

/* stackpulse-record attached to pid, writing spool (for seconds, or
 * until killed when NULL); not reaped by GLib. */
static GPid
start_recorder (const char *spool,
                GPid target,
                const char *seconds)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *pid_arg = g_strdup_printf ("--pid=%d", (int) target);
  const char *argv[] = { g_getenv ("SP_RECORD"), "-F", "1000", "-o", spool, pid_arg,
                         seconds != NULL ? "--duration" : NULL, seconds, NULL };
  GPid pid = 0;

  g_assert_nonnull (argv[0]);
  g_spawn_async (NULL, (char **) argv, NULL,
                 G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  return pid;
}

static void
remove_recording (const char *spool)
{
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);
  g_autofree char *dir = g_path_get_dirname (spool);

  g_unlink (spool);
  g_unlink (meta);
  g_rmdir (dir);
}

/* A recorder started outside the window, already running when the file
 * is opened: the window follows it, then says it was interrupted. */
static void
test_follow_then_interrupted (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-live-XXXXXX", &error);
  g_autofree char *spool = g_build_filename (dir, "threads.spool", NULL);
  g_autofree char *meta_path = g_strconcat (spool, ".meta", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (spool);
  g_autofree char *recording = NULL;
  g_autofree char *samples = NULL;
  g_autofree char *expected = NULL;
  GPid workload = window_test_start_workload (30);
  GPid recorder = start_recorder (spool, workload, NULL);
  SpWindow *window = sp_window_new (NULL);
  Growth growth = { window, 0 };
  Saying interrupted = { window, "interrupted: the recorder ended before finishing the recording" };
  guint64 n_samples = 0;

  /* The side file comes with the first samples. */
  g_assert_true (window_test_wait (file_exists, meta_path, 20));
  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, file);
  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  g_assert_true (status_says (window, "recording in progress"));
  recording = window_test_figure_text (GTK_WIDGET (window), "Recording");
  g_assert_nonnull (recording);
  g_assert_true (g_str_has_prefix (recording, "in progress: "));

  /* It grows as the recorder writes. */
  growth.more_than = call_tree_total (window);
  g_test_message ("%" G_GUINT64_FORMAT " samples when first shown", growth.more_than);
  g_assert_true (window_test_wait (call_tree_grew, &growth, 20));
  growth.more_than = call_tree_total (window);
  g_assert_true (window_test_wait (call_tree_grew, &growth, 20));
  g_assert_true (status_says (window, "Recording in progress"));
  g_assert_true (lanes_named (window));
  gui_test_save_png (GTK_WIDGET (window), "live-follow.png");

  kill (recorder, SIGKILL);
  waitpid (recorder, NULL, 0);
  g_assert_true (window_test_wait (says, &interrupted, 20));
  g_assert_false (status_says (window, "Recording in progress"));
  g_clear_pointer (&recording, g_free);
  recording = window_test_figure_text (GTK_WIDGET (window), "Recording");
  samples = window_test_figure_text (GTK_WIDGET (window), "Samples");
  g_hash_table_unref (file_thread_samples (spool, &n_samples));
  expected = g_strdup_printf ("interrupted: its recorder ended before finishing it; %" G_GUINT64_FORMAT
                              " samples over ", n_samples);
  g_test_message ("Recording: %s", recording);
  g_assert_true (g_str_has_prefix (recording, expected));
  g_assert_cmpuint (g_ascii_strtoull (samples, NULL, 10), ==, n_samples);
  g_assert_cmpuint (call_tree_total (window), ==, n_samples);
  assert_thread_counts_are_the_files (window, spool);
  sp_window_show_view (window, "summary");
  gui_test_save_png (GTK_WIDGET (window), "live-follow-interrupted.png");

  gtk_window_destroy (GTK_WINDOW (window));
  window_test_stop_workload (workload);
  remove_recording (spool);
}

/* The status line has the finished file's figures: no longer in
 * progress, and it says what was lost. */
static gboolean
says_final_figures (gpointer window)
{
  return !status_says (window, "in progress") && (status_says (window, "none lost") || status_says (window, " lost"));
}

/* A recorder started outside the window that finishes while followed:
 * the window ends with the finished file, complete. */
static void
test_follow_to_the_end (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-live-XXXXXX", &error);
  g_autofree char *spool = g_build_filename (dir, "threads.spool", NULL);
  g_autofree char *meta_path = g_strconcat (spool, ".meta", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (spool);
  g_autofree char *recording = NULL;
  g_autofree char *samples = NULL;
  GPid workload = window_test_start_workload (30);
  GPid recorder = start_recorder (spool, workload, "3");
  SpWindow *window = sp_window_new (NULL);
  Saying in_progress = { window, "Recording in progress" };
  guint64 n_samples = 0;
  int status = 0;

  g_assert_true (window_test_wait (file_exists, meta_path, 20));
  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, file);
  g_assert_true (window_test_wait (says, &in_progress, 20));
  g_assert_cmpint (waitpid (recorder, &status, 0), ==, recorder);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  /* The final figures: "none lost", or how many a loaded machine lost. */
  g_assert_true (window_test_wait (says_final_figures, window, 20));
  recording = window_test_figure_text (GTK_WIDGET (window), "Recording");
  samples = window_test_figure_text (GTK_WIDGET (window), "Samples");
  g_hash_table_unref (file_thread_samples (spool, &n_samples));
  g_assert_cmpstr (recording, ==, "complete");
  g_assert_cmpuint (g_ascii_strtoull (samples, NULL, 10), ==, n_samples);
  g_assert_cmpuint (call_tree_total (window), ==, n_samples);
  assert_thread_counts_are_the_files (window, spool);
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_stop_workload (workload);
  remove_recording (spool);
}

/* The recording this window makes: where it goes. */
static char *
newest_recording (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "stackpulse", "recordings", NULL);
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  g_autofree char *newest = NULL;
  gint64 newest_time = 0;
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      GStatBuf st;

      if (g_str_has_suffix (name, ".spool") && g_stat (path, &st) == 0 && (gint64) st.st_mtime >= newest_time)
        {
          newest_time = st.st_mtime;
          g_free (newest);
          newest = g_steal_pointer (&path);
        }
    }
  return g_steal_pointer (&newest);
}

static void
start_window_recording (SpWindow *window,
                        const char *seconds)
{
  SpRecordOptions options = { 0 };
  g_autoptr (GError) error = NULL;

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  /* Its report on stdout would go into this test's TAP output. */
  options.argv = g_new0 (char *, 6);
  options.argv[0] = g_strdup ("/bin/sh");
  options.argv[1] = g_strdup ("-c");
  options.argv[2] = g_strdup ("exec \"$0\" \"$1\" > /dev/null");
  options.argv[3] = g_strdup (g_getenv ("SP_WORK_THREADS"));
  options.argv[4] = g_strdup (seconds);
  options.frequency_hz = 1000;
  options.kernel_stacks = TRUE;
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (sp_window_record (window, &options, &error));
  g_assert_no_error (error);
  sp_record_options_clear (&options);
}

static gboolean
named_or_ended (gpointer window)
{
  return (lanes_named (window) && threads_named (window)) || !sp_window_is_recording (window);
}

/* While the window records, its lanes and thread rows get their names
 * while it records; once it ends, the Threads
 * page has the file's counts. The workload runs 10 s: a window on a loaded
 * machine once named them only after a 1.5 s one had ended, and a
 * sanitizer build on a contended slow machine after a 3 s one, and once
 * after a 6 s one. */
static void
test_record_names_and_counts (void)
{
  SpWindow *window = sp_window_new (NULL);
  g_autofree char *spool = NULL;

  start_window_recording (window, "10");
  g_assert_true (window_test_wait (named_or_ended, window, 20));
  g_assert_true (sp_window_is_recording (window));
  g_assert_true (lanes_named (window));
  g_assert_true (threads_named (window));
  gui_test_save_png (GTK_WIDGET (window), "live-named.png");
  g_assert_true (window_test_wait (not_recording, window, 30));
  spool = newest_recording ();
  g_assert_nonnull (spool);
  /* The last update reads the finished file. */
  window_test_run (1.0);
  sp_window_show_view (window, "threads");
  assert_thread_counts_are_the_files (window, spool);
  gui_test_save_png (GTK_WIDGET (window), "live-threads-final.png");
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (spool);
}

/* The window's own recorder killed: the recording was interrupted, the
 * program did not fail. */
static void
test_record_interrupted (void)
{
  SpWindow *window = sp_window_new (NULL);
  Saying interrupted = { window, "interrupted: the recorder ended before finishing the recording" };
  g_autofree char *spool = NULL;
  g_autofree char *meta_path = NULL;
  g_autofree char *recording = NULL;
  Growth growth = { window, 0 };
  GPid recorder, program;

  start_window_recording (window, "20");
  g_assert_true (window_test_wait (call_tree_grew, &growth, 20));
  spool = newest_recording ();
  meta_path = g_strconcat (spool, ".meta", NULL);
  g_assert_true (window_test_wait (file_exists, meta_path, 20));
  recorder = meta_pid (spool, "recording", "recorder_pid");
  g_assert_cmpint (recorder, >, 0);
  /* The launched program outlives a killed recorder: its pid is the one
   * process of the side file. */
  {
    g_autoptr (GKeyFile) meta = g_key_file_new ();
    g_auto (GStrv) groups = NULL;

    g_assert_true (g_key_file_load_from_file (meta, meta_path, G_KEY_FILE_NONE, NULL));
    groups = g_key_file_get_groups (meta, NULL);
    program = 0;
    for (guint i = 0; groups[i] != NULL; i++)
      if (g_str_has_prefix (groups[i], "process "))
        program = (GPid) atoi (groups[i] + strlen ("process "));
    g_assert_cmpint (program, >, 0);
  }

  g_assert_cmpint (kill (recorder, SIGKILL), ==, 0);
  g_assert_true (window_test_wait (not_recording, window, 20));
  kill (program, SIGKILL);
  g_assert_true (window_test_wait (says, &interrupted, 20));
  g_assert_false (status_says (window, "the program failed"));
  recording = window_test_figure_text (GTK_WIDGET (window), "Recording");
  g_test_message ("Recording: %s", recording);
  g_assert_true (g_str_has_prefix (recording, "interrupted: its recorder ended before finishing it; "));
  gui_test_save_png (GTK_WIDGET (window), "live-interrupted.png");
  gtk_window_destroy (GTK_WINDOW (window));
  remove_recording (spool);
}

static gboolean
recording_complete (gpointer spool)
{
  g_autofree char *meta_path = g_strconcat (spool, ".meta", NULL);
  g_autoptr (GKeyFile) meta = g_key_file_new ();

  return g_key_file_load_from_file (meta, meta_path, G_KEY_FILE_NONE, NULL)
         && g_key_file_get_boolean (meta, "recording", "complete", NULL);
}

/* A window closed while it records, another window still open (the
 * application goes on): its recorder stops at once and finishes the file,
 * not when the 20 s program would have ended. */
static void
test_record_window_closed (void)
{
  SpWindow *window = sp_window_new (NULL);
  SpWindow *other = sp_window_new (NULL);
  Growth growth = { window, 0 };
  g_autofree char *spool = NULL;
  gint64 closed;

  gtk_window_present (GTK_WINDOW (other));
  start_window_recording (window, "20");
  g_assert_true (window_test_wait (call_tree_grew, &growth, 20));
  spool = newest_recording ();
  g_assert_nonnull (spool);
  g_assert_false (recording_complete (spool));
  closed = g_get_monotonic_time ();
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_true (window_test_wait (recording_complete, spool, 10));
  g_test_message ("the recording was complete %.1f s after its window closed",
                  (g_get_monotonic_time () - closed) / 1e6);
  gtk_window_destroy (GTK_WINDOW (other));
  g_unlink (spool);
  {
    g_autofree char *meta_path = g_strconcat (spool, ".meta", NULL);

    g_unlink (meta_path);
  }
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/app/window-live/follow-then-interrupted", test_follow_then_interrupted);
  g_test_add_func ("/app/window-live/follow-to-the-end", test_follow_to_the_end);
  g_test_add_func ("/app/window-live/record-names-and-counts", test_record_names_and_counts);
  g_test_add_func ("/app/window-live/record-interrupted", test_record_interrupted);
  g_test_add_func ("/app/window-live/record-window-closed", test_record_window_closed);
  return g_test_run ();
}
