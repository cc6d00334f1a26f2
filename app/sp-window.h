/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window.h: a window showing one profile (or the start page). */
#pragma once

#include <gtk/gtk.h>

#include "sp-application.h"
#include "sp-call-tree-view.h"
#include "sp-callers-view.h"
#include "sp-filter.h"
#include "sp-recording-session.h"

G_BEGIN_DECLS

#define SP_TYPE_WINDOW (sp_window_get_type ())

G_DECLARE_FINAL_TYPE (SpWindow, sp_window, SP, WINDOW, GtkApplicationWindow)

SpWindow *sp_window_new (SpApplication *app);

/* Loads file off the main thread and shows it when ready, in place of
 * what the window showed. */
void sp_window_open_file (SpWindow *self,
                          GFile *file);

/* Opens file as the user asked for it in self (Open, a drop, a recent
 * recording): there when self shows the start page (or a file that could
 * not be read); otherwise in a new window, so that a recording goes on
 * and a profile stays (one window per profile, as for Record). Returns
 * the window that shows file. */
SpWindow *sp_window_open (SpWindow *self,
                          GFile *file);

/* The page shown: "start", "loading", "profile" or "error". */
const char *sp_window_get_page (SpWindow *self);

/* Runs stackpulse-record on options' command (or attached to its pid) and
 * shows the recording live as it grows; the window must be empty (start
 * page). When the kernel refuses, the error page explains, and offers to
 * run the same recording through pkexec where it is installed. */
gboolean sp_window_record (SpWindow *self,
                           const SpRecordOptions *options,
                           GError **error);

gboolean sp_window_is_recording (SpWindow *self);

/* Selects [from_s, to_s) seconds after the first sample on the timeline,
 * as far as the recording goes: every view then shows only that range. */
void sp_window_select_time (SpWindow *self,
                            double from_s,
                            double to_s);

/* Adds a transform around the function selected in the call tree (or the
 * bottom-up tree, when shown): every view is re-aggregated. FALSE when
 * nothing is selected. Undo/Clear take transforms back. */
gboolean sp_window_apply_transform (SpWindow *self,
                                    SpTransformKind kind);

/* The call tree's rows as shown (for tests). */
GListModel *sp_window_get_call_tree_model (SpWindow *self);

/* The views themselves, for tests to act as a user would. */
SpCallTreeView *sp_window_get_call_tree_view (SpWindow *self);
SpCallersView *sp_window_get_callers_view (SpWindow *self);

/* Finds the next function matching text in the call tree (as Ctrl+F and
 * Enter do) and highlights matches in the flame graph; FALSE if none. */
gboolean sp_window_search_function (SpWindow *self,
                                    const char *text);

/* The view shown on the profile page: "call-tree", "bottom-up",
 * "callers", "flame-graph", "threads" or "summary". Showing "callers"
 * right after a tree view shows the function selected there. */
void sp_window_show_view (SpWindow *self,
                          const char *view);

G_END_DECLS
