/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-window-debuginfod.c: the window fetches missing debug info and
 * sources in the background.
 *
 * A stripped program whose debug file and source only a real debuginfod
 * server on 127.0.0.1 has (tests/report/debuginfod-server.c), recorded and
 * opened with DEBUGINFOD_URLS set: the status line says what it fetches,
 * and then the call tree names the program's functions, and the Source
 * page shows the hot function's source, fetched too. Where the server has
 * no such source, the page says what it answered; a fetch that hangs is
 * cancelled from the status line. Skips where the debuginfod program is
 * not installed (or there is no display). */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "debuginfod-server.h"
#include "gui-test.h"
#include "sp-source-view.h"
#include "sp-window-testing.h"
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

/* The server, and a recording of its stripped program, made once. */
static SpTestDebuginfod *server;
static char *dir;
static char *spool;

static gboolean
have_recording (void)
{
  g_autofree char *reason = NULL;

  if (!sp_test_debuginfod_available (&reason))
    {
      g_test_skip (reason);
      return FALSE;
    }
  if (server == NULL)
    {
      server = sp_test_debuginfod_start ();
      dir = g_dir_make_tmp ("stackpulse-debuginfod-XXXXXX", NULL);
      spool = g_build_filename (dir, "hot.spool", NULL);
      if (!window_test_record (spool, "1000", server->program, NULL))
        g_clear_pointer (&spool, g_free);
    }
  return spool != NULL;
}

/* An empty cache of its own, so that no case sees another's fetches. */
static void
use_server_with_new_cache (void)
{
  static guint n;
  g_autofree char *cache = g_strdup_printf ("%s/cache-%u", dir, n++);

  sp_test_debuginfod_use (server, cache);
}

static void
test_fetch_in_background (void)
{
  g_autoptr (GFile) file = NULL;
  SpWindow *window;

  if (!have_recording ())
    return;
  file = g_file_new_for_path (spool);

  /* Without a server: addresses, and the status line's warning. */
  g_unsetenv ("DEBUGINFOD_URLS");
  window = open_window (file);
  g_assert_true (window_test_wait (symbol_warning, window, 10));
  g_assert_false (sp_window_search_function (window, "debuginfod_spin_inner"));
  g_assert_null (window_test_find_label (GTK_WIDGET (window), "Fetching debug info"));
  gtk_window_destroy (GTK_WINDOW (window));

  use_server_with_new_cache ();
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
}

/* ---- The Source page ------------------------------------------------------ */

static gboolean
source_has_text (gpointer data)
{
  SpSourceAnnotation *source = sp_source_view_get_source (sp_window_get_source_view (data));

  return source != NULL && source->text != NULL;
}

typedef struct {
  SpWindow   *window;
  const char *text;
} Wanted;

/* The missing file's message holds text. */
static gboolean
message_says (gpointer data)
{
  Wanted *wanted = data;
  GtkLabel *label = window_test_find_label (GTK_WIDGET (sp_window_get_source_view (wanted->window)),
                                            "Looked for it at:");

  return label != NULL && strstr (gtk_label_get_text (label), wanted->text) != NULL;
}

/* The call tree selects debuginfod_spin_inner (names come from the debug
 * file, found or fetched), and "Show Source" shows it. */
static SpWindow *
show_hot_source (void)
{
  g_autoptr (GFile) file = g_file_new_for_path (spool);
  SpWindow *window = open_window (file);

  g_assert_true (window_test_wait (names_function, window, 30));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-source", NULL));
  return window;
}

static guint
line_with (const SpSourceAnnotation *source,
           const char *text)
{
  for (guint i = 0; source->text[i] != NULL; i++)
    if (strstr (source->text[i], text) != NULL)
      return i + 1;
  return 0;
}

/* The source only on the server: the page shows it once fetched, from
 * debuginfod's cache, at its hot loop; the status line said what came. */
static void
test_source_fetched (void)
{
  SpWindow *window;
  SpSourceAnnotation *source;
  const char *cache;
  guint hottest;

  if (!have_recording ())
    return;
  use_server_with_new_cache ();
  cache = g_getenv ("DEBUGINFOD_CACHE_PATH");
  sp_test_debuginfod_show_source (server, FALSE);
  window = show_hot_source ();
  g_assert_true (window_test_wait (source_has_text, window, 30));
  sp_test_debuginfod_show_source (server, TRUE);

  source = sp_source_view_get_source (sp_window_get_source_view (window));
  g_assert_cmpstr (source->name, ==, "debuginfod_spin_inner");
  g_assert_cmpstr (source->wanted, ==, server->source_path);
  g_assert_true (g_str_has_prefix (source->path, cache));
  g_assert_null (source->fetch_build_id);
  g_assert_cmpuint (line_with (source, "double s = 0;"), >, 0);
  hottest = sp_source_annotation_get_hottest_line (source);
  g_assert_true (hottest == line_with (source, "s += (double) i * 0.5 + sink;")
                 || hottest == line_with (source, "for (long i = 0; i < n; i++)"));
  g_assert_cmpuint (sp_source_view_get_selected_line (sp_window_get_source_view (window)), ==, hottest);
  g_assert_nonnull (window_test_find_label (GTK_WIDGET (window), "Fetching source file hot.c of hot"));
  gui_test_save_png (GTK_WIDGET (window), "debuginfod-source.png");
  gtk_window_destroy (GTK_WINDOW (window));
  g_unsetenv ("DEBUGINFOD_URLS");
}

/* The debug file beside the program (names without debuginfod), so that
 * only the source is asked for; removed by the returned path's owner. */
static char *
debug_file_beside_program (void)
{
  g_autofree char *served = g_build_filename (server->served, "hot.debug", NULL);
  char *beside = g_strconcat (server->program, ".debug", NULL);
  g_autoptr (GFile) from = g_file_new_for_path (served);
  g_autoptr (GFile) to = g_file_new_for_path (beside);
  g_autoptr (GError) error = NULL;

  g_file_copy (from, to, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return beside;
}

/* The server lost the file it serves: the page says where it looked and
 * what the server answered; asked once. */
static void
test_source_not_on_server (void)
{
  g_autofree char *beside = NULL;
  g_autofree char *moved = NULL;
  Wanted wanted;
  SpWindow *window;

  if (!have_recording ())
    return;
  beside = debug_file_beside_program ();
  moved = g_strconcat (server->source_file, ".moved", NULL);
  g_assert_no_errno (g_rename (server->source_file, moved));
  use_server_with_new_cache ();
  sp_test_debuginfod_show_source (server, FALSE);
  window = show_hot_source ();
  wanted = (Wanted) { window, "asked debuginfod: " };
  g_assert_true (window_test_wait (message_says, &wanted, 30));
  g_assert_no_errno (g_rename (moved, server->source_file));
  sp_test_debuginfod_show_source (server, TRUE);
  g_assert_no_errno (g_unlink (beside));

  wanted.text = server->source_path;
  g_assert_true (message_says (&wanted));
  wanted.text = "have no source file for build-id";
  g_assert_true (message_says (&wanted));
  wanted.text = server->url;
  g_assert_true (message_says (&wanted));
  g_assert_nonnull (window_test_find_button (GTK_WIDGET (window), "Choose Folder…"));
  g_assert_false (source_has_text (window));
  gui_test_save_png (GTK_WIDGET (window), "debuginfod-source-missing.png");
  gtk_window_destroy (GTK_WINDOW (window));
  g_unsetenv ("DEBUGINFOD_URLS");
}

static gboolean
fetching_shown (gpointer data)
{
  GtkLabel *label = window_test_find_label (GTK_WIDGET (data), "Fetching source file hot.c of hot");

  return label != NULL && window_test_is_shown (GTK_WIDGET (label));
}

/* A server that takes the request and never answers: the page says the
 * file is being fetched, the status line offers Cancel, which stops it;
 * the page then says so. */
static void
test_source_fetch_cancelled (void)
{
  g_autoptr (GSocket) silent = NULL;
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) any_port = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *beside = NULL;
  g_autofree char *url = NULL;
  g_autofree char *cache = NULL;
  GtkButton *cancel;
  Wanted wanted;
  SpWindow *window;

  if (!have_recording ())
    return;
  silent = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_assert_true (g_socket_bind (silent, any_port, TRUE, &error));
  g_assert_true (g_socket_listen (silent, &error));
  bound = g_socket_get_local_address (silent, &error);
  g_assert_no_error (error);
  url = g_strdup_printf ("http://127.0.0.1:%u", g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  beside = debug_file_beside_program ();
  cache = g_strdup_printf ("%s/cache-silent", dir);
  g_setenv ("DEBUGINFOD_URLS", url, TRUE);
  g_setenv ("DEBUGINFOD_CACHE_PATH", cache, TRUE);
  sp_test_debuginfod_show_source (server, FALSE);
  window = show_hot_source ();
  g_assert_true (window_test_wait (fetching_shown, window, 30));
  wanted = (Wanted) { window, "is being fetched from debuginfod" };
  g_assert_true (message_says (&wanted));
  wanted.text = "asking debuginfod (";
  g_assert_true (message_says (&wanted));
  gui_test_save_png (GTK_WIDGET (window), "debuginfod-source-fetching.png");
  cancel = window_test_find_button (GTK_WIDGET (window), "Cancel");
  g_assert_nonnull (cancel);
  g_signal_emit_by_name (cancel, "clicked");
  wanted.text = "was cancelled";
  g_assert_true (window_test_wait (message_says, &wanted, 10));
  g_assert_false (fetching_shown (window));
  wanted.text = "is being fetched";
  g_assert_false (message_says (&wanted));
  sp_test_debuginfod_show_source (server, TRUE);
  g_assert_no_errno (g_unlink (beside));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unsetenv ("DEBUGINFOD_URLS");
}

int
main (int argc,
      char **argv)
{
  int status;

  if (!gui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/app/window-debuginfod/fetch-in-background", test_fetch_in_background);
  g_test_add_func ("/app/window-debuginfod/source-fetched", test_source_fetched);
  g_test_add_func ("/app/window-debuginfod/source-not-on-server", test_source_not_on_server);
  g_test_add_func ("/app/window-debuginfod/source-fetch-cancelled", test_source_fetch_cancelled);
  status = g_test_run ();
  sp_test_debuginfod_stop (server);
  if (dir != NULL)
    window_test_remove_dir (dir);
  g_free (dir);
  g_free (spool);
  return status;
}
