/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-burn: a CPU-bound multi-threaded workload for the recorder
 * benchmark. Each thread walks a call tree a dozen frames deep (built with
 * frame pointers, like a program one profiles) for a fixed time, and the
 * program prints how much work it did and the CPU time it used, so the
 * benchmark can compare throughput with and without a profiler. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

static double duration_s = 2.0;
static volatile uint64_t sink;

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

__attribute__ ((noinline)) static uint64_t
leaf (uint64_t x)
{
  for (int i = 0; i < 2000; i++)
    x = x * 6364136223846793005u + 1442695040888963407u;
  return x;
}

/* Recursion gives stacks of depth + a few frames, with shared prefixes. */
__attribute__ ((noinline)) static uint64_t
branch (uint64_t x,
        int depth)
{
  if (depth == 0)
    return leaf (x);
  return (x & 1 ? branch (x >> 1, depth - 1) : branch (x + 3, depth - 1)) ^ (uint64_t) depth;
}

static void *
worker (void *data)
{
  uint64_t *iterations = data;
  uint64_t x = (uint64_t) (uintptr_t) data;
  double end = now_s () + duration_s;

  while (now_s () < end)
    {
      for (int i = 0; i < 16; i++)
        x = branch (x, 8 + (int) (x % 8));
      (*iterations)++;
    }
  sink = x;
  return NULL;
}

int
main (int argc,
      char **argv)
{
  int n_threads = argc > 1 ? atoi (argv[1]) : 2;
  pthread_t threads[64];
  uint64_t iterations[64] = { 0 };
  uint64_t total = 0;
  struct rusage usage;

  if (argc > 2)
    duration_s = atof (argv[2]);
  if (n_threads < 1 || n_threads > 64)
    return 2;
  for (int i = 0; i < n_threads; i++)
    pthread_create (&threads[i], NULL, worker, &iterations[i]);
  for (int i = 0; i < n_threads; i++)
    {
      pthread_join (threads[i], NULL);
      total += iterations[i];
    }
  getrusage (RUSAGE_SELF, &usage);
  printf ("iterations=%llu cpu_s=%.3f\n", (unsigned long long) total,
          usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6);
  return 0;
}
