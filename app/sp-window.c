/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window.c: the start page, and a recording's headline figures.
 *
 * Reading a spool runs in a GTask thread (data/ does the work); the window
 * only shows the result, so it never freezes on a large file. */
#include "sp-window.h"

#include "sp-spool-summary.h"

struct _SpWindow
{
  GtkApplicationWindow parent_instance;

  /* Template widgets */
  GtkStack            *pages;
  GtkSpinner          *spinner;
  GtkLabel            *damage_label;
  GtkGrid             *figures;
  GtkLabel            *error_label;

  /* Owned references */
  GFile               *file;
  GCancellable        *cancellable;
  GtkFileChooserNative *chooser;
};

G_DEFINE_FINAL_TYPE (SpWindow, sp_window, GTK_TYPE_APPLICATION_WINDOW)

static void
summary_free (gpointer data)
{
  SpSpoolSummary *summary = data;

  sp_spool_summary_clear (summary);
  g_free (summary);
}

static void
load_in_thread (GTask *task,
                gpointer source_object,
                gpointer task_data,
                GCancellable *cancellable)
{
  g_autofree char *path = g_file_get_path (task_data);
  g_autofree SpSpoolSummary *summary = g_new0 (SpSpoolSummary, 1);
  GError *error = NULL;

  if (path == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                             "Only local files can be opened");
  else if (!sp_spool_summary_load (path, summary, &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&summary), summary_free);
}

static void
add_figure (SpWindow *self,
            int row,
            const char *name,
            const char *value)
{
  GtkWidget *name_label = gtk_label_new (name);
  GtkWidget *value_label = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (name_label), 1);
  gtk_widget_add_css_class (name_label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value_label), 0);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  gtk_grid_attach (self->figures, name_label, 0, row, 1, 1);
  gtk_grid_attach (self->figures, value_label, 1, row, 1, 1);
}

static void
show_summary (SpWindow *self,
              const SpSpoolSummary *s)
{
  g_autofree char *path = g_file_get_path (self->file);
  g_autofree char *size = g_format_size (s->file_size);
  g_autofree char *samples = g_strdup_printf ("%u", s->n_samples);
  g_autofree char *threads = g_strdup_printf ("%u in %u processes", s->n_threads, s->n_processes);
  g_autofree char *duration = g_strdup_printf ("%.3f s", s->duration_ns / 1e9);
  g_autofree char *interval = g_strdup_printf ("%" G_GUINT64_FORMAT " µs", s->sample_interval_us);
  g_autofree char *stacks = g_strdup_printf ("%u nodes, deepest %u frames", s->n_stack_nodes, s->max_depth);
  g_autofree char *truncated = g_strdup_printf ("%u samples (%.1f%%)", s->n_truncated_samples,
                                                s->n_samples ? 100.0 * s->n_truncated_samples / s->n_samples : 0.0);
  g_autofree char *modules = g_strdup_printf ("%u", s->n_modules);
  g_autofree char *execs = g_strdup_printf ("%u", s->n_process_execs);
  GtkWidget *child;
  int row = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->figures))) != NULL)
    gtk_grid_remove (self->figures, child);

  add_figure (self, row++, "File", path);
  add_figure (self, row++, "Size", size);
  add_figure (self, row++, "Samples", samples);
  add_figure (self, row++, "Threads", threads);
  add_figure (self, row++, "Duration", duration);
  add_figure (self, row++, "Sampling interval", interval);
  add_figure (self, row++, "Stacks", stacks);
  add_figure (self, row++, "Truncated stacks", truncated);
  add_figure (self, row++, "Mapped modules", modules);
  add_figure (self, row++, "Programs executed", execs);

  gtk_widget_set_visible (GTK_WIDGET (self->damage_label), s->damage != NULL);
  if (s->damage != NULL)
    {
      g_autofree char *text = g_strdup_printf ("This recording is damaged; everything before the damage is shown.\n%s",
                                               s->damage);
      gtk_label_set_text (self->damage_label, text);
    }
  gtk_stack_set_visible_child_name (self->pages, "summary");
}

static void
load_done (GObject *source,
           GAsyncResult *result,
           gpointer user_data)
{
  g_autoptr (SpWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  SpSpoolSummary *summary = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  gtk_spinner_stop (self->spinner);
  if (summary == NULL)
    {
      g_autofree char *text = g_strdup_printf ("Cannot open this recording.\n%s", error->message);

      gtk_label_set_text (self->error_label, text);
      gtk_stack_set_visible_child_name (self->pages, "error");
      return;
    }
  show_summary (self, summary);
  summary_free (summary);
}

void
sp_window_open_file (SpWindow *self,
                     GFile *file)
{
  g_autoptr (GTask) task = NULL;
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *title = g_strdup_printf ("%s — stackpulse", name);

  g_set_object (&self->file, file);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_spinner_start (self->spinner);
  gtk_stack_set_visible_child_name (self->pages, "loading");

  task = g_task_new (NULL, self->cancellable, load_done, g_object_ref (self));
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_in_thread);
}

static void
chooser_response (GtkNativeDialog *dialog,
                  int response,
                  gpointer user_data)
{
  SpWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      sp_window_open_file (self, file);
    }
  g_clear_object (&self->chooser);
}

static void
open_activated (GtkWidget *widget,
                const char *action_name,
                GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    return;
  gtk_file_filter_set_name (filter, "stackpulse recordings");
  gtk_file_filter_add_pattern (filter, "*.spool");
  self->chooser = gtk_file_chooser_native_new ("Open a Recording", GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
close_activated (GtkWidget *widget,
                 const char *action_name,
                 GVariant *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static gboolean
drop_file (GtkDropTarget *target,
           const GValue *value,
           double x,
           double y,
           gpointer user_data)
{
  GSList *files = g_value_get_boxed (value);

  if (files == NULL)
    return FALSE;
  sp_window_open_file (SP_WINDOW (user_data), files->data);
  return TRUE;
}

static void
sp_window_dispose (GObject *object)
{
  SpWindow *self = SP_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->file);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  G_OBJECT_CLASS (sp_window_parent_class)->dispose (object);
}

static void
sp_window_class_init (SpWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stackpulse/Stackpulse/sp-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SpWindow, pages);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, damage_label);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, figures);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, error_label);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_activated);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_activated);
}

static void
sp_window_init (SpWindow *self)
{
  GtkDropTarget *target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  gtk_widget_init_template (GTK_WIDGET (self));
  g_signal_connect (target, "drop", G_CALLBACK (drop_file), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
}

SpWindow *
sp_window_new (SpApplication *app)
{
  return g_object_new (SP_TYPE_WINDOW, "application", app, NULL);
}

const char *
sp_window_get_page (SpWindow *self)
{
  return gtk_stack_get_visible_child_name (self->pages);
}
