/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-start-page.c: the start page's ways in: record, attach, open, and
 * the recent recordings (files opened or recorded with stackpulse, newest
 * first, a missing one marked and not openable). The test has its own
 * recently-used list (gui-test.c), which starts empty. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test.h"
#include "sp-recent-list.h"
#include "sp-window-testing.h"
#include "window-test.h"

static SpRecentList *
recent_list_of (SpWindow *window)
{
  GtkWidget *list = window_test_find_widget (GTK_WIDGET (window), SP_TYPE_RECENT_LIST);

  g_assert_nonnull (list);
  return SP_RECENT_LIST (list);
}

/* Where file is in the list (-1: not listed), and whether it exists. */
static int
find_recent (SpRecentList *list,
             const char *path,
             gboolean *exists)
{
  for (guint i = 0; i < sp_recent_list_get_n_files (list); i++)
    {
      g_autofree char *listed = g_file_get_path (sp_recent_list_get_file (list, i, exists));

      if (g_strcmp0 (listed, path) == 0)
        return (int) i;
    }
  return -1;
}

static char *
copy_vector (const char *dir,
             const char *name,
             const char *as)
{
  g_autofree char *from = g_build_filename (g_getenv ("SP_TEST_VECTORS"), name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  char *to = g_build_filename (dir, as, NULL);
  gsize length;

  g_file_get_contents (from, &contents, &length, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, contents, (gssize) length, &error);
  g_assert_no_error (error);
  return to;
}

static gboolean
shows_profile (gpointer window)
{
  return g_strcmp0 (sp_window_get_page (window), "profile") == 0;
}

static void
open_and_close (const char *path)
{
  SpWindow *window = sp_window_new (NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, file);
  g_assert_true (window_test_wait (shows_profile, window, 20));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
recording_finished (gpointer window)
{
  return window_test_find_label (window, "Recording finished") != NULL;
}

static void
test_ways_in (void)
{
  SpWindow *window = sp_window_new (NULL);
  const char *buttons[] = { "Record a Program", "Attach to a Process", "Profile the Demo", "Open a Recording" };

  gtk_window_present (GTK_WINDOW (window));
  g_assert_cmpstr (sp_window_get_page (window), ==, "start");
  for (guint i = 0; i < G_N_ELEMENTS (buttons); i++)
    {
      GtkButton *button = window_test_find_button (GTK_WIDGET (window), buttons[i]);

      g_assert_nonnull (button);
      g_assert_true (window_test_is_shown (GTK_WIDGET (button)));
    }
  /* Nothing recorded or opened yet: no list at all. */
  g_assert_cmpuint (sp_recent_list_get_n_files (recent_list_of (window)), ==, 0);
  g_assert_false (window_test_is_shown (window_test_find_widget (GTK_WIDGET (recent_list_of (window)),
                                                                 GTK_TYPE_LIST_BOX)));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_recent (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-recent-XXXXXX", &error);
  g_autofree char *kept = copy_vector (dir, "valid-03.spool", "kept.spool");
  g_autofree char *gone = copy_vector (dir, "valid-01.spool", "gone.spool");
  g_autofree char *recorded = NULL;
  SpRecordOptions options = { .frequency_hz = 1000, .kernel_stacks = TRUE };
  SpWindow *window;
  SpRecentList *list;
  gboolean exists = FALSE;
  int at;

  g_assert_no_error (error);
  open_and_close (kept);
  open_and_close (gone);
  g_assert_cmpint (g_unlink (gone), ==, 0);

  /* A recording made from the window is listed too, first. */
  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  /* Its report on stdout would go into this test's TAP output. */
  options.argv = g_new0 (char *, 5);
  options.argv[0] = g_strdup ("/bin/sh");
  options.argv[1] = g_strdup ("-c");
  options.argv[2] = g_strdup ("exec \"$0\" 0.3 > /dev/null");
  options.argv[3] = g_strdup (g_getenv ("SP_WORK_THREADS"));
  window = sp_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (sp_window_record (window, &options, &error));
  g_assert_no_error (error);
  g_assert_true (window_test_wait (recording_finished, window, 20));
  gtk_window_destroy (GTK_WINDOW (window));
  sp_record_options_clear (&options);

  window = sp_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  list = recent_list_of (window);
  g_assert_cmpuint (sp_recent_list_get_n_files (list), ==, 3);
  recorded = g_file_get_path (sp_recent_list_get_file (list, 0, &exists));
  g_assert_true (g_str_has_prefix (recorded, g_get_user_cache_dir ()));
  g_assert_true (g_str_has_suffix (recorded, ".spool"));
  g_assert_nonnull (strstr (recorded, "/sh-"));
  g_assert_true (exists);
  g_assert_cmpint (find_recent (list, kept, &exists), >, 0);
  g_assert_true (exists);
  at = find_recent (list, gone, &exists);
  g_assert_cmpint (at, >, 0);
  g_assert_false (exists);
  g_assert_nonnull (window_test_find_label (GTK_WIDGET (list), "Missing: gone.spool"));
  gui_test_save_png (GTK_WIDGET (window), "start-page-recent.png");

  /* The missing one cannot be opened; the kept one opens here. */
  g_assert_false (sp_recent_list_activate (list, (guint) at));
  g_assert_cmpstr (sp_window_get_page (window), ==, "start");
  g_assert_true (sp_recent_list_activate (list, (guint) find_recent (list, kept, NULL)));
  g_assert_true (window_test_wait (shows_profile, window, 20));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), "kept.spool"));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (kept);
  g_rmdir (dir);
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/app/start-page/ways-in", test_ways_in);
  g_test_add_func ("/app/start-page/recent", test_recent);
  return g_test_run ();
}
