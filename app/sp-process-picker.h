/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-process-picker.h: choose a running process to attach to.
 *
 * A list of the processes /proc shows (pid, name, user, CPU time, command
 * line), filtered by one search entry that matches any of them, sortable
 * by column, refreshable, and whether to record off-CPU time too
 * (app/sp-offcpu-option.h). Choosing one emits "attach" and closes. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SP_TYPE_PROCESS_PICKER (sp_process_picker_get_type ())

G_DECLARE_FINAL_TYPE (SpProcessPicker, sp_process_picker, SP, PROCESS_PICKER, GtkWindow)

/* Signal "attach" (int pid, const char *name): the user chose pid. */
SpProcessPicker *sp_process_picker_new (GtkWindow *parent);

/* Reads /proc again; the selected process stays selected if it runs. */
void sp_process_picker_refresh (SpProcessPicker *self);

/* Types text into the search entry and filters at once. */
void sp_process_picker_set_search (SpProcessPicker *self,
                                   const char *text);

/* The rows shown, in order: SpProcess items. */
GListModel *sp_process_picker_get_model (SpProcessPicker *self);

/* Selects pid's row; FALSE when it is not shown. */
gboolean sp_process_picker_select_pid (SpProcessPicker *self,
                                       int pid);

/* What the Attach button does: emits "attach" for the selected process
 * and closes; FALSE when nothing is selected. */
gboolean sp_process_picker_attach (SpProcessPicker *self);

/* Whether the attach should record off-CPU time (--off-cpu). */
gboolean sp_process_picker_get_off_cpu (SpProcessPicker *self);

G_END_DECLS
