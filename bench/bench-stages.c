/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-stages.c: the reader, stack counting and the window's model,
 * stage by stage (bench/run-scale runs it).
 *
 *   bench-stages stages SPOOL REPEAT   each stage timed REPEAT times in this
 *                                      process, the best kept: the codec's
 *                                      whole-file reader, the sample index,
 *                                      the timeline's lanes over all of it,
 *                                      stack counting of every sample and of
 *                                      a tenth of the time span; samples/s
 *   bench-stages memory SPOOL          what each step of an open keeps, in
 *                                      a fresh process: read, indexed,
 *                                      counted, the first tree
 *   bench-stages report SPOOL [no-inline]  a report's steps, once, in this
 *                                      process as stackpulse-report runs
 *                                      them (the symbol cache as
 *                                      XDG_CACHE_HOME has it): open, stack
 *                                      counts, the first tree (frames
 *                                      resolved), a second tree, the
 *                                      function list; and how many stack
 *                                      nodes, frames, counted stacks,
 *                                      functions and tree nodes there are
 *   bench-stages window SPOOL TIMEOUT  the window's model: SpAnalysis opens
 *                                      the spool as the window does (its
 *                                      worker, trees with inline frames, the
 *                                      index snapshot); time to the first
 *                                      result and the memory then
 *
 * Prints "key value" lines. Memory is /proc/self/status's: VmHWM (the
 * peak, which counts every page the process touched, the mapped spool's
 * included), RssAnon and RssFile once the stage is done. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-probe.h"
#include "sp-analysis.h"
#include "sp-call-tree.h"
#include "sp-function-list.h"
#include "sp-sample-index.h"
#include "sp-stack-counts.h"
#include "sp-timeline.h"

/* ---- Stages ------------------------------------------------------------ */

typedef struct {
  double wall;
  double cpu;
} Timing;

static void
keep_best (Timing *best,
           double wall0,
           double cpu0)
{
  double wall = bench_wall_now () - wall0, cpu = bench_cpu_now () - cpu0;

  if (best->wall == 0 || wall < best->wall)
    best->wall = wall;
  if (best->cpu == 0 || cpu < best->cpu)
    best->cpu = cpu;
}

static void
print_stage (const char *name,
             const Timing *t,
             size_t n)
{
  printf ("%s_wall %.6f\n%s_cpu %.6f\n%s_rate %.0f\n", name, t->wall, name, t->cpu, name,
          t->cpu > 0 ? (double) n / t->cpu : 0);
}

static void
print_memory (const char *prefix)
{
  BenchStatus st;

  bench_read_status (&st);
  printf ("%s_hwm %" PRId64 "\n%s_anon %" PRId64 "\n%s_file %" PRId64 "\n", prefix, st.vm_hwm, prefix,
          st.rss_anon, prefix, st.rss_file);
}

static int
run_stages (const char *path,
            unsigned repeat)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (SpProfile) profile = NULL;
  Timing reader_t = { 0 }, index_t = { 0 }, timeline_t = { 0 }, counts_t = { 0 }, range_t = { 0 };
  g_autoptr (SpSampleIndex) kept_index = NULL;
  const SpSpoolReader *reader;
  guint64 first_ns, last_ns;
  size_t n = 0;
  BenchStatus before;

  bench_read_status (&before);
  printf ("base_rss %" PRId64 "\n", before.vm_rss);
  for (unsigned i = 0; i < repeat; i++)
    {
      SpSpoolError err;
      double w = bench_wall_now (), c = bench_cpu_now ();
      SpSpoolReader *r = sp_spool_reader_open (path, &err);

      if (r == NULL)
        {
          fprintf (stderr, "bench-stages: %s: %s\n", path, err.message);
          return 1;
        }
      keep_best (&reader_t, w, c);
      n = sp_spool_reader_get_n_samples (r);
      if (i == 0)
        print_memory ("reader");
      sp_spool_reader_free (r);
    }
  print_stage ("reader", &reader_t, n);

  profile = sp_profile_open (path, &error);
  if (profile == NULL)
    {
      fprintf (stderr, "bench-stages: %s: %s\n", path, error->message);
      return 1;
    }
  reader = sp_profile_get_reader (profile);
  print_memory ("profile");
  for (unsigned i = 0; i < repeat; i++)
    {
      double w = bench_wall_now (), c = bench_cpu_now ();
      SpSampleIndex *index = sp_sample_index_new ();

      sp_sample_index_update (index, reader);
      keep_best (&index_t, w, c);
      if (i == 0)
        print_memory ("index");
      g_clear_pointer (&kept_index, sp_sample_index_unref);
      kept_index = index;
    }
  print_stage ("index", &index_t, n);

  /* The timeline's lanes over the whole recording, as the window first
   * counts them (about 1,200 pixels wide: a bucket a pixel). */
  if (kept_index != NULL && sp_sample_index_get_time_span (kept_index, &first_ns, &last_ns))
    {
      for (unsigned i = 0; i < repeat; i++)
        {
          double w = bench_wall_now (), c = bench_cpu_now ();
          SpTimeline *timeline = sp_timeline_new (kept_index, first_ns, last_ns + 1, 1200);

          keep_best (&timeline_t, w, c);
          sp_timeline_free (timeline);
        }
      print_stage ("timeline", &timeline_t, n);
    }

  /* Frames are resolved once, by the first count's paths elsewhere:
   * counting itself reads only stacks and threads. */
  for (unsigned i = 0; i < repeat; i++)
    {
      double w = bench_wall_now (), c = bench_cpu_now ();
      SpStackCounts *counts = sp_stack_counts_new (profile, NULL);

      keep_best (&counts_t, w, c);
      sp_stack_counts_free (counts);
    }
  print_stage ("counts", &counts_t, n);

  if (sp_spool_reader_get_sample_time_span (reader, &first_ns, &last_ns))
    {
      guint64 tenth = (last_ns - first_ns) / 10;
      g_autoptr (SpFilter) filter = sp_filter_new ();
      guint64 chosen = 0;

      sp_filter_set_time_range (filter, first_ns + 4 * tenth, first_ns + 5 * tenth);
      for (unsigned i = 0; i < repeat; i++)
        {
          double w = bench_wall_now (), c = bench_cpu_now ();
          SpStackCounts *counts = sp_stack_counts_new (profile, filter);

          keep_best (&range_t, w, c);
          chosen = counts->n_samples;
          sp_stack_counts_free (counts);
        }
      print_stage ("range", &range_t, chosen);
      printf ("range_samples %" PRIu64 "\n", chosen);
    }
  printf ("samples %zu\n", n);
  return 0;
}

/* ---- Memory, step by step ---------------------------------------------- */

/* In a fresh process, as the window's worker opens a file: what each step
 * adds to the memory held (RssAnon) and to the peak. */
static int
run_memory (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (SpProfile) profile = NULL;
  g_autoptr (SpSampleIndex) index = sp_sample_index_new ();
  g_autoptr (SpStackCounts) counts = NULL;
  g_autoptr (SpCallTree) tree = NULL;

  print_memory ("start");
  profile = sp_profile_open_follow (path, &error);
  if (profile == NULL)
    {
      fprintf (stderr, "bench-stages: %s: %s\n", path, error->message);
      return 1;
    }
  sp_profile_update (profile);
  sp_profile_finish (profile);
  print_memory ("read");
  sp_sample_index_update (index, sp_profile_get_reader (profile));
  print_memory ("indexed");
  counts = sp_stack_counts_new (profile, NULL);
  print_memory ("counted");
  tree = sp_call_tree_new (profile, NULL, counts, FALSE);
  print_memory ("tree");
  printf ("samples %zu\n", sp_spool_reader_get_n_samples (sp_profile_get_reader (profile)));
  return 0;
}

/* ---- A report, step by step ----------------------------------------- */

static void
print_step (const char *name,
            double *wall,
            double *cpu)
{
  double w = bench_wall_now (), c = bench_cpu_now ();

  printf ("%s_wall %.6f\n%s_cpu %.6f\n", name, w - *wall, name, c - *cpu);
  *wall = w;
  *cpu = c;
}

static int
run_report (const char *path,
            gboolean inline_frames)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (SpProfile) profile = NULL;
  g_autoptr (SpStackCounts) counts = NULL;
  g_autoptr (SpCallTree) tree = NULL;
  g_autoptr (SpCallTree) again = NULL;
  g_autoptr (GArray) functions = NULL;
  const SpSpoolReader *reader;
  double wall = bench_wall_now (), cpu = bench_cpu_now ();

  profile = sp_profile_open (path, &error);
  if (profile == NULL)
    {
      fprintf (stderr, "bench-stages: %s: %s\n", path, error->message);
      return 1;
    }
  sp_profile_set_inline_frames (profile, inline_frames);
  sp_profile_set_dwarf (profile, inline_frames);
  print_step ("open", &wall, &cpu);
  counts = sp_stack_counts_new (profile, NULL);
  print_step ("counts", &wall, &cpu);
  tree = sp_call_tree_new (profile, NULL, counts, FALSE);
  print_step ("tree", &wall, &cpu);
  again = sp_call_tree_new (profile, NULL, counts, FALSE);
  print_step ("tree_again", &wall, &cpu);
  functions = sp_function_list_new (profile, NULL, counts);
  print_step ("functions", &wall, &cpu);
  reader = sp_profile_get_reader (profile);
  printf ("samples %zu\nstack_nodes %zu\nframes %zu\ncounted_stacks %u\nfunctions %u\n"
          "tree_nodes %u\nlisted_functions %u\n",
          sp_spool_reader_get_n_samples (reader), sp_spool_reader_get_n_stack_nodes (reader),
          sp_spool_reader_get_n_frames (reader), counts->stacks->len, sp_profile_get_n_functions (profile),
          tree->n_nodes, functions->len);
  print_memory ("report");
  return 0;
}

/* ---- The window's model ------------------------------------------------ */

typedef struct {
  GMainLoop *loop;
  gboolean   opened;
  gboolean   failed;
  gsize      n_samples;
} WindowRun;

static void
on_result (SpAnalysis *analysis,
           SpAnalysisResult *result,
           gpointer user_data)
{
  WindowRun *run = user_data;

  if (result->opened && result->call_tree != NULL)
    {
      run->opened = TRUE;
      run->n_samples = result->n_samples;
      g_main_loop_quit (run->loop);
    }
}

static void
on_failed (SpAnalysis *analysis,
           const GError *error,
           gpointer user_data)
{
  WindowRun *run = user_data;

  fprintf (stderr, "bench-stages: %s\n", error->message);
  run->failed = TRUE;
  g_main_loop_quit (run->loop);
}

static gboolean
give_up (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

static int
run_window (const char *path,
            unsigned timeout_s)
{
  g_autoptr (SpAnalysis) analysis = sp_analysis_new ();
  g_autoptr (GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  WindowRun run = { loop, FALSE, FALSE, 0 };
  double t0;

  g_signal_connect (analysis, "result", G_CALLBACK (on_result), &run);
  g_signal_connect (analysis, "failed", G_CALLBACK (on_failed), &run);
  g_timeout_add_seconds (timeout_s, give_up, loop);
  t0 = bench_wall_now ();
  sp_analysis_open (analysis, path);
  g_main_loop_run (loop);
  if (run.failed)
    return 1;
  printf ("timed_out %d\nwindow_wall %.6f\nsamples %zu\n", !run.opened, bench_wall_now () - t0, run.n_samples);
  print_memory ("window");
  return 0;
}

int
main (int argc,
      char **argv)
{
  if (argc == 4 && strcmp (argv[1], "stages") == 0)
    return run_stages (argv[2], (unsigned) CLAMP (strtoul (argv[3], NULL, 10), 1, 50));
  if (argc == 3 && strcmp (argv[1], "memory") == 0)
    return run_memory (argv[2]);
  if ((argc == 3 || argc == 4) && strcmp (argv[1], "report") == 0)
    return run_report (argv[2], argc == 3 || strcmp (argv[3], "no-inline") != 0);
  if (argc == 4 && strcmp (argv[1], "window") == 0)
    return run_window (argv[2], (unsigned) CLAMP (strtoul (argv[3], NULL, 10), 1, 3600));
  fprintf (stderr, "Usage: bench-stages stages SPOOL REPEAT | memory SPOOL | report SPOOL [no-inline]\n"
           "       | window SPOOL TIMEOUT_S\n");
  return 2;
}
