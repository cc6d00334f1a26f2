/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-broken-stacks.c: the window says when many stacks are broken.
 *
 * sp-work-cut's unwind tables end every stack at cut_root, short of
 * _start, while the unwinder counts them complete: opened in a window,
 * its status line must warn that the stacks are broken, and the Summary
 * page must say how many reach their thread's root. A recording of the
 * threads workload, whose stacks are whole, gets no warning. Both are real
 * recordings by the real recorder. */
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test.h"
#include "sp-window-testing.h"
#include "window-test.h"

#define BROKEN_WARNING "of stacks are broken"

static gboolean
shows_figures (gpointer window)
{
  return window_test_find_label (window, " samples over ") != NULL;
}

/* The status line of a window showing a new recording of program. */
static char *
status_of_recording (const char *program,
                     const char *png)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-broken-XXXXXX", &error);
  g_autofree char *spool = g_build_filename (dir, "out.spool", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (spool);
  SpWindow *window;
  GtkLabel *label;
  char *status;

  g_assert_no_error (error);
  if (!window_test_record (spool, NULL, program, "0.6", NULL))
    {
      window_test_remove_dir (dir);
      return NULL;
    }
  window = sp_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, file);
  g_assert_true (window_test_wait (shows_figures, window, 30));
  label = window_test_find_label (GTK_WIDGET (window), " samples over ");
  status = g_strdup (gtk_label_get_text (label));
  g_test_message ("%s: %s", program, status);
  sp_window_show_view (window, "summary");
  gui_test_save_png (GTK_WIDGET (window), png);
  if (strstr (status, BROKEN_WARNING) != NULL)
    g_assert_nonnull (window_test_find_label (GTK_WIDGET (window), "miss their outer frames"));
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_remove_dir (dir);
  return status;
}

static void
test_broken_stacks_warned (void)
{
  g_autofree char *status = status_of_recording (g_getenv ("SP_WORK_CUT"), "broken-stacks.png");

  if (status == NULL)
    return;
  g_assert_nonnull (strstr (status, BROKEN_WARNING));
}

static void
test_whole_stacks_not_warned (void)
{
  g_autofree char *status = status_of_recording (g_getenv ("SP_WORK_THREADS"), "whole-stacks.png");

  if (status == NULL)
    return;
  g_assert_null (strstr (status, BROKEN_WARNING));
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/app/broken-stacks/warned", test_broken_stacks_warned);
  g_test_add_func ("/app/broken-stacks/whole-not-warned", test_whole_stacks_not_warned);
  return g_test_run ();
}
