/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-option.c: the off-CPU check box and what it will record. */
#include "sp-offcpu-option.h"

#include "sp-perf-access.h"

char *
sp_offcpu_option_describe (void)
{
  char reason[512];

  if (!sp_perf_has_switch_records ())
    return g_strdup ("This kernel gives no context-switch records (they need Linux 4.3 or later with perf events).");
  if (sp_perf_kernel_sampling_allowed ())
    return g_strdup ("Thread states, off-CPU times and the stacks where threads block are recorded.");
  sp_perf_offcpu_stacks_reason (sp_perf_paranoid (), reason, sizeof reason);
  return g_strdup_printf ("Only thread states and off-CPU times are recorded, not the stacks where threads "
                          "block: %s.", reason);
}

GtkWidget *
sp_offcpu_option_new (GtkCheckButton **check)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *text = sp_offcpu_option_describe ();
  GtkWidget *note = gtk_label_new (text);
  gboolean available = sp_perf_has_switch_records ();

  *check = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic ("Record _off-CPU time (where threads wait)"));
  gtk_check_button_set_active (*check, available);
  gtk_widget_set_sensitive (GTK_WIDGET (*check), available);
  gtk_widget_set_tooltip_text (GTK_WIDGET (*check), "Also record when each thread blocks or is preempted, and for "
                               "how long: the time a program spends waiting, not only running");
  gtk_label_set_xalign (GTK_LABEL (note), 0);
  gtk_label_set_wrap (GTK_LABEL (note), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (note), 60);
  gtk_widget_set_margin_start (note, 28);  /* under the box's label, not its tick */
  gtk_widget_add_css_class (note, "dim-label");
  gtk_widget_add_css_class (note, "caption");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (*check));
  gtk_box_append (GTK_BOX (box), note);
  return box;
}
