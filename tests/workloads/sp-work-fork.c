/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-work-fork: a process that forks a child which then execs.
 *
 *   sp-work-fork SECONDS PROGRAM
 *
 * The parent burns for SECONDS in main → parent_work → parent_leaf. The
 * child burns for SECONDS / 2 in main → run_child → child_work →
 * child_leaf, then execs PROGRAM with the argument SECONDS / 2 (the tests
 * pass sp-work-threads). So a recording must follow the fork (samples of
 * a new process, in this program's code) and the exec (samples of the same
 * process in PROGRAM's code). Prints "child pid=P" and the thread lines. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sp-workload.h"

SP_WORK_FN static void
child_leaf (void)
{
  volatile uint64_t sum = 7;

  for (uint64_t i = 0; i < 20000; i++)
    sum ^= sum << 3 ^ i;
  sp_work_sink += sum;
}

SP_WORK_FN static void
child_work (double until)
{
  while (sp_work_now () < until)
    child_leaf ();
}

SP_WORK_FN static void __attribute__ ((noreturn))
run_child (double seconds,
           const char *program)
{
  char half[32];

  child_work (sp_work_now () + seconds / 2);
  sp_work_report_thread ();
  snprintf (half, sizeof half, "%g", seconds / 2);
  execl (program, program, half, (char *) NULL);
  perror (program);
  _exit (127);
}

SP_WORK_FN static void
parent_leaf (void)
{
  volatile uint64_t sum = 3;

  for (uint64_t i = 0; i < 20000; i++)
    sum += sum >> 2 ^ i;
  sp_work_sink += sum;
}

SP_WORK_FN static void
parent_work (double until)
{
  while (sp_work_now () < until)
    parent_leaf ();
}

int
main (int argc,
      char **argv)
{
  const char *ready;
  char **rest;
  double seconds = sp_work_parse_args (argc, argv, "SECONDS PROGRAM", &ready, &rest);
  pid_t child;
  int status;

  if (rest[0] == NULL)
    return 2;
  fflush (stdout);
  child = fork ();
  if (child < 0)
    {
      perror ("fork");
      return 1;
    }
  if (child == 0)
    run_child (seconds, rest[0]);
  printf ("child pid=%d\n", (int) child);
  fflush (stdout);
  parent_work (sp_work_now () + seconds);
  sp_work_report_thread ();
  if (waitpid (child, &status, 0) != child || !WIFEXITED (status))
    return 1;
  return WEXITSTATUS (status);
}
