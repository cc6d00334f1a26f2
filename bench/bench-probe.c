/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-probe.c: clocks, memory probes and the child probes of bench-codec.
 *
 * The reader is measured in a child that does nothing else: exec'd fresh,
 * it starts with a small heap, so the malloc and RSS deltas around
 * sp_spool_reader_open are the reader's, and VmHWM is the open's peak. */
#include "bench-probe.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sp-spool-reader.h"

/* ---- Clocks and memory ----------------------------------------------- */

static double
clock_seconds (clockid_t clock)
{
  struct timespec ts;

  clock_gettime (clock, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

double
bench_wall_now (void)
{
  return clock_seconds (CLOCK_MONOTONIC);
}

double
bench_cpu_now (void)
{
  return clock_seconds (CLOCK_THREAD_CPUTIME_ID);
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return x < y ? -1 : x > y;
}

double
bench_median (const double *values,
              size_t n)
{
  double *sorted;
  double median;

  if (n == 0)
    return 0;
  sorted = malloc (n * sizeof *sorted);
  if (sorted == NULL)
    return values[0];
  memcpy (sorted, values, n * sizeof *sorted);
  qsort (sorted, n, sizeof *sorted, compare_doubles);
  median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  free (sorted);
  return median;
}

bool
bench_read_status (BenchStatus *status)
{
  FILE *file = fopen ("/proc/self/status", "re");
  char line[256];

  memset (status, 0, sizeof *status);
  if (file == NULL)
    return false;
  while (fgets (line, sizeof line, file) != NULL)
    {
      long long kb;

      if (sscanf (line, "VmRSS: %lld kB", &kb) == 1)
        status->vm_rss = kb * 1024;
      else if (sscanf (line, "VmHWM: %lld kB", &kb) == 1)
        status->vm_hwm = kb * 1024;
      else if (sscanf (line, "RssAnon: %lld kB", &kb) == 1)
        status->rss_anon = kb * 1024;
      else if (sscanf (line, "RssFile: %lld kB", &kb) == 1)
        status->rss_file = kb * 1024;
    }
  fclose (file);
  return true;
}

bool
bench_reset_peak_rss (void)
{
  int fd = open ("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
  bool ok;

  if (fd < 0)
    return false;
  ok = write (fd, "5", 1) == 1;
  close (fd);
  return ok;
}

int64_t
bench_heap_in_use (void)
{
  struct mallinfo2 info = mallinfo2 ();

  return (int64_t) (info.uordblks + info.hblkhd);
}

/* ---- Children -------------------------------------------------------- */

static void
parse_kv (char *text,
          BenchKv *kv)
{
  char *save = NULL;

  kv->n = 0;
  for (char *line = strtok_r (text, "\n", &save); line != NULL; line = strtok_r (NULL, "\n", &save))
    {
      if (kv->n == BENCH_KV_MAX)
        break;
      if (sscanf (line, "%31s %31s", kv->keys[kv->n], kv->values[kv->n]) == 2)
        kv->n++;
    }
}

/* Reads fd to the end into a NUL-terminated buffer. */
static char *
read_all (int fd)
{
  size_t len = 0;
  size_t capacity = 4096;
  char *text = malloc (capacity);

  while (text != NULL)
    {
      ssize_t n;

      if (len + 1 == capacity)
        {
          char *grown = realloc (text, capacity * 2);

          if (grown == NULL)
            break;
          text = grown;
          capacity *= 2;
        }
      n = read (fd, text + len, capacity - 1 - len);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          text[len] = '\0';
          return text;
        }
      len += (size_t) n;
    }
  free (text);
  return NULL;
}

bool
bench_run_child (const char *self,
                 const char *const *args,
                 BenchKv *kv)
{
  extern char **environ;
  char *argv[16];
  size_t n = 0;
  posix_spawn_file_actions_t actions;
  int fds[2];
  pid_t pid;
  int status;
  char *text;

  argv[n++] = (char *) self;
  for (size_t i = 0; args[i] != NULL && n < 15; i++)
    argv[n++] = (char *) args[i];
  argv[n] = NULL;

  if (pipe2 (fds, O_CLOEXEC) != 0)
    return false;
  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_adddup2 (&actions, fds[1], STDOUT_FILENO);
  if (posix_spawn (&pid, self, &actions, NULL, argv, environ) != 0)
    {
      posix_spawn_file_actions_destroy (&actions);
      close (fds[0]);
      close (fds[1]);
      return false;
    }
  posix_spawn_file_actions_destroy (&actions);
  close (fds[1]);
  text = read_all (fds[0]);
  close (fds[0]);
  while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (text == NULL)
    return false;
  parse_kv (text, kv);
  free (text);
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

static const char *
kv_lookup (const BenchKv *kv,
           const char *key)
{
  for (size_t i = 0; i < kv->n; i++)
    if (strcmp (kv->keys[i], key) == 0)
      return kv->values[i];
  return NULL;
}

double
bench_kv_double (const BenchKv *kv,
                 const char *key)
{
  const char *value = kv_lookup (kv, key);

  return value != NULL ? strtod (value, NULL) : 0;
}

uint64_t
bench_kv_u64 (const BenchKv *kv,
              const char *key)
{
  const char *value = kv_lookup (kv, key);

  return value != NULL ? strtoull (value, NULL, 10) : 0;
}

/* ---- What the reader holds ------------------------------------------- */

/* The same checksum the writer side computes: timestamp, stack id, tid. */
static uint64_t
reader_checksum (const SpSpoolReader *reader)
{
  const uint32_t *stacks = sp_spool_reader_get_sample_stacks (reader);
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  size_t n = sp_spool_reader_get_n_samples (reader);
  uint64_t h = 0;

  for (size_t i = 0; i < n; i++)
    {
      h = bench_mix (h, sp_spool_reader_get_sample_timestamp (reader, i));
      h = bench_mix (h, stacks[i]);
      h = bench_mix (h, threads[sp_spool_reader_get_sample_thread (reader, i)].tid);
    }
  return h;
}

static size_t
count_distinct_stacks (const SpSpoolReader *reader)
{
  const uint32_t *stacks = sp_spool_reader_get_sample_stacks (reader);
  size_t n = sp_spool_reader_get_n_samples (reader);
  uint8_t *seen = calloc (sp_spool_reader_get_n_stack_nodes (reader) + 1, 1);
  size_t distinct = 0;

  if (seen == NULL)
    return 0;
  for (size_t i = 0; i < n; i++)
    if (!seen[stacks[i]])
      {
        seen[stacks[i]] = 1;
        distinct++;
      }
  free (seen);
  return distinct;
}

static void
print_reader_tables (const SpSpoolReader *reader)
{
  printf ("samples %zu\n", sp_spool_reader_get_n_samples (reader));
  printf ("stack_nodes %zu\n", sp_spool_reader_get_n_stack_nodes (reader));
  printf ("frames %zu\n", sp_spool_reader_get_n_frames (reader));
  printf ("threads %zu\n", sp_spool_reader_get_n_threads (reader));
  printf ("modules %zu\n", sp_spool_reader_get_n_modules (reader));
  printf ("checksum %" PRIu64 "\n", reader_checksum (reader));
}

/* ---- Child: whole-file open ------------------------------------------ */

/* Nothing but the open, for outside tools to measure. */
int
bench_open_only (const char *path)
{
  SpSpoolError err;
  SpSpoolReader *reader = sp_spool_reader_open (path, &err);

  if (reader == NULL)
    {
      fprintf (stderr, "bench-codec: cannot read %s: %s at byte %" PRIu64 "\n",
               path, err.message, err.offset);
      return 1;
    }
  printf ("samples %zu\n", sp_spool_reader_get_n_samples (reader));
  sp_spool_reader_free (reader);
  return 0;
}

int
bench_child_open (const char *path)
{
  BenchStatus before, after;
  struct rusage usage_before, usage_after;
  SpSpoolError err;
  SpSpoolReader *reader;
  bool peak_reset;
  int64_t heap_before, heap_after;
  double wall, cpu;

  peak_reset = bench_reset_peak_rss ();
  bench_read_status (&before);
  heap_before = bench_heap_in_use ();
  getrusage (RUSAGE_SELF, &usage_before);

  wall = bench_wall_now ();
  cpu = bench_cpu_now ();
  reader = sp_spool_reader_open (path, &err);
  cpu = bench_cpu_now () - cpu;
  wall = bench_wall_now () - wall;

  getrusage (RUSAGE_SELF, &usage_after);
  heap_after = bench_heap_in_use ();
  bench_read_status (&after);
  if (reader == NULL)
    {
      fprintf (stderr, "bench-codec: cannot read %s: %s at byte %" PRIu64 "\n",
               path, err.message, err.offset);
      return 1;
    }

  printf ("wall %.9f\ncpu %.9f\n", wall, cpu);
  printf ("heap %" PRId64 "\n", heap_after - heap_before);
  printf ("rss_anon %" PRId64 "\n", after.rss_anon - before.rss_anon);
  printf ("rss_before %" PRId64 "\n", before.vm_rss);
  printf ("rss_file_before %" PRId64 "\n", before.rss_file);
  printf ("hwm %" PRId64 "\n", after.vm_hwm);
  printf ("hwm_reset %d\n", peak_reset ? 1 : 0);
  printf ("minflt %ld\n", usage_after.ru_minflt - usage_before.ru_minflt);
  printf ("majflt %ld\n", usage_after.ru_majflt - usage_before.ru_majflt);
  printf ("distinct_stacks %zu\n", count_distinct_stacks (reader));
  print_reader_tables (reader);
  sp_spool_reader_free (reader);
  return 0;
}

/* ---- Child: follow a growing file ------------------------------------ */

static bool
write_all (int fd,
           const uint8_t *data,
           size_t len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return false;
      data += n;
      len -= (size_t) n;
    }
  return true;
}

/* Appends src to dst chunk by chunk, updating the follower after each. */
static bool
follow_loop (int in,
             int out,
             SpSpoolReader *reader,
             size_t chunk,
             double *update_wall,
             size_t *n_updates)
{
  uint8_t *buffer = malloc (chunk);
  SpSpoolError err;
  bool ok = buffer != NULL;

  while (ok)
    {
      ssize_t n = read (in, buffer, chunk);
      double t;

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          ok = n == 0;
          break;
        }
      ok = write_all (out, buffer, (size_t) n);
      t = bench_wall_now ();
      ok = ok && sp_spool_reader_update (reader, &err);
      *update_wall += bench_wall_now () - t;
      (*n_updates)++;
    }
  if (!ok)
    fprintf (stderr, "bench-codec: follow failed after %zu updates\n", *n_updates);
  free (buffer);
  return ok;
}

int
bench_child_follow (const char *src,
                    const char *dst,
                    size_t chunk)
{
  int in = open (src, O_RDONLY | O_CLOEXEC);
  int out = open (dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  SpSpoolReader *reader = NULL;
  SpSpoolError err;
  double wall, update_wall = 0, t;
  size_t n_updates = 0;
  bool ok = in >= 0 && out >= 0;

  if (ok)
    reader = sp_spool_reader_open_follow (dst, &err);
  ok = reader != NULL;
  wall = bench_wall_now ();
  ok = ok && follow_loop (in, out, reader, chunk, &update_wall, &n_updates);
  t = bench_wall_now ();
  if (ok && !sp_spool_reader_finish (reader, &err))
    {
      fprintf (stderr, "bench-codec: follow finish: %s at byte %" PRIu64 "\n", err.message, err.offset);
      ok = false;
    }
  update_wall += bench_wall_now () - t;
  wall = bench_wall_now () - wall;

  if (ok)
    {
      printf ("wall %.9f\nupdate_wall %.9f\nupdates %zu\n", wall, update_wall, n_updates);
      print_reader_tables (reader);
    }
  sp_spool_reader_free (reader);
  if (in >= 0)
    close (in);
  if (out >= 0)
    close (out);
  unlink (dst);
  return ok ? 0 : 1;
}

/* ---- Shared by the benchmarks' main()s ------------------------------- */

bool
bench_parse_number (const char *text,
                    unsigned long long min,
                    unsigned long long max,
                    unsigned long long *out)
{
  char *end;

  errno = 0;
  *out = strtoull (text, &end, 10);
  return errno == 0 && end != text && *end == '\0' && *out >= min && *out <= max;
}

int
bench_pin_to_one_cpu (int wanted)
{
  cpu_set_t set;

  if (sched_getaffinity (0, sizeof set, &set) != 0)
    return -1;
  for (int i = CPU_SETSIZE - 1; wanted < 0 && i >= 0; i--)
    if (CPU_ISSET (i, &set))
      wanted = i;
  if (wanted < 0 || wanted >= CPU_SETSIZE)
    return -1;
  CPU_ZERO (&set);
  CPU_SET (wanted, &set);
  return sched_setaffinity (0, sizeof set, &set) == 0 ? wanted : -1;
}

char *
bench_temp_spool_path (void)
{
  const char *dir = getenv ("TMPDIR");
  char *path;
  int fd;

  if (dir == NULL || *dir == '\0')
    dir = "/tmp";
  if (asprintf (&path, "%s/stackpulse-bench-XXXXXX.spool", dir) < 0)
    return NULL;
  fd = mkstemps (path, 6);
  if (fd < 0)
    {
      free (path);
      return NULL;
    }
  close (fd);
  return path;
}

static char *cleanup_paths[2];

static void
cleanup_on_signal (int sig)
{
  for (size_t i = 0; i < 2; i++)
    if (cleanup_paths[i] != NULL)
      unlink (cleanup_paths[i]);
  signal (sig, SIG_DFL);
  raise (sig);
}

void
bench_remove_on_signal (char *path,
                        char *also)
{
  cleanup_paths[0] = path;
  cleanup_paths[1] = also;
  signal (SIGINT, cleanup_on_signal);
  signal (SIGTERM, cleanup_on_signal);
  signal (SIGPIPE, cleanup_on_signal);
}

bool
bench_self_path (const char *program,
                 char *self,
                 size_t size)
{
  ssize_t len = readlink ("/proc/self/exe", self, size - 1);

  if (len <= 0)
    {
      fprintf (stderr, "%s: /proc/self/exe: %s\n", program, strerror (errno));
      return false;
    }
  self[len] = '\0';
  return true;
}
