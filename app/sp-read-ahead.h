/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-read-ahead.h: the recordings named on the command line, read from
 * the process's start, while GTK opens the display and the window is
 * built (a third of a second of one CPU before the window could ask). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Starts an analysis (data/sp-analysis.h) opening each spool named in
 * argv (the application's command line), before GTK starts. Returns the
 * analyses by absolute path (g_file_get_path), owning them; empty when
 * argv compares (--compare), asks for help, or names no regular file
 * that is a spool (a perf.data is converted first, by its window). */
GHashTable *sp_read_ahead_start (int argc,
                                 char **argv);

G_END_DECLS
