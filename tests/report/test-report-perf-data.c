/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-perf-data.c: the report of a recording converted from a
 * perf.data says so, and gives its advice in perf's terms.
 *
 * Real perf.data files recorded here by perf, converted by
 * stackpulse-record --input (docs/PERF-DATA.md). The summary names the
 * perf.data, perf's command line and the event converted (and how to
 * convert the file's other events); its advice names perf record's
 * options, never stackpulse-record's, which did not record it: deeper
 * stack copies are perf's --call-graph dwarf,SIZE (twice the file's, as
 * the live advice doubles --stack-size), broken frame pointers call for
 * perf's --call-graph dwarf, and off-CPU time is said not to come from a
 * perf.data rather than offered as a recording option. Skipped where
 * perf or perf_event cannot be used, failed then under CI. */
#include <glib.h>
#include <string.h>

#include "perf-data-run.h"
#include "record-run.h"
#include "report-output.h"

#define NO_OFF_CPU "off-CPU time is not converted from perf.data"

/* Nothing of the live recorder's options: the recording is perf's. */
static void
assert_no_live_advice (const char *text)
{
  if (strstr (text, "--stack-size") != NULL || strstr (text, "--off-cpu") != NULL
      || strstr (text, "Record off-CPU") != NULL || strstr (text, "--call-graph auto (the default)") != NULL)
    g_error ("live recorder's advice for a perf.data conversion:\n%s", text);
}

/* The line of text that begins with prefix, whole; fails without one. */
static char *
line_starting (const char *text,
               const char *prefix)
{
  g_autofree char *anchored = g_strconcat ("\n", prefix, NULL);
  const char *start = g_str_has_prefix (text, prefix) ? text : strstr (text, anchored);

  if (start == NULL)
    g_error ("no line beginning \"%s\" in:\n%s", prefix, text);
  start += start != text;
  return g_strndup (start, strcspn (start, "\n"));
}

/* The side file's [input] key of spool. */
static char *
input_key (const char *spool,
           const char *key)
{
  g_autofree char *meta_path = g_strconcat (spool, ".meta", NULL);
  g_autoptr (GKeyFile) meta = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  char *value;

  g_assert_true (g_key_file_load_from_file (meta, meta_path, G_KEY_FILE_NONE, &error));
  value = g_key_file_get_string (meta, "input", key, &error);
  g_assert_no_error (error);
  return value;
}

/* A perf.data recorded here and its conversion: dir/NAME and
 * dir/out.spool. The folder goes with it. */
typedef struct {
  char *dir;
  char *data;
  char *spool;
} Converted;

static void
converted_free (Converted *c)
{
  sp_test_remove_dir (c->dir);
  g_free (c->dir);
  g_free (c->data);
  g_free (c->spool);
  g_free (c);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Converted, converted_free)

/* perf record ARGS -- WORKLOAD WORKLOAD_ARGS into a new folder's name,
 * converted there; NULL (the case skipped) where perf cannot be used. */
static Converted *
record_and_convert (const char *name,
                    const char *const *args,
                    const char *workload,
                    const char *const *workload_args)
{
  const char *perf = sp_test_perf_data_needs_perf ();
  g_autofree char *program = NULL;
  g_autoptr (GPtrArray) command = g_ptr_array_new ();
  g_autoptr (SpChildResult) result = NULL;
  Converted *c;

  if (perf == NULL)
    return NULL;
  program = sp_test_workload (workload);
  g_ptr_array_add (command, program);
  for (const char *const *a = workload_args; *a != NULL; a++)
    g_ptr_array_add (command, (char *) *a);
  g_ptr_array_add (command, NULL);
  c = g_new0 (Converted, 1);
  c->dir = sp_test_make_dir ();
  c->spool = g_build_filename (c->dir, "out.spool", NULL);
  c->data = sp_test_perf_record (perf, c->dir, name, args, (const char *const *) command->pdata);
  result = sp_test_convert (c->dir, c->data, NULL);
  g_assert_cmpint (result->exit_code, ==, 0);
  return c;
}

/* perf record --call-graph dwarf,1024 of a recursion 40 deep: its stacks
 * are deeper than the copies. The summary (the default report) says
 * where the recording came from, and what to record differently in
 * perf's terms. */
static void
test_dwarf_summary (void)
{
  g_autoptr (Converted) c = record_and_convert ("deep.data", (const char *const[]) { "--call-graph", "dwarf,1024",
                                                                                    "-F", "2000", NULL },
                                                "deep", (const char *const[]) { "0.5", "40", NULL });
  g_autofree char *summary = NULL;
  g_autofree char *converted = NULL;
  g_autofree char *perf_line = NULL;
  g_autofree char *event_line = NULL;
  g_autofree char *event = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *same = NULL;

  if (c == NULL)
    return;
  summary = sp_test_report (c->dir, c->spool, NULL);
  g_test_message ("%s", summary);
  converted = line_starting (summary, "converted: ");
  expected = g_strdup_printf ("converted: from perf.data %s (perf ", c->data);
  g_assert_true (g_str_has_prefix (converted, expected));
  perf_line = line_starting (summary, "perf:      ");
  sp_test_assert_contains (perf_line, " record --call-graph dwarf,1024 -F 2000 -o ");
  sp_test_assert_contains (perf_line, c->data);
  event = input_key (c->spool, "event");
  event_line = line_starting (summary, "event:     ");
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("event:     %s", event);
  g_assert_cmpstr (event_line, ==, expected);
  g_assert_null (strstr (summary, "\ncommand:"));
  sp_test_assert_contains (summary, "\noff-CPU:   none: " NO_OFF_CPU "\n");
  sp_test_assert_contains (summary, "\nunwinding (perf's --call-graph dwarf,1024 stack copies, unwound as "
                                    "stackpulse-record's --call-graph auto):\n");
  sp_test_assert_contains (summary, "-byte stack copy here; record with perf record --call-graph dwarf,2048\n");
  assert_no_live_advice (summary);
  /* The summary command says the same. */
  same = sp_test_report (c->dir, "summary", c->spool, NULL);
  g_assert_cmpstr (same, ==, summary);
}

/* Off-CPU time asked of a conversion: not there, and not to be had from
 * a perf.data (the report says so rather than --off-cpu). */
static void
test_no_off_cpu (void)
{
  g_autoptr (Converted) c = record_and_convert ("fp.data", (const char *const[]) { "-g", "-F", "2000", NULL },
                                                "threads", (const char *const[]) { "0.3", NULL });
  g_autoptr (SpChildResult) threads = NULL;
  g_autoptr (SpChildResult) off_cpu = NULL;

  if (c == NULL)
    return;
  threads = sp_test_report_run (c->dir, (const char *const[]) { "threads", c->spool, NULL });
  g_assert_cmpint (threads->exit_code, ==, 0);
  sp_test_assert_contains (threads->err, "this recording has no off-CPU data (" NO_OFF_CPU ")");
  assert_no_live_advice (threads->err);
  off_cpu = sp_test_report_run (c->dir, (const char *const[]) { "--metric", "off-cpu", "top", c->spool, NULL });
  g_assert_cmpint (off_cpu->exit_code, ==, 1);
  sp_test_assert_contains (off_cpu->err, "this recording has no off-CPU data");
  sp_test_assert_contains (off_cpu->err, NO_OFF_CPU);
  assert_no_live_advice (off_cpu->err);
}

/* perf record -g of a program built without frame pointers: the chains
 * break, and the advice is perf's DWARF call graphs. */
static void
test_frame_pointers (void)
{
  g_autoptr (Converted) c = record_and_convert ("nofp.data", (const char *const[]) { "-g", "-F", "2000", NULL },
                                                "threads_nofp", (const char *const[]) { "0.4", NULL });
  g_autofree char *summary = NULL;

  if (c == NULL)
    return;
  summary = sp_test_report (c->dir, c->spool, NULL);
  g_test_message ("%s", summary);
  sp_test_assert_contains (summary, "\n  ! frame pointers do not hold in this program: record with perf record "
                                    "--call-graph dwarf\n");
  assert_no_live_advice (summary);
}

/* A file of two events: the summary says which was converted, and the
 * command that converts the other. */
static void
test_events (void)
{
  g_autoptr (Converted) c = record_and_convert ("events.data", (const char *const[]) { "-e", "page-faults", "-e",
                                                                                      "cpu-clock", "-g", NULL },
                                                "threads", (const char *const[]) { "0.3", NULL });
  g_autofree char *summary = NULL;
  g_autofree char *event_line = NULL;
  g_autofree char *expected = NULL;

  if (c == NULL)
    return;
  summary = sp_test_report (c->dir, c->spool, NULL);
  event_line = line_starting (summary, "event:     ");
  /* cpu-clock by default (docs/PERF-DATA.md), page-faults the other. */
  expected = g_strdup_printf ("event:     cpu-clock; the file's other event (page-faults) converts with "
                              "stackpulse-record --input %s --event NAME -o OUT.spool", c->data);
  g_assert_cmpstr (event_line, ==, expected);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/perf-data/dwarf-summary", test_dwarf_summary);
  g_test_add_func ("/report/perf-data/no-off-cpu", test_no_off_cpu);
  g_test_add_func ("/report/perf-data/frame-pointers", test_frame_pointers);
  g_test_add_func ("/report/perf-data/events", test_events);
  return g_test_run ();
}
