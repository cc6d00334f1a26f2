/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-window-export.c: Export… in the window.
 *
 * sp-work-threads is recorded with the real recorder and opened; the
 * window's export (through the hook that stands for the file chooser's
 * answer) is written by the analysis's worker: folded stacks identical to
 * `stackpulse-report collapsed` on the same file, pprof (gzip) and
 * speedscope files of their kind; a time range selected on the timeline
 * exports fewer samples; and a folder as target fails with the reason in
 * the status line. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test.h"
#include "sp-window-testing.h"
#include "window-test.h"

static char *test_dir;

static SpWindow *
open_window (const char *path)
{
  SpWindow *window = window_test_open_path (path);

  g_assert_true (window_test_wait_for_page (window, "profile", 30));
  return window;
}

static gboolean
export_ended (gpointer data)
{
  const char *status = sp_window_get_export_status (data);

  return g_str_has_prefix (status, "Exported ") || g_str_has_prefix (status, "Export failed");
}

/* Exports and waits for the status line to say how it went. */
static const char *
export (SpWindow *window,
        const char *format,
        const char *path)
{
  g_assert_true (sp_window_export (window, format, path));
  g_assert_true (g_str_has_prefix (sp_window_get_export_status (window), "Exporting "));
  g_assert_true (window_test_wait (export_ended, window, 30));
  return sp_window_get_export_status (window);
}

static char *
report_collapsed (const char *spool)
{
  const char *argv[] = { g_getenv ("SP_REPORT"), "collapsed", spool, NULL };
  g_autoptr (GError) error = NULL;
  char *out = NULL;
  int status;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL,
                               &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return out;
}

/* The samples of folded stacks: the numbers after each line's last space. */
static guint64
folded_total (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  guint64 total = 0;

  for (guint i = 0; lines[i] != NULL; i++)
    if (strrchr (lines[i], ' ') != NULL)
      total += g_ascii_strtoull (strrchr (lines[i], ' ') + 1, NULL, 10);
  return total;
}

static char *
read_file (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

static void
test_export (void)
{
  g_autofree char *spool = g_build_filename (test_dir, "threads.spool", NULL);
  g_autofree char *folded = g_build_filename (test_dir, "all.folded", NULL);
  g_autofree char *pprof = g_build_filename (test_dir, "all.pb.gz", NULL);
  g_autofree char *json = g_build_filename (test_dir, "all.json", NULL);
  g_autofree char *part = g_build_filename (test_dir, "part.folded", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *got = NULL;
  g_autofree char *gz = NULL;
  g_autofree char *speedscope = NULL;
  g_autofree char *part_text = NULL;
  g_autofree char *said = NULL;
  SpWindow *window;
  gsize gz_len = 0;

  if (!window_test_record (spool, "1000", g_getenv ("SP_WORK_THREADS"), "1", NULL))
    return;
  window = open_window (spool);
  g_assert_cmpstr (export (window, "collapsed", folded), ==, "Exported all.folded");
  expected = report_collapsed (spool);
  got = read_file (folded);
  g_assert_cmpstr (got, ==, expected);

  g_assert_cmpstr (export (window, "pprof", pprof), ==, "Exported all.pb.gz");
  g_assert_true (g_file_get_contents (pprof, &gz, &gz_len, NULL));
  g_assert_cmpuint (gz_len, >, 20);
  g_assert_cmpint ((guchar) gz[0], ==, 0x1f);  /* gzip's magic */
  g_assert_cmpint ((guchar) gz[1], ==, 0x8b);

  g_assert_cmpstr (export (window, "speedscope", json), ==, "Exported all.json");
  speedscope = read_file (json);
  g_assert_nonnull (strstr (speedscope, "\"$schema\":\"https://www.speedscope.app/file-format-schema.json\""));
  g_assert_nonnull (strstr (speedscope, "sp-alpha (tid "));

  /* What the views show: the first half of the recording. */
  sp_window_select_time (window, 0.0, 0.5);
  g_assert_cmpstr (export (window, "collapsed", part), ==, "Exported part.folded");
  part_text = read_file (part);
  g_test_message ("all: %" G_GUINT64_FORMAT " samples, the first half: %" G_GUINT64_FORMAT, folded_total (got),
                  folded_total (part_text));
  g_assert_cmpuint (folded_total (part_text), >, 0);
  g_assert_cmpuint (folded_total (part_text), <, folded_total (got));

  /* A folder is not replaced; the status line says so. */
  said = g_strdup_printf ("Export failed: cannot write %s: it exists and is a folder, not a regular file", test_dir);
  g_assert_cmpstr (export (window, "pprof", test_dir), ==, said);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc,
      char **argv)
{
  int status;

  if (!gui_test_init (&argc, &argv))
    return 0;
  test_dir = g_dir_make_tmp ("sp-window-export-XXXXXX", NULL);
  g_test_add_func ("/window-export/formats-and-range", test_export);
  status = g_test_run ();
  window_test_remove_dir (test_dir);
  return status;
}
