/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-work-plt: a program that spends a good share of its time in a PLT
 * stub, for the conformance matrix (built there with LLD and mold, which
 * give their PLT no CFI).
 *
 *   sp-work-plt SECONDS
 *
 * main → call_through_plt → abs@plt → abs in libc. abs is a handful of
 * instructions, so the stub's one jump holds many of the samples. Built
 * with -fno-builtin (else the compiler inlines abs) and never -fno-plt. */
#include <stdlib.h>
#include <time.h>

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

__attribute__ ((noinline)) long
call_through_plt (long n)
{
  long sum = 0;

  for (long i = 0; i < n; i++)
    sum += abs ((int) (i - n / 2));
  return sum;
}

int
main (int argc,
      char **argv)
{
  double until = now () + (argc > 1 ? atof (argv[1]) : 1.0);
  long sum = 0;

  while (now () < until)
    sum += call_through_plt (100000);
  return sum == 42;
}
