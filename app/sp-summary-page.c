/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-summary-page.c: the Summary page's figures, a row each. */
#include "sp-summary-page.h"

#include "sp-record-advice.h"
#include "sp-status-text.h"

static void
add_figure (GtkGrid *figures,
            int row,
            const char *name,
            const char *value)
{
  GtkWidget *name_label = gtk_label_new (name);
  GtkWidget *value_label = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (name_label), 1);
  gtk_widget_add_css_class (name_label, "dim-label");
  gtk_label_set_yalign (GTK_LABEL (name_label), 0);
  gtk_label_set_xalign (GTK_LABEL (value_label), 0);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (value_label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (value_label), 90);
  gtk_grid_attach (figures, name_label, 0, row, 1, 1);
  gtk_grid_attach (figures, value_label, 1, row, 1, 1);
}

/* Samples the kernel dropped (its ring buffer was full), and samples the
 * recorder dropped (their stacks could not be unwound in time). */
static char *
lost_text (const SpSpoolSummary *s)
{
  g_autoptr (GString) text = g_string_new (NULL);
  guint64 recorded = s->n_samples + s->lost_samples + s->dropped_samples;

  if (!s->lost_known && s->side_file_problem != NULL)
    return g_strdup_printf ("unknown: %s", s->side_file_problem);
  if (!s->lost_known)
    return g_strdup ("unknown (the recording has no side file)");
  if (s->recording_state == SP_RECORDING_STATE_IN_PROGRESS || s->recording_state == SP_RECORDING_STATE_INTERRUPTED)
    g_string_append (text, "counted until the side file was last written: ");
  if (s->lost_samples == 0 && s->dropped_samples == 0)
    return g_strdup_printf ("%snone", text->str);
  if (s->lost_samples > 0)
    g_string_append_printf (text, "%" G_GUINT64_FORMAT " (%.1f%%): the kernel's ring buffer was full",
                            s->lost_samples, 100.0 * s->lost_samples / recorded);
  if (s->dropped_samples > 0)
    g_string_append_printf (text, "%s%" G_GUINT64_FORMAT " (%.1f%%): their stacks could not be unwound in time",
                            s->lost_samples > 0 ? "\n" : "", s->dropped_samples, 100.0 * s->dropped_samples / recorded);
  return g_strdup (text->str);
}

/* The Summary page's rows on symbols: what leaves frames as addresses,
 * and which modules give no source lines. */
static void
add_symbol_figures (GtkGrid *figures,
                    int *row,
                    const GArray *problems)
{
  g_autofree char *serious = sp_status_text_serious (problems);
  g_autofree char *no_debug = sp_status_text_no_debug_info (problems);
  g_autofree char *advice = sp_status_text_debug_advice (problems);
  g_autofree char *symbols = NULL;
  g_autofree char *debug = NULL;

  symbols = serious != NULL ? g_strdup_printf ("%s\nFrames in these files show as addresses.", serious)
                            : g_strdup ("found for every module");
  debug = no_debug != NULL ? g_strdup_printf ("none for %s: no source lines or inline frames there (%s)", no_debug,
                                              advice)
                           : g_strdup ("found for every module");
  add_figure (figures, (*row)++, "Symbols", symbols);
  add_figure (figures, (*row)++, "Debug info", debug);
}

/* How many stacks reach their thread's root (sp-stack-roots.h), judged
 * from the stacks: a share that misses its outer frames, said as such. */
static void
add_whole_stacks_figure (GtkGrid *figures,
                         int *row,
                         const SpStackRoots *roots)
{
  double broken = sp_stack_roots_broken_percent (roots);
  g_autofree char *text = NULL;

  if (roots->n_stacks == 0)
    return;  /* kernel frames only, or no samples */
  if (broken >= SP_STACK_ROOTS_WARN_PERCENT)
    text = g_strdup_printf ("%.1f%% of %" G_GUINT64_FORMAT " user stacks reach their thread's root: %.1f%% miss "
                            "their outer frames, so their time shows under the wrong callers",
                            sp_stack_roots_rooted_percent (roots), roots->n_stacks, broken);
  else
    text = g_strdup_printf ("%.1f%% of %" G_GUINT64_FORMAT " user stacks reach their thread's root",
                            sp_stack_roots_rooted_percent (roots), roots->n_stacks);
  add_figure (figures, (*row)++, "Whole stacks", text);
}

/* How the user stacks were unwound (--call-graph dwarf or auto), and the
 * modules that stop them, with what helps. */
static void
add_unwinding_figures (GtkGrid *figures,
                       int *row,
                       const SpUnwindReport *report,
                       const SpStackRoots *roots)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GPtrArray) advice = NULL;
  g_autofree char *how = sp_record_advice_call_graph (report->recorded_by, report->call_graph, report->stack_size);
  guint64 n = report->samples;

  g_string_append_printf (text, "%s: %.1f%% of %" G_GUINT64_FORMAT " stacks reach their thread's root, %.1f%% are "
                          "deeper than the copy, %.1f%% stop early", how, sp_stack_roots_rooted_percent (roots), n,
                          sp_unwind_report_percent (report, report->truncated),
                          sp_unwind_report_percent (report, report->stopped));
  if (report->frame_pointer > 0)
    g_string_append_printf (text, "; %.1f%% went through frame pointers",
                            sp_unwind_report_percent (report, report->frame_pointer));
  advice = sp_unwind_report_advice (report, 1.0);
  for (guint i = 0; i < advice->len; i++)
    g_string_append_printf (text, "\n%s", (const char *) g_ptr_array_index (advice, i));
  add_figure (figures, (*row)++, "Unwinding", text->str);
}

/* What --off-cpu recorded: switches, whether blocked stacks came with
 * them (and why not), what was lost, and a companion that could not be
 * used. */
static char *
offcpu_text (const SpSpoolSummary *s)
{
  GString *text = g_string_new (NULL);

  if (!s->off_cpu_recorded && s->off_cpu_problem == NULL && s->perf_input != NULL)
    {
      g_string_append (text, "none: " SP_RECORD_ADVICE_NO_OFF_CPU_FROM_PERF);
      return g_string_free (text, FALSE);
    }
  if (!s->off_cpu_recorded && s->off_cpu_problem == NULL)
    {
      g_string_append (text, "not recorded (record with “Record off-CPU time” or stackpulse-record --off-cpu to see "
                             "where threads wait)");
      return g_string_free (text, FALSE);
    }
  if (s->off_cpu_recorded)
    {
      g_string_append_printf (text, "%" G_GUINT64_FORMAT " switch%s", s->off_cpu_switches,
                              s->off_cpu_switches == 1 ? "" : "es");
      if (s->off_cpu_span_ns > 0)
        g_string_append_printf (text, " over %.3f s", s->off_cpu_span_ns / 1e9);
      g_string_append (text, "; ");
      if (s->off_cpu_stacks_reason != NULL)
        g_string_append_printf (text, "blocked stacks not recorded: %s", s->off_cpu_stacks_reason);
      else
        g_string_append (text, "with blocked stacks");
    }
  if (s->off_cpu_lost > 0)
    g_string_append_printf (text, "\n%" G_GUINT64_FORMAT " switch records lost (the kernel's buffers were full): "
                                  "off-CPU times are less exact", s->off_cpu_lost);
  if (s->off_cpu_dropped > 0)
    g_string_append_printf (text, "\n%" G_GUINT64_FORMAT " blocked stacks dropped (the recorder fell behind): their "
                                  "time shows as [off-CPU: stack not recorded]", s->off_cpu_dropped);
  if (s->off_cpu_problem != NULL)
    g_string_append_printf (text, "%s⚠ %s", text->len > 0 ? "\n" : "", s->off_cpu_problem);
  return g_string_free (text, FALSE);
}

/* A recording converted from a perf.data: which, how perf recorded it,
 * the event converted (and how to convert another), and the state when
 * the conversion did not finish. */
static char *
converted_text (const SpPerfInput *input,
                const char *state)
{
  GString *text = g_string_new (NULL);
  g_autofree char *file = sp_perf_input_describe_file (input);
  g_autofree char *others = sp_perf_input_other_events_hint (input, NULL);

  g_string_append_printf (text, "converted from %s", file);
  if (state != NULL)
    g_string_append_printf (text, "; %s", state);
  if (input->perf_cmdline != NULL)
    g_string_append_printf (text, "\nrecorded with: %s", input->perf_cmdline);
  if (input->event != NULL)
    g_string_append_printf (text, "\nevent: %s", input->event);
  if (others != NULL)
    g_string_append_printf (text, "; %s", others);
  return g_string_free (text, FALSE);
}

/* Whether the recorder finished it; what was saved when it did not. An
 * unknown state has no side file, or one that could not be read (a FIFO,
 * damaged: the Lost samples row says why). */
static char *
recording_text (const SpSpoolSummary *s)
{
  g_autofree char *state = sp_recording_state_describe (s->recording_state, s->n_samples, s->duration_ns);

  if (s->perf_input != NULL)
    return converted_text (s->perf_input, state);
  if (state != NULL)
    return g_steal_pointer (&state);
  if (s->recording_state == SP_RECORDING_STATE_COMPLETE)
    return g_strdup ("complete");
  if (s->side_file_problem != NULL)
    return g_strdup ("unknown (the side file could not be read)");
  return g_strdup ("unknown (the recording has no side file)");
}

/* The spool's size; a conversion's also says the perf.data's, which is
 * what the user has on disk: "13.2 kB (converted from 1.1 MB of
 * perf.data)", or what the converter read of it when the file is not
 * found where the side file says. */
static char *
size_text (const SpSpoolSummary *s)
{
  g_autofree char *size = g_format_size (s->file_size);
  g_autofree char *input = NULL;

  if (s->perf_input == NULL)
    return g_steal_pointer (&size);
  if (s->perf_input->file_size > 0)
    {
      input = g_format_size (s->perf_input->file_size);
      return g_strdup_printf ("%s (converted from %s of perf.data)", size, input);
    }
  input = g_format_size (s->perf_input->input_bytes);
  return g_strdup_printf ("%s (converted from a perf.data, of which %s were read)", size, input);
}

void
sp_summary_page_fill (GtkGrid *figures,
                      const char *path,
                      const SpSpoolSummary *s)
{
  g_autofree char *size = size_text (s);
  g_autofree char *samples = g_strdup_printf ("%u", s->n_samples);
  g_autofree char *threads = g_strdup_printf ("%u in %u processes", s->n_threads, s->n_processes);
  g_autofree char *duration = g_strdup_printf ("%.3f s", s->duration_ns / 1e9);
  g_autofree char *interval = g_strdup_printf ("%" G_GUINT64_FORMAT " µs", s->sample_interval_us);
  g_autofree char *stacks = g_strdup_printf ("%u nodes, deepest %u frames", s->n_stack_nodes, s->max_depth);
  g_autofree char *truncated = g_strdup_printf ("%u samples (%.1f%%)", s->n_truncated_samples,
                                                s->n_samples ? 100.0 * s->n_truncated_samples / s->n_samples : 0.0);
  g_autofree char *modules = g_strdup_printf ("%u", s->n_modules);
  g_autofree char *execs = g_strdup_printf ("%u", s->n_process_execs);
  g_autofree char *lost = lost_text (s);
  g_autofree char *recording = recording_text (s);
  g_autofree char *offcpu = offcpu_text (s);
  GtkWidget *child;
  int row = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (figures))) != NULL)
    gtk_grid_remove (figures, child);

  add_figure (figures, row++, "File", path);
  add_figure (figures, row++, "Recording", recording);
  add_figure (figures, row++, "Size", size);
  add_figure (figures, row++, "Samples", samples);
  add_figure (figures, row++, "Threads", threads);
  add_figure (figures, row++, "Duration", duration);
  add_figure (figures, row++, "Sampling interval", interval);
  add_figure (figures, row++, "Stacks", stacks);
  add_figure (figures, row++, "Lost samples", lost);
  add_figure (figures, row++, "Off-CPU time", offcpu);
  add_figure (figures, row++, "Truncated stacks", truncated);
  if (s->roots_known)
    add_whole_stacks_figure (figures, &row, &s->roots);
  add_figure (figures, row++, "Mapped modules", modules);
  add_figure (figures, row++, "Programs executed", execs);
  if (s->unwinding != NULL)
    add_unwinding_figures (figures, &row, s->unwinding, &s->roots);
  add_symbol_figures (figures, &row, s->symbol_problems);
}
