/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-event-queue.c: an arena of record copies, sorted by time as they come. */
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
  free (queue->scratch);
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

size_t
sp_event_queue_get_length (const SpEventQueue *queue)
{
  return queue->n_events - queue->head;
}

/* The first of events[from, to) (in order) that sorts after key. */
static size_t
first_after (const SpQueuedEvent *events,
             size_t from,
             size_t to,
             const SpQueuedEvent *key)
{
  while (from < to)
    {
      size_t mid = from + (to - from) / 2;

      if (compare_events (&events[mid], key) <= 0)
        from = mid + 1;
      else
        to = mid;
    }
  return from;
}

/* Puts events[head, n_events) in order: sorts the records that came since
 * the last flush, then merges them with the sorted ones they overlap
 * (records of the rings drained last are usually newer than all the
 * others, so the overlap is short). False when memory ran out (the order
 * is then left to a later flush). */
static bool
sort_arrivals (SpEventQueue *queue)
{
  SpQueuedEvent *events = queue->events;
  size_t mid = queue->n_sorted, end = queue->n_events, start, i, j, k;

  if (mid >= end)
    return true;
  qsort (events + mid, end - mid, sizeof (SpQueuedEvent), compare_events);
  start = first_after (events, queue->head, mid, &events[mid]);
  if (start < mid)
    {
      if (!sp_array_reserve ((void **) &queue->scratch, &queue->scratch_capacity, mid - start,
                             sizeof (SpQueuedEvent)))
        return false;
      memcpy (queue->scratch, events + start, (mid - start) * sizeof (SpQueuedEvent));
      /* Merged from the front into the place the older run left. */
      for (i = 0, j = mid, k = start; i < mid - start; k++)
        if (j < end && compare_events (&events[j], &queue->scratch[i]) < 0)
          events[k] = events[j++];
        else
          events[k] = queue->scratch[i++];
    }
  queue->n_sorted = end;
  return true;
}

/* Moves the records not handed out to the front of the spare arena,
 * which becomes the arena: done once more than half were handed out, so
 * each record moves about once; with stack copies (16 KiB a sample)
 * reusing the two arenas spares the allocator megabytes. */
static void
compact (SpEventQueue *queue)
{
  size_t n_kept = queue->n_events - queue->head, kept_bytes = 0;
  uint8_t *old_arena = queue->arena;
  size_t old_capacity = queue->arena_capacity;

  if (!sp_array_reserve ((void **) &queue->spare, &queue->spare_capacity, queue->arena_used, 1))
    return;  /* the arena stays as it is: the next flush tries again */
  for (size_t i = 0; i < n_kept; i++)
    {
      SpQueuedEvent event = queue->events[queue->head + i];
      const struct perf_event_header *header = (const void *) (queue->arena + event.offset);
      size_t size = (header->size + 7u) & ~(size_t) 7;

      memcpy (queue->spare + kept_bytes, header, header->size);
      event.offset = kept_bytes;
      kept_bytes += size;
      queue->events[i] = event;
    }
  queue->arena = queue->spare;
  queue->arena_capacity = queue->spare_capacity;
  queue->spare = old_arena;
  queue->spare_capacity = old_capacity;
  queue->arena_used = kept_bytes;
  queue->n_sorted -= queue->head;
  queue->n_events = n_kept;
  queue->head = 0;
}

bool
sp_event_queue_flush (SpEventQueue *queue,
                      uint64_t watermark,
                      uint64_t deadline_ns,
                      SpEventFunc func,
                      void *user_data)
{
  size_t done = 0;
  bool finished = true;

  if (!sort_arrivals (queue))
    return false;
  while (queue->head < queue->n_events && queue->events[queue->head].time < watermark)
    {
      const SpQueuedEvent *event = &queue->events[queue->head++];

      func ((const void *) (queue->arena + event->offset), event->time, user_data);
      if (deadline_ns != 0 && ++done % 16 == 0 && monotonic_ns () >= deadline_ns)
        {
          finished = queue->head == queue->n_events || queue->events[queue->head].time >= watermark;
          break;
        }
    }
  if (queue->head == queue->n_events)
    queue->head = queue->n_sorted = queue->n_events = queue->arena_used = 0;
  else if (queue->head > queue->n_events / 2)
    compact (queue);
  return finished;
}
