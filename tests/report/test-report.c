/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report.c: stackpulse-report on a real recording.
 *
 * sp-work-threads is recorded once with the real stackpulse-record, and
 * every command of the real stackpulse-report is checked on that spool
 * through its text, against what the workload is known to do (see
 * tests/workloads/sp-work-threads.c): four threads, each spending its time
 * in one leaf under a known call path. Where a filter or a transform has
 * an exact meaning, its collapsed output is compared with the unfiltered
 * collapsed stacks rewritten by a model of it here. Bad input (a missing
 * file, an unknown function or option, a spool cut inside a record) must
 * give a message and the documented exit status. */
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "record-run.h"
#include "record-stacks.h"
#include "report-output.h"
#include "sp-spool-reader.h"

#define SECONDS "1"

/* What the recording and the unfiltered report say, made on first use. */
typedef struct {
  SpTestRecording *rec;
  char            *workload;
  guint64          n_samples;       /* the side file's count */
  guint64          alpha_tid;
  guint64          alpha_samples;   /* the side file's count for sp-alpha */
  double           duration_s;      /* the summary's */
  GHashTable      *collapsed;       /* unfiltered collapsed stacks */
  GPtrArray       *top;             /* unfiltered top rows */
} Recorded;

static Recorded recorded;

static const char *
spool (void)
{
  return recorded.rec->spool;
}

static const char *
dir (void)
{
  return recorded.rec->dir;
}

/* The [thread TID] group of the side file whose name is name. */
static guint64
find_thread (GKeyFile *meta,
             const char *name,
             guint64 *samples)
{
  g_auto (GStrv) groups = g_key_file_get_groups (meta, NULL);

  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_autofree char *thread_name = NULL;

      if (!g_str_has_prefix (groups[i], "thread "))
        continue;
      thread_name = g_key_file_get_string (meta, groups[i], "name", NULL);
      if (g_strcmp0 (thread_name, name) == 0)
        {
          *samples = (guint64) g_key_file_get_int64 (meta, groups[i], "samples", NULL);
          return g_ascii_strtoull (groups[i] + strlen ("thread "), NULL, 10);
        }
    }
  g_error ("the side file names no thread '%s'", name);
}

/* The summary's "duration:  0.999 s". */
static double
parse_duration (const char *summary)
{
  const char *line = strstr (summary, "\nduration:");

  g_assert_nonnull (line);
  return g_ascii_strtod (line + strlen ("\nduration:"), NULL);
}

/* The summary's "samples:   N (of M in the file)": N. */
static guint64
parse_chosen_samples (const char *summary,
                      guint64 *in_file)
{
  const char *line = strstr (summary, "\nsamples:");
  guint64 chosen = 0, all = 0;

  g_assert_nonnull (line);
  g_assert_cmpint (sscanf (line, "\nsamples: %" G_GUINT64_FORMAT " (of %" G_GUINT64_FORMAT, &chosen, &all), ==, 2);
  if (in_file != NULL)
    *in_file = all;
  return chosen;
}

/* A thread's share of the samples, in percent. Threads need not get the
 * same CPU time (with other tests running, the scheduler may favour some
 * for a second), so a leaf's share is checked against its thread's. */
static double
thread_share (const char *name)
{
  guint64 samples = 0;

  find_thread (recorded.rec->meta, name, &samples);
  return 100.0 * (double) samples / (double) recorded.n_samples;
}

static Recorded *
get_recorded (void)
{
  g_autofree char *summary = NULL;
  g_autofree char *collapsed = NULL;
  g_autofree char *top = NULL;
  guint64 total;

  if (recorded.rec != NULL)
    return &recorded;
  recorded.workload = sp_test_workload ("threads");
  recorded.rec = sp_test_record (NULL, (const char *const[]) { recorded.workload, SECONDS, NULL });
  g_test_message ("recorder's stderr:\n%s\nworkload's stdout:\n%s", recorded.rec->result->err,
                  recorded.rec->result->out);
  g_assert_cmpint (recorded.rec->result->exit_code, ==, 0);
  sp_test_recording_load (recorded.rec);
  recorded.n_samples = (guint64) g_key_file_get_int64 (recorded.rec->meta, "recording", "samples", NULL);
  g_assert_cmpuint (recorded.n_samples, >, 0);
  recorded.alpha_tid = find_thread (recorded.rec->meta, "sp-alpha", &recorded.alpha_samples);
  g_assert_cmpuint (recorded.alpha_samples, >, 0);

  summary = sp_test_report (dir (), spool (), NULL);
  recorded.duration_s = parse_duration (summary);
  collapsed = sp_test_report (dir (), "collapsed", spool (), NULL);
  recorded.collapsed = sp_test_parse_collapsed (collapsed, &total);
  top = sp_test_report (dir (), "top", spool (), NULL);
  recorded.top = sp_test_parse_rows (top);
  return &recorded;
}

/* ---- The commands ----------------------------------------------------- */

static void
test_summary (void)
{
  Recorded *r = get_recorded ();
  g_autofree char *out = sp_test_report (dir (), spool (), NULL);
  g_autofree char *command = g_strdup_printf ("\ncommand:   %s " SECONDS "\n", r->workload);
  g_autoptr (GPtrArray) rows = sp_test_parse_rows (out);
  static const struct {
    const char *leaf;
    const char *thread;
  } leaves[] = {
    { "main_leaf", "sp-work-threads" },
    { "alpha_leaf", "sp-alpha" },
    { "beta_leaf", "sp-beta" },
  };
  g_autofree char *lost = NULL;
  guint64 in_file = 0;

  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, command));
  g_assert_cmpuint (parse_chosen_samples (out, &in_file), ==, r->n_samples);
  g_assert_cmpuint (in_file, ==, r->n_samples);
  g_assert_nonnull (strstr (out, "\nthreads:   4\n"));
  lost = g_strdup_printf ("\nlost:      %" G_GINT64_FORMAT "\n",
                          g_key_file_get_int64 (r->rec->meta, "recording", "lost_samples", NULL));
  g_assert_nonnull (strstr (out, lost));
  g_assert_cmpuint (rows->len, >, 0);
  g_assert_cmpuint (rows->len, <=, 20);
  /* Each thread spends its time in its leaf. */
  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    {
      const SpReportRow *row = sp_test_find_row (rows, leaves[i].leaf);
      double share = thread_share (leaves[i].thread);

      g_assert_nonnull (row);
      g_assert_cmpstr (row->module, ==, "sp-work-threads");
      g_assert_cmpfloat (row->self_pct, >, 0.9 * share);
      g_assert_cmpfloat (row->self_pct, <=, share + 0.01);
    }
}

/* The report's "symbols:" line (--symbol-cache-stats, on stderr: where
 * names came from, the symbol cache of docs/SYMBOL-CACHE.md or the module
 * files), parsed. */
static void
parse_symbols_line (const char *err,
                    guint64 *from_cache,
                    guint64 *from_files,
                    guint *dwarf_read)
{
  g_assert_true (g_str_has_prefix (err, "symbols:   "));
  g_assert_cmpint (sscanf (err, "symbols: %" G_GUINT64_FORMAT " addresses from the symbol cache, %" G_GUINT64_FORMAT
                           " from the module files (modules whose DWARF was read: %u)", from_cache, from_files,
                           dwarf_read), ==, 3);
}

static SpChildResult *
tree_with_cache_stats (void)
{
  const char *args[] = { "tree", "--symbol-cache-stats", spool (), NULL };
  SpChildResult *result = sp_test_report_run (dir (), args);

  g_assert_cmpint (result->exit_code, ==, 0);
  return result;
}

/* A second tree of the recording takes its names from the symbol cache
 * (a folder of the test's own), reads no DWARF, and is the same tree. */
static void
test_tree_symbol_cache (void)
{
  g_autofree char *cache = g_build_filename (dir (), "symbol-cache", NULL);
  g_autofree char *saved = g_strdup (g_getenv ("XDG_CACHE_HOME"));
  g_autoptr (SpChildResult) cold = NULL;
  g_autoptr (SpChildResult) warm = NULL;
  guint64 cold_cache, cold_files, warm_cache, warm_files;
  guint cold_dwarf, warm_dwarf;

  get_recorded ();
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  cold = tree_with_cache_stats ();
  warm = tree_with_cache_stats ();
  if (saved != NULL)
    g_setenv ("XDG_CACHE_HOME", saved, TRUE);
  else
    g_unsetenv ("XDG_CACHE_HOME");
  g_test_message ("%s%s", cold->err, warm->err);
  parse_symbols_line (cold->err, &cold_cache, &cold_files, &cold_dwarf);
  parse_symbols_line (warm->err, &warm_cache, &warm_files, &warm_dwarf);
  g_assert_cmpuint (cold_cache, ==, 0);
  g_assert_cmpuint (cold_files, >, 0);
  g_assert_cmpuint (cold_dwarf, >=, 1);  /* sp-work-threads is built with -g */
  g_assert_cmpuint (warm_cache, >, 0);
  g_assert_cmpuint (warm_dwarf, ==, 0);
  g_assert_cmpuint (warm_cache + warm_files, ==, cold_files);
  g_assert_cmpstr (warm->out, ==, cold->out);
}

/* The recording was made in the default mode (auto): the summary says how
 * its stacks were unwound, with a line per module of the side file. */
static void
test_summary_unwinding (void)
{
  Recorded *r = get_recorded ();
  g_autofree char *out = sp_test_report (dir (), spool (), NULL);
  g_autofree char *stacks = g_strdup_printf ("\n  %" G_GUINT64_FORMAT " stacks: ", r->n_samples);
  const char *section = strstr (out, "\nunwinding (--call-graph auto, 16384-byte stack copies):\n");
  g_autofree char *workload_name = g_path_get_basename (r->workload);
  g_auto (GStrv) groups = g_key_file_get_groups (r->rec->meta, NULL);
  guint rows = 0;

  g_test_message ("%s", out);
  g_assert_nonnull (section);
  g_assert_nonnull (strstr (section, stacks));
  g_assert_nonnull (strstr (section, "\n  libc.so.6 "));
  /* A row per module of the side file, with its samples. */
  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_autofree char *path = g_key_file_get_string (r->rec->meta, groups[i], "path", NULL);
      g_autofree char *name = NULL;
      g_autofree char *row = NULL;

      if (!g_str_has_prefix (groups[i], "unwind-module ") || path == NULL)
        continue;
      name = g_path_get_basename (path);
      row = g_strdup_printf ("\n  %-28s %9" G_GINT64_FORMAT " ", name,
                             g_key_file_get_int64 (r->rec->meta, groups[i], "samples", NULL));
      g_assert_nonnull (strstr (section, row));
      rows += g_str_equal (name, workload_name);
    }
  g_assert_cmpuint (rows, ==, 1);
}

static void
test_top (void)
{
  Recorded *r = get_recorded ();
  GPtrArray *rows = r->top;
  guint64 samples = 0;
  double self_pct = 0;

  g_assert_cmpuint (rows->len, >, 3);
  for (guint i = 0; i < rows->len; i++)
    {
      const SpReportRow *row = g_ptr_array_index (rows, i);

      if (i > 0)
        g_assert_cmpuint (row->samples, <=, ((const SpReportRow *) g_ptr_array_index (rows, i - 1))->samples);
      g_assert_cmpfloat (row->total_pct, >=, row->self_pct);
      g_assert_nonnull (row->module);
      samples += row->samples;
      self_pct += row->self_pct;
    }
  /* Every sample is the self time of exactly one function. */
  g_assert_cmpuint (samples, ==, r->n_samples);
  g_assert_cmpfloat_with_epsilon (self_pct, 100.0, 0.005 * rows->len + 0.01);
}

/* A stripped program (no symbols at all): its samples are named by the
 * functions its unwind tables say they are in ("PROG+0xSTART"), so each
 * of the three busy leaves (a quarter of the samples each, in a loop of
 * a dozen instructions) is one row, not one row per address. */
static void
test_top_stripped (void)
{
  g_autofree char *workload = sp_test_workload ("threads_stripped");
  g_autoptr (SpTestRecording) rec = NULL;
  g_autofree char *top = NULL;
  g_autoptr (GPtrArray) rows = NULL;
  g_autofree char *with_symbols = sp_test_workload ("threads");
  g_autoptr (SpElfSymbols) symbols = sp_elf_symbols_load (with_symbols);
  const char *const leaves[] = { "alpha_leaf", "beta_leaf", "main_leaf" };
  guint busy = 0, named = 0;

  if (!sp_test_case_needs_perf ())
    return;
  rec = sp_test_record (NULL, (const char *const[]) { workload, SECONDS, NULL });
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  top = sp_test_report (rec->dir, "top", "--limit", "0", rec->spool, NULL);
  g_test_message ("%s", top);
  rows = sp_test_parse_rows (top);
  for (guint i = 0; i < rows->len; i++)
    {
      const SpReportRow *row = g_ptr_array_index (rows, i);

      if (!g_str_equal (row->module, "sp-work-threads-stripped"))
        continue;
      g_assert_true (g_str_has_prefix (row->name, "sp-work-threads-stripped+0x"));
      named++;
      busy += row->self_pct >= 12;
    }
  /* alpha_leaf, beta_leaf and main_leaf; the workload has 18 functions. */
  g_assert_cmpuint (busy, ==, 3);
  g_assert_cmpuint (named, <=, 18);
  /* Where the build with symbols has them (the same objects, linked the
   * same way). */
  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    {
      guint64 start, end;
      g_autofree char *name = NULL;
      const SpReportRow *row;

      g_assert_true (sp_elf_symbols_find (symbols, leaves[i], &start, &end));
      name = g_strdup_printf ("sp-work-threads-stripped+0x%" G_GINT64_MODIFIER "x", start);
      row = sp_test_find_row (rows, name);
      g_assert_nonnull (row);
      g_assert_cmpfloat (row->self_pct, >=, 12);
      /* Its instructions, by the unwind tables' bounds (the symbol's). */
      if (i == 0)
        {
          g_autofree char *annotated = sp_test_report (rec->dir, "annotate", "--asm", name, rec->spool, NULL);
          g_autofree char *bounds = g_strdup_printf ("at %" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT " bytes", start,
                                                     end - start);

          g_test_message ("%s", annotated);
          sp_test_assert_contains (annotated, bounds);
        }
    }
}

static void
test_tree_top_down (void)
{
  Recorded *r = get_recorded ();
  g_autofree char *out = sp_test_report (dir (), "tree", spool (), NULL);
  g_autoptr (GPtrArray) lines = sp_test_parse_tree (out);
  g_autofree char *header = g_strdup_printf ("(top-down, %" G_GUINT64_FORMAT " samples)", r->n_samples);
  gint main_line;

  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, header));
  main_line = sp_test_tree_find_path (lines, "main;run_workers;compute_main;main_leaf", FALSE);
  g_assert_cmpint (main_line, >=, 0);
  g_assert_cmpint (sp_test_tree_find_path (lines, "worker_main;compute_alpha;alpha_leaf", FALSE), >=, 0);
  g_assert_cmpint (sp_test_tree_find_path (lines, "worker_main;compute_beta;beta_leaf", FALSE), >=, 0);
  /* main's subtree is the main thread. */
  g_assert_cmpfloat (((SpTreeLine *) g_ptr_array_index (lines, main_line))->total_pct, >,
                     0.9 * thread_share ("sp-work-threads"));
  g_assert_cmpint (sp_test_tree_find_path (lines, "main_leaf", TRUE), <, 0);
}

static void
test_tree_bottom_up (void)
{
  get_recorded ();
  g_autofree char *out = sp_test_report (dir (), "tree", "--bottom-up", spool (), NULL);
  g_autoptr (GPtrArray) lines = sp_test_parse_tree (out);
  static const char *const callers_only[] = { "main", "run_workers", "worker_main", "compute_alpha" };

  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "(bottom-up, "));
  g_assert_cmpint (sp_test_tree_find_path (lines, "main_leaf;compute_main;run_workers;main", TRUE), >=, 0);
  g_assert_cmpint (sp_test_tree_find_path (lines, "alpha_leaf;compute_alpha;worker_main", TRUE), >=, 0);
  g_assert_cmpint (sp_test_tree_find_path (lines, "beta_leaf;compute_beta;worker_main", TRUE), >=, 0);
  for (guint i = 0; i < G_N_ELEMENTS (callers_only); i++)
    g_assert_cmpint (sp_test_tree_find_path (lines, callers_only[i], TRUE), <, 0);
  /* A root is where samples ended: all of its time is its own. */
  for (guint i = 0; i < lines->len; i++)
    {
      const SpTreeLine *line = g_ptr_array_index (lines, i);

      if (line->depth == 0)
        g_assert_cmpfloat (line->total_pct, ==, line->self_pct);
    }
}

static void
test_callers (void)
{
  get_recorded ();
  g_autofree char *out = sp_test_report (dir (), "callers", "alpha_leaf", spool (), NULL);
  g_autoptr (GPtrArray) rows = sp_test_parse_neighbours (out);
  const SpReportRow *row = sp_test_find_row (rows, "compute_alpha");

  g_test_message ("%s", out);
  g_assert_true (g_str_has_prefix (out, "alpha_leaf  [sp-work-threads]: self "));
  g_assert_nonnull (row);
  g_assert_cmpfloat (row->total_pct, >, 0.9 * thread_share ("sp-alpha"));
  /* Not quite all: an interrupt in alpha_leaf has kernel frames below it. */
  g_assert_cmpfloat (row->self_pct, <=, row->total_pct);
  g_assert_cmpfloat (row->self_pct, >, 0.9 * row->total_pct);
}

static void
test_callees (void)
{
  get_recorded ();
  g_autofree char *out = sp_test_report (dir (), "callees", "compute_alpha", spool (), NULL);
  g_autoptr (GPtrArray) rows = sp_test_parse_neighbours (out);
  const SpReportRow *row = sp_test_find_row (rows, "alpha_leaf");

  g_test_message ("%s", out);
  g_assert_true (g_str_has_prefix (out, "compute_alpha  [sp-work-threads]: self "));
  g_assert_nonnull (row);
  g_assert_cmpfloat (row->total_pct, >, 0.9 * thread_share ("sp-alpha"));
  g_assert_null (sp_test_find_row (rows, "worker_main"));
}

static void
test_collapsed (void)
{
  Recorded *r = get_recorded ();
  g_autofree char *out = sp_test_report (dir (), "collapsed", spool (), NULL);
  g_autofree char *again = sp_test_report (dir (), "collapsed", spool (), NULL);
  g_autoptr (GHashTable) stacks = NULL;
  guint64 total = 0;
  GHashTableIter iter;
  gpointer key, value;
  guint64 alpha = 0;

  stacks = sp_test_parse_collapsed (out, &total);
  g_assert_cmpuint (total, ==, r->n_samples);
  g_hash_table_iter_init (&iter, stacks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (strstr (key, "worker_main;compute_alpha;alpha_leaf") != NULL)
      alpha += *(guint64 *) value;
  g_assert_cmpfloat ((double) alpha, >, 0.9 * (double) r->alpha_samples);
  /* Sorted, so the output is stable. */
  g_assert_cmpstr (out, ==, again);
  sp_test_assert_collapsed_equal (stacks, r->collapsed);
}

/* ---- Filters ---------------------------------------------------------- */

static gboolean
has_function (GHashTable *stacks,
              const char *function)
{
  return sp_test_collapsed_count_with (stacks, function) > 0;
}

static void
test_filter_tid (void)
{
  Recorded *r = get_recorded ();
  g_autofree char *tid = g_strdup_printf ("%" G_GUINT64_FORMAT, r->alpha_tid);
  g_autofree char *out = sp_test_report (dir (), "collapsed", "--tid", tid, spool (), NULL);
  g_autoptr (GHashTable) stacks = NULL;
  static const char *const others[] = {
    "main_leaf", "compute_main", "beta_leaf", "compute_beta", "compute_gamma", "read_zero",
  };
  guint64 total;

  stacks = sp_test_parse_collapsed (out, &total);
  g_assert_cmpuint (total, ==, r->alpha_samples);
  g_assert_cmpfloat ((double) sp_test_collapsed_count_with (stacks, "alpha_leaf"), >, 0.9 * (double) total);
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    g_assert_false (has_function (stacks, others[i]));
}

/* Samples from SEC after the earliest one to before TO (NULL: the end),
 * counted in the spool the way the options are documented. */
static guint64
count_in_range (const char *from,
                const char *to)
{
  const SpSpoolReader *reader = recorded.rec->reader;
  gsize n = sp_spool_reader_get_n_samples (reader);
  guint64 first = G_MAXUINT64, start, end;
  guint64 count = 0;

  for (gsize i = 0; i < n; i++)
    first = MIN (first, sp_spool_reader_get_sample_timestamp (reader, i));
  start = first + (guint64) (g_ascii_strtod (from, NULL) * 1e9);
  end = to != NULL ? first + (guint64) (g_ascii_strtod (to, NULL) * 1e9) : G_MAXUINT64;
  for (gsize i = 0; i < n; i++)
    {
      guint64 ts = sp_spool_reader_get_sample_timestamp (reader, i);

      count += ts >= start && ts < end;
    }
  return count;
}

/* The summary's sample count with --from FROM [--to TO], checked against
 * the spool's timestamps. */
static guint64
report_range (const char *from,
              const char *to)
{
  g_autofree char *out = NULL;
  guint64 chosen;

  if (to != NULL)
    out = sp_test_report (dir (), "--from", from, "--to", to, spool (), NULL);
  else
    out = sp_test_report (dir (), "--from", from, spool (), NULL);
  chosen = parse_chosen_samples (out, NULL);
  g_test_message ("--from %s --to %s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " samples", from,
                  to != NULL ? to : "(end)", chosen, recorded.n_samples);
  g_assert_cmpuint (chosen, ==, count_in_range (from, to));
  return chosen;
}

/* Each range holds exactly the samples whose times are in it (checked in
 * report_range against the spool); the halves add up. How many fall in
 * each half is the machine's business (a loaded one gave the workload 115
 * of 365 samples in the first half): only that none is empty is asked. */
static void
test_filter_time_range (void)
{
  Recorded *r = get_recorded ();
  char half[G_ASCII_DTOSTR_BUF_SIZE];
  char quarter[G_ASCII_DTOSTR_BUF_SIZE];
  char three_quarters[G_ASCII_DTOSTR_BUF_SIZE];
  guint64 n_first, n_second, n_middle;

  g_ascii_formatd (half, sizeof half, "%.6f", r->duration_s / 2);
  g_ascii_formatd (quarter, sizeof quarter, "%.6f", r->duration_s / 4);
  g_ascii_formatd (three_quarters, sizeof three_quarters, "%.6f", r->duration_s * 3 / 4);
  n_first = report_range ("0", half);
  n_second = report_range (half, NULL);
  n_middle = report_range (quarter, three_quarters);
  g_assert_cmpuint (n_first + n_second, ==, r->n_samples);
  g_assert_cmpuint (n_first, >, 0);
  g_assert_cmpuint (n_second, >, 0);
  g_assert_cmpuint (n_middle, >, 0);
  g_assert_cmpuint (n_middle, <, r->n_samples);
}

/* ---- Transforms, against a model -------------------------------------- */

static gint
index_of (GPtrArray *functions,
          const char *name)
{
  for (guint i = 0; i < functions->len; i++)
    if (g_str_equal (g_ptr_array_index (functions, i), name))
      return (gint) i;
  return -1;
}

static gboolean
model_focus (GPtrArray *functions,
             gpointer name)
{
  gint first = index_of (functions, name);

  if (first < 0)
    return FALSE;
  g_ptr_array_remove_range (functions, 0, (guint) first);
  return TRUE;
}

static gboolean
model_drop (GPtrArray *functions,
            gpointer name)
{
  return index_of (functions, name) < 0;
}

static gboolean
model_merge (GPtrArray *functions,
             gpointer name)
{
  gint i;

  while ((i = index_of (functions, name)) >= 0)
    g_ptr_array_remove_index (functions, (guint) i);
  return TRUE;
}

/* Runs of the module's functions (known by name from top's rows) become
 * one "[module]" frame. The collapsed stacks name functions without their
 * module, and a name can be the module's and the kernel's (futex_wait is
 * both libc's and the kernel's): the kernel's part of a stack is its end,
 * from the first function only the kernel has. */
typedef struct {
  GHashTable *in_module;   /* function names */
  GHashTable *in_kernel;   /* function names */
  const char *label;
} CollapseModel;

static gboolean
model_collapse (GPtrArray *functions,
                gpointer data)
{
  CollapseModel *model = data;
  guint user_end = 0;

  while (user_end < functions->len
         && !(g_hash_table_contains (model->in_kernel, g_ptr_array_index (functions, user_end))
              && !g_hash_table_contains (model->in_module, g_ptr_array_index (functions, user_end))))
    user_end++;
  for (guint i = 0; i < user_end; i++)
    {
      if (!g_hash_table_contains (model->in_module, g_ptr_array_index (functions, i)))
        continue;
      if (i > 0 && g_str_equal (g_ptr_array_index (functions, i - 1), model->label))
        {
          g_ptr_array_remove_index (functions, i--);
          user_end--;
        }
      else
        {
          g_free (functions->pdata[i]);
          functions->pdata[i] = g_strdup (model->label);
        }
    }
  return TRUE;
}

/* The transform's collapsed output is the model's rewrite of the
 * unfiltered stacks, but for up to slack samples in all (summed over the
 * stacks); returns the output. */
static GHashTable *
check_transform_within (const char *option,
                        const char *value,
                        SpStackRewrite model,
                        gpointer data,
                        guint64 slack)
{
  Recorded *r = get_recorded ();
  g_autofree char *out = sp_test_report (dir (), "collapsed", option, value, spool (), NULL);
  g_autoptr (GHashTable) expected = sp_test_collapsed_rewrite (r->collapsed, model, data);
  GHashTable *got;
  guint64 total, differ = 0;
  GHashTableIter iter;
  gpointer key, value_p;

  got = sp_test_parse_collapsed (out, &total);
  if (slack == 0)
    {
      sp_test_assert_collapsed_equal (got, expected);
      return got;
    }
  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, &value_p))
    {
      guint64 want = *(guint64 *) value_p;
      guint64 *have = g_hash_table_lookup (got, key);

      differ += have == NULL ? want : (*have > want ? *have - want : want - *have);
    }
  g_hash_table_iter_init (&iter, got);
  while (g_hash_table_iter_next (&iter, &key, &value_p))
    if (!g_hash_table_contains (expected, key))
      differ += *(guint64 *) value_p;
  g_test_message ("%" G_GUINT64_FORMAT " samples differ from the model's (at most %" G_GUINT64_FORMAT ")", differ,
                  slack);
  g_assert_cmpuint (differ, <=, slack);
  return got;
}

static GHashTable *
check_transform (const char *option,
                 const char *value,
                 SpStackRewrite model,
                 gpointer data)
{
  return check_transform_within (option, value, model, data, 0);
}

static void
test_focus (void)
{
  g_autoptr (GHashTable) stacks = check_transform ("--focus", "compute_alpha", model_focus, "compute_alpha");
  g_autofree char *tree = sp_test_report (dir (), "tree", "--focus", "compute_alpha", spool (), NULL);
  g_autoptr (GPtrArray) lines = sp_test_parse_tree (tree);
  GHashTableIter iter;
  gpointer key;

  g_assert_cmpuint (g_hash_table_size (stacks), >, 0);
  g_hash_table_iter_init (&iter, stacks);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_assert_true (g_str_equal (key, "compute_alpha") || g_str_has_prefix (key, "compute_alpha;"));
  g_assert_cmpint (sp_test_tree_find_path (lines, "compute_alpha;alpha_leaf", TRUE), ==, 0);
  /* One root, compute_alpha; everything else below it. */
  for (guint i = 1; i < lines->len; i++)
    g_assert_cmpuint (((SpTreeLine *) g_ptr_array_index (lines, i))->depth, >, 0);
}

static void
test_drop (void)
{
  Recorded *r = get_recorded ();
  g_autoptr (GHashTable) stacks = check_transform ("--drop", "alpha_leaf", model_drop, "alpha_leaf");
  g_autofree char *tree = sp_test_report (dir (), "tree", "--drop", "alpha_leaf", spool (), NULL);
  guint64 kept = r->n_samples - sp_test_collapsed_count_with (r->collapsed, "alpha_leaf");
  g_autofree char *header = g_strdup_printf ("(top-down, %" G_GUINT64_FORMAT " samples)", kept);

  g_autofree char *summary = sp_test_report (dir (), "summary", "--drop", "alpha_leaf", spool (), NULL);
  g_autofree char *samples = g_strdup_printf ("samples:   %" G_GUINT64_FORMAT " (of %" G_GUINT64_FORMAT " in the file)",
                                              kept, r->n_samples);

  g_assert_false (has_function (stacks, "alpha_leaf"));
  g_assert_true (has_function (stacks, "beta_leaf"));
  g_assert_nonnull (strstr (tree, header));
  /* The summary counts what the tree does. */
  g_assert_nonnull (strstr (summary, samples));
}

static void
test_merge (void)
{
  Recorded *r = get_recorded ();
  g_autoptr (GHashTable) stacks = check_transform ("--merge", "compute_alpha", model_merge, "compute_alpha");
  GHashTableIter iter;
  gpointer key, value;
  guint64 direct = 0;

  g_assert_false (has_function (stacks, "compute_alpha"));
  /* The leaf's time now goes straight to worker_main (below start_thread,
   * and clone3 when the stack was unwound to the thread's very root). */
  g_hash_table_iter_init (&iter, stacks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (g_str_equal (key, "start_thread;worker_main;alpha_leaf")
        || g_str_equal (key, "clone3;start_thread;worker_main;alpha_leaf"))
      direct += *(guint64 *) value;
  g_assert_cmpfloat ((double) direct, >, 0.9 * (double) r->alpha_samples);
}

static void
test_collapse_module (void)
{
  Recorded *r = get_recorded ();
  g_autoptr (GHashTable) in_libc = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) in_kernel = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) stacks = NULL;
  CollapseModel model = { in_libc, in_kernel, "[libc.so.6]" };
  guint64 ambiguous = 0;

  for (guint i = 0; i < r->top->len; i++)
    {
      const SpReportRow *row = g_ptr_array_index (r->top, i);

      if (g_strcmp0 (row->module, "libc.so.6") == 0)
        g_hash_table_add (in_libc, row->name);
      else if (g_strcmp0 (row->module, "kernel.kallsyms") == 0)
        g_hash_table_add (in_kernel, row->name);
    }
  /* Apart from the kernel's, the model knows functions by name only. A
   * name also in another module (the dynamic loader's own memset, sampled
   * at start-up) is collapsed by the model everywhere, by the report only
   * in libc: the stacks may differ by its samples, twice (gone from one
   * stack, added to another), and by nothing else. */
  for (guint i = 0; i < r->top->len; i++)
    {
      const SpReportRow *row = g_ptr_array_index (r->top, i);

      if (g_strcmp0 (row->module, "libc.so.6") != 0 && g_strcmp0 (row->module, "kernel.kallsyms") != 0
          && g_hash_table_contains (in_libc, row->name))
        {
          g_test_message ("'%s' is a function of libc.so.6 and of %s", row->name, row->module);
          ambiguous += sp_test_collapsed_count_with (r->collapsed, row->name);
        }
    }
  g_assert_true (g_hash_table_contains (in_libc, "start_thread"));
  stacks = check_transform_within ("--collapse-module", "libc.so.6", model_collapse, &model, 2 * ambiguous);
  g_assert_false (has_function (stacks, "start_thread"));
  g_assert_true (g_hash_table_contains (stacks, "[libc.so.6];worker_main;compute_alpha;alpha_leaf"));
}

/* One filter, one profile: `top` and `tree` must give a function the same
 * self share. With a transform that leaves samples out (drop, focus) both
 * divide by the samples the transforms kept. */
static void
check_same_share (const char *option,
                  const char *value,
                  const char *leaf)
{
  g_autofree char *top = sp_test_report (dir (), "top", option, value, spool (), NULL);
  g_autofree char *tree = sp_test_report (dir (), "tree", "--bottom-up", option, value, spool (), NULL);
  g_autoptr (GPtrArray) rows = sp_test_parse_rows (top);
  g_autoptr (GPtrArray) lines = sp_test_parse_tree (tree);
  const SpReportRow *row = sp_test_find_row (rows, leaf);
  gint root = sp_test_tree_find_path (lines, leaf, TRUE);
  double tree_self;

  g_assert_nonnull (row);
  g_assert_cmpint (root, >=, 0);
  tree_self = ((SpTreeLine *) g_ptr_array_index (lines, root))->self_pct;
  g_test_message ("%s %s: %s self %.2f%% in top, %.2f%% in tree --bottom-up", option, value, leaf,
                  row->self_pct, tree_self);
  g_assert_cmpfloat_with_epsilon (row->self_pct, tree_self, 0.011);
}

static void
test_same_share_top_and_tree (void)
{
  get_recorded ();
  check_same_share ("--merge", "compute_alpha", "main_leaf");
  check_same_share ("--collapse-module", "libc.so.6", "main_leaf");
  check_same_share ("--drop", "alpha_leaf", "main_leaf");
  check_same_share ("--focus", "compute_alpha", "alpha_leaf");
}

/* ---- Bad input -------------------------------------------------------- */

static SpChildResult *
report_args (const char *const *args)
{
  get_recorded ();
  return sp_test_report_run (dir (), args);
}

static void
test_missing_file (void)
{
  g_autofree char *missing = g_build_filename (g_get_tmp_dir (), "stackpulse-no-such-dir", "none.spool", NULL);
  g_autoptr (SpChildResult) result = report_args ((const char *const[]) { "top", missing, NULL });

  g_assert_cmpint (result->exit_code, >, 0);
  g_assert_true (g_str_has_prefix (result->err, "stackpulse-report: "));
  g_assert_nonnull (strstr (result->err, "none.spool"));
  g_assert_cmpstr (result->out, ==, "");
}

static void
test_unknown_function (void)
{
  g_autoptr (SpChildResult) callers = report_args ((const char *const[]) {
    "callers", "no_such_function", spool (), NULL });
  g_autoptr (SpChildResult) focus = report_args ((const char *const[]) {
    "top", "--focus", "no_such_function", spool (), NULL });

  g_assert_cmpint (callers->exit_code, >, 0);
  g_assert_nonnull (strstr (callers->err, "no function named 'no_such_function'"));
  g_assert_cmpint (focus->exit_code, >, 0);
  g_assert_nonnull (strstr (focus->err, "no function named 'no_such_function'"));
}

static void
test_unknown_option (void)
{
  g_autoptr (SpChildResult) option = report_args ((const char *const[]) {
    "top", "--no-such-option", spool (), NULL });
  g_autoptr (SpChildResult) command = report_args ((const char *const[]) { "no-such-command", spool (), NULL });

  g_assert_cmpint (option->exit_code, ==, 2);
  g_assert_nonnull (strstr (option->err, "--no-such-option"));
  g_assert_nonnull (strstr (option->err, "Usage: stackpulse-report"));
  g_assert_cmpstr (option->out, ==, "");
  g_assert_cmpint (command->exit_code, ==, 2);
  g_assert_nonnull (strstr (command->err, "Usage: stackpulse-report"));
  /* A mistyped command is named, not only met with the usage. */
  g_assert_nonnull (strstr (command->err, "unknown command \"no-such-command\""));
}

/* The summary's command line is the one that was run, as a shell would
 * take it back: an argument with a ';' or a space stays one argument. */
static void
test_summary_command_quoted (void)
{
  g_autoptr (SpTestRecording) rec = sp_test_record (NULL, (const char *const[]) { "/bin/sh", "-c", ":", "a;b", "e f",
                                                                                 "it's", NULL });
  g_autofree char *out = NULL;

  g_assert_cmpint (rec->result->exit_code, ==, 0);
  out = sp_test_report (rec->dir, rec->spool, NULL);
  g_test_message ("%s", out);
  g_assert_nonnull (strstr (out, "\ncommand:   /bin/sh -c : 'a;b' 'e f' 'it'\\''s'\n"));
}

/* Numbers no option can mean: refused, exit 2, with the option and the
 * value named. A negative or NaN --min-percent once emptied the tree, and
 * --from after --to chose 0 samples without a word. */
static void
test_bad_numbers (void)
{
  static const char *const bad[][4] = {
    { "tree", "--min-percent", "-1", "-1" },
    { "tree", "--min-percent", "nan", "nan" },
    { "tree", "--min-percent", "101", "101" },
    { "top", "--from", "-0.5", "-0.5" },
    { "top", "--from", "inf", "inf" },
    { "top", "--to", "nan", "nan" },
    { "top", "--to", "0", "0" },
    { "top", "--to", "1e11", "1e11" },
    { "top", "--limit", "-1", "-1" },
    { "top", "--limit", "many", "many" },
    { "top", "--tid", "0", "0" },
    { "top", "--pid", "-7", "-7" },
  };
  get_recorded ();

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr (SpChildResult) result = report_args ((const char *const[]) {
        bad[i][0], bad[i][1], bad[i][2], spool (), NULL });

      g_test_message ("%s %s %s: %s", bad[i][0], bad[i][1], bad[i][2], result->err);
      g_assert_cmpint (result->exit_code, ==, 2);
      g_assert_nonnull (strstr (result->err, bad[i][1]));
      g_assert_nonnull (strstr (result->err, bad[i][3]));
      g_assert_cmpstr (result->out, ==, "");
    }
}

/* --from at or after --to is a range with nothing in it: said, not shown
 * as an empty report. */
static void
test_range_reversed (void)
{
  g_autoptr (SpChildResult) reversed = NULL;
  g_autoptr (SpChildResult) empty = NULL;

  get_recorded ();
  reversed = report_args ((const char *const[]) { "--from", "0.5", "--to", "0.2", spool (), NULL });
  empty = report_args ((const char *const[]) { "--from", "0.3", "--to", "0.3", spool (), NULL });
  g_assert_cmpint (reversed->exit_code, ==, 2);
  g_assert_nonnull (strstr (reversed->err, "--from 0.5 is not before --to 0.2"));
  g_assert_cmpstr (reversed->out, ==, "");
  g_assert_cmpint (empty->exit_code, ==, 2);
  g_assert_cmpstr (empty->out, ==, "");
}

/* A range past the last sample is a report with no sample, and a warning
 * saying where the samples end. */
static void
test_range_after_end (void)
{
  Recorded *r = get_recorded ();
  g_autoptr (SpChildResult) result = report_args ((const char *const[]) { "--from", "1000", spool (), NULL });

  g_test_message ("stderr: %s", result->err);
  g_assert_cmpint (result->exit_code, ==, 0);
  g_assert_nonnull (strstr (result->err, "warning: --from 1000 is after the last sample"));
  g_assert_cmpuint (parse_chosen_samples (result->out, NULL), ==, 0);
  g_assert_cmpfloat (r->duration_s, <, 1000);
}

/* A copy of the spool cut inside a record past its middle; returns its
 * path and the samples before the cut. */
static char *
make_damaged_copy (guint64 *n_samples)
{
  g_autofree char *contents = NULL;
  char *path = g_build_filename (dir (), "damaged.spool", NULL);
  gsize length;

  g_assert_true (g_file_get_contents (spool (), &contents, &length, NULL));
  for (gsize cut = length / 2; cut < length; cut++)
    {
      SpSpoolError err;
      SpSpoolReader *reader;
      guint64 parsed;

      g_assert_true (g_file_set_contents (path, contents, (gssize) cut, NULL));
      reader = sp_spool_reader_open_follow (path, &err);
      g_assert_nonnull (reader);
      sp_spool_reader_update (reader, &err);
      parsed = sp_spool_reader_get_parsed_size (reader);
      *n_samples = sp_spool_reader_get_n_samples (reader);
      sp_spool_reader_free (reader);
      if (parsed < cut)
        {
          g_test_message ("cut at byte %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT ", inside the record at %"
                          G_GUINT64_FORMAT, cut, length, parsed);
          return path;
        }
    }
  g_error ("no cut inside a record in the second half of %s", spool ());
}

static void
test_damaged_spool (void)
{
  g_autofree char *damaged = NULL;
  g_autoptr (SpChildResult) summary = NULL;
  g_autoptr (SpChildResult) collapsed = NULL;
  g_autoptr (GPtrArray) rows = NULL;
  g_autoptr (GHashTable) stacks = NULL;
  guint64 n_samples = 0, total = 0;

  get_recorded ();
  damaged = make_damaged_copy (&n_samples);
  g_assert_cmpuint (n_samples, >, 0);
  summary = sp_test_report_run (dir (), (const char *const[]) { damaged, NULL });
  g_test_message ("stderr: %s", summary->err);
  g_assert_cmpint (summary->exit_code, ==, 0);
  g_assert_true (g_str_has_prefix (summary->err, "stackpulse-report: warning: "));
  g_assert_nonnull (strstr (summary->out, "\ndamage:"));
  g_assert_cmpuint (parse_chosen_samples (summary->out, NULL), ==, n_samples);
  rows = sp_test_parse_rows (summary->out);
  g_assert_nonnull (sp_test_find_row (rows, "main_leaf"));

  collapsed = sp_test_report_run (dir (), (const char *const[]) { "collapsed", damaged, NULL });
  g_assert_cmpint (collapsed->exit_code, ==, 0);
  g_assert_nonnull (strstr (collapsed->err, "warning"));
  stacks = sp_test_parse_collapsed (collapsed->out, &total);
  g_assert_cmpuint (total, ==, n_samples);
  g_unlink (damaged);
}

int
main (int argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;

  g_test_add_func ("/report/summary", test_summary);
  g_test_add_func ("/report/summary/unwinding", test_summary_unwinding);
  g_test_add_func ("/report/tree/symbol-cache", test_tree_symbol_cache);
  g_test_add_func ("/report/top", test_top);
  g_test_add_func ("/report/top/stripped", test_top_stripped);
  g_test_add_func ("/report/tree/top-down", test_tree_top_down);
  g_test_add_func ("/report/tree/bottom-up", test_tree_bottom_up);
  g_test_add_func ("/report/callers", test_callers);
  g_test_add_func ("/report/callees", test_callees);
  g_test_add_func ("/report/collapsed", test_collapsed);
  g_test_add_func ("/report/filter/tid", test_filter_tid);
  g_test_add_func ("/report/filter/time-range", test_filter_time_range);
  g_test_add_func ("/report/errors/missing-file", test_missing_file);
  g_test_add_func ("/report/errors/unknown-function", test_unknown_function);
  g_test_add_func ("/report/errors/unknown-option", test_unknown_option);
  g_test_add_func ("/report/errors/damaged-spool", test_damaged_spool);
  g_test_add_func ("/report/errors/bad-numbers", test_bad_numbers);
  g_test_add_func ("/report/summary/command-quoted", test_summary_command_quoted);
  g_test_add_func ("/report/errors/range-reversed", test_range_reversed);
  g_test_add_func ("/report/errors/range-after-end", test_range_after_end);
  g_test_add_func ("/report/transform/focus", test_focus);
  g_test_add_func ("/report/transform/drop", test_drop);
  g_test_add_func ("/report/transform/merge", test_merge);
  g_test_add_func ("/report/transform/collapse-module", test_collapse_module);
  g_test_add_func ("/report/transform/same-share-in-top-and-tree", test_same_share_top_and_tree);
  status = g_test_run ();

  g_clear_pointer (&recorded.rec, sp_test_recording_free);
  g_clear_pointer (&recorded.collapsed, g_hash_table_unref);
  g_clear_pointer (&recorded.top, g_ptr_array_unref);
  g_free (recorded.workload);
  return status;
}
