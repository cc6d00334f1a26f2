/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-codec.c: the codec benchmark (bench/run builds and runs it).
 *
 * Writes a synthetic recording (bench-synth.c) with the real SpSpoolWriter
 * and SpModuleTable, reads it back with SpSpoolReader, and prints the
 * issue's figures against its targets: bytes per sample on disk; writer
 * samples/s; whole-file reader samples/s and MB/s next to a plain
 * sequential read of the same file in the same run (the floor); reader
 * memory per sample; and follow mode as a sanity figure. Every figure is the
 * median of --repeat runs, and the whole process (children included) is
 * pinned to one CPU. The reader runs in fresh child processes (this program
 * again, with --child-open), so each run starts from an empty heap. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench-probe.h"
#include "bench-synth.h"

#define MAX_REPEAT    101
#define FLOOR_CHUNK   (1024 * 1024)
#define FOLLOW_CHUNK  (64 * 1024)    /* the writer's buffer: what one flush appends */
#define PAGE          4096

#define TARGET_BYTES_PER_SAMPLE   10.0
#define TARGET_READER_RATE        30e6
#define TARGET_READER_MEMORY      16.0

typedef struct {
  size_t      n_samples;
  size_t      n_stacks;
  unsigned    repeat;
  const char *out;
  uint64_t    seed;
  int         cpu;
} Options;

typedef struct {
  double   wall;
  double   cpu;
  uint64_t bytes;
  uint64_t checksum;
} WriterFigures;

typedef struct {
  double read_wall;
  double mmap_wall;
} FloorFigures;

typedef struct {
  double  wall;
  double  cpu;
  double  heap;         /* bytes, medians */
  double  rss_anon;
  double  hwm_growth;
  double  minflt;
  bool    hwm_reset;
  BenchKv last;         /* tables of the last run */
} ReaderFigures;

typedef struct {
  double wall;
  double update_wall;
  double updates;
} FollowFigures;

static volatile uint64_t floor_sink;

/* ---- Options --------------------------------------------------------- */

static void
usage (FILE *out)
{
  fprintf (out,
           "Usage: bench-codec [OPTION...]\n"
           "Writes and reads back a synthetic SPULSE1 spool and prints the codec's figures.\n\n"
           "  --samples N   samples to write (default 10000000)\n"
           "  --stacks N    distinct stacks in the pool (default 50000)\n"
           "  --repeat R    runs per figure, medians reported (default 5)\n"
           "  --out PATH    the spool to write (kept); default a temporary file, deleted\n"
           "  --seed S      seed of the synthetic recording (default 1)\n"
           "  --cpu N       the CPU to pin to (default the last one allowed)\n"
           "  --open-only PATH  only open PATH with the whole-file reader, then exit\n"
           "                    (for perf stat, perf record, /usr/bin/time -v)\n"
           "Internal: --child-open PATH, --child-follow SRC DST.\n");
}

static bool
parse_options (int argc,
               char **argv,
               Options *opts)
{
  static const struct option long_options[] = {
    { "samples", required_argument, NULL, 'n' },
    { "stacks", required_argument, NULL, 's' },
    { "repeat", required_argument, NULL, 'r' },
    { "out", required_argument, NULL, 'o' },
    { "seed", required_argument, NULL, 'S' },
    { "cpu", required_argument, NULL, 'c' },
    { "help", no_argument, NULL, 'h' },
    { NULL, 0, NULL, 0 },
  };
  unsigned long long v = 0;
  bool ok = true;
  int c;

  *opts = (Options) { 10000000, 50000, 5, NULL, 1, -1 };
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
        case 'h':
          usage (stdout);
          exit (0);
        default:
          ok = false;
          break;
        }
    }
  return ok && optind == argc;
}

/* ---- Measurements ---------------------------------------------------- */

static bool
measure_writer (const BenchRecording *rec,
                const char *path,
                unsigned repeat,
                WriterFigures *fig)
{
  double wall[MAX_REPEAT], cpu[MAX_REPEAT];

  for (unsigned i = 0; i < repeat; i++)
    {
      BenchWriteResult result;
      SpSpoolError err;

      if (!bench_recording_write (rec, path, &result, &err))
        {
          fprintf (stderr, "bench-codec: writing %s: %s\n", path, err.message);
          return false;
        }
      if (i > 0 && (result.bytes != fig->bytes || result.checksum != fig->checksum))
        {
          fprintf (stderr, "bench-codec: writer run %u wrote a different spool\n", i + 1);
          return false;
        }
      fig->bytes = result.bytes;
      fig->checksum = result.checksum;
      wall[i] = result.wall;
      cpu[i] = result.cpu;
      fprintf (stderr, "  writer run %u: %.3f s\n", i + 1, result.wall);
    }
  fig->wall = bench_median (wall, repeat);
  fig->cpu = bench_median (cpu, repeat);
  return true;
}

static double
time_read_floor (const char *path,
                 uint8_t *buffer)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  uint64_t sink = 0;
  double t = bench_wall_now ();
  ssize_t n;

  while ((n = read (fd, buffer, FLOOR_CHUNK)) > 0)
    sink += buffer[n - 1];
  t = bench_wall_now () - t;
  close (fd);
  floor_sink += sink;
  return t;
}

/* Maps the file and touches every page, as the reader's mapping must. */
static double
time_mmap_floor (const char *path,
                 uint64_t size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  uint64_t sink = 0;
  double t = bench_wall_now ();
  const uint8_t *map = mmap (NULL, size, PROT_READ, MAP_SHARED, fd, 0);

  if (map != MAP_FAILED)
    {
      for (uint64_t offset = 0; offset < size; offset += PAGE)
        sink += map[offset];
      munmap ((void *) map, size);
    }
  t = bench_wall_now () - t;
  close (fd);
  floor_sink += sink;
  return t;
}

static bool
measure_floors (const char *path,
                uint64_t size,
                unsigned repeat,
                FloorFigures *fig)
{
  double read_wall[MAX_REPEAT], mmap_wall[MAX_REPEAT];
  uint8_t *buffer = malloc (FLOOR_CHUNK);

  if (buffer == NULL)
    return false;
  for (unsigned i = 0; i < repeat; i++)
    {
      read_wall[i] = time_read_floor (path, buffer);
      mmap_wall[i] = time_mmap_floor (path, size);
    }
  free (buffer);
  fig->read_wall = bench_median (read_wall, repeat);
  fig->mmap_wall = bench_median (mmap_wall, repeat);
  return true;
}

/* A child's view of the spool must be what the writer wrote. */
static bool
check_child (const BenchKv *kv,
             const char *what,
             size_t n_samples,
             uint64_t checksum)
{
  if (bench_kv_u64 (kv, "samples") == n_samples && bench_kv_u64 (kv, "checksum") == checksum)
    return true;
  fprintf (stderr, "bench-codec: %s read %" PRIu64 " samples (wrote %zu), checksum %s\n",
           what, bench_kv_u64 (kv, "samples"), n_samples,
           bench_kv_u64 (kv, "checksum") == checksum ? "equal" : "differs");
  return false;
}

static bool
measure_reader (const char *self,
                const char *path,
                const Options *opts,
                uint64_t checksum,
                ReaderFigures *fig)
{
  double wall[MAX_REPEAT], cpu[MAX_REPEAT], heap[MAX_REPEAT];
  double anon[MAX_REPEAT], hwm[MAX_REPEAT], minflt[MAX_REPEAT];
  const char *args[] = { "--child-open", path, NULL };

  fig->hwm_reset = true;
  for (unsigned i = 0; i < opts->repeat; i++)
    {
      BenchKv *kv = &fig->last;

      if (!bench_run_child (self, args, kv) || !check_child (kv, "reader", opts->n_samples, checksum))
        return false;
      wall[i] = bench_kv_double (kv, "wall");
      cpu[i] = bench_kv_double (kv, "cpu");
      heap[i] = bench_kv_double (kv, "heap");
      anon[i] = bench_kv_double (kv, "rss_anon");
      hwm[i] = bench_kv_double (kv, "hwm") - bench_kv_double (kv, "rss_before");
      minflt[i] = bench_kv_double (kv, "minflt");
      fig->hwm_reset = fig->hwm_reset && bench_kv_u64 (kv, "hwm_reset") == 1;
      fprintf (stderr, "  reader run %u: %.3f s\n", i + 1, wall[i]);
    }
  fig->wall = bench_median (wall, opts->repeat);
  fig->cpu = bench_median (cpu, opts->repeat);
  fig->heap = bench_median (heap, opts->repeat);
  fig->rss_anon = bench_median (anon, opts->repeat);
  fig->hwm_growth = bench_median (hwm, opts->repeat);
  fig->minflt = bench_median (minflt, opts->repeat);
  return true;
}

static bool
measure_follow (const char *self,
                const char *path,
                const char *copy,
                const Options *opts,
                uint64_t checksum,
                FollowFigures *fig)
{
  double wall[MAX_REPEAT], update_wall[MAX_REPEAT];
  BenchKv kv;
  bool ok = true;

  for (unsigned i = 0; ok && i < opts->repeat; i++)
    {
      const char *args[] = { "--child-follow", path, copy, NULL };

      ok = bench_run_child (self, args, &kv) && check_child (&kv, "follower", opts->n_samples, checksum);
      wall[i] = bench_kv_double (&kv, "wall");
      update_wall[i] = bench_kv_double (&kv, "update_wall");
      fig->updates = bench_kv_double (&kv, "updates");
    }
  unlink (copy);
  fig->wall = bench_median (wall, opts->repeat);
  fig->update_wall = bench_median (update_wall, opts->repeat);
  return ok;
}

/* ---- Report ---------------------------------------------------------- */

static void
print_shape (const BenchShape *shape,
             size_t n_samples,
             double gen_seconds)
{
  printf ("Synthetic recording (generated in %.1f s, before any timing):\n", gen_seconds);
  printf ("  %zu samples, %zu processes, %zu threads, %zu module records (kernel, forks, execs)\n",
          n_samples, shape->n_processes, shape->n_threads, shape->n_modules);
  printf ("  pool: %zu stacks, depth %u-%u (mean %.1f, %.1f per sample), %.0f%% with kernel frames\n"
          "        at the leaf, %.1f%% truncated, %.1f%% with a JIT leaf in no module\n",
          shape->n_stacks, shape->min_depth, shape->max_depth, shape->mean_depth,
          shape->mean_sample_depth, 100 * shape->kernel_share, 100 * shape->truncated_share,
          100 * shape->jit_share);
  printf ("  popularity (Zipf s=1 per thread): top stack %.1f%% of samples, top 10 %.1f%%,\n"
          "        %zu stacks cover half the samples\n",
          100 * shape->top1_share, 100 * shape->top10_share, shape->stacks_for_half);
  printf ("  timestamps: ~1 ms per thread, per-CPU drain order: %.1f%% negative deltas\n",
          100 * shape->negative_deltas);
  printf ("  precomputed for the writer loop: schedule %.0f MB, resolved frames %.0f MB\n\n",
          shape->schedule_bytes / 1e6, shape->pool_bytes / 1e6);
}

static void
print_row (const char *figure,
           const char *value,
           const char *target,
           int verdict)   /* 1 PASS, 0 MISS, -1 none */
{
  printf ("  %-44s %-24s %-12s %s\n", figure, value, target,
          verdict < 0 ? "" : verdict ? "PASS" : "MISS");
}

static void
print_reader_tables (const ReaderFigures *reader)
{
  const BenchKv *kv = &reader->last;

  printf ("Read back: %" PRIu64 " modules, %" PRIu64 " frames, %" PRIu64 " stack nodes, %" PRIu64
          " threads; %" PRIu64 " distinct stacks sampled\n\n",
          bench_kv_u64 (kv, "modules"), bench_kv_u64 (kv, "frames"),
          bench_kv_u64 (kv, "stack_nodes"), bench_kv_u64 (kv, "threads"),
          bench_kv_u64 (kv, "distinct_stacks"));
}

static void
print_speed_rows (const Options *opts,
                  const WriterFigures *writer,
                  const FloorFigures *floors,
                  const ReaderFigures *reader,
                  const FollowFigures *follow)
{
  double n = (double) opts->n_samples;
  double mb = (double) writer->bytes / 1e6;
  char value[64];

  snprintf (value, sizeof value, "%.2f M samples/s", n / writer->wall / 1e6);
  print_row ("writer (wall)", value, "-", -1);
  snprintf (value, sizeof value, "%.2f M samples/s", n / writer->cpu / 1e6);
  print_row ("writer (CPU time)", value, "-", -1);
  snprintf (value, sizeof value, "%.1f MB/s", mb / writer->wall);
  print_row ("writer throughput", value, "", -1);

  snprintf (value, sizeof value, "%.1f M samples/s", n / reader->wall / 1e6);
  print_row ("reader, whole file (wall)", value, ">= 30 M/s", n / reader->wall >= TARGET_READER_RATE);
  snprintf (value, sizeof value, "%.1f M samples/s", n / reader->cpu / 1e6);
  print_row ("reader, whole file (CPU time)", value, ">= 30 M/s", n / reader->cpu >= TARGET_READER_RATE);
  snprintf (value, sizeof value, "%.0f MB/s (%.0f ms)", mb / reader->wall, reader->wall * 1e3);
  print_row ("reader throughput", value, "", -1);
  snprintf (value, sizeof value, "%.0f MB/s (%.1f ms)", mb / floors->read_wall, floors->read_wall * 1e3);
  print_row ("floor: read() in 1 MiB chunks", value, "", -1);
  snprintf (value, sizeof value, "%.0f MB/s (%.1f ms)", mb / floors->mmap_wall, floors->mmap_wall * 1e3);
  print_row ("floor: mmap + touch every page", value, "", -1);
  snprintf (value, sizeof value, "%.1fx / %.1fx", reader->wall / floors->read_wall,
            reader->wall / floors->mmap_wall);
  print_row ("reader time / floor (read() / mmap)", value, "", -1);

  snprintf (value, sizeof value, "%.1f M samples/s", n / follow->update_wall / 1e6);
  print_row ("follow: updates only", value, "(sanity)", -1);
  snprintf (value, sizeof value, "%.1f M samples/s", n / follow->wall / 1e6);
  print_row ("follow: incl. appending the chunks", value, "(sanity)", -1);
  snprintf (value, sizeof value, "%.0f x 64 KiB", follow->updates);
  print_row ("follow: updates", value, "", -1);
}

static void
print_memory_rows (const Options *opts,
                   uint64_t file_bytes,
                   const ReaderFigures *reader)
{
  double n = (double) opts->n_samples;
  double file_pages = (double) ((file_bytes + PAGE - 1) / PAGE * PAGE);
  double peak_anon = reader->hwm_growth - file_pages;
  char value[64];

  snprintf (value, sizeof value, "%.2f B", reader->heap / n);
  print_row ("reader heap held / sample (malloc)", value, "<= 16 B", reader->heap / n <= TARGET_READER_MEMORY);
  snprintf (value, sizeof value, "%.2f B", reader->rss_anon / n);
  print_row ("reader resident anon / sample (RssAnon)", value, "<= 16 B",
             reader->rss_anon / n <= TARGET_READER_MEMORY);
  snprintf (value, sizeof value, "%.2f B%s", reader->hwm_growth / n, reader->hwm_reset ? "" : " (no reset)");
  print_row ("reader peak RSS / sample (VmHWM growth)", value, "-", -1);
  snprintf (value, sizeof value, "%.2f B", file_pages / n);
  print_row ("  of which file-backed: the mapped spool", value, "-", -1);
  snprintf (value, sizeof value, "%.2f B", peak_anon / n);
  print_row ("reader peak anon / sample (VmHWM - file)", value, "<= 16 B", peak_anon / n <= TARGET_READER_MEMORY);
  snprintf (value, sizeof value, "%.0f (%.0f new anon pages)", reader->minflt,
            reader->rss_anon / PAGE);
  print_row ("reader minor page faults during open", value, "", -1);
}

static void
print_table (const Options *opts,
             const WriterFigures *writer,
             const FloorFigures *floors,
             const ReaderFigures *reader,
             const FollowFigures *follow)
{
  double per_sample = (double) writer->bytes / (double) opts->n_samples;
  char value[64];

  printf ("Figures (median of %u runs; page cache warm for the reader and the floors alike):\n",
          opts->repeat);
  print_row ("figure", "value", "target", -1);
  snprintf (value, sizeof value, "%.2f B (%.1f MB)", per_sample, (double) writer->bytes / 1e6);
  print_row ("bytes per sample on disk", value, "<= 10 B", per_sample <= TARGET_BYTES_PER_SAMPLE);
  print_speed_rows (opts, writer, floors, reader, follow);
  print_memory_rows (opts, writer->bytes, reader);
  printf ("\nNotes: the writer figure times create + module preamble + one write_sample per sample\n"
          "+ close, from a precomputed schedule and pre-resolved frames. The reader figures are\n"
          "sp_spool_reader_open in a fresh child process (--child-open), timed inside it. Peak RSS\n"
          "counts the file's mapped pages, which are file-backed (page cache) and unmapped when\n"
          "open returns; 'peak anon' subtracts them. MB = 10^6 bytes. The targets are meant\n"
          "for 10M samples: with far fewer, the pool's definitions (frames, stack nodes, a few\n"
          "MB) dominate every per-sample figure.\n");
}

/* ---- Main ------------------------------------------------------------ */

static int
run_children_mode (int argc,
                   char **argv)
{
  if (argc == 3 && strcmp (argv[1], "--open-only") == 0)
    return bench_open_only (argv[2]);
  if (argc == 3 && strcmp (argv[1], "--child-open") == 0)
    return bench_child_open (argv[2]);
  if (argc == 4 && strcmp (argv[1], "--child-follow") == 0)
    return bench_child_follow (argv[2], argv[3], FOLLOW_CHUNK);
  return -1;
}

static bool
run_benchmark (const Options *opts,
               const char *self,
               const char *path,
               const char *follow_copy)
{
  WriterFigures writer = { 0 };
  FloorFigures floors = { 0 };
  ReaderFigures reader = { 0 };
  FollowFigures follow = { 0 };
  BenchRecording *rec;
  double gen = bench_wall_now ();

  rec = bench_recording_new (opts->n_samples, opts->n_stacks, opts->seed);
  if (rec == NULL)
    {
      fprintf (stderr, "bench-codec: out of memory generating the recording\n");
      return false;
    }
  print_shape (bench_recording_get_shape (rec), opts->n_samples, bench_wall_now () - gen);
  fflush (stdout);
  if (!measure_writer (rec, path, opts->repeat, &writer))
    {
      bench_recording_free (rec);
      return false;
    }
  bench_recording_free (rec);
  if (!measure_floors (path, writer.bytes, opts->repeat, &floors)
      || !measure_reader (self, path, opts, writer.checksum, &reader)
      || !measure_follow (self, path, follow_copy, opts, writer.checksum, &follow))
    return false;
  print_reader_tables (&reader);
  print_table (opts, &writer, &floors, &reader, &follow);
  return true;
}

int
main (int argc,
      char **argv)
{
  Options opts;
  char self[PATH_MAX];
  char *temp = NULL;
  char *follow_copy = NULL;
  int status = run_children_mode (argc, argv);
  int cpu;
  bool ok;

  if (status >= 0)
    return status;
  if (!parse_options (argc, argv, &opts))
    {
      usage (stderr);
      return 2;
    }
  if (!bench_self_path ("bench-codec", self, sizeof self))
    return 1;
  if (opts.out == NULL && (temp = bench_temp_spool_path ()) == NULL)
    {
      perror ("bench-codec: temporary file");
      return 1;
    }
  if (asprintf (&follow_copy, "%s.follow", temp ? temp : opts.out) < 0)
    return 1;
  bench_remove_on_signal (temp, follow_copy);

  cpu = bench_pin_to_one_cpu (opts.cpu);
  printf ("bench-codec: %zu samples, %zu stacks, %u runs per figure, spool %s%s\n",
          opts.n_samples, opts.n_stacks, opts.repeat, temp ? temp : opts.out,
          temp ? " (temporary)" : "");
  if (cpu >= 0)
    printf ("Pinned to CPU %d of %ld (sched_setaffinity; the reader children inherit it).\n\n",
            cpu, sysconf (_SC_NPROCESSORS_ONLN));
  else
    printf ("Not pinned: sched_setaffinity failed.\n\n");

  ok = run_benchmark (&opts, self, temp ? temp : opts.out, follow_copy);
  bench_remove_on_signal (NULL, NULL);
  if (temp != NULL)
    unlink (temp);
  free (temp);
  free (follow_copy);
  return ok ? 0 : 1;
}
