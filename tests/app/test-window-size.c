/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-window-size.c: the window with a profile fits a laptop screen
 * (1280 or 1366 px wide) and half of a wide one: what sets its narrowest
 * width (the header bar, the page switcher, the pages) stays under 800 px,
 * and it opens at a size that fits 1366×768. Screenshots at 1280 and 900
 * px for review. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "gui-test.h"
#include "sp-window-testing.h"
#include "window-test.h"

static gboolean
shows_profile (gpointer window)
{
  return g_strcmp0 (sp_window_get_page (window), "profile") == 0;
}

static int
measure (GtkWidget *widget,
         GtkOrientation orientation)
{
  int min = 0;

  gtk_widget_measure (widget, orientation, -1, &min, NULL, NULL, NULL);
  return min;
}

/* The widgets of widget's tree at least 400 px wide at their narrowest:
 * what to look at when the window got too wide. */
static void
report_wide (GtkWidget *widget,
             int depth)
{
  int min = measure (widget, GTK_ORIENTATION_HORIZONTAL);

  if (min < 400)
    return;
  g_test_message ("%*s%s: %d px", depth * 2, "", G_OBJECT_TYPE_NAME (widget), min);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    report_wide (child, depth + 1);
}

/* The window's size counts its frame (client-side decorations), its
 * widget's width not: they differ by a few pixels. */
static gboolean
width_is (gpointer data)
{
  GtkWidget *window = data;
  int wanted = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (window), "width"));

  return ABS (gtk_widget_get_width (window) - wanted) <= 16;
}

/* Resizes window as a user would, and waits until it has that width. */
static void
resize (SpWindow *window,
        int width,
        int height)
{
  g_object_set_data (G_OBJECT (window), "width", GINT_TO_POINTER (width));
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  g_assert_true (window_test_wait (width_is, window, 5));
}

/* A copy of a test vector in a folder with a long path, as a recording
 * in ~/.cache/stackpulse/recordings of a program with a long name has:
 * the title, status and Summary page show it. */
static char *
copy_to_long_path (const char *vector,
                   char **dir)
{
  g_autofree char *from = g_build_filename (g_getenv ("SP_TEST_VECTORS"), vector, NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  char *to;
  gsize length;

  *dir = g_dir_make_tmp ("sp-window-size-XXXXXX", &error);
  g_assert_no_error (error);
  to = g_build_filename (*dir, "a-program-with-a-rather-long-name-for-testing-20250101-120000.spool", NULL);
  g_file_get_contents (from, &contents, &length, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, contents, (gssize) length, &error);
  g_assert_no_error (error);
  return to;
}

static void
test_fits_laptop (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *path = copy_to_long_path ("valid-03.spool", &dir);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  SpWindow *window = sp_window_new (NULL);
  int default_width, default_height, min_width, min_height;

  gtk_window_get_default_size (GTK_WINDOW (window), &default_width, &default_height);
  g_assert_cmpint (default_width, <=, 1366);
  g_assert_cmpint (default_height, <=, 768 - 48);  /* a panel, the window's frame */
  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, file);
  g_assert_true (window_test_wait (shows_profile, window, 20));
  window_test_run (0.3);

  min_width = measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL);
  min_height = measure (GTK_WIDGET (window), GTK_ORIENTATION_VERTICAL);
  g_test_message ("narrowest %d px, lowest %d px; opens at %d×%d", min_width, min_height,
                  default_width, default_height);
  report_wide (GTK_WIDGET (window), 0);
  report_wide (gtk_window_get_titlebar (GTK_WINDOW (window)), 0);
  g_assert_cmpint (min_width, <=, 800);
  g_assert_cmpint (min_height, <=, 600);
  /* It opens at its default size: nothing inside forces it wider. */
  g_object_set_data (G_OBJECT (window), "width", GINT_TO_POINTER (default_width));
  g_assert_true (width_is (window));

  resize (window, 1280, 800);
  gui_test_save_png (GTK_WIDGET (window), "window-1280.png");
  resize (window, 900, 700);
  sp_window_show_view (window, "flame-graph");
  gui_test_save_png (GTK_WIDGET (window), "window-900-flame-graph.png");
  sp_window_show_view (window, "summary");
  gui_test_save_png (GTK_WIDGET (window), "window-900-summary.png");
  resize (window, min_width, 600);
  sp_window_show_view (window, "threads");
  gui_test_save_png (GTK_WIDGET (window), "window-narrowest.png");
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/app/window-size/fits-laptop", test_fits_laptop);
  return g_test_run ();
}
