/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-application.h: the stackpulse GtkApplication. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SP_APPLICATION_ID "io.github.stackpulse.Stackpulse"
#define SP_TYPE_APPLICATION (sp_application_get_type ())

G_DECLARE_FINAL_TYPE (SpApplication, sp_application, SP, APPLICATION, GtkApplication)

SpApplication *sp_application_new (void);

G_END_DECLS
