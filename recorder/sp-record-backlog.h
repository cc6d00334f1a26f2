/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-record-backlog.h: records taken out of the rings, waiting for the
 * thread that orders, unwinds and writes them.
 *
 * The thread that drains the rings (sp-ring-drain.c) adds records here as
 * fast as the kernel writes them, so that a slow unwind never lets a ring
 * fill; the recording's thread takes them all at once (the buffers are
 * swapped, nothing is copied under the lock). Memory is bounded: what
 * waits here plus what the taker still holds (its time queue, which it
 * says with sp_record_backlog_hold) stays within the limit, and a sample
 * that would pass it is left out and counted, never waited for. Other
 * records (mappings, names, forks, exits, losses) are small and always
 * kept: without them later samples could not be understood. */
#pragma once

#include <linux/perf_event.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Records one after the other, each after its time (8 bytes) and padded
 * to 8 bytes. */
typedef struct {
  uint8_t *data;
  size_t   used;
  size_t   capacity;
} SpRecordBuffer;

typedef enum {
  SP_BACKLOG_KEEP,            /* never left out */
  SP_BACKLOG_SAMPLE,          /* an on-CPU sample: left out at the limit */
  SP_BACKLOG_SWITCH_SAMPLE,   /* a switch-out's stack: left out at the limit */
} SpBacklogKind;

/* What happened since the last take. */
typedef struct {
  uint64_t dropped_samples;
  uint64_t dropped_switch_samples;
  bool     failed;            /* a record to keep found no memory */
} SpBacklogCounts;

typedef struct {
  pthread_mutex_t lock;
  SpRecordBuffer  pending;
  size_t          limit;          /* bytes, pending and held together */
  size_t          held;           /* what the taker holds (atomic) */
  size_t          peak;           /* the most that was pending and held */
  SpBacklogCounts counts;
} SpRecordBacklog;

void sp_record_backlog_init (SpRecordBacklog *backlog,
                             size_t limit);
void sp_record_backlog_clear (SpRecordBacklog *backlog);

/* The adder holds the lock while it adds (a drain of every ring). */
void sp_record_backlog_lock (SpRecordBacklog *backlog);
void sp_record_backlog_unlock (SpRecordBacklog *backlog);

/* Copies the record (the lock held); false when it was left out (a
 * sample at the limit, counted; or no memory). */
bool sp_record_backlog_add (SpRecordBacklog *backlog,
                            const struct perf_event_header *header,
                            uint64_t time,
                            SpBacklogKind kind);

/* The taker: everything pending goes into *into (whose records were all
 * used: it is emptied and becomes the pending buffer), and *counts gets
 * what happened since the last take. */
void sp_record_backlog_take (SpRecordBacklog *backlog,
                             SpRecordBuffer *into,
                             SpBacklogCounts *counts);

/* The taker holds this many bytes of records it took (its queue). */
void sp_record_backlog_hold (SpRecordBacklog *backlog,
                             size_t bytes);

/* The most bytes pending and held at once so far. */
size_t sp_record_backlog_peak (SpRecordBacklog *backlog);

/* The record at *offset of buffer and its time, moving *offset past it;
 * NULL at the end. */
const struct perf_event_header *sp_record_buffer_next (const SpRecordBuffer *buffer,
                                                       size_t *offset,
                                                       uint64_t *time);

void sp_record_buffer_clear (SpRecordBuffer *buffer);
