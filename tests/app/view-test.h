/* SPDX-License-Identifier: GPL-3.0-or-later */
/* view-test.h: the call trees' rows, and the views' right-click menu, as
 * the app's tests that drive a recording's views use them (real pointer
 * events through XTEST: pointer-test.h). */
#pragma once

#include <gtk/gtk.h>

#include "sp-call-tree-view.h"
#include "sp-window.h"

/* The recording at path in a new window, its views shown, raised above
 * other tests' windows; fails the test without XTEST. */
SpWindow *view_test_open_recording (const char *path);

/* "main;descend;deep_work": the names from the top row down. */
char *view_test_row_path (GtkTreeListRow *row);

/* The first row shown whose path ends with suffix (";"-separated names),
 * or NULL. */
GtkTreeListRow *view_test_find_row (SpCallTreeView *view,
                                    const char *suffix);

/* The names of row's children (opened), ";"-separated, in the order shown. */
char *view_test_child_names (GtkTreeListRow *row);

/* The names of the top-level rows, ";"-separated. */
char *view_test_top_level_names (SpCallTreeView *view);

/* The label showing row's function name, scrolled into the view's
 * visible area. */
GtkWidget *view_test_row_label (SpCallTreeView *view,
                                GtkTreeListRow *row);

/* The path of the row selected, or NULL. */
char *view_test_selected_path (SpCallTreeView *view);

/* The call tree view on the views' page named page. */
SpCallTreeView *view_test_view_on_page (SpWindow *window,
                                        const char *page);

/* Whether popover is shown (mapped, with a size). */
gboolean view_test_popover_shown (gpointer popover);

/* Every item of the menu (each a label) is in its visible part: none is
 * hidden behind a scrollbar. */
void view_test_assert_menu_whole (GtkPopover *menu,
                                  GtkWidget *widget);

/* Right-clicks label's middle; returns the menu that opened, checked
 * whole (every item in its visible part). */
GtkPopover *view_test_open_menu_on (GtkWidget *view,
                                    GtkWidget *label);

/* Whether a popup (menu, tooltip) of widget's program is shown; none is. */
gboolean view_test_popup_shown (gpointer widget);
gboolean view_test_no_popup (gpointer widget);

/* Clicks the menu's item labelled text, as a user does, and waits for the
 * menu to close. */
void view_test_pick (GtkPopover *menu,
                     const char *text);
