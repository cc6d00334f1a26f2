/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-open-windows.c: one window per profile. A file the user opens
 * (here: dropped on the window, as Open and the recent list do too) goes
 * to a new window when the window records or shows a profile, and to the
 * window itself when it shows the start page or a file that could not be
 * read. A recording goes on, and finishes, while another file opens. */
#include <gtk/gtk.h>
#include <string.h>

#include <glib/gstdio.h>
#include <sys/stat.h>

#include "gui-test.h"
#include "remove-tree.h"
#include "sp-read-ahead.h"
#include "sp-window-testing.h"
#include "window-test.h"

static char *
vector_path (const char *name)
{
  return g_build_filename (g_getenv ("SP_TEST_VECTORS"), name, NULL);
}

static guint
count_windows (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  guint n = 0;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) window = g_list_model_get_item (toplevels, i);

      n += SP_IS_WINDOW (window);
    }
  return n;
}

/* Drops path on window, through the window's own drop target. */
static void
drop_file (SpWindow *window,
           const char *path)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GtkDropTarget *target = NULL;
  GValue value = G_VALUE_INIT;
  gboolean handled = FALSE;

  for (guint i = 0; target == NULL && i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        target = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (target);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_array (&file, 1));
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &handled);
  g_value_unset (&value);
  g_assert_true (handled);
}

static gboolean
shows_profile (gpointer window)
{
  return g_strcmp0 (sp_window_get_page (window), "profile") == 0;
}

static gboolean
shows_error (gpointer window)
{
  return g_strcmp0 (sp_window_get_page (window), "error") == 0;
}

static gboolean
has_rows (gpointer window)
{
  return g_list_model_get_n_items (sp_window_get_call_tree_model (window)) > 0;
}

static gboolean
not_recording (gpointer window)
{
  return !sp_window_is_recording (window);
}

/* The status line once the figures are known (a file shown, a recording
 * finished): "N samples over …". */
static gboolean
shows_figures (gpointer window)
{
  return window_test_find_label (window, " samples over ") != NULL;
}

static gboolean
title_has (SpWindow *window,
           const char *text)
{
  return strstr (gtk_window_get_title (GTK_WINDOW (window)), text) != NULL;
}

/* A label of window that says the vector's figures: its text begins with
 * them (a recording's "1120 samples over …" contains "120 samples over"). */
static gboolean
label_starts_with (GtkWidget *widget,
                   gconstpointer prefix)
{
  return GTK_IS_LABEL (widget) && g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), prefix);
}

static gboolean
shows_vector_figures (SpWindow *window)
{
  return gui_test_find (GTK_WIDGET (window), label_starts_with, "120 samples over ") != NULL;
}

/* While a program is recorded, a dropped file opens in a second window;
 * the recording goes on in the first, and finishes there as usual. */
static void
test_while_recording (void)
{
  g_autofree char *path = vector_path ("valid-03.spool");
  SpRecordOptions options = { .frequency_hz = 1000, .kernel_stacks = TRUE };
  g_autoptr (GError) error = NULL;
  SpWindow *recording = sp_window_new (NULL);
  SpWindow *opened;

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  /* Its report on stdout would go into this test's TAP output. */
  options.argv = g_new0 (char *, 5);
  options.argv[0] = g_strdup ("/bin/sh");
  options.argv[1] = g_strdup ("-c");
  /* Long enough to be still running however slowly the machine opens
   * the other file; Stop ends it below. */
  options.argv[2] = g_strdup ("exec \"$0\" 60 > /dev/null");
  options.argv[3] = g_strdup (g_getenv ("SP_WORK_THREADS"));
  gtk_window_present (GTK_WINDOW (recording));
  g_assert_true (sp_window_record (recording, &options, &error));
  g_assert_no_error (error);
  g_assert_true (window_test_wait (has_rows, recording, 20));
  g_assert_true (sp_window_is_recording (recording));

  drop_file (recording, path);
  g_assert_cmpuint (count_windows (), ==, 2);
  opened = window_test_other_window (recording);
  g_assert_nonnull (opened);
  g_assert_true (window_test_wait (shows_profile, opened, 20));
  g_assert_true (window_test_wait (shows_figures, opened, 20));
  g_assert_true (shows_vector_figures (opened));
  g_assert_true (title_has (opened, "valid-03.spool"));

  /* The first window still records, under its own name. */
  g_assert_true (sp_window_is_recording (recording));
  g_assert_cmpstr (sp_window_get_page (recording), ==, "profile");
  g_assert_true (title_has (recording, "recording"));
  g_assert_false (title_has (recording, "valid-03"));
  gui_test_save_png (GTK_WIDGET (recording), "open-while-recording-1.png");
  gui_test_save_png (GTK_WIDGET (opened), "open-while-recording-2.png");

  /* Stopped, it finishes and shows its own figures. */
  gtk_widget_activate_action (GTK_WIDGET (recording), "win.stop", NULL);
  g_assert_true (window_test_wait (not_recording, recording, 20));
  g_assert_true (window_test_wait (shows_figures, recording, 20));
  g_assert_false (shows_vector_figures (recording));
  g_assert_true (has_rows (recording));
  g_assert_false (title_has (recording, "recording"));
  g_assert_true (title_has (recording, "sh-"));
  g_assert_true (title_has (opened, "valid-03.spool"));
  g_assert_true (shows_vector_figures (opened));
  gui_test_save_png (GTK_WIDGET (recording), "open-while-recording-finished.png");
  gtk_window_destroy (GTK_WINDOW (opened));
  gtk_window_destroy (GTK_WINDOW (recording));
  sp_record_options_clear (&options);
}

/* A window that shows a profile keeps it: a dropped file opens in a
 * second window (as a recording started from it does). */
static void
test_after_profile (void)
{
  g_autofree char *first = vector_path ("valid-03.spool");
  g_autofree char *second = vector_path ("bad-06.spool");
  g_autoptr (GFile) file = g_file_new_for_path (first);
  SpWindow *window = sp_window_new (NULL);
  SpWindow *opened;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (sp_window_open (window, file) == window);
  g_assert_true (window_test_wait (shows_figures, window, 20));

  drop_file (window, second);
  g_assert_cmpuint (count_windows (), ==, 2);
  opened = window_test_other_window (window);
  g_assert_true (window_test_wait (shows_figures, opened, 20));
  g_assert_true (title_has (opened, "bad-06.spool"));
  g_assert_nonnull (window_test_find_label (GTK_WIDGET (opened), "119 samples over "));
  g_assert_true (title_has (window, "valid-03.spool"));
  g_assert_true (shows_vector_figures (window));
  gtk_window_destroy (GTK_WINDOW (opened));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The start page, and a file that could not be read, give way: the
 * dropped file opens in the window itself. */
static void
test_in_place (void)
{
  g_autofree char *missing = vector_path ("no-such-file.spool");
  g_autofree char *path = vector_path ("valid-03.spool");
  SpWindow *window = sp_window_new (NULL);

  gtk_window_present (GTK_WINDOW (window));
  drop_file (window, missing);
  g_assert_cmpuint (count_windows (), ==, 1);
  g_assert_true (window_test_wait (shows_error, window, 20));

  drop_file (window, path);
  g_assert_cmpuint (count_windows (), ==, 1);
  g_assert_true (window_test_wait (shows_figures, window, 20));
  g_assert_true (title_has (window, "valid-03.spool"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A copy of the vector valid-03.spool as dir/name; its path. */
static char *
copy_vector (const char *dir,
             const char *name)
{
  g_autofree char *vector = vector_path ("valid-03.spool");
  g_autofree char *contents = NULL;
  gsize length = 0;
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_get_contents (vector, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) length, NULL));
  return path;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The files sp_read_ahead_start reads for argv (NULL-terminated after
 * the program's name), sorted and without their directory. */
static char *
read_ahead_names (const char *dir,
                  const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GHashTable) reading = NULL;
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer key;

  g_ptr_array_add (argv, g_strdup ("stackpulse"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, args[i][0] == '-' ? g_strdup (args[i]) : g_build_filename (dir, args[i], NULL));
  g_ptr_array_add (argv, NULL);
  reading = sp_read_ahead_start ((int) argv->len - 1, (char **) argv->pdata);
  g_hash_table_iter_init (&iter, reading);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (names, g_path_get_basename (key));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (",", (char **) names->pdata);
}

/* Which files the application reads before GTK starts: the spools named,
 * once each; not a FIFO (reading one could wait), a perf.data (its window
 * converts it first), a missing file, options, or the files of a
 * comparison or of --help. */
static void
test_read_ahead_choice (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sp-read-ahead-XXXXXX", NULL);
  g_autofree char *a = copy_vector (dir, "a.spool");
  g_autofree char *b = copy_vector (dir, "b.spool");
  g_autofree char *fifo = g_build_filename (dir, "fifo.spool", NULL);
  g_autofree char *perf = g_build_filename (dir, "perf.data", NULL);
  const char *const both[] = { "a.spool", "b.spool", "a.spool", NULL };
  const char *const others[] = { "fifo.spool", "perf.data", "missing.spool", "-v", NULL };
  const char *const after_dashes[] = { "--", "b.spool", NULL };
  const char *const compare[] = { "a.spool", "--compare", "b.spool", NULL };
  const char *const help[] = { "a.spool", "--help", NULL };

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_true (g_file_set_contents (perf, "PERFILE2 and more than its magic", -1, NULL));

  {
    g_autofree char *names = read_ahead_names (dir, both);
    g_assert_cmpstr (names, ==, "a.spool,b.spool");
  }
  {
    g_autofree char *names = read_ahead_names (dir, others);
    g_assert_cmpstr (names, ==, "");
  }
  {
    g_autofree char *names = read_ahead_names (dir, after_dashes);
    g_assert_cmpstr (names, ==, "b.spool");
  }
  {
    g_autofree char *names = read_ahead_names (dir, compare);
    g_assert_cmpstr (names, ==, "");
  }
  {
    g_autofree char *names = read_ahead_names (dir, help);
    g_assert_cmpstr (names, ==, "");
  }
  sp_test_remove_tree (dir);
}

static gboolean
shows_figures_of_vector (gpointer window)
{
  return shows_vector_figures (window);
}

static SpWindow *
window_titled (GtkApplication *app,
               const char *text)
{
  for (GList *l = gtk_application_get_windows (app); l != NULL; l = l->next)
    if (SP_IS_WINDOW (l->data) && title_has (l->data, text))
      return l->data;
  return NULL;
}

/* Files named on the command line, read ahead (before GTK starts, in
 * app/stackpulse.c), each shown in its window as a file opened there. */
static void
test_read_ahead_windows (void)
{
  g_autofree char *dir = g_dir_make_tmp ("sp-read-ahead-XXXXXX", NULL);
  g_autofree char *a = copy_vector (dir, "first.spool");
  g_autofree char *b = copy_vector (dir, "second.spool");
  char *argv[] = { (char *) "stackpulse", a, b, NULL };
  g_autoptr (SpApplication) app = sp_application_new ();
  GFile *files[2];
  SpAnalysis *read_ahead[2];
  g_autoptr (GError) error = NULL;
  SpWindow *first;
  SpWindow *second;

  sp_application_read_ahead (app, 3, argv);
  /* Started before the main loop ran (app/stackpulse.c: before GTK). */
  read_ahead[0] = g_object_ref (sp_application_get_read_ahead (app, a));
  read_ahead[1] = g_object_ref (sp_application_get_read_ahead (app, b));
  g_assert_true (sp_analysis_is_busy (read_ahead[0]));
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  files[0] = g_file_new_for_path (a);
  files[1] = g_file_new_for_path (b);
  g_application_open (G_APPLICATION (app), files, 2, "");
  g_object_unref (files[0]);
  g_object_unref (files[1]);
  first = window_titled (GTK_APPLICATION (app), "first.spool");
  second = window_titled (GTK_APPLICATION (app), "second.spool");
  g_assert_nonnull (first);
  g_assert_nonnull (second);
  /* Each window shows its file's reading, not one of its own. */
  g_assert_true (sp_window_get_analysis (first) == read_ahead[0]);
  g_assert_true (sp_window_get_analysis (second) == read_ahead[1]);
  g_assert_null (sp_application_get_read_ahead (app, a));
  g_assert_true (window_test_wait (shows_profile, first, 20));
  g_assert_true (window_test_wait (shows_profile, second, 20));
  g_assert_true (window_test_wait (shows_figures_of_vector, first, 20));
  g_assert_true (window_test_wait (shows_figures_of_vector, second, 20));
  gtk_window_destroy (GTK_WINDOW (first));
  gtk_window_destroy (GTK_WINDOW (second));
  g_object_unref (read_ahead[0]);
  g_object_unref (read_ahead[1]);
  sp_test_remove_tree (dir);
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/app/open-windows/in-place", test_in_place);
  g_test_add_func ("/app/open-windows/after-profile", test_after_profile);
  g_test_add_func ("/app/open-windows/while-recording", test_while_recording);
  g_test_add_func ("/app/open-windows/read-ahead-choice", test_read_ahead_choice);
  g_test_add_func ("/app/open-windows/read-ahead-windows", test_read_ahead_windows);
  return g_test_run ();
}
