/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-debuginfod.c: "Fetching debug info for X… (Cancel)".
 *
 * The status line's part for the queue: a label and a Cancel button, made
 * here and placed after the status text, shown while the queue fetches. A
 * newly opened file starts a new queue (the old one's fetch is cancelled
 * and what it says is no longer heard). */
#include "sp-window-debuginfod.h"

#include "sp-debuginfod.h"

static void
on_progress (SpDebuginfodQueue *queue,
             const char *module,
             guint64 received,
             guint64 total,
             SpWindow *self)
{
  g_autofree char *base = g_path_get_basename (module);
  g_autofree char *done = g_format_size (received);
  g_autofree char *size = g_format_size (total);
  guint waiting = sp_debuginfod_queue_get_n_waiting (queue);
  g_autofree char *more = waiting > 0 ? g_strdup_printf (" (%u more)", waiting) : g_strdup ("");
  g_autofree char *text = total > 0 ? g_strdup_printf ("Fetching debug info for %s… %s of %s%s", base, done, size,
                                                       more)
                                    : g_strdup_printf ("Fetching debug info for %s…%s", base, more);

  gtk_label_set_text (self->debuginfod_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->debuginfod_label), module);
  gtk_widget_set_visible (self->debuginfod_bar, TRUE);
}

static void
on_finished (SpDebuginfodQueue *queue,
             guint n_fetched,
             SpWindow *self)
{
  gtk_widget_set_visible (self->debuginfod_bar, FALSE);
  if (n_fetched > 0)
    sp_analysis_reload_symbols (self->analysis);
}

static void
on_cancel (GtkButton *button,
           SpWindow *self)
{
  sp_debuginfod_queue_cancel (self->debuginfod_queue);
}

/* The label and the button, after the status text. */
static void
make_bar (SpWindow *self)
{
  GtkWidget *status_bar = gtk_widget_get_parent (GTK_WIDGET (self->status_label));
  GtkWidget *cancel = gtk_button_new_with_label ("Cancel");

  self->debuginfod_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->debuginfod_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->debuginfod_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_tooltip_text (cancel, "Stop fetching debug info from debuginfod (DEBUGINFOD_URLS)");
  gtk_widget_set_valign (cancel, GTK_ALIGN_CENTER);
  g_signal_connect (cancel, "clicked", G_CALLBACK (on_cancel), self);
  gtk_box_append (GTK_BOX (self->debuginfod_bar), GTK_WIDGET (self->debuginfod_label));
  gtk_box_append (GTK_BOX (self->debuginfod_bar), cancel);
  gtk_widget_set_visible (self->debuginfod_bar, FALSE);
  gtk_box_insert_child_after (GTK_BOX (status_bar), self->debuginfod_bar, GTK_WIDGET (self->status_label));
}

static void
drop_queue (SpWindow *self)
{
  if (self->debuginfod_queue == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->debuginfod_queue, self);
  sp_debuginfod_queue_cancel (self->debuginfod_queue);
  g_clear_object (&self->debuginfod_queue);
}

void
_sp_window_debuginfod_take (SpWindow *self,
                            const SpAnalysisResult *result)
{
  if (!sp_debuginfod_is_enabled ())
    return;
  if (self->debuginfod_bar == NULL)
    make_bar (self);
  if (result->opened || self->debuginfod_queue == NULL)
    {
      drop_queue (self);
      gtk_widget_set_visible (self->debuginfod_bar, FALSE);
      self->debuginfod_queue = sp_debuginfod_queue_new ();
      g_signal_connect (self->debuginfod_queue, "progress", G_CALLBACK (on_progress), self);
      g_signal_connect (self->debuginfod_queue, "finished", G_CALLBACK (on_finished), self);
    }
  sp_debuginfod_queue_add (self->debuginfod_queue, result->missing_debug_info);
}

void
_sp_window_debuginfod_dispose (SpWindow *self)
{
  drop_queue (self);
}
