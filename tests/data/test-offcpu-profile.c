/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-offcpu-profile.c: a spool and its off-CPU companion, written with
 * the codec's writers (profile-builder.c), read through SpProfile: thread
 * states and totals, off-CPU and wall weights in the aggregations, time
 * ranges clipping intervals, a followed companion that grows, damage in
 * the companion that leaves the spool alone. */
#include <glib.h>
#include <glib/gstdio.h>

#include "profile-builder.h"
#include "sp-call-tree.h"
#include "sp-filter.h"
#include "sp-function-list.h"

#define MS G_GUINT64_CONSTANT (1000000)


static guint
thread_of (SpProfile *profile,
           guint64 tid)
{
  for (guint t = 0; t < sp_profile_get_n_threads (profile); t++)
    {
      gint32 pid;
      guint64 thread_tid;

      sp_profile_get_thread (profile, t, &pid, &thread_tid);
      if (thread_tid == tid)
        return t;
    }
  g_assert_not_reached ();
}

static char *
collapsed_with (SpProfile *profile,
                SpMetric metric,
                guint64 from_ms,
                guint64 to_ms)
{
  g_autoptr (SpFilter) filter = sp_filter_new ();

  sp_filter_set_metric (filter, metric);
  if (to_ms > 0)
    sp_filter_set_time_range (filter, from_ms * MS, to_ms * MS);
  return collapsed_of (profile, filter);
}

static void
test_states (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (offcpu_example);
  const SpThreadStates *states = sp_profile_get_thread_states (profile);
  const SpThreadTotals *spinner, *blocker;

  g_assert_true (sp_profile_has_off_cpu (profile));
  g_assert_nonnull (states);
  spinner = sp_thread_states_get_totals (states, thread_of (profile, 1));
  blocker = sp_thread_states_get_totals (states, thread_of (profile, 2));
  /* The spinner runs from its first sample to the last known time. */
  g_assert_cmpuint (spinner->running_ns, ==, 60 * MS);
  g_assert_cmpuint (spinner->switches, ==, 0);
  g_assert_cmpuint (blocker->running_ns, ==, 15 * MS);
  g_assert_cmpuint (blocker->blocked_ns, ==, 40 * MS);
  g_assert_cmpuint (blocker->runnable_ns, ==, 5 * MS);
  g_assert_cmpuint (blocker->switches, ==, 3);
}

static void
test_off_cpu_weights (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (offcpu_example);
  g_autofree char *cpu = collapsed_with (profile, SP_METRIC_CPU, 0, 0);
  g_autofree char *off = collapsed_with (profile, SP_METRIC_OFF_CPU, 0, 0);
  g_autoptr (SpFilter) filter = sp_filter_new ();
  g_autoptr (SpCallTree) tree = NULL;

  g_assert_cmpstr (cpu, ==, "main;spin 10\n");
  g_assert_cmpstr (off, ==,
                   "[off-CPU: stack not recorded] 10000\n"
                   "main;pipe_wait 30000\n"
                   "main;work 5000\n");
  /* The tree weighs the same: main's total is its two stacks. */
  sp_filter_set_metric (filter, SP_METRIC_OFF_CPU);
  tree = sp_call_tree_new (profile, filter, NULL, FALSE);
  g_assert_cmpuint (tree->nodes[0].total, ==, 45 * MS);
  g_assert_cmpuint (tree->nodes[tree->nodes[0].first_child].total, ==, 35 * MS);
}

/* Wall: each of the spinner's 10 samples weighs a tenth of its 60 ms; the
 * blocker's running stretches have no sample. */
static void
test_wall_weights (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (offcpu_example);
  g_autofree char *wall = collapsed_with (profile, SP_METRIC_WALL, 0, 0);
  g_autoptr (SpFilter) filter = sp_filter_new ();
  g_autoptr (GArray) functions = NULL;
  g_autoptr (SpCallTree) bottom_up = NULL;

  g_assert_cmpstr (wall, ==,
                   "[off-CPU: stack not recorded] 10000\n"
                   "[on-CPU: not sampled] 15000\n"
                   "main;pipe_wait 30000\n"
                   "main;spin 60000\n"
                   "main;work 5000\n");
  sp_filter_set_metric (filter, SP_METRIC_WALL);
  bottom_up = sp_call_tree_new (profile, filter, NULL, TRUE);
  g_assert_cmpuint (bottom_up->nodes[0].total, ==, 120 * MS);
  functions = sp_function_list_new (profile, filter, NULL);
  g_assert_cmpuint (functions->len, >, 0);
}

/* A range takes the part of each interval inside it; hidden threads none. */
static void
test_time_range (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (offcpu_example);
  g_autofree char *off = collapsed_with (profile, SP_METRIC_OFF_CPU, 1020, 1042);
  g_autofree char *wall = collapsed_with (profile, SP_METRIC_WALL, 1005, 1010);
  g_autoptr (SpFilter) hidden = sp_filter_new ();
  g_autofree char *none = NULL;

  g_assert_cmpstr (off, ==, "main;pipe_wait 10000\nmain;work 2000\n");
  /* 5 ms of the spinner's running time over its 5 samples in the range. */
  g_assert_cmpstr (wall, ==, "main;pipe_wait 5000\nmain;spin 5000\n");
  sp_filter_set_metric (hidden, SP_METRIC_OFF_CPU);
  sp_filter_hide_thread (hidden, thread_of (profile, 2));
  none = collapsed_of (profile, hidden);
  g_assert_cmpstr (none, ==, "");
}

/* Followed: the blocked stretch is open (to the last known time) until
 * its switch-in arrives. */
static void
test_follow (void)
{
  RecordingBuilder *b = recording_builder_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (SpProfile) profile = NULL;
  const SpStateInterval *iv;
  gsize n;

  recording_builder_add_line (b, "@1 main;spin 10 +1");
  recording_builder_add_line (b, "out 2 1002 blocked main;pipe_wait");
  recording_builder_flush (b);
  profile = sp_profile_open_follow (recording_builder_get_path (b), &error);
  g_assert_no_error (error);
  sp_profile_update (profile);
  g_assert_true (sp_profile_has_off_cpu (profile));
  iv = sp_thread_states_get_intervals (sp_profile_get_thread_states (profile), thread_of (profile, 2), &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_true (iv[0].open);
  g_assert_cmpuint (iv[0].end_ns - iv[0].start_ns, ==, 7 * MS);

  recording_builder_add_line (b, "@1 main;spin 20 +1");
  recording_builder_add_line (b, "in 2 1025");
  recording_builder_flush (b);
  sp_profile_update (profile);
  iv = sp_thread_states_get_intervals (sp_profile_get_thread_states (profile), thread_of (profile, 2), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_false (iv[0].open);
  g_assert_cmpuint (iv[0].end_ns - iv[0].start_ns, ==, 23 * MS);
  g_assert_true (iv[1].open);
  sp_profile_finish (profile);
  g_assert_null (sp_profile_get_off_cpu_damage (profile));
  recording_builder_free (b);
}

/* A broken companion is said apart; the spool reads whole. No companion:
 * no states. */
static void
test_damage_and_none (void)
{
  static const char *const plain[] = { "@1 main;spin 3", NULL };
  RecordingBuilder *b = recording_builder_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (SpProfile) damaged = NULL;
  g_autoptr (SpProfile) without = profile_from_text (plain);
  g_autofree char *companion = NULL;

  g_assert_false (sp_profile_has_off_cpu (without));
  g_assert_null (sp_profile_get_thread_states (without));
  recording_builder_add_line (b, "@1 main;spin 3");
  recording_builder_finish (b);
  companion = g_strconcat (recording_builder_get_path (b), ".offcpu", NULL);
  g_assert_true (g_file_set_contents (companion, "SPOFF1\0\0\x09garbage", 16, NULL));
  damaged = sp_profile_open (recording_builder_get_path (b), &error);
  g_assert_no_error (error);
  g_assert_null (sp_profile_get_damage (damaged));
  g_assert_nonnull (sp_profile_get_off_cpu_damage (damaged));
  g_assert_nonnull (strstr (sp_profile_get_off_cpu_damage (damaged), ".offcpu"));
  g_assert_cmpuint (sp_spool_reader_get_n_samples (sp_profile_get_reader (damaged)), ==, 3);
  recording_builder_free (b);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/offcpu-profile/states", test_states);
  g_test_add_func ("/offcpu-profile/off-cpu-weights", test_off_cpu_weights);
  g_test_add_func ("/offcpu-profile/wall-weights", test_wall_weights);
  g_test_add_func ("/offcpu-profile/time-range", test_time_range);
  g_test_add_func ("/offcpu-profile/follow", test_follow);
  g_test_add_func ("/offcpu-profile/damage-and-none", test_damage_and_none);
  return g_test_run ();
}
