/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-offcpu.c: "Blocked stacks were not recorded", and the offer to
 * record again with the rights that give them.
 *
 * The bar is the template's (sp-window.ui), above the status line. */
#include "sp-window-offcpu.h"

#include "sp-offcpu-stacks.h"

void
_sp_window_offcpu_check_stacks (SpWindow *self,
                                SpRecordingSession *session)
{
  g_autofree char *reason = NULL;
  g_autofree char *pkexec = NULL;
  g_autofree char *text = NULL;

  if (!self->record_options.off_cpu
      || (reason = sp_offcpu_stacks_missing_reason_for (sp_recording_session_get_output (session))) == NULL)
    return;
  pkexec = sp_recording_session_find_pkexec ();
  text = g_strdup_printf ("Blocked stacks were not recorded: %s.", reason);
  gtk_label_set_text (self->offcpu_label, text);
  gtk_widget_set_visible (self->offcpu_button, pkexec != NULL && !self->record_options.elevated);
  gtk_widget_set_visible (self->offcpu_bar, TRUE);
}
