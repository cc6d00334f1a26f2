/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-offcpu-profile.c: a spool and its off-CPU companion, written with
 * the codec's writers (profile-builder.c), read through SpProfile: thread
 * states and totals, off-CPU and wall weights in the aggregations, time
 * ranges clipping intervals, a followed companion that grows, damage in
 * the companion that leaves the spool alone; companions that are none or
 * not the recording's (set aside, no states), a missing one, and the
 * summary's off-CPU fields. */
#include <glib.h>
#include <glib/gstdio.h>

#include "profile-builder.h"
#include "sp-call-tree.h"
#include "sp-filter.h"
#include "sp-function-list.h"
#include "sp-spool-summary.h"

#include <sys/stat.h>
#include <unistd.h>

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

/* A thread made during the recording: the recorder writes a switch-out
 * without a stack at its creation (sp_offcpu_recording_fork), so its wait
 * for its first CPU is runnable time under a name of its own, not a stack
 * that was lost. A stackless preemption after it has run is not that. */
static void
test_new_thread (void)
{
  static const char *const lines[] = {
    "@1 main;spin 10 +1",
    "out 3 1000 runnable -",
    "in 3 1004",
    "out 3 1010 runnable -",
    "in 3 1012",
    "out 3 1020 blocked main;pipe_wait",
    "end 3 1030",
    NULL,
  };
  g_autoptr (SpProfile) profile = profile_from_text (lines);
  const SpThreadStates *states = sp_profile_get_thread_states (profile);
  const SpThreadTotals *totals = sp_thread_states_get_totals (states, thread_of (profile, 3));
  const SpStateInterval *first = sp_thread_states_find (states, thread_of (profile, 3), 1002 * MS);
  g_autofree char *off = collapsed_with (profile, SP_METRIC_OFF_CPU, 0, 0);

  g_assert_cmpuint (totals->runnable_ns, ==, 6 * MS);
  g_assert_cmpuint (totals->running_ns, ==, 14 * MS);
  g_assert_cmpuint (totals->blocked_ns, ==, 10 * MS);
  g_assert_cmpuint (totals->switches, ==, 2);
  g_assert_nonnull (first);
  g_assert_cmpuint (first->stack, ==, SP_THREAD_NOT_STARTED_STACK);
  g_assert_cmpstr (off, ==,
                   "[off-CPU: stack not recorded] 2000\n"
                   "[off-CPU: waiting for its first CPU] 4000\n"
                   "main;pipe_wait 10000\n");
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

/* A finished recording of lines; keys go to its side file. The caller
 * frees the builder (which removes the files). */
static RecordingBuilder *
recording_of (const char *const *lines,
              const char *keys)
{
  RecordingBuilder *b = recording_builder_new ();

  for (guint i = 0; lines[i] != NULL; i++)
    recording_builder_add_line (b, lines[i]);
  recording_builder_finish (b);
  if (keys != NULL)
    side_file_add_keys (recording_builder_get_path (b), keys);
  return b;
}

static char *
companion_of (RecordingBuilder *b)
{
  return g_strconcat (recording_builder_get_path (b), ".offcpu", NULL);
}

static SpProfile *
open_recording (RecordingBuilder *b)
{
  g_autoptr (GError) error = NULL;
  SpProfile *profile = sp_profile_open (recording_builder_get_path (b), &error);

  g_assert_no_error (error);
  g_assert_null (sp_profile_get_damage (profile));
  return profile;
}

/* Set aside: no states, as without a companion, and the problem says it
 * with the file's name, what is wrong and that nothing of it is read. */
static void
assert_set_aside (SpProfile *profile,
                  const char *what)
{
  const char *problem = sp_profile_get_off_cpu_problem (profile);

  g_test_message ("%s", problem);
  g_assert_false (sp_profile_has_off_cpu (profile));
  g_assert_null (sp_profile_get_thread_states (profile));
  g_assert_nonnull (problem);
  g_assert_nonnull (strstr (problem, ".offcpu"));
  g_assert_nonnull (strstr (problem, what));
  g_assert_true (strstr (problem, "off-CPU data is not read") != NULL
                 || strstr (problem, "is empty: there is no off-CPU data to read") != NULL);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (sp_profile_get_reader (profile)), ==, 10);
}

/* A text file, another file through a symbolic link, an empty file, a
 * FIFO: none is a companion, none gives states. */
static void
test_not_a_companion (void)
{
  static const struct { const char *contents; const char *what; } files[] = {
    { "hello\n", "not an off-CPU companion (no SPOFF1 header)" },
    { "root:x:0:0:root:/root:/bin/sh\nbin:x:1:1:bin:/bin:/sbin/nologin\n", "not an off-CPU companion" },
    { "", "is empty" },
    { "SPOFF", "cut short inside its header" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (files) + 2; i++)
    {
      RecordingBuilder *b = recording_of (offcpu_example, NULL);
      g_autofree char *companion = companion_of (b);
      g_autofree char *target = g_strconcat (companion, ".target", NULL);
      g_autoptr (SpProfile) profile = NULL;

      g_unlink (companion);
      if (i < G_N_ELEMENTS (files))
        g_assert_true (g_file_set_contents (companion, files[i].contents, -1, NULL));
      else if (i == G_N_ELEMENTS (files))
        g_assert_cmpint (mkfifo (companion, 0644), ==, 0);
      else
        {
          g_assert_true (g_file_set_contents (target, "root:x:0:0:root:/root:/bin/sh\n", -1, NULL));
          g_assert_cmpint (symlink (target, companion), ==, 0);
        }
      profile = open_recording (b);
      assert_set_aside (profile, i < G_N_ELEMENTS (files) ? files[i].what
                                 : i == G_N_ELEMENTS (files) ? "FIFO" : "no SPOFF1 header");
      g_unlink (target);
      recording_builder_free (b);
    }
}

/* Another recording's companion beside a spool. */
static void
test_foreign (void)
{
  static const char *const spinner[] = { "@1 main;spin 10 +1", NULL };
  static const char *const long_spinner[] = {
    "@1 main;spin_with_a_rather_long_name_to_make_the_spool_longer;and_another_frame_below_it 5 +1",
    "@1 main;spin_in_a_second_function_with_a_long_name;and_yet_another_frame_with_a_long_name 5 +1", NULL
  };
  static const char *const later[] = { "@1 main;spin 10 +1", "out 1 9000 blocked -", "in 1 9100", NULL };
  static const struct { const char *const *source; const char *keys; const char *what; } cases[] = {
    /* The spool's side file does not say --off-cpu. */
    { offcpu_example, NULL, "no off_cpu=true" },
    /* Records 8 s after the recording ended. */
    { later, "off_cpu=true\ncomplete=true\nstart_monotonic_ns=999000000\nend_monotonic_ns=1010000000\n",
      "after the recording ended" },
    /* Records before it started. */
    { offcpu_example, "off_cpu=true\nstart_monotonic_ns=5000000000\n", "before the recording started" },
    /* Offsets past the spool's end (the spool is smaller). */
    { offcpu_example, "off_cpu=true\n", "it says the spool has at least" },
    /* Longer than the recorder wrote. */
    { offcpu_example, "off_cpu=true\ncomplete=true\noff_cpu_bytes=10\n", "where the recorder wrote 10" },
  };

  for (guint i = 0; i <= G_N_ELEMENTS (cases); i++)
    {
      gboolean ids = i == G_N_ELEMENTS (cases);
      RecordingBuilder *source = recording_of (ids ? offcpu_example : cases[i].source, NULL);
      RecordingBuilder *b = recording_of (ids ? long_spinner : spinner, ids ? "off_cpu=true\n" : cases[i].keys);
      g_autofree char *from = companion_of (source);
      g_autofree char *to = companion_of (b);
      g_autofree char *contents = NULL;
      gsize length;
      g_autoptr (SpProfile) profile = NULL;

      g_assert_true (g_file_get_contents (from, &contents, &length, NULL));
      g_assert_true (g_file_set_contents (to, contents, (gssize) length, NULL));
      profile = open_recording (b);
      /* Last, a spool long enough for the offsets with one thread: the
       * companion's thread 1 is not defined. */
      assert_set_aside (profile, ids ? "names thread 1, which the spool does not define" : cases[i].what);
      g_assert_nonnull (strstr (sp_profile_get_off_cpu_problem (profile), "does not belong to this recording"));
      recording_builder_free (b);
      recording_builder_free (source);
    }
}

/* Followed, the side file is judged by only at the end (it may be an
 * earlier recording's for a moment). */
static void
test_foreign_followed (void)
{
  RecordingBuilder *b = recording_of (offcpu_example, NULL);
  g_autofree char *meta = g_strconcat (recording_builder_get_path (b), ".meta", NULL);
  g_autofree char *text = NULL;
  g_autoptr (GString) without = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (SpProfile) profile = NULL;

  /* Its side file says nothing of --off-cpu. */
  g_assert_true (g_file_get_contents (meta, &text, NULL, NULL));
  without = g_string_new (text);
  g_assert_cmpuint (g_string_replace (without, "off_cpu=true\n", "", 0), ==, 1);
  g_assert_true (g_file_set_contents (meta, without->str, -1, NULL));
  profile = sp_profile_open_follow (recording_builder_get_path (b), &error);
  g_assert_no_error (error);
  sp_profile_update (profile);
  g_assert_true (sp_profile_has_off_cpu (profile));
  g_assert_null (sp_profile_get_off_cpu_problem (profile));
  sp_profile_finish (profile);
  g_assert_false (sp_profile_has_off_cpu (profile));
  g_assert_nonnull (strstr (sp_profile_get_off_cpu_problem (profile), "no off_cpu=true"));
  recording_builder_free (b);
}

/* Its own companion, with the side file's figures: read. Shorter than
 * the recorder wrote (cut on a record boundary): read, and said. */
static void
test_own_and_cut (void)
{
  RecordingBuilder *b = recording_of (offcpu_example, NULL);
  g_autofree char *companion = companion_of (b);
  g_autofree char *keys = NULL;
  g_autoptr (SpProfile) own = NULL;
  g_autoptr (SpProfile) cut = NULL;
  GStatBuf st;

  g_assert_cmpint (g_stat (companion, &st), ==, 0);
  keys = g_strdup_printf ("complete=true\nstart_monotonic_ns=1000000000\nend_monotonic_ns=1060000000\n"
                          "off_cpu_bytes=%" G_GUINT64_FORMAT "\n", (guint64) st.st_size);
  side_file_add_keys (recording_builder_get_path (b), keys);
  own = open_recording (b);
  g_assert_true (sp_profile_has_off_cpu (own));
  g_assert_null (sp_profile_get_off_cpu_problem (own));

  recording_builder_free (b);
  b = recording_of (offcpu_example, "complete=true\noff_cpu_bytes=1000\n");
  cut = open_recording (b);
  g_test_message ("%s", sp_profile_get_off_cpu_problem (cut));
  g_assert_true (sp_profile_has_off_cpu (cut));
  g_assert_nonnull (sp_profile_get_thread_states (cut));
  g_assert_nonnull (strstr (sp_profile_get_off_cpu_problem (cut), "is cut short at byte"));
  g_assert_nonnull (strstr (sp_profile_get_off_cpu_problem (cut), "of the 1000 the recorder wrote: off-CPU data up "
                                                                   "to there is used"));
  recording_builder_free (b);
}

/* Recorded with --off-cpu, its companion gone: said; without --off-cpu,
 * nothing to say. */
static void
test_missing (void)
{
  static const char *const plain[] = { "@1 main;spin 10", NULL };
  RecordingBuilder *b = recording_of (offcpu_example, NULL);
  RecordingBuilder *without = recording_of (plain, NULL);
  g_autofree char *companion = companion_of (b);
  g_autoptr (SpProfile) profile = NULL;
  g_autoptr (SpProfile) plain_profile = open_recording (without);

  g_assert_cmpint (g_unlink (companion), ==, 0);
  profile = open_recording (b);
  g_test_message ("%s", sp_profile_get_off_cpu_problem (profile));
  g_assert_false (sp_profile_has_off_cpu (profile));
  g_assert_nonnull (strstr (sp_profile_get_off_cpu_problem (profile), "test.spool.offcpu is missing"));
  g_assert_null (sp_profile_get_off_cpu_problem (plain_profile));
  recording_builder_free (b);
  recording_builder_free (without);
}

#define REASON "context-switch samples need kernel sampling"

/* The summary's off-CPU fields, and a duration over samples and switch
 * records (samples 1000..1009 ms, records 1000..1060 ms). */
static void
test_summary (void)
{
  static const char *const plain[] = { "@1 main;spin 10 +1", NULL };
  RecordingBuilder *b = recording_of (offcpu_example, "off_cpu_stacks=none\noff_cpu_stacks_reason=" REASON "\n"
                                                      "off_cpu_switches=3\noff_cpu_lost=2\noff_cpu_dropped=1\n");
  RecordingBuilder *without = recording_of (plain, NULL);
  g_autoptr (SpProfile) profile = open_recording (b);
  g_autoptr (SpProfile) plain_profile = open_recording (without);
  g_autofree char *companion = companion_of (b);
  g_autoptr (SpProfile) missing = NULL;
  SpSpoolSummary s;

  sp_spool_summary_from_profile (profile, &s);
  g_assert_true (s.off_cpu_recorded);
  g_assert_true (s.off_cpu_read);
  g_assert_null (s.off_cpu_problem);
  g_assert_cmpstr (s.off_cpu_stacks_reason, ==, REASON);
  g_assert_cmpuint (s.off_cpu_switches, ==, 3);
  g_assert_cmpuint (s.off_cpu_lost, ==, 2);
  g_assert_cmpuint (s.off_cpu_dropped, ==, 1);
  g_assert_cmpuint (s.off_cpu_span_ns, ==, 60 * MS);
  g_assert_cmpuint (s.duration_ns, ==, 60 * MS);
  sp_spool_summary_clear (&s);

  sp_spool_summary_from_profile (plain_profile, &s);
  g_assert_false (s.off_cpu_recorded);
  g_assert_false (s.off_cpu_read);
  g_assert_null (s.off_cpu_problem);
  g_assert_null (s.off_cpu_stacks_reason);
  g_assert_cmpuint (s.off_cpu_span_ns, ==, 0);
  g_assert_cmpuint (s.duration_ns, ==, 9 * MS);
  sp_spool_summary_clear (&s);

  g_assert_cmpint (g_unlink (companion), ==, 0);
  missing = open_recording (b);
  sp_spool_summary_from_profile (missing, &s);
  g_assert_true (s.off_cpu_recorded);
  g_assert_false (s.off_cpu_read);
  g_assert_nonnull (strstr (s.off_cpu_problem, "missing"));
  g_assert_cmpuint (s.duration_ns, ==, 9 * MS);
  sp_spool_summary_clear (&s);
  recording_builder_free (b);
  recording_builder_free (without);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/offcpu-profile/states", test_states);
  g_test_add_func ("/offcpu-profile/off-cpu-weights", test_off_cpu_weights);
  g_test_add_func ("/offcpu-profile/wall-weights", test_wall_weights);
  g_test_add_func ("/offcpu-profile/new-thread", test_new_thread);
  g_test_add_func ("/offcpu-profile/time-range", test_time_range);
  g_test_add_func ("/offcpu-profile/follow", test_follow);
  g_test_add_func ("/offcpu-profile/damage-and-none", test_damage_and_none);
  g_test_add_func ("/offcpu-profile/not-a-companion", test_not_a_companion);
  g_test_add_func ("/offcpu-profile/foreign", test_foreign);
  g_test_add_func ("/offcpu-profile/foreign-followed", test_foreign_followed);
  g_test_add_func ("/offcpu-profile/own-and-cut", test_own_and_cut);
  g_test_add_func ("/offcpu-profile/missing", test_missing);
  g_test_add_func ("/offcpu-profile/summary", test_summary);
  return g_test_run ();
}
