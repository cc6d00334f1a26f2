/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-open-bad-input.c: the window given what is no spool, or a spool
 * whose side file and module are FIFOs.
 *
 * A perf.data of another byte order or of perf's old format, or a text
 * file, lands on the error page, which says what the file is, instead of
 * empty views (a perf.data of this machine converts:
 * test-window-perf-data.c). A spool that names
 * FIFOs opens (it would block the loading thread forever), and its Summary
 * page says the side file could not be read. And `stackpulse --help`
 * needs no display. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>
#include <sys/stat.h>

#include "gui-test.h"
#include "sp-spool-writer.h"
#include "sp-window-testing.h"
#include "window-test.h"

static gboolean
shows_page (SpWindow *window,
            const char *page)
{
  return g_strcmp0 (sp_window_get_page (window), page) == 0;
}

static gboolean
shows_error (gpointer window)
{
  return shows_page (window, "error");
}

static gboolean
shows_profile (gpointer window)
{
  return shows_page (window, "profile");
}

/* The error page shows text (and so no views). */
static void
assert_error_page_says (const char *path,
                        const char *text)
{
  SpWindow *window = window_test_open_path (path);
  GtkLabel *label;

  g_assert_true (window_test_wait (shows_error, window, 20));
  label = window_test_find_label (GTK_WIDGET (window), text);
  g_assert_nonnull (label);
  g_assert_true (window_test_is_shown (GTK_WIDGET (label)));
  g_assert_nonnull (strstr (gtk_label_get_text (label), path));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* perf.data files the converter cannot take (test-window-perf-data.c
 * converts the ones it can): named for what they are. */
static void
test_perf_data (void)
{
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-app-XXXXXX", NULL);
  g_autofree char *swapped = g_build_filename (dir, "swapped.data", NULL);
  g_autofree char *old = g_build_filename (dir, "old.data", NULL);

  g_assert_true (g_file_set_contents (swapped, "2ELIFREP\0\0\0\0\0\0\0\x68", 16, NULL));
  assert_error_page_says (swapped, "a perf.data file from a machine of the other byte order");
  g_assert_true (g_file_set_contents (old, "PERFFILE\x68\0\0\0\0\0\0\0", 16, NULL));
  assert_error_page_says (old, "an old-format perf.data file");
  window_test_remove_dir (dir);
}

static void
test_text (void)
{
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-app-XXXXXX", NULL);
  g_autofree char *text = g_build_filename (dir, "notes.txt", NULL);

  g_assert_true (g_file_set_contents (text, "a note, not a recording\n", -1, NULL));
  assert_error_page_says (text, "is a text file");
  g_unlink (text);
  g_rmdir (dir);
}

/* An empty file (no side file says a recorder is writing it) is no
 * recording, as the report says; not one damaged at its first byte. */
static void
test_empty (void)
{
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-app-XXXXXX", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.spool", NULL);

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  assert_error_page_says (empty, "is empty, not a stackpulse recording");
  g_unlink (empty);
  g_rmdir (dir);
}

/* 10 samples in a module that is a FIFO. */
static void
write_spool (const char *path,
             const char *module_path)
{
  SpModule module = { 0x400000, 0x500000, 0, 0, module_path, strlen (module_path), 100, false };
  SpFrame frame = { 0x1100, 0x401100, 0, SP_FRAME_USER };
  SpSpoolError err;
  SpSpoolWriter *writer = sp_spool_writer_create (path, 1700000000000000, 1000, &err);

  g_assert_nonnull (writer);
  g_assert_true (sp_spool_writer_write_module (writer, 0, &module, &err));
  for (guint s = 0; s < 10; s++)
    g_assert_true (sp_spool_writer_write_sample (writer, 1000000000 + s * 1000000, 100, 100, &frame, 1, NULL, &err));
  g_assert_true (sp_spool_writer_close (writer, &err));
}

static void
test_fifos (void)
{
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-app-XXXXXX", NULL);
  g_autofree char *spool = g_build_filename (dir, "fifos.spool", NULL);
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);
  g_autofree char *module = g_build_filename (dir, "libfifo.so", NULL);
  SpWindow *window;
  GtkLabel *label;

  g_assert_cmpint (mkfifo (meta, 0600), ==, 0);
  g_assert_cmpint (mkfifo (module, 0600), ==, 0);
  write_spool (spool, module);
  window = window_test_open_path (spool);
  g_assert_true (window_test_wait (shows_profile, window, 20));
  label = window_test_find_label (GTK_WIDGET (window), "the side file is unreadable or damaged");
  g_assert_nonnull (label);
  g_assert_nonnull (strstr (gtk_label_get_text (label), "is a FIFO (named pipe), not a regular file"));
  /* The Recording row agrees: there is a side file, unread. */
  g_assert_nonnull (window_test_find_label (GTK_WIDGET (window), "unknown (the side file could not be read)"));
  g_assert_null (window_test_find_label (GTK_WIDGET (window), "has no side file"));
  /* The status line says so too, where it would say what was lost. */
  g_assert_nonnull (window_test_find_label (GTK_WIDGET (window), "⚠ the side file is unreadable (see Summary)"));
  g_assert_true (sp_window_search_function (window, "libfifo.so+0x1100"));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (spool);
  g_unlink (meta);
  g_unlink (module);
  g_rmdir (dir);
}

/* A complete recording's spool shorter than its side file's spool_bytes
 * (cut on a record boundary): the window says so, and shows its samples. */
static void
test_short_spool (void)
{
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-app-XXXXXX", NULL);
  g_autofree char *spool = g_build_filename (dir, "short.spool", NULL);
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);
  g_autofree char *meta_text = NULL;
  g_autofree char *expected = NULL;
  SpWindow *window;
  GtkLabel *label;
  GStatBuf st;

  write_spool (spool, "/nonexistent/libshort.so");
  g_assert_cmpint (g_stat (spool, &st), ==, 0);
  meta_text = g_strdup_printf ("[recording]\ncomplete=true\nspool_bytes=%" G_GUINT64_FORMAT "\n",
                               (guint64) st.st_size + 1000);
  g_assert_true (g_file_set_contents (meta, meta_text, -1, NULL));
  window = window_test_open_path (spool);
  g_assert_true (window_test_wait (shows_profile, window, 20));
  expected = g_strdup_printf ("the spool is shorter than its recording (%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                              " bytes)", (guint64) st.st_size, (guint64) st.st_size + 1000);
  label = window_test_find_label (GTK_WIDGET (window), expected);
  g_assert_nonnull (label);
  g_assert_true (window_test_is_shown (GTK_WIDGET (label)));
  g_assert_true (sp_window_search_function (window, "libshort.so+0x1100"));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (spool);
  g_unlink (meta);
  g_rmdir (dir);
}

/* stackpulse --help needs no display; anything else says there is none. */
static void
test_help_without_display (void)
{
  g_auto (GStrv) env = g_get_environ ();
  const char *help[] = { g_getenv ("SP_STACKPULSE"), "--help", NULL };
  const char *open[] = { g_getenv ("SP_STACKPULSE"), "recording.spool", NULL };
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = -1;

  g_assert_nonnull (help[0]);
  env = g_environ_unsetenv (env, "DISPLAY");
  env = g_environ_unsetenv (env, "WAYLAND_DISPLAY");
  g_assert_true (g_spawn_sync (NULL, (char **) help, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (out, "Usage:"));
  g_assert_nonnull (strstr (out, "[FILE.spool…]"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_true (g_spawn_sync (NULL, (char **) open, env, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, NULL));
  g_assert_false (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (err, "no display found"));
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/app/open-bad-input/perf-data", test_perf_data);
  g_test_add_func ("/app/open-bad-input/text", test_text);
  g_test_add_func ("/app/open-bad-input/empty", test_empty);
  g_test_add_func ("/app/open-bad-input/fifos", test_fifos);
  g_test_add_func ("/app/open-bad-input/short-spool", test_short_spool);
  g_test_add_func ("/app/open-bad-input/help-without-display", test_help_without_display);
  return g_test_run ();
}
