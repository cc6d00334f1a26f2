/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-thread-states.c: running, blocked and runnable stretches derived
 * from hand-made switch records (data/sp-thread-states.c): the splits,
 * open intervals at the end of a growing recording, THREAD_END, records
 * out of time order, lost records. */
#include <glib.h>

#include "sp-thread-states.h"

#define NO SP_SPOOL_NO_ID

static SpOffCpuRecord
out (guint32 thread, guint64 ts, SpOffCpuState state, guint32 stack)
{
  return (SpOffCpuRecord) { SP_OFFCPU_SWITCH_OUT, (uint8_t) state, thread, stack, ts, 0 };
}

static SpOffCpuRecord
in (guint32 thread, guint64 ts)
{
  return (SpOffCpuRecord) { SP_OFFCPU_SWITCH_IN, 0, thread, NO, ts, 0 };
}

static SpOffCpuRecord
end (guint32 thread, guint64 ts)
{
  return (SpOffCpuRecord) { SP_OFFCPU_THREAD_END, 0, thread, NO, ts, 0 };
}

static void
assert_interval (const SpStateInterval *i,
                 guint64 start,
                 guint64 stop,
                 SpThreadState state,
                 guint32 stack,
                 gboolean open)
{
  g_assert_cmpuint (i->start_ns, ==, start);
  g_assert_cmpuint (i->end_ns, ==, stop);
  g_assert_cmpuint (i->state, ==, state);
  g_assert_cmpuint (i->stack, ==, stack);
  g_assert_cmpuint (i->open, ==, open);
}

/* Running from the first sample, blocked on stack 7, runnable, running. */
static void
test_splits (void)
{
  SpOffCpuRecord records[] = {
    { SP_OFFCPU_SYNC, 0, 0, 0, 0, 100 },
    out (0, 1000, SP_OFFCPU_BLOCKED, 7),
    in (0, 4000),
    out (0, 4500, SP_OFFCPU_RUNNABLE, 8),
    in (0, 4700),
    end (0, 5000),
  };
  guint64 first_sample[] = { 200 };
  g_autoptr (SpThreadStates) states = sp_thread_states_new (records, G_N_ELEMENTS (records), 1, first_sample, 9000);
  const SpThreadTotals *totals = sp_thread_states_get_totals (states, 0);
  gsize n;
  const SpStateInterval *iv = sp_thread_states_get_intervals (states, 0, &n);

  g_assert_cmpuint (n, ==, 5);
  assert_interval (&iv[0], 200, 1000, SP_THREAD_RUNNING, 7, FALSE);
  assert_interval (&iv[1], 1000, 4000, SP_THREAD_BLOCKED, 7, FALSE);
  assert_interval (&iv[2], 4000, 4500, SP_THREAD_RUNNING, 8, FALSE);
  assert_interval (&iv[3], 4500, 4700, SP_THREAD_RUNNABLE, 8, FALSE);
  assert_interval (&iv[4], 4700, 5000, SP_THREAD_RUNNING, NO, FALSE);
  g_assert_cmpuint (totals->running_ns, ==, 800 + 500 + 300);
  g_assert_cmpuint (totals->blocked_ns, ==, 3000);
  g_assert_cmpuint (totals->runnable_ns, ==, 200);
  g_assert_cmpuint (totals->switches, ==, 2);
}

/* A growing recording: the last stretch is open and ends at the last
 * known time; a thread with samples only runs from its first sample. */
static void
test_open_intervals (void)
{
  SpOffCpuRecord records[] = {
    in (0, 100),
    out (0, 300, SP_OFFCPU_BLOCKED, NO),
  };
  guint64 first_sample[] = { G_MAXUINT64, 50, G_MAXUINT64 };
  g_autoptr (SpThreadStates) states = sp_thread_states_new (records, G_N_ELEMENTS (records), 3, first_sample, 1000);
  gsize n;
  const SpStateInterval *iv = sp_thread_states_get_intervals (states, 0, &n);

  g_assert_cmpuint (n, ==, 2);
  assert_interval (&iv[0], 100, 300, SP_THREAD_RUNNING, NO, FALSE);
  assert_interval (&iv[1], 300, 1000, SP_THREAD_BLOCKED, NO, TRUE);
  g_assert_cmpuint (sp_thread_states_get_totals (states, 0)->blocked_ns, ==, 700);

  iv = sp_thread_states_get_intervals (states, 1, &n);
  g_assert_cmpuint (n, ==, 1);
  assert_interval (&iv[0], 50, 1000, SP_THREAD_RUNNING, NO, TRUE);
  g_assert_cmpuint (sp_thread_states_get_totals (states, 1)->running_ns, ==, 950);

  /* Known nowhere: no intervals, zero totals. */
  sp_thread_states_get_intervals (states, 2, &n);
  g_assert_cmpuint (n, ==, 0);
  g_assert_cmpuint (sp_thread_states_get_totals (states, 2)->running_ns, ==, 0);
  sp_thread_states_get_intervals (states, 3, &n);
  g_assert_cmpuint (n, ==, 0);
}

/* THREAD_END while blocked closes the blocked stretch; nothing after. */
static void
test_thread_end (void)
{
  SpOffCpuRecord records[] = {
    out (0, 100, SP_OFFCPU_BLOCKED, 3),
    end (0, 600),
    in (0, 700),
  };
  g_autoptr (SpThreadStates) states = sp_thread_states_new (records, G_N_ELEMENTS (records), 1, NULL, 1000);
  gsize n;
  const SpStateInterval *iv = sp_thread_states_get_intervals (states, 0, &n);

  g_assert_cmpuint (n, ==, 1);
  assert_interval (&iv[0], 100, 600, SP_THREAD_BLOCKED, 3, FALSE);
  g_assert_cmpuint (sp_thread_states_get_totals (states, 0)->running_ns, ==, 0);
}

/* Records of several CPUs come interleaved (negative deltas): per thread
 * they are taken in time order. Two threads interleave as well. */
static void
test_out_of_order (void)
{
  SpOffCpuRecord records[] = {
    in (1, 400),
    out (0, 300, SP_OFFCPU_RUNNABLE, 5),
    out (1, 250, SP_OFFCPU_BLOCKED, 6),
    in (0, 350),
    out (0, 100, SP_OFFCPU_BLOCKED, 4),
    in (0, 200),
  };
  guint64 first_sample[] = { 10, 20 };
  g_autoptr (SpThreadStates) states = sp_thread_states_new (records, G_N_ELEMENTS (records), 2, first_sample, 500);
  gsize n;
  const SpStateInterval *iv = sp_thread_states_get_intervals (states, 0, &n);

  g_assert_cmpuint (n, ==, 5);
  assert_interval (&iv[0], 10, 100, SP_THREAD_RUNNING, 4, FALSE);
  assert_interval (&iv[1], 100, 200, SP_THREAD_BLOCKED, 4, FALSE);
  assert_interval (&iv[2], 200, 300, SP_THREAD_RUNNING, 5, FALSE);
  assert_interval (&iv[3], 300, 350, SP_THREAD_RUNNABLE, 5, FALSE);
  assert_interval (&iv[4], 350, 500, SP_THREAD_RUNNING, NO, TRUE);
  iv = sp_thread_states_get_intervals (states, 1, &n);
  g_assert_cmpuint (n, ==, 3);
  assert_interval (&iv[0], 20, 250, SP_THREAD_RUNNING, 6, FALSE);
  assert_interval (&iv[1], 250, 400, SP_THREAD_BLOCKED, 6, FALSE);
  assert_interval (&iv[2], 400, 500, SP_THREAD_RUNNING, NO, TRUE);
}

/* A lost switch-in: the second switch-out ends the first stretch; a lost
 * switch-out: the extra switch-in is ignored. Unknown threads are left out. */
static void
test_lost_records (void)
{
  SpOffCpuRecord records[] = {
    out (0, 100, SP_OFFCPU_BLOCKED, 1),
    out (0, 200, SP_OFFCPU_RUNNABLE, 2),
    in (0, 300),
    in (0, 400),
    out (9, 150, SP_OFFCPU_BLOCKED, 1),
  };
  g_autoptr (SpThreadStates) states = sp_thread_states_new (records, G_N_ELEMENTS (records), 1, NULL, 500);
  const SpThreadTotals *totals = sp_thread_states_get_totals (states, 0);

  g_assert_cmpuint (totals->blocked_ns, ==, 100);
  g_assert_cmpuint (totals->runnable_ns, ==, 100);
  g_assert_cmpuint (totals->running_ns, ==, 200);
  g_assert_cmpuint (totals->switches, ==, 2);
}

static void
test_overlap (void)
{
  SpStateInterval iv = { 100, 300, NO, SP_THREAD_BLOCKED, 0 };

  g_assert_cmpuint (sp_state_interval_overlap (&iv, 0, G_MAXUINT64), ==, 200);
  g_assert_cmpuint (sp_state_interval_overlap (&iv, 150, 250), ==, 100);
  g_assert_cmpuint (sp_state_interval_overlap (&iv, 250, 1000), ==, 50);
  g_assert_cmpuint (sp_state_interval_overlap (&iv, 300, 1000), ==, 0);
}

/* The timeline's queries: the interval under the pointer, and each
 * state's time per bucket (an interval split across buckets, two states in
 * one bucket, buckets with nothing). */
static void
test_find_and_bucket (void)
{
  SpOffCpuRecord records[] = {
    out (0, 1000, SP_OFFCPU_BLOCKED, 7),
    in (0, 4000),
    out (0, 4500, SP_OFFCPU_RUNNABLE, 8),
    in (0, 4700),
    end (0, 5000),
  };
  guint64 first_sample[] = { 200 };
  g_autoptr (SpThreadStates) states = sp_thread_states_new (records, G_N_ELEMENTS (records), 1, first_sample, 9000);
  SpStateBucket b[6];
  guint64 first, last;

  g_assert_true (sp_thread_states_get_span (states, &first, &last));
  g_assert_cmpuint (first, ==, 200);
  g_assert_cmpuint (last, ==, 5000);
  g_assert_null (sp_thread_states_find (states, 0, 100));
  g_assert_cmpuint (sp_thread_states_find (states, 0, 200)->state, ==, SP_THREAD_RUNNING);
  g_assert_cmpuint (sp_thread_states_find (states, 0, 1000)->stack, ==, 7);
  g_assert_cmpuint (sp_thread_states_find (states, 0, 3999)->state, ==, SP_THREAD_BLOCKED);
  g_assert_cmpuint (sp_thread_states_find (states, 0, 4600)->state, ==, SP_THREAD_RUNNABLE);
  g_assert_null (sp_thread_states_find (states, 0, 5000));
  g_assert_null (sp_thread_states_find (states, 3, 1000));

  sp_thread_states_bucket (states, 0, 0, 6000, 6, b);
  g_assert_cmpuint (b[0].ns[SP_THREAD_RUNNING], ==, 800);
  g_assert_cmpuint (b[0].ns[SP_THREAD_BLOCKED], ==, 0);
  for (guint i = 1; i <= 3; i++)
    g_assert_cmpuint (b[i].ns[SP_THREAD_BLOCKED], ==, 1000);
  g_assert_cmpuint (b[4].ns[SP_THREAD_RUNNING], ==, 800);
  g_assert_cmpuint (b[4].ns[SP_THREAD_RUNNABLE], ==, 200);
  g_assert_cmpuint (b[5].ns[SP_THREAD_RUNNING] + b[5].ns[SP_THREAD_BLOCKED] + b[5].ns[SP_THREAD_RUNNABLE], ==, 0);

  /* A range inside one interval: every bucket all blocked. */
  sp_thread_states_bucket (states, 0, 1500, 1800, 3, b);
  for (guint i = 0; i < 3; i++)
    g_assert_cmpuint (b[i].ns[SP_THREAD_BLOCKED], ==, 100);
}

/* A live recording's first look, before the companion has a record and
 * before any sample: no intervals, and every question answered with none
 * (the sanitizer build caught pointers made into arrays that were not
 * there). */
static void
test_nothing_yet (void)
{
  const guint64 first_sample[2] = { G_MAXUINT64, G_MAXUINT64 };
  g_autoptr (SpThreadStates) states = sp_thread_states_new (NULL, 0, 2, first_sample, 500);
  SpStateBucket buckets[4];
  SpThreadTotals totals;
  guint64 first_ns, last_ns;
  gsize n = 99;

  g_assert_null (sp_thread_states_get_intervals (states, 1, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_null (sp_thread_states_find (states, 0, 100));
  sp_thread_states_bucket (states, 0, 0, 400, G_N_ELEMENTS (buckets), buckets);
  sp_thread_states_sum_range (states, 1, 0, 500, &totals);
  g_assert_cmpuint (totals.running_ns + totals.blocked_ns + totals.runnable_ns, ==, 0);
  g_assert_false (sp_thread_states_get_span (states, &first_ns, &last_ns));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/thread-states/splits", test_splits);
  g_test_add_func ("/thread-states/open-intervals", test_open_intervals);
  g_test_add_func ("/thread-states/thread-end", test_thread_end);
  g_test_add_func ("/thread-states/out-of-order", test_out_of_order);
  g_test_add_func ("/thread-states/lost-records", test_lost_records);
  g_test_add_func ("/thread-states/overlap", test_overlap);
  g_test_add_func ("/thread-states/find-and-bucket", test_find_and_bucket);
  g_test_add_func ("/thread-states/nothing-yet", test_nothing_yet);
  return g_test_run ();
}
