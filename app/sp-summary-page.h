/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-summary-page.h: the window's Summary page: a recording's headline
 * figures, what was lost, and what its symbols lack, a labelled row each. */
#pragma once

#include <gtk/gtk.h>

#include "sp-spool-summary.h"

G_BEGIN_DECLS

/* Replaces the rows of figures (a two-column grid) with s's; path names
 * the file. */
void sp_summary_page_fill (GtkGrid *figures,
                           const char *path,
                           const SpSpoolSummary *s);

G_END_DECLS
