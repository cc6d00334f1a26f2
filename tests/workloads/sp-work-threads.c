/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-work-threads: three named threads with known call paths.
 *
 *   sp-work-threads [--ready FILE] SECONDS
 *
 * main → run_workers starts the threads, then burns CPU itself for SECONDS
 * in run_workers → compute_main → main_leaf. Each thread names itself and
 * burns CPU for SECONDS too:
 *   sp-alpha: worker_main → compute_alpha → alpha_leaf   (user code)
 *   sp-beta:  worker_main → compute_beta → beta_leaf     (user code)
 *   sp-gamma: worker_main → compute_gamma → gamma_leaf   (mostly in the
 *             kernel, reading /dev/zero, so kernel stacks get sampled)
 * Once all three have their names, FILE (if given) is written: "main PID"
 * and one "NAME TID" line per worker. A test waits for it before attaching
 * or signalling. Each thread prints its CPU time when done (sp-workload.h). */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sp-workload.h"

#define N_WORKERS 3

typedef struct {
  const char       *name;
  void            (*compute) (double until);
  double            until;
  pid_t             tid;
  pthread_barrier_t *named;
} Worker;

SP_WORK_FN static void
alpha_leaf (void)
{
  volatile uint64_t sum = 0;

  for (uint64_t i = 0; i < 20000; i++)
    sum += i * i;
  sp_work_sink += sum;
}

SP_WORK_FN static void
compute_alpha (double until)
{
  while (sp_work_now () < until)
    alpha_leaf ();
}

SP_WORK_FN static void
beta_leaf (void)
{
  volatile uint64_t x = sp_work_sink | 1;

  for (int i = 0; i < 20000; i++)
    x = x * 6364136223846793005ull + 1442695040888963407ull;
  sp_work_sink = x;
}

SP_WORK_FN static void
compute_beta (double until)
{
  while (sp_work_now () < until)
    beta_leaf ();
}

SP_WORK_FN static void
gamma_leaf (int fd)
{
  static __thread char buffer[256 * 1024];

  if (read (fd, buffer, sizeof buffer) > 0)
    sp_work_sink += (uint64_t) buffer[0];
}

SP_WORK_FN static void
compute_gamma (double until)
{
  int fd = open ("/dev/zero", O_RDONLY | O_CLOEXEC);

  if (fd < 0)
    {
      perror ("/dev/zero");
      exit (1);
    }
  while (sp_work_now () < until)
    gamma_leaf (fd);
  close (fd);
}

SP_WORK_FN static void
main_leaf (void)
{
  volatile uint64_t sum = 11;

  for (uint64_t i = 0; i < 20000; i++)
    sum = (sum ^ i) * 3;
  sp_work_sink += sum;
}

SP_WORK_FN static void
compute_main (double until)
{
  while (sp_work_now () < until)
    main_leaf ();
}

SP_WORK_FN static void *
worker_main (void *data)
{
  Worker *worker = data;

  pthread_setname_np (pthread_self (), worker->name);
  worker->tid = gettid ();
  pthread_barrier_wait (worker->named);
  worker->compute (worker->until);
  sp_work_report_thread ();
  return NULL;
}

static void
write_ready (const char *path,
             const Worker *workers)
{
  const char *names[N_WORKERS];
  int tids[N_WORKERS];

  for (int i = 0; i < N_WORKERS; i++)
    {
      names[i] = workers[i].name;
      tids[i] = (int) workers[i].tid;
    }
  sp_work_write_ready (path, N_WORKERS, names, tids);
}

SP_WORK_FN static void
run_workers (double seconds,
             const char *ready)
{
  static const char *names[N_WORKERS] = { "sp-alpha", "sp-beta", "sp-gamma" };
  void (*computes[N_WORKERS]) (double) = { compute_alpha, compute_beta, compute_gamma };
  pthread_t threads[N_WORKERS];
  Worker workers[N_WORKERS];
  pthread_barrier_t named;
  double until = sp_work_now () + seconds;

  pthread_barrier_init (&named, NULL, N_WORKERS + 1);
  for (int i = 0; i < N_WORKERS; i++)
    {
      workers[i] = (Worker) { names[i], computes[i], until, 0, &named };
      if (pthread_create (&threads[i], NULL, worker_main, &workers[i]) != 0)
        {
          perror ("pthread_create");
          exit (1);
        }
    }
  pthread_barrier_wait (&named);
  if (ready != NULL)
    write_ready (ready, workers);
  compute_main (until);
  for (int i = 0; i < N_WORKERS; i++)
    pthread_join (threads[i], NULL);
  pthread_barrier_destroy (&named);
}

int
main (int argc,
      char **argv)
{
  const char *ready;
  char **rest;
  double seconds = sp_work_parse_args (argc, argv, "SECONDS", &ready, &rest);

  run_workers (seconds, ready);
  sp_work_report_thread ();
  return 0;
}
