/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stackpulse-report: text reports and exports of a spool, for terminals
 * and scripts. Everything but `dump` goes through data/, the same model the
 * window uses; `dump` prints the codec's canonical dump. */
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sp-export-file.h"
#include "sp-export.h"
#include "sp-function-list.h"
#include "sp-offcpu-stacks.h"
#include "sp-record-advice.h"
#include "sp-report.h"
#include "sp-spool-dump.h"
#include "sp-spool-reader.h"

/* After the usage line: --help has GOption's own, the error messages
 * print usage_line first. */
static const char usage_line[] = "Usage: stackpulse-report [COMMAND] [OPTIONS] FILE.spool\n\n";
static const char usage_text[] =
  "Commands:\n"
  "  (none)              summary: command, duration, samples, threads, lost, top 20 functions\n"
  "  top FILE            flat list: self %, total %, samples, function, module\n"
  "  tree FILE           indented call tree with total and self (--bottom-up, --min-percent)\n"
  "  callers FUNC FILE   who calls FUNC;  callees FUNC FILE: what FUNC calls\n"
  "  annotate FUNC FILE  FUNC's source lines with self and total shares; --asm: its\n"
  "                      instructions (addresses as objdump -d prints them); --tsv,\n"
  "                      --module M (FUNC in several modules), --source-dir DIR\n"
  "  collapsed FILE      folded stacks for flamegraph.pl, speedscope, inferno (-o OUT: to a file)\n"
  "  pprof FILE -o OUT   pprof's profile.proto, gzip-compressed, for go tool pprof and the\n"
  "                      systems that ingest pprof (Pyroscope, Parca, Grafana)\n"
  "  speedscope FILE     speedscope's JSON, one profile per thread, for speedscope and the\n"
  "                      Firefox Profiler (-o OUT: to a file, else to stdout)\n"
  "  threads FILE        one row per thread: samples, CPU, off-CPU and wall time (--tsv)\n"
  "  processes FILE      one row per process, busiest first: name, command line, samples,\n"
  "                      CPU and share (--tsv); with the idle time of a recording of the\n"
  "                      whole system (stackpulse-record -a)\n"
  "  diff A B            every function by its change from A to B: self and total in each\n"
  "                      (--normalize share|time, --tsv; filters apply to both)\n"
  "  dump FILE           every record of the spool as canonical text\n"
  "\n"
  "--metric cpu|off-cpu|wall (top, tree, callers, callees, collapsed, pprof, speedscope, annotate,\n"
  "diff): on-CPU samples\n"
  "(the default), time off the CPU on its blocking stack, or both as wall-clock time;\n"
  "off-cpu and wall need a recording made with stackpulse-record --off-cpu.\n"
  "\n"
  "Where DEBUGINFOD_URLS is set, modules without symbols or debug info get their\n"
  "debug files, and annotate the sources not found here, from those debuginfod servers\n"
  "(progress on stderr; --no-debuginfod: not).\n";

/* About 31 years: nanoseconds after the first sample still fit in 64 bits. */
#define MAX_TIME_S 1e9

typedef struct {
  gint64    *tids;
  gint64    *pids;
  double     from_s;
  double     to_s;      /* 0: to the end */
  char     **focus;
  char     **merge;
  char     **drop;
  char     **collapse_module;
  gboolean   no_inline;
  gboolean   no_debuginfod;
  gboolean   no_symbol_cache;
  gboolean   symbol_cache_stats;
  gboolean   bottom_up;
  double     min_percent;
  int        limit;
  SpMetric   metric;
  gboolean   tsv;
  SpDiffNormalize normalize;
  gboolean   normalize_given;
  gboolean   asm_view;
  char      *module;
  char     **source_dirs;
  char      *output;
} Options;

/* The commands, whether a function comes before the file, and how many
 * files they take. */
typedef struct {
  const char *name;
  gboolean    takes_function;
  guint       n_files;
} Command;

static const Command commands[] = {
  { "summary", FALSE, 1 },
  { "top", FALSE, 1 },
  { "tree", FALSE, 1 },
  { "callers", TRUE, 1 },
  { "callees", TRUE, 1 },
  { "annotate", TRUE, 1 },
  { "collapsed", FALSE, 1 },
  { "pprof", FALSE, 1 },
  { "speedscope", FALSE, 1 },
  { "threads", FALSE, 1 },
  { "processes", FALSE, 1 },
  { "diff", FALSE, 2 },
  { "dump", FALSE, 1 },
};

/* A rejected file: one line on stdout, exit 1, as the reference does. */
static int
dump (const char *path)
{
  static char buffer[1 << 16];
  SpSpoolError err;
  SpSpoolReader *reader = sp_spool_reader_open (path, &err);

  if (reader == NULL)
    {
      printf ("error: %s\n", err.message);
      return 1;
    }
  setvbuf (stdout, buffer, _IOFBF, sizeof buffer);
  if (!sp_spool_dump (reader, stdout))
    {
      sp_spool_reader_free (reader);
      fprintf (stderr, "stackpulse-report: cannot write the dump\n");
      return 2;
    }
  sp_spool_reader_free (reader);
  return 0;
}

/* Every option value is refused in one shape: "--limit takes a number of
 * rows (0: all), not 'many'". */
static gboolean
refuse_value (GError **error,
              const char *option,
              const char *takes,
              const char *value)
{
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, "%s takes %s, not '%s'", option, takes, value);
  return FALSE;
}

static gboolean
parse_id_list (const char *option,
               const char *value,
               gpointer data,
               GError **error)
{
  Options *o = data;
  GArray *ids = g_array_new (TRUE, TRUE, sizeof (gint64));
  gint64 **target = g_str_equal (option, "--tid") ? &o->tids : &o->pids;
  g_auto (GStrv) items = g_strsplit (value, ",", -1);

  if (*target != NULL)
    for (gint64 *p = *target; *p != 0; p++)
      g_array_append_val (ids, *p);
  for (guint i = 0; items[i] != NULL; i++)
    {
      gint64 id;

      if (!g_ascii_string_to_signed (items[i], 10, 1, G_MAXINT32, &id, NULL))
        {
          g_autofree char *takes = g_strdup_printf ("ids from 1 to %d, separated by commas", G_MAXINT32);

          g_array_unref (ids);
          return refuse_value (error, option, takes, items[i]);
        }
      g_array_append_val (ids, id);
    }
  g_free (*target);
  *target = (gint64 *) g_array_free (ids, FALSE);
  return TRUE;
}

/* Whether value is, whole, a finite decimal number from min to max (the
 * number then in *number). */
static gboolean
read_decimal (const char *value,
              double min,
              double max,
              double *number)
{
  char *end;

  *number = g_ascii_strtod (value, &end);
  return end != value && *end == '\0' && isfinite (*number) && *number >= min && *number <= max;
}

/* Seconds after the first sample: a time the nanosecond timestamps can
 * hold (NaN, infinities and negative times would choose nothing). */
static gboolean
parse_time (const char *option,
            const char *value,
            gpointer data,
            GError **error)
{
  Options *o = data;
  gboolean is_end = g_str_equal (option, "--to");
  double seconds;

  if (!read_decimal (value, 0, MAX_TIME_S, &seconds) || (is_end && seconds == 0))
    {
      g_autofree char *takes = g_strdup_printf ("seconds after the recording's start (its first sample or "
                                                "off-CPU record), from %s to %.0f",
                                                is_end ? "more than 0" : "0", MAX_TIME_S);

      return refuse_value (error, option, takes, value);
    }
  if (is_end)
    o->to_s = seconds;
  else
    o->from_s = seconds;
  return TRUE;
}

static gboolean
parse_min_percent (const char *option,
                   const char *value,
                   gpointer data,
                   GError **error)
{
  Options *o = data;
  double percent;

  if (!read_decimal (value, 0, 100, &percent))
    return refuse_value (error, option, "a percentage from 0 to 100", value);
  o->min_percent = percent;
  return TRUE;
}

static gboolean
parse_limit (const char *option,
             const char *value,
             gpointer data,
             GError **error)
{
  Options *o = data;
  guint64 limit;

  if (!g_ascii_string_to_unsigned (value, 10, 0, G_MAXINT, &limit, NULL))
    return refuse_value (error, option, "a number of rows (0: all)", value);
  o->limit = (int) limit;
  return TRUE;
}

static gboolean
parse_metric (const char *option,
              const char *value,
              gpointer data,
              GError **error)
{
  Options *o = data;

  if (!sp_metric_from_name (value, &o->metric))
    return refuse_value (error, option, "cpu, off-cpu or wall", value);
  return TRUE;
}

static gboolean
parse_normalize (const char *option,
                 const char *value,
                 gpointer data,
                 GError **error)
{
  Options *o = data;

  if (!sp_diff_normalize_from_name (value, &o->normalize))
    return refuse_value (error, option, "share or time", value);
  o->normalize_given = TRUE;
  return TRUE;
}

/* What no single option can see: a range that ends before it starts. */
static gboolean
check_options (const Options *o)
{
  if (o->to_s > 0 && o->to_s <= o->from_s)
    {
      fprintf (stderr, "stackpulse-report: --from %g is not before --to %g: no sample is in between\n", o->from_s,
               o->to_s);
      return FALSE;
    }
  return TRUE;
}

/* Where --from and --to count from: the first sample or, when the
 * off-CPU records begin before it, the first of those (`sleep 1` has one
 * sample, as it exits); the window's timeline counts from there too.
 * FALSE when there is neither. */
static gboolean
time_origin (SpProfile *profile,
             guint64 *origin)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  gboolean any = sp_spool_reader_get_n_samples (reader) > 0;
  guint64 off_first, off_last;

  *origin = any ? sp_spool_reader_get_sample_timestamp (reader, 0) : G_MAXUINT64;
  if (sp_profile_has_off_cpu (profile) && sp_profile_get_off_cpu_span (profile, &off_first, &off_last))
    {
      *origin = MIN (*origin, off_first);
      any = TRUE;
    }
  return any;
}

/* A range past the recording's end is no error (its length is not known
 * before it is read), but an empty report needs a word. With thread
 * states in use (a time metric, threads) the recording goes on as long
 * as its off-CPU records: a sleeping thread has no samples. */
static void
warn_range_outside (SpProfile *profile,
                    const Options *o,
                    gboolean uses_states)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  gsize n = sp_spool_reader_get_n_samples (reader);
  guint64 last = n > 0 ? sp_spool_reader_get_sample_timestamp (reader, n - 1) : 0, off_first, off_last, origin;

  if (!time_origin (profile, &origin))
    return;
  if (uses_states && sp_profile_has_off_cpu (profile) && sp_profile_get_off_cpu_span (profile, &off_first, &off_last)
      && off_last > last)
    {
      double span_s = (double) (off_last - origin) / 1e9;

      if (o->from_s > span_s)
        fprintf (stderr, "stackpulse-report: warning: --from %g is after the last sample and off-CPU record "
                 "(at %.3f s): nothing chosen\n", o->from_s, span_s);
      return;
    }
  if (n > 0 && o->from_s > (double) (last - origin) / 1e9)
    fprintf (stderr, "stackpulse-report: warning: --from %g is after the last sample (at %.3f s): no sample chosen\n",
             o->from_s, (double) (last - origin) / 1e9);
}

static gboolean
in_list (const gint64 *list,
         gint64 value)
{
  for (; list != NULL && *list != 0; list++)
    if (*list == value)
      return TRUE;
  return FALSE;
}

static void
add_function_transforms (SpProfile *profile,
                         SpFilter *filter,
                         char **names,
                         SpTransformKind kind,
                         gboolean *unknown)
{
  for (guint i = 0; names != NULL && names[i] != NULL; i++)
    {
      g_autoptr (GArray) matches = sp_profile_find_functions (profile, names[i]);

      if (matches->len == 0)
        {
          fprintf (stderr, "stackpulse-report: no function named '%s'\n", names[i]);
          *unknown = TRUE;
        }
      /* One name's functions (in several modules) are one focus; merged
       * or dropped, each is. */
      if (kind == SP_TRANSFORM_FOCUS_FUNCTION && matches->len > 0)
        sp_filter_add_focus_functions (filter, (const guint32 *) (gpointer) matches->data, matches->len);
      else
        for (guint m = 0; m < matches->len; m++)
          sp_filter_add_function_transform (filter, kind, g_array_index (matches, guint32, m));
    }
}

/* A --tid or --pid that names no thread of the recording leaves nothing
 * of it: say so, rather than print an empty table. */
static void
warn_unknown_ids (const SpSpoolReader *reader,
                  const gint64 *ids,
                  gboolean are_tids)
{
  const SpThread *threads = sp_spool_reader_get_threads (reader);

  for (; ids != NULL && *ids != 0; ids++)
    {
      gboolean found = FALSE;

      for (guint32 t = 0; t < sp_spool_reader_get_n_threads (reader) && !found; t++)
        found = *ids == (are_tids ? (gint64) threads[t].tid : (gint64) threads[t].pid);
      if (!found)
        fprintf (stderr, "stackpulse-report: warning: --%s %" G_GINT64_FORMAT " names no %s of the recording\n",
                 are_tids ? "tid" : "pid", *ids, are_tids ? "thread" : "process");
    }
}

/* Threads and time from the options; transforms in a fixed order. */
static SpFilter *
make_filter (SpProfile *profile,
             const Options *o,
             gboolean uses_states,
             gboolean *ok)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  SpFilter *filter = sp_filter_new ();
  gboolean unknown = FALSE;
  guint64 first;

  for (guint32 t = 0; t < sp_spool_reader_get_n_threads (reader); t++)
    if ((o->tids != NULL && !in_list (o->tids, (gint64) threads[t].tid))
        || (o->pids != NULL && !in_list (o->pids, threads[t].pid)))
      sp_filter_hide_thread (filter, t);
  warn_unknown_ids (reader, o->tids, TRUE);
  warn_unknown_ids (reader, o->pids, FALSE);
  if ((o->from_s > 0 || o->to_s > 0) && time_origin (profile, &first))
    {
      sp_filter_set_time_range (filter, first + (guint64) (o->from_s * 1e9),
                                o->to_s > 0 ? first + (guint64) (o->to_s * 1e9) : G_MAXUINT64);
      warn_range_outside (profile, o, uses_states);
    }
  /* Functions get their ids as frames are resolved: resolve them all. */
  if (o->focus != NULL || o->merge != NULL || o->drop != NULL)
    g_array_unref (sp_function_list_new (profile, NULL, NULL));
  add_function_transforms (profile, filter, o->focus, SP_TRANSFORM_FOCUS_FUNCTION, &unknown);
  add_function_transforms (profile, filter, o->merge, SP_TRANSFORM_MERGE_FUNCTION, &unknown);
  add_function_transforms (profile, filter, o->drop, SP_TRANSFORM_DROP_FUNCTION, &unknown);
  for (guint i = 0; o->collapse_module != NULL && o->collapse_module[i] != NULL; i++)
    sp_filter_add_collapse_module (filter, o->collapse_module[i]);
  sp_filter_set_metric (filter, o->metric);
  *ok = !unknown;
  return filter;
}

/* A recording still going on, or cut short: what follows is partial. */
static void
warn_recording_state (SpProfile *profile,
                      const char *which)
{
  g_autofree char *state = sp_report_recording_state (profile);

  if (state != NULL)
    fprintf (stderr, "stackpulse-report: warning: %sthe recording is %s\n", which, state);
}

/* Off-CPU time recorded without the rights to sample the kernel: the
 * time is there, not where the threads waited. */
static void
warn_missing_stacks (SpProfile *profile)
{
  g_autofree char *reason = sp_offcpu_stacks_missing_reason (sp_profile_get_meta (profile));

  if (reason != NULL)
    fprintf (stderr, "stackpulse-report: blocked stacks were not recorded: %s\n", reason);
}

/* A live recording has off-CPU data when recorded with --off-cpu (live
 * says so); one converted from a perf.data never has: perf's switch
 * events are not converted. */
static const char *
off_cpu_advice (SpProfile *profile,
                const char *live)
{
  return sp_recorded_by (sp_profile_get_meta (profile)) == SP_RECORDED_BY_PERF
           ? SP_RECORD_ADVICE_NO_OFF_CPU_FROM_PERF : live;
}

/* What threads shows without thread states: the side file's per-thread
 * totals when it has them (a companion missing or set aside), else only
 * the samples. */
static void
note_threads_without_states (SpProfile *profile,
                             const Options *o)
{
  /* Those totals are the whole recording's: a time range leaves them out. */
  if (o->from_s == 0 && o->to_s == 0 && sp_report_threads_from_side_file (profile))
    fprintf (stderr, "stackpulse-report: note: off_cpu_s, blocked_s, runnable_s and switches are the side file's "
             "totals of the whole recording; cpu_s is samples x the sampling interval\n");
  else if (sp_profile_get_off_cpu_problem (profile) != NULL)
    fprintf (stderr, "stackpulse-report: note: cpu_s is samples x the sampling interval, off_cpu_s and wall_s "
             "are empty\n");
  else
    fprintf (stderr, "stackpulse-report: note: this recording has no off-CPU data (%s): "
             "cpu_s is samples x the sampling interval, off_cpu_s and wall_s are empty\n",
             off_cpu_advice (profile, "record with --off-cpu"));
}

/* A time metric needs the companion; threads does without, and says so.
 * Both say when the companion has no stacks. */
static gboolean
check_off_cpu (SpProfile *profile,
               const char *command,
               const Options *o)
{
  if (sp_profile_has_off_cpu (profile))
    {
      if (o->metric != SP_METRIC_CPU || g_str_equal (command, "threads"))
        warn_missing_stacks (profile);
      return TRUE;
    }
  if (o->metric != SP_METRIC_CPU && sp_profile_get_off_cpu_problem (profile) != NULL)
    {
      fprintf (stderr, "stackpulse-report: --metric %s: no off-CPU data is read (the warning above says why)\n",
               o->metric == SP_METRIC_OFF_CPU ? "off-cpu" : "wall");
      return FALSE;
    }
  if (o->metric != SP_METRIC_CPU)
    {
      fprintf (stderr, "stackpulse-report: --metric %s: this recording has no off-CPU data (no %s.offcpu); %s\n",
               o->metric == SP_METRIC_OFF_CPU ? "off-cpu" : "wall", sp_profile_get_path (profile),
               off_cpu_advice (profile, "record it with stackpulse-record --off-cpu"));
      return FALSE;
    }
  if (g_str_equal (command, "threads"))
    note_threads_without_states (profile, o);
  return TRUE;
}

/* Where --metric and --tsv mean something. */
static gboolean
check_command_options (const char *command,
                       const Options *o)
{
  static const char *const weighed[] = { "top", "tree", "callers", "callees", "collapsed", "pprof", "speedscope",
                                         "annotate", "diff", NULL };
  static const char *const exports[] = { "collapsed", "pprof", "speedscope", NULL };
  static const char *const tabbed[] = { "threads", "processes", "annotate", "diff", NULL };
  gboolean annotate = g_str_equal (command, "annotate");

  if (o->metric != SP_METRIC_CPU && !g_strv_contains (weighed, command))
    {
      fprintf (stderr, "stackpulse-report: --metric is for top, tree, callers, callees, collapsed, pprof, "
               "speedscope, annotate and diff, not %s\n", command);
      return FALSE;
    }
  if (o->tsv && !g_strv_contains (tabbed, command))
    {
      fprintf (stderr, "stackpulse-report: --tsv is for threads, processes, annotate and diff, not %s\n", command);
      return FALSE;
    }
  if (o->normalize_given && !g_str_equal (command, "diff"))
    {
      fprintf (stderr, "stackpulse-report: --normalize is for diff, not %s\n", command);
      return FALSE;
    }
  if (o->output != NULL && !g_strv_contains (exports, command))
    {
      fprintf (stderr, "stackpulse-report: -o is for collapsed, pprof and speedscope, not %s\n", command);
      return FALSE;
    }
  if (o->output == NULL && g_str_equal (command, "pprof"))
    {
      fprintf (stderr, "stackpulse-report: pprof writes a compressed binary file: give it with -o OUT.pb.gz\n");
      return FALSE;
    }
  if ((o->asm_view || o->module != NULL || o->source_dirs != NULL) && !annotate)
    {
      fprintf (stderr, "stackpulse-report: --asm, --module and --source-dir are for annotate, not %s\n", command);
      return FALSE;
    }
  return TRUE;
}

/* The recording at path, said what is wrong with, and its filter from
 * the options; NULL (said why) when it cannot be reported on. side: "A"
 * or "B" of a diff, whose warnings then say which file they are about. */
static SpProfile *
open_recording (const char *command,
                const char *path,
                const char *side,
                const Options *o,
                SpFilter **filter_out)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (SpProfile) profile = sp_profile_open_unread (path, &error);
  g_autofree char *which = side != NULL ? g_strdup_printf ("%s (%s): ", side, path) : g_strdup ("");
  gboolean ok = TRUE;

  if (profile == NULL)
    {
      fprintf (stderr, "stackpulse-report: %s\n", error->message);
      return NULL;
    }
  sp_profile_set_inline_frames (profile, !o->no_inline);
  /* The reports but annotate print no source lines: without inline
   * frames, DWARF has nothing to give them. */
  sp_profile_set_dwarf (profile, !o->no_inline || g_str_equal (command, "annotate"));
  sp_report_use_debuginfod (profile, !o->no_debuginfod);
  sp_profile_set_symbol_cache (profile, !o->no_symbol_cache);
  /* With the options set, the modules are read while the spool is (not
   * for the tables of threads and processes, which name no function). */
  if (g_str_equal (command, "threads") || g_str_equal (command, "processes"))
    sp_profile_finish (profile);
  else
    sp_profile_finish_resolving_ahead (profile);
  if (sp_profile_get_damage (profile) != NULL)
    fprintf (stderr, "stackpulse-report: warning: %s%s; showing every record before it\n", which,
             sp_profile_get_damage (profile));
  /* The summary says it on its own; other outputs are often piped. */
  if (!g_str_equal (command, "summary"))
    warn_recording_state (profile, which);
  if (sp_profile_get_meta_problem (profile) != NULL)
    fprintf (stderr, "stackpulse-report: warning: %s%s\n", which, sp_profile_get_meta_problem (profile));
  /* One sentence that says what is used of it. */
  if (sp_profile_get_off_cpu_problem (profile) != NULL)
    fprintf (stderr, "stackpulse-report: warning: %s%s\n", which, sp_profile_get_off_cpu_problem (profile));
  if (!check_off_cpu (profile, command, o))
    return NULL;
  *filter_out = make_filter (profile, o, o->metric != SP_METRIC_CPU || g_str_equal (command, "threads"), &ok);
  if (!ok)
    {
      g_clear_pointer (filter_out, sp_filter_free);
      return NULL;
    }
  return g_steal_pointer (&profile);
}

/* diff A B: both read alike, each with the options' filter. */
static int
run_diff (const char *path_a,
          const char *path_b,
          const Options *o)
{
  g_autoptr (SpFilter) filter_a = NULL;
  g_autoptr (SpFilter) filter_b = NULL;
  g_autoptr (SpProfile) a = open_recording ("diff", path_a, "A", o, &filter_a);
  g_autoptr (SpProfile) b = a != NULL ? open_recording ("diff", path_b, "B", o, &filter_b) : NULL;
  SpReportDiffOptions options = { o->normalize, o->tsv, (guint) MAX (o->limit, 0) };
  GStatBuf stat_a, stat_b;

  if (a == NULL || b == NULL)
    return 1;
  if (g_stat (path_a, &stat_a) == 0 && g_stat (path_b, &stat_b) == 0 && stat_a.st_dev == stat_b.st_dev
      && stat_a.st_ino == stat_b.st_ino)
    fprintf (stderr, "stackpulse-report: warning: A and B are the same file: every change is 0\n");
  sp_report_diff (a, filter_a, b, filter_b, &options, stdout);
  return fflush (stdout) == 0 ? 0 : 1;
}

/* collapsed, pprof, speedscope: to -o's file (whole or not at all), or
 * to stdout. */
static int
run_export (SpProfile *profile,
            const SpFilter *filter,
            SpExportFormat format,
            const Options *o)
{
  g_autoptr (GError) error = NULL;

  if (o->output == NULL)
    return sp_export_to_stream (profile, filter, format, stdout) ? 0 : 1;
  if (!sp_export_to_file (profile, filter, format, o->output, &error))
    {
      fprintf (stderr, "stackpulse-report: %s\n", error->message);
      return 1;
    }
  return 0;
}

/* The command on an open recording. */
static int
run_on (const char *command,
        const char *function,
        SpProfile *profile,
        SpFilter *filter,
        const Options *o)
{
  SpReportOptions report = { o->min_percent, (guint) MAX (o->limit, 0), o->bottom_up };
  SpExportFormat format;

  if (g_str_equal (command, "summary"))
    sp_report_summary (profile, filter, stdout);
  else if (g_str_equal (command, "top"))
    sp_report_top (profile, filter, &report, stdout);
  else if (g_str_equal (command, "tree"))
    sp_report_tree (profile, filter, &report, stdout);
  else if (sp_export_format_from_name (command, &format))
    return run_export (profile, filter, format, o);
  else if (g_str_equal (command, "threads"))
    sp_report_threads (profile, filter, o->tsv, stdout);
  else if (g_str_equal (command, "processes"))
    sp_report_processes (profile, filter, o->tsv, stdout);
  else if (g_str_equal (command, "annotate"))
    {
      SpAnnotateOptions annotate = { function, o->module, o->asm_view, o->tsv, o->source_dirs, !o->no_debuginfod };
      int status = sp_report_annotate (profile, filter, &annotate, stdout, stderr);

      return status == 0 && fflush (stdout) != 0 ? 1 : status;
    }
  else if (!sp_report_callers_callees (profile, filter, function, g_str_equal (command, "callers"), stdout))
    {
      fprintf (stderr, "stackpulse-report: no function named '%s'\n", function);
      return 1;
    }
  return fflush (stdout) == 0 ? 0 : 1;
}

/* command: a name of the table but "dump" and "diff"; function: for
 * callers and callees. */
static int
run (const char *command,
     const char *function,
     const char *path,
     const Options *o)
{
  g_autoptr (SpFilter) filter = NULL;
  g_autoptr (SpProfile) profile = open_recording (command, path, NULL, o, &filter);
  int status;

  if (profile == NULL)
    return 1;
  status = run_on (command, function, profile, filter, o);
  if (o->symbol_cache_stats)
    sp_report_symbol_cache (profile, stderr);
  return status;
}

static const Command *
find_command (const char *word)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (word, commands[i].name))
      return &commands[i];
  return NULL;
}

/* A command word given without a file would be taken for the file. */
static const Command *
find_command_without_file (const char *word)
{
  return g_file_test (word, G_FILE_TEST_EXISTS) ? NULL : find_command (word);
}

static int
refuse_command_without_file (const Command *command)
{
  fprintf (stderr, "stackpulse-report: %s needs %s: stackpulse-report %s%s %s\n\n%s%s",
           command->name, command->n_files == 2 ? "two recordings" : "a recording", command->name,
           command->takes_function ? " FUNC" : "", command->n_files == 2 ? "A.spool B.spool" : "FILE.spool",
           usage_line, usage_text);
  return 2;
}

/* What is wrong with the arguments (argc - 1 of them, command first):
 * said, then the usage. */
static int
refuse_arguments (int argc,
                  char **argv)
{
  const Command *command = argc > 2 ? find_command (argv[1]) : NULL;

  if (argc > 2 && command == NULL)
    fprintf (stderr, "stackpulse-report: unknown command \"%s\"\n\n", argv[1]);
  else if (argc > 2)
    fprintf (stderr, "stackpulse-report: %s takes %s%s (%d given)\n\n", argv[1],
             command->takes_function ? "a function and " : "", command->n_files == 2 ? "two files" : "a file",
             argc - 2);
  fputs (usage_line, stderr);
  fputs (usage_text, stderr);
  return 2;
}

int
main (int argc,
      char **argv)
{
  Options o = { .min_percent = 0.5 };
  GOptionEntry entries[] = {
    { "tid", 0, 0, G_OPTION_ARG_CALLBACK, parse_id_list, "Only these threads", "TID[,TID]" },
    { "pid", 0, 0, G_OPTION_ARG_CALLBACK, parse_id_list, "Only these processes", "PID[,PID]" },
    { "from", 0, 0, G_OPTION_ARG_CALLBACK, parse_time, "From SEC after the recording's start (its first sample or off-CPU record)", "SEC" },
    { "to", 0, 0, G_OPTION_ARG_CALLBACK, parse_time, "Up to SEC after the recording's start", "SEC" },
    { "focus", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.focus, "Only stacks through FUNC, rooted at it", "FUNC" },
    { "merge", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.merge, "Merge FUNC into its callers", "FUNC" },
    { "drop", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.drop, "Drop samples with FUNC", "FUNC" },
    { "collapse-module", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o.collapse_module, "Collapse module M into one node", "M" },
    { "no-inline", 0, 0, G_OPTION_ARG_NONE, &o.no_inline, "Do not show inlined functions as frames", NULL },
    { "no-symbol-cache", 0, 0, G_OPTION_ARG_NONE, &o.no_symbol_cache,
      "Neither read nor write the symbol cache ($XDG_CACHE_HOME/stackpulse/symbols)", NULL },
    { "symbol-cache-stats", 0, 0, G_OPTION_ARG_NONE, &o.symbol_cache_stats,
      "Say on stderr how many addresses came from the symbol cache", NULL },
    { "no-debuginfod", 0, 0, G_OPTION_ARG_NONE, &o.no_debuginfod,
      "Do not fetch missing debug info or sources from DEBUGINFOD_URLS' servers (nor use what they sent "
      "before)", NULL },
    { "bottom-up", 0, 0, G_OPTION_ARG_NONE, &o.bottom_up, "tree: inverted, from the functions that ran", NULL },
    { "min-percent", 0, 0, G_OPTION_ARG_CALLBACK, parse_min_percent, "tree: hide nodes below PCT (0.5)", "PCT" },
    { "limit", 0, 0, G_OPTION_ARG_CALLBACK, parse_limit, "top: at most N rows (0: all)", "N" },
    { "metric", 0, 0, G_OPTION_ARG_CALLBACK, parse_metric, "What weighs: cpu (samples), off-cpu or wall (time)",
      "cpu|off-cpu|wall" },
    { "tsv", 0, 0, G_OPTION_ARG_NONE, &o.tsv, "threads, annotate, diff: tab-separated, with a header line", NULL },
    { "normalize", 0, 0, G_OPTION_ARG_CALLBACK, parse_normalize,
      "diff: compare shares of each total (share), or time per second of each recording (time)", "share|time" },
    { "asm", 0, 0, G_OPTION_ARG_NONE, &o.asm_view, "annotate: the instructions, not the source lines", NULL },
    { "module", 0, 0, G_OPTION_ARG_STRING, &o.module, "annotate: FUNC in module M (a path or file name)", "M" },
    { "source-dir", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &o.source_dirs,
      "annotate: look for sources under DIR (or replace the build path prefix P: P=DIR)", "DIR" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &o.output,
      "collapsed, pprof, speedscope: write to OUT (replaced only by a whole export)", "OUT" },
    { NULL },
  };
  g_autoptr (GOptionContext) context = g_option_context_new ("[COMMAND] FILE.spool");
  g_autoptr (GOptionGroup) group = g_option_group_new ("report", "", "", &o, NULL);
  g_autoptr (GError) error = NULL;
  const Command *command = NULL;
  const char *function = NULL;
  int status;

  g_option_context_set_summary (context, usage_text);
  g_option_group_add_entries (group, entries);
  g_option_context_set_main_group (context, g_steal_pointer (&group));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      fprintf (stderr, "stackpulse-report: %s\n%s%s", error->message, usage_line, usage_text);
      return 2;
    }
  if (argc == 2 && (command = find_command_without_file (argv[1])) != NULL)
    return refuse_command_without_file (command);
  if (!check_options (&o))
    return 2;
  /* FILE alone is the summary; otherwise COMMAND [FUNC] FILE. */
  if (argc == 2)
    command = find_command ("summary");
  else if (argc < 3 || (command = find_command (argv[1])) == NULL
           || argc != (command->takes_function ? 4 : 2 + (int) command->n_files))
    return refuse_arguments (argc, argv);
  if (!check_command_options (command->name, &o))
    return 2;
  sp_report_heap_prepare ((const char *const *) argv + argc - command->n_files, command->n_files);
  if (g_str_equal (command->name, "dump"))
    return dump (argv[2]);
  if (command->takes_function)
    function = argv[2];
  if (command->n_files == 2)
    status = run_diff (argv[2], argv[3], &o);
  else
    status = run (command->name, function, argv[argc - 1], &o);
  g_free (o.tids);
  g_free (o.pids);
  g_strfreev (o.focus);
  g_strfreev (o.merge);
  g_strfreev (o.drop);
  g_strfreev (o.collapse_module);
  g_free (o.module);
  g_strfreev (o.source_dirs);
  g_free (o.output);
  return status;
}
