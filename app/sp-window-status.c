/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-status.c: the status line, its warning, and the Summary page.
 *
 * What the window says about the recording: figures once they are known
 * (opened or finished), progress while it grows, symbol problems that
 * leave frames as addresses, and damage. */
#include "sp-window-private.h"

#include <string.h>

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

/* The converter's words to a terminal's user, on a file of several
 * events: "X has 2 events (cycles, page-faults): converting cycles
 * (choose with --event NAME)". The window cannot choose: it says which
 * event was converted, and the command that converts another. */
#define CHOOSE_EVENT " (choose with --event NAME)"

static char *
event_choice_line (const char *line,
                   const SpPerfInput *input,
                   const char *source)
{
  const char *converting = g_strrstr (line, ": converting ");
  g_autofree char *head = NULL;
  g_autofree char *event = NULL;
  g_autofree char *others = NULL;

  if (!g_str_has_suffix (line, CHOOSE_EVENT) || converting == NULL)
    return g_strdup (line);
  head = g_strndup (line, converting - line);
  converting += strlen (": converting ");
  event = g_strndup (converting, strlen (converting) - strlen (CHOOSE_EVENT));
  others = input != NULL ? sp_perf_input_other_events_hint (input, source) : NULL;
  return g_strdup_printf ("%s: %s was converted%s%s", head, event, others != NULL ? "; " : "",
                          others != NULL ? others : "");
}

static char *
shown_warnings (const char *warnings,
                const SpPerfInput *input,
                const char *source)
{
  g_auto (GStrv) lines = g_strsplit (warnings, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *shown = event_choice_line (lines[i], input, source);

      g_free (lines[i]);
      lines[i] = shown;
    }
  return g_strjoinv ("\n", lines);
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
  sp_metric_selector_set_recorded_by (self->metric_selector,
                                      s->perf_input != NULL ? SP_RECORDED_BY_PERF : SP_RECORDED_BY_STACKPULSE);
  show_status (self, s);
  /* The converter's words first: a damaged perf.data is why samples are missing. */
  if (self->convert_warnings != NULL)
    {
      g_autofree char *warnings = shown_warnings (self->convert_warnings, s->perf_input, source);

      g_string_append_printf (damage, "Converted from a perf.data file, with warnings:\n%s", warnings);
    }
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

