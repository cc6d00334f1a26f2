/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-work-cut: stacks whose unwind tables lie about where they end.
 *
 *   sp-work-cut SECONDS
 *
 * main → cut_root → cut_leaf for SECONDS. cut_root's CFI says that it is
 * its thread's outermost frame (.cfi_undefined rip, what _start's says),
 * as hand-written assembly or a broken toolchain may: a DWARF unwinder
 * stops there and takes "cut_root;cut_leaf" for a whole stack, without
 * main, __libc_start_main or _start. Built without frame pointers, so
 * --call-graph auto asks DWARF too. Whatever the unwinder thinks, these
 * stacks miss their outer frames, and the report and the window must say
 * so. */
#include "sp-workload.h"

SP_WORK_FN static void
cut_leaf (void)
{
  volatile uint64_t sum = 7;

  for (uint64_t i = 0; i < 20000; i++)
    sum = sum * 31 + i;
  sp_work_sink += sum;
}

SP_WORK_FN static void
cut_root (double until)
{
  __asm__ volatile (".cfi_undefined rip");
  while (sp_work_now () < until)
    cut_leaf ();
}

int
main (int argc,
      char **argv)
{
  const char *ready;
  char **rest;
  double seconds = sp_work_parse_args (argc, argv, "SECONDS", &ready, &rest);

  cut_root (sp_work_now () + seconds);
  sp_work_report_thread ();
  return 0;
}
