/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report.c: plain aligned text from data/'s aggregations. */
#include "sp-report.h"

#include <string.h>


#include "sp-call-tree.h"
#include "sp-function-list.h"
#include "sp-record-advice.h"
#include "sp-recording-state.h"
#include "sp-spool-summary.h"
#include "sp-stack-counts.h"
#include "sp-stack-roots.h"
#include "sp-unwind-report.h"

static double
percent (guint64 part,
         guint64 whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0.0;
}

/* The samples the transforms kept (drop and focus leave some out): each
 * has one innermost function, so the selfs add up to them. Percentages
 * are of these, as in the tree. */
static guint64
kept_samples (GArray *functions)
{
  guint64 kept = 0;

  for (guint i = 0; i < functions->len; i++)
    kept += g_array_index (functions, SpFunctionCost, i).self;
  return kept;
}

/* The samples the filter keeps: its threads and time range (the counts),
 * then its transforms (--drop's function takes its samples with it). A
 * time metric's costs are times: its samples are the counts'. */
static guint64
summary_samples (const SpFilter *filter,
                 const SpStackCounts *counts,
                 GArray *functions)
{
  if (filter != NULL && filter->transforms->len > 0 && filter->metric == SP_METRIC_CPU)
    return kept_samples (functions);
  return counts->n_samples;
}

static const char *
meta_string (SpProfile *profile,
             const char *key,
             char **owned)
{
  GKeyFile *meta = sp_profile_get_meta (profile);

  *owned = meta != NULL ? g_key_file_get_string (meta, "recording", key, NULL) : NULL;
  return *owned;
}

/* The launched command as a shell would take it back: the side file's
 * list, each argument quoted only when it needs to be ("a;b" stays one
 * argument, 'e f' too). NULL after an attach. */
static char *
command_line (SpProfile *profile)
{
  GKeyFile *meta = sp_profile_get_meta (profile);
  g_auto (GStrv) argv = meta != NULL ? g_key_file_get_string_list (meta, "recording", "command", NULL, NULL) : NULL;
  GString *line;

  if (argv == NULL || argv[0] == NULL)
    return NULL;
  line = g_string_new (NULL);
  for (guint i = 0; argv[i] != NULL; i++)
    {
      gboolean plain = argv[i][0] != '\0';

      for (const char *c = argv[i]; *c != '\0' && plain; c++)
        plain = g_ascii_isalnum (*c) || strchr ("/._-+=:,@%", *c) != NULL;
      if (i > 0)
        g_string_append_c (line, ' ');
      if (plain)
        g_string_append (line, argv[i]);
      else
        {
          g_autofree char *quoted = g_shell_quote (argv[i]);

          g_string_append (line, quoted);
        }
    }
  return g_string_free (line, FALSE);
}

/* "[libc.so.6]", but "[kernel.kallsyms]" as it is and "[-]" for none. */
static const char *
module_label (const SpFunction *f,
              char *buffer,
              gsize size)
{
  if (f->module[0] == '[')
    return f->module;
  g_snprintf (buffer, size, "[%s]", f->module[0] ? f->module : "-");
  return buffer;
}

/* Whether the filter weighs time (ns) rather than samples. */
static gboolean
weighs_time (const SpFilter *filter)
{
  return filter != NULL && filter->metric != SP_METRIC_CPU;
}

static const char *
metric_label (const SpFilter *filter)
{
  return filter->metric == SP_METRIC_OFF_CPU ? "off-CPU" : "wall";
}

/* With a time metric, the self and total times (s) follow the shares. */
static void
print_function_row (SpProfile *profile,
                    const SpFilter *filter,
                    const SpFunctionCost *cost,
                    guint64 n_samples,
                    FILE *out)
{
  const SpFunction *f = sp_profile_get_function (profile, cost->function);
  char label[256];

  if (weighs_time (filter))
    fprintf (out, "%7.2f%% %7.2f%% %10.3f %10.3f  %s  %s\n", percent (cost->self, n_samples),
             percent (cost->total, n_samples), cost->self / 1e9, cost->total / 1e9, f->name,
             module_label (f, label, sizeof label));
  else
    fprintf (out, "%7.2f%% %7.2f%% %10" G_GUINT64_FORMAT "  %s  %s\n",
             percent (cost->self, n_samples), percent (cost->total, n_samples), cost->self,
             f->name, module_label (f, label, sizeof label));
}

/* The unwinding report of a dwarf/auto recording: how stacks ended, and
 * the modules where they stop, with why and what helps. Whether a stack
 * reaches its thread's root is read from the stack itself (the unwinder
 * may end a stack it takes for whole anywhere, and stop at _start). */
static void
print_unwinding (SpProfile *profile,
                 const SpStackRoots *roots,
                 FILE *out)
{
  g_autoptr (SpUnwindReport) report = sp_unwind_report_new (sp_profile_get_meta (profile));
  g_autoptr (GPtrArray) advice = NULL;
  g_autofree char *how = NULL;
  guint64 n;

  if (report == NULL)
    return;
  n = report->samples;
  how = sp_record_advice_call_graph (report->recorded_by, report->call_graph, report->stack_size);
  fprintf (out, "\nunwinding (%s):\n", how);
  fprintf (out, "  %" G_GUINT64_FORMAT " stacks: %.1f%% reach the thread's root, %.1f%% truncated (copy too small), "
           "%.1f%% stop early; %.1f%% through frame pointers; %" G_GUINT64_FORMAT " dropped\n",
           n, sp_stack_roots_rooted_percent (roots), percent (report->truncated, n), percent (report->stopped, n),
           percent (report->frame_pointer, n), report->dropped);
  fprintf (out, "  %-28s %9s %9s %9s  %s\n", "module", "samples", "stop here", "cut here", "unwind tables");
  for (guint i = 0; i < report->modules->len; i++)
    {
      const SpUnwindModuleStats *m = g_ptr_array_index (report->modules, i);

      fprintf (out, "  %-28s %9" G_GUINT64_FORMAT " %8.1f%% %8.1f%%  %s%s%s\n", sp_unwind_module_name (m), m->samples,
               percent (m->stopped, n), percent (m->truncated, n),
               m->eh_frame ? ".eh_frame " : "", m->debug_frame ? ".debug_frame " : "",
               !m->readable ? "(unreadable)" : !m->eh_frame && !m->debug_frame ? "none" : "");
    }
  advice = sp_unwind_report_advice (report, 1.0);
  for (guint i = 0; i < advice->len; i++)
    fprintf (out, "  ! %s\n", (const char *) g_ptr_array_index (advice, i));
}

/* The samples' span in the file: first to last. */
static guint64
recorded_ns (const SpSpoolReader *reader)
{
  guint64 first, last;

  return sp_spool_reader_get_sample_time_span (reader, &first, &last) ? last - first : 0;
}

static SpRecordingState
recording_state (SpProfile *profile)
{
  return sp_recording_state_get (sp_profile_get_path (profile), sp_profile_get_meta (profile));
}

char *
sp_report_recording_state (SpProfile *profile)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);

  return sp_recording_state_describe (recording_state (profile), sp_spool_reader_get_n_samples (reader),
                                      recorded_ns (reader));
}

/* The side file's lost count; while recording, or when the recorder
 * died, only as of its last rewrite. */
static void
print_lost (SpProfile *profile,
            FILE *out)
{
  g_autofree char *lost = NULL;

  meta_string (profile, "lost_samples", &lost);
  if (lost == NULL)
    fprintf (out, "lost:      unknown (%s)\n",
             sp_profile_get_meta_problem (profile) != NULL ? "the side file is damaged" : "no side file");
  else if (recording_state (profile) == SP_RECORDING_STATE_COMPLETE)
    fprintf (out, "lost:      %s\n", lost);
  else
    fprintf (out, "lost:      %s or more (counted until the side file was last written)\n", lost);
}

/* The side file's error: the spool could not be written (a full disk),
 * so the recording ends before its program did. */
static void
print_stopped_early (SpProfile *profile,
                     FILE *out)
{
  g_autofree char *error = NULL;

  if (meta_string (profile, "error", &error) != NULL)
    fprintf (out, "recording: stopped early: cannot write %s: %s\n", sp_profile_get_path (profile), error);
}

/* How many stacks reach their thread's root, whatever the mode; in fp
 * mode, what would do better when many do not. */
static void
print_stack_roots (SpProfile *profile,
                   const SpStackRoots *roots,
                   FILE *out)
{
  g_autofree char *call_graph = NULL;
  double broken = sp_stack_roots_broken_percent (roots);

  if (roots->n_stacks == 0)
    return;
  meta_string (profile, "call_graph", &call_graph);
  fprintf (out, "\nstacks: %.1f%% of %" G_GUINT64_FORMAT " reach their thread's root; %.1f%% miss their outer frames\n",
           sp_stack_roots_rooted_percent (roots), roots->n_stacks, broken);
  if (broken >= SP_STACK_ROOTS_WARN_PERCENT && call_graph != NULL && g_str_equal (call_graph, "fp"))
    fprintf (out, "  ! frame pointers do not hold in this program: %s\n",
             sp_record_advice_unwind (sp_recorded_by (sp_profile_get_meta (profile))));
}

/* "pid 1234, 5678": the processes an attach (-p) recorded, from the
 * side file; NULL after a launch. */
static char *
attached_pids (SpProfile *profile)
{
  GKeyFile *meta = sp_profile_get_meta (profile);
  g_auto (GStrv) pids = meta != NULL ? g_key_file_get_string_list (meta, "recording", "attached_pids", NULL, NULL)
                                     : NULL;
  g_autofree char *joined = NULL;

  if (pids == NULL || pids[0] == NULL)
    return NULL;
  joined = g_strjoinv (", ", pids);
  return g_strdup_printf ("pid %s", joined);
}

/* -a: the CPUs, and the idle task's samples, which the spool leaves out
 * (docs/SYSTEM-WIDE.md): their share of every sample the CPUs took. */
static void
print_system_wide (SpProfile *profile,
                   FILE *out)
{
  GKeyFile *meta = sp_profile_get_meta (profile);
  g_auto (GStrv) cpus = NULL;
  g_autofree char *joined = NULL;
  guint64 idle, samples;

  if (meta == NULL || !g_key_file_get_boolean (meta, "recording", "system_wide", NULL))
    return;
  cpus = g_key_file_get_string_list (meta, "recording", "cpus", NULL, NULL);
  joined = cpus != NULL ? g_strjoinv (", ", cpus) : g_strdup ("?");
  idle = g_key_file_get_uint64 (meta, "recording", "idle_samples", NULL);
  samples = g_key_file_get_uint64 (meta, "recording", "samples", NULL);
  fprintf (out, "recorded:  the whole system (-a), CPUs %s\n", joined);
  fprintf (out, "idle:      %" G_GUINT64_FORMAT " samples (%.1f%% of the CPUs' samples; not in the spool)\n", idle,
           samples + idle > 0 ? 100.0 * idle / (samples + idle) : 0.0);
}

/* The off-CPU line: what the side file counted, whether the blocked
 * stacks were recorded, and what is wrong with the companion; nothing
 * for a recording without --off-cpu and without companion. */
static void
print_off_cpu (const SpSpoolSummary *s,
               FILE *out)
{
  if (s->off_cpu_recorded)
    {
      fprintf (out, "off-CPU:   %" G_GUINT64_FORMAT " switches", s->off_cpu_switches);
      if (s->off_cpu_read)
        fprintf (out, " over %.3f s", s->off_cpu_span_ns / 1e9);
      fprintf (out, ", %" G_GUINT64_FORMAT " lost, %" G_GUINT64_FORMAT " stacks dropped; ", s->off_cpu_lost,
               s->off_cpu_dropped);
      if (s->off_cpu_stacks_reason != NULL)
        fprintf (out, "blocked stacks not recorded: %s\n", s->off_cpu_stacks_reason);
      else
        fprintf (out, "blocked stacks recorded\n");
    }
  else if (s->off_cpu_read)
    fprintf (out, "off-CPU:   read over %.3f s (the side file counts nothing of it)\n", s->off_cpu_span_ns / 1e9);
  else if (s->perf_input != NULL)
    fprintf (out, "off-CPU:   none: " SP_RECORD_ADVICE_NO_OFF_CPU_FROM_PERF "\n");
  if (s->off_cpu_problem != NULL)
    fprintf (out, "off-CPU:   %s\n", s->off_cpu_problem);
}

/* A recording converted from a perf.data (stackpulse-record --input)
 * says so, and how perf made it: it has no command of its own. */
static void
print_perf_input (const SpPerfInput *input,
                  FILE *out)
{
  g_autofree char *file = sp_perf_input_describe_file (input);
  g_autofree char *others = sp_perf_input_other_events_hint (input, NULL);

  fprintf (out, "converted: from %s\n", file);
  if (input->perf_cmdline != NULL)
    fprintf (out, "perf:      %s\n", input->perf_cmdline);
  if (input->event != NULL)
    fprintf (out, "event:     %s%s%s\n", input->event, others != NULL ? "; " : "", others != NULL ? others : "");
}

void
sp_report_symbol_cache (SpProfile *profile,
                        FILE *out)
{
  SpSymbolCacheStats stats;

  sp_profile_get_symbol_cache_stats (profile, &stats);
  fprintf (out, "symbols:   %" G_GUINT64_FORMAT " addresses from the symbol cache, %" G_GUINT64_FORMAT
           " from the module files (modules whose DWARF was read: %u)\n", stats.hits, stats.misses, stats.dwarf_opened);
}

void
sp_report_summary (SpProfile *profile,
                   const SpFilter *filter,
                   FILE *out)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  g_autoptr (SpStackCounts) counts = sp_stack_counts_new (profile, filter);
  g_autoptr (GArray) functions = sp_function_list_new (profile, filter, counts);
  g_autofree char *command = command_line (profile);
  g_autofree char *attached = attached_pids (profile);
  g_autofree char *state = sp_report_recording_state (profile);
  gsize n = sp_spool_reader_get_n_samples (reader);
  const GPtrArray *problems;
  SpSpoolSummary summary;

  fprintf (out, "file:      %s\n", sp_profile_get_path (profile));
  sp_spool_summary_from_profile (profile, &summary);
  if (summary.perf_input != NULL)
    print_perf_input (summary.perf_input, out);
  if (command != NULL)
    fprintf (out, "command:   %s\n", command);
  else if (attached != NULL)
    fprintf (out, "attached:  %s\n", attached);
  print_system_wide (profile, out);
  /* Samples and off-CPU records: a sleeping program waits long. */
  fprintf (out, "duration:  %.3f s\n", summary.duration_ns / 1e9);
  fprintf (out, "samples:   %" G_GUINT64_FORMAT " (of %" G_GSIZE_FORMAT " in the file)\n",
           summary_samples (filter, counts, functions), n);
  fprintf (out, "threads:   %" G_GSIZE_FORMAT "\n", sp_spool_reader_get_n_threads (reader));
  print_lost (profile, out);
  print_off_cpu (&summary, out);
  if (state != NULL)
    fprintf (out, "recording: %s\n", state);
  print_stopped_early (profile, out);
  if (sp_profile_get_damage (profile) != NULL)
    fprintf (out, "damage:    %s\n", sp_profile_get_damage (profile));
  fprintf (out, "\ntop functions (self):\n%8s %8s %10s  %s\n", "self", "total", "samples", "function");
  for (guint i = 0; i < MIN (functions->len, 20u); i++)
    print_function_row (profile, NULL, &g_array_index (functions, SpFunctionCost, i), kept_samples (functions), out);
  print_stack_roots (profile, &summary.roots, out);
  print_unwinding (profile, &summary.roots, out);
  problems = sp_profile_get_symbol_problems (profile);
  if (problems->len > 0)
    {
      fprintf (out, "\nsymbol problems:\n");
      for (guint i = 0; i < problems->len; i++)
        fprintf (out, "  %s\n", (const char *) g_ptr_array_index (problems, i));
    }
  sp_spool_summary_clear (&summary);
}

void
sp_report_top (SpProfile *profile,
               const SpFilter *filter,
               const SpReportOptions *options,
               FILE *out)
{
  g_autoptr (SpStackCounts) counts = sp_stack_counts_new (profile, filter);
  g_autoptr (GArray) functions = sp_function_list_new (profile, filter, counts);
  guint limit = options->limit ? MIN (options->limit, functions->len) : functions->len;
  guint64 kept = kept_samples (functions);

  if (weighs_time (filter))
    fprintf (out, "%8s %8s %10s %10s  %s\n", "self", "total", "self_s", "total_s", "function  [module]");
  else
    fprintf (out, "%8s %8s %10s  %s\n", "self", "total", "samples", "function  [module]");
  for (guint i = 0; i < limit; i++)
    print_function_row (profile, filter, &g_array_index (functions, SpFunctionCost, i), kept, out);
}

static void
print_tree_node (SpProfile *profile,
                 const SpFilter *filter,
                 const SpCallTree *tree,
                 guint32 node,
                 guint depth,
                 guint64 min_samples,
                 FILE *out)
{
  g_autoptr (GArray) children = sp_call_tree_get_children (tree, node);
  guint64 all = tree->nodes[0].total;

  for (guint i = 0; i < children->len; i++)
    {
      guint32 child = g_array_index (children, guint32, i);
      const SpCallTreeNode *n = &tree->nodes[child];
      const SpFunction *f = sp_profile_get_function (profile, n->function);
      char label[256];

      if (n->total < min_samples)
        continue;
      fprintf (out, "%7.2f%% %7.2f%% ", percent (n->total, all), percent (n->self, all));
      if (weighs_time (filter))
        fprintf (out, "%10.3f ", n->total / 1e9);
      fprintf (out, "%*s%s  %s\n", (int) depth * 2, "", f->name, module_label (f, label, sizeof label));
      print_tree_node (profile, filter, tree, child, depth + 1, min_samples, out);
    }
}

void
sp_report_tree (SpProfile *profile,
                const SpFilter *filter,
                const SpReportOptions *options,
                FILE *out)
{
  /* Top-down, only the nodes it prints are built. */
  g_autoptr (SpCallTree) tree = options->bottom_up
                                  ? sp_call_tree_new (profile, filter, NULL, TRUE)
                                  : sp_call_tree_new_heavy (profile, filter, NULL, options->min_percent / 100.0);
  guint64 min_samples = sp_call_tree_min_total (options->min_percent / 100.0, tree->nodes[0].total);

  if (weighs_time (filter))
    fprintf (out, "%8s %8s %10s  %s (%s, %.3f s %s)\n", "total", "self", "total_s", "function",
             options->bottom_up ? "bottom-up" : "top-down", tree->nodes[0].total / 1e9, metric_label (filter));
  else
    fprintf (out, "%8s %8s  %s (%s, %" G_GUINT64_FORMAT " samples)\n", "total", "self", "function",
             options->bottom_up ? "bottom-up" : "top-down", tree->nodes[0].total);
  print_tree_node (profile, filter, tree, 0, 0, min_samples, out);
}

gboolean
sp_report_callers_callees (SpProfile *profile,
                           const SpFilter *filter,
                           const char *name,
                           gboolean callers,
                           FILE *out)
{
  g_autoptr (SpStackCounts) counts = sp_stack_counts_new (profile, filter);
  /* Functions are named as stacks are resolved: this resolves them all. */
  g_autoptr (GArray) all = sp_function_list_new (profile, filter, counts);
  g_autoptr (GArray) matches = sp_profile_find_functions (profile, name);
  guint64 kept = kept_samples (all);

  if (matches->len == 0)
    return FALSE;
  for (guint m = 0; m < matches->len; m++)
    {
      guint32 function = g_array_index (matches, guint32, m);
      g_autoptr (GArray) caller_list = NULL;
      g_autoptr (GArray) callee_list = NULL;
      SpFunctionCost cost;
      GArray *list;

      sp_function_list_callers_callees (profile, filter, counts, function, &cost, &caller_list, &callee_list);
      char label[256];
      g_autofree char *amount = weighs_time (filter)
                                  ? g_strdup_printf ("%.3f s %s", cost.total / 1e9, metric_label (filter))
                                  : g_strdup_printf ("%" G_GUINT64_FORMAT " samples", cost.total);

      fprintf (out, "%s  %s: self %.2f%%, total %.2f%% (%s)\n",
               sp_profile_get_function (profile, function)->name,
               module_label (sp_profile_get_function (profile, function), label, sizeof label),
               percent (cost.self, kept), percent (cost.total, kept), amount);
      fprintf (out, "%8s %8s  %s\n", "total", "self", callers ? "called from" : "calls");
      list = callers ? caller_list : callee_list;
      for (guint i = 0; i < list->len; i++)
        {
          const SpFunctionCost *c = &g_array_index (list, SpFunctionCost, i);
          const char *other = c->function == SP_FUNCTION_LIST_ROOT ? "[stack root]"
                                                                   : sp_profile_get_function (profile, c->function)->name;

          fprintf (out, "%7.2f%% %7.2f%%  %s\n", percent (c->total, kept), percent (c->self, kept), other);
        }
      if (m + 1 < matches->len)
        fputc ('\n', out);
    }
  return TRUE;
}
