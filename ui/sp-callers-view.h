/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-callers-view.h: one function between its callers and its callees.
 *
 * Left, every function with its self and total samples (pick one there);
 * right, for the chosen function, who calls it (above) and what it calls
 * (below), with the function itself between them. Activating a caller or
 * a callee (double click, Enter) makes it the chosen function.
 *
 * The view computes nothing: data/'s function list and callers/callees
 * come in through the setters (the window computes them off the main
 * thread), and "function-activated" asks for another function. */
#pragma once

#include <gtk/gtk.h>

#include "sp-filter.h"
#include "sp-function-list.h"
#include "sp-profile.h"

G_BEGIN_DECLS

#define SP_TYPE_CALLERS_VIEW (sp_callers_view_get_type ())

G_DECLARE_FINAL_TYPE (SpCallersView, sp_callers_view, SP, CALLERS_VIEW, GtkWidget)

SpCallersView *sp_callers_view_new (void);

/* Every function of profile (the view holds a reference to it) with its
 * samples: functions (SpFunctionCost, as sp_function_list_new
 * makes it) is taken. all: the samples percentages are of. NULL clears
 * the view, the chosen function too. The chosen function stays selected
 * in the new list, and the list where it was scrolled. */
void sp_callers_view_set_functions (SpCallersView *self,
                                    SpProfile *profile,
                                    GArray *functions,
                                    guint64 all);

/* What the costs given to the setters count: samples (SP_METRIC_CPU, the
 * default) or ns of a time metric (SpAnalysisResult.metric). Rows already
 * shown are written again in the new unit; set it before the lists that
 * count it. */
void sp_callers_view_set_metric (SpCallersView *self,
                                 SpMetric metric);
SpMetric sp_callers_view_get_metric (SpCallersView *self);

/* The chosen function (cost: its own samples) with its callers and
 * callees (SpFunctionCost arrays, as sp_function_list_callers_callees
 * makes them; taken). Needs a profile (set_functions). */
void sp_callers_view_set_function (SpCallersView *self,
                                   const SpFunctionCost *cost,
                                   GArray *callers,
                                   GArray *callees);

/* The chosen function, or SP_FUNCTION_LIST_ROOT for none. */
guint32 sp_callers_view_get_function (SpCallersView *self);

/* A right-click on a row selects it (in the list, it chooses the function)
 * and opens menu there (NULL: no menu); its actions are looked up from the
 * view's ancestors. */
void sp_callers_view_set_context_menu (SpCallersView *self,
                                       GMenuModel *menu);

/* What the menu's actions apply to: the function right-clicked since the
 * chosen one came, or else the chosen one; SP_FUNCTION_LIST_ROOT for none. */
guint32 sp_callers_view_get_selected_function (SpCallersView *self);

/* Chooses a function of the list whose name contains text (ignoring
 * case), as a click on its row does: the heaviest (by total) for a new
 * text; for the text of the last search, the next heaviest after the
 * chosen one (wrapping around). FALSE when none matches. */
gboolean sp_callers_view_search_next (SpCallersView *self,
                                      const char *text);

/* The tables' rows as shown (SpFunctionItem, sorted). */
GListModel *sp_callers_view_get_functions (SpCallersView *self);
GListModel *sp_callers_view_get_callers (SpCallersView *self);
GListModel *sp_callers_view_get_callees (SpCallersView *self);

G_END_DECLS
