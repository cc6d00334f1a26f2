/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-offcpu.c: "Blocked stacks were not recorded", and the offer to
 * record again with the rights that give them.
 *
 * The bar is made here, on first need, and placed above the status line;
 * the window's template does not know it (it is kept on the window as
 * object data). */
#include "sp-window-offcpu.h"

#include "sp-offcpu-stacks.h"

#define BAR_KEY "sp-window-offcpu-bar"

typedef struct {
  GtkWidget *box;
  GtkLabel  *label;
  GtkWidget *button;
} OffCpuBar;

/* Above the status line, in the box that holds it. */
static OffCpuBar *
ensure_bar (SpWindow *self)
{
  OffCpuBar *bar = g_object_get_data (G_OBJECT (self), BAR_KEY);
  GtkWidget *status_bar = gtk_widget_get_parent (GTK_WIDGET (self->status_label));
  GtkWidget *column = gtk_widget_get_parent (status_bar);

  if (bar != NULL)
    return bar;
  bar = g_new0 (OffCpuBar, 1);
  bar->box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  g_object_set (bar->box, "margin-top", 4, "margin-bottom", 4, "margin-start", 12, "margin-end", 6, NULL);
  bar->label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (bar->label, TRUE);
  gtk_label_set_xalign (bar->label, 0);
  gtk_label_set_selectable (bar->label, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (bar->label), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (bar->label), "warning");
  bar->button = gtk_button_new_with_label ("Record Again as Administrator");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (bar->button), "win.record-again-elevated");
  gtk_widget_set_tooltip_text (bar->button, "Run the same recording again through pkexec, which asks for an "
                                            "administrator’s password: then the blocked stacks are recorded too");
  gtk_widget_set_valign (bar->button, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (bar->box), GTK_WIDGET (bar->label));
  gtk_box_append (GTK_BOX (bar->box), bar->button);
  gtk_box_insert_child_after (GTK_BOX (column), bar->box, gtk_widget_get_prev_sibling (status_bar));
  g_object_set_data_full (G_OBJECT (self), BAR_KEY, bar, g_free);
  return bar;
}

void
_sp_window_offcpu_check_stacks (SpWindow *self,
                                SpRecordingSession *session)
{
  g_autofree char *reason = NULL;
  g_autofree char *pkexec = NULL;
  g_autofree char *text = NULL;
  OffCpuBar *bar;

  if (!self->record_options.off_cpu
      || (reason = sp_offcpu_stacks_missing_reason_for (sp_recording_session_get_output (session))) == NULL)
    return;
  pkexec = sp_recording_session_find_pkexec ();
  bar = ensure_bar (self);
  text = g_strdup_printf ("Blocked stacks were not recorded: %s.", reason);
  gtk_label_set_text (bar->label, text);
  gtk_widget_set_visible (bar->button, pkexec != NULL && !self->record_options.elevated);
  gtk_widget_set_visible (bar->box, TRUE);
}
