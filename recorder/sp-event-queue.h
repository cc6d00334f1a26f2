/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-event-queue.h: perf records from every CPU, put back in time order.
 *
 * Each CPU's ring is in time order, but a mapping made on CPU 1 must reach
 * the spool before a sample on CPU 0 that runs in it. Records are copied
 * here as the rings are drained, and handed out sorted by time once no
 * earlier record can still arrive (their time is before the watermark).
 *
 * The cost per record stays small however far behind the consumer is: a
 * flush sorts only what arrived since the last one and merges it into the
 * sorted rest where the two overlap, hands out from a cursor, and moves
 * the records that stay only once more than half were handed out. (Sorting
 * and moving everything each flush made a recorder that had fallen a
 * million records behind hand out 16 records per 20 ms budget: it never
 * caught up.) */
#pragma once

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t time;
  uint64_t seq;       /* arrival order: keeps equal times stable */
  size_t   offset;    /* into the arena */
} SpQueuedEvent;

typedef struct {
  uint8_t       *arena;
  size_t         arena_used;
  size_t         arena_capacity;
  uint8_t       *spare;           /* the other arena, reused by each flush */
  size_t         spare_capacity;
  SpQueuedEvent *events;
  size_t         head;            /* events[head..] are not handed out yet */
  size_t         n_sorted;        /* events[head..n_sorted) are in order */
  size_t         n_events;
  size_t         events_capacity;
  SpQueuedEvent *scratch;         /* for merging */
  size_t         scratch_capacity;
  uint64_t       next_seq;
} SpEventQueue;

void sp_event_queue_init (SpEventQueue *queue);
void sp_event_queue_clear (SpEventQueue *queue);

/* Records not handed out yet. */
size_t sp_event_queue_get_length (const SpEventQueue *queue);

/* Copies the record; false when memory ran out. */
bool sp_event_queue_push (SpEventQueue *queue,
                          const struct perf_event_header *header,
                          uint64_t time);

typedef void (*SpEventFunc) (const struct perf_event_header *header,
                             uint64_t time,
                             void *user_data);

/* Hands out, in time order, every record older than watermark (all of
 * them with UINT64_MAX), and keeps the rest. Stops early once
 * CLOCK_MONOTONIC passes deadline_ns (0: no deadline), so that a slow
 * consumer cannot keep the rings from being drained; returns whether
 * every record older than the watermark was handed out. */
bool sp_event_queue_flush (SpEventQueue *queue,
                           uint64_t watermark,
                           uint64_t deadline_ns,
                           SpEventFunc func,
                           void *user_data);
