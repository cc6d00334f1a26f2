/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-open-windows.c: one window per profile. A file the user opens
 * (here: dropped on the window, as Open and the recent list do too) goes
 * to a new window when the window records or shows a profile, and to the
 * window itself when it shows the start page or a file that could not be
 * read. A recording goes on, and finishes, while another file opens. */
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test.h"
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

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/app/open-windows/in-place", test_in_place);
  g_test_add_func ("/app/open-windows/after-profile", test_after_profile);
  g_test_add_func ("/app/open-windows/while-recording", test_while_recording);
  return g_test_run ();
}
