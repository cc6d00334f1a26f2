/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-work-offcpu: threads whose time splits between on-CPU and off-CPU
 * in known ways, for off-CPU profiling (issue 13).
 *
 *   sp-work-offcpu [--ready FILE] SECONDS
 *
 * Six named threads run for SECONDS, each in functions of its own:
 *   off-spin:   spin_main → spin_leaf            always on the CPU
 *   off-sleep:  sleep_main → sleep_wait          nanosleep 5 ms in a loop
 *   off-pipe:   pipe_main → pipe_wait            blocked in read() on a pipe
 *   off-feeder: feeder_main → feeder_wait        writes the pipe every 20 ms
 *   off-lock:   lock_main → lock_wait            blocked on a mutex (and a
 *               futex for off-holder's next round)...
 *   off-holder: holder_main → holder_spin        ...held ~30 ms at a time
 *               while spinning, then handed to off-lock for a moment
 * So off-spin's CPU time is close to its wall time, off-sleep's, off-pipe's
 * and off-feeder's are a small part of it, and off-lock's is small too
 * (it runs a moment each time it gets the mutex, once per round);
 * off-holder spins.
 *
 * Once all have their names, FILE (if given) is written: "main PID" and
 * one "NAME TID" line per thread. When done, main prints the usual
 * "thread ..." line of sp-workload.h for itself, then one line per thread:
 *
 *   SP-THREAD name=off-sleep tid=123 cpu_s=0.012000 wall_s=2.001000
 *
 * with the thread's own CLOCK_THREAD_CPUTIME_ID and CLOCK_MONOTONIC
 * measured from its start to its end, and a last line
 *
 *   SP-WORK offcpu threads=6 seconds=SECONDS
 *
 * The blocking functions are SP_WORK_FN, never inlined, so a stack taken
 * at a switch-out names them. */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sp-workload.h"

#define N_THREADS 6
#define SLEEP_NS (5 * 1000 * 1000)
#define FEED_NS (20 * 1000 * 1000)
#define HOLD_S 0.030
#define HANDOFF_S 0.001

typedef struct Thread Thread;

struct Thread {
  const char        *name;
  void             (*run) (double until);
  double             until;
  pid_t              tid;
  double             cpu_s;
  double             wall_s;
  pthread_barrier_t *named;
};

/* The pipe off-pipe reads and off-feeder writes, and the mutex off-lock
 * waits for. */
static int feed_pipe[2];
static pthread_mutex_t contended = PTHREAD_MUTEX_INITIALIZER;
/* Set by off-lock once it holds the mutex: off-holder waits for it before
 * taking the mutex back, so off-lock gets it once per round. */
static volatile int lock_taken;
/* Counts off-holder's rounds (and its end): off-lock waits for the next
 * round before it asks for the mutex, rather than spin taking it over and
 * over while off-holder has not taken it back yet. */
static volatile int holder_round;

static double
thread_cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

static void
sleep_ns (long ns)
{
  struct timespec ts = { 0, ns };

  while (nanosleep (&ts, &ts) != 0 && errno == EINTR)
    ;
}

SP_WORK_FN static void
spin_leaf (void)
{
  volatile uint64_t sum = 0;

  for (uint64_t i = 0; i < 20000; i++)
    sum += i ^ (i >> 3);
  sp_work_sink += sum;
}

SP_WORK_FN static void
spin_main (double until)
{
  while (sp_work_now () < until)
    spin_leaf ();
}

SP_WORK_FN static void
sleep_wait (void)
{
  sleep_ns (SLEEP_NS);
}

SP_WORK_FN static void
sleep_main (double until)
{
  while (sp_work_now () < until)
    sleep_wait ();
}

/* Returns 0 at the end of the stream (the feeder closed the pipe). */
SP_WORK_FN static ssize_t
pipe_wait (char *byte)
{
  ssize_t got;

  do
    got = read (feed_pipe[0], byte, 1);
  while (got < 0 && errno == EINTR);
  return got;
}

/* Reads until the feeder closes the pipe, so it never blocks past the end. */
SP_WORK_FN static void
pipe_main (double until)
{
  char byte;

  (void) until;
  while (pipe_wait (&byte) > 0)
    sp_work_sink += (uint64_t) byte;
}

SP_WORK_FN static void
feeder_wait (void)
{
  sleep_ns (FEED_NS);
}

SP_WORK_FN static void
feeder_main (double until)
{
  while (sp_work_now () < until)
    {
      feeder_wait ();
      if (write (feed_pipe[1], "x", 1) != 1)
        {
          perror ("write");
          exit (1);
        }
    }
  close (feed_pipe[1]);
}

static void
next_round (void)
{
  __atomic_add_fetch (&holder_round, 1, __ATOMIC_RELEASE);
  syscall (SYS_futex, &holder_round, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* Waits for off-holder's round after seen (a futex), then for the mutex
 * it holds: both are waiting for off-holder, so both are in here. Returns
 * the round it got the mutex in. */
SP_WORK_FN static int
lock_wait (int seen)
{
  int round;

  while ((round = __atomic_load_n (&holder_round, __ATOMIC_ACQUIRE)) == seen)
    syscall (SYS_futex, &holder_round, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
  pthread_mutex_lock (&contended);
  return round;
}

SP_WORK_FN static void
lock_main (double until)
{
  int seen = 0;

  while (sp_work_now () < until)
    {
      seen = lock_wait (seen);
      __atomic_store_n (&lock_taken, 1, __ATOMIC_RELEASE);
      sp_work_sink++;
      pthread_mutex_unlock (&contended);
    }
}

SP_WORK_FN static void
holder_spin (double until)
{
  while (sp_work_now () < until)
    spin_leaf ();
}

/* Waits (on the CPU, at most HANDOFF_S) until off-lock took the mutex:
 * a plain unlock then lock would take it straight back. */
SP_WORK_FN static void
holder_hand_off (void)
{
  double give_up = sp_work_now () + HANDOFF_S;

  while (!__atomic_load_n (&lock_taken, __ATOMIC_ACQUIRE) && sp_work_now () < give_up)
    ;
}

/* Holds the mutex ~30 ms spinning, then hands it to off-lock. */
SP_WORK_FN static void
holder_main (double until)
{
  while (sp_work_now () < until)
    {
      double hold_until = sp_work_now () + HOLD_S;

      pthread_mutex_lock (&contended);
      __atomic_store_n (&lock_taken, 0, __ATOMIC_RELEASE);
      next_round ();
      holder_spin (hold_until < until ? hold_until : until);
      pthread_mutex_unlock (&contended);
      holder_hand_off ();
    }
  next_round ();  /* the end: off-lock gets the free mutex and sees the time */
}

SP_WORK_FN static void *
thread_main (void *data)
{
  Thread *thread = data;
  double cpu_start = thread_cpu_now ();
  double wall_start = sp_work_now ();

  pthread_setname_np (pthread_self (), thread->name);
  thread->tid = gettid ();
  pthread_barrier_wait (thread->named);
  thread->run (thread->until);
  thread->cpu_s = thread_cpu_now () - cpu_start;
  thread->wall_s = sp_work_now () - wall_start;
  return NULL;
}

static void
report (const Thread *threads,
        double seconds)
{
  for (int i = 0; i < N_THREADS; i++)
    printf ("SP-THREAD name=%s tid=%d cpu_s=%.6f wall_s=%.6f\n", threads[i].name,
            (int) threads[i].tid, threads[i].cpu_s, threads[i].wall_s);
  printf ("SP-WORK offcpu threads=%d seconds=%g\n", N_THREADS, seconds);
  fflush (stdout);
}

SP_WORK_FN static void
run_threads (double seconds,
             const char *ready)
{
  static const char *names[N_THREADS] = {
    "off-spin", "off-sleep", "off-pipe", "off-feeder", "off-lock", "off-holder",
  };
  void (*runs[N_THREADS]) (double) = {
    spin_main, sleep_main, pipe_main, feeder_main, lock_main, holder_main,
  };
  pthread_t handles[N_THREADS];
  Thread threads[N_THREADS];
  int tids[N_THREADS];
  pthread_barrier_t named;
  double until;

  if (pipe (feed_pipe) != 0)
    {
      perror ("pipe");
      exit (1);
    }
  pthread_barrier_init (&named, NULL, N_THREADS + 1);
  until = sp_work_now () + seconds;
  for (int i = 0; i < N_THREADS; i++)
    {
      threads[i] = (Thread) { names[i], runs[i], until, 0, 0, 0, &named };
      if (pthread_create (&handles[i], NULL, thread_main, &threads[i]) != 0)
        {
          perror ("pthread_create");
          exit (1);
        }
    }
  pthread_barrier_wait (&named);
  for (int i = 0; i < N_THREADS; i++)
    tids[i] = (int) threads[i].tid;
  if (ready != NULL)
    sp_work_write_ready (ready, N_THREADS, names, tids);
  for (int i = 0; i < N_THREADS; i++)
    pthread_join (handles[i], NULL);
  pthread_barrier_destroy (&named);
  close (feed_pipe[0]);
  sp_work_report_thread ();
  report (threads, seconds);
}

int
main (int argc,
      char **argv)
{
  const char *ready;
  char **rest;
  double seconds = sp_work_parse_args (argc, argv, "SECONDS", &ready, &rest);

  run_threads (seconds, ready);
  return 0;
}
