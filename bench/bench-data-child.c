/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-data-child.c: one fresh process that opens the spool with data/
 * and times what a viewer does first.
 *
 * Cold: sp_profile_open (reader, side file or /proc/kallsyms) and the first
 * full call tree, which resolves every frame it meets (ELF symbols, DWARF,
 * kernel symbols) and aggregates. Then, on the profile that is now open
 * and symbolized, the second query: a time range of range_samples samples
 * re-aggregated top-down (several windows, the median kept). Memory is read
 * from /proc/self/status once the first tree is built: VmHWM is the peak
 * so far, RssAnon what is held. Prints "key value" lines for
 * bench_run_child; after timeout_s seconds it prints "timed_out 1" and
 * exits, so that a pathological case still ends the benchmark. */
#include "bench-data.h"

#include <inttypes.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "bench-probe.h"
#include "sp-call-tree.h"
#include "sp-filter.h"
#include "sp-profile.h"

#define N_RANGES 5

typedef struct {
  double   wall;
  uint64_t samples;   /* the tree's root total */
  guint    n_nodes;
} TreeTiming;

static TreeTiming
time_tree (SpProfile *profile,
           const SpFilter *filter,
           bool bottom_up)
{
  double t = bench_wall_now ();
  SpCallTree *tree = sp_call_tree_new (profile, filter, NULL, bottom_up);
  TreeTiming timing = { bench_wall_now () - t, tree->nodes[0].total, tree->n_nodes };

  sp_call_tree_free (tree);
  return timing;
}

/* Windows of range_samples consecutive samples (by file order, which is
 * time order give or take the per-CPU drain), spread over the recording;
 * prints the median time and the samples the last window chose. */
static void
time_ranges (SpProfile *profile,
             size_t range_samples)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  size_t n = sp_spool_reader_get_n_samples (reader);
  double walls[N_RANGES];
  uint64_t chosen = 0;
  size_t runs = 0;

  /* A small spool (a quick run): a range of half of it. */
  if (range_samples >= n)
    range_samples = n / 2;
  for (size_t k = 0; k < N_RANGES && range_samples > 0; k++)
    {
      size_t first = (n - range_samples) * (k + 1) / (N_RANGES + 1);
      SpFilter *filter = sp_filter_new ();
      TreeTiming timing;

      sp_filter_set_time_range (filter, sp_spool_reader_get_sample_timestamp (reader, first),
                                sp_spool_reader_get_sample_timestamp (reader, first + range_samples));
      timing = time_tree (profile, filter, false);
      walls[runs++] = timing.wall;
      chosen = timing.samples;
      sp_filter_free (filter);
    }
  printf ("range_wall %.6f\nrange_samples %" PRIu64 "\n", bench_median (walls, runs), chosen);
}

static void
time_out (int sig)
{
  static const char line[] = "timed_out 1\n";

  /* Only async-signal-safe calls; what was printed is flushed already.
   * Exit status 0: the parent reads the figures it got. */
  _exit (write (STDOUT_FILENO, line, strlen (line)) < 0 ? 3 : 0);
}

int
bench_data_child (const char *path,
                  bool bottom_up,
                  size_t range_samples,
                  unsigned timeout_s)
{
  g_autoptr (GError) error = NULL;
  BenchStatus before, after;
  double t0, t1, cpu0;
  const SpSpoolReader *reader;
  SpProfile *profile;
  TreeTiming first;

  signal (SIGALRM, time_out);
  alarm (timeout_s);
  bench_read_status (&before);
  cpu0 = bench_cpu_now ();
  t0 = bench_wall_now ();
  profile = sp_profile_open (path, &error);
  if (profile == NULL)
    {
      fprintf (stderr, "bench-data: %s: %s\n", path, error->message);
      return 1;
    }
  t1 = bench_wall_now ();
  first = time_tree (profile, NULL, bottom_up);
  printf ("open_wall %.6f\ntree_wall %.6f\nfull_wall %.6f\nfull_cpu %.6f\n", t1 - t0, first.wall,
          bench_wall_now () - t0, bench_cpu_now () - cpu0);
  bench_read_status (&after);
  reader = sp_profile_get_reader (profile);
  printf ("samples %" PRIu64 "\nfile_samples %zu\ntree_nodes %u\nfunctions %u\nstacks %zu\nframes %zu\n",
          first.samples, sp_spool_reader_get_n_samples (reader), first.n_nodes, sp_profile_get_n_functions (profile),
          sp_spool_reader_get_n_stack_nodes (reader), sp_spool_reader_get_n_frames (reader));
  printf ("rss_before %" PRId64 "\nhwm %" PRId64 "\nrss_anon %" PRId64 "\nrss_file %" PRId64 "\n",
          before.vm_rss, after.vm_hwm, after.rss_anon, after.rss_file);
  printf ("symbol_problems %u\n", sp_profile_get_symbol_problems (profile)->len);
  fflush (stdout);

  time_ranges (profile, range_samples);
  fflush (stdout);
  sp_profile_unref (profile);
  return 0;
}
