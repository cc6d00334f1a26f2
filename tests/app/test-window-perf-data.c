/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-window-perf-data.c: the window opens perf.data files (issue #16).
 *
 * Real perf.data files recorded here by Debian's perf, converted by the
 * real stackpulse-record --input: the loading page shows the conversion,
 * then the profile shows what stackpulse-report reads in the converted
 * spool, named for its perf.data; the same perf.data opens again without
 * a second conversion; Cancel stops the converter, leaves nothing in the
 * cache and goes back to where the user was. A perf.data is known by its
 * content, not its name; a converter missing or refusing says why. The
 * cache is the test's own (gui-test.c sets XDG_CACHE_HOME). */
#include <errno.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <signal.h>
#include <string.h>

#include "gui-test.h"
#include "sp-metric-selector.h"
#include "sp-recent-list.h"
#include "sp-window-testing.h"
#include "window-test.h"

static char *
converted_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "stackpulse", "converted", NULL);
}

/* perf record -F frequency CALL_GRAPH EXTRA... -- sp-work-threads
 * seconds into data (call_graph: "-g", or a --call-graph mode; extra:
 * more of perf's options, NULL-terminated, or NULL); in perf's pipe mode
 * (-o -, standard output into data) when pipe. FALSE (the test skipped)
 * where perf is missing or perf_event refused, except in CI. */
static gboolean
perf_record_to (const char *data,
                gboolean pipe,
                const char *call_graph,
                const char *const *extra,
                const char *frequency,
                const char *seconds)
{
  const char *perf = "/usr/bin/perf";
  g_autoptr (GStrvBuilder) argv = g_strv_builder_new ();
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr (GSubprocess) process = NULL;
  g_auto (GStrv) args = NULL;
  g_autofree char *err = NULL;
  g_autoptr (GError) error = NULL;

  if (!g_file_test (perf, G_FILE_TEST_IS_EXECUTABLE))
    {
      if (g_getenv ("CI") != NULL)
        g_error ("perf is not installed (Debian's linux-perf): CI must test perf.data files");
      g_test_skip ("/usr/bin/perf is not installed (linux-perf)");
      return FALSE;
    }
  g_strv_builder_add_many (argv, perf, "record", "-F", frequency, NULL);
  if (g_str_equal (call_graph, "-g"))
    g_strv_builder_add (argv, call_graph);
  else
    g_strv_builder_add_many (argv, "--call-graph", call_graph, NULL);
  for (const char *const *e = extra; e != NULL && *e != NULL; e++)
    g_strv_builder_add (argv, *e);
  /* The workload's report must not go into a perf.data on stdout. */
  g_strv_builder_add_many (argv, "-o", pipe ? "-" : data, "--", "/bin/sh", "-c", "exec \"$0\" \"$1\" > /dev/null",
                           g_getenv ("SP_WORK_THREADS"), seconds, NULL);
  args = g_strv_builder_end (argv);
  if (pipe)
    g_subprocess_launcher_set_stdout_file_path (launcher, data);
  process = g_subprocess_launcher_spawnv (launcher, (const char *const *) args, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_communicate_utf8 (process, NULL, NULL, NULL, &err, &error));
  g_assert_no_error (error);
  if (g_subprocess_get_successful (process) && g_file_test (data, G_FILE_TEST_IS_REGULAR))
    return TRUE;
  if (g_getenv ("CI") != NULL)
    g_error ("perf record failed here: CI must be able to record\n%s", err);
  g_test_skip_printf ("perf record cannot record here (perf_event refused?): %s", err);
  return FALSE;
}

static gboolean
perf_record (const char *data,
             const char *call_graph,
             const char *frequency,
             const char *seconds)
{
  return perf_record_to (data, FALSE, call_graph, NULL, frequency, seconds);
}

/* The files in the converted folder made for a perf.data named name:
 * NAME-HASH.spool and what goes with it, or being written (hidden). */
static char *
cache_listing (const char *name)
{
  g_autofree char *dir = converted_dir ();
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  g_autoptr (GString) names = g_string_new (NULL);
  g_autofree char *prefix = g_strconcat (name, "-", NULL);
  const char *entry;

  while (listing != NULL && (entry = g_dir_read_name (listing)) != NULL)
    if (g_str_has_prefix (entry + (entry[0] == '.'), prefix))
      g_string_append_printf (names, "%s%s", names->len > 0 ? " " : "", entry);
  return g_strdup (names->str);
}

/* The finished conversion of a perf.data named name in the cache. */
static char *
cached_spool (const char *name)
{
  g_autofree char *dir = converted_dir ();
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  g_autofree char *prefix = g_strconcat (name, "-", NULL);
  const char *entry;

  while (listing != NULL && (entry = g_dir_read_name (listing)) != NULL)
    if (g_str_has_prefix (entry, prefix) && g_str_has_suffix (entry, ".spool"))
      return g_build_filename (dir, entry, NULL);
  return NULL;
}

/* "samples:   440 (of 440 in the file)" of stackpulse-report's summary. */
static char *
report_samples (const char *spool)
{
  const char *argv[] = { g_getenv ("SP_REPORT"), spool, NULL };
  g_autofree char *out = NULL;
  const char *line;
  int status = -1;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                               &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  line = strstr (out, "\nsamples:");
  g_assert_nonnull (line);
  line += strlen ("\nsamples:");
  while (*line == ' ')
    line++;
  return g_strndup (line, strspn (line, "0123456789"));
}

static gboolean
converter_gone (gpointer data)
{
  return kill ((pid_t) GPOINTER_TO_INT (data), 0) != 0 && errno == ESRCH;
}

/* data: the perf.data's name */
static gboolean
cache_has_partial (gpointer data)
{
  g_autofree char *names = cache_listing (data);

  return names[0] == '.';
}

static gboolean
cache_has_none (gpointer data)
{
  g_autofree char *names = cache_listing (data);

  return names[0] == '\0';
}

static gboolean
is_shown_label_with (GtkWidget *widget,
                     gconstpointer text)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL
         && window_test_is_shown (widget);
}

/* A label shown in window (it and its ancestors visible) whose text
 * contains text, or NULL. */
static GtkWidget *
find_shown_label (SpWindow *window,
                  const char *text)
{
  return gui_test_find (GTK_WIDGET (window), is_shown_label_with, text);
}

static gboolean
is_laid_out (gpointer widget)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_width (widget) > 0;
}

/* A screenshot of the loading page while it converts, drawn at once
 * (gui_test_save_png lets the main loop run for half a second, time
 * enough for a conversion to end); FALSE when the conversion has ended. */
static gboolean
save_converting_png (SpWindow *window,
                     const char *name)
{
  g_autofree char *path = g_build_filename (gui_test_screenshot_dir (), name, NULL);
  g_autoptr (GdkTexture) texture = NULL;

  if (sp_window_get_converter_pid (window) == 0)
    return FALSE;
  texture = gui_test_render (GTK_WIDGET (window));
  if (sp_window_get_converter_pid (window) == 0)
    return FALSE;
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
  gui_test_assert_drawn (texture, name);
  return TRUE;
}

/* The converter has said how far it got. */
static gboolean
shows_progress (gpointer window)
{
  GtkWidget *bar = window_test_find_widget (GTK_WIDGET (window), GTK_TYPE_PROGRESS_BAR);

  return gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar)) > 0;
}

/* The loading page shows a conversion: its bar, its Cancel. */
static void
assert_converting (SpWindow *window,
                   const char *name)
{
  g_autofree char *text = g_strdup_printf ("Converting %s…", name);
  GtkWidget *bar = window_test_find_widget (GTK_WIDGET (window), GTK_TYPE_PROGRESS_BAR);
  GtkButton *cancel = window_test_find_button (GTK_WIDGET (window), "Cancel");

  g_assert_cmpstr (sp_window_get_page (window), ==, "loading");
  g_assert_cmpint (sp_window_get_converter_pid (window), >, 0);
  g_assert_nonnull (window_test_find_label (GTK_WIDGET (window), text));
  g_assert_true (window_test_is_shown (bar));
  g_assert_nonnull (cancel);
  g_assert_true (window_test_is_shown (GTK_WIDGET (cancel)));
}

static gboolean
recent_lists (const char *path)
{
  SpWindow *window = sp_window_new (NULL);
  GtkWidget *list = window_test_find_widget (GTK_WIDGET (window), SP_TYPE_RECENT_LIST);
  gboolean found = FALSE;

  for (guint i = 0; i < sp_recent_list_get_n_files (SP_RECENT_LIST (list)); i++)
    {
      g_autofree char *listed = g_file_get_path (sp_recent_list_get_file (SP_RECENT_LIST (list), i, NULL));

      found |= g_strcmp0 (listed, path) == 0;
    }
  gtk_window_destroy (GTK_WINDOW (window));
  return found;
}

/* Opened, converted, shown as the report reads it; opened again, the
 * conversion is reused. */
static void
test_convert (void)
{
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-perf-data-XXXXXX", NULL);
  g_autofree char *data = g_build_filename (dir, "perf.data", NULL);
  g_autofree char *spool = NULL;
  g_autofree char *samples = NULL;
  g_autofree char *figure = NULL;
  g_autofree char *file_figure = NULL;
  GStatBuf before, after;
  SpWindow *window;

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  if (!perf_record (data, "-g", "2000", "0.6"))
    return;
  window = window_test_open_path (data);
  assert_converting (window, "perf.data");
  g_assert_true (window_test_wait_for_page (window, "profile", 60));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "perf.data (converted) — stackpulse");
  spool = cached_spool ("perf.data");
  g_assert_nonnull (spool);
  samples = report_samples (spool);
  g_assert_cmpuint (g_ascii_strtoull (samples, NULL, 10), >, 0);
  figure = window_test_figure_text (GTK_WIDGET (window), "Samples");
  g_assert_cmpstr (figure, ==, samples);
  file_figure = window_test_figure_text (GTK_WIDGET (window), "File");
  g_assert_true (g_str_has_prefix (file_figure, data));
  g_assert_nonnull (strstr (file_figure, "converted to"));
  g_assert_true (sp_window_search_function (window, "alpha_leaf"));
  gui_test_save_png (GTK_WIDGET (window), "perf-data-converted.png");
  sp_window_show_view (window, "summary");
  gui_test_save_png (GTK_WIDGET (window), "perf-data-summary.png");
  gtk_window_destroy (GTK_WINDOW (window));
  /* The recent files name the perf.data, not the cache's spool. */
  g_assert_true (recent_lists (data));
  g_assert_false (recent_lists (spool));

  /* Again: the finished conversion opens as it is. */
  g_assert_cmpint (g_stat (spool, &before), ==, 0);
  window = window_test_open_path (data);
  g_assert_cmpint (sp_window_get_converter_pid (window), ==, 0);
  g_assert_null (window_test_find_label (GTK_WIDGET (window), "Converting perf.data"));
  g_assert_true (window_test_wait_for_page (window, "profile", 60));
  g_assert_cmpint (g_stat (spool, &after), ==, 0);
  g_assert_cmpint (after.st_mtime, ==, before.st_mtime);
  g_assert_cmpint (after.st_ino, ==, before.st_ino);
  g_clear_pointer (&figure, g_free);
  figure = window_test_figure_text (GTK_WIDGET (window), "Samples");
  g_assert_cmpstr (figure, ==, samples);
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_remove_dir (dir);
}

/* Cancel while converting: back to the start page (or the profile shown
 * before), the converter gone, nothing left in the cache; the same when
 * the window is closed. */
static void
test_cancel (void)
{
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-perf-data-XXXXXX", NULL);
  g_autofree char *data = g_build_filename (dir, "big.data", NULL);
  g_autofree char *spool = g_build_filename (g_getenv ("SP_TEST_VECTORS"), "valid-03.spool", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (data);
  g_autoptr (GFile) profile = g_file_new_for_path (spool);
  SpWindow *window;
  GPid pid;

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  /* 6 s at 20 kHz: a sanitizer build's converter finished a 3 s file
   * before the window's screenshot was rendered. */
  if (!perf_record (data, "dwarf", "20000", "6"))
    return;
  /* Shown before the conversion starts: it is over in a few seconds. */
  window = sp_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (window_test_wait (is_laid_out, window, 20));
  sp_window_open_file (window, file);
  assert_converting (window, "big.data");
  pid = sp_window_get_converter_pid (window);
  /* Mid-way: the converter has begun writing. */
  g_assert_true (window_test_wait (cache_has_partial, "big.data", 20));
  g_assert_cmpint (sp_window_get_converter_pid (window), ==, pid);
  g_assert_true (save_converting_png (window, "perf-data-converting-started.png"));
  /* As a click does (activating a button clicks it only 250 ms later). */
  g_signal_emit_by_name (window_test_find_button (GTK_WIDGET (window), "Cancel"), "clicked");
  g_assert_cmpstr (sp_window_get_page (window), ==, "start");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "stackpulse");
  g_assert_nonnull (find_shown_label (window, "Converting big.data was cancelled."));
  gui_test_save_png (GTK_WIDGET (window), "perf-data-cancelled.png");
  g_assert_true (window_test_wait (converter_gone, GINT_TO_POINTER (pid), 20));
  g_assert_true (window_test_wait (cache_has_none, "big.data", 20));

  /* Over a profile: the profile stays, and the status line says so. */
  sp_window_open_file (window, profile);
  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  sp_window_open_file (window, file);
  assert_converting (window, "big.data");
  pid = sp_window_get_converter_pid (window);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-conversion", NULL);
  g_assert_cmpstr (sp_window_get_page (window), ==, "profile");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "valid-03.spool — stackpulse");
  g_assert_nonnull (find_shown_label (window, "Converting big.data was cancelled."));
  g_assert_true (window_test_wait (converter_gone, GINT_TO_POINTER (pid), 20));
  g_assert_true (window_test_wait (cache_has_none, "big.data", 20));
  gtk_window_destroy (GTK_WINDOW (window));

  /* A window closed while converting: the conversion ends with it. */
  window = window_test_open_path (data);
  pid = sp_window_get_converter_pid (window);
  g_assert_cmpint (pid, >, 0);
  g_assert_true (window_test_wait (cache_has_partial, "big.data", 20));
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_true (window_test_wait (converter_gone, GINT_TO_POINTER (pid), 20));
  g_assert_true (window_test_wait (cache_has_none, "big.data", 20));

  /* Let through: its progress shows on the way (when the machine is slow
   * enough to see it), then the profile. */
  window = window_test_open_path (data);
  assert_converting (window, "big.data");
  if (window_test_wait (shows_progress, window, 20))
    {
      /* A frame with the bar where the converter said. */
      window_test_run (0.05);
      if (!save_converting_png (window, "perf-data-converting.png"))
        g_test_message ("the conversion ended before its progress could be seen");
    }
  g_assert_true (window_test_wait_for_page (window, "profile", 120));
  /* Its progress lines on stderr are no warning. */
  g_assert_null (find_shown_label (window, "converting big.data:"));
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_remove_dir (dir);
}

/* A perf.data is known by its content: named *.spool, it converts, and
 * so does one in perf's pipe mode (its header is shorter); a text file
 * named perf.data is named for what it is. */
static void
test_by_content (void)
{
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-perf-data-XXXXXX", NULL);
  g_autofree char *data = g_build_filename (dir, "recording.spool", NULL);
  g_autofree char *text = g_build_filename (dir, "perf.data", NULL);
  g_autofree char *piped = g_build_filename (dir, "piped.data", NULL);
  SpWindow *window;
  GtkLabel *label;

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  if (!perf_record (data, "-g", "2000", "0.3"))
    return;
  window = window_test_open_path (data);
  assert_converting (window, "recording.spool");
  g_assert_true (window_test_wait_for_page (window, "profile", 60));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "recording.spool (converted) — stackpulse");
  gtk_window_destroy (GTK_WINDOW (window));

  if (!perf_record_to (piped, TRUE, "-g", NULL, "2000", "0.3"))
    return;
  window = window_test_open_path (piped);
  assert_converting (window, "piped.data");
  g_assert_true (window_test_wait_for_page (window, "profile", 60));
  g_assert_true (sp_window_search_function (window, "alpha_leaf"));
  gtk_window_destroy (GTK_WINDOW (window));

  g_assert_true (g_file_set_contents (text, "not what perf writes\n", -1, NULL));
  window = window_test_open_path (text);
  g_assert_cmpint (sp_window_get_converter_pid (window), ==, 0);
  g_assert_true (window_test_wait_for_page (window, "error", 20));
  label = window_test_find_label (GTK_WIDGET (window), "is a text file (it begins \"not what perf writes\")");
  g_assert_nonnull (label);
  g_assert_true (window_test_is_shown (GTK_WIDGET (label)));
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_remove_dir (dir);
}

/* The converter refuses a perf.data cut in its header, or cannot be
 * found: the error page says why, and the cache keeps nothing. */
static void
test_refused (void)
{
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-perf-data-XXXXXX", NULL);
  g_autofree char *cut = g_build_filename (dir, "cut.data", NULL);
  g_autofree char *path = g_strdup (g_getenv ("PATH"));
  SpWindow *window;
  GtkLabel *label;

  g_assert_true (g_file_set_contents (cut, "PERFILE2\x68\0\0\0\0\0\0\0", 16, NULL));
  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  window = window_test_open_path (cut);
  g_assert_true (window_test_wait_for_page (window, "error", 20));
  label = window_test_find_label (GTK_WIDGET (window), "Cannot convert this perf.data file.");
  g_assert_nonnull (label);
  /* In the converter's words, without its name. */
  g_assert_nonnull (strstr (gtk_label_get_text (label), "cut.data is a perf.data file cut short in its header"));
  g_assert_null (strstr (gtk_label_get_text (label), "stackpulse-record:"));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "cut.data — stackpulse");
  gui_test_save_png (GTK_WIDGET (window), "perf-data-refused.png");
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_true (window_test_wait (cache_has_none, "cut.data", 20));

  g_setenv ("STACKPULSE_RECORD", "/nonexistent/stackpulse-record", TRUE);
  g_setenv ("PATH", "/nonexistent", TRUE);
  window = window_test_open_path (cut);
  g_assert_cmpstr (sp_window_get_page (window), ==, "error");
  g_assert_nonnull (window_test_find_label (GTK_WIDGET (window), "stackpulse-record, which converts perf.data files, "
                                                                  "was not found"));
  gtk_window_destroy (GTK_WINDOW (window));
  g_setenv ("PATH", path, TRUE);
  window_test_remove_dir (dir);
}

/* A perf.data cut short converts up to the cut: the window shows what
 * was converted, and the converter's warning above the views (also when
 * the conversion is reused). */
static void
test_damaged (void)
{
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-perf-data-XXXXXX", NULL);
  g_autofree char *whole = g_build_filename (dir, "whole.data", NULL);
  g_autofree char *data = g_build_filename (dir, "damaged.data", NULL);
  g_autofree char *contents = NULL;
  gsize length;

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  if (!perf_record (whole, "-g", "2000", "0.6"))
    return;
  g_assert_true (g_file_get_contents (whole, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (data, contents, (gssize) (length * 2 / 3), NULL));
  for (guint round = 0; round < 2; round++)
    {
      SpWindow *window = window_test_open_path (data);
      GtkWidget *warning;

      g_assert_true (window_test_wait_for_page (window, "profile", 60));
      warning = find_shown_label (window, "Converted from a perf.data file, with warnings:");
      g_assert_nonnull (warning);
      g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (warning)), "damaged.data is damaged at byte"));
      g_assert_null (strstr (gtk_label_get_text (GTK_LABEL (warning)), "written to"));
      if (round == 0)
        gui_test_save_png (GTK_WIDGET (window), "perf-data-damaged.png");
      gtk_window_destroy (GTK_WINDOW (window));
    }
  window_test_remove_dir (dir);
}

/* The Summary page of a conversion says it is one: Recording names the
 * perf.data, perf's command line and the event converted, Size both
 * files; no off-CPU time is offered to be recorded. A file of two events
 * warns which was converted and the command that converts the other: the
 * converter's "choose with --event NAME" is no choice the window has. */
static void
test_summary (void)
{
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-perf-data-XXXXXX", NULL);
  g_autofree char *data = g_build_filename (dir, "events.data", NULL);
  g_autofree char *recording = NULL;
  g_autofree char *size = NULL;
  g_autofree char *offcpu = NULL;
  g_autofree char *data_size = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *other = g_strdup_printf ("the file's other event (page-faults) converts with stackpulse-record "
                                            "--input %s --event NAME -o OUT.spool", data);
  GtkWidget *warning, *selector;
  SpWindow *window;
  GStatBuf st;

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  if (!perf_record_to (data, FALSE, "-g", (const char *const[]) { "-e", "page-faults", "-e", "cpu-clock", NULL },
                       "2000", "0.4"))
    return;
  window = window_test_open_path (data);
  g_assert_true (window_test_wait_for_page (window, "profile", 60));
  recording = window_test_figure_text (GTK_WIDGET (window), "Recording");
  g_test_message ("Recording: %s", recording);
  expected = g_strdup_printf ("converted from perf.data %s (perf ", data);
  g_assert_true (g_str_has_prefix (recording, expected));
  g_assert_nonnull (strstr (recording, "\nrecorded with: "));
  g_assert_nonnull (strstr (recording, " record -F 2000 -g -e page-faults -e cpu-clock -o "));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("\nevent: cpu-clock; %s", other);
  g_assert_true (g_str_has_suffix (recording, expected));

  size = window_test_figure_text (GTK_WIDGET (window), "Size");
  g_assert_cmpint (g_stat (data, &st), ==, 0);
  data_size = g_format_size ((guint64) st.st_size);
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf (" (converted from %s of perf.data)", data_size);
  g_test_message ("Size: %s", size);
  g_assert_true (g_str_has_suffix (size, expected));

  offcpu = window_test_figure_text (GTK_WIDGET (window), "Off-CPU time");
  g_assert_cmpstr (offcpu, ==, "none: off-CPU time is not converted from perf.data");
  selector = window_test_find_widget (GTK_WIDGET (window), SP_TYPE_METRIC_SELECTOR);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (selector), "off-CPU time is not converted from perf.data"));

  warning = find_shown_label (window, "Converted from a perf.data file, with warnings:");
  g_assert_nonnull (warning);
  g_test_message ("warning: %s", gtk_label_get_text (GTK_LABEL (warning)));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf (": cpu-clock was converted; %s", other);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (warning)), expected));
  g_assert_null (strstr (gtk_label_get_text (GTK_LABEL (warning)), "choose with --event"));
  sp_window_show_view (window, "summary");
  gui_test_save_png (GTK_WIDGET (window), "perf-data-summary-events.png");
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_remove_dir (dir);
}

static gboolean
filter_takes (GtkFileFilter *filter,
              const char *name)
{
  g_autoptr (GFileInfo) info = g_file_info_new ();

  g_file_info_set_display_name (info, name);
  return gtk_filter_match (GTK_FILTER (filter), info);
}

/* Open… offers recordings (spools and perf.data), and all files. */
static void
test_open_filters (void)
{
  SpWindow *window = sp_window_new (NULL);
  GtkFileChooser *chooser;
  g_autoptr (GListModel) filters = NULL;
  GtkFileFilter *recordings, *all;

  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.open", NULL);
  chooser = sp_window_get_open_chooser (window);
  g_assert_nonnull (chooser);
  filters = gtk_file_chooser_get_filters (chooser);
  g_assert_cmpuint (g_list_model_get_n_items (filters), ==, 2);
  recordings = g_list_model_get_item (filters, 0);
  all = g_list_model_get_item (filters, 1);
  g_assert_cmpstr (gtk_file_filter_get_name (recordings), ==, "Recordings (*.spool, perf.data)");
  g_assert_true (filter_takes (recordings, "x.spool"));
  g_assert_true (filter_takes (recordings, "perf.data"));
  g_assert_true (filter_takes (recordings, "perf.data.old"));
  g_assert_true (filter_takes (recordings, "server.data"));
  g_assert_false (filter_takes (recordings, "notes.txt"));
  g_assert_cmpstr (gtk_file_filter_get_name (all), ==, "All files");
  g_assert_true (filter_takes (all, "notes.txt"));
  g_object_unref (recordings);
  g_object_unref (all);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc,
      char **argv)
{
  /* The file chooser keeps its settings: in memory, not in a dconf this
   * machine may lack (a warning, fatal in the tests). */
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/app/window-perf-data/open-filters", test_open_filters);
  g_test_add_func ("/app/window-perf-data/refused", test_refused);
  g_test_add_func ("/app/window-perf-data/convert", test_convert);
  g_test_add_func ("/app/window-perf-data/by-content", test_by_content);
  g_test_add_func ("/app/window-perf-data/damaged", test_damaged);
  g_test_add_func ("/app/window-perf-data/summary", test_summary);
  g_test_add_func ("/app/window-perf-data/cancel", test_cancel);
  return g_test_run ();
}
