/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-compare.h: "Compare With…" of the main window. */
#pragma once

#include "sp-compare-window.h"
#include "sp-window.h"

G_BEGIN_DECLS

/* Installs win.compare (a file chooser, then sp_window_compare_with). */
void _sp_window_compare_class_init (GtkWidgetClass *widget_class);

/* Compares the window's recording with file in a window of its own: the
 * recording is A (before) and file B (after); while the window records
 * or follows a recording in progress, file is the baseline A and the
 * live recording B. NULL when the window has no recording. */
SpCompareWindow *sp_window_compare_with (SpWindow *self,
                                         GFile *file);

G_END_DECLS
