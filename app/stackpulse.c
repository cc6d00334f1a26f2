/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stackpulse: the desktop application. `stackpulse FILE.spool` (or
 * `stackpulse perf.data`) opens a file. */
#include <gtk/gtk.h>
#include <stdio.h>

#include "sp-application.h"

/* Options GApplication answers on the command line, before it starts
 * GTK: they need no display. */
static gboolean
wants_help_only (int argc,
                 char **argv)
{
  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--"))
        break;
      if (g_str_equal (argv[i], "-h") || g_str_equal (argv[i], "-?") || g_str_has_prefix (argv[i], "--help"))
        return TRUE;
    }
  return FALSE;
}

/* --compare B needs exactly one recording to compare it with; FALSE
 * (and a message) otherwise. Files are what is not an option or its
 * value. */
static gboolean
compare_arguments_ok (int argc,
                      char **argv)
{
  gboolean compare = FALSE;
  int n_files = 0;

  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--compare"))
        {
          compare = TRUE;
          i++;
        }
      else if (g_str_has_prefix (argv[i], "--compare="))
        compare = TRUE;
      else if (argv[i][0] != '-')
        n_files++;
    }
  if (compare && n_files != 1)
    {
      fprintf (stderr, "stackpulse: --compare compares one recording with another:\n"
                       "  stackpulse A.spool --compare B.spool   (A before, B after)\n");
      return FALSE;
    }
  return TRUE;
}

int
main (int argc,
      char **argv)
{
  g_autoptr (SpApplication) app = NULL;

  if (!compare_arguments_ok (argc, argv))
    return 2;

  app = sp_application_new ();
  /* The recordings named start being read while GTK starts. */
  if (!wants_help_only (argc, argv))
    sp_application_read_ahead (app, argc, argv);
  /* GTK would abort with a terse warning; say what to do instead. */
  if (!wants_help_only (argc, argv) && !gtk_init_check ())
    {
      fprintf (stderr,
               "stackpulse: no display found (DISPLAY or WAYLAND_DISPLAY is unset or unreachable).\n"
               "stackpulse is a desktop application. On a terminal, record with\n"
               "  stackpulse-record -o out.spool -- COMMAND\n"
               "and read a recording with\n"
               "  stackpulse-report out.spool      (summary; see stackpulse-report --help)\n");
      return 1;
    }
  g_application_set_option_context_parameter_string (G_APPLICATION (app), "[FILE.spool…] [--compare B.spool]");
  g_application_set_option_context_summary (G_APPLICATION (app),
                                            "Opens each recording (a .spool, or a perf.data: converted first) in a "
                                            "window of its own; without a file, a window to record a program.\n"
                                            "On a terminal: stackpulse-record records, "
                                            "stackpulse-report reads a recording.");
  return g_application_run (G_APPLICATION (app), argc, argv);
}
