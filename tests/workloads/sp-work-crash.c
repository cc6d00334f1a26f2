/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-work-crash: burns for SECONDS in main → crash_work → crash_leaf, then
 * abort()s, so a recording must end with a complete spool and the
 * recorder must exit with 128 + SIGABRT. */
#include <stdlib.h>

#include "sp-workload.h"

SP_WORK_FN static void
crash_leaf (void)
{
  volatile uint64_t sum = 5;

  for (uint64_t i = 0; i < 20000; i++)
    sum += i ^ (sum >> 1);
  sp_work_sink += sum;
}

SP_WORK_FN static void
crash_work (double until)
{
  while (sp_work_now () < until)
    crash_leaf ();
}

int
main (int argc,
      char **argv)
{
  const char *ready;
  char **rest;
  double seconds = sp_work_parse_args (argc, argv, "SECONDS", &ready, &rest);

  crash_work (sp_work_now () + seconds);
  sp_work_report_thread ();
  abort ();
}
