/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-peer.c: stackpulse-report beside perf report.
 *
 * The workload (sp-work-threads, 1 s, four threads that each spend their
 * time in one leaf) is recorded once, by both profilers at the same time:
 * `perf record -g -F 1000 -- stackpulse-record -F 1000 -- workload`. Both
 * sample the same run, so however the scheduler split the CPUs between
 * the threads, and however the kernel or hypervisor spent a thread's time
 * (a paravirtualised interrupt path inside read()), both see the same
 * thing. Self-time shares of the leaves must agree between
 * `stackpulse-report top` and `perf report --no-children --sort sym`,
 * restricted to the workload's threads, within a few percentage points.
 *
 * Without perf the test fails when CI is set, and skips otherwise. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record-run.h"
#include "report-output.h"

#define SECONDS        "1"
#define TOLERANCE_PCT  5.0

/* The leaves (main_leaf, alpha_leaf, beta_leaf: user code; read_zero:
 * the kernel side of sp-gamma's read ()). */
static const struct {
  const char *name;
  char        perf_kind;   /* perf's "[.]" user, "[k]" kernel */
  const char *thread;      /* where it runs */
} leaves[] = {
  { "main_leaf", '.', "sp-work-threads" },
  { "alpha_leaf", '.', "sp-alpha" },
  { "beta_leaf", '.', "sp-beta" },
  { "read_zero", 'k', "sp-gamma" },
};

static gboolean
ci_is_set (void)
{
  const char *ci = g_getenv ("CI");

  return ci != NULL && *ci != '\0' && !g_str_equal (ci, "false") && !g_str_equal (ci, "0");
}

/* perf's "    27.30%  [.] main_leaf" lines: symbol -> share. */
static GHashTable *
parse_perf_report (const char *text)
{
  g_autoptr (GRegex) row = g_regex_new ("^\\s*([0-9.]+)%\\s+\\[(.)\\]\\s+(\\S.*?)\\s*$",
                                        G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  GHashTable *shares = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (g_regex_match (row, text, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree char *percent = g_match_info_fetch (match, 1);
      g_autofree char *kind = g_match_info_fetch (match, 2);
      g_autofree char *symbol = g_match_info_fetch (match, 3);
      char *key = g_strdup_printf ("%c %s", kind[0], symbol);
      double *share = g_new (double, 1);

      *share = g_ascii_strtod (percent, NULL);
      /* A symbol perf shows on two rows (two modules) is added up. */
      if (g_hash_table_contains (shares, key))
        *share += *(double *) g_hash_table_lookup (shares, key);
      g_hash_table_insert (shares, key, share);
    }
  return shares;
}

static double
perf_share (GHashTable *shares,
            char kind,
            const char *symbol)
{
  g_autofree char *key = g_strdup_printf ("%c %s", kind, symbol);
  double *share = g_hash_table_lookup (shares, key);

  return share != NULL ? *share : 0.0;
}

/* The workload's threads, by name, for perf report's --comms. */
static char *
workload_comms (void)
{
  g_autoptr (GString) comms = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    if (strstr (comms->str, leaves[i].thread) == NULL)
      g_string_append_printf (comms, "%s%s", comms->len > 0 ? "," : "", leaves[i].thread);
  return g_string_free (g_steal_pointer (&comms), FALSE);
}

/* perf report's self shares by symbol in perf.data, of the workload's
 * threads' samples only (the recorder's own samples are left out). */
static GHashTable *
perf_self_shares (const char *perf,
                  const char *dir,
                  const char *data)
{
  g_autofree char *comms = workload_comms ();
  g_autoptr (SpChildResult) report = NULL;

  report = sp_test_run (dir, "perf-report",
                        (const char *const[]) { perf, "report", "--no-children", "--stdio", "--sort", "sym",
                                                "-g", "none", "--comms", comms, "--percentage", "relative",
                                                "-i", data, NULL });
  g_assert_cmpint (report->exit_code, ==, 0);
  g_test_message ("perf report:\n%s", report->out);
  return parse_perf_report (report->out);
}

/* perf record -g -F 1000 -- stackpulse-record -o DIR/out.spool -F 1000
 * -- workload SECONDS, in a new folder. */
static SpTestRecording *
record_with_both (const char *perf,
                  const char *workload,
                  char **perf_data)
{
  char *dir = sp_test_make_dir ();
  g_autofree char *spool = g_build_filename (dir, "out.spool", NULL);
  SpChildResult *result;

  *perf_data = g_build_filename (dir, "perf.data", NULL);
  result = sp_test_run (dir, "record",
                        (const char *const[]) { perf, "record", "-g", "-F", "1000", "-o", *perf_data, "--",
                                                sp_test_recorder (), "-o", spool, "-F", "1000", "--",
                                                workload, SECONDS, NULL });
  g_test_message ("perf record and stackpulse-record's stderr:\n%s", result->err);
  g_assert_cmpint (result->exit_code, ==, 0);
  return sp_test_recording_new (dir, result);
}

static void
test_self_shares (gconstpointer data)
{
  const char *perf = data;
  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *perf_data = NULL;
  g_autoptr (SpTestRecording) rec = record_with_both (perf, workload, &perf_data);
  g_autofree char *top = sp_test_report (rec->dir, "top", rec->spool, NULL);
  g_autoptr (GPtrArray) rows = sp_test_parse_rows (top);
  g_autoptr (GHashTable) perf_shares = perf_self_shares (perf, rec->dir, perf_data);
  double worst = 0;

  g_test_message ("%-11s %10s %8s", "leaf", "stackpulse", "perf");
  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    {
      const SpReportRow *row = sp_test_find_row (rows, leaves[i].name);
      double ours = row != NULL ? row->self_pct : 0.0;
      double theirs = perf_share (perf_shares, leaves[i].perf_kind, leaves[i].name);

      g_test_message ("%-11s %9.2f%% %7.2f%%", leaves[i].name, ours, theirs);
      worst = MAX (worst, fabs (ours - theirs));
    }
  g_test_message ("largest difference: %.2f points (tolerance %.0f)", worst, TOLERANCE_PCT);
  for (guint i = 0; i < G_N_ELEMENTS (leaves); i++)
    {
      const SpReportRow *row = sp_test_find_row (rows, leaves[i].name);
      double theirs = perf_share (perf_shares, leaves[i].perf_kind, leaves[i].name);

      /* Both saw the leaf, and agree on its share. */
      g_assert_nonnull (row);
      g_assert_cmpfloat (theirs, >, 0.0);
      g_assert_cmpfloat (row->self_pct, >, 0.0);
      g_assert_cmpfloat_with_epsilon (row->self_pct, theirs, TOLERANCE_PCT);
    }
}

int
main (int argc,
      char **argv)
{
  g_autofree char *perf = NULL;

  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;
  perf = g_find_program_in_path ("perf");
  if (perf == NULL)
    {
      if (ci_is_set ())
        g_error ("perf is not installed, but CI is set: the peer test must run in CI "
                 "(apt-get install linux-perf)");
      printf ("1..0 # SKIP perf is not installed (apt-get install linux-perf)\n");
      return 0;
    }

  g_test_add_data_func ("/report/peer/perf-self-shares", perf, test_self_shares);
  return g_test_run ();
}
