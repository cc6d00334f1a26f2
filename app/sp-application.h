/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-application.h: the stackpulse GtkApplication. */
#pragma once

#include <gtk/gtk.h>

#include "sp-analysis.h"

G_BEGIN_DECLS

#define SP_APPLICATION_ID "io.github.stackpulse.Stackpulse"
#define SP_TYPE_APPLICATION (sp_application_get_type ())

G_DECLARE_FINAL_TYPE (SpApplication, sp_application, SP, APPLICATION, GtkApplication)

SpApplication *sp_application_new (void);

/* Before g_application_run, and before GTK starts (gtk_init): the
 * recordings argv names start being read now, each by the analysis its
 * window will show (app/sp-read-ahead.h). */
void sp_application_read_ahead (SpApplication *self,
                                int argc,
                                char **argv);

/* The analysis reading path (absolute) ahead until a window takes it, or
 * NULL: for tests. */
SpAnalysis *sp_application_get_read_ahead (SpApplication *self,
                                           const char *path);

G_END_DECLS
