/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-export.c: Export… (Ctrl+E): what the views show (time range,
 * threads, transforms, metric) as pprof, speedscope or folded stacks.
 *
 * A file chooser (GtkFileChooserNative: GTK 4.8 has no GtkFileDialog)
 * names the file and, in a choice, the format; the analysis's worker
 * writes it between its jobs (data/sp-analysis-export.h: the profile is
 * the worker's), whole or not at all; a label in the status line says
 * what is being written and how it went. */
#include "sp-window-private.h"

#include "sp-analysis-export.h"
#include "sp-window-testing.h"

/* The choice's ids are the formats' names (sp_export_format_from_name). */
static const char *const format_ids[] = { "pprof", "speedscope", "collapsed", NULL };
static const char *const format_labels[] = {
  "pprof (.pb.gz): go tool pprof, Pyroscope, Parca, Grafana",
  "speedscope (.json): speedscope, Firefox Profiler",
  "Folded stacks (.folded): flamegraph.pl, inferno",
  NULL,
};

/* The status line's export label, made the first time. */
static GtkLabel *
export_label (SpWindow *self)
{
  GtkWidget *status_bar;

  if (self->export_label != NULL)
    return self->export_label;
  status_bar = gtk_widget_get_parent (GTK_WIDGET (self->status_label));
  self->export_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->export_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_box_insert_child_after (GTK_BOX (status_bar), GTK_WIDGET (self->export_label),
                              GTK_WIDGET (self->status_label));
  return self->export_label;
}

static void
say (SpWindow *self,
     const char *text,
     gboolean failed)
{
  GtkLabel *label = export_label (self);

  gtk_label_set_text (label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (label), text);
  if (failed)
    gtk_widget_add_css_class (GTK_WIDGET (label), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (label), "error");
}

/* An export on its way: the window (a reference) and the file's name. */
typedef struct {
  SpWindow *self;
  char     *name;
} Pending;

static void
export_done (GObject *source,
             GAsyncResult *result,
             gpointer user_data)
{
  Pending *pending = user_data;
  SpWindow *self = pending->self;
  g_autoptr (GError) error = NULL;
  gboolean done = sp_analysis_export_finish (SP_ANALYSIS (source), result, &error);
  g_autofree char *text = done ? g_strdup_printf ("Exported %s", pending->name)
                               : g_strdup_printf ("Export failed: %s", error->message);

  /* Closed meanwhile: the file is written all the same. */
  if (self->export_label != NULL)
    say (self, text, !done);
  g_object_unref (self);
  g_free (pending->name);
  g_free (pending);
}

static void
start_export (SpWindow *self,
              SpExportFormat format,
              const char *path)
{
  Pending *pending = g_new0 (Pending, 1);
  g_autofree char *text = NULL;

  pending->self = g_object_ref (self);
  pending->name = g_filename_display_basename (path);
  text = g_strdup_printf ("Exporting %s…", pending->name);
  say (self, text, FALSE);
  sp_analysis_export_async (self->analysis, format, path, NULL, export_done, pending);
}

/* The format a name's extension says, if it says one. */
static gboolean
format_of_name (const char *name,
                SpExportFormat *format)
{
  for (SpExportFormat f = SP_EXPORT_COLLAPSED; f <= SP_EXPORT_SPEEDSCOPE; f++)
    if (g_str_has_suffix (name, sp_export_format_extension (f)))
      {
        *format = f;
        return TRUE;
      }
  if (g_str_has_suffix (name, ".json"))
    *format = SP_EXPORT_SPEEDSCOPE;
  else if (g_str_has_suffix (name, ".pprof"))
    *format = SP_EXPORT_PPROF;
  else
    return FALSE;
  return TRUE;
}

/* The name's extension chooses the format where it names one; otherwise
 * the choice does, and its extension is added (a file of that name that
 * exists is not replaced: the chooser asked about another name). */
static void
chooser_response (GtkNativeDialog *dialog,
                  int response,
                  gpointer user_data)
{
  SpWindow *self = user_data;
  g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
  const char *choice = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "format");
  SpExportFormat format = SP_EXPORT_PPROF;

  if (response == GTK_RESPONSE_ACCEPT && path == NULL)
    say (self, "Export failed: choose a file on this computer", TRUE);
  else if (response == GTK_RESPONSE_ACCEPT && format_of_name (path, &format))
    start_export (self, format, path);
  else if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autofree char *named = NULL;

      if (choice != NULL)
        sp_export_format_from_name (choice, &format);
      named = g_strconcat (path, sp_export_format_extension (format), NULL);
      if (g_file_test (named, G_FILE_TEST_EXISTS))
        {
          g_autofree char *display = g_filename_display_basename (named);
          g_autofree char *text = g_strdup_printf ("Export failed: %s exists; choose it by that name to replace it",
                                                   display);
          say (self, text, TRUE);
        }
      else
        start_export (self, format, named);
    }
  g_clear_object (&self->export_chooser);
}

/* "recording" of recording.spool: the name the export is offered. */
static char *
suggested_name (SpWindow *self)
{
  GFile *opened = _sp_window_get_opened_file (self);
  g_autofree char *base = opened != NULL ? g_file_get_basename (opened) : g_strdup ("profile");

  if (g_str_has_suffix (base, ".spool"))
    base[strlen (base) - strlen (".spool")] = '\0';
  return g_steal_pointer (&base);
}

static void
export_activated (GtkWidget *widget,
                  const char *action_name,
                  GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);
  g_autofree char *name = suggested_name (self);
  GFile *opened = _sp_window_get_opened_file (self);
  g_autoptr (GFile) folder = opened != NULL ? g_file_get_parent (opened) : NULL;

  if (self->export_chooser != NULL || sp_analysis_get_profile (self->analysis) == NULL)
    return;
  self->export_chooser = gtk_file_chooser_native_new ("Export", GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                                      "_Export", "_Cancel");
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (self->export_chooser), "format", "Format",
                               (const char **) format_ids, (const char **) format_labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (self->export_chooser), "format", "pprof");
  if (folder != NULL)
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->export_chooser), folder, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->export_chooser), name);
  g_signal_connect (self->export_chooser, "response", G_CALLBACK (chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->export_chooser));
}

void
_sp_window_export_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_activated);
}

void
_sp_window_export_dispose (SpWindow *self)
{
  if (self->export_chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->export_chooser));
  g_clear_object (&self->export_chooser);
  self->export_label = NULL;  /* a child of the status bar, which goes with the window */
}

gboolean
sp_window_export (SpWindow *self,
                  const char *format_name,
                  const char *path)
{
  SpExportFormat format;

  if (sp_analysis_get_profile (self->analysis) == NULL || !sp_export_format_from_name (format_name, &format))
    return FALSE;
  start_export (self, format, path);
  return TRUE;
}

const char *
sp_window_get_export_status (SpWindow *self)
{
  return self->export_label != NULL ? gtk_label_get_text (self->export_label) : "";
}
