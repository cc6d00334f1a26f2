/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-testing.h: the window as tests and benchmarks drive it.
 *
 * What a user does with pointer and keys, as calls (tests also drive the
 * real widgets with XTEST), and the views, to read what they show. Not
 * for the application's own code. */
#pragma once

#include "sp-call-tree-view.h"
#include "sp-callers-view.h"
#include "sp-filter.h"
#include "sp-source-view.h"
#include "sp-timeline-view.h"
#include "sp-window.h"

G_BEGIN_DECLS

/* The page shown: "start", "loading" (a file read, or a perf.data
 * converted), "profile" or "error". */
const char *sp_window_get_page (SpWindow *self);

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

/* The call tree's rows as shown. */
GListModel *sp_window_get_call_tree_model (SpWindow *self);

/* The views themselves, to act as a user would. */
SpCallTreeView *sp_window_get_call_tree_view (SpWindow *self);
SpCallersView *sp_window_get_callers_view (SpWindow *self);
SpTimelineView *sp_window_get_timeline_view (SpWindow *self);
SpSourceView *sp_window_get_source_view (SpWindow *self);

/* Finds the next function matching text in the call tree (as Ctrl+F and
 * Enter do) and highlights matches in the flame graph; FALSE if none. */
gboolean sp_window_search_function (SpWindow *self,
                                    const char *text);

/* The view shown on the profile page: "call-tree", "bottom-up",
 * "callers", "flame-graph", "source", "threads" or "summary". Showing "callers"
 * right after a tree view shows the function selected there. */
void sp_window_show_view (SpWindow *self,
                          const char *view);

/* Exports what the views show to path, as Export… does once its file
 * chooser answered (format: "pprof", "speedscope", "collapsed"); FALSE
 * without a profile or for another format. The status line's export
 * label (sp_window_get_export_status) says "Exported NAME" when done. */
gboolean sp_window_export (SpWindow *self,
                           const char *format,
                           const char *path);
const char *sp_window_get_export_status (SpWindow *self);

/* The pid of the converter turning a perf.data into a spool for the
 * window (the loading page shows its progress), or 0 when none runs. */
GPid sp_window_get_converter_pid (SpWindow *self);

/* Open…'s file chooser while it is up, or NULL. */
GtkFileChooser *sp_window_get_open_chooser (SpWindow *self);

/* Whether the analysis has work running or asked for. */
gboolean sp_window_is_busy (SpWindow *self);

/* The analysis whose results the window shows. */
SpAnalysis *sp_window_get_analysis (SpWindow *self);

G_END_DECLS
