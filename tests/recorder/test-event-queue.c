/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-event-queue.c: the recorder's time-ordering queue
 * (recorder/sp-event-queue.c), without perf.
 *
 * Records from several "rings" (each in time order, the rings interleaved)
 * are pushed in batches between flushes with rising watermarks, some
 * flushes cut short by a deadline already past (a consumer far behind):
 * every record comes out once, in time order, equal times in arrival
 * order, only once below the watermark, and a backlog of 200,000 records
 * handed out 16 at a time drains completely. */
#include <glib.h>
#include <string.h>

#include "sp-event-queue.h"

typedef struct {
  struct perf_event_header header;
  guint64 time;
  guint64 id;                  /* arrival order */
} TestRecord;

typedef struct {
  GArray  *out;                /* TestRecord handed out */
  guint64  watermark;
} Sink;

static void
take (const struct perf_event_header *header,
      uint64_t time,
      void *user_data)
{
  Sink *sink = user_data;
  TestRecord record;

  memcpy (&record, header, sizeof record);
  g_assert_cmpuint (record.time, ==, time);
  g_assert_cmpuint (time, <, sink->watermark);
  g_array_append_val (sink->out, record);
}

static void
push (SpEventQueue *queue,
      guint64 time,
      guint64 id)
{
  TestRecord record = { { PERF_RECORD_SAMPLE, 0, sizeof (TestRecord) }, time, id };

  g_assert_true (sp_event_queue_push (queue, &record.header, time));
}

/* In time order, equal times in arrival order, each id once. */
static void
assert_ordered (GArray *out,
                guint64 n_pushed)
{
  g_autofree guint8 *seen = g_new0 (guint8, n_pushed);

  g_assert_cmpuint (out->len, ==, n_pushed);
  for (guint i = 0; i < out->len; i++)
    {
      const TestRecord *r = &g_array_index (out, TestRecord, i);

      g_assert_cmpuint (r->id, <, n_pushed);
      g_assert_false (seen[r->id]);
      seen[r->id] = 1;
      if (i > 0)
        {
          const TestRecord *p = &g_array_index (out, TestRecord, i - 1);

          g_assert_cmpuint (p->time, <=, r->time);
          if (p->time == r->time)
            g_assert_cmpuint (p->id, <, r->id);
        }
    }
}

/* Four rings drained one after the other each round, with times that
 * overlap across rings and repeat; watermarks trail the newest time. */
static void
test_interleaved_rings (void)
{
  SpEventQueue queue;
  Sink sink = { g_array_new (FALSE, FALSE, sizeof (TestRecord)), 0 };
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);
  guint64 ring_time[4] = { 0 }, id = 0;

  sp_event_queue_init (&queue);
  for (guint round = 0; round < 400; round++)
    {
      guint64 oldest_newest = G_MAXUINT64;

      for (guint ring = 0; ring < 4; ring++)
        {
          guint n = g_rand_int_range (rand, 0, 60);

          for (guint i = 0; i < n; i++)
            {
              ring_time[ring] += g_rand_int_range (rand, 0, 3);   /* equal times too */
              push (&queue, ring_time[ring], id++);
            }
          oldest_newest = MIN (oldest_newest, ring_time[ring]);
        }
      /* What no ring can still send older than. */
      sink.watermark = oldest_newest;
      sp_event_queue_flush (&queue, sink.watermark, g_rand_boolean (rand) ? 1 : 0, take, &sink);
    }
  sink.watermark = G_MAXUINT64;
  while (sp_event_queue_get_length (&queue) > 0)
    sp_event_queue_flush (&queue, UINT64_MAX, 0, take, &sink);
  assert_ordered (sink.out, id);
  sp_event_queue_clear (&queue);
  g_array_unref (sink.out);
}

/* A consumer far behind: 200,000 records wait, and each flush may hand
 * out only 16 (its deadline has passed); new ones keep coming. All of them
 * come out, in order: each flush costs the records that came and those it
 * hands out, not the backlog. */
static void
test_backlog_drains (void)
{
  SpEventQueue queue;
  Sink sink = { g_array_new (FALSE, FALSE, sizeof (TestRecord)), UINT64_MAX };
  guint64 id = 0, flushes = 0;

  sp_event_queue_init (&queue);
  for (guint64 t = 0; t < 200000; t++)
    push (&queue, t * 2 + (t % 2), id++);
  while (sp_event_queue_get_length (&queue) > 0)
    {
      /* Two more arrive for every flush for a while, out of order. */
      if (id < 220000)
        {
          push (&queue, 400000 + id * 3, id);
          id++;
          push (&queue, 400000 + (id - 2) * 3 + 1, id);
          id++;
        }
      g_assert_false (sp_event_queue_flush (&queue, UINT64_MAX, 1, take, &sink) && sp_event_queue_get_length (&queue) > 0);
      flushes++;
    }
  g_test_message ("%" G_GUINT64_FORMAT " records in %" G_GUINT64_FORMAT " flushes", id, flushes);
  g_assert_cmpuint (flushes, <=, id / 16 + 1);
  assert_ordered (sink.out, id);
  sp_event_queue_clear (&queue);
  g_array_unref (sink.out);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/event-queue/interleaved-rings", test_interleaved_rings);
  g_test_add_func ("/event-queue/backlog-drains", test_backlog_drains);
  return g_test_run ();
}
