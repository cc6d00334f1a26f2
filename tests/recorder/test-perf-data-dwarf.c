/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-perf-data-dwarf.c: perf record --call-graph dwarf, converted, is
 * unwound as completely as a live DWARF recording.
 *
 * The same workload is recorded twice: by perf with --call-graph dwarf
 * (then converted with stackpulse-record --input) and by
 * stackpulse-record --call-graph dwarf. The share of samples whose stack
 * reaches a thread's root (_start, clone3..., as the conformance matrix
 * counts it) must be at least the live recording's less a small margin:
 * the conversion runs the recorder's own unwinder on perf's registers and
 * stack copies. Its top self shares are perf report's within 3 points.
 * sp-work-threads (four threads; also built without frame pointers) and
 * sp-work-deep (a recursion 40 deep). */
#include <glib.h>
#include <string.h>

#include "perf-data-run.h"
#include "record-run.h"
#include "report-output.h"

#define MARGIN 0.05

static double
rooted_share (const char *dir,
              const char *spool)
{
  g_autofree char *collapsed = sp_test_report (dir, "collapsed", spool, NULL);
  g_autoptr (GHashTable) stacks = NULL;
  guint64 total = 0;

  stacks = sp_test_parse_collapsed (collapsed, &total);
  g_assert_cmpuint (total, >, 50);
  return sp_test_rooted_share (stacks);
}

static void
compare_with_live (const char *name,
                   const char *const *args)
{
  const char *perf = sp_test_perf_data_needs_perf ();
  g_autofree char *workload = NULL;
  g_autofree char *data = NULL;
  g_autoptr (SpChildResult) result = NULL;
  g_autoptr (SpTestRecording) live = NULL;
  g_autoptr (GPtrArray) command = g_ptr_array_new ();
  g_autofree char *spool = NULL;
  g_autofree char *meta = NULL;
  g_autofree char *dir = NULL;
  double converted_share, live_share;

  if (perf == NULL)
    return;
  dir = sp_test_make_dir ();
  workload = sp_test_workload (name);
  g_ptr_array_add (command, workload);
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (command, (char *) *a);
  g_ptr_array_add (command, NULL);
  data = sp_test_perf_record (perf, dir, "dwarf.data",
                              (const char *const[]) { "-F", "1000", "--call-graph", "dwarf", NULL },
                              (const char *const *) command->pdata);
  result = sp_test_convert (dir, data, NULL);
  g_assert_cmpint (result->exit_code, ==, 0);
  spool = g_build_filename (dir, "out.spool", NULL);
  meta = g_strconcat (spool, ".meta", NULL);
  g_assert_cmpuint (sp_test_meta_samples (meta), ==, sp_test_perf_samples (perf, dir, data, NULL));
  converted_share = rooted_share (dir, spool);
  sp_test_assert_top_shares (perf, dir, data, spool, 1);

  live = sp_test_record ((const char *const[]) { "--call-graph", "dwarf", NULL },
                         (const char *const *) command->pdata);
  sp_test_assert_recorded (live, name);
  live_share = rooted_share (live->dir, live->spool);
  g_test_message ("%s: %.1f%% of the converted samples reach a thread root, %.1f%% of the live recording's", name,
                  100 * converted_share, 100 * live_share);
  g_assert_cmpfloat (converted_share, >=, live_share - MARGIN);
  sp_test_remove_dir (dir);
}

static void
test_threads (void)
{
  compare_with_live ("threads", (const char *const[]) { "0.6", NULL });
}

/* Built without frame pointers: every caller is found through the CFI
 * from the stack pointer, which perf's data mappings must not shadow. */
static void
test_threads_nofp (void)
{
  compare_with_live ("threads_nofp", (const char *const[]) { "0.6", NULL });
}

static void
test_deep (void)
{
  compare_with_live ("deep", (const char *const[]) { "0.6", "40", NULL });
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perf-data/dwarf/threads", test_threads);
  g_test_add_func ("/perf-data/dwarf/threads-nofp", test_threads_nofp);
  g_test_add_func ("/perf-data/dwarf/deep", test_deep);
  return g_test_run ();
}
