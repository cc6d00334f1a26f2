/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-perf-input.c: the side file's [input] of a conversion from a
 * perf.data (docs/PERF-DATA.md), as the summaries say it. */
#include <glib.h>

#include "sp-perf-input.h"

static GKeyFile *
load (const char *text)
{
  GKeyFile *meta = g_key_file_new ();

  g_assert_true (g_key_file_load_from_data (meta, text, -1, G_KEY_FILE_NONE, NULL));
  return meta;
}

static void
test_read (void)
{
  g_autoptr (GKeyFile) meta = load ("[recording]\ncall_graph=fp\n"
                                    "[input]\nformat=perf.data\npath=/tmp/my data/perf.data\nmode=file\n"
                                    "event=cpu-clock\nevents=page-faults,cpu-clock,cycles:u\nperf_version=6.1.187\n"
                                    "perf_cmdline=/usr/bin/perf record -g -- ./app\ninput_bytes=59000\n");
  g_autoptr (SpPerfInput) input = sp_perf_input_new (meta);
  g_autofree char *file = NULL;
  g_autofree char *hint = NULL;
  g_autofree char *hint_there = NULL;

  g_assert_nonnull (input);
  g_assert_cmpstr (input->path, ==, "/tmp/my data/perf.data");
  g_assert_cmpstr (input->event, ==, "cpu-clock");
  g_assert_cmpstr (input->perf_cmdline, ==, "/usr/bin/perf record -g -- ./app");
  g_assert_cmpuint (input->input_bytes, ==, 59000);
  g_assert_cmpuint (input->file_size, ==, 0);  /* not there */
  g_assert_cmpuint (g_strv_length (input->other_events), ==, 2);
  file = sp_perf_input_describe_file (input);
  g_assert_cmpstr (file, ==, "perf.data /tmp/my data/perf.data (perf 6.1.187)");
  /* The path as a shell takes it. */
  hint = sp_perf_input_other_events_hint (input, NULL);
  g_assert_cmpstr (hint, ==, "the file's other events (page-faults, cycles:u) convert with stackpulse-record "
                             "--input '/tmp/my data/perf.data' --event NAME -o OUT.spool");
  hint_there = sp_perf_input_other_events_hint (input, "/home/u/perf.data");
  g_assert_cmpstr (hint_there, ==, "the file's other events (page-faults, cycles:u) convert with stackpulse-record "
                                   "--input /home/u/perf.data --event NAME -o OUT.spool");
}

/* One event, read from a pipe, a perf that wrote no version. */
static void
test_pipe_one_event (void)
{
  g_autoptr (GKeyFile) meta = load ("[input]\nformat=perf.data\npath=-\nmode=pipe\nevent=cycles\nevents=cycles\n");
  g_autoptr (SpPerfInput) input = sp_perf_input_new (meta);
  g_autofree char *file = NULL;

  g_assert_nonnull (input);
  g_assert_null (input->perf_cmdline);
  g_assert_null (sp_perf_input_other_events_hint (input, NULL));
  file = sp_perf_input_describe_file (input);
  g_assert_cmpstr (file, ==, "a perf.data read from standard input");
}

static void
test_live_has_none (void)
{
  g_autoptr (GKeyFile) live = load ("[recording]\ncall_graph=auto\nsamples=10\n");

  g_assert_null (sp_perf_input_new (live));
  g_assert_null (sp_perf_input_new (NULL));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/perf-input/read", test_read);
  g_test_add_func ("/data/perf-input/pipe-one-event", test_pipe_one_event);
  g_test_add_func ("/data/perf-input/live", test_live_has_none);
  return g_test_run ();
}
