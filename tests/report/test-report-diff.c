/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-diff.c: stackpulse-report diff on two real recordings.
 *
 * sp-work-diff is recorded twice with the real stackpulse-record: before
 * (FACTOR 1: diff_changed and diff_steady do equal work) and after
 * (FACTOR 3: diff_changed's work tripled). The diff must lead with
 * diff_changed, at the change its self shares in each recording's own
 * `top` imply (about +27 points: 1/3 to 3/5), and diff_steady must fall
 * by about half as much. Two builds of a program under other names are
 * compared function by function. Then the CLI on bad input: the same file twice, a
 * damaged B, a perf.data from the real perf, a text file, one file. */
#include <glib/gstdio.h>
#include <string.h>

#include "report-output.h"

#define SECONDS "2"

typedef struct {
  SpTestRecording *before;
  SpTestRecording *after;
} Recorded;

static Recorded recorded;

static SpTestRecording *
record_factor (const char *factor)
{
  g_autofree char *workload = sp_test_workload ("diff");
  SpTestRecording *rec = sp_test_record (NULL, (const char *const[]) { workload, SECONDS, factor, NULL });

  g_test_message ("factor %s: recorder's stderr:\n%s", factor, rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  return rec;
}

static const Recorded *
get_recorded (void)
{
  if (recorded.before == NULL)
    {
      recorded.before = record_factor ("1");
      recorded.after = record_factor ("3");
    }
  return &recorded;
}

/* A function's self share in `top` of the recording. */
static double
self_share_in_top (const SpTestRecording *rec,
                   const char *function)
{
  g_autofree char *top = sp_test_report (rec->dir, "top", "--limit", "0", rec->spool, NULL);
  g_autoptr (GPtrArray) rows = sp_test_parse_rows (top);
  const SpReportRow *row = sp_test_find_row (rows, function);

  g_assert_nonnull (row);
  return row->self_pct;
}

typedef struct {
  char   *function;
  char   *module;
  double  self_a;
  double  self_b;
  double  total_a;
  double  total_b;
  double  delta;
  char   *side;
} TsvRow;

static void
tsv_row_free (TsvRow *row)
{
  g_free (row->function);
  g_free (row->module);
  g_free (row->side);
  g_free (row);
}

/* The rows of diff --tsv, after checking its header line. */
static GPtrArray *
parse_tsv (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) tsv_row_free);

  g_assert_cmpstr (lines[0], ==, "function\tmodule\tself_a\tself_b\ttotal_a\ttotal_b\tdelta\tside");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], "\t", -1);
      TsvRow *row = g_new0 (TsvRow, 1);

      g_assert_cmpuint (g_strv_length (fields), ==, 8);
      row->function = g_strdup (fields[0]);
      row->module = g_strdup (fields[1]);
      row->self_a = g_ascii_strtod (fields[2], NULL);
      row->self_b = g_ascii_strtod (fields[3], NULL);
      row->total_a = g_ascii_strtod (fields[4], NULL);
      row->total_b = g_ascii_strtod (fields[5], NULL);
      row->delta = g_ascii_strtod (fields[6], NULL);
      row->side = g_strdup (fields[7]);
      g_ptr_array_add (rows, row);
    }
  return rows;
}

static const TsvRow *
find_tsv_row (GPtrArray *rows,
              const char *function)
{
  for (guint i = 0; i < rows->len; i++)
    if (g_str_equal (((TsvRow *) rows->pdata[i])->function, function))
      return rows->pdata[i];
  g_error ("no row for %s in the diff", function);
}

static void
test_tripled (void)
{
  const Recorded *r;
  g_autofree char *tsv = NULL;
  g_autoptr (GPtrArray) rows = NULL;
  const TsvRow *changed, *steady;
  double before, after;

  if (!sp_test_case_needs_perf ())
    return;
  r = get_recorded ();
  tsv = sp_test_report (r->before->dir, "diff", "--tsv", r->before->spool, r->after->spool, NULL);
  rows = parse_tsv (tsv);
  changed = rows->pdata[0];
  g_test_message ("first rows:\n%.*s", 400, tsv);
  g_assert_cmpstr (changed->function, ==, "diff_changed");
  g_assert_cmpstr (changed->module, ==, "sp-work-diff");
  g_assert_cmpstr (changed->side, ==, "both");
  before = self_share_in_top (r->before, "diff_changed");
  after = self_share_in_top (r->after, "diff_changed");
  g_test_message ("diff_changed self: %.2f%% before, %.2f%% after (top); diff says %+.4f", before, after,
                  changed->delta);
  /* top prints one decimal. */
  g_assert_cmpfloat_with_epsilon (changed->self_a, before, 0.051);
  g_assert_cmpfloat_with_epsilon (changed->self_b, after, 0.051);
  g_assert_cmpfloat_with_epsilon (changed->delta, changed->self_b - changed->self_a, 1e-3);
  /* The work tripled: 1/3 to 3/5 of the program's samples. */
  g_assert_cmpfloat (changed->delta, >, 19.0);
  g_assert_cmpfloat (changed->delta, <, 35.0);
  steady = find_tsv_row (rows, "diff_steady");
  g_assert_cmpfloat (steady->delta, <, -8.0);
  g_assert_cmpfloat (steady->delta, >, -19.0);
  /* main is under every sample of both. */
  g_assert_cmpfloat (find_tsv_row (rows, "main")->total_a, >, 95.0);
  g_assert_cmpfloat (find_tsv_row (rows, "main")->total_b, >, 95.0);
}

/* The text form: a header naming both sides, then the same order. */
static void
test_text (void)
{
  const Recorded *r;
  g_autofree char *text = NULL;
  const char *first_row;
  g_auto (GStrv) rows = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  r = get_recorded ();
  text = sp_test_report (r->before->dir, "diff", "--limit", "3", r->before->spool, r->after->spool, NULL);
  sp_test_assert_contains (text, "self A");
  sp_test_assert_contains (text, "change");
  first_row = strstr (text, "function\n");
  g_assert_nonnull (first_row);
  first_row += strlen ("function\n");
  g_assert_true (strstr (first_row, "diff_changed") < strchr (first_row, '\n'));
  rows = g_strsplit (first_row, "\n", -1);
  g_assert_cmpuint (g_strv_length (rows), ==, 4);
}

/* --normalize time: time per second of each run. Each side's values are
 * its shares times the part of a CPU the program had (main's total): the
 * same factor for every function of a side, whatever else the machine
 * was doing during either run. */
static void
test_normalize_time (void)
{
  const Recorded *r;
  g_autofree char *shares_tsv = NULL;
  g_autofree char *times_tsv = NULL;
  g_autoptr (GPtrArray) shares = NULL;
  g_autoptr (GPtrArray) times = NULL;
  const char *const functions[] = { "diff_changed", "diff_steady", "diff_other" };

  if (!sp_test_case_needs_perf ())
    return;
  r = get_recorded ();
  shares_tsv = sp_test_report (r->before->dir, "diff", "--tsv", r->before->spool, r->after->spool, NULL);
  times_tsv = sp_test_report (r->before->dir, "diff", "--tsv", "--normalize", "time", r->before->spool,
                              r->after->spool, NULL);
  shares = parse_tsv (shares_tsv);
  times = parse_tsv (times_tsv);
  for (guint side = 0; side < 2; side++)
    {
      const TsvRow *main_share = find_tsv_row (shares, "main");
      const TsvRow *main_time = find_tsv_row (times, "main");
      double cpu = (side == 0 ? main_time->total_a / main_share->total_a : main_time->total_b / main_share->total_b);

      /* The part of a CPU the program had: more than a tenth, at most one. */
      g_assert_cmpfloat (cpu, >, 0.1);
      g_assert_cmpfloat (cpu, <=, 1.01);
      for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
        {
          const TsvRow *share = find_tsv_row (shares, functions[i]);
          const TsvRow *time = find_tsv_row (times, functions[i]);

          g_assert_cmpfloat_with_epsilon (side == 0 ? time->self_a : time->self_b,
                                          (side == 0 ? share->self_a : share->self_b) * cpu, 0.01);
        }
    }
}

static void
test_same_file (void)
{
  const Recorded *r;
  g_autofree char *tsv = NULL;
  g_autoptr (SpChildResult) result = NULL;
  g_autoptr (GPtrArray) rows = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  r = get_recorded ();
  result = sp_test_report_run (r->before->dir, (const char *const[]) { "diff", "--tsv", r->before->spool,
                                                                        r->before->spool, NULL });
  g_assert_cmpint (result->exit_code, ==, 0);
  sp_test_assert_contains (result->err, "A and B are the same file");
  rows = parse_tsv (result->out);
  for (guint i = 0; i < rows->len; i++)
    g_assert_cmpfloat (((TsvRow *) rows->pdata[i])->delta, ==, 0.0);
}

/* B with garbage after its records (a cut could end on a record's
 * boundary, which is no damage): every record before the damage is
 * compared, and stderr says so. */
static void
test_damaged (void)
{
  const Recorded *r;
  g_autofree char *contents = NULL;
  g_autofree char *damaged = NULL;
  g_autofree char *which = NULL;
  g_autoptr (SpChildResult) result = NULL;
  g_autoptr (GPtrArray) rows = NULL;
  gsize length;

  if (!sp_test_case_needs_perf ())
    return;
  r = get_recorded ();
  damaged = g_build_filename (r->before->dir, "damaged.spool", NULL);
  g_assert_true (g_file_get_contents (r->after->spool, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 1000);
  contents = g_realloc (contents, length + 9);
  memcpy (contents + length, "\xee garbage", 9);
  g_assert_true (g_file_set_contents (damaged, contents, (gssize) (length + 9), NULL));
  result = sp_test_report_run (r->before->dir, (const char *const[]) { "diff", "--tsv", r->before->spool,
                                                                        damaged, NULL });
  g_assert_cmpint (result->exit_code, ==, 0);
  sp_test_assert_contains (result->err, "showing every record before it");
  /* Which of the two is damaged. */
  which = g_strdup_printf ("warning: B (%s): ", damaged);
  sp_test_assert_contains (result->err, which);
  rows = parse_tsv (result->out);
  g_assert_cmpstr (((TsvRow *) rows->pdata[0])->function, ==, "diff_changed");
  g_unlink (damaged);
}

/* A perf.data of the real perf and a text file are refused, naming
 * what they look like; one file is a usage error. */
static void
test_not_recordings (void)
{
  const Recorded *r;
  g_autofree char *workload = sp_test_workload ("diff");
  g_autofree char *perf_data = NULL;
  g_autofree char *perf_path = NULL;
  g_autofree char *text = NULL;
  g_autoptr (SpChildResult) perf = NULL;
  g_autoptr (SpChildResult) with_perf = NULL;
  g_autoptr (SpChildResult) with_text = NULL;
  g_autoptr (SpChildResult) one_file = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  r = get_recorded ();
  perf_data = g_build_filename (r->before->dir, "perf.data", NULL);
  text = g_build_filename (r->before->dir, "notes.txt", NULL);
  g_assert_true (g_file_set_contents (text, "not a recording\n", -1, NULL));
  perf_path = g_find_program_in_path ("perf");
  if (perf_path == NULL && g_getenv ("CI") != NULL)
    g_error ("perf is not installed (package linux-perf)");
  if (perf_path == NULL)
    g_test_message ("perf is not installed: the perf.data case is left out");
  else
    {
      perf = sp_test_run (r->before->dir, "perf",
                          (const char *const[]) { perf_path, "record", "-q", "-o", perf_data, "--", workload, "0.2",
                                                  "1", NULL });
      g_assert_cmpint (perf->exit_code, ==, 0);
      with_perf = sp_test_report_run (r->before->dir, (const char *const[]) { "diff", r->before->spool, perf_data,
                                                                               NULL });
      g_assert_cmpint (with_perf->exit_code, ==, 1);
      sp_test_assert_contains (with_perf->err, "perf.data");
      g_assert_cmpstr (with_perf->out, ==, "");
    }
  with_text = sp_test_report_run (r->before->dir, (const char *const[]) { "diff", text, r->after->spool, NULL });
  g_assert_cmpint (with_text->exit_code, ==, 1);
  sp_test_assert_contains (with_text->err, "notes.txt");
  g_assert_cmpstr (with_text->out, ==, "");
  one_file = sp_test_report_run (r->before->dir, (const char *const[]) { "diff", r->before->spool, NULL });
  g_assert_cmpint (one_file->exit_code, ==, 2);
  sp_test_assert_contains (one_file->err, "diff takes two files");
  g_unlink (text);
  g_unlink (perf_data);
}

/* Two builds of one program under other names (with and without frame
 * pointers, as gcc and clang builds would be): B's launched program is
 * compared with A's, so the same functions are rows of both, not each
 * "A only" and "B only". */
static void
test_two_builds (void)
{
  g_autofree char *fp = sp_test_workload ("threads");
  g_autofree char *nofp = sp_test_workload ("threads_nofp");
  g_autoptr (SpTestRecording) a = NULL;
  g_autoptr (SpTestRecording) b = NULL;
  g_autofree char *out = NULL;
  g_autoptr (GPtrArray) rows = NULL;
  const char *const leaves[] = { "alpha_leaf", "beta_leaf", "main_leaf" };

  if (!sp_test_case_needs_perf ())
    return;
  a = sp_test_record (NULL, (const char *const[]) { fp, "1", NULL });
  b = sp_test_record (NULL, (const char *const[]) { nofp, "1", NULL });
  g_assert_cmpint (a->result->exit_code, ==, 0);
  g_assert_cmpint (b->result->exit_code, ==, 0);
  out = sp_test_report (a->dir, "diff", "--tsv", a->spool, b->spool, NULL);
  g_test_message ("diff:\n%s", out);
  rows = parse_tsv (out);
  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    {
      const TsvRow *row = find_tsv_row (rows, leaves[i]);

      g_assert_cmpstr (row->side, ==, "both");
      g_assert_cmpstr (row->module, ==, "sp-work-threads");
      g_assert_cmpfloat (row->self_a, >, 5);
      g_assert_cmpfloat (row->self_b, >, 5);
    }
}

int
main (int argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/diff/tripled", test_tripled);
  g_test_add_func ("/report/diff/text", test_text);
  g_test_add_func ("/report/diff/normalize-time", test_normalize_time);
  g_test_add_func ("/report/diff/same-file", test_same_file);
  g_test_add_func ("/report/diff/two-builds", test_two_builds);
  g_test_add_func ("/report/diff/damaged", test_damaged);
  g_test_add_func ("/report/diff/not-recordings", test_not_recordings);
  status = g_test_run ();
  g_clear_pointer (&recorded.before, sp_test_recording_free);
  g_clear_pointer (&recorded.after, sp_test_recording_free);
  return status;
}
