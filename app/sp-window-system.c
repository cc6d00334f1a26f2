/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-system.c: what the window shows of a recording of the whole
 * system (stackpulse-record -a; docs/SYSTEM-WIDE.md): the timeline's
 * lanes grouped by process, and the Processes page, shown only for such a
 * recording, whose checks hide or show all the
 * threads of a process in every view, through the same filter the
 * Threads page drives (and both pages' checks follow each other). */
#include "sp-window-private.h"

#include "sp-process-rows.h"

static GtkWidget *
processes_page (SpWindow *self)
{
  return gtk_stack_get_child_by_name (self->views, "processes");
}

void
_sp_window_show_processes (SpWindow *self,
                           GArray *rows,
                           guint64 idle_samples,
                           guint n_cpus,
                           guint64 interval_ns)
{
  GtkStackPage *page = gtk_stack_get_page (self->views, processes_page (self));

  sp_process_list_set_rows (self->process_list, rows, idle_samples,
                            self->analysis != NULL ? sp_analysis_get_filter (self->analysis) : NULL);
  /* The timeline groups its lanes by process (before the samples come). */
  sp_timeline_view_set_processes (self->timeline_view, rows, n_cpus, interval_ns);
  if (self->analysis != NULL)
    sp_timeline_view_set_hidden_threads (self->timeline_view, sp_analysis_get_filter (self->analysis));
  /* Hidden while shown, the stack would show another page: the first. */
  if (rows == NULL && g_strcmp0 (gtk_stack_get_visible_child_name (self->views), "processes") == 0)
    gtk_stack_set_visible_child_name (self->views, "threads");
  gtk_stack_page_set_visible (page, rows != NULL);
}

static void
process_toggled (SpProcessList *list,
                 int pid,
                 gboolean shown,
                 SpWindow *self)
{
  GArray *rows = sp_process_list_get_rows (list);

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      const SpProcessRow *row = &g_array_index (rows, SpProcessRow, i);

      if (row->pid != pid)
        continue;
      for (guint t = 0; t < row->threads->len; t++)
        sp_analysis_set_thread_hidden (self->analysis, g_array_index (row->threads, guint32, t), !shown);
    }
  sp_thread_list_update_shown (self->thread_list, sp_analysis_get_filter (self->analysis));
  /* The timeline leaves the process out too, and the CPU-usage lane its samples. */
  sp_timeline_view_set_hidden_threads (self->timeline_view, sp_analysis_get_filter (self->analysis));
}

/* A thread's check on the Threads page: its process's check follows. */
static void
process_check_follows (SpThreadList *list,
                guint thread,
                gboolean shown,
                SpWindow *self)
{
  GArray *rows = sp_process_list_get_rows (self->process_list);
  guint64 idle = 0;

  if (rows == NULL)
    return;
  g_array_ref (rows);
  idle = sp_process_list_get_idle_samples (self->process_list);
  sp_process_list_set_rows (self->process_list, rows, idle, sp_analysis_get_filter (self->analysis));
  g_array_unref (rows);
  sp_timeline_view_set_hidden_threads (self->timeline_view, sp_analysis_get_filter (self->analysis));
}

void
_sp_window_system_init (SpWindow *self)
{
  self->process_list = sp_process_list_new ();
  gtk_widget_set_vexpand (GTK_WIDGET (self->process_list), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self->process_list), TRUE);
  gtk_box_append (GTK_BOX (processes_page (self)), GTK_WIDGET (self->process_list));
  g_signal_connect (self->process_list, "process-toggled", G_CALLBACK (process_toggled), self);
  /* After the window's own handler has told the analysis. */
  g_signal_connect_after (self->thread_list, "thread-toggled", G_CALLBACK (process_check_follows), self);
}
