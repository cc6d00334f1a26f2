/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-work-diff: the same program before and after a change, for
 * comparing two recordings (issue 15).
 *
 *   sp-work-diff SECONDS FACTOR
 *
 * main → diff_round, over and over: each round calls diff_steady and
 * diff_other once and diff_changed FACTOR times, all three doing the same
 * fixed work. Recorded once with FACTOR 1 ("before") and once with 3
 * ("after": its work tripled), diff_changed's self share goes from about
 * 1/3 to 3/5 (+27 points) and each of the others' from 1/3 to 1/5 (-13):
 * a diff must lead with diff_changed. */
#include <stdio.h>
#include <stdlib.h>

#include "sp-workload.h"

/* The fixed piece of work both functions do, written twice so that each
 * is a leaf of its own (a shared helper would take all the self time). */
SP_WORK_FN static void
diff_steady (void)
{
  volatile uint64_t sum = 1;

  for (uint64_t i = 0; i < 20000; i++)
    sum = sum * 33 + i;
  sp_work_sink += sum;
}

SP_WORK_FN static void
diff_other (void)
{
  volatile uint64_t sum = 1;

  for (uint64_t i = 0; i < 20000; i++)
    sum = sum * 33 + i;
  sp_work_sink += sum;
}

SP_WORK_FN static void
diff_changed (void)
{
  volatile uint64_t sum = 1;

  for (uint64_t i = 0; i < 20000; i++)
    sum = sum * 33 + i;
  sp_work_sink += sum;
}

SP_WORK_FN static void
diff_round (int factor)
{
  diff_steady ();
  diff_other ();
  for (int i = 0; i < factor; i++)
    diff_changed ();
}

int
main (int argc,
      char **argv)
{
  const char *ready;
  char **rest;
  double seconds = sp_work_parse_args (argc, argv, "SECONDS FACTOR", &ready, &rest);
  int factor = rest[0] != NULL ? atoi (rest[0]) : 0;
  double until;

  if (factor <= 0)
    {
      fprintf (stderr, "usage: sp-work-diff SECONDS FACTOR (FACTOR: 1 or more)\n");
      return 2;
    }
  if (ready != NULL)
    sp_work_write_ready (ready, 0, NULL, NULL);
  until = sp_work_now () + seconds;
  while (sp_work_now () < until)
    diff_round (factor);
  sp_work_report_thread ();
  printf ("SP-WORK diff factor=%d seconds=%g\n", factor, seconds);
  return 0;
}
