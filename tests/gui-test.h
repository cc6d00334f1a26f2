/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gui-test.h: what every GTK test needs before its first window. */
#pragma once

#include <gtk/gtk.h>

/* g_test_init, then a display: without one the test prints a TAP skip
 * and returns FALSE (main then returns 0), unless SP_REQUIRE_DISPLAY is
 * set (CI, under Xvfb), where a missing display is an error. The test
 * gets its own XDG data, cache and config folders (the recently-used list,
 * the recordings, the source folders), which are removed when it exits. */
gboolean gui_test_init (int *argc,
                        char ***argv);

/* Where screenshots go: $SP_SCREENSHOT_DIR, or a fresh temporary folder. */
const char *gui_test_screenshot_dir (void);

/* What widget shows now, over its whole size (for pixel checks). */
GdkTexture *gui_test_render (GtkWidget *widget);

/* The alpha (0..255) of the pixel widget draws at (x, y), drawing it
 * alone (without what is under it): 0 where it draws nothing there, or
 * nothing at all (an empty label). Widget must have been drawn once. */
guint gui_test_alpha_at (GtkWidget *widget,
                         int x,
                         int y);

/* Fails the test when texture is (next to) blank: one colour over almost
 * all of it, as an unrealised or empty window would be. */
void gui_test_assert_drawn (GdkTexture *texture,
                            const char *what);

/* Lets widget lay out and draw, then saves what it shows as a PNG named
 * name in the screenshot folder, and checks it is not blank
 * (gui_test_assert_drawn). */
void gui_test_save_png (GtkWidget *widget,
                        const char *name);

/* Whether widget is what a search wants (data: what the search was given). */
typedef gboolean (*GuiTestMatch) (GtkWidget *widget,
                                  gconstpointer data);

/* The first widget under widget (widget itself included, depth first, in
 * widget-tree order) that matches, or NULL. */
GtkWidget *gui_test_find (GtkWidget *widget,
                          GuiTestMatch matches,
                          gconstpointer data);

/* Every widget under widget that matches, in the same order: the array
 * is the caller's, the widgets are not. */
GPtrArray *gui_test_find_all (GtkWidget *widget,
                              GuiTestMatch matches,
                              gconstpointer data);

/* The GtkColumnViews under widget, in widget-tree order: the array is
 * the caller's, the views are not. */
GPtrArray *gui_test_column_views (GtkWidget *widget);

/* The index-th GtkColumnView under widget, in widget-tree order; fails
 * the test when there are fewer. */
GtkColumnView *gui_test_column_view (GtkWidget *widget,
                                     guint index);

/* The rows column_view has laid out (GtkListView's row widgets, child
 * visible), in widget order (not the order shown): the array is the
 * caller's, the widgets are not. */
GPtrArray *gui_test_table_rows (GtkColumnView *column_view);

/* The position of column_view's column titled title; fails the test when
 * there is none. */
guint gui_test_column_index (GtkColumnView *column_view,
                             const char *title);

/* The widget that row (from gui_test_table_rows) shows in its column-th
 * cell, or NULL. */
GtkWidget *gui_test_row_cell (GtkWidget *row,
                              guint column);

/* What a cell of ui/'s views shows: a label's text, an SpNameLabel's
 * name, or NULL for any other widget. */
const char *gui_test_cell_text (GtkWidget *widget);

/* How many cells with text (gui_test_cell_text, not empty) under table
 * are mapped and lie wholly inside table's height: the rows it shows. */
guint gui_test_count_shown_cells (GtkWidget *table);
