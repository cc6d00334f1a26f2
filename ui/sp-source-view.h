/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-view.h: the Source page: one function's source file with its
 * self and total costs per line in a heat-coloured gutter, beside its
 * disassembly with the costs per instruction.
 *
 * Shows an SpSourceAnnotation (data/sp-source-annotation.h) the analysis
 * made; asks for the next through signals, which the window passes on to
 * the analysis:
 *  "annotate" (guint function, guint place): show another function (a
 *    call's callee, Back) or another place of this one;
 *  "folder-chosen" (const char *wanted, const char *folder): the user
 *    picked the folder a missing source file is in.
 * Selecting a line selects its instructions, selecting an instruction its
 * line; activating a call (double-click, Enter) shows the callee, and
 * Back (Alt+Left) the function shown before; F6 goes from the lines to
 * the instructions (to the line's first) and back. Shown anew, a function is
 * scrolled to its hottest line, which is selected. */
#pragma once

#include <gtk/gtk.h>

#include "sp-source-annotation.h"

G_BEGIN_DECLS

#define SP_TYPE_SOURCE_VIEW (sp_source_view_get_type ())
G_DECLARE_FINAL_TYPE (SpSourceView, sp_source_view, SP, SOURCE_VIEW, GtkWidget)

SpSourceView *sp_source_view_new (void);

/* Asks for function ("annotate"), its heaviest place; the function shown
 * until now is where Back goes. */
void sp_source_view_show_function (SpSourceView *self,
                                   guint32 function);

/* Shows source (keeps a reference). The same function again (a live
 * update, a new filter) keeps the line selected. NULL shows nothing and
 * forgets where Back goes: another profile comes. */
void sp_source_view_set_source (SpSourceView *self,
                                SpSourceAnnotation *source);
SpSourceAnnotation *sp_source_view_get_source (SpSourceView *self);

/* Asks for the function shown before; FALSE when there is none. */
gboolean sp_source_view_go_back (SpSourceView *self);

/* The line selected (0: none), and selecting one as a click does. */
guint sp_source_view_get_selected_line (SpSourceView *self);
void sp_source_view_select_line (SpSourceView *self,
                                 guint line);

/* The tables, for tests: the lines (rows in line order) and the
 * instructions (in address order). */
GtkColumnView *sp_source_view_get_lines (SpSourceView *self);
GtkColumnView *sp_source_view_get_instructions (SpSourceView *self);

G_END_DECLS
