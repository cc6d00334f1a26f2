/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-state.c: stackpulse-report on a recording still being
 * written, and on one whose recorder was killed.
 *
 * The real recorder attaches to sp-work-threads; the report is run while
 * it records (the summary says "in progress"), then the recorder is
 * SIGKILLed, leaving a side file with complete=false: the report must say
 * the recording was interrupted, with the samples the file holds, never
 * pass the side file's last counts off as the recording's. Without the
 * recorder's pid (another host, an older recorder), how long the files
 * have not changed decides. */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <utime.h>

#include "record-run.h"
#include "record-stacks.h"
#include "report-output.h"
#include "sp-spool-reader.h"

/* "samples:   N (of M in the file)": M. */
static guint64
samples_in_file (const char *summary)
{
  const char *line = strstr (summary, "\nsamples:   ");
  const char *of = line != NULL ? strstr (line, "(of ") : NULL;

  g_assert_nonnull (of);
  return g_ascii_strtoull (of + 4, NULL, 10);
}

/* The summary's "recording: " line, without its newline; NULL when none. */
static char *
recording_line (const char *summary)
{
  const char *line = strstr (summary, "\nrecording: ");

  if (line == NULL)
    return NULL;
  line += strlen ("\nrecording: ");
  return g_strndup (line, strcspn (line, "\n"));
}

static char *
summary_of (const char *dir,
            const char *spool)
{
  g_autofree char *out = sp_test_report (dir, spool, NULL);

  g_test_message ("%s", out);
  return g_steal_pointer (&out);
}

/* Both files as if last written seconds_ago. */
static void
set_age (const char *spool,
         const char *meta_path,
         gint64 seconds_ago)
{
  struct utimbuf when;

  when.actime = when.modtime = (time_t) (g_get_real_time () / G_USEC_PER_SEC - seconds_ago);
  g_assert_cmpint (g_utime (spool, &when), ==, 0);
  g_assert_cmpint (g_utime (meta_path, &when), ==, 0);
}

/* The side file of an older recorder: no recorder_pid. */
static void
forget_recorder_pid (const char *meta_path)
{
  g_autoptr (GKeyFile) meta = g_key_file_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (g_key_file_load_from_file (meta, meta_path, G_KEY_FILE_KEEP_COMMENTS, &error));
  g_assert_true (g_key_file_remove_key (meta, "recording", "recorder_pid", &error));
  g_assert_true (g_key_file_save_to_file (meta, meta_path, &error));
  g_assert_no_error (error);
}

static void
test_in_progress_then_interrupted (void)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *ready_path = g_build_filename (dir, "ready", NULL);
  g_autofree char *spool = g_build_filename (dir, "out.spool", NULL);
  g_autofree char *meta_path = g_build_filename (dir, "out.spool.meta", NULL);
  g_autofree char *pid_arg = NULL;
  g_autofree char *live = NULL;
  g_autofree char *killed = NULL;
  g_autofree char *state = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *attached = NULL;
  g_autoptr (SpChildResult) top = NULL;
  g_autofree char *ready = NULL;
  SpChild *target, *recorder;

  target = sp_child_spawn (dir, "workload", (const char *const[]) { workload, "--ready", ready_path, "30", NULL },
                           FALSE);
  ready = sp_test_wait_for_file (target, ready_path);
  pid_arg = g_strdup_printf ("--pid=%d", (int) target->pid);
  recorder = sp_child_spawn (dir, "record", (const char *const[]) { sp_test_recorder (), "-F", "1000", "-o", spool,
                                                                     pid_arg, NULL }, FALSE);
  g_free (sp_test_wait_for_file (recorder, meta_path));

  live = summary_of (dir, spool);
  state = recording_line (live);
  g_assert_nonnull (state);
  g_assert_true (g_str_has_prefix (state, "in progress: "));
  g_assert_nonnull (strstr (live, " or more (counted until the side file was last written)\n"));
  /* An attach has no command: the summary names the process instead. */
  attached = g_strdup_printf ("\nattached:  pid %d\n", (int) target->pid);
  g_assert_nonnull (strstr (live, attached));
  g_assert_null (strstr (live, "\ncommand:"));

  /* Killed once samples are in the file: the side file of an attach
   * comes before them (the first flush), and a quick summary above left
   * no time for one. */
  for (int i = 0; i < 200 && samples_in_file (live) == 0; i++)
    {
      g_usleep (50 * 1000);
      g_free (live);
      live = summary_of (dir, spool);
    }
  g_assert_cmpuint (samples_in_file (live), >, 0);
  sp_child_kill (recorder);
  killed = summary_of (dir, spool);
  g_clear_pointer (&state, g_free);
  state = recording_line (killed);
  expected = g_strdup_printf ("interrupted: its recorder ended before finishing it; %" G_GUINT64_FORMAT
                              " samples over ", samples_in_file (killed));
  g_assert_cmpuint (samples_in_file (killed), >, 0);
  g_assert_nonnull (state);
  g_assert_true (g_str_has_prefix (state, expected));
  g_assert_true (g_str_has_suffix (state, " s were saved"));
  /* The outputs meant for other programs say it on stderr. */
  top = sp_test_report_run (dir, (const char *const[]) { "top", spool, NULL });
  g_assert_cmpint (top->exit_code, ==, 0);
  g_assert_nonnull (strstr (top->err, "warning: the recording is interrupted: "));

  /* No pid to ask about: files that stopped changing mean interrupted,
   * files still changing mean in progress. */
  forget_recorder_pid (meta_path);
  set_age (spool, meta_path, 60);
  g_clear_pointer (&killed, g_free);
  g_clear_pointer (&state, g_free);
  killed = summary_of (dir, spool);
  state = recording_line (killed);
  g_assert_nonnull (state);
  g_assert_true (g_str_has_prefix (state, "interrupted: "));
  set_age (spool, meta_path, 0);
  g_clear_pointer (&killed, g_free);
  g_clear_pointer (&state, g_free);
  killed = summary_of (dir, spool);
  state = recording_line (killed);
  g_assert_nonnull (state);
  g_assert_true (g_str_has_prefix (state, "in progress: "));

  sp_child_kill (target);
  sp_test_remove_dir (dir);
}

/* A finished recording says nothing of the kind, and its lost count is
 * the side file's. */
static void
test_complete (void)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_autoptr (SpTestRecording) rec = sp_test_record (NULL, (const char *const[]) { workload, "0.3", NULL });
  g_autofree char *summary = NULL;
  g_autofree char *lost = NULL;

  g_assert_cmpint (rec->result->exit_code, ==, 0);
  sp_test_recording_load (rec);
  summary = summary_of (rec->dir, rec->spool);
  g_assert_null (recording_line (summary));
  lost = g_strdup_printf ("\nlost:      %" G_GINT64_FORMAT "\n",
                          g_key_file_get_int64 (rec->meta, "recording", "lost_samples", NULL));
  g_assert_nonnull (strstr (summary, lost));
}

/* A recording the recorder had to stop (the disk was full): its side
 * file's error is said, with the spool's path. */
static void
test_stopped_early (void)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_autoptr (SpTestRecording) rec = sp_test_record (NULL, (const char *const[]) { workload, "0.3", NULL });
  g_autoptr (GKeyFile) meta = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *summary = NULL;
  g_autofree char *expected = NULL;

  g_assert_cmpint (rec->result->exit_code, ==, 0);
  g_assert_true (g_key_file_load_from_file (meta, rec->meta_path, G_KEY_FILE_KEEP_COMMENTS, &error));
  g_key_file_set_string (meta, "recording", "error", g_strerror (ENOSPC));
  g_assert_true (g_key_file_save_to_file (meta, rec->meta_path, &error));
  g_assert_no_error (error);
  summary = summary_of (rec->dir, rec->spool);
  expected = g_strdup_printf ("\nrecording: stopped early: cannot write %s: %s\n", rec->spool, g_strerror (ENOSPC));
  g_assert_nonnull (strstr (summary, expected));
}

/* The spool's first length bytes, cut back to the last whole record
 * (found by the codec's reader), written to cut_path; its length. */
static gsize
write_cut_at_record (const char *contents,
                     gsize length,
                     const char *cut_path)
{
  g_autoptr (GError) error = NULL;
  SpSpoolError err;
  SpSpoolReader *reader;
  gsize boundary;

  g_assert_true (g_file_set_contents (cut_path, contents, (gssize) length, &error));
  reader = sp_spool_reader_open_follow (cut_path, &err);
  g_assert_nonnull (reader);
  sp_spool_reader_finish (reader, &err);
  boundary = (gsize) sp_spool_reader_get_parsed_size (reader);
  sp_spool_reader_free (reader);
  g_assert_cmpuint (boundary, >, 0);
  g_assert_true (g_file_set_contents (cut_path, contents, (gssize) boundary, &error));
  return boundary;
}

/* A complete recording cut on a record boundary (head -c, or a copy made
 * while it was recorded) reads as whole; its side file's spool_bytes says
 * it is not: the summary and stderr say the spool is short. */
static void
test_cut_at_record (void)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_autoptr (SpTestRecording) rec = sp_test_record (NULL, (const char *const[]) { workload, "0.3", NULL });
  g_autoptr (GError) error = NULL;
  g_autoptr (SpChildResult) summary = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *meta = NULL;
  g_autofree char *cut = NULL;
  g_autofree char *cut_meta = NULL;
  g_autofree char *alone = NULL;
  g_autofree char *expected = NULL;
  gsize length, meta_length, boundary;

  g_assert_cmpint (rec->result->exit_code, ==, 0);
  g_assert_true (g_file_get_contents (rec->spool, &contents, &length, &error));
  g_assert_true (g_file_get_contents (rec->meta_path, &meta, &meta_length, &error));
  cut = g_build_filename (rec->dir, "cut.spool", NULL);
  cut_meta = g_strconcat (cut, ".meta", NULL);
  boundary = write_cut_at_record (contents, length / 2, cut);
  g_assert_cmpuint (boundary, <, length);

  /* Alone, the cut reads fine: nothing on stderr, no damage. */
  alone = sp_test_report (rec->dir, "summary", cut, NULL);
  g_assert_null (strstr (alone, "\ndamage:"));

  g_assert_true (g_file_set_contents (cut_meta, meta, (gssize) meta_length, &error));
  summary = sp_test_report_run (rec->dir, (const char *const[]) { "summary", cut, NULL });
  g_test_message ("%s%s", summary->out, summary->err);
  g_assert_cmpint (summary->exit_code, ==, 0);
  expected = g_strdup_printf ("the spool is shorter than its recording (%" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
                              " bytes): it was cut, or copied while it was recorded", boundary, length);
  g_assert_nonnull (strstr (summary->out, expected));
  g_assert_nonnull (strstr (summary->out, "\ndamage:    the spool is shorter"));
  g_assert_nonnull (strstr (summary->err, "warning: the spool is shorter than its recording"));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;
  g_test_add_func ("/report/state/in-progress-then-interrupted", test_in_progress_then_interrupted);
  g_test_add_func ("/report/state/complete", test_complete);
  g_test_add_func ("/report/state/stopped-early", test_stopped_early);
  g_test_add_func ("/report/state/cut-at-record", test_cut_at_record);
  return g_test_run ();
}
