/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-read-ahead.c: chunks of the data section read on a thread
 * of their own, handed over in order through a bounded ring. */
#include "sp-perf-data-read-ahead.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

/* Eight chunks of 256 KiB: the one being read, the one being converted
 * (and the one before it, while a record that spans both is joined), the
 * rest ready. 2 MiB in all stay within a core's L2 cache, where the
 * converting thread finds what the reading one wrote: four of 1 MiB
 * often cost both threads some 10% more (on a busy machine: the figures
 * varied as much between runs). */
#define CHUNKS      8
#define CHUNK_SIZE  (1u << 18)
#define CHUNK_ALLOC (SP_READ_AHEAD_ROOM + 8 + CHUNK_SIZE)

struct SpReadAhead {
  /* Set before the thread starts, read by it: */
  int               fd;
  uint64_t          data_end;
  volatile int     *stop_flag;
  const sigset_t   *wait_mask;
  int               quit_fd;    /* eventfd: wakes the thread from its wait for input */

  /* The thread's own: */
  uint64_t          position;   /* the input offset of the next byte to read */

  pthread_mutex_t   lock;
  pthread_cond_t    filled;     /* a chunk was filled */
  pthread_cond_t    released;   /* half the chunks are free again */
  uint8_t          *memory[CHUNKS];
  SpReadAheadChunk  chunks[CHUNKS];
  /* Under the lock; counts since the start, chunk i in chunks[i % CHUNKS]: */
  uint64_t          n_filled;
  uint64_t          n_taken;
  uint64_t          n_released;
  bool              quit;
  bool              ended;      /* the last chunk (no data) was filled */
  bool              full;       /* the thread waits for chunks to be given back */

  pthread_t         thread;
  bool              running;
};

/* ppoll lets the stop signals in only when it has to wait, and a file
 * never makes it wait: one sent while a file is read stays pending. Any
 * pending signal the wait mask lets in is one of them (the others would
 * not be pending), taken now by its handler. */
static void
take_pending_stop (const SpReadAhead *ahead)
{
  sigset_t pending;

  if (ahead->wait_mask == NULL || sigpending (&pending) != 0)
    return;
  for (int signal_number = 1; signal_number < NSIG; signal_number++)
    if (sigismember (&pending, signal_number) == 1 && sigismember (ahead->wait_mask, signal_number) == 0)
      {
        sigsuspend (ahead->wait_mask);
        return;
      }
}

/* Until the input can be read; false with the status that ends it. */
static bool
wait_for_input (SpReadAhead *ahead,
                SpReadAheadChunk *chunk)
{
  struct pollfd fds[2] = { { ahead->fd, POLLIN, 0 }, { ahead->quit_fd, POLLIN, 0 } };

  for (;;)
    {
      take_pending_stop (ahead);
      if (ahead->stop_flag != NULL && *ahead->stop_flag)
        {
          chunk->status = SP_PERF_DATA_STOPPED;
          return false;
        }
      if (ppoll (fds, ahead->quit_fd >= 0 ? 2 : 1, NULL, ahead->wait_mask) >= 0)
        break;
      if (errno != EINTR)
        {
          chunk->status = SP_PERF_DATA_READ_ERROR;
          chunk->error = errno;
          return false;
        }
    }
  /* Quitting: the chunk will not be taken. */
  if (fds[1].revents != 0)
    {
      chunk->status = SP_PERF_DATA_STOPPED;
      return false;
    }
  return true;
}

/* One read() into chunk i: a pipe's chunk is what one read gives, so that
 * records reach the conversion as perf writes them. */
static void
fill_chunk (SpReadAhead *ahead,
            size_t i)
{
  SpReadAheadChunk *chunk = &ahead->chunks[i];
  uint64_t left = ahead->data_end - ahead->position;
  size_t room = left < CHUNK_SIZE ? (size_t) left : CHUNK_SIZE;
  ssize_t n;

  chunk->data = ahead->memory[i] + SP_READ_AHEAD_ROOM + (ahead->position & 7);
  chunk->size = 0;
  chunk->status = SP_PERF_DATA_END;
  chunk->error = 0;
  if (room == 0)
    return;
  do
    {
      if (!wait_for_input (ahead, chunk))
        return;
      n = read (ahead->fd, chunk->data, room);
    }
  while (n < 0 && errno == EINTR);
  if (n < 0)
    {
      chunk->status = SP_PERF_DATA_READ_ERROR;
      chunk->error = errno;
      return;
    }
  chunk->size = (size_t) n;
  chunk->status = n > 0 ? SP_PERF_DATA_RECORD : SP_PERF_DATA_END;
  ahead->position += (uint64_t) n;
}

static void *
read_ahead_thread (void *user_data)
{
  SpReadAhead *ahead = user_data;

  pthread_mutex_lock (&ahead->lock);
  while (!ahead->quit && !ahead->ended)
    {
      if (ahead->n_filled - ahead->n_released >= CHUNKS)
        {
          /* Woken when half of them are free, not at each one: a wakeup
           * costs both threads a few microseconds, 4,000 times a GB. */
          ahead->full = true;
          pthread_cond_wait (&ahead->released, &ahead->lock);
          continue;
        }
      /* The chunk is no one else's until it is counted as filled. */
      pthread_mutex_unlock (&ahead->lock);
      fill_chunk (ahead, ahead->n_filled % CHUNKS);
      pthread_mutex_lock (&ahead->lock);
      ahead->ended = ahead->chunks[ahead->n_filled % CHUNKS].status != SP_PERF_DATA_RECORD;
      ahead->n_filled++;
      pthread_cond_signal (&ahead->filled);
    }
  pthread_mutex_unlock (&ahead->lock);
  return NULL;
}

SpReadAhead *
sp_read_ahead_new (const SpPerfData *data)
{
  SpReadAhead *ahead = calloc (1, sizeof *ahead);

  if (ahead == NULL)
    return NULL;
  ahead->fd = data->fd;
  ahead->quit_fd = -1;
  ahead->data_end = data->data_end;
  ahead->stop_flag = data->stop_flag;
  ahead->wait_mask = data->wait_mask;
  ahead->position = data->position;
  pthread_mutex_init (&ahead->lock, NULL);
  pthread_cond_init (&ahead->filled, NULL);
  pthread_cond_init (&ahead->released, NULL);
  for (size_t i = 0; i < CHUNKS; i++)
    if ((ahead->memory[i] = malloc (CHUNK_ALLOC)) == NULL)
      {
        sp_read_ahead_free (ahead);
        errno = ENOMEM;
        return NULL;
      }
  ahead->quit_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  /* Without the thread (or a way to wake it), the chunks are read when
   * they are taken. */
  ahead->running = ahead->quit_fd >= 0 && pthread_create (&ahead->thread, NULL, read_ahead_thread, ahead) == 0;
  return ahead;
}

void
sp_read_ahead_free (SpReadAhead *ahead)
{
  if (ahead == NULL)
    return;
  if (ahead->running)
    {
      pthread_mutex_lock (&ahead->lock);
      ahead->quit = true;
      pthread_cond_signal (&ahead->released);
      pthread_mutex_unlock (&ahead->lock);
      (void) !write (ahead->quit_fd, &(uint64_t) { 1 }, 8);
      pthread_join (ahead->thread, NULL);
    }
  if (ahead->quit_fd >= 0)
    close (ahead->quit_fd);
  for (size_t i = 0; i < CHUNKS; i++)
    free (ahead->memory[i]);
  pthread_cond_destroy (&ahead->released);
  pthread_cond_destroy (&ahead->filled);
  pthread_mutex_destroy (&ahead->lock);
  free (ahead);
}

const SpReadAheadChunk *
sp_read_ahead_take (SpReadAhead *ahead)
{
  const SpReadAheadChunk *chunk;

  pthread_mutex_lock (&ahead->lock);
  /* After the last chunk: the last one again (it holds no data). */
  if (ahead->ended && ahead->n_taken == ahead->n_filled)
    {
      chunk = &ahead->chunks[(ahead->n_filled - 1) % CHUNKS];
      pthread_mutex_unlock (&ahead->lock);
      return chunk;
    }
  if (!ahead->running)
    {
      fill_chunk (ahead, ahead->n_filled % CHUNKS);
      ahead->ended = ahead->chunks[ahead->n_filled % CHUNKS].status != SP_PERF_DATA_RECORD;
      ahead->n_filled++;
    }
  while (ahead->n_taken == ahead->n_filled)
    pthread_cond_wait (&ahead->filled, &ahead->lock);
  chunk = &ahead->chunks[ahead->n_taken++ % CHUNKS];
  pthread_mutex_unlock (&ahead->lock);
  return chunk;
}

void
sp_read_ahead_release (SpReadAhead *ahead)
{
  pthread_mutex_lock (&ahead->lock);
  if (ahead->n_released < ahead->n_taken)
    ahead->n_released++;
  if (ahead->full && ahead->n_filled - ahead->n_released <= CHUNKS / 2)
    {
      ahead->full = false;
      pthread_cond_signal (&ahead->released);
    }
  pthread_mutex_unlock (&ahead->lock);
}
