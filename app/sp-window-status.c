/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-status.c: the status line, its warning, and the Summary page.
 *
 * What the window says about the recording: figures once they are known
 * (opened or finished), progress while it grows, symbol problems that
 * leave frames as addresses, and damage. */
#include "sp-window-private.h"

#include "sp-status-text.h"
#include "sp-summary-page.h"

/* The status bar's warning: symbol problems that leave frames as
 * addresses, the first named; the rest in its tooltip and on the Summary
 * page it opens. Missing debug info is too common to warn about here. */
void
_sp_window_show_problems (SpWindow *self,
                          const GArray *problems)
{
  g_autofree char *headline = sp_status_text_headline (problems);
  g_autofree char *serious = NULL;
  g_autofree char *tooltip = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->problems_button), headline != NULL);
  if (headline == NULL)
    return;
  serious = sp_status_text_serious (problems);
  tooltip = g_strdup_printf ("%s\n\nFrames in these files show as addresses. Click for the summary.", serious);
  gtk_label_set_text (self->problems_label, headline);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->problems_button), tooltip);
}

/* The status line once the figures are known (a file opened, a
 * recording finished): what was recorded and what was lost. */
static void
show_status (SpWindow *self,
             const SpSpoolSummary *s)
{
  g_autofree char *figures = sp_status_text_figures (s);
  g_autofree char *text = NULL;

  if (self->exit_note != NULL)
    text = g_strdup_printf ("%s  ·  %s", figures, self->exit_note);
  gtk_label_set_text (self->status_label, text != NULL ? text : figures);
  _sp_window_show_problems (self, s->symbol_problems);
}

/* The Summary page, the status line, and the damage (if any). */
void
_sp_window_show_summary (SpWindow *self,
                         const SpSpoolSummary *s)
{
  g_autofree char *path = g_file_get_path (self->file);
  g_autofree char *source = self->converted_from != NULL ? g_file_get_path (self->converted_from) : NULL;
  g_autofree char *shown = source != NULL ? g_strdup_printf ("%s\n(converted to %s)", source, path) : NULL;
  g_autoptr (GString) damage = g_string_new (NULL);

  sp_summary_page_fill (self->figures, shown != NULL ? shown : path, s);
  show_status (self, s);
  /* The converter's words first: a damaged perf.data is why samples are missing. */
  if (self->convert_warnings != NULL)
    g_string_append_printf (damage, "Converted from a perf.data file, with warnings:\n%s", self->convert_warnings);
  if (s->damage != NULL)
    g_string_append_printf (damage, "%sThis recording is damaged; everything before the damage is shown.\n%s",
                            damage->len > 0 ? "\n" : "", s->damage);
  gtk_widget_set_visible (GTK_WIDGET (self->damage_label), damage->len > 0);
  gtk_label_set_text (self->damage_label, damage->str);
}

/* The counters when the recorder cannot send them (under pkexec), or when
 * another recorder writes the spool: what the spool holds so far. */
void
_sp_window_show_progress (SpWindow *self,
                          const SpAnalysisResult *result)
{
  g_autofree char *text = NULL;

  if (sp_window_is_recording (self) && !sp_recording_session_has_progress (self->session))
    {
      g_autoptr (GFileInfo) info = g_file_query_info (self->file, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);
      g_autofree char *size = g_format_size (info != NULL ? (guint64) g_file_info_get_size (info) : 0);

      text = g_strdup_printf ("Recording with administrator rights: %" G_GSIZE_FORMAT " samples, %s",
                              result->n_samples, size);
    }
  else if (self->following && !result->finished)
    {
      guint64 first = 0, last = 0;

      if (self->index != NULL)
        sp_sample_index_get_time_span (self->index, &first, &last);
      text = g_strdup_printf ("Recording in progress (another stackpulse-record): %" G_GSIZE_FORMAT
                              " samples over %.2f s so far", result->n_samples, (last - first) / 1e9);
    }
  if (text != NULL)
    gtk_label_set_text (self->status_label, text);
}

