/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-event-queue.c: an arena of record copies and a sort by time. */
#include "sp-event-queue.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sp-array.h"

void
sp_event_queue_init (SpEventQueue *queue)
{
  memset (queue, 0, sizeof *queue);
}

void
sp_event_queue_clear (SpEventQueue *queue)
{
  free (queue->arena);
  free (queue->spare);
  free (queue->events);
  sp_event_queue_init (queue);
}

bool
sp_event_queue_push (SpEventQueue *queue,
                     const struct perf_event_header *header,
                     uint64_t time)
{
  size_t size = (header->size + 7u) & ~(size_t) 7;

  if (!sp_array_reserve ((void **) &queue->arena, &queue->arena_capacity, queue->arena_used + size, 1)
      || !sp_array_reserve ((void **) &queue->events, &queue->events_capacity, queue->n_events + 1,
                sizeof (SpQueuedEvent)))
    return false;
  memcpy (queue->arena + queue->arena_used, header, header->size);
  queue->events[queue->n_events++] = (SpQueuedEvent) { time, queue->next_seq++, queue->arena_used };
  queue->arena_used += size;
  return true;
}

static int
compare_events (const void *a,
                const void *b)
{
  const SpQueuedEvent *x = a;
  const SpQueuedEvent *y = b;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static uint64_t
monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

bool
sp_event_queue_flush (SpEventQueue *queue,
                      uint64_t watermark,
                      uint64_t deadline_ns,
                      SpEventFunc func,
                      void *user_data)
{
  size_t done = 0;
  size_t kept_bytes = 0;
  bool finished = true;

  if (queue->n_events > 1)
    qsort (queue->events, queue->n_events, sizeof (SpQueuedEvent), compare_events);
  while (done < queue->n_events && queue->events[done].time < watermark)
    {
      const SpQueuedEvent *event = &queue->events[done++];

      func ((const void *) (queue->arena + event->offset), event->time, user_data);
      if (deadline_ns != 0 && done % 16 == 0 && monotonic_ns () >= deadline_ns)
        {
          finished = done == queue->n_events || queue->events[done].time >= watermark;
          break;
        }
    }

  /* Compact what stays: the records move to the front of the spare
   * arena, which becomes the arena. The kept ones are few (a few ms
   * worth), so copying them is cheap; with stack copies (16 KiB a sample)
   * reusing the two arenas spares the allocator megabytes per flush. */
  if (done == queue->n_events)
    {
      queue->n_events = 0;
      queue->arena_used = 0;
      return finished;
    }
  {
    size_t n_kept = queue->n_events - done;
    uint8_t *fresh;

    if (!sp_array_reserve ((void **) &queue->spare, &queue->spare_capacity, queue->arena_used, 1))
      {
        memmove (queue->events, queue->events + done, n_kept * sizeof (SpQueuedEvent));
        queue->n_events = n_kept;
        return finished;  /* keep the old arena as it is */
      }
    fresh = queue->spare;
    for (size_t i = 0; i < n_kept; i++)
      {
        SpQueuedEvent *event = &queue->events[done + i];
        const struct perf_event_header *header = (const void *) (queue->arena + event->offset);
        size_t size = (header->size + 7u) & ~(size_t) 7;

        memcpy (fresh + kept_bytes, header, header->size);
        event->offset = kept_bytes;
        kept_bytes += size;
        queue->events[i] = *event;
      }
    {
      uint8_t *old_arena = queue->arena;
      size_t old_capacity = queue->arena_capacity;

      queue->arena = fresh;
      queue->arena_capacity = queue->spare_capacity;
      queue->spare = old_arena;
      queue->spare_capacity = old_capacity;
    }
    queue->arena_used = kept_bytes;
    queue->n_events = n_kept;
  }
  return finished;
}
