/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-open.c: Open…, and perf.data files converted before they open.
 *
 * A file the user opens that is a perf.data, by its content whatever its
 * name (sp-file-kind.h), is converted first by stackpulse-record --input
 * (sp-perf-data-import.c) into the user's cache, while the loading page
 * shows a progress bar and Cancel. The spool it gives then opens like any
 * recording, named for its perf.data: the title, the recent files and the
 * Summary say the perf.data, and the converter's warnings (a damaged
 * perf.data) show above the views. A perf.data opened again reuses its
 * finished conversion. Cancel goes back to what the window showed. */
#include "sp-window-private.h"

#include "sp-file-kind.h"
#include "sp-perf-data-import.h"
#include "sp-window-testing.h"

/* A conversion in this window, and what to go back to when it is
 * cancelled. */
typedef struct _SpWindowConversion {
  SpPerfDataImport *import;
  GFile            *source;        /* the perf.data */
  char             *title_before;
  const char       *page_before;   /* interned */
} SpWindowConversion;

/* ---- The loading page ---------------------------------------------------- */

/* Under the loading page's text: a progress bar, the bytes and samples so
 * far, and Cancel. Made by the first conversion, so that a window that
 * converts nothing has no second Cancel (debuginfod's) to tell apart. */
static void
make_conversion_widgets (SpWindow *self)
{
  GtkBox *page = GTK_BOX (gtk_widget_get_parent (GTK_WIDGET (self->loading_label)));
  GtkWidget *cancel = gtk_button_new_with_mnemonic ("_Cancel");

  self->convert_progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_widget_set_size_request (GTK_WIDGET (self->convert_progress), 360, -1);
  self->convert_detail = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->convert_detail), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->convert_detail), "numeric");
  gtk_widget_set_halign (cancel, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (cancel, "pill");
  gtk_widget_set_tooltip_text (cancel, "Stop converting; nothing is kept");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (cancel), "win.cancel-conversion");
  self->convert_cancel = cancel;
  gtk_box_append (page, GTK_WIDGET (self->convert_progress));
  gtk_box_append (page, GTK_WIDGET (self->convert_detail));
  gtk_box_append (page, cancel);
}

/* The loading page as it is for a spool being read, or for a conversion:
 * a progress bar and Cancel instead of the spinner. */
static void
show_loading (SpWindow *self,
              gboolean converting)
{
  if (converting && self->convert_cancel == NULL)
    make_conversion_widgets (self);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), !converting);
  if (self->convert_cancel != NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->convert_progress), converting);
      gtk_widget_set_visible (GTK_WIDGET (self->convert_detail), converting);
      gtk_widget_set_visible (self->convert_cancel, converting);
    }
  if (converting)
    {
      gtk_spinner_stop (self->spinner);
      gtk_progress_bar_set_fraction (self->convert_progress, 0);
      gtk_label_set_text (self->convert_detail, "Starting…");
      return;
    }
  gtk_label_set_text (self->loading_label, "Reading the recording…");
}

/* "12.3 MB of 40.0 MB  ·  1234 samples" */
static void
conversion_progress (SpPerfDataImport *import,
                     guint64 done,
                     guint64 total,
                     guint64 samples,
                     SpWindow *self)
{
  g_autofree char *done_text = g_format_size (done);
  g_autofree char *total_text = g_format_size (total);
  g_autofree char *text = NULL;

  if (total > 0)
    {
      gtk_progress_bar_set_fraction (self->convert_progress, MIN (1.0, (double) done / (double) total));
      text = g_strdup_printf ("%s of %s  ·  %" G_GUINT64_FORMAT " samples", done_text, total_text, samples);
    }
  else
    {
      /* A perf.data read from a pipe says no size. */
      gtk_progress_bar_pulse (self->convert_progress);
      text = g_strdup_printf ("%s read  ·  %" G_GUINT64_FORMAT " samples", done_text, samples);
    }
  gtk_label_set_text (self->convert_detail, text);
}

/* ---- Conversions ----------------------------------------------------------- */

static void
conversion_free (SpWindowConversion *conversion)
{
  g_object_unref (conversion->import);
  g_object_unref (conversion->source);
  g_free (conversion->title_before);
  g_free (conversion);
}

/* The window lets go of its conversion; a converter still running is
 * stopped (it removes what it wrote). */
static void
drop_conversion (SpWindow *self)
{
  SpWindowConversion *conversion = g_steal_pointer (&self->conversion);

  if (conversion == NULL)
    return;
  g_signal_handlers_disconnect_by_data (conversion->import, self);
  sp_perf_data_import_cancel (conversion->import);
  conversion_free (conversion);
}

/* The converted spool opens as any recording, named for its perf.data. */
static void
open_converted (SpWindow *self,
                GFile *source,
                const char *spool_path,
                char *warnings)
{
  g_autoptr (GFile) spool = g_file_new_for_path (spool_path);

  g_set_object (&self->converted_from, source);
  g_free (self->convert_warnings);
  self->convert_warnings = warnings;
  show_loading (self, FALSE);
  _sp_window_open_spool (self, spool);
}

/* The error page, with why source was not converted. */
static void
show_failure (SpWindow *self,
              GFile *source,
              const char *why)
{
  g_autofree char *text = g_strdup_printf ("Cannot convert this perf.data file.\n%s", why);

  show_loading (self, FALSE);
  _sp_window_set_file_title (self, source);
  gtk_label_set_text (self->error_label, text);
  gtk_widget_set_visible (self->elevate_button, FALSE);
  _sp_window_show_profile_controls (self, FALSE);
  gtk_stack_set_visible_child_name (self->pages, "error");
  /* Cancel had the focus: not the explanation (a focused selectable
   * label selects all of it). */
  gtk_window_set_focus (GTK_WINDOW (self), NULL);
  gtk_label_select_region (self->error_label, 0, 0);
}

static void
conversion_finished (SpPerfDataImport *import,
                     gboolean converted,
                     SpWindow *self)
{
  SpWindowConversion *conversion = self->conversion;
  g_autofree char *error = g_strdup (sp_perf_data_import_get_error (import));
  g_autofree char *output = g_strdup (sp_perf_data_import_get_output (import));
  g_autoptr (GFile) source = g_object_ref (conversion->source);

  drop_conversion (self);
  if (converted)
    open_converted (self, source, output, g_strdup (sp_perf_data_import_get_warnings (import)));
  else
    show_failure (self, source, error);
}

/* What the window showed, to go back to on Cancel. A file being read
 * gives way (its result would replace the conversion's page). */
static void
remember_before (SpWindow *self,
                 SpWindowConversion *conversion,
                 SpWindowConversion *replaced)
{
  const char *page = gtk_stack_get_visible_child_name (self->pages);

  if (replaced != NULL)
    {
      conversion->page_before = replaced->page_before;
      conversion->title_before = g_strdup (replaced->title_before);
      return;
    }
  if (g_strcmp0 (page, "loading") == 0)
    {
      sp_analysis_stop (self->analysis);
      page = "start";
      gtk_window_set_title (GTK_WINDOW (self), "stackpulse");
    }
  conversion->page_before = g_intern_string (page);
  conversion->title_before = g_strdup (gtk_window_get_title (GTK_WINDOW (self)));
}

static void
show_converting (SpWindow *self,
                 GFile *source)
{
  g_autofree char *name = g_file_get_basename (source);
  g_autofree char *title = g_strdup_printf ("%s — converting — stackpulse", name);
  g_autofree char *text = g_strdup_printf ("Converting %s…", name);

  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (self->loading_label, text);
  gtk_widget_set_visible (GTK_WIDGET (self->start_note), FALSE);
  show_loading (self, TRUE);
  _sp_window_show_profile_controls (self, FALSE);
  gtk_stack_set_visible_child_name (self->pages, "loading");
  gtk_widget_grab_focus (self->convert_cancel);
}

static void
start_conversion (SpWindow *self,
                  GFile *source,
                  const char *path,
                  const char *output,
                  SpWindowConversion *replaced)
{
  g_autoptr (GError) error = NULL;
  SpPerfDataImport *import = sp_perf_data_import_start (path, output, &error);

  if (import == NULL)
    {
      show_failure (self, source, error->message);
      return;
    }
  self->conversion = g_new0 (SpWindowConversion, 1);
  self->conversion->import = import;
  self->conversion->source = g_object_ref (source);
  remember_before (self, self->conversion, replaced);
  g_signal_connect (import, "progress", G_CALLBACK (conversion_progress), self);
  g_signal_connect (import, "finished", G_CALLBACK (conversion_finished), self);
  show_converting (self, source);
}

/* A conversion running gives way to the file opened now: returned, to
 * know what the window showed before it. */
static SpWindowConversion *
give_way (SpWindow *self)
{
  SpWindowConversion *replaced = g_steal_pointer (&self->conversion);

  if (replaced != NULL)
    {
      g_signal_handlers_disconnect_by_data (replaced->import, self);
      sp_perf_data_import_cancel (replaced->import);
      show_loading (self, FALSE);
    }
  g_clear_object (&self->converted_from);
  g_clear_pointer (&self->convert_warnings, g_free);
  gtk_widget_set_visible (GTK_WIDGET (self->start_note), FALSE);
  return replaced;
}

gboolean
_sp_window_open_perf_data (SpWindow *self,
                           GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *output = NULL;
  g_autoptr (GError) error = NULL;
  SpWindowConversion *replaced = give_way (self);
  gboolean perf_data = path != NULL && sp_file_kind_is_perf_data (path);

  if (perf_data)
    output = sp_perf_data_import_cache_path (path, &error);
  if (perf_data && output == NULL)
    show_failure (self, file, error->message);
  else if (perf_data && sp_perf_data_import_is_done (output))
    open_converted (self, file, output, sp_perf_data_import_read_warnings (output));
  else if (perf_data)
    start_conversion (self, file, path, output, replaced);
  g_clear_pointer (&replaced, conversion_free);
  return perf_data;
}

static void
cancel_conversion_activated (GtkWidget *widget,
                             const char *action_name,
                             GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);
  SpWindowConversion *conversion = self->conversion;
  g_autofree char *name = NULL;
  g_autofree char *note = NULL;

  if (conversion == NULL)
    return;
  name = g_file_get_basename (conversion->source);
  note = g_strdup_printf ("Converting %s was cancelled.", name);
  gtk_window_set_title (GTK_WINDOW (self), conversion->title_before);
  _sp_window_show_profile_controls (self, conversion->page_before == g_intern_static_string ("profile"));
  gtk_stack_set_visible_child_name (self->pages, conversion->page_before);
  /* Where the user is back: the start page's note, or the status line. */
  gtk_label_set_text (conversion->page_before == g_intern_static_string ("start") ? self->start_note
                                                                                  : self->status_label, note);
  gtk_widget_set_visible (GTK_WIDGET (self->start_note), conversion->page_before == g_intern_static_string ("start"));
  show_loading (self, FALSE);
  drop_conversion (self);
}

GFile *
_sp_window_get_opened_file (SpWindow *self)
{
  return self->converted_from != NULL ? self->converted_from : self->file;
}

/* For tests (sp-window-testing.h): the converter, to see it gone. */
GPid
sp_window_get_converter_pid (SpWindow *self)
{
  return self->conversion != NULL ? sp_perf_data_import_get_pid (self->conversion->import) : 0;
}

/* ---- Open… --------------------------------------------------------------- */

static void
chooser_response (GtkNativeDialog *dialog,
                  int response,
                  gpointer user_data)
{
  SpWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      sp_window_open (self, file);
    }
  g_clear_object (&self->chooser);
}

/* Recordings (spools, and the perf.data files perf names perf.data,
 * perf.data.old, or anything.data), then everything: a perf.data is known
 * by its content, so one named otherwise opens from "All files". */
static void
add_filters (GtkFileChooser *chooser)
{
  g_autoptr (GtkFileFilter) recordings = gtk_file_filter_new ();
  g_autoptr (GtkFileFilter) all = gtk_file_filter_new ();

  gtk_file_filter_set_name (recordings, "Recordings (*.spool, perf.data)");
  gtk_file_filter_add_pattern (recordings, "*.spool");
  gtk_file_filter_add_pattern (recordings, "perf.data*");
  gtk_file_filter_add_pattern (recordings, "*.data");
  gtk_file_filter_set_name (all, "All files");
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (chooser, recordings);
  gtk_file_chooser_add_filter (chooser, all);
}

static void
open_activated (GtkWidget *widget,
                const char *action_name,
                GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new ("Open a Recording", GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
  add_filters (GTK_FILE_CHOOSER (self->chooser));
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

void
_sp_window_open_dispose (SpWindow *self)
{
  drop_conversion (self);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->converted_from);
  g_clear_pointer (&self->convert_warnings, g_free);
}

void
_sp_window_open_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_bind_template_child (widget_class, SpWindow, loading_label);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, start_note);
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_activated);
  gtk_widget_class_install_action (widget_class, "win.cancel-conversion", NULL, cancel_conversion_activated);
}
