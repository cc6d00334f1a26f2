/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stackpulse: the desktop application. `stackpulse FILE.spool` opens a file. */
#include <gtk/gtk.h>
#include <stdio.h>

#include "sp-application.h"

int
main (int argc,
      char **argv)
{
  g_autoptr (SpApplication) app = NULL;

  /* GTK would abort with a terse warning; say what to do instead. */
  if (!gtk_init_check ())
    {
      fprintf (stderr,
               "stackpulse: no display found (DISPLAY or WAYLAND_DISPLAY is unset or unreachable).\n"
               "stackpulse is a desktop application. On a terminal, record with\n"
               "  stackpulse-record -o out.spool -- COMMAND\n"
               "and read a recording with\n"
               "  stackpulse-report out.spool      (summary; see stackpulse-report --help)\n");
      return 1;
    }
  app = sp_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
