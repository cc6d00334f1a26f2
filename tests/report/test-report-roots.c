/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-roots.c: the summary's "reach the thread's root" figure is
 * what the stacks show.
 *
 * sp-work-cut's unwind tables end its stacks at cut_root, so the unwinder
 * counts every stack complete while none reaches _start; the threads
 * workload without frame pointers reaches its roots in auto mode but not
 * in fp mode. Each is recorded for real, and the summary's figures (the
 * "stacks:" line, and the unwinding section's in auto mode) must agree
 * with the share of collapsed stacks that start at a thread root. */
#include <glib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record-run.h"
#include "report-output.h"

#define SECONDS "0.6"

/* The percentage that pattern (a regex with the number as its group)
 * finds on a line of the summary. */
static double
reach_percent (const char *summary,
               const char *pattern)
{
  g_autoptr (GRegex) regex = g_regex_new (pattern, G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  g_autofree char *number = NULL;

  if (!g_regex_match (regex, summary, 0, &match))
    g_error ("no line /%s/ in the summary:\n%s", pattern, summary);
  number = g_match_info_fetch (match, 1);
  return g_ascii_strtod (number, NULL);
}

/* The share of collapsed samples whose outermost frame is _start or
 * clone3: what the workloads' whole stacks start with. */
static double
rooted_percent (const char *collapsed)
{
  g_autoptr (GHashTable) stacks = NULL;
  GHashTableIter iter;
  gpointer key, value;
  guint64 total, rooted = 0;

  stacks = sp_test_parse_collapsed (collapsed, &total);
  g_hash_table_iter_init (&iter, stacks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (g_str_has_prefix (key, "_start;") || g_str_has_prefix (key, "clone3;"))
      rooted += *(guint64 *) value;
  g_assert_cmpuint (total, >, 50);
  return 100.0 * (double) rooted / (double) total;
}

typedef struct {
  double summary_stacks;     /* the "stacks:" line's figure */
  double summary_unwinding;  /* the unwinding section's, or -1 (fp mode) */
  double counted;            /* from the collapsed stacks */
  char  *summary;
} Figures;

static Figures
record_and_read (const char *workload,
                 const char *call_graph)
{
  g_autofree char *program = sp_test_workload (workload);
  const char *const options[] = { "--call-graph", call_graph, NULL };
  g_autoptr (SpTestRecording) rec = sp_test_record (options, (const char *const[]) { program, SECONDS, NULL });
  g_autofree char *collapsed = NULL;
  Figures figures;

  sp_test_assert_recorded (rec, workload);
  figures.summary = sp_test_report (rec->dir, "summary", rec->spool, NULL);
  collapsed = sp_test_report (rec->dir, "collapsed", rec->spool, NULL);
  figures.summary_stacks = reach_percent (figures.summary, "^stacks: ([0-9.]+)% of [0-9]+ reach their thread's root");
  figures.summary_unwinding = g_str_equal (call_graph, "fp")
                                ? -1 : reach_percent (figures.summary, "^  [0-9]+ stacks: ([0-9.]+)% reach the thread's root");
  figures.counted = rooted_percent (collapsed);
  g_test_message ("%s, --call-graph %s: summary %.1f%% (unwinding %.1f%%), stacks %.1f%%", workload, call_graph,
                  figures.summary_stacks, figures.summary_unwinding, figures.counted);
  return figures;
}

/* Within a sample or two per hundred: the summary also counts stacks
 * rooted at libc's own thread starts, which the test does not. */
static void
assert_agrees (const Figures *figures)
{
  if (fabs (figures->summary_stacks - figures->counted) > 2.0
      || (figures->summary_unwinding >= 0 && fabs (figures->summary_unwinding - figures->counted) > 2.0))
    g_error ("the summary says %.1f%% (unwinding: %.1f%%) reach their root, the stacks %.1f%%:\n%s",
             figures->summary_stacks, figures->summary_unwinding, figures->counted, figures->summary);
}

static void
test_cut_stacks (void)
{
  Figures figures = record_and_read ("cut", "auto");

  assert_agrees (&figures);
  g_assert_cmpfloat (figures.counted, <, 5.0);
  g_free (figures.summary);
}

static void
test_whole_stacks (void)
{
  Figures figures = record_and_read ("threads_nofp", "auto");

  assert_agrees (&figures);
  g_assert_cmpfloat (figures.counted, >, 95.0);
  g_free (figures.summary);
}

/* fp mode has no unwinding section; the "stacks:" line still tells, with
 * what to do about it. */
static void
test_frame_pointers_that_do_not_hold (void)
{
  Figures figures = record_and_read ("threads_nofp", "fp");

  assert_agrees (&figures);
  g_assert_cmpfloat (figures.counted, <, 50.0);
  g_assert_nonnull (strstr (figures.summary, "record with --call-graph auto"));
  g_free (figures.summary);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;
  g_test_add_func ("/report/roots/cut-stacks", test_cut_stacks);
  g_test_add_func ("/report/roots/whole-stacks", test_whole_stacks);
  g_test_add_func ("/report/roots/frame-pointers-that-do-not-hold", test_frame_pointers_that_do_not_hold);
  return g_test_run ();
}
