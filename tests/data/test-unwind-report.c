/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-unwind-report.c: the unwinding statistics of a side file, read and
 * explained: which module stops stacks, and what would help. */
#include <glib.h>
#include <string.h>

#include "sp-unwind-report.h"

/* Side files as stackpulse-record writes them (docs/SIDE-FILE.md). */
static const char side_file[] =
  "[recording]\n"
  "call_graph=dwarf\n"
  "stack_size=8192\n"
  "dropped_samples=7\n"
  "[unwinding]\n"
  "samples=1000\n"
  "frame_pointer=0\n"
  "complete=830\n"
  "truncated=50\n"
  "stopped=120\n"
  "[unwind-module 0]\n"
  "path=/usr/bin/app\n"
  "readable=true\neh_frame=true\ndebug_frame=false\ndebuglink=false\nsymbols=true\n"
  "functions=10\nframe_pointer_functions=0\n"
  "samples=1000\nframe_pointer=0\ntruncated=50\nstopped=0\n"
  "[unwind-module 1]\n"
  "path=/usr/lib/libfoo.so.1\n"
  "readable=true\neh_frame=false\ndebug_frame=false\ndebuglink=true\nsymbols=true\n"
  "functions=10\nframe_pointer_functions=0\n"
  "samples=400\nframe_pointer=0\ntruncated=0\nstopped=120\n"
  "[unwind-module 2]\n"
  "path=/usr/lib/libbar.so\n"
  "readable=true\neh_frame=true\ndebug_frame=false\ndebuglink=false\nsymbols=true\n"
  "functions=10\nframe_pointer_functions=0\n"
  "samples=3\nframe_pointer=0\ntruncated=0\nstopped=0\n";

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
  g_autoptr (GKeyFile) meta = load (side_file);
  g_autoptr (SpUnwindReport) report = sp_unwind_report_new (meta);
  const SpUnwindModuleStats *first;

  g_assert_nonnull (report);
  g_assert_cmpstr (report->call_graph, ==, "dwarf");
  g_assert_cmpuint (report->stack_size, ==, 8192);
  g_assert_cmpuint (report->samples, ==, 1000);
  g_assert_cmpuint (report->complete, ==, 830);
  g_assert_cmpuint (report->truncated, ==, 50);
  g_assert_cmpuint (report->stopped, ==, 120);
  g_assert_cmpuint (report->dropped, ==, 7);
  g_assert_cmpuint (report->modules->len, ==, 3);
  /* Most stops first. */
  first = g_ptr_array_index (report->modules, 0);
  g_assert_cmpstr (first->path, ==, "/usr/lib/libfoo.so.1");
  g_assert_false (first->eh_frame);
  g_assert_cmpstr (sp_unwind_module_name (first), ==, "libfoo.so.1");
}

static void
test_advice (void)
{
  g_autoptr (GKeyFile) meta = load (side_file);
  g_autoptr (SpUnwindReport) report = sp_unwind_report_new (meta);
  g_autoptr (GPtrArray) advice = sp_unwind_report_advice (report, 1.0);

  for (guint i = 0; i < advice->len; i++)
    g_test_message ("%s", (const char *) g_ptr_array_index (advice, i));
  g_assert_cmpuint (advice->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (advice, 0), ==,
                   "libfoo.so.1: 12.0% of stacks stop here: no unwind tables; install its debug symbols "
                   "(libfoo-dbgsym) or rebuild it with -fasynchronous-unwind-tables or frame pointers");
  g_assert_cmpstr (g_ptr_array_index (advice, 1), ==,
                   "app: 5.0% of stacks are deeper than the 8192-byte stack copy here; record with --stack-size 16384");
  g_assert_nonnull (strstr (g_ptr_array_index (advice, 2), "7 samples were dropped"));
}

/* Converted from perf record --call-graph dwarf,8192: the same modules,
 * the advice in perf's terms; the conversion does not fall behind as a
 * live recorder may, so dropped samples get no recording advice. */
static void
test_advice_perf (void)
{
  g_autofree char *text = g_strconcat (side_file, "[input]\nformat=perf.data\npath=perf.data\n", NULL);
  g_autoptr (GKeyFile) meta = load (text);
  g_autoptr (SpUnwindReport) report = sp_unwind_report_new (meta);
  g_autoptr (GPtrArray) advice = sp_unwind_report_advice (report, 1.0);

  g_assert_cmpint (report->recorded_by, ==, SP_RECORDED_BY_PERF);
  g_assert_cmpuint (advice->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (advice, 1), ==,
                   "app: 5.0% of stacks are deeper than the 8192-byte stack copy here; record with perf record "
                   "--call-graph dwarf,16384");
  g_assert_cmpstr (g_ptr_array_index (advice, 2), ==, "7 samples were dropped because unwinding fell behind");
}

/* Twice the copy, at most what each program takes. */
static void
test_stack_size_limits (void)
{
  g_autofree char *live = sp_record_advice_stack_size (SP_RECORDED_BY_STACKPULSE, 40000);
  g_autofree char *perf = sp_record_advice_stack_size (SP_RECORDED_BY_PERF, 40000);
  g_autoptr (GKeyFile) live_meta = load ("[recording]\ncall_graph=auto\n[input]\nformat=other\n");

  g_assert_cmpstr (live, ==, "record with --stack-size 63488");
  g_assert_cmpstr (perf, ==, "record with perf record --call-graph dwarf,65528");
  g_assert_cmpint (sp_recorded_by (live_meta), ==, SP_RECORDED_BY_STACKPULSE);
  g_assert_cmpint (sp_recorded_by (NULL), ==, SP_RECORDED_BY_STACKPULSE);
}

static void
test_frame_pointer_recordings_have_none (void)
{
  g_autoptr (GKeyFile) meta = load ("[recording]\ncall_graph=fp\nsamples=10\n");

  g_assert_null (sp_unwind_report_new (meta));
  g_assert_null (sp_unwind_report_new (NULL));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/unwind-report/read", test_read);
  g_test_add_func ("/data/unwind-report/advice", test_advice);
  g_test_add_func ("/data/unwind-report/advice-perf", test_advice_perf);
  g_test_add_func ("/data/unwind-report/stack-size-limits", test_stack_size_limits);
  g_test_add_func ("/data/unwind-report/fp-recording", test_frame_pointer_recordings_have_none);
  return g_test_run ();
}
