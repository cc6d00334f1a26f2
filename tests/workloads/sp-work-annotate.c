/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-work-annotate: a loop with a known hot line, and an inlined function,
 * for the source and disassembly annotations (issue 14).
 *
 *   sp-work-annotate SECONDS
 *
 * main → annotate_work → hot_loop, whose every round is one dependent
 * chain: a 64-bit division on the line marked HOT (the longest latency:
 * the instruction after it is the hottest, in every profiler that
 * samples with a timer; the line has about three quarters of the time),
 * then a shift and a multiplication in mix, a static always_inline
 * function, on the line marked MIX, called from the line marked CALL.
 * Built at -O2 with -g (tests/workloads/meson.build), so mix really is
 * inlined: it has no symbol, only DWARF's inlined instance in hot_loop.
 * The tests find the lines by their markers. */
#include <stdio.h>
#include <stdlib.h>

#include "sp-workload.h"

static inline __attribute__ ((always_inline)) uint64_t
mix (uint64_t x)
{
  x = (x ^ (x >> 31)) * 0x7fb5d329728ea185u; /* MIX */
  return x;
}

SP_WORK_FN static uint64_t
hot_loop (uint64_t x,
          uint64_t rounds)
{
  for (uint64_t i = 0; i < rounds; i++)
    {
      x = x / (i | 3) + 0x123456789abcdefu; /* HOT */
      x = mix (x); /* CALL */
    }
  return x;
}

SP_WORK_FN static void
annotate_work (double until)
{
  uint64_t x = 0x0123456789abcdefu;

  while (sp_work_now () < until)
    x = hot_loop (x, 100000);
  sp_work_sink += x;
}

int
main (int argc,
      char **argv)
{
  const char *ready;
  char **rest;
  double seconds = sp_work_parse_args (argc, argv, "sp-work-annotate SECONDS", &ready, &rest);

  annotate_work (sp_work_now () + seconds);
  sp_work_report_thread ();
  return 0;
}
