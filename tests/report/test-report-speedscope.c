/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-speedscope.c: stackpulse-report speedscope on a real
 * recording, the JSON read back by Python's json module.
 *
 * sp-work-threads (four threads, each in its own leaf) is recorded and
 * exported; the file must follow speedscope's format ($schema, shared
 * frames with names, one "sampled" profile per thread, frame indexes in
 * range, as many weights as samples, endValue their sum), have one
 * profile for each of the workload's threads whose heaviest stack ends
 * (root first) in that thread's leaf, and weigh as many samples in all as
 * the report's summary counts. Then the same through -o to stdout, and a
 * transform. */
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>

#include "report-output.h"

#define SECONDS "1"

/* Checks the structure, then prints "total N" and one line per profile:
 * "NAME\tUNIT\tN_SAMPLES\tWEIGHT\tHEAVIEST_STACK" (names joined by ';'). */
static const char check_script[] =
  "import json, sys\n"
  "d = json.load(open(sys.argv[1]))\n"
  "assert d['$schema'] == 'https://www.speedscope.app/file-format-schema.json', d['$schema']\n"
  "assert d['exporter'].startswith('stackpulse '), d['exporter']\n"
  "frames = d['shared']['frames']\n"
  "assert frames and all(isinstance(f['name'], str) and f['name'] for f in frames)\n"
  "total = 0\n"
  "lines = []\n"
  "for p in d['profiles']:\n"
  "    assert p['type'] == 'sampled', p['type']\n"
  "    assert len(p['samples']) == len(p['weights']) > 0\n"
  "    assert all(0 <= i < len(frames) for s in p['samples'] for i in s)\n"
  "    assert p['startValue'] == 0 and p['endValue'] == sum(p['weights'])\n"
  "    heaviest = max(zip(p['weights'], p['samples']))[1]\n"
  "    total += sum(p['weights'])\n"
  "    lines.append('\\t'.join([p['name'], p['unit'], str(len(p['samples'])), str(sum(p['weights'])),\n"
  "                             ';'.join(frames[i]['name'] for i in heaviest)]))\n"
  "print('total', total)\n"
  "print('\\n'.join(lines))\n";

static const struct {
  const char *thread;
  const char *leaf;
} threads[] = {
  { "sp-work-threads", "main_leaf" },
  { "sp-alpha", "alpha_leaf" },
  { "sp-beta", "beta_leaf" },
  { "sp-gamma", "read_zero" },
};

static SpTestRecording *recording;

static SpTestRecording *
recorded (void)
{
  if (recording == NULL)
    {
      g_autofree char *workload = sp_test_workload ("threads");

      recording = sp_test_record (NULL, (const char *const[]) { workload, SECONDS, NULL });
      sp_test_assert_recorded (recording, "threads");
    }
  return recording;
}

/* The check script's output for the file at path. */
static char *
check_json (const char *dir,
            const char *path)
{
  g_autoptr (SpChildResult) result = NULL;
  g_autofree char *python = g_find_program_in_path ("python3");

  if (python == NULL)
    g_error ("python3 is not installed (apt-get install python3): it reads the speedscope export back");
  result = sp_test_run (dir, "python", (const char *const[]) { python, "-c", check_script, path, NULL });
  if (result->exit_code != 0)
    g_error ("the speedscope export does not follow the format:\n%s", result->err);
  g_test_message ("%s", result->out);
  return g_steal_pointer (&result->out);
}

/* "samples:   754 (of 754 in the file)" of the summary. */
static guint64
summary_samples (SpTestRecording *rec)
{
  g_autofree char *summary = sp_test_report (rec->dir, rec->spool, NULL);
  const char *line = strstr (summary, "\nsamples:");

  g_assert_nonnull (line);
  return g_ascii_strtoull (line + strlen ("\nsamples:"), NULL, 10);
}

static guint64
checked_total (const char *checked)
{
  g_assert_true (g_str_has_prefix (checked, "total "));
  return g_ascii_strtoull (checked + strlen ("total "), NULL, 10);
}

/* The checked line of the profile named "THREAD (tid …", or NULL. */
static char **
profile_of (char **lines,
            const char *thread)
{
  g_autofree char *prefix = g_strdup_printf ("%s (tid ", thread);

  for (guint i = 1; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return g_strsplit (lines[i], "\t", -1);
  return NULL;
}

static void
test_threads (void)
{
  SpTestRecording *rec;
  g_autofree char *out = NULL;
  g_autofree char *checked = NULL;
  g_autofree char *ignored = NULL;
  g_auto (GStrv) lines = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  rec = recorded ();
  out = g_build_filename (rec->dir, "out.json", NULL);
  ignored = sp_test_report (rec->dir, "speedscope", rec->spool, "-o", out, NULL);
  checked = check_json (rec->dir, out);
  g_assert_cmpuint (checked_total (checked), ==, summary_samples (rec));
  lines = g_strsplit (checked, "\n", -1);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_auto (GStrv) fields = profile_of (lines, threads[i].thread);

      g_assert_nonnull (fields);
      g_assert_cmpstr (fields[1], ==, "none");
      g_assert_true (g_str_has_suffix (fields[4], threads[i].leaf));
    }
}

/* Without -o the JSON goes to stdout; --focus keeps only the stacks
 * through the function, rooted at it. */
static void
test_stdout_focus (void)
{
  SpTestRecording *rec;
  g_autofree char *json = NULL;
  g_autofree char *path = NULL;
  g_autofree char *checked = NULL;
  g_auto (GStrv) lines = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  rec = recorded ();
  json = sp_test_report (rec->dir, "speedscope", "--focus", "compute_alpha", rec->spool, NULL);
  path = g_build_filename (rec->dir, "focus.json", NULL);
  g_assert_true (g_file_set_contents (path, json, -1, NULL));
  checked = check_json (rec->dir, path);
  lines = g_strsplit (checked, "\n", -1);
  /* sp-alpha alone, its stacks starting at compute_alpha. */
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_true (g_str_has_prefix (lines[1], "sp-alpha (tid "));
  g_assert_true (g_str_has_suffix (lines[1], "\tcompute_alpha;alpha_leaf"));
}

int
main (int argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/speedscope/threads", test_threads);
  g_test_add_func ("/report/speedscope/stdout-focus", test_stdout_focus);
  status = g_test_run ();
  g_clear_pointer (&recording, sp_test_recording_free);
  return status;
}
