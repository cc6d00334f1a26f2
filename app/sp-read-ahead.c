/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-read-ahead.c: see sp-read-ahead.h. */
#include "sp-read-ahead.h"

#include <gio/gio.h>

#include "sp-analysis.h"
#include "sp-file-kind.h"

/* Options that make the files something else than recordings each shown
 * in a window: a comparison, or GApplication's help. */
static gboolean
shows_each_file (int argc,
                 char **argv)
{
  for (int i = 1; i < argc && !g_str_equal (argv[i], "--"); i++)
    if (g_str_has_prefix (argv[i], "--compare") || g_str_equal (argv[i], "-h") || g_str_equal (argv[i], "-?")
        || g_str_has_prefix (argv[i], "--help"))
      return FALSE;
  return TRUE;
}

static void
start_one (GHashTable *reading,
           const char *arg)
{
  g_autoptr (GFile) file = g_file_new_for_commandline_arg (arg);
  char *path = g_file_get_path (file);
  SpAnalysis *analysis;

  /* Not a FIFO or a device: the window says what those are, and reading
   * one now could wait. */
  if (path == NULL || g_hash_table_contains (reading, path) || !g_file_test (path, G_FILE_TEST_IS_REGULAR)
      || sp_file_kind_is_perf_data (path))
    {
      g_free (path);
      return;
    }
  analysis = sp_analysis_new ();
  sp_analysis_open_now (analysis, path);
  g_hash_table_insert (reading, path, analysis);
}

GHashTable *
sp_read_ahead_start (int argc,
                     char **argv)
{
  GHashTable *reading = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  gboolean files_only = FALSE;

  if (!shows_each_file (argc, argv))
    return reading;
  for (int i = 1; i < argc; i++)
    {
      if (!files_only && g_str_equal (argv[i], "--"))
        files_only = TRUE;
      else if (files_only || argv[i][0] != '-')
        start_one (reading, argv[i]);
    }
  return reading;
}
