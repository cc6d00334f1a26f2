/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-backlog.c: the bounded buffer between the thread that
 * drains the rings and the one that unwinds (recorder/sp-record-backlog.c),
 * without perf.
 *
 * Records come out in the order they went in, with their times; samples
 * that would pass the bound (what waits plus what the taker holds) are
 * left out and counted, other records never; and with a thread adding
 * while another takes, every sample is taken once or counted as dropped,
 * whatever the interleaving. */
#include <glib.h>
#include <pthread.h>
#include <string.h>

#include "sp-record-backlog.h"

typedef struct {
  struct perf_event_header header;
  guint64 id;
  guint8  payload[1000];
} TestRecord;

static TestRecord
make_record (guint32 type,
             guint64 id,
             guint16 size)
{
  TestRecord record = { { type, 0, size }, id, { 0 } };

  memset (record.payload, (int) (id & 0xff), sizeof record.payload);
  return record;
}

/* Takes everything, checking each record's bytes; returns how many. */
static guint64
take_all (SpRecordBacklog *backlog,
          SpRecordBuffer *buffer,
          guint64 *next_id,
          SpBacklogCounts *counts)
{
  const struct perf_event_header *header;
  guint64 time, n = 0;
  size_t offset = 0;

  sp_record_backlog_take (backlog, buffer, counts);
  while ((header = sp_record_buffer_next (buffer, &offset, &time)) != NULL)
    {
      TestRecord record = { 0 };

      memcpy (&record, header, header->size);
      /* Ids rise (some were left out), and the time is the id's. */
      g_assert_cmpuint (record.id, >=, *next_id);
      g_assert_cmpuint (time, ==, record.id * 10);
      g_assert_cmpuint (record.payload[header->size - sizeof record.header - sizeof record.id - 1], ==,
                        record.id & 0xff);
      *next_id = record.id + 1;
      n++;
    }
  return n;
}

/* Adds record id (of 504 bytes, time id * 10) with the lock held. */
static gboolean
add_one (SpRecordBacklog *backlog,
         guint32 type,
         guint64 id,
         SpBacklogKind kind)
{
  TestRecord record = make_record (type, id, 504);
  gboolean added;

  sp_record_backlog_lock (backlog);
  added = sp_record_backlog_add (backlog, &record.header, id * 10, kind);
  sp_record_backlog_unlock (backlog);
  return added;
}

static void
test_order_and_bound (void)
{
  SpRecordBacklog backlog;
  SpRecordBuffer buffer = { 0 };
  SpBacklogCounts counts;
  guint64 next_id = 0, taken;

  /* Each record takes 8 (its time) + 504 bytes: the bound fits 4. */
  sp_record_backlog_init (&backlog, 4 * 512);
  for (guint64 id = 0; id < 6; id++)
    g_assert_true (add_one (&backlog, PERF_RECORD_SAMPLE, id, SP_BACKLOG_SAMPLE) == (id < 4));
  /* A mapping is kept over the bound, a switch-out's stack is not. */
  g_assert_true (add_one (&backlog, PERF_RECORD_MMAP2, 6, SP_BACKLOG_KEEP));
  g_assert_false (add_one (&backlog, PERF_RECORD_SAMPLE, 7, SP_BACKLOG_SWITCH_SAMPLE));

  taken = take_all (&backlog, &buffer, &next_id, &counts);
  g_assert_cmpuint (taken, ==, 5);
  g_assert_cmpuint (counts.dropped_samples, ==, 2);
  g_assert_cmpuint (counts.dropped_switch_samples, ==, 1);
  g_assert_false (counts.failed);
  g_assert_cmpuint (sp_record_backlog_peak (&backlog), ==, 5 * 512);

  /* What the taker holds counts: holding the whole bound, no sample fits;
   * holding nothing, the bound is free again. The counts start over. */
  sp_record_backlog_hold (&backlog, 4 * 512);
  g_assert_false (add_one (&backlog, PERF_RECORD_SAMPLE, 8, SP_BACKLOG_SAMPLE));
  sp_record_backlog_hold (&backlog, 0);
  g_assert_true (add_one (&backlog, PERF_RECORD_SAMPLE, 9, SP_BACKLOG_SAMPLE));
  taken = take_all (&backlog, &buffer, &next_id, &counts);
  g_assert_cmpuint (taken, ==, 1);
  g_assert_cmpuint (counts.dropped_samples, ==, 1);
  g_assert_cmpuint (next_id, ==, 10);

  sp_record_buffer_clear (&buffer);
  sp_record_backlog_clear (&backlog);
}

#define N_THREADED 200000

static void *
add_many (void *data)
{
  SpRecordBacklog *backlog = data;

  for (guint64 id = 0; id < N_THREADED; id += 16)
    {
      /* Sixteen at a time, as a drain adds a ring's records. */
      sp_record_backlog_lock (backlog);
      for (guint64 k = id; k < id + 16 && k < N_THREADED; k++)
        {
          TestRecord record = make_record (PERF_RECORD_SAMPLE, k, (guint16) (sizeof record.header + 8 + 8 + k % 900));

          sp_record_backlog_add (backlog, &record.header, k * 10, SP_BACKLOG_SAMPLE);
        }
      sp_record_backlog_unlock (backlog);
    }
  return NULL;
}

static void
test_threaded (void)
{
  SpRecordBacklog backlog;
  SpRecordBuffer buffer = { 0 };
  SpBacklogCounts counts;
  pthread_t adder;
  guint64 next_id = 0, taken = 0, dropped = 0;
  gboolean done = FALSE;

  /* Small enough that the adder often finds it full. */
  sp_record_backlog_init (&backlog, 64 * 1024);
  g_assert_cmpint (pthread_create (&adder, NULL, add_many, &backlog), ==, 0);
  while (!done)
    {
      taken += take_all (&backlog, &buffer, &next_id, &counts);
      dropped += counts.dropped_samples;
      /* The taker's queue: the bytes it took, let go of at once. */
      sp_record_backlog_hold (&backlog, 0);
      g_assert_cmpuint (taken + dropped, <=, N_THREADED);
      done = taken + dropped == N_THREADED;
    }
  pthread_join (adder, NULL);
  g_test_message ("%" G_GUINT64_FORMAT " taken, %" G_GUINT64_FORMAT " dropped", taken, dropped);
  g_assert_cmpuint (taken + dropped, ==, N_THREADED);
  g_assert_cmpuint (sp_record_backlog_peak (&backlog), <=, 64 * 1024);
  sp_record_buffer_clear (&buffer);
  sp_record_backlog_clear (&backlog);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/recorder/backlog/order-and-bound", test_order_and_bound);
  g_test_add_func ("/recorder/backlog/threaded", test_threaded);
  return g_test_run ();
}
