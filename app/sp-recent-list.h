/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recent-list.h: the start page's recent recordings.
 *
 * Recordings made or opened with stackpulse are kept in the desktop's
 * recently-used list (GtkRecentManager), so file choosers show them too;
 * this widget lists ours, newest first, and marks the ones whose file is
 * gone. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SP_TYPE_RECENT_LIST (sp_recent_list_get_type ())

G_DECLARE_FINAL_TYPE (SpRecentList, sp_recent_list, SP, RECENT_LIST, GtkWidget)

/* How many recordings the list shows at most. */
#define SP_RECENT_LIST_MAX 6

/* Signal "open" (GFile *file): a row was clicked. */
SpRecentList *sp_recent_list_new (void);

/* Rereads the recently-used list (also done when it changes). */
void sp_recent_list_reload (SpRecentList *self);

/* The files listed, newest first, and whether each still exists. */
guint sp_recent_list_get_n_files (SpRecentList *self);
GFile *sp_recent_list_get_file (SpRecentList *self,
                                guint index,
                                gboolean *exists);

/* Clicks row index: emits "open" unless its file is missing; FALSE then. */
gboolean sp_recent_list_activate (SpRecentList *self,
                                  guint index);

/* Remembers file as recorded or opened by stackpulse. */
void sp_recent_list_add_file (GFile *file);

G_END_DECLS
