/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-switch: a switch-heavy workload for the off-CPU benchmark
 * (bench/run-offcpu). Two threads pass a byte back and forth over two
 * pipes for a fixed time, so each round trip blocks each of them once in
 * read(): two context switches per round trip, tens of thousands a second.
 *
 *   bench-switch [SECONDS]   (default 2)
 *
 *   ping: ping_main → ping_round → pipe_wait → read()
 *   pong: pong_main → pong_round → pipe_wait → read()
 *
 * Built with frame pointers and never inlined, so a stack taken at a
 * switch-out names pipe_wait under its thread's own functions. When done it
 * prints one line:
 *
 *   round_trips=N voluntary=N involuntary=N cpu_s=S seconds=S
 *
 * with the process's own context switches (getrusage, every thread, so the
 * benchmark can compare them with what a recorder saw) and CPU time. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define NOINLINE __attribute__ ((noinline))

/* What ping sends: a byte to bounce, or the last one, which pong echoes
 * before it stops. */
#define BYTE_BALL 'b'
#define BYTE_STOP 's'

static int ping_to_pong[2];
static int pong_to_ping[2];
static double duration_s = 2.0;
static volatile uint64_t round_trips;

static double
now_s (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Where both threads block: the function whose share of switch-out
 * stacks the benchmark checks. */
NOINLINE static char
pipe_wait (int fd)
{
  char byte = BYTE_STOP;

  if (read (fd, &byte, 1) != 1)
    return BYTE_STOP;
  return byte;
}

NOINLINE static void
pipe_send (int fd,
           char byte)
{
  if (write (fd, &byte, 1) != 1)
    abort ();
}

NOINLINE static void
ping_round (char byte)
{
  pipe_send (ping_to_pong[1], byte);
  pipe_wait (pong_to_ping[0]);
}

/* Looks at the clock every 256 round trips: a clock read is cheap next to
 * a round trip, but not free. */
NOINLINE static void *
ping_main (void *data)
{
  double end = now_s () + duration_s;
  uint64_t n = 0;

  (void) data;
  for (;;)
    {
      if ((n & 255) == 0 && now_s () >= end)
        break;
      ping_round (BYTE_BALL);
      n++;
    }
  ping_round (BYTE_STOP);
  round_trips = n;
  return NULL;
}

NOINLINE static int
pong_round (void)
{
  char byte = pipe_wait (ping_to_pong[0]);

  pipe_send (pong_to_ping[1], byte);
  return byte != BYTE_STOP;
}

NOINLINE static void *
pong_main (void *data)
{
  (void) data;
  while (pong_round ())
    ;
  return NULL;
}

static double
seconds_of (struct timeval tv)
{
  return tv.tv_sec + tv.tv_usec / 1e6;
}

int
main (int argc,
      char **argv)
{
  pthread_t ping, pong;
  struct rusage usage;
  double start;

  if (argc > 1)
    duration_s = atof (argv[1]);
  if (duration_s <= 0 || pipe (ping_to_pong) != 0 || pipe (pong_to_ping) != 0)
    return 2;
  start = now_s ();
  pthread_create (&pong, NULL, pong_main, NULL);
  pthread_create (&ping, NULL, ping_main, NULL);
  pthread_join (ping, NULL);
  pthread_join (pong, NULL);
  getrusage (RUSAGE_SELF, &usage);
  printf ("round_trips=%llu voluntary=%ld involuntary=%ld cpu_s=%.3f seconds=%.3f\n",
          (unsigned long long) round_trips, usage.ru_nvcsw, usage.ru_nivcsw,
          seconds_of (usage.ru_utime) + seconds_of (usage.ru_stime), now_s () - start);
  return 0;
}
