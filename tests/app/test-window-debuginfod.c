/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-window-debuginfod.c: the window fetches missing debug info in the
 * background.
 *
 * A stripped program whose debug file only a real debuginfod server on
 * 127.0.0.1 has (tests/report/debuginfod-server.c), recorded and opened
 * with DEBUGINFOD_URLS set: the status line says what it fetches, and then
 * the call tree names the program's functions. Skips where the debuginfod
 * program is not installed (or there is no display). */
#include <gtk/gtk.h>

#include "debuginfod-server.h"
#include "gui-test.h"
#include "sp-window.h"
#include "window-test.h"

static gboolean
names_function (gpointer data)
{
  SpWindow *window = data;

  return !sp_window_is_busy (window) && sp_window_search_function (window, "debuginfod_spin_inner");
}

static gboolean
no_symbol_warning (gpointer data)
{
  GtkLabel *warning = window_test_find_label (GTK_WIDGET (data), "hot has no symbols");

  return warning == NULL || !window_test_is_shown (GTK_WIDGET (warning));
}

static gboolean
symbol_warning (gpointer data)
{
  return !no_symbol_warning (data);
}

static SpWindow *
open_window (GFile *file)
{
  SpWindow *window = sp_window_new (NULL);

  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, file);
  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  return window;
}

static void
test_fetch_in_background (void)
{
  g_autofree char *reason = NULL;
  SpTestDebuginfod *server;
  g_autofree char *dir = NULL;
  g_autofree char *spool = NULL;
  g_autofree char *cache = NULL;
  g_autoptr (GFile) file = NULL;
  SpWindow *window;

  if (!sp_test_debuginfod_available (&reason))
    {
      g_test_skip (reason);
      return;
    }
  server = sp_test_debuginfod_start ();
  dir = g_dir_make_tmp ("stackpulse-debuginfod-XXXXXX", NULL);
  spool = g_build_filename (dir, "hot.spool", NULL);
  if (!window_test_record (spool, "1000", server->program, NULL))
    {
      sp_test_debuginfod_stop (server);
      return;
    }
  file = g_file_new_for_path (spool);

  /* Without a server: addresses, and the status line's warning. */
  g_unsetenv ("DEBUGINFOD_URLS");
  window = open_window (file);
  g_assert_true (window_test_wait (symbol_warning, window, 10));
  g_assert_false (sp_window_search_function (window, "debuginfod_spin_inner"));
  g_assert_null (window_test_find_label (GTK_WIDGET (window), "Fetching debug info"));
  gtk_window_destroy (GTK_WINDOW (window));

  cache = g_build_filename (dir, "cache", NULL);
  sp_test_debuginfod_use (server, cache);
  window = open_window (file);
  g_assert_true (window_test_wait (names_function, window, 30));
  /* Its "no symbols" warning went with the addresses. */
  g_assert_true (window_test_wait (no_symbol_warning, window, 10));
  /* Shown while it fetched (hidden again once done). */
  g_assert_nonnull (window_test_find_label (GTK_WIDGET (window), "Fetching debug info for hot"));
  g_assert_nonnull (window_test_find_button (GTK_WIDGET (window), "Cancel"));
  gui_test_save_png (GTK_WIDGET (window), "debuginfod-fetched.png");
  gtk_window_destroy (GTK_WINDOW (window));
  g_unsetenv ("DEBUGINFOD_URLS");
  sp_test_debuginfod_stop (server);
  window_test_remove_dir (dir);
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/app/window-debuginfod/fetch-in-background", test_fetch_in_background);
  return g_test_run ();
}
