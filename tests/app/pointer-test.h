/* SPDX-License-Identifier: GPL-3.0-or-later */
/* pointer-test.h: real pointer (and key) events for the app's tests,
 * through the X server's XTEST extension: the events go through the
 * server, its grabs and GTK's whole input path, as a user's would. X11
 * only. */
#pragma once

#include <gtk/gtk.h>

/* Whether widget's display is an X display with XTEST. */
gboolean pointer_test_available (GtkWidget *widget);

/* Puts window above every other window of the screen (tests of other
 * programs may share it). */
void pointer_test_raise (GtkWindow *window);

/* Moves the pointer to (x, y) in widget's coordinates, and lets GTK take
 * the motion in. */
void pointer_test_move (GtkWidget *widget,
                        double x,
                        double y);

/* Where (x, y) in widget's coordinates is on the X screen. */
void pointer_test_screen_point (GtkWidget *widget,
                                double x,
                                double y,
                                int *screen_x,
                                int *screen_y);

/* Presses, or releases, button (1 left, 3 right) where the pointer is:
 * a drag is a press, moves, and a release. */
void pointer_test_press (GtkWidget *widget,
                         guint button);
void pointer_test_release (GtkWidget *widget,
                           guint button);

/* Moves there, then presses and releases button (1 left, 3 right). */
void pointer_test_click (GtkWidget *widget,
                         double x,
                         double y,
                         guint button);

/* Double-clicks the left button at (x, y) in widget's coordinates. */
void pointer_test_double_click (GtkWidget *widget,
                                double x,
                                double y);

/* Presses and releases the key keyval (GDK_KEY_Down…) with modifiers
 * (Control, Alt, Shift) held, on widget's display: the keyboard's focus
 * gets it. */
void pointer_test_key (GtkWidget *widget,
                       guint keyval,
                       GdkModifierType modifiers);

/* Clicks the middle of widget. */
void pointer_test_click_widget (GtkWidget *widget,
                                guint button);

/* How many popup surfaces (menus, tooltips) of this program are mapped. */
guint pointer_test_count_popups (GtkWidget *widget);
