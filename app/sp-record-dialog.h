/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-record-dialog.h: what to record: a command line, its working
 * directory and extra environment, the sampling frequency, the call-graph
 * mode, kernel stacks on or off, off-CPU time on or off (on where the
 * kernel gives it; app/sp-offcpu-option.h). Each opening starts from these
 * defaults: no choice is remembered from one recording to the next. */
#pragma once

#include <gtk/gtk.h>

#include "sp-recording-session.h"

G_BEGIN_DECLS

#define SP_TYPE_RECORD_DIALOG (sp_record_dialog_get_type ())

G_DECLARE_FINAL_TYPE (SpRecordDialog, sp_record_dialog, SP, RECORD_DIALOG, GtkWindow)

/* Signal "record" (no arguments): the user asked to start; read the
 * options with sp_record_dialog_get_options. */
SpRecordDialog *sp_record_dialog_new (GtkWindow *parent);

/* FALSE (with error) when the command line or the environment does not
 * parse. */
gboolean sp_record_dialog_get_options (SpRecordDialog *self,
                                       SpRecordOptions *options,
                                       GError **error);

/* Fills the fields (tests, "profile the demo"). */
void sp_record_dialog_set_command_line (SpRecordDialog *self,
                                        const char *command_line);
void sp_record_dialog_set_working_directory (SpRecordDialog *self,
                                             const char *directory);
/* NAME=VALUE lines, as typed. */
void sp_record_dialog_set_environment (SpRecordDialog *self,
                                       const char *lines);
/* "auto", "dwarf" or "fp"; FALSE for anything else. */
gboolean sp_record_dialog_set_call_graph (SpRecordDialog *self,
                                          const char *mode);

/* What the Record button does: emits "record" and closes, or shows why it
 * cannot (the message, also from sp_record_dialog_get_message) and
 * returns FALSE. */
gboolean sp_record_dialog_record (SpRecordDialog *self);
const char *sp_record_dialog_get_message (SpRecordDialog *self);

G_END_DECLS
