/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-record-backlog.c: a bounded, locked buffer between two threads. */
#include "sp-record-backlog.h"

#include <stdlib.h>
#include <string.h>

#include "sp-array.h"

void
sp_record_backlog_init (SpRecordBacklog *backlog,
                        size_t limit)
{
  memset (backlog, 0, sizeof *backlog);
  pthread_mutex_init (&backlog->lock, NULL);
  backlog->limit = limit;
}

void
sp_record_buffer_clear (SpRecordBuffer *buffer)
{
  free (buffer->data);
  memset (buffer, 0, sizeof *buffer);
}

void
sp_record_backlog_clear (SpRecordBacklog *backlog)
{
  sp_record_buffer_clear (&backlog->pending);
  pthread_mutex_destroy (&backlog->lock);
  memset (backlog, 0, sizeof *backlog);
}

void
sp_record_backlog_lock (SpRecordBacklog *backlog)
{
  pthread_mutex_lock (&backlog->lock);
}

void
sp_record_backlog_unlock (SpRecordBacklog *backlog)
{
  pthread_mutex_unlock (&backlog->lock);
}

bool
sp_record_backlog_add (SpRecordBacklog *backlog,
                       const struct perf_event_header *header,
                       uint64_t time,
                       SpBacklogKind kind)
{
  SpRecordBuffer *pending = &backlog->pending;
  size_t size = 8 + ((header->size + 7u) & ~(size_t) 7);
  size_t total = pending->used + size + __atomic_load_n (&backlog->held, __ATOMIC_RELAXED);

  if ((kind != SP_BACKLOG_KEEP && total > backlog->limit)
      || !sp_array_reserve ((void **) &pending->data, &pending->capacity, pending->used + size, 1))
    {
      if (kind == SP_BACKLOG_SAMPLE)
        backlog->counts.dropped_samples++;
      else if (kind == SP_BACKLOG_SWITCH_SAMPLE)
        backlog->counts.dropped_switch_samples++;
      else
        backlog->counts.failed = true;
      return false;
    }
  memcpy (pending->data + pending->used, &time, 8);
  memcpy (pending->data + pending->used + 8, header, header->size);
  pending->used += size;
  if (total > backlog->peak)
    backlog->peak = total;
  return true;
}

void
sp_record_backlog_take (SpRecordBacklog *backlog,
                        SpRecordBuffer *into,
                        SpBacklogCounts *counts)
{
  SpRecordBuffer empty = *into;

  empty.used = 0;
  pthread_mutex_lock (&backlog->lock);
  *into = backlog->pending;
  backlog->pending = empty;
  /* Held by the taker now, until it says what it still holds. */
  __atomic_store_n (&backlog->held, __atomic_load_n (&backlog->held, __ATOMIC_RELAXED) + into->used,
                    __ATOMIC_RELAXED);
  *counts = backlog->counts;
  memset (&backlog->counts, 0, sizeof backlog->counts);
  pthread_mutex_unlock (&backlog->lock);
}

void
sp_record_backlog_hold (SpRecordBacklog *backlog,
                        size_t bytes)
{
  __atomic_store_n (&backlog->held, bytes, __ATOMIC_RELAXED);
}

size_t
sp_record_backlog_peak (SpRecordBacklog *backlog)
{
  size_t peak;

  pthread_mutex_lock (&backlog->lock);
  peak = backlog->peak;
  pthread_mutex_unlock (&backlog->lock);
  return peak;
}

const struct perf_event_header *
sp_record_buffer_next (const SpRecordBuffer *buffer,
                       size_t *offset,
                       uint64_t *time)
{
  const struct perf_event_header *header;

  if (*offset + 8 + sizeof *header > buffer->used)
    return NULL;
  memcpy (time, buffer->data + *offset, 8);
  header = (const void *) (buffer->data + *offset + 8);
  *offset += 8 + ((header->size + 7u) & ~(size_t) 7);
  return header;
}
