/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-data.c: the profile model's benchmark (bench/run-data runs it).
 *
 * Writes bench-codec's synthetic 10M-sample recording (bench-synth.c), but
 * with its user modules pointing at real files of this machine
 * (bench-real-modules.c), so that opening it symbolizes for real. Then
 * measures data/'s API in fresh child processes (this program again, with
 * --child), pinned to one CPU: time from sp_profile_open to the full
 * top-down tree, the same to the full bottom-up tree, the re-aggregation
 * of a 1M-sample time range on the open profile (the second query), and
 * peak memory per sample. Prints the figures against their targets, and
 * with --rows FILE also writes them as tab-separated rows for the runner's
 * summary table. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench-data.h"
#include "bench-probe.h"

#define MAX_REPEAT 21

#define TARGET_FULL_TREE_S     1.0
#define TARGET_RANGE_S         0.050
#define TARGET_BYTES_PER_SAMPLE 100.0

typedef struct {
  size_t      n_samples;
  size_t      n_stacks;
  size_t      range_samples;
  unsigned    repeat;
  uint64_t    seed;
  int         cpu;
  const char *out;       /* keep the spool here */
  const char *spool;     /* measure this spool instead of writing one */
  const char *rows;      /* tab-separated figures for bench/run-data */
  bool        write_only;
  unsigned    timeout_s;  /* per child */
} Options;

/* Medians over the children of one direction; a run that timed out
 * ends the series. */
typedef struct {
  unsigned runs;        /* that finished their first tree */
  bool     timed_out;   /* a run did not finish (its tree, or the ranges) */
  bool     range_done;
  double   open;
  double   tree;
  double   full;
  double   full_cpu;
  double   range;
  double   hwm;
  double   rss_anon;
  double   rss_file;
  double   rss_before;
  BenchKv  last;
} ChildFigures;

static FILE *rows_file;

/* ---- Options --------------------------------------------------------- */

static void
usage (FILE *out)
{
  fprintf (out,
           "Usage: bench-data [OPTION...]\n"
           "Writes a synthetic spool naming real modules, opens it with data/ and prints the\n"
           "profile model's figures.\n\n"
           "  --samples N   samples to write (default 10000000)\n"
           "  --stacks N    distinct stacks in the pool (default 50000)\n"
           "  --range N     samples in the re-aggregated time range (default 1000000)\n"
           "  --repeat R    child runs per direction, medians reported (default 3)\n"
           "  --seed S      seed of the synthetic recording (default 1)\n"
           "  --cpu N       the CPU to pin to (default the last one allowed)\n"
           "  --out PATH    write the spool there and keep it (default: temporary)\n"
           "  --spool PATH  measure an existing spool, write none\n"
           "  --rows FILE   also write the figures as tab-separated rows\n"
           "  --write-only  write the spool (--out) and stop\n"
           "  --timeout S   give up on a measuring child after S seconds (default 60)\n"
           "  --child PATH top-down|bottom-up RANGE TIMEOUT   one measuring child (for perf record)\n");
}

static bool
parse_options (int argc,
               char **argv,
               Options *opts)
{
  static const struct option long_options[] = {
    { "samples", required_argument, NULL, 'n' },
    { "stacks", required_argument, NULL, 's' },
    { "range", required_argument, NULL, 'g' },
    { "repeat", required_argument, NULL, 'r' },
    { "seed", required_argument, NULL, 'S' },
    { "cpu", required_argument, NULL, 'c' },
    { "out", required_argument, NULL, 'o' },
    { "spool", required_argument, NULL, 'p' },
    { "rows", required_argument, NULL, 'w' },
    { "write-only", no_argument, NULL, 'W' },
    { "timeout", required_argument, NULL, 't' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  unsigned long long v = 0;
  bool ok = true;
  int c;

  *opts = (Options) { 10000000, 50000, 1000000, 3, 1, -1, NULL, NULL, NULL, false, 60 };
  while (ok && (c = getopt_long (argc, argv, "", long_options, NULL)) != -1)
    {
      switch (c)
        {
        case 'n':
          ok = bench_parse_number (optarg, 1, SIZE_MAX / 64, &v);
          opts->n_samples = (size_t) v;
          break;
        case 's':
          ok = bench_parse_number (optarg, 1, 50000000, &v);
          opts->n_stacks = (size_t) v;
          break;
        case 'g':
          ok = bench_parse_number (optarg, 1, SIZE_MAX / 64, &v);
          opts->range_samples = (size_t) v;
          break;
        case 'r':
          ok = bench_parse_number (optarg, 1, MAX_REPEAT, &v);
          opts->repeat = (unsigned) v;
          break;
        case 'S':
          ok = bench_parse_number (optarg, 0, UINT64_MAX, &v);
          opts->seed = v;
          break;
        case 'c':
          ok = bench_parse_number (optarg, 0, CPU_SETSIZE - 1, &v);
          opts->cpu = (int) v;
          break;
        case 'o':
          opts->out = optarg;
          break;
        case 'p':
          opts->spool = optarg;
          break;
        case 'w':
          opts->rows = optarg;
          break;
        case 'W':
          opts->write_only = true;
          break;
        case 't':
          ok = bench_parse_number (optarg, 1, 86400, &v);
          opts->timeout_s = (unsigned) v;
          break;
        case 'h': usage (stdout); exit (0);
        default:
          ok = false;
          break;
        }
    }
  return ok && optind == argc && (!opts->write_only || opts->out != NULL);
}

/* ---- The spool ------------------------------------------------------- */

static char *temp_path;

static bool
write_spool (const Options *opts,
             const char *path)
{
  double t = bench_wall_now ();
  BenchWriteResult result;
  SpSpoolError err;
  BenchRecording *rec;
  const BenchShape *shape;
  bool ok;

  printf ("Modules of the synthetic system, as real files:\n");
  rec = bench_recording_new_mapped (opts->n_samples, opts->n_stacks, opts->seed, bench_real_module, stdout);
  if (rec == NULL)
    {
      fprintf (stderr, "bench-data: out of memory generating the recording\n");
      return false;
    }
  shape = bench_recording_get_shape (rec);
  ok = bench_recording_write (rec, path, &result, &err);
  if (!ok)
    fprintf (stderr, "bench-data: writing %s: %s\n", path, err.message);
  else
    printf ("\nWrote %zu samples (%zu processes, %zu threads, %zu distinct stacks of depth %u-%u, %.0f%% with\n"
            "kernel frames, %.1f%% JIT leaves) to %s: %.1f MB, generated and written in %.1f s.\n\n",
            opts->n_samples, shape->n_processes, shape->n_threads, shape->n_stacks, shape->min_depth,
            shape->max_depth, 100 * shape->kernel_share, 100 * shape->jit_share, path, (double) result.bytes / 1e6,
            bench_wall_now () - t);
  bench_recording_free (rec);
  return ok;
}

/* ---- Measuring ------------------------------------------------------- */

static bool
run_child (const char *self,
           const char *path,
           const Options *opts,
           bool bottom_up,
           BenchKv *kv)
{
  char range[32], timeout[32];
  const char *args[] = { "--child", path, bottom_up ? "bottom-up" : "top-down", range, timeout, NULL };

  snprintf (range, sizeof range, "%zu", opts->range_samples);
  snprintf (timeout, sizeof timeout, "%u", opts->timeout_s);
  if (!bench_run_child (self, args, kv))
    {
      fprintf (stderr, "bench-data: the measuring child failed\n");
      return false;
    }
  return true;
}

static bool
measure (const char *self,
         const char *path,
         const Options *opts,
         bool bottom_up,
         ChildFigures *fig)
{
  double open[MAX_REPEAT], tree[MAX_REPEAT], full[MAX_REPEAT], cpu[MAX_REPEAT], range[MAX_REPEAT];
  double hwm[MAX_REPEAT], anon[MAX_REPEAT], file[MAX_REPEAT], before[MAX_REPEAT];
  unsigned n = 0;
  BenchKv kv;

  memset (fig, 0, sizeof *fig);
  for (unsigned i = 0; i < opts->repeat && !fig->timed_out; i++)
    {
      if (!run_child (self, path, opts, bottom_up, &kv))
        return false;
      fig->timed_out = bench_kv_u64 (&kv, "timed_out") == 1;
      fprintf (stderr, "  %s run %u: %s\n", bottom_up ? "bottom-up" : "top-down", i + 1,
               bench_kv_u64 (&kv, "samples") == 0 ? "timed out before the tree was built" : "done");
      if (bench_kv_u64 (&kv, "samples") == 0)
        break;
      fig->last = kv;
      open[n] = bench_kv_double (&kv, "open_wall");
      tree[n] = bench_kv_double (&kv, "tree_wall");
      full[n] = bench_kv_double (&kv, "full_wall");
      cpu[n] = bench_kv_double (&kv, "full_cpu");
      range[n] = bench_kv_double (&kv, "range_wall");
      hwm[n] = bench_kv_double (&kv, "hwm");
      anon[n] = bench_kv_double (&kv, "rss_anon");
      file[n] = bench_kv_double (&kv, "rss_file");
      before[n] = bench_kv_double (&kv, "rss_before");
      n++;
    }
  fig->runs = n;
  fig->range_done = !fig->timed_out && n > 0;
  fig->open = bench_median (open, n);
  fig->tree = bench_median (tree, n);
  fig->full = bench_median (full, n);
  fig->full_cpu = bench_median (cpu, n);
  fig->range = bench_median (range, n);
  fig->hwm = bench_median (hwm, n);
  fig->rss_anon = bench_median (anon, n);
  fig->rss_file = bench_median (file, n);
  fig->rss_before = bench_median (before, n);
  return true;
}

/* ---- Report ---------------------------------------------------------- */

static void
print_row (const char *figure,
           const char *value,
           const char *target,
           int verdict)   /* 1 PASS, 0 MISS, -1 none */
{
  const char *word = verdict < 0 ? "" : verdict ? "PASS" : "MISS";

  printf ("  %-50s %-30s %-10s %s\n", figure, value, target, word);
  if (rows_file != NULL && verdict != -2)
    fprintf (rows_file, "%s\t%s\t%s\t%s\n", figure, value, target, word);
}

static void
print_tree_rows (const char *direction,
                 const ChildFigures *fig,
                 unsigned timeout_s)
{
  char figure[80], value[64];

  snprintf (figure, sizeof figure, "synthetic: open + full %s tree", direction);
  if (fig->runs == 0)
    {
      snprintf (value, sizeof value, "> %u s (gave up)", timeout_s);
      print_row (figure, value, "<= 1 s", 0);
      return;
    }
  snprintf (value, sizeof value, "%.3f s (open %.3f + tree %.3f)", fig->full, fig->open, fig->tree);
  print_row (figure, value, "<= 1 s", fig->full <= TARGET_FULL_TREE_S);
  snprintf (value, sizeof value, "%.3f s", fig->full_cpu);
  print_row ("  the same, CPU time", value, "", -1);
}

static void
print_memory_rows (const ChildFigures *down,
                   const ChildFigures *up,
                   double n)
{
  char value[64];

  if (down->runs == 0)
    return;
  snprintf (value, sizeof value, "%.1f B (%.0f MB)", down->hwm / n, down->hwm / 1e6);
  print_row ("synthetic: peak RSS / sample (VmHWM)", value, "< 100 B", down->hwm / n < TARGET_BYTES_PER_SAMPLE);
  snprintf (value, sizeof value, "%.1f B (%.0f MB)", down->rss_anon / n, down->rss_anon / 1e6);
  print_row ("synthetic: resident anon / sample (RssAnon)", value, "< 100 B",
             down->rss_anon / n < TARGET_BYTES_PER_SAMPLE);
  snprintf (value, sizeof value, "%.1f B (%.0f MB)", down->rss_file / n, down->rss_file / 1e6);
  print_row ("  resident file-backed / sample (RssFile)", value, "", -1);
  if (up->runs == 0)
    return;
  snprintf (value, sizeof value, "%.1f B (%.0f MB)", up->hwm / n, up->hwm / 1e6);
  print_row ("  peak RSS / sample, bottom-up tree (VmHWM)", value, "", -1);
}

static void
print_table (const Options *opts,
             const ChildFigures *down,
             const ChildFigures *up)
{
  const BenchKv *kv = down->runs > 0 ? &down->last : &up->last;
  double n = (double) bench_kv_u64 (kv, "file_samples");
  char value[64];

  if (down->runs > 0 || up->runs > 0)
    printf ("Opened: %" PRIu64 " samples, %" PRIu64 " frames, %" PRIu64 " stack nodes -> %" PRIu64
            " functions, %" PRIu64 " tree nodes; %" PRIu64 " symbol problems reported\n\n",
            bench_kv_u64 (kv, "file_samples"), bench_kv_u64 (kv, "frames"), bench_kv_u64 (kv, "stacks"),
            bench_kv_u64 (kv, "functions"), bench_kv_u64 (kv, "tree_nodes"), bench_kv_u64 (kv, "symbol_problems"));
  printf ("Figures (median of up to %u fresh child processes per direction, pinned to one CPU):\n", opts->repeat);
  print_row ("figure", "value", "target", -2);
  print_tree_rows ("top-down", down, opts->timeout_s);
  print_tree_rows ("bottom-up", up, opts->timeout_s);
  if (down->range_done)
    snprintf (value, sizeof value, "%.1f ms (%" PRIu64 " samples)", down->range * 1e3,
              bench_kv_u64 (&down->last, "range_samples"));
  else
    snprintf (value, sizeof value, "> %u s with the tree (gave up)", opts->timeout_s);
  print_row ("synthetic: re-aggregate a time range (2nd query)", value, "< 50 ms",
             down->range_done && down->range < TARGET_RANGE_S);
  print_memory_rows (down, up, n);
  printf ("\nNotes: memory is read once the first tree is built; VmHWM counts the mapped spool's\n"
          "pages and the libraries' (the child held %.0f MB before opening). With no side file,\n"
          "kernel frames resolve against this machine's /proc/kallsyms, read during the open.\n"
          "A child still running after %u s is stopped and its figure reported as a MISS.\n",
          down->rss_before / 1e6, opts->timeout_s);
}

/* ---- Main ------------------------------------------------------------ */

static int
run (const Options *opts,
     const char *self)
{
  ChildFigures down = { 0 }, up = { 0 };
  const char *path = opts->spool != NULL ? opts->spool : opts->out;
  int cpu = bench_pin_to_one_cpu (opts->cpu);
  bool ok = true;

  if (path == NULL)
    {
      path = temp_path = bench_temp_spool_path ();
      if (path == NULL)
        {
          perror ("bench-data: temporary file");
          return 1;
        }
      bench_remove_on_signal (temp_path, NULL);
    }
  if (cpu >= 0)
    printf ("bench-data: pinned to CPU %d of %ld (the children inherit it)\n\n", cpu,
            sysconf (_SC_NPROCESSORS_ONLN));
  if (opts->spool == NULL)
    ok = write_spool (opts, path);
  fflush (stdout);
  if (opts->write_only)
    return ok ? 0 : 1;
  ok = ok && measure (self, path, opts, false, &down) && measure (self, path, opts, true, &up);
  if (ok)
    print_table (opts, &down, &up);
  if (temp_path != NULL)
    unlink (temp_path);
  return ok ? 0 : 1;
}

int
main (int argc,
      char **argv)
{
  Options opts;
  char self[PATH_MAX];
  int status;

  if (argc == 6 && strcmp (argv[1], "--child") == 0)
    return bench_data_child (argv[2], strcmp (argv[3], "bottom-up") == 0, strtoull (argv[4], NULL, 10),
                             (unsigned) strtoul (argv[5], NULL, 10));
  if (!parse_options (argc, argv, &opts))
    {
      usage (stderr);
      return 2;
    }
  if (!bench_self_path ("bench-data", self, sizeof self))
    return 1;
  if (opts.rows != NULL && (rows_file = fopen (opts.rows, "w")) == NULL)
    {
      perror (opts.rows);
      return 1;
    }
  status = run (&opts, self);
  if (rows_file != NULL)
    fclose (rows_file);
  free (temp_path);
  return status;
}
