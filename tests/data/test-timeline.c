/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-timeline.c: the time-sorted index, timeline buckets, and counting
 * only what a followed spool gained. */
#include <glib.h>
#include <glib/gstdio.h>

#include "profile-builder.h"
#include "sp-call-tree.h"
#include "sp-spool-writer.h"
#include "sp-stack-counts.h"
#include "sp-timeline.h"

static const char *const two_threads[] = {
  "@1 main;a 10 +1",   /* 0 .. 9 ms */
  "@2 main;b 20 +1",   /* 10 .. 29 ms */
  NULL,
};

static void
test_buckets (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (two_threads);
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  guint64 t0 = sp_spool_reader_get_sample_timestamp (reader, 0);
  g_autoptr (SpSampleIndex) index = sp_sample_index_new ();
  g_autoptr (SpTimeline) timeline = NULL;
  guint64 first, last;

  sp_sample_index_update (index, reader);
  /* 3 buckets of 10 ms: thread 0 fills the first, thread 1 the others. */
  timeline = sp_timeline_new (index, t0, t0 + 30000000, 3);
  g_assert_cmpuint (timeline->n_threads, ==, 2);
  g_assert_cmpuint (timeline->counts[0], ==, 10);
  g_assert_cmpuint (timeline->counts[1], ==, 0);
  g_assert_cmpuint (timeline->counts[3 + 0], ==, 0);
  g_assert_cmpuint (timeline->counts[3 + 1], ==, 10);
  g_assert_cmpuint (timeline->counts[3 + 2], ==, 10);
  g_assert_cmpuint (timeline->max_count, ==, 10);

  g_assert_true (sp_sample_index_get_thread_span (index, 1, &first, &last));
  g_assert_cmpuint (first, ==, t0 + 10000000);
  g_assert_cmpuint (last, ==, t0 + 29000000);
  g_assert_false (sp_sample_index_get_thread_span (index, 7, &first, &last));
  g_assert_cmpuint (sp_sample_index_get_thread_samples (index, 0), ==, 10);
  g_assert_cmpuint (sp_sample_index_get_thread_samples (index, 1), ==, 20);
  g_assert_cmpuint (sp_sample_index_get_thread_samples (index, 7), ==, 0);
}

static void
on_counted (GObject *source,
            GAsyncResult *result,
            gpointer user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

static GAsyncResult *
wait_for_count (SpSampleIndex *index,
                guint64 from_ns,
                guint64 to_ns,
                guint n_buckets,
                GCancellable *cancellable)
{
  GAsyncResult *result = NULL;

  sp_timeline_new_async (NULL, index, from_ns, to_ns, n_buckets, cancellable, on_counted, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  return result;
}

/* Counted on a worker (what the timeline view does with a large range):
 * the same buckets; a count cancelled before it ran gives none. */
static void
test_async (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (two_threads);
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  guint64 t0 = sp_spool_reader_get_sample_timestamp (reader, 0);
  g_autoptr (SpSampleIndex) index = sp_sample_index_new ();
  g_autoptr (SpSampleIndex) snapshot = NULL;
  g_autoptr (SpTimeline) expected = NULL;
  g_autoptr (SpTimeline) timeline = NULL;
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GAsyncResult) cancelled = NULL;
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;

  sp_sample_index_update (index, reader);
  snapshot = sp_sample_index_snapshot (index);
  expected = sp_timeline_new (snapshot, t0, t0 + 30000000, 3);
  result = wait_for_count (snapshot, t0, t0 + 30000000, 3, NULL);
  timeline = sp_timeline_new_finish (result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (timeline);
  g_assert_cmpuint (timeline->n_buckets, ==, 3);
  g_assert_cmpuint (timeline->n_threads, ==, expected->n_threads);
  g_assert_cmpuint (timeline->max_count, ==, expected->max_count);
  g_assert_cmpmem (timeline->counts, 2 * 3 * sizeof (guint32), expected->counts, 2 * 3 * sizeof (guint32));

  g_cancellable_cancel (cancellable);
  cancelled = wait_for_count (snapshot, t0, t0 + 30000000, 3, cancellable);
  g_assert_null (sp_timeline_new_finish (cancelled, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* Samples written out of order (as CPUs deliver them) come out sorted. */
static void
test_order (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-timeline-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "t.spool", NULL);
  static const guint64 times[] = { 50, 10, 40, 20, 30, 30, 5 };
  SpFrame frame = { 0x1000, 0x1000, SP_SPOOL_NO_ID, SP_FRAME_USER };
  SpSpoolError err;
  SpSpoolWriter *writer = sp_spool_writer_create (path, 0, 1000, &err);
  g_autoptr (SpProfile) profile = NULL;
  g_autoptr (SpSampleIndex) index = sp_sample_index_new ();
  guint32 order[G_N_ELEMENTS (times)];
  gsize n, first, last;

  for (guint i = 0; i < G_N_ELEMENTS (times); i++)
    g_assert_true (sp_spool_writer_write_sample (writer, times[i], 1, 1, &frame, 1, NULL, &err));
  g_assert_true (sp_spool_writer_close (writer, &err));
  profile = sp_profile_open (path, &error);
  g_assert_no_error (error);
  sp_sample_index_update (index, sp_profile_get_reader (profile));
  n = sp_sample_index_get_n_samples (index);
  g_assert_cmpuint (n, ==, 7);
  for (gsize i = 0; i < n; i++)
    order[i] = sp_sample_index_get_sample (index, i);
  for (gsize i = 0; i < n; i++)
    g_test_message ("%" G_GSIZE_FORMAT ": sample %u at %" G_GUINT64_FORMAT, i, order[i], times[order[i]]);
  g_assert_cmpuint (order[0], ==, 6);
  g_assert_cmpuint (order[1], ==, 1);
  g_assert_cmpuint (order[2], ==, 3);
  g_assert_cmpuint (order[3], ==, 4);  /* equal times keep file order */
  g_assert_cmpuint (order[4], ==, 5);
  g_assert_cmpuint (order[5], ==, 2);
  g_assert_cmpuint (order[6], ==, 0);
  sp_sample_index_find_range (index, 20, 40, &first, &last);
  g_assert_cmpuint (first, ==, 2);
  g_assert_cmpuint (last, ==, 5);
  g_unlink (path);
  g_rmdir (dir);
}

/* A followed spool: counts and index take in only what was appended, and
 * end where counting everything at once ends. */
static void
test_follow (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-timeline-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "live.spool", NULL);
  SpFrame frames[2] = {
    { 0x2000, 0x2000, SP_SPOOL_NO_ID, SP_FRAME_USER },
    { 0x1000, 0x1000, SP_SPOOL_NO_ID, SP_FRAME_USER },
  };
  SpSpoolError err;
  SpSpoolWriter *writer = sp_spool_writer_create (path, 0, 1000, &err);
  g_autoptr (SpProfile) live = NULL;
  g_autoptr (SpStackCounts) counts = NULL;
  g_autoptr (SpSampleIndex) index = sp_sample_index_new ();
  guint64 now = 1000;

  g_assert_true (sp_spool_writer_flush (writer, &err));
  live = sp_profile_open_follow (path, &error);
  g_assert_no_error (error);
  g_assert_true (sp_profile_update (live));
  counts = sp_stack_counts_new (live, NULL);
  g_assert_cmpuint (counts->n_samples, ==, 0);

  for (guint round = 1; round <= 5; round++)
    {
      for (guint i = 0; i < 100; i++)
        g_assert_true (sp_spool_writer_write_sample (writer, now += 1000, 1, round, frames + (i % 2), 2 - (i % 2),
                                                     NULL, &err));
      g_assert_true (sp_spool_writer_flush (writer, &err));
      g_assert_true (sp_profile_update (live));
      g_assert_true (sp_stack_counts_update (counts, live, NULL));
      sp_sample_index_update (index, sp_profile_get_reader (live));
      g_assert_cmpuint (counts->n_samples, ==, round * 100);
      /* Each round is a new thread's: counted as it comes in. */
      g_assert_cmpuint (sp_sample_index_get_thread_samples (index, round - 1), ==, 100);
    }
  g_assert_false (sp_stack_counts_update (counts, live, NULL));
  g_assert_true (sp_spool_writer_close (writer, &err));
  sp_profile_finish (live);
  g_assert_null (sp_profile_get_damage (live));

  {
    g_autoptr (SpProfile) whole = sp_profile_open (path, &error);
    g_autoptr (SpStackCounts) all = sp_stack_counts_new (whole, NULL);
    g_autoptr (SpCallTree) live_tree = sp_call_tree_new (live, NULL, counts, FALSE);
    g_autoptr (SpCallTree) whole_tree = sp_call_tree_new (whole, NULL, all, FALSE);
    g_assert_cmpuint (all->n_samples, ==, counts->n_samples);
    g_assert_cmpuint (all->stacks->len, ==, counts->stacks->len);
    g_assert_cmpuint (live_tree->n_nodes, ==, whole_tree->n_nodes);
    g_assert_cmpuint (live_tree->nodes[0].total, ==, 500);
    g_assert_cmpuint (sp_sample_index_get_n_samples (index), ==, 500);
  }
  g_unlink (path);
  g_rmdir (dir);
}

/* Positions of index in time order, as (time, sample) pairs, checked sorted. */
static GArray *
read_order (const SpSampleIndex *index)
{
  GArray *order = g_array_new (FALSE, FALSE, sizeof (guint64) * 2);
  gsize n = sp_sample_index_get_n_samples (index);
  SpSampleRun run;

  for (gsize pos = 0; pos < n; pos += run.n)
    {
      sp_sample_index_get_run (index, pos, n, &run);
      for (gsize i = 0; i < run.n; i++)
        {
          guint64 pair[2] = { run.time[i], run.sample[i] };

          if (order->len > 0)
            g_assert_cmpuint (((guint64 *) order->data)[2 * (order->len - 1)], <=, pair[0]);
          g_array_append_val (order, pair);
        }
    }
  return order;
}

/* A spool writer on name in a new temporary folder (*dir, *path). */
static SpSpoolWriter *
writer_in_temp (const char *name,
                char **dir,
                char **path)
{
  g_autoptr (GError) error = NULL;
  SpSpoolWriter *writer;
  SpSpoolError err;

  *dir = g_dir_make_tmp ("stackpulse-timeline-XXXXXX", &error);
  g_assert_no_error (error);
  *path = g_build_filename (*dir, name, NULL);
  writer = sp_spool_writer_create (*path, 0, 1000, &err);
  g_assert_nonnull (writer);
  return writer;
}

/* A snapshot stays as it was while the index grows past it, across the
 * index's storage blocks and with late samples moved back into blocks the
 * snapshot shares. */
static void
test_snapshot (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  SpFrame frame = { 0x1000, 0x1000, SP_SPOOL_NO_ID, SP_FRAME_USER };
  SpSpoolError err;
  SpSpoolWriter *writer = writer_in_temp ("grow.spool", &dir, &path);
  g_autoptr (SpProfile) live = NULL;
  g_autoptr (SpSampleIndex) index = sp_sample_index_new ();
  g_autoptr (GPtrArray) snapshots = g_ptr_array_new_with_free_func ((GDestroyNotify) sp_sample_index_unref);
  g_autoptr (GPtrArray) expected = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  guint64 now = 1000000;

  g_assert_true (sp_spool_writer_flush (writer, &err));
  live = sp_profile_open_follow (path, &error);
  g_assert_no_error (error);
  for (guint round = 0; round < 6; round++)
    {
      /* 30,000 samples a round; every 7th arrives 5 samples late. */
      for (guint i = 0; i < 30000; i++)
        {
          guint64 t = (now += 100) - (i % 7 == 0 ? 500 : 0);

          g_assert_true (sp_spool_writer_write_sample (writer, t, 1, 1 + (i % 3), &frame, 1, NULL, &err));
        }
      g_assert_true (sp_spool_writer_flush (writer, &err));
      g_assert_true (sp_profile_update (live));
      sp_sample_index_update (index, sp_profile_get_reader (live));
      g_assert_cmpuint (sp_sample_index_get_n_samples (index), ==, (round + 1) * 30000);
      g_ptr_array_add (snapshots, sp_sample_index_snapshot (index));
      g_ptr_array_add (expected, read_order (index));
    }
  for (guint k = 0; k < snapshots->len; k++)
    {
      g_autoptr (GArray) now_order = read_order (g_ptr_array_index (snapshots, k));
      GArray *then = g_ptr_array_index (expected, k);

      g_assert_cmpuint (now_order->len, ==, then->len);
      g_assert_cmpmem (now_order->data, now_order->len * 16, then->data, then->len * 16);
      g_assert_cmpuint (sp_sample_index_get_thread_samples (g_ptr_array_index (snapshots, k), 0), ==,
                        (k + 1) * 10000);
    }
  g_assert_true (sp_spool_writer_close (writer, &err));
  g_unlink (path);
  g_rmdir (dir);
}

/* Every position of index names a sample of reader with its time and
 * thread. */
static void
check_against_reader (const SpSampleIndex *index,
                      const SpSpoolReader *reader)
{
  gsize n = sp_sample_index_get_n_samples (index);
  SpSampleRun run;

  for (gsize pos = 0; pos < n; pos += run.n)
    {
      sp_sample_index_get_run (index, pos, n, &run);
      for (gsize i = 0; i < run.n; i++)
        {
          g_assert_cmpuint (run.time[i], ==, sp_spool_reader_get_sample_timestamp (reader, run.sample[i]));
          g_assert_cmpuint (run.thread[i], ==, sp_spool_reader_get_sample_thread (reader, run.sample[i]));
        }
    }
}

static gpointer
ref_profile (gpointer profile)
{
  return sp_profile_ref (profile);
}

static void
unref_profile (gpointer profile)
{
  sp_profile_unref (profile);
}

/* Indexes a spool of n samples, sample i at time_of (i) of thread
 * 1 + i % n_tids, and checks the order is sorted and every position names
 * a sample with its time and thread. Over the reader, what comes back is
 * a snapshot, which alone keeps the profile and its reader. */
static SpSampleIndex *
index_written (guint n,
               guint64 (*time_of) (guint i),
               guint n_tids,
               gboolean over_reader)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  SpFrame frame = { 0x1000, 0x1000, SP_SPOOL_NO_ID, SP_FRAME_USER };
  SpSpoolError err;
  SpSpoolWriter *writer = writer_in_temp ("written.spool", &dir, &path);
  g_autoptr (SpProfile) profile = NULL;
  g_autoptr (GArray) order = NULL;
  SpSampleIndex *index;

  for (guint i = 0; i < n; i++)
    g_assert_true (sp_spool_writer_write_sample (writer, time_of (i), 1, 1 + (i % n_tids), &frame, 1, NULL, &err));
  g_assert_true (sp_spool_writer_close (writer, &err));
  profile = sp_profile_open (path, &error);
  g_assert_no_error (error);
  if (over_reader)
    {
      g_autoptr (SpSampleIndex) own = sp_sample_index_new_over (sp_profile_get_reader (profile), profile,
                                                                ref_profile, unref_profile);

      sp_sample_index_update (own, sp_profile_get_reader (profile));
      index = sp_sample_index_snapshot (own);
    }
  else
    {
      index = sp_sample_index_new ();
      sp_sample_index_update (index, sp_profile_get_reader (profile));
    }
  g_assert_cmpuint (sp_sample_index_get_n_samples (index), ==, n);
  order = read_order (index);
  check_against_reader (index, sp_profile_get_reader (profile));
  g_unlink (path);
  g_rmdir (dir);
  return index;
}

/* 100 ns apart, but sample 1,500 belongs between 200 and 201. */
static guint64
one_late_by_1300 (guint i)
{
  return i == 1500 ? 1000000 + 200 * 100 + 50 : 1000000 + (guint64) i * 100;
}

/* 300 threads (beyond 8 bits) and a sample 1,300 late (beyond 8 bits of
 * distance): the index's 8-byte form. */
static void
test_compact_blocks (void)
{
  for (int over = 0; over <= 1; over++)
    {
      g_autoptr (SpSampleIndex) index = index_written (2000, one_late_by_1300, 300, over);

      g_assert_cmpuint (sp_sample_index_get_sample (index, 201), ==, 1500);
    }
}

/* 100 ns apart with a 10 s jump at sample 20,000; sample 50,000 belongs
 * between 10,000 and 10,001. */
static guint64
jump_and_one_late_by_40000 (guint i)
{
  if (i == 50000)
    return 1000000 + 10000 * 100 + 50;
  return 1000000 + (guint64) i * 100 + (i >= 20000 ? G_GUINT64_CONSTANT (10000000000) : 0);
}

/* Positions that do not fit the index's 8-byte form (a time more than
 * 2.1 s from its base, a sample arriving 40,000 samples late) are kept
 * whole. */
static void
test_whole_blocks (void)
{
  for (int over = 0; over <= 1; over++)
    {
      g_autoptr (SpSampleIndex) index = index_written (70000, jump_and_one_late_by_40000, 3, over);

      g_assert_cmpuint (sp_sample_index_get_sample (index, 10001), ==, 50000);
      g_assert_cmpuint (sp_sample_index_get_thread_samples (index, 0), ==, 70000 / 3 + 1);
    }
}

/* Every 7th sample 5 late, a 10 s pause at 140,000 and one sample 1,000
 * late at 150,000: the CPUs' shuffle, a time past a 32-bit offset, and a
 * distance past 8 bits in the same block, which held the reader's form
 * until then (off it, its positions need 16 bytes, not the distance's 8). */
static guint64
shuffled (guint i)
{
  if (i == 150000)
    return 1000000 + 149000 * 100 + 50 + G_GUINT64_CONSTANT (10000000000);
  return 1000000 + (guint64) i * 100 - (i % 7 == 0 ? 500 : 0)
         + (i >= 140000 ? G_GUINT64_CONSTANT (10000000000) : 0);
}

/* An index over a finished reader keeps 1 byte a position and reads the
 * rest from the reader: the same order, ranges and threads as the index
 * that copies them, from a snapshot that outlived its profile. */
static void
test_over_reader (void)
{
  g_autoptr (SpSampleIndex) copied = index_written (200000, shuffled, 5, FALSE);
  g_autoptr (SpSampleIndex) over = index_written (200000, shuffled, 5, TRUE);
  g_autoptr (GArray) copied_order = read_order (copied);
  g_autoptr (GArray) over_order = read_order (over);
  guint64 first_a, last_a, first_b, last_b;
  gsize moved = 0;

  g_assert_cmpuint (over_order->len, ==, 200000);
  g_assert_cmpmem (over_order->data, over_order->len * 16, copied_order->data, copied_order->len * 16);
  while (sp_sample_index_get_sample (over, moved) != 150000)
    moved++;
  g_assert_cmpuint (moved, >, 148990);
  g_assert_cmpuint (moved, <, 149010);
  for (guint64 t = 1000000; t < 1000000 + G_GUINT64_CONSTANT (10000000000) + 30000000; t += 7777777)
    {
      gsize a0, a1, b0, b1;

      sp_sample_index_find_range (copied, t, t + 1234567, &a0, &a1);
      sp_sample_index_find_range (over, t, t + 1234567, &b0, &b1);
      g_assert_cmpuint (a0, ==, b0);
      g_assert_cmpuint (a1, ==, b1);
    }
  g_assert_cmpuint (sp_sample_index_get_n_threads (over), ==, 5);
  for (guint32 thread = 0; thread < 5; thread++)
    {
      g_assert_cmpuint (sp_sample_index_get_thread_samples (over, thread), ==,
                        sp_sample_index_get_thread_samples (copied, thread));
      g_assert_true (sp_sample_index_get_thread_span (copied, thread, &first_a, &last_a));
      g_assert_true (sp_sample_index_get_thread_span (over, thread, &first_b, &last_b));
      g_assert_cmpuint (first_a, ==, first_b);
      g_assert_cmpuint (last_a, ==, last_b);
    }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/timeline/buckets", test_buckets);
  g_test_add_func ("/data/timeline/async", test_async);
  g_test_add_func ("/data/timeline/order", test_order);
  g_test_add_func ("/data/timeline/follow", test_follow);
  g_test_add_func ("/data/timeline/snapshot", test_snapshot);
  g_test_add_func ("/data/timeline/whole-blocks", test_whole_blocks);
  g_test_add_func ("/data/timeline/compact-blocks", test_compact_blocks);
  g_test_add_func ("/data/timeline/over-reader", test_over_reader);
  return g_test_run ();
}
