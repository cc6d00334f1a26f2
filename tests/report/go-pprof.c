/* SPDX-License-Identifier: GPL-3.0-or-later */
/* go-pprof.c: go tool pprof, run and read. */
#include "go-pprof.h"

#include <stdarg.h>
#include <string.h>

#include "record-run.h"

static char *go_path;
static char *go_home;

gboolean
sp_test_ci_is_set (void)
{
  const char *ci = g_getenv ("CI");

  return ci != NULL && *ci != '\0' && !g_str_equal (ci, "false") && !g_str_equal (ci, "0");
}

void
sp_test_go_set_up (void)
{
  static const char *const dirs[] = { "GOPATH", "GOCACHE", "PPROF_TMPDIR" };

  go_path = g_find_program_in_path ("go");
  if (go_path == NULL)
    return;
  go_home = sp_test_make_dir ();
  g_setenv ("HOME", go_home, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *dir = g_build_filename (go_home, dirs[i], NULL);

      g_mkdir_with_parents (dir, 0700);
      g_setenv (dirs[i], dir, TRUE);
    }
  /* Offline: no module proxy, no toolchain download (go >= 1.21). */
  g_setenv ("GOFLAGS", "-mod=mod", TRUE);
  g_setenv ("GOPROXY", "off", TRUE);
  g_setenv ("GOTOOLCHAIN", "local", TRUE);
  g_setenv ("GOTELEMETRY", "off", TRUE);
}

void
sp_test_go_tear_down (void)
{
  if (go_home != NULL)
    sp_test_remove_dir (go_home);
  g_clear_pointer (&go_home, g_free);
  g_clear_pointer (&go_path, g_free);
}

gboolean
sp_test_case_needs_go (void)
{
  if (go_path != NULL)
    return TRUE;
  if (sp_test_ci_is_set ())
    g_error ("go is not installed, but CI is set: the pprof export must be read by go tool pprof in CI "
             "(apt-get install golang-go)");
  g_test_skip ("go is not installed: the pprof export is not checked with go tool pprof "
               "(apt-get install golang-go)");
  return FALSE;
}

char *
sp_test_pprof (const char *dir,
               const char *first,
               ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (SpChildResult) result = NULL;
  va_list ap;

  g_ptr_array_add (argv, go_path);
  g_ptr_array_add (argv, (char *) "tool");
  g_ptr_array_add (argv, (char *) "pprof");
  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (argv, (char *) arg);
  va_end (ap);
  g_ptr_array_add (argv, NULL);
  result = sp_test_run (dir, "pprof", (const char *const *) argv->pdata);
  if (result->exit_code != 0)
    g_error ("go tool pprof: exit status %d, stderr:\n%s", result->exit_code, result->err);
  return g_steal_pointer (&result->out);
}

static void
pprof_row_free (gpointer data)
{
  SpPprofRow *row = data;

  g_free (row->name);
  g_free (row);
}

GPtrArray *
sp_test_parse_pprof_top (const char *text)
{
  g_autoptr (GRegex) line = g_regex_new ("^\\s*\\S+\\s+([0-9.]+)%\\s+[0-9.]+%\\s+\\S+\\s+[0-9.]+%\\s+(.+?)\\s*$",
                                         G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func (pprof_row_free);

  for (g_regex_match (line, text, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree char *flat = g_match_info_fetch (match, 1);
      char *name = g_match_info_fetch (match, 2);
      SpPprofRow *row = g_new0 (SpPprofRow, 1);

      if (g_str_has_suffix (name, " (inline)"))
        name[strlen (name) - strlen (" (inline)")] = '\0';
      row->flat_pct = g_ascii_strtod (flat, NULL);
      row->name = name;
      g_ptr_array_add (rows, row);
    }
  return rows;
}
