/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-record-dialog.c: a small window of fields; building it in C keeps
 * the few widgets and their wiring in one place. */
#include "sp-record-dialog.h"

#include "sp-offcpu-option.h"

/* The call-graph choices, in the drop-down's order; the first is the
 * recorder's default and is not passed on. */
static const struct {
  const char *mode;
  const char *label;
} call_graphs[] = {
  { "auto", "Automatic" },
  { "dwarf", "DWARF (stack copies)" },
  { "fp", "Frame pointers" },
};

struct _SpRecordDialog
{
  GtkWindow       parent_instance;

  /* Borrowed references (children) */
  GtkEntry       *command;
  GtkEntry       *directory;
  GtkTextView    *environment;
  GtkSpinButton  *frequency;
  GtkDropDown    *call_graph;
  GtkCheckButton *kernel;
  GtkCheckButton *off_cpu;
  GtkLabel       *message;
};

enum { RECORD, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpRecordDialog, sp_record_dialog, GTK_TYPE_WINDOW)

static gboolean
is_variable_name (const char *name,
                  gsize length)
{
  if (length == 0 || g_ascii_isdigit (name[0]))
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isalnum (name[i]) && name[i] != '_')
      return FALSE;
  return TRUE;
}

/* "KEY=VALUE" lines; blank lines and lines starting with '#' are skipped.
 * Values keep their spaces: only the line's ends are trimmed. */
static char **
parse_environment (const char *text,
                   GError **error)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      const char *equals = strchr (line, '=');

      if (line[0] == '\0' || line[0] == '#')
        continue;
      if (equals == NULL || !is_variable_name (line, (gsize) (equals - line)))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                       "Environment line %u is not NAME=VALUE: “%s”", i + 1, line);
          return NULL;
        }
      g_strv_builder_add (builder, line);
    }
  return g_strv_builder_end (builder);
}

static char *
environment_text (SpRecordDialog *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (self->environment);
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

gboolean
sp_record_dialog_get_options (SpRecordDialog *self,
                              SpRecordOptions *options,
                              GError **error)
{
  const char *command = gtk_editable_get_text (GTK_EDITABLE (self->command));
  g_autofree char *environment = environment_text (self);
  g_auto (GStrv) variables = NULL;
  char **argv = NULL;

  memset (options, 0, sizeof *options);
  if (!g_shell_parse_argv (command, NULL, &argv, error))
    {
      g_prefix_error (error, "The command line does not parse: ");
      return FALSE;
    }
  if ((variables = parse_environment (environment, error)) == NULL)
    {
      g_strfreev (argv);
      return FALSE;
    }
  options->argv = argv;
  options->working_directory = g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->directory)));
  options->environment = variables[0] != NULL ? g_steal_pointer (&variables) : NULL;
  options->frequency_hz = (guint) gtk_spin_button_get_value_as_int (self->frequency);
  options->call_graph = g_strdup (call_graphs[gtk_drop_down_get_selected (self->call_graph)].mode);
  options->kernel_stacks = gtk_check_button_get_active (self->kernel);
  options->off_cpu = gtk_check_button_get_active (self->off_cpu);
  return TRUE;
}

void
sp_record_dialog_set_command_line (SpRecordDialog *self,
                                   const char *command_line)
{
  gtk_editable_set_text (GTK_EDITABLE (self->command), command_line);
}

void
sp_record_dialog_set_working_directory (SpRecordDialog *self,
                                        const char *directory)
{
  gtk_editable_set_text (GTK_EDITABLE (self->directory), directory);
}

void
sp_record_dialog_set_environment (SpRecordDialog *self,
                                  const char *lines)
{
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (self->environment), lines, -1);
}

gboolean
sp_record_dialog_set_call_graph (SpRecordDialog *self,
                                 const char *mode)
{
  for (guint i = 0; i < G_N_ELEMENTS (call_graphs); i++)
    if (g_str_equal (call_graphs[i].mode, mode))
      {
        gtk_drop_down_set_selected (self->call_graph, i);
        return TRUE;
      }
  return FALSE;
}

gboolean
sp_record_dialog_record (SpRecordDialog *self)
{
  SpRecordOptions options;
  g_autoptr (GError) error = NULL;

  if (!sp_record_dialog_get_options (self, &options, &error))
    {
      gtk_label_set_text (self->message, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->message), TRUE);
      return FALSE;
    }
  sp_record_options_clear (&options);
  g_signal_emit (self, signals[RECORD], 0);
  gtk_window_close (GTK_WINDOW (self));
  return TRUE;
}

const char *
sp_record_dialog_get_message (SpRecordDialog *self)
{
  return gtk_widget_get_visible (GTK_WIDGET (self->message)) ? gtk_label_get_text (self->message) : NULL;
}

static void
record_clicked (SpRecordDialog *self)
{
  sp_record_dialog_record (self);
}

static GtkWidget *
row_label (const char *text,
           GtkWidget *mnemonic_widget)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (text);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), mnemonic_widget);
  return label;
}

static GtkWidget *
hint_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "caption");
  return label;
}

static GtkWidget *
create_environment (SpRecordDialog *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->environment = GTK_TEXT_VIEW (gtk_text_view_new ());
  gtk_text_view_set_monospace (self->environment, TRUE);
  gtk_text_view_set_accepts_tab (self->environment, FALSE);
  g_object_set (self->environment, "top-margin", 4, "bottom-margin", 4, "left-margin", 6, "right-margin", 6, NULL);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->environment));
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 64);
  gtk_scrolled_window_set_has_frame (GTK_SCROLLED_WINDOW (scroller), TRUE);
  return scroller;
}

static GtkWidget *
create_call_graph (SpRecordDialog *self)
{
  const char *labels[G_N_ELEMENTS (call_graphs) + 1] = { NULL };

  for (guint i = 0; i < G_N_ELEMENTS (call_graphs); i++)
    labels[i] = call_graphs[i].label;
  self->call_graph = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (labels));
  gtk_widget_set_halign (GTK_WIDGET (self->call_graph), GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->call_graph),
                               "Frame pointers are cheap but need programs built with them; DWARF copies "
                               "a piece of each stack and unwinds it with the debug information; Automatic "
                               "lets the recorder choose");
  return GTK_WIDGET (self->call_graph);
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
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *record = gtk_button_new_with_mnemonic ("_Record");
  GtkWidget *environment;
  GtkWidget *off_cpu;
  int row = 0;

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
  environment = create_environment (self);
  self->frequency = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (1, 20000, 100));
  gtk_spin_button_set_value (self->frequency, 1000);
  gtk_widget_set_halign (GTK_WIDGET (self->frequency), GTK_ALIGN_START);
  self->kernel = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic ("Include _kernel stacks"));
  gtk_check_button_set_active (self->kernel, TRUE);
  off_cpu = sp_offcpu_option_new (&self->off_cpu);
  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->message, TRUE);
  gtk_label_set_xalign (self->message, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->message), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->message), FALSE);

  g_object_set (grid, "row-spacing", 8, "column-spacing", 12, "margin-top", 18, "margin-bottom", 18,
                "margin-start", 18, "margin-end", 18, NULL);
  gtk_grid_attach (grid, row_label ("_Command", GTK_WIDGET (self->command)), 0, row, 1, 1);
  gtk_grid_attach (grid, GTK_WIDGET (self->command), 1, row++, 1, 1);
  gtk_grid_attach (grid, row_label ("_Working directory", GTK_WIDGET (self->directory)), 0, row, 1, 1);
  gtk_grid_attach (grid, GTK_WIDGET (self->directory), 1, row++, 1, 1);
  gtk_grid_attach (grid, row_label ("_Environment", GTK_WIDGET (self->environment)), 0, row, 1, 1);
  gtk_widget_set_valign (gtk_grid_get_child_at (grid, 0, row), GTK_ALIGN_START);
  gtk_grid_attach (grid, environment, 1, row++, 1, 1);
  gtk_grid_attach (grid, hint_label ("NAME=VALUE, one per line, added to the program’s environment."), 1, row++, 1, 1);
  gtk_grid_attach (grid, row_label ("Samples per _second", GTK_WIDGET (self->frequency)), 0, row, 1, 1);
  gtk_grid_attach (grid, GTK_WIDGET (self->frequency), 1, row++, 1, 1);
  gtk_grid_attach (grid, row_label ("Call _graph", create_call_graph (self)), 0, row, 1, 1);
  gtk_grid_attach (grid, GTK_WIDGET (self->call_graph), 1, row++, 1, 1);
  gtk_grid_attach (grid, GTK_WIDGET (self->kernel), 1, row++, 1, 1);
  gtk_grid_attach (grid, off_cpu, 1, row++, 1, 1);
  gtk_grid_attach (grid, GTK_WIDGET (self->message), 0, row++, 2, 1);
  gtk_window_set_child (GTK_WINDOW (self), GTK_WIDGET (grid));
}

SpRecordDialog *
sp_record_dialog_new (GtkWindow *parent)
{
  return g_object_new (SP_TYPE_RECORD_DIALOG, "transient-for", parent, "modal", TRUE, NULL);
}
