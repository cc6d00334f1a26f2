/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-work-deep: a recursion deeper than the kernel's callchain limit.
 *
 *   sp-work-deep SECONDS DEPTH
 *
 * main → descend (DEPTH) → descend (DEPTH - 1) → … → descend (0) →
 * deep_work → deep_leaf. With DEPTH 300, every sample's chain is longer
 * than kernel.perf_event_max_stack (127), so the recorder must mark the
 * stacks as truncated at their root end. */
#include <stdio.h>
#include <stdlib.h>

#include "sp-workload.h"

SP_WORK_FN static void
deep_leaf (void)
{
  volatile uint64_t sum = 1;

  for (uint64_t i = 0; i < 20000; i++)
    sum = sum * 33 + i;
  sp_work_sink += sum;
}

SP_WORK_FN static void
deep_work (double until)
{
  while (sp_work_now () < until)
    deep_leaf ();
}

/* The volatile store after the call keeps every level a real frame: no
 * compiler may turn this recursion into a loop. */
SP_WORK_FN static uint64_t
descend (int depth,
         double until)
{
  uint64_t below;

  if (depth == 0)
    {
      deep_work (until);
      return 1;
    }
  below = descend (depth - 1, until);
  sp_work_sink += below;
  return below + (uint64_t) depth;
}

int
main (int argc,
      char **argv)
{
  const char *ready;
  char **rest;
  double seconds = sp_work_parse_args (argc, argv, "SECONDS DEPTH", &ready, &rest);
  int depth = rest[0] != NULL ? atoi (rest[0]) : 0;

  if (depth <= 0)
    {
      fprintf (stderr, "%s: DEPTH must be a positive number\n", argv[0]);
      return 2;
    }
  sp_work_sink += descend (depth, sp_work_now () + seconds);
  sp_work_report_thread ();
  return 0;
}
