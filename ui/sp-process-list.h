/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-process-list.h: the Processes page of a recording of the whole
 * system: a sortable table with a row per process (a check, pid, name,
 * command line, samples, CPU share; a kernel thread's name in brackets,
 * as ps shows it), and the idle task's samples on a line below it (idle
 * time, not a process).
 *
 * "process-toggled" (int pid, gboolean shown): the user ticked or
 * unticked a process; the window hides or shows all its threads. */
#pragma once

#include <gtk/gtk.h>

#include "sp-filter.h"

G_BEGIN_DECLS

#define SP_TYPE_PROCESS_LIST (sp_process_list_get_type ())
G_DECLARE_FINAL_TYPE (SpProcessList, sp_process_list, SP, PROCESS_LIST, GtkWidget)

SpProcessList *sp_process_list_new (void);

/* Shows rows (SpProcessRow, sp-process-rows.h; the list keeps a
 * reference), each ticked unless filter hides all its threads, and
 * idle_samples below; NULL empties the list. */
void sp_process_list_set_rows (SpProcessList *self,
                               GArray *rows,
                               guint64 idle_samples,
                               const SpFilter *filter);

/* The rows as last set (SpProcessRow), or NULL. */
GArray *sp_process_list_get_rows (SpProcessList *self);
guint64 sp_process_list_get_idle_samples (SpProcessList *self);

G_END_DECLS
