/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-workload.c: argument parsing, clocks and reports for the workloads. */
#include "sp-workload.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

volatile uint64_t sp_work_sink;

double
sp_work_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static void __attribute__ ((noreturn))
bad_usage (const char *program,
           const char *usage)
{
  fprintf (stderr, "usage: %s [--ready FILE] %s\n", program, usage);
  exit (2);
}

double
sp_work_parse_args (int argc,
                    char **argv,
                    const char *usage,
                    const char **ready,
                    char ***rest)
{
  int i = 1;
  char *end;
  double seconds;

  *ready = NULL;
  if (i + 1 < argc && strcmp (argv[i], "--ready") == 0)
    {
      *ready = argv[i + 1];
      i += 2;
    }
  if (i >= argc)
    bad_usage (argv[0], usage);
  seconds = strtod (argv[i], &end);
  if (end == argv[i] || *end != '\0' || !(seconds >= 0))
    bad_usage (argv[0], usage);
  *rest = argv + i + 1;
  return seconds;
}

void
sp_work_report_thread (void)
{
  struct timespec cpu;
  char name[16] = "";

  /* The GUI tests' windows start workloads whose output would reach the
   * test's own, which meson reads as TAP: they ask for none. */
  if (getenv ("SP_WORK_QUIET") != NULL)
    return;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &cpu);
  prctl (PR_GET_NAME, name, 0, 0, 0);
  printf ("thread %s pid=%d tid=%d cpu_ns=%llu\n", name, (int) getpid (), (int) gettid (),
          (unsigned long long) cpu.tv_sec * 1000000000ull + (unsigned long long) cpu.tv_nsec);
  fflush (stdout);
}

void
sp_work_write_file (const char *path,
                    const char *text)
{
  size_t len = strlen (path) + sizeof ".tmp";
  char *tmp = malloc (len);
  FILE *out;

  if (tmp == NULL)
    abort ();
  snprintf (tmp, len, "%s.tmp", path);
  out = fopen (tmp, "w");
  if (out == NULL || fputs (text, out) < 0 || fclose (out) != 0 || rename (tmp, path) != 0)
    {
      perror (path);
      exit (1);
    }
  free (tmp);
}

void
sp_work_write_ready (const char *path,
                     int n,
                     const char *const *names,
                     const int *tids)
{
  size_t size = 32 + (size_t) n * 40;
  char *text = malloc (size);
  int len;

  if (text == NULL)
    abort ();
  len = snprintf (text, size, "main %d\n", (int) getpid ());
  for (int i = 0; i < n; i++)
    len += snprintf (text + len, size - (size_t) len, "%.16s %d\n", names[i], tids[i]);
  sp_work_write_file (path, text);
  free (text);
}
