/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window.h: a window showing one profile (or the start page). */
#pragma once

#include <gtk/gtk.h>

#include "sp-analysis.h"
#include "sp-application.h"
#include "sp-recording-session.h"

G_BEGIN_DECLS

#define SP_TYPE_WINDOW (sp_window_get_type ())

G_DECLARE_FINAL_TYPE (SpWindow, sp_window, SP, WINDOW, GtkApplicationWindow)

SpWindow *sp_window_new (SpApplication *app);

/* A window for an analysis already opening a file (sp_analysis_open_now,
 * before GTK started): sp_window_open_file on that file shows it. */
SpWindow *sp_window_new_reading (SpApplication *app,
                                 SpAnalysis *analysis);

/* Loads file off the main thread and shows it when ready, in place of
 * what the window showed. */
void sp_window_open_file (SpWindow *self,
                          GFile *file);

/* Opens file as the user asked for it in self (Open, a drop, a recent
 * recording): there when self shows the start page (or a file that could
 * not be read, or a recording that could not start); otherwise in a new
 * window, so that a recording goes on and a profile stays (one window per
 * profile, as for Record). Returns the window that shows file. */
SpWindow *sp_window_open (SpWindow *self,
                          GFile *file);

/* Runs stackpulse-record on options' command (or attached to its pid) and
 * shows the recording live as it grows; the window must be empty (start
 * page). When the kernel refuses, the error page explains, and offers to
 * run the same recording through pkexec where it is installed. */
gboolean sp_window_record (SpWindow *self,
                           const SpRecordOptions *options,
                           GError **error);

gboolean sp_window_is_recording (SpWindow *self);

G_END_DECLS
