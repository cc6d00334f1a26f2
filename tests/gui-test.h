/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gui-test.h: what every GTK test needs before its first window. */
#pragma once

#include <gtk/gtk.h>

/* g_test_init, then a display: without one the test prints a TAP skip
 * and returns FALSE (main then returns 0), unless SP_REQUIRE_DISPLAY is
 * set (CI, under Xvfb), where a missing display is an error. The test
 * gets its own XDG data and cache folders (the recently-used list, the
 * recordings), which are removed when it exits. */
gboolean gui_test_init (int *argc,
                        char ***argv);

/* Where screenshots go: $SP_SCREENSHOT_DIR, or a fresh temporary folder. */
const char *gui_test_screenshot_dir (void);

/* What widget shows now, over its whole size (for pixel checks). */
GdkTexture *gui_test_render (GtkWidget *widget);

/* Fails the test when texture is (next to) blank: one colour over almost
 * all of it, as an unrealised or empty window would be. */
void gui_test_assert_drawn (GdkTexture *texture,
                            const char *what);

/* Lets widget lay out and draw, then saves what it shows as a PNG named
 * name in the screenshot folder, and checks it is not blank
 * (gui_test_assert_drawn). */
void gui_test_save_png (GtkWidget *widget,
                        const char *name);
