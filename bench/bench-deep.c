/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-deep: deep stacks that end in libm and libc, for the report
 * benchmark (bench/run-report).
 *
 *   bench-deep THREADS SECONDS
 *
 * Each thread recurses through four mutually recursive functions to a
 * depth that varies from 8 to 40 frames, and at the bottom does work in
 * libm (sin, exp, log, pow, sqrt) and in libc (qsort, memcpy, snprintf,
 * strtod, memset), through small inline helpers. Built with frame
 * pointers and -g: a program one profiles, whose samples land in the
 * libraries whose debug files (libc6-dbg) are large and compressed. */
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double duration_s = 2.0;
static volatile double sink;

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline double
math_mix (double x)
{
  return sin (x) + exp (x * 1e-3) + log (x + 2.0) + pow (x + 1.0, 0.37) + sqrt (x + 3.0);
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double da = *(const double *) a;
  double db = *(const double *) b;

  return (da > db) - (da < db);
}

static inline double
libc_mix (uint64_t seed)
{
  double values[64];
  double copy[64];
  char text[64];

  for (int i = 0; i < 64; i++)
    values[i] = (double) ((seed * 2654435761u + (uint64_t) i * 40503u) % 1000003u);
  memcpy (copy, values, sizeof copy);
  qsort (copy, 64, sizeof copy[0], compare_doubles);
  snprintf (text, sizeof text, "%.6f", copy[seed % 64]);
  memset (values, 0, sizeof values);
  return strtod (text, NULL) + values[0];
}

__attribute__ ((noinline)) static double
bottom (uint64_t seed)
{
  double x = 0;

  for (int i = 0; i < 40; i++)
    x += math_mix ((double) ((seed + (uint64_t) i) % 997u));
  return x + libc_mix (seed);
}

static double level_a (uint64_t seed, int depth);
static double level_b (uint64_t seed, int depth);
static double level_c (uint64_t seed, int depth);
static double level_d (uint64_t seed, int depth);

/* The volatile-free arithmetic after each call keeps every level a real
 * frame (with -fno-optimize-sibling-calls). */
__attribute__ ((noinline)) static double
level_a (uint64_t seed,
         int depth)
{
  return depth == 0 ? bottom (seed) : level_b (seed * 3 + 1, depth - 1) + 1.0;
}

__attribute__ ((noinline)) static double
level_b (uint64_t seed,
         int depth)
{
  return depth == 0 ? bottom (seed) : ((seed & 1) ? level_c : level_d) (seed / 2 + 7, depth - 1) + 2.0;
}

__attribute__ ((noinline)) static double
level_c (uint64_t seed,
         int depth)
{
  return depth == 0 ? bottom (seed) : level_a (seed + 11, depth - 1) + 3.0;
}

__attribute__ ((noinline)) static double
level_d (uint64_t seed,
         int depth)
{
  return depth == 0 ? bottom (seed) : ((seed % 3) ? level_a : level_c) (seed ^ 0x5bd1e995u, depth - 1) + 4.0;
}

static void *
run (void *arg)
{
  uint64_t seed = (uint64_t) (uintptr_t) arg * 7919u + 1;
  double end = now_s () + duration_s;
  double total = 0;

  while (now_s () < end)
    for (int i = 0; i < 16; i++, seed++)
      total += level_a (seed, 8 + (int) (seed % 33));
  sink += total;
  return NULL;
}

int
main (int argc,
      char **argv)
{
  int n_threads = argc > 1 ? atoi (argv[1]) : 2;
  pthread_t threads[64];

  if (argc > 2)
    duration_s = atof (argv[2]);
  if (n_threads < 1 || n_threads > 64 || duration_s <= 0)
    {
      fprintf (stderr, "usage: bench-deep THREADS SECONDS\n");
      return 2;
    }
  for (int i = 0; i < n_threads; i++)
    pthread_create (&threads[i], NULL, run, (void *) (uintptr_t) i);
  for (int i = 0; i < n_threads; i++)
    pthread_join (threads[i], NULL);
  printf ("bench-deep: %d threads, %.1f s\n", n_threads, duration_s);
  return 0;
}
