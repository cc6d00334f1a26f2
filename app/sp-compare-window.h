/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-compare-window.h: two recordings compared (docs/COMPARE.md).
 *
 * A (before) and B (after) each have their own SpAnalysis, timeline and
 * filter; their finished call trees are merged on a worker
 * (data/sp-diff-tree.h) into a differential flame graph, a function list
 * and a call tree, each with before, after and change. Transforms apply
 * to both sides alike, by function. B may be a recording in progress:
 * the comparison follows it as it grows. */
#pragma once

#include <gtk/gtk.h>

#include "sp-application.h"
#include "sp-diff-flame.h"
#include "sp-diff-table.h"
#include "sp-filter.h"
#include "sp-timeline-view.h"

G_BEGIN_DECLS

#define SP_TYPE_COMPARE_WINDOW (sp_compare_window_get_type ())

G_DECLARE_FINAL_TYPE (SpCompareWindow, sp_compare_window, SP, COMPARE_WINDOW, GtkApplicationWindow)

/* Opens a and b (each read whole, or followed while another recorder
 * writes it). app may be NULL (tests). */
SpCompareWindow *sp_compare_window_new (SpApplication *app,
                                        GFile *a,
                                        GFile *b);

/* Carries a main window's transforms (filter's, their functions named by
 * profile) over to both sides: once both are read, each function is
 * found by name and module on each side, as the comparison matches them. */
void sp_compare_window_carry_transforms (SpCompareWindow *self,
                                         const SpFilter *filter,
                                         SpProfile *profile);

/* ---- For tests ---- */

/* Whether a comparison is shown, and no side or build has work running. */
gboolean sp_compare_window_is_settled (SpCompareWindow *self);
/* How many comparisons were shown so far (a live B brings more). */
guint sp_compare_window_get_n_shown (SpCompareWindow *self);
/* What the status line says (problems with either side), or "". */
const char *sp_compare_window_get_status (SpCompareWindow *self);
/* What is shown in place of the views when nothing can be compared (a
 * side cannot be opened), or "". */
const char *sp_compare_window_get_message (SpCompareWindow *self);
SpDiffFlame *sp_compare_window_get_flame (SpCompareWindow *self);
SpDiffTable *sp_compare_window_get_functions (SpCompareWindow *self);
SpDiffTable *sp_compare_window_get_call_tree (SpCompareWindow *self);
/* Side 0 is A, 1 is B. */
SpTimelineView *sp_compare_window_get_timeline (SpCompareWindow *self,
                                                guint side);
/* "flame-graph", "functions" or "call-tree". */
void sp_compare_window_show_view (SpCompareWindow *self,
                                  const char *view);
/* Adds a transform of the function selected on the view shown to both
 * sides (as the context menu does); FALSE when none is selected. Undo
 * with sp_compare_window_undo_transform. */
gboolean sp_compare_window_apply_transform (SpCompareWindow *self,
                                            SpTransformKind kind);
void sp_compare_window_undo_transform (SpCompareWindow *self);
/* What the breadcrumbs say ("Merge: mix  ›  Drop: light"), "" when hidden. */
const char *sp_compare_window_get_breadcrumbs (SpCompareWindow *self);
/* Shares (the default) or time per second. */
void sp_compare_window_set_normalize (SpCompareWindow *self,
                                      SpDiffNormalize normalize);

G_END_DECLS
