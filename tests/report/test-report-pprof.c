/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-pprof.c: stackpulse-report pprof, read by go tool pprof.
 *
 * Real recordings of the workloads (sp-work-threads: four threads, each
 * in its own leaf; sp-work-annotate: mix, inlined into hot_loop) are
 * exported and read back with Debian's `go tool pprof`: -top must show
 * the same top functions, in the same order and with the same shares (to
 * half a point), as `stackpulse-report top`, also through a transform;
 * -raw must show the workload's mapping with its build-id (as readelf
 * reads it) and the inlined function as a line of its caller's location;
 * a program rewritten in place after its recording keeps, in the export,
 * the build-id it had when recorded.
 * Then the file handling every export shares: what -o refuses, and a
 * write that fails (a file size limit stands for a full disk) leaves
 * nothing behind and says why. */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "go-pprof.h"
#include "report-output.h"

#define SECONDS "1"
#define TOLERANCE_PCT 0.5
#define N_TOP 5

static SpTestRecording *recordings[3];

/* A workload ("threads", "annotate", "offcpu" with --off-cpu) recorded
 * once for the whole run. */
static SpTestRecording *
recorded (guint which)
{
  static const char *const names[] = { "threads", "annotate", "offcpu" };

  if (recordings[which] == NULL)
    {
      g_autofree char *workload = sp_test_workload (names[which]);
      const char *const off_cpu[] = { "--off-cpu", NULL };

      recordings[which] = sp_test_record (which == 2 ? off_cpu : NULL,
                                          (const char *const[]) { workload, SECONDS, NULL });
      sp_test_assert_recorded (recordings[which], names[which]);
    }
  return recordings[which];
}

/* stackpulse-report pprof [OPTIONS] SPOOL -o DIR/NAME; returns the path. */
static char *
export_pprof (SpTestRecording *rec,
              const char *name,
              const char *option,
              const char *value)
{
  char *out = g_build_filename (rec->dir, name, NULL);
  g_autofree char *ignored = option != NULL ? sp_test_report (rec->dir, "pprof", option, value, rec->spool, "-o", out, NULL)
                                            : sp_test_report (rec->dir, "pprof", rec->spool, "-o", out, NULL);

  g_assert_true (g_file_test (out, G_FILE_TEST_IS_REGULAR));
  return out;
}

/* The first N_TOP rows of both, in order (rows of equal share may come in
 * either order), with flat% equal to self% within the tolerance. pprof
 * runs with -nodefraction=0: by default it drops functions under half a
 * percent of the total, which the fifth row of top often is. */
static void
assert_same_top (GPtrArray *ours,
                 GPtrArray *pprof)
{
  g_assert_cmpuint (ours->len, >=, N_TOP);
  g_assert_cmpuint (pprof->len, >=, N_TOP);
  for (guint i = 0; i < N_TOP; i++)
    {
      const SpReportRow *our_row = g_ptr_array_index (ours, i);
      const SpPprofRow *their_row = g_ptr_array_index (pprof, i);
      const SpReportRow *same = sp_test_find_row (ours, their_row->name);

      g_test_message ("%u: %-30s %6.2f%%   pprof: %-30s %6.2f%%", i, our_row->name, our_row->self_pct,
                      their_row->name, their_row->flat_pct);
      g_assert_nonnull (same);
      g_assert_cmpfloat_with_epsilon (same->self_pct, their_row->flat_pct, TOLERANCE_PCT);
      if (!g_str_equal (our_row->name, their_row->name))
        g_assert_cmpfloat_with_epsilon (our_row->self_pct, same->self_pct, 0.005);
    }
}

static void
compare_top (const char *option,
             const char *value)
{
  SpTestRecording *rec = recorded (0);
  g_autofree char *out = export_pprof (rec, option != NULL ? "focus.pb.gz" : "threads.pb.gz", option, value);
  g_autofree char *top = option != NULL ? sp_test_report (rec->dir, "top", option, value, rec->spool, NULL)
                                        : sp_test_report (rec->dir, "top", rec->spool, NULL);
  g_autofree char *pprof_top = sp_test_pprof (rec->dir, "-top", "-nodecount=20", "-nodefraction=0", out, NULL);
  g_autoptr (GPtrArray) ours = sp_test_parse_rows (top);
  g_autoptr (GPtrArray) theirs = sp_test_parse_pprof_top (pprof_top);

  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *base = g_path_get_basename (workload);
  g_autofree char *file = g_strdup_printf ("File: %s\n", base);

  g_test_message ("go tool pprof -top:\n%s", pprof_top);
  /* pprof names the profile after its first mapping: the program, not
   * the kernel or a library a first sample's leaf was in. (A transform's
   * stacks are of functions, with no addresses nor mappings.) */
  if (option == NULL)
    sp_test_assert_contains (pprof_top, file);
  assert_same_top (ours, theirs);
}

static void
test_top (void)
{
  if (!sp_test_case_needs_perf () || !sp_test_case_needs_go ())
    return;
  compare_top (NULL, NULL);
}

/* A transform rewrites stacks function by function: the export follows. */
static void
test_top_focus (void)
{
  if (!sp_test_case_needs_perf () || !sp_test_case_needs_go ())
    return;
  compare_top ("--focus", "worker_main");
}

/* With a time metric the shares are of nanoseconds: top's rows are
 * "self% total% self_s total_s  name  [module]". The first row's. */
static void
first_time_row (const char *top,
                double *self_pct,
                char **name)
{
  g_auto (GStrv) lines = g_strsplit (top, "\n", -1);

  g_assert_nonnull (lines[0]);
  for (guint i = 1; lines[i] != NULL; i++)
    {
      double total_pct, self_s, total_s;
      int used = 0;

      if (sscanf (lines[i], "%lf%% %lf%% %lf %lf  %n", self_pct, &total_pct, &self_s, &total_s, &used) == 4
          && used > 0)
        {
          /* The name may have spaces ("[off-CPU: stack not recorded]",
           * the first row where a slowed recorder dropped stacks): up to
           * the two spaces before the module. */
          const char *rest = lines[i] + used;
          const char *module = g_strrstr (rest, "  [");

          *name = module != NULL ? g_strndup (rest, (gsize) (module - rest)) : g_strchomp (g_strdup (rest));
          return;
        }
    }
  g_error ("no row in top:\n%s", top);
}

/* --metric wall: one sample type, wall nanoseconds, with the share top
 * gives its first function. */
static void
test_wall (void)
{
  SpTestRecording *rec;
  g_autofree char *out = NULL;
  g_autofree char *top = NULL;
  g_autofree char *raw = NULL;
  g_autofree char *pprof_top = NULL;
  g_autofree char *name = NULL;
  g_autoptr (GPtrArray) theirs = NULL;
  const SpPprofRow *first;
  double self_pct;

  if (!sp_test_case_needs_perf () || !sp_test_case_needs_go ())
    return;
  rec = recorded (2);
  out = export_pprof (rec, "wall.pb.gz", "--metric", "wall");
  top = sp_test_report (rec->dir, "top", "--metric", "wall", rec->spool, NULL);
  raw = sp_test_pprof (rec->dir, "-raw", out, NULL);
  sp_test_assert_contains (raw, "\nwall/nanoseconds\n");
  pprof_top = sp_test_pprof (rec->dir, "-top", "-nodefraction=0", out, NULL);
  g_test_message ("top --metric wall:\n%s\ngo tool pprof -top:\n%s", top, pprof_top);
  sp_test_assert_contains (pprof_top, "Type: wall");
  theirs = sp_test_parse_pprof_top (pprof_top);
  first_time_row (top, &self_pct, &name);
  g_assert_cmpuint (theirs->len, >, 0);
  first = g_ptr_array_index (theirs, 0);
  g_assert_cmpstr (first->name, ==, name);
  g_assert_cmpfloat_with_epsilon (first->flat_pct, self_pct, TOLERANCE_PCT);
}

/* The workload's build-id as readelf -n prints it. */
static char *
readelf_build_id (const char *dir,
                  const char *program)
{
  g_autofree char *readelf = g_find_program_in_path ("readelf");
  g_autoptr (SpChildResult) result = NULL;
  const char *at;

  g_assert_nonnull (readelf);  /* binutils, with build-essential */
  result = sp_test_run (dir, "readelf", (const char *const[]) { readelf, "-n", program, NULL });
  at = strstr (result->out, "Build ID: ");
  g_assert_cmpint (result->exit_code, ==, 0);
  g_assert_nonnull (at);
  at += strlen ("Build ID: ");
  return g_strndup (at, strspn (at, "0123456789abcdef"));
}

static void
test_raw (void)
{
  SpTestRecording *rec;
  g_autofree char *out = NULL;
  g_autofree char *raw = NULL;
  g_autofree char *workload = sp_test_workload ("annotate");
  g_autofree char *build_id = NULL;
  g_autofree char *mapping = NULL;
  g_autofree char *escaped = NULL;
  g_autoptr (GRegex) inlined = NULL;

  if (!sp_test_case_needs_perf () || !sp_test_case_needs_go ())
    return;
  rec = recorded (1);
  out = export_pprof (rec, "annotate.pb.gz", NULL, NULL);
  raw = sp_test_pprof (rec->dir, "-raw", out, NULL);
  g_test_message ("go tool pprof -raw:\n%s", raw);
  sp_test_assert_contains (raw, "PeriodType: cpu nanoseconds");
  sp_test_assert_contains (raw, "samples/count cpu/nanoseconds");
  sp_test_assert_contains (raw, "thread:[sp-work-annotat");
  /* The mapping: "ID: START/LIMIT/OFFSET PATH BUILD-ID [FN]…". */
  build_id = readelf_build_id (rec->dir, workload);
  /* pprof's main binary, the first mapping listed, is the program. */
  escaped = g_regex_escape_string (workload, -1);
  mapping = g_strdup_printf ("^Mappings\\n\\d+: \\S+ %s %s \\[FN\\]", escaped, build_id);
  g_assert_true (g_regex_match_simple (mapping, raw, G_REGEX_MULTILINE, 0));
  /* A location whose first line is mix and second hot_loop, the caller
   * mix was inlined into (innermost first, as pprof has them). */
  inlined = g_regex_new ("^\\s+\\d+: 0x[0-9a-f]+ M=\\d+ mix \\S*sp-work-annotate\\.c:\\d+ s=\\d+\\n"
                         "\\s+hot_loop \\S*sp-work-annotate\\.c:\\d+ s=\\d+$", G_REGEX_MULTILINE, 0, NULL);
  g_assert_true (g_regex_match (inlined, raw, 0, NULL));
}

/* Writes the bytes of from over to, in place (the inode stays: what a
 * rebuild or a package upgrade that rewrites a file does). */
static void
rewrite_in_place (const char *from,
                  const char *to)
{
  g_autofree char *bytes = NULL;
  gsize len;
  FILE *out;

  g_assert_true (g_file_get_contents (from, &bytes, &len, NULL));
  out = fopen (to, "r+b");
  g_assert_nonnull (out);
  g_assert_cmpint (ftruncate (fileno (out), 0), ==, 0);
  g_assert_cmpuint (fwrite (bytes, 1, len, out), ==, len);
  g_assert_cmpint (fclose (out), ==, 0);
}

/* The mapping has the build-id the recorder read, not the one of what is
 * at the path now. */
static void
test_recorded_build_id (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *threads = sp_test_workload ("threads");
  g_autofree char *diff = sp_test_workload ("diff");
  g_autofree char *program = NULL;
  g_autofree char *recorded_id = NULL;
  g_autofree char *now_id = NULL;
  g_autofree char *out = NULL;
  g_autofree char *raw = NULL;
  g_autofree char *mapping = NULL;
  g_autoptr (SpTestRecording) rec = NULL;

  if (!sp_test_case_needs_perf () || !sp_test_case_needs_go ())
    return;
  dir = sp_test_make_dir ();
  program = sp_test_copy_program (threads, dir);
  recorded_id = readelf_build_id (dir, program);
  rec = sp_test_record (NULL, (const char *const[]) { program, SECONDS, NULL });
  sp_test_assert_recorded (rec, "threads (a copy)");
  rewrite_in_place (diff, program);
  now_id = readelf_build_id (dir, program);
  g_assert_cmpstr (now_id, !=, recorded_id);
  out = export_pprof (rec, "rewritten.pb.gz", NULL, NULL);
  raw = sp_test_pprof (rec->dir, "-raw", out, NULL);
  g_test_message ("go tool pprof -raw:\n%s", raw);
  mapping = g_strdup_printf ("%s %s [FN]", program, recorded_id);
  sp_test_assert_contains (raw, mapping);
  g_assert_null (strstr (raw, now_id));
  sp_test_remove_dir (dir);
}

/* The refusals: a folder, a FIFO, a symbolic link, and pprof without -o. */
static void
test_refusals (void)
{
  SpTestRecording *rec;
  g_autofree char *folder = NULL;
  g_autofree char *fifo = NULL;
  g_autofree char *link = NULL;
  g_autoptr (SpChildResult) result = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  rec = recorded (0);
  folder = g_build_filename (rec->dir, "folder", NULL);
  fifo = g_build_filename (rec->dir, "fifo", NULL);
  link = g_build_filename (rec->dir, "link", NULL);
  g_assert_cmpint (g_mkdir (folder, 0700), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (symlink (rec->spool, link), ==, 0);
  for (guint i = 0; i < 3; i++)
    {
      const char *target = (const char *[]) { folder, fifo, link }[i];
      const char *what = (const char *[]) { "a folder", "a FIFO", "a symbolic link" }[i];
      g_autofree char *said = g_strdup_printf ("cannot write %s: it exists and is %s, not a regular file", target,
                                               what);
      g_autoptr (SpChildResult) refused = sp_test_report_run (rec->dir, (const char *const[]) {
                                                                "speedscope", rec->spool, "-o", target, NULL });

      g_assert_cmpint (refused->exit_code, ==, 1);
      sp_test_assert_contains (refused->err, said);
    }
  g_assert_true (g_file_test (link, G_FILE_TEST_IS_SYMLINK));
  result = sp_test_report_run (rec->dir, (const char *const[]) { "pprof", rec->spool, NULL });
  g_assert_cmpint (result->exit_code, ==, 2);
  sp_test_assert_contains (result->err, "give it with -o OUT.pb.gz");
}

/* A write that fails midway (the file size limit: EFBIG, as ENOSPC would
 * come on a full disk) says which file and why, and leaves the old file
 * as it was and no temporary file. */
static void
test_write_fails (void)
{
  SpTestRecording *rec;
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *out = g_build_filename (dir, "out.json", NULL);
  g_autofree char *command = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *kept = NULL;
  g_autoptr (SpChildResult) result = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  rec = recorded (0);
  g_assert_true (g_file_set_contents (out, "old", -1, NULL));
  /* 1 block of 512 bytes; SIGXFSZ ignored, so write() fails with EFBIG. */
  command = g_strdup_printf ("trap '' XFSZ; ulimit -f 1; exec '%s' speedscope '%s' -o '%s'", sp_test_reporter (),
                             rec->spool, out);
  result = sp_test_run (dir, "limited", (const char *const[]) { "/bin/sh", "-c", command, NULL });
  g_assert_cmpint (result->exit_code, ==, 1);
  sp_test_assert_contains (result->err, "cannot write ");
  sp_test_assert_contains (result->err, "out.json: File too large");
  listing = sp_test_list_dir (dir);
  g_assert_cmpstr (listing, ==, "limited.err limited.out out.json");
  g_assert_true (g_file_get_contents (out, &kept, NULL, NULL));
  g_assert_cmpstr (kept, ==, "old");
  sp_test_remove_dir (dir);
}

int
main (int argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  sp_test_go_set_up ();
  g_test_add_func ("/report/pprof/top", test_top);
  g_test_add_func ("/report/pprof/top-focus", test_top_focus);
  g_test_add_func ("/report/pprof/raw", test_raw);
  g_test_add_func ("/report/pprof/wall", test_wall);
  g_test_add_func ("/report/pprof/recorded-build-id", test_recorded_build_id);
  g_test_add_func ("/report/export/refusals", test_refusals);
  g_test_add_func ("/report/export/write-fails", test_write_fails);
  status = g_test_run ();
  for (guint i = 0; i < G_N_ELEMENTS (recordings); i++)
    g_clear_pointer (&recordings[i], sp_test_recording_free);
  sp_test_go_tear_down ();
  return status;
}
