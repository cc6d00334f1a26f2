/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-record-dialog.c: a small window of fields; building it in C keeps
 * the few widgets and their wiring in one place. */
#include "sp-record-dialog.h"

struct _SpRecordDialog
{
  GtkWindow       parent_instance;

  /* Borrowed references (children) */
  GtkEntry       *command;
  GtkEntry       *directory;
  GtkSpinButton  *frequency;
  GtkCheckButton *kernel;
  GtkLabel       *message;
};

enum { RECORD, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpRecordDialog, sp_record_dialog, GTK_TYPE_WINDOW)

gboolean
sp_record_dialog_get_options (SpRecordDialog *self,
                              SpRecordOptions *options,
                              GError **error)
{
  const char *command = gtk_editable_get_text (GTK_EDITABLE (self->command));
  char **argv = NULL;

  memset (options, 0, sizeof *options);
  if (!g_shell_parse_argv (command, NULL, &argv, error))
    return FALSE;
  options->argv = argv;
  options->working_directory = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->directory)));
  options->frequency_hz = (guint) gtk_spin_button_get_value_as_int (self->frequency);
  options->kernel_stacks = gtk_check_button_get_active (self->kernel);
  return TRUE;
}

void
sp_record_dialog_set_command_line (SpRecordDialog *self,
                                   const char *command_line)
{
  gtk_editable_set_text (GTK_EDITABLE (self->command), command_line);
}

static void
record_clicked (SpRecordDialog *self)
{
  SpRecordOptions options;
  g_autoptr (GError) error = NULL;

  if (!sp_record_dialog_get_options (self, &options, &error))
    {
      g_autofree char *text = g_strdup_printf ("The command line does not parse: %s", error->message);

      gtk_label_set_text (self->message, text);
      gtk_widget_set_visible (GTK_WIDGET (self->message), TRUE);
      return;
    }
  sp_record_options_clear (&options);
  g_signal_emit (self, signals[RECORD], 0);
  gtk_window_close (GTK_WINDOW (self));
}

static GtkWidget *
row_label (const char *text)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (text);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  return label;
}

static void
sp_record_dialog_class_init (SpRecordDialogClass *klass)
{
  signals[RECORD] = g_signal_new ("record", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 0);
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sp_record_dialog_init (SpRecordDialog *self)
{
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *record = gtk_button_new_with_mnemonic ("_Record");

  gtk_window_set_title (GTK_WINDOW (self), "Record a Program");
  gtk_window_set_default_size (GTK_WINDOW (self), 560, -1);
  gtk_widget_add_css_class (record, "suggested-action");
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), record);
  gtk_window_set_titlebar (GTK_WINDOW (self), header);
  gtk_window_set_default_widget (GTK_WINDOW (self), record);
  g_signal_connect_swapped (record, "clicked", G_CALLBACK (record_clicked), self);

  self->command = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->command, "program --and arguments");
  gtk_entry_set_activates_default (self->command, TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->command), TRUE);
  self->directory = GTK_ENTRY (gtk_entry_new ());
  gtk_editable_set_text (GTK_EDITABLE (self->directory), g_get_home_dir ());
  self->frequency = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, 20000, 100));
  gtk_spin_button_set_value (self->frequency, 1000);
  self->kernel = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic ("Include _kernel stacks"));
  gtk_check_button_set_active (self->kernel, TRUE);
  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->message), FALSE);

  g_object_set (grid, "row-spacing", 8, "column-spacing", 12, "margin-top", 18, "margin-bottom", 18,
                "margin-start", 18, "margin-end", 18, NULL);
  gtk_grid_attach (GTK_GRID (grid), row_label ("_Command"), 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->command), 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), row_label ("_Working directory"), 0, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->directory), 1, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), row_label ("Samples per _second"), 0, 2, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->frequency), 1, 2, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->kernel), 1, 3, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->message), 0, 4, 2, 1);
  gtk_window_set_child (GTK_WINDOW (self), grid);
}

SpRecordDialog *
sp_record_dialog_new (GtkWindow *parent)
{
  return g_object_new (SP_TYPE_RECORD_DIALOG, "transient-for", parent, "modal", TRUE, NULL);
}
