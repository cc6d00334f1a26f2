/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-offcpu.c: stackpulse-report's --metric and threads on a
 * spool and off-CPU companion written with the codec's writers
 * (tests/data/profile-builder.c: offcpu_example), and on a recording
 * without companion. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "profile-builder.h"
#include "report-output.h"


typedef struct {
  RecordingBuilder *b;
  char             *dir;
  const char       *path;
} Fixture;

static void
fixture_init (Fixture *f,
              const char *const *lines)
{
  f->b = recording_builder_new ();
  for (guint i = 0; lines[i] != NULL; i++)
    recording_builder_add_line (f->b, lines[i]);
  recording_builder_finish (f->b);
  f->path = recording_builder_get_path (f->b);
  f->dir = g_path_get_dirname (f->path);
}

static void
fixture_clear (Fixture *f)
{
  g_autofree char *out = g_build_filename (f->dir, "report.out", NULL);
  g_autofree char *err = g_build_filename (f->dir, "report.err", NULL);

  g_unlink (out);
  g_unlink (err);
  recording_builder_free (f->b);
  g_free (f->dir);
}

static void
test_collapsed_metrics (void)
{
  Fixture f;

  fixture_init (&f, offcpu_example);
  {
    g_autofree char *cpu = sp_test_report (f.dir, "collapsed", f.path, NULL);
    g_autofree char *off = sp_test_report (f.dir, "collapsed", "--metric", "off-cpu", f.path, NULL);
    g_autofree char *wall = sp_test_report (f.dir, "collapsed", "--metric", "wall", f.path, NULL);
    g_autofree char *range = sp_test_report (f.dir, "collapsed", "--metric", "off-cpu", "--from", "0.020", "--to",
                                             "0.042", f.path, NULL);

    g_assert_cmpstr (cpu, ==, "main;spin 10\n");
    /* µs */
    g_assert_cmpstr (off, ==, "[off-CPU: stack not recorded] 10000\nmain;pipe_wait 30000\nmain;work 5000\n");
    g_assert_cmpstr (wall, ==,
                     "[off-CPU: stack not recorded] 10000\n[on-CPU: not sampled] 15000\nmain;pipe_wait 30000\n"
                     "main;spin 60000\nmain;work 5000\n");
    g_assert_cmpstr (range, ==, "main;pipe_wait 10000\nmain;work 2000\n");
  }
  fixture_clear (&f);
}

/* top and tree show the time next to the shares. */
static void
test_top_tree_times (void)
{
  Fixture f;

  fixture_init (&f, offcpu_example);
  {
    g_autofree char *top = sp_test_report (f.dir, "top", "--metric", "off-cpu", f.path, NULL);
    g_autofree char *tree = sp_test_report (f.dir, "tree", "--metric", "wall", f.path, NULL);
    g_autofree char *callers = sp_test_report (f.dir, "callers", "--metric", "off-cpu", "pipe_wait", f.path, NULL);

    g_test_message ("%s\n%s\n%s", top, tree, callers);
    g_assert_nonnull (strstr (top, "self_s"));
    g_assert_nonnull (strstr (top, "  66.67%   66.67%      0.030      0.030  pipe_wait  [kernel.kallsyms]\n"));
    g_assert_nonnull (strstr (tree, "(top-down, 0.120 s wall)"));
    g_assert_nonnull (strstr (tree, "  79.17%    0.00%      0.095 main  [kernel.kallsyms]\n"));
    g_assert_nonnull (strstr (tree, "  50.00%   50.00%      0.060   spin  [kernel.kallsyms]\n"));
    g_assert_nonnull (strstr (callers, "(0.030 s off-CPU)"));
  }
  fixture_clear (&f);
}

static GStrv
tsv_row (const char *out,
         const char *tid)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);

  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], "\t", -1);

      if (g_strv_length (fields) > 1 && g_str_equal (fields[1], tid))
        return g_steal_pointer (&fields);
    }
  g_assert_not_reached ();
}

static void
test_threads (void)
{
  Fixture f;

  fixture_init (&f, offcpu_example);
  {
    g_autofree char *out = sp_test_report (f.dir, "threads", "--tsv", f.path, NULL);
    g_autofree char *text = sp_test_report (f.dir, "threads", f.path, NULL);
    g_auto (GStrv) spinner = tsv_row (out, "1");
    g_auto (GStrv) blocker = tsv_row (out, "2");

    g_assert_true (g_str_has_prefix (out, "pid\ttid\tname\tsamples\tcpu_s\toff_cpu_s\twall_s\tblocked_s\trunnable_s\t"
                                          "switches\n"));
    g_assert_cmpstr (spinner[0], ==, "100");
    g_assert_cmpstr (spinner[2], ==, "main-thread");
    g_assert_cmpstr (spinner[3], ==, "10");
    g_assert_cmpstr (spinner[4], ==, "0.060000");
    g_assert_cmpstr (spinner[5], ==, "0.000000");
    g_assert_cmpstr (blocker[3], ==, "0");
    g_assert_cmpstr (blocker[4], ==, "0.015000");
    g_assert_cmpstr (blocker[5], ==, "0.045000");
    g_assert_cmpstr (blocker[6], ==, "0.060000");
    g_assert_cmpstr (blocker[7], ==, "0.040000");
    g_assert_cmpstr (blocker[8], ==, "0.005000");
    g_assert_cmpstr (blocker[9], ==, "3");
    g_assert_nonnull (strstr (text, "off_cpu_s"));
  }
  fixture_clear (&f);
}

/* Without a companion: off-cpu refuses and says how to record it; threads
 * leaves the off-CPU columns empty with a note; cpu stays as it was. */
static void
test_without_companion (void)
{
  static const char *const plain[] = { "@1 main;spin 4", NULL };
  Fixture f;

  fixture_init (&f, plain);
  {
    const char *off_args[] = { "top", "--metric", "off-cpu", f.path, NULL };
    const char *threads_args[] = { "threads", "--tsv", f.path, NULL };
    g_autoptr (SpChildResult) off = sp_test_report_run (f.dir, off_args);
    g_autoptr (SpChildResult) threads = sp_test_report_run (f.dir, threads_args);
    g_autofree char *cpu = sp_test_report (f.dir, "collapsed", "--metric", "cpu", f.path, NULL);

    g_assert_cmpint (off->exit_code, !=, 0);
    g_assert_nonnull (strstr (off->err, "no off-CPU data"));
    g_assert_nonnull (strstr (off->err, "--off-cpu"));
    g_assert_cmpint (threads->exit_code, ==, 0);
    g_assert_nonnull (strstr (threads->err, "no off-CPU data"));
    g_assert_nonnull (strstr (threads->out, "\t4\t0.004000\t\t\t"));
    g_assert_cmpstr (cpu, ==, "main;spin 4\n");
  }
  fixture_clear (&f);
}

#define REASON "context-switch samples need kernel sampling: kernel.perf_event_paranoid=2 " \
               "(root, CAP_PERFMON, or perf_event_paranoid <= 1)"

/* Off-CPU time without blocked stacks: the time metrics and threads say
 * why once on stderr, with the recorder's reason; stdout is the same
 * table as without the note, and cpu says nothing. */
static void
test_stacks_missing (void)
{
  Fixture f;

  fixture_init (&f, offcpu_example);
  {
    g_autofree char *tsv_before = sp_test_report (f.dir, "threads", "--tsv", f.path, NULL);
    g_autofree char *off_before = sp_test_report (f.dir, "collapsed", "--metric", "off-cpu", f.path, NULL);
    const char *const commands[][6] = {
      { "threads", "--tsv", f.path, NULL },
      { "threads", f.path, NULL },
      { "collapsed", "--metric", "off-cpu", f.path, NULL },
      { "top", "--metric", "wall", f.path, NULL },
    };
    g_autofree char *cpu = NULL;

    side_file_add_keys (f.path, "off_cpu=true\noff_cpu_stacks=none\noff_cpu_stacks_reason=" REASON "\n");
    for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
      {
        g_autoptr (SpChildResult) result = sp_test_report_run (f.dir, commands[i]);

        g_test_message ("%s: %s", commands[i][0], result->err);
        g_assert_cmpint (result->exit_code, ==, 0);
        g_assert_cmpstr (result->err, ==, "stackpulse-report: blocked stacks were not recorded: " REASON "\n");
        if (i == 0)
          g_assert_cmpstr (result->out, ==, tsv_before);
        if (i == 2)
          g_assert_cmpstr (result->out, ==, off_before);
      }
    /* On-CPU samples lack nothing. */
    cpu = sp_test_report (f.dir, "collapsed", f.path, NULL);
    g_assert_cmpstr (cpu, ==, "main;spin 10\n");
  }
  fixture_clear (&f);

  /* Stacks recorded ("kernel+user", "user"): nothing to say. */
  fixture_init (&f, offcpu_example);
  {
    g_autofree char *off = NULL;

    side_file_add_keys (f.path, "off_cpu=true\noff_cpu_stacks=user\n");
    off = sp_test_report (f.dir, "collapsed", "--metric", "off-cpu", f.path, NULL);
    g_assert_nonnull (strstr (off, "main;pipe_wait 30000\n"));
  }
  fixture_clear (&f);
}

static char *
companion_path (const Fixture *f)
{
  return g_strconcat (f->path, ".offcpu", NULL);
}

static SpChildResult *
run_report (const Fixture *f,
            const char *first,
            ...) G_GNUC_NULL_TERMINATED;

static SpChildResult *
run_report (const Fixture *f,
            const char *first,
            ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, (gpointer) f->path);
  g_ptr_array_add (args, NULL);
  return sp_test_report_run (f->dir, (const char *const *) args->pdata);
}

/* Each is set aside: threads warns once with one sentence, then shows
 * the side file's totals (it has none here: the columns stay empty);
 * the time metrics refuse, pointing at the warning. */
static void
test_set_aside (void)
{
  static const char *const plain[] = { "@1 main;spin 4", NULL };
  static const struct { const char *contents; const char *warning; } cases[] = {
    { "hello\n", "is not an off-CPU companion (no SPOFF1 header): off-CPU data is not read" },
    { "", "is empty: there is no off-CPU data to read" },
    { NULL, "is a FIFO (named pipe), not a regular file: off-CPU data is not read" },
    /* Another recording's companion beside a spool recorded without --off-cpu. */
    { "", "does not belong to this recording: its side file does not say it was recorded with --off-cpu "
          "(no off_cpu=true); off-CPU data is not read" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Fixture f, other;
      g_autofree char *companion = NULL;
      g_autofree char *sentence = NULL;
      g_autofree char *expected = NULL;

      fixture_init (&f, i == 3 ? plain : offcpu_example);
      companion = companion_path (&f);
      g_unlink (companion);
      if (i == 3)
        {
          g_autofree char *from = NULL;
          g_autofree char *contents = NULL;
          gsize length;

          fixture_init (&other, offcpu_example);
          from = companion_path (&other);
          g_assert_true (g_file_get_contents (from, &contents, &length, NULL));
          g_assert_true (g_file_set_contents (companion, contents, (gssize) length, NULL));
          fixture_clear (&other);
        }
      else if (cases[i].contents != NULL)
        g_assert_true (g_file_set_contents (companion, cases[i].contents, -1, NULL));
      else
        g_assert_cmpint (mkfifo (companion, 0644), ==, 0);
      sentence = g_strconcat (companion, " ", cases[i].warning, NULL);
      expected = g_strdup_printf ("stackpulse-report: warning: %s\n"
                                  "stackpulse-report: note: cpu_s is samples x the sampling interval, off_cpu_s and "
                                  "wall_s are empty\n", sentence);
      {
        g_autoptr (SpChildResult) threads = run_report (&f, "threads", "--tsv", NULL);
        g_autoptr (SpChildResult) off = run_report (&f, "top", "--metric", "off-cpu", NULL);

        g_test_message ("%s", threads->err);
        g_assert_cmpint (threads->exit_code, ==, 0);
        g_assert_cmpstr (threads->err, ==, expected);
        g_assert_nonnull (strstr (threads->out, "\t0.00"));
        g_assert_null (strstr (threads->out, "0.060000"));
        g_assert_cmpint (off->exit_code, !=, 0);
        g_assert_nonnull (strstr (off->err, sentence));
        g_assert_nonnull (strstr (off->err, "--metric off-cpu: no off-CPU data is read (the warning above says why)"));
      }
      fixture_clear (&f);
    }
}

/* Cut inside a record: what comes before is used, said once. */
static void
test_cut (void)
{
  Fixture f;

  fixture_init (&f, offcpu_example);
  {
    g_autofree char *companion = companion_path (&f);
    g_autofree char *contents = NULL;
    gsize length;

    g_assert_true (g_file_get_contents (companion, &contents, &length, NULL));
    g_assert_true (g_file_set_contents (companion, contents, (gssize) length - 1, NULL));
    {
      g_autoptr (SpChildResult) off = run_report (&f, "collapsed", "--metric", "off-cpu", NULL);

      g_test_message ("%s", off->err);
      g_assert_cmpint (off->exit_code, ==, 0);
      g_assert_true (g_str_has_prefix (off->err, "stackpulse-report: warning: "));
      g_assert_nonnull (strstr (off->err, ".offcpu is cut short at byte "));
      g_assert_true (g_str_has_suffix (off->err, ": off-CPU data up to there is used\n"));
      g_assert_nonnull (strstr (off->out, "main;pipe_wait 30000\n"));
    }
  }
  fixture_clear (&f);
}

/* Recorded with --off-cpu, the companion gone: said, and threads takes
 * the side file's per-thread totals. */
static void
test_missing (void)
{
  Fixture f;

  fixture_init (&f, offcpu_example);
  {
    g_autofree char *companion = companion_path (&f);
    g_autofree char *meta = g_strconcat (f.path, ".meta", NULL);
    g_autofree char *text = NULL;
    g_autofree char *with_thread = NULL;

    g_assert_true (g_file_get_contents (meta, &text, NULL, NULL));
    with_thread = g_strconcat (text, "\n[thread 2]\npid=100\nblocked_ns=40000000\nrunnable_ns=5000000\nswitches=3\n",
                               NULL);
    g_assert_true (g_file_set_contents (meta, with_thread, -1, NULL));
    g_assert_cmpint (g_unlink (companion), ==, 0);
    {
      g_autoptr (SpChildResult) threads = run_report (&f, "threads", "--tsv", NULL);
      g_autoptr (SpChildResult) off = run_report (&f, "top", "--metric", "off-cpu", NULL);
      g_auto (GStrv) blocker = NULL;

      g_test_message ("%s", threads->err);
      g_assert_cmpint (threads->exit_code, ==, 0);
      g_assert_nonnull (strstr (threads->err, ".offcpu is missing, though the side file says the recording was made "
                                              "with --off-cpu"));
      g_assert_nonnull (strstr (threads->err, "are the side file's totals of the whole recording"));
      g_assert_null (strstr (threads->err, "record with --off-cpu"));
      blocker = tsv_row (threads->out, "2");
      g_assert_cmpstr (blocker[3], ==, "0");
      g_assert_cmpstr (blocker[5], ==, "0.045000");
      g_assert_cmpstr (blocker[7], ==, "0.040000");
      g_assert_cmpstr (blocker[8], ==, "0.005000");
      g_assert_cmpstr (blocker[9], ==, "3");
      g_assert_cmpint (off->exit_code, !=, 0);
      g_assert_nonnull (strstr (off->err, "is missing"));
    }
  }
  fixture_clear (&f);
}

/* The summary: a duration over samples and switch records (samples 0 to
 * 9 ms, records to 60 ms) and the off-CPU line; none without --off-cpu. */
static void
test_summary (void)
{
  static const char *const plain[] = { "@1 main;spin 10 +1", NULL };
  Fixture f;

  fixture_init (&f, offcpu_example);
  side_file_add_keys (f.path, "off_cpu_stacks=none\noff_cpu_stacks_reason=" REASON "\noff_cpu_switches=3\n"
                              "off_cpu_lost=2\noff_cpu_dropped=1\n");
  {
    g_autofree char *summary = sp_test_report (f.dir, f.path, NULL);
    g_autofree char *companion = companion_path (&f);
    g_autoptr (SpChildResult) missing = NULL;

    g_test_message ("%s", summary);
    g_assert_nonnull (strstr (summary, "\nduration:  0.060 s\n"));
    g_assert_nonnull (strstr (summary, "\noff-CPU:   3 switches over 0.060 s, 2 lost, 1 stacks dropped; blocked stacks "
                                       "not recorded: " REASON "\n"));
    g_assert_cmpint (g_unlink (companion), ==, 0);
    missing = sp_test_report_run (f.dir, (const char *const[]) { f.path, NULL });
    g_assert_nonnull (strstr (missing->out, "\nduration:  0.009 s\n"));
    g_assert_nonnull (strstr (missing->out, "\noff-CPU:   3 switches, 2 lost, 1 stacks dropped; "));
    g_assert_nonnull (strstr (missing->out, ".offcpu is missing, though"));
  }
  fixture_clear (&f);

  fixture_init (&f, plain);
  {
    g_autofree char *summary = sp_test_report (f.dir, f.path, NULL);

    g_assert_nonnull (strstr (summary, "\nduration:  0.009 s\n"));
    g_assert_null (strstr (summary, "off-CPU"));
  }
  fixture_clear (&f);
}

/* --from past the last sample but before the last switch record: the
 * time metrics and threads have something there, the samples nothing. */
static void
test_from_past_samples (void)
{
  Fixture f;

  fixture_init (&f, offcpu_example);
  {
    g_autofree char *threads = sp_test_report (f.dir, "threads", "--tsv", "--from", "0.030", f.path, NULL);
    g_autofree char *off = sp_test_report (f.dir, "collapsed", "--metric", "off-cpu", "--from", "0.030", f.path, NULL);
    g_autoptr (SpChildResult) cpu = run_report (&f, "collapsed", "--from", "0.030", NULL);
    g_autoptr (SpChildResult) late = run_report (&f, "collapsed", "--metric", "wall", "--from", "0.1", NULL);
    g_auto (GStrv) blocker = tsv_row (threads, "2");

    g_assert_cmpstr (blocker[7], ==, "0.010000");
    g_assert_nonnull (strstr (off, "main;work 5000\n"));
    g_assert_nonnull (strstr (cpu->err, "--from 0.03 is after the last sample (at 0.009 s): no sample chosen"));
    g_assert_nonnull (strstr (late->err, "--from 0.1 is after the last sample and off-CPU record (at 0.060 s): "
                                         "nothing chosen"));
  }
  fixture_clear (&f);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report-offcpu/collapsed-metrics", test_collapsed_metrics);
  g_test_add_func ("/report-offcpu/top-tree-times", test_top_tree_times);
  g_test_add_func ("/report-offcpu/threads", test_threads);
  g_test_add_func ("/report-offcpu/without-companion", test_without_companion);
  g_test_add_func ("/report-offcpu/stacks-missing", test_stacks_missing);
  g_test_add_func ("/report-offcpu/set-aside", test_set_aside);
  g_test_add_func ("/report-offcpu/cut", test_cut);
  g_test_add_func ("/report-offcpu/missing", test_missing);
  g_test_add_func ("/report-offcpu/summary", test_summary);
  g_test_add_func ("/report-offcpu/from-past-samples", test_from_past_samples);
  return g_test_run ();
}
