/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-thread-list.h: the Threads page: a sortable table with a row per
 * thread (name, pid, tid, samples, CPU, off-CPU, wall-clock, blocked and
 * runnable seconds, switches), ticked when the views count its samples.
 *
 * "thread-toggled" (guint thread, gboolean shown): the user ticked or
 * unticked a thread (its index, SpThreadRow.thread). */
#pragma once

#include <gtk/gtk.h>

#include "sp-filter.h"

G_BEGIN_DECLS

#define SP_TYPE_THREAD_LIST (sp_thread_list_get_type ())
G_DECLARE_FINAL_TYPE (SpThreadList, sp_thread_list, SP, THREAD_LIST, GtkWidget)

SpThreadList *sp_thread_list_new (void);

/* Shows rows (SpThreadRow, sp-thread-rows.h; the list keeps a reference),
 * ticked where filter shows the thread; NULL empties the list. Rows keep
 * their widgets when only names and counts changed (a live update). A row
 * without the off-CPU companion's states (has_states FALSE) shows "–" for
 * the off-CPU times and switches, and its CPU time (samples times the
 * interval) says in its tooltip that it is an estimate. While the list is
 * hidden (unmapped), the last rows and ticks given wait until it is shown. */
void sp_thread_list_set_rows (SpThreadList *self,
                              GArray *rows,
                              const SpFilter *filter);

/* Ticks each row where filter shows its thread (the Processes page hid
 * or showed a process's threads). */
void sp_thread_list_update_shown (SpThreadList *self,
                                  const SpFilter *filter);

G_END_DECLS
