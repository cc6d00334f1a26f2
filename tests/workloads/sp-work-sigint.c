/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-work-sigint: [--ready FILE] SECONDS COUNT_FILE: burns in main →
 * sigint_work until SECONDS pass or one second after its first SIGINT,
 * then writes how many SIGINTs it got ("sigints N") to COUNT_FILE and
 * exits 0. A Ctrl-C typed on the recorder's terminal must reach it once:
 * from the terminal, not a second time from the recorder. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "sp-workload.h"

static volatile sig_atomic_t sigints;

static void
count_sigint (int signo)
{
  sigints++;
}

SP_WORK_FN static void
sigint_leaf (void)
{
  volatile uint64_t sum = 3;

  for (uint64_t i = 0; i < 20000; i++)
    sum += i ^ (sum >> 2);
  sp_work_sink += sum;
}

SP_WORK_FN static void
sigint_work (double until)
{
  double first = 0;

  while (sp_work_now () < until && (first == 0 || sp_work_now () < first + 1.0))
    {
      sigint_leaf ();
      if (first == 0 && sigints > 0)
        first = sp_work_now ();
    }
}

int
main (int argc,
      char **argv)
{
  struct sigaction action = { .sa_handler = count_sigint };
  const char *ready;
  char **rest;
  double seconds = sp_work_parse_args (argc, argv, "SECONDS COUNT_FILE", &ready, &rest);
  char text[64];

  if (rest[0] == NULL)
    {
      fprintf (stderr, "usage: sp-work-sigint [--ready FILE] SECONDS COUNT_FILE\n");
      return 2;
    }
  sigemptyset (&action.sa_mask);
  sigaction (SIGINT, &action, NULL);
  if (ready != NULL)
    sp_work_write_ready (ready, 0, NULL, NULL);
  sigint_work (sp_work_now () + seconds);
  snprintf (text, sizeof text, "sigints %d\n", (int) sigints);
  sp_work_write_file (rest[0], text);
  return 0;
}
