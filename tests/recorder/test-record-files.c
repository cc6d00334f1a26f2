/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-files.c: what stackpulse-record does with the files it is
 * given and the files it writes.
 *
 * Nothing that was there before is lost: a command that cannot start
 * leaves existing files as they were; the program, a file its command
 * line names, a file that is not a recording, a link or a device is
 * refused as output; an existing recording is replaced, and that is said.
 * Run as root in a folder anyone can write to (/tmp), the recorder never
 * writes through a link or a hard link planted at its output names. A
 * full disk ends the recording at once with a valid spool and side file,
 * and a recorder that is killed leaves a side file whose counts describe
 * the spool as far as it says (spool_bytes).
 *
 * The full disk is a small tmpfs mounted in the test's own mount namespace
 * (it goes away with the test), filled up by the test while the recorder
 * writes: the test needs root for it and is skipped without (failed under
 * CI, which runs as root). */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record-run.h"

#define EXIT_NOT_FOUND 127
#define EXIT_FAILED    125

/* Whether main () got a mount namespace of the test's own, or why not. */
static gboolean own_mounts;
static int own_mounts_errno;

/* The case's folders (record-run.h). */
typedef SpTestFolder Fixture;

static char *
read_file (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *text = NULL;
  gsize len;

  g_file_get_contents (path, &text, &len, &error);
  g_assert_no_error (error);
  return text;
}

/* path's bytes, which must be readable. */
static GBytes *
file_bytes (const char *path)
{
  char *contents = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  return g_bytes_new_take (contents, len);
}

static void
write_file (const char *path,
            const char *text)
{
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
assert_file_is (const char *path,
                const char *expected)
{
  g_autofree char *text = read_file (path);

  g_assert_cmpstr (text, ==, expected);
}

/* A real recording of the threads workload at f->spool. */
static SpChildResult *
record_threads (Fixture *f,
                const char *seconds)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--", workload, seconds, NULL);

  return sp_test_run_recorder (f->dir, (const char *const *) argv);
}

static SpSpoolReader *
open_spool (const char *path)
{
  SpSpoolError err;
  SpSpoolReader *reader = sp_spool_reader_open (path, &err);

  if (reader == NULL)
    g_error ("%s is not a valid spool: %s (at byte %" G_GUINT64_FORMAT ")", path, err.message,
             (guint64) err.offset);
  return reader;
}

static GKeyFile *
load_meta (const char *path)
{
  g_autoptr (GError) error = NULL;
  GKeyFile *meta = g_key_file_new ();

  g_key_file_load_from_file (meta, path, G_KEY_FILE_NONE, &error);
  g_assert_no_error (error);
  return meta;
}

static guint64
meta_u64 (GKeyFile *meta,
          const char *key)
{
  g_autoptr (GError) error = NULL;
  guint64 value = g_key_file_get_uint64 (meta, "recording", key, &error);

  g_assert_no_error (error);
  return value;
}

/* The target would write dir/marker as soon as its threads run. */
static SpChildResult *
record_with_marker (Fixture *f,
                    const char *output)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *marker = g_build_filename (f->dir, "marker", NULL);
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", output, "--",
                                      workload, "--ready", marker, "0.1", NULL);

  return sp_test_run_recorder (f->dir, (const char *const *) argv);
}

/* Refused before the target started (it would have written the marker),
 * with a message naming the output. */
static void
assert_refused (Fixture *f,
                SpChildResult *result,
                const char *output)
{
  g_autofree char *marker = g_build_filename (f->dir, "marker", NULL);

  g_assert_cmpint (result->exit_code, ==, EXIT_FAILED);
  sp_test_assert_contains (result->err, output);
  g_usleep (300 * 1000);
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
}

/* Waits until the side file of a recording in progress counts at least n
 * samples. */
static void
wait_for_samples (SpChild *child,
                  const char *meta_path,
                  guint64 n)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (SP_TEST_DEADLINE_S * G_USEC_PER_SEC);

  for (;;)
    {
      g_autofree char *text = sp_test_wait_for_file (child, meta_path);
      g_autoptr (GKeyFile) meta = g_key_file_new ();

      if (g_key_file_load_from_data (meta, text, (gsize) -1, G_KEY_FILE_NONE, NULL)
          && !g_key_file_get_boolean (meta, "recording", "complete", NULL)
          && g_key_file_get_uint64 (meta, "recording", "samples", NULL) >= n)
        return;
      if (g_get_monotonic_time () > deadline)
        g_error ("%s did not count %" G_GUINT64_FORMAT " samples within %.0f s:\n%s", meta_path, n,
                 SP_TEST_DEADLINE_S, text);
      g_usleep (10 * 1000);
    }
}

/* Fills the folder's file system: what is left of it goes to a file. */
/* ---- A command that cannot start ------------------------------------ */

static void
test_not_started_keeps_recording (Fixture *f,
                                  gconstpointer data)
{
  g_autoptr (SpChildResult) first = NULL;
  g_autoptr (SpChildResult) result = NULL;
  g_autoptr (GBytes) spool = NULL;
  g_autoptr (GBytes) after = NULL;
  g_autofree char *meta = NULL;
  g_autofree char *before = NULL;
  g_auto (GStrv) argv = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  first = record_threads (f, "0.2");
  g_assert_cmpint (first->exit_code, ==, 0);
  spool = file_bytes (f->spool);
  meta = read_file (f->meta);
  before = sp_test_list_dir (f->rec);

  argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--", "sp-no-such-command-4711", NULL);
  result = sp_test_run_recorder (f->dir, (const char *const *) argv);
  g_assert_cmpint (result->exit_code, ==, EXIT_NOT_FOUND);
  after = file_bytes (f->spool);
  g_assert_true (g_bytes_equal (after, spool));
  assert_file_is (f->meta, meta);
  {
    g_autofree char *listing = sp_test_list_dir (f->rec);

    g_assert_cmpstr (listing, ==, before);
  }
}

static void
test_not_started_keeps_other_files (Fixture *f,
                                    gconstpointer data)
{
  g_autofree char *notes = g_build_filename (f->rec, "notes.txt", NULL);
  g_autofree char *notes_meta = g_build_filename (f->rec, "notes.txt.meta", NULL);
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", notes, "--", "/nonexistent", NULL);
  g_autoptr (SpChildResult) result = NULL;

  write_file (notes, "my notes\n");
  write_file (notes_meta, "more notes\n");
  result = sp_test_run_recorder (f->dir, (const char *const *) argv);
  g_assert_cmpint (result->exit_code, !=, 0);
  sp_test_assert_contains (result->err, notes);
  assert_file_is (notes, "my notes\n");
  assert_file_is (notes_meta, "more notes\n");
}

/* ---- Outputs refused -------------------------------------------------- */

static char *
copy_workload (Fixture *f,
               const char *name)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *contents = NULL;
  char *copy = g_build_filename (f->rec, name, NULL);
  g_autoptr (GError) error = NULL;
  gsize len;

  g_file_get_contents (workload, &contents, &len, &error);
  g_assert_no_error (error);
  g_file_set_contents (copy, contents, (gssize) len, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (copy, 0755), ==, 0);
  return copy;
}

static void
assert_same_size (const char *a,
                  const char *b)
{
  GStatBuf sa, sb;

  g_assert_cmpint (g_stat (a, &sa), ==, 0);
  g_assert_cmpint (g_stat (b, &sb), ==, 0);
  g_assert_cmpint (sa.st_size, ==, sb.st_size);
}

/* -o prog -- ./prog: run from the program's folder, as a user would. */
static void
test_output_is_program (Fixture *f,
                        gconstpointer data)
{
  g_autofree char *prog = copy_workload (f, "prog");
  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *marker = g_build_filename (f->dir, "marker", NULL);
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", "prog", "--", "./prog", "--ready", marker, "0.1",
                                      NULL);
  g_autoptr (SpChildResult) result = sp_test_run (f->rec, "../record", (const char *const *) argv);

  g_test_message ("stderr:\n%s", result->err);
  assert_refused (f, result, "'prog'");
  sp_test_assert_contains (result->err, "program");
  assert_same_size (prog, workload);
  g_assert_true (g_file_test (prog, G_FILE_TEST_IS_EXECUTABLE));
  {
    g_autofree char *listing = sp_test_list_dir (f->rec);

    g_assert_cmpstr (listing, ==, "prog");
  }
}

/* A recording the command reads is an input: it stays. */
static void
test_output_is_input (Fixture *f,
                      gconstpointer data)
{
  g_autoptr (SpChildResult) first = NULL;
  g_autoptr (SpChildResult) result = NULL;
  g_autoptr (GBytes) spool = NULL;
  g_autoptr (GBytes) after = NULL;
  g_auto (GStrv) argv = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  first = record_threads (f, "0.2");
  g_assert_cmpint (first->exit_code, ==, 0);
  spool = file_bytes (f->spool);
  argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--", "cat", f->spool, NULL);
  result = sp_test_run_recorder (f->dir, (const char *const *) argv);
  g_assert_cmpint (result->exit_code, ==, EXIT_FAILED);
  sp_test_assert_contains (result->err, f->spool);
  sp_test_assert_contains (result->err, "names");
  after = file_bytes (f->spool);
  g_assert_true (g_bytes_equal (after, spool));
}

/* Runs the recorder in dir with args (after the recorder's name): refused,
 * saying the command names the file, and nothing created in f->rec (which
 * holds sub/). */
static void
assert_named_refused (Fixture *f,
                      const char *dir,
                      const char *const *args,
                      const char *named)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (SpChildResult) result = NULL;
  g_autofree char *listing = NULL;

  g_ptr_array_add (argv, (char *) sp_test_recorder ());
  for (const char *const *arg = args; *arg != NULL; arg++)
    g_ptr_array_add (argv, (char *) *arg);
  g_ptr_array_add (argv, NULL);
  result = sp_test_run (dir, dir == f->rec ? "../record" : "record", (const char *const *) argv->pdata);
  g_test_message ("exit status %d, stdout:\n%s\nstderr:\n%s", result->exit_code, result->out, result->err);
  g_assert_cmpint (result->exit_code, ==, EXIT_FAILED);
  sp_test_assert_contains (result->err, named);
  sp_test_assert_contains (result->err, "the command names");
  listing = sp_test_list_dir (f->rec);
  g_assert_cmpstr (listing, ==, "sub");
}

/* An output that does not exist yet is refused all the same when the
 * command names it: by another path, after "--opt=", relative to -C, or
 * its side file. */
static void
test_output_named_before_it_exists (Fixture *f,
                                    gconstpointer data)
{
  g_autofree char *sub = g_build_filename (f->rec, "sub", NULL);
  const char *const cat_it[] = { "-o", "n.txt", "--", "cat", "n.txt", NULL };
  const char *const other_path[] = { "-o", "n.spool", "--", "cat", "sub/../n.spool", NULL };
  const char *const option[] = { "-o", "n.spool", "--", "/bin/true", "--log=./n.spool.meta", NULL };
  const char *const in_directory[] = { "-o", "rec/n.spool", "-C", "rec/sub", "--", "cat", "../n.spool", NULL };

  g_assert_cmpint (g_mkdir (sub, 0755), ==, 0);
  assert_named_refused (f, f->rec, cat_it, "'n.txt'");
  assert_named_refused (f, f->rec, other_path, "'n.spool'");
  assert_named_refused (f, f->rec, option, "'n.spool.meta'");
  assert_named_refused (f, f->dir, in_directory, "'rec/n.spool'");
}

static void
test_output_is_device (Fixture *f,
                       gconstpointer data)
{
  g_autoptr (SpChildResult) result = NULL;
  GStatBuf before, after;
  /* One left by an older recorder must stay as it is. */
  gboolean existed = g_lstat ("/dev/null.meta", &before) == 0;

  result = record_with_marker (f, "/dev/null");
  assert_refused (f, result, "/dev/null");
  sp_test_assert_contains (result->err, "not a regular file");
  if (!existed)
    g_assert_false (g_file_test ("/dev/null.meta", G_FILE_TEST_EXISTS));
  else
    {
      g_assert_cmpint (g_lstat ("/dev/null.meta", &after), ==, 0);
      g_assert_true (after.st_ino == before.st_ino && after.st_mtime == before.st_mtime
                     && after.st_size == before.st_size);
    }
}

/* A FIFO would block opening it: refused, at once. */
static void
test_output_is_fifo (Fixture *f,
                     gconstpointer data)
{
  g_autofree char *fifo = g_build_filename (f->rec, "fifo", NULL);
  g_autoptr (SpChildResult) result = NULL;
  g_autofree char *listing = NULL;

  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  result = record_with_marker (f, fifo);
  assert_refused (f, result, fifo);
  listing = sp_test_list_dir (f->rec);
  g_assert_cmpstr (listing, ==, "fifo");
}

static void
test_output_is_other_file (Fixture *f,
                           gconstpointer data)
{
  g_autofree char *notes = g_build_filename (f->rec, "notes.txt", NULL);
  g_autoptr (SpChildResult) result = NULL;

  write_file (notes, "my notes\n");
  result = record_with_marker (f, notes);
  assert_refused (f, result, notes);
  sp_test_assert_contains (result->err, "not a stackpulse recording");
  assert_file_is (notes, "my notes\n");
  g_assert_false (g_file_test (f->meta, G_FILE_TEST_EXISTS));
}

/* ---- Replacing a recording ------------------------------------------- */

static void
test_replaces_recording (Fixture *f,
                         gconstpointer data)
{
  g_autoptr (SpChildResult) first = NULL;
  g_autoptr (SpChildResult) second = NULL;
  g_autoptr (GKeyFile) meta = NULL;
  g_auto (GStrv) command = NULL;
  g_autofree char *listing = NULL;
  SpSpoolReader *reader;

  if (!sp_test_case_needs_perf ())
    return;
  first = record_threads (f, "0.2");
  g_assert_cmpint (first->exit_code, ==, 0);
  g_assert_null (strstr (first->err, "replacing"));
  second = record_threads (f, "0.3");
  g_assert_cmpint (second->exit_code, ==, 0);
  sp_test_assert_contains (second->err, "replacing the existing recording");
  sp_test_assert_contains (second->err, f->spool);

  reader = open_spool (f->spool);
  meta = load_meta (f->meta);
  command = g_key_file_get_string_list (meta, "recording", "command", NULL, NULL);
  g_assert_cmpstr (command[1], ==, "0.3");
  g_assert_cmpuint (meta_u64 (meta, "samples"), ==, sp_spool_reader_get_n_samples (reader));
  sp_spool_reader_free (reader);
  /* No temporary file is left beside them. */
  listing = sp_test_list_dir (f->rec);
  g_assert_cmpstr (listing, ==, "out.spool out.spool.meta");
}

/* Follows the spool at path until it holds more than n samples. */
static void
wait_for_growth (SpChild *child,
                 const char *path,
                 size_t n)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (SP_TEST_DEADLINE_S * G_USEC_PER_SEC);
  SpSpoolReader *reader = sp_spool_reader_open_follow (path, NULL);
  SpSpoolError err;

  g_assert_nonnull (reader);
  while (sp_spool_reader_update (reader, &err) && sp_spool_reader_get_n_samples (reader) <= n)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("%s did not grow past %zu samples within %.0f s", path, n, SP_TEST_DEADLINE_S);
      g_usleep (20 * 1000);
    }
  g_assert_null (sp_spool_reader_get_damage (reader));
  sp_spool_reader_free (reader);
}

/* While a recording replaces another, the new one is at the output's
 * name and grows there, as a follower (the window) needs. */
static void
test_replacing_recording_grows (Fixture *f,
                                gconstpointer data)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *ready = g_build_filename (f->dir, "ready", NULL);
  g_autofree char *main_line = NULL;
  g_autoptr (SpChildResult) first = NULL;
  g_auto (GStrv) argv = NULL;
  SpSpoolReader *reader;
  SpChild *child;
  guint64 first_start;
  size_t n;

  if (!sp_test_case_needs_perf ())
    return;
  first = record_threads (f, "0.2");
  g_assert_cmpint (first->exit_code, ==, 0);
  reader = open_spool (f->spool);
  first_start = sp_spool_reader_get_start_timestamp_us (reader);
  sp_spool_reader_free (reader);

  argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--", workload, "--ready", ready, "20", NULL);
  child = sp_child_spawn (f->dir, "record", (const char *const *) argv, FALSE);
  main_line = sp_test_wait_for_file (child, ready);
  wait_for_samples (child, f->meta, 50);
  reader = sp_spool_reader_open_follow (f->spool, NULL);
  g_assert_true (sp_spool_reader_update (reader, NULL));
  g_assert_cmpuint (sp_spool_reader_get_start_timestamp_us (reader), !=, first_start);
  n = sp_spool_reader_get_n_samples (reader);
  sp_spool_reader_free (reader);
  wait_for_growth (child, f->spool, n);
  sp_child_kill (child);
  kill ((pid_t) g_ascii_strtoll (main_line + 5, NULL, 10), SIGKILL);
}

/* ---- Links planted in a folder anyone can write to -------------------- */

/* f->rec becomes like /tmp; the victim is outside it. */
static char *
make_sticky_with_victim (Fixture *f)
{
  char *victim = g_build_filename (f->dir, "victim", NULL);

  g_assert_cmpint (g_chmod (f->rec, 01777), ==, 0);
  write_file (victim, "precious\n");
  return victim;
}

static void
test_symlink_at_output (Fixture *f,
                        gconstpointer data)
{
  g_autofree char *victim = make_sticky_with_victim (f);
  g_autoptr (SpChildResult) result = NULL;

  g_assert_cmpint (symlink (victim, f->spool), ==, 0);
  result = record_with_marker (f, f->spool);
  assert_refused (f, result, f->spool);
  sp_test_assert_contains (result->err, "symbolic link");
  assert_file_is (victim, "precious\n");
  g_assert_true (g_file_test (f->spool, G_FILE_TEST_IS_SYMLINK));
  g_assert_false (g_file_test (f->meta, G_FILE_TEST_EXISTS));
}

static void
test_hardlink_at_output (Fixture *f,
                         gconstpointer data)
{
  g_autofree char *victim = make_sticky_with_victim (f);
  g_autoptr (SpChildResult) result = NULL;

  g_assert_cmpint (link (victim, f->spool), ==, 0);
  result = record_with_marker (f, f->spool);
  assert_refused (f, result, f->spool);
  assert_file_is (victim, "precious\n");
}

static void
test_symlink_at_side_file (Fixture *f,
                           gconstpointer data)
{
  g_autofree char *victim = make_sticky_with_victim (f);
  g_autoptr (SpChildResult) result = NULL;

  g_assert_cmpint (symlink (victim, f->meta), ==, 0);
  result = record_with_marker (f, f->spool);
  assert_refused (f, result, f->meta);
  sp_test_assert_contains (result->err, "symbolic link");
  assert_file_is (victim, "precious\n");
  g_assert_false (g_file_test (f->spool, G_FILE_TEST_EXISTS));
}

/* The side file's temporary had a fixed name, out.spool.meta.tmp: a link
 * there must not be followed (it is not in the way either). */
static void
test_symlink_at_side_file_temporary (Fixture *f,
                                     gconstpointer data)
{
  g_autofree char *victim = make_sticky_with_victim (f);
  g_autofree char *tmp = g_strconcat (f->meta, ".tmp", NULL);
  g_autoptr (SpChildResult) result = NULL;
  g_autoptr (GKeyFile) meta = NULL;
  SpSpoolReader *reader;

  if (!sp_test_case_needs_perf ())
    return;
  g_assert_cmpint (symlink (victim, tmp), ==, 0);
  result = record_threads (f, "0.3");
  g_assert_cmpint (result->exit_code, ==, 0);
  assert_file_is (victim, "precious\n");
  g_assert_true (g_file_test (tmp, G_FILE_TEST_IS_SYMLINK));
  reader = open_spool (f->spool);
  meta = load_meta (f->meta);
  g_assert_true (g_key_file_get_boolean (meta, "recording", "complete", NULL));
  sp_spool_reader_free (reader);
}

/* ---- Two recorders, one output ----------------------------------------- */

/* A recorder in the background recording the threads workload for
 * seconds, with a side file counting 20 samples already (a recorder
 * starved on a loaded machine was seen to keep 40 of 2 s, and a
 * sanitizer build's to write its first side file only after a 2 s
 * workload had ended: give it 6). */
static SpChild *
start_recording (Fixture *f,
                 const char *seconds)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--", workload, seconds, NULL);
  SpChild *child = sp_child_spawn (f->dir, "first", (const char *const *) argv, FALSE);

  wait_for_samples (child, f->meta, 20);
  return child;
}

/* A second recorder on the output of one still recording is refused,
 * before its command starts; the first ends with its own files. */
static void
test_output_being_recorded (Fixture *f,
                            gconstpointer data)
{
  g_autoptr (SpChildResult) second = NULL;
  g_autoptr (SpChildResult) first = NULL;
  g_autoptr (GKeyFile) meta = NULL;
  g_autofree char *listing = NULL;
  SpSpoolReader *reader;
  GStatBuf before, after;
  SpChild *child;

  if (!sp_test_case_needs_perf ())
    return;
  child = start_recording (f, "6");
  g_assert_cmpint (g_stat (f->spool, &before), ==, 0);
  second = record_with_marker (f, f->spool);
  g_test_message ("second: exit status %d, stderr:\n%s", second->exit_code, second->err);
  assert_refused (f, second, f->spool);
  sp_test_assert_contains (second->err, "being recorded");
  g_assert_cmpint (g_stat (f->spool, &after), ==, 0);
  g_assert_true (after.st_ino == before.st_ino);
  listing = sp_test_list_dir (f->rec);
  g_assert_cmpstr (listing, ==, "out.spool out.spool.meta");

  first = sp_child_wait (child);
  g_test_message ("first: exit status %d, stderr:\n%s", first->exit_code, first->err);
  g_assert_cmpint (first->exit_code, ==, 0);
  reader = open_spool (f->spool);
  meta = load_meta (f->meta);
  g_assert_true (g_key_file_get_boolean (meta, "recording", "complete", NULL));
  g_assert_cmpuint (meta_u64 (meta, "samples"), ==, sp_spool_reader_get_n_samples (reader));
  sp_spool_reader_free (reader);
}

/* The spool is moved away and another file put at its name while the
 * recorder writes: its side files stop, they would describe another
 * spool. */
static void
test_spool_no_longer_ours (Fixture *f,
                           gconstpointer data)
{
  static const char other_meta[] = "# stackpulse side file: another recording's\n";
  g_autofree char *moved = g_build_filename (f->rec, "moved.spool", NULL);
  g_autoptr (SpChildResult) result = NULL;
  SpChild *child;

  if (!sp_test_case_needs_perf ())
    return;
  child = start_recording (f, "6");
  g_assert_cmpint (g_rename (f->spool, moved), ==, 0);
  write_file (f->spool, "another recording\n");
  /* A side file already being written when the spool moved may still
   * land: then no more. */
  g_usleep (300 * 1000);
  write_file (f->meta, other_meta);
  result = sp_child_wait (child);
  g_test_message ("exit status %d, stderr:\n%s", result->exit_code, result->err);
  sp_test_assert_contains (result->err, "no longer");
  sp_test_assert_contains (result->err, f->spool);
  /* What it recorded is lost: it failed. */
  g_assert_cmpint (result->exit_code, ==, EXIT_FAILED);
  assert_file_is (f->spool, "another recording\n");
  assert_file_is (f->meta, other_meta);
}

/* Two recorders started at once on one output, before either could write
 * a side file: exactly one records, the other is refused (or, when it
 * lost the race later, fails), round after round. */
static void
test_two_recorders_at_once (Fixture *f,
                            gconstpointer data)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_auto (GStrv) argv = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--", workload, "0.3", NULL);
  for (guint round = 0; round < 5; round++)
    {
      g_autofree char *name_a = g_strdup_printf ("a%u", round);
      g_autofree char *name_b = g_strdup_printf ("b%u", round);
      SpChild *a = sp_child_spawn (f->dir, name_a, (const char *const *) argv, FALSE);
      SpChild *b = sp_child_spawn (f->dir, name_b, (const char *const *) argv, FALSE);
      g_autoptr (SpChildResult) result_a = sp_child_wait (a);
      g_autoptr (SpChildResult) result_b = sp_child_wait (b);
      SpChildResult *winner = result_a->exit_code == 0 ? result_a : result_b;
      SpChildResult *loser = winner == result_a ? result_b : result_a;
      g_autoptr (GKeyFile) meta = NULL;
      g_autofree char *listing = NULL;
      SpSpoolReader *reader;

      g_test_message ("round %u: exit statuses %d and %d, stderr:\n%s\n%s", round, result_a->exit_code,
                      result_b->exit_code, result_a->err, result_b->err);
      g_assert_cmpint (winner->exit_code, ==, 0);
      g_assert_cmpint (loser->exit_code, ==, EXIT_FAILED);
      sp_test_assert_contains (loser->err, f->spool);
      listing = sp_test_list_dir (f->rec);
      g_assert_cmpstr (listing, ==, "out.spool out.spool.meta");
      reader = open_spool (f->spool);
      meta = load_meta (f->meta);
      g_assert_true (g_key_file_get_boolean (meta, "recording", "complete", NULL));
      g_assert_cmpuint (meta_u64 (meta, "samples"), ==, sp_spool_reader_get_n_samples (reader));
      sp_spool_reader_free (reader);
      g_assert_cmpint (g_unlink (f->spool), ==, 0);
      g_assert_cmpint (g_unlink (f->meta), ==, 0);
    }
}

/* The command writes over the spool in place (the same file, cut and
 * rewritten): the recorder sees it at its next flush, says so with the
 * path, writes nothing more there and fails. */
static void
test_spool_overwritten_in_place (Fixture *f,
                                 gconstpointer data)
{
  g_autofree char *relative = g_build_filename ("rec", "out.spool", NULL);
  g_autofree char *script = g_strdup_printf ("echo x > %s; sleep 0.5", relative);
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--", "sh", "-c", script, NULL);
  g_autoptr (SpChildResult) result = NULL;
  g_autofree char *contents = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  /* The recorder runs in f->dir, and so does the command. */
  result = sp_test_run_recorder (f->dir, (const char *const *) argv);
  g_assert_cmpint (result->exit_code, ==, EXIT_FAILED);
  sp_test_assert_contains (result->err, f->spool);
  sp_test_assert_contains (result->err, "overwritten");
  contents = read_file (f->spool);
  g_assert_true (g_str_has_prefix (contents, "x\n"));
}

/* ---- A full disk -------------------------------------------------------- */

static void
fill_up (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "filler", NULL);
  static const char block[4096];
  int fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

  g_assert_cmpint (fd, >=, 0);
  while (write (fd, block, sizeof block) > 0)
    ;
  g_assert_cmpint (errno, ==, ENOSPC);
  close (fd);
}

/* The recorded process, from the spool's threads: it must go on. */
static pid_t
recorded_pid (SpSpoolReader *reader)
{
  g_assert_cmpuint (sp_spool_reader_get_n_threads (reader), >, 0);
  return sp_spool_reader_get_threads (reader)[0].pid;
}

static gboolean
need_own_mounts (void)
{
  const char *ci = g_getenv ("CI");
  g_autofree char *reason = NULL;

  if (own_mounts)
    return TRUE;
  reason = g_strdup_printf ("no mount namespace of its own for a small tmpfs: %s", g_strerror (own_mounts_errno));
  if (ci != NULL && *ci != '\0' && !g_str_equal (ci, "false") && !g_str_equal (ci, "0"))
    g_error ("%s, but CI is set", reason);
  g_test_skip (reason);
  return FALSE;
}

/* The disk fills up while the recorder writes: it stops at once, with
 * the spool cut back to its last whole record and a last side file. */
static void
test_disk_full (Fixture *f,
                gconstpointer data)
{
  g_autofree char *workload = sp_test_workload ("deep");
  g_auto (GStrv) argv = NULL;
  g_autoptr (SpChildResult) result = NULL;
  g_autoptr (GKeyFile) meta = NULL;
  SpSpoolReader *reader;
  SpChild *child;
  GStatBuf st;
  pid_t pid;
  gboolean went_on;

  if (!sp_test_case_needs_perf () || !need_own_mounts ())
    return;
  if (mount ("tmpfs", f->rec, "tmpfs", 0, "size=256k") != 0)
    g_error ("cannot mount a tmpfs on %s: %s", f->rec, g_strerror (errno));

  argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--", workload, "25", "200", NULL);
  child = sp_child_spawn (f->dir, "record", (const char *const *) argv, FALSE);
  wait_for_samples (child, f->meta, 100);
  fill_up (f->rec);
  result = sp_child_wait (child);
  g_test_message ("exit status %d, stderr:\n%s", result->exit_code, result->err);
  g_assert_cmpint (result->exit_code, ==, EXIT_FAILED);
  sp_test_assert_contains (result->err, f->spool);
  sp_test_assert_contains (result->err, g_strerror (ENOSPC));

  reader = open_spool (f->spool);
  pid = recorded_pid (reader);
  went_on = kill (pid, 0) == 0;
  if (went_on)
    kill (pid, SIGKILL);
  /* The recorder stopped at once: the program was still running. */
  g_assert_true (went_on);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (reader), >=, 100);

  meta = load_meta (f->meta);
  g_assert_true (g_key_file_get_boolean (meta, "recording", "complete", NULL));
  g_assert_cmpuint (meta_u64 (meta, "samples"), ==, sp_spool_reader_get_n_samples (reader));
  g_assert_cmpint (g_stat (f->spool, &st), ==, 0);
  g_assert_cmpuint (meta_u64 (meta, "spool_bytes"), ==, (guint64) st.st_size);
  sp_spool_reader_free (reader);
  g_assert_cmpint (umount2 (f->rec, MNT_DETACH), ==, 0);
}

/* A file of size bytes at path (zeros). */
static void
write_filler (const char *path,
              gsize size)
{
  g_autofree char *zeros = g_malloc0 (size);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, zeros, (gssize) size, &error);
  g_assert_no_error (error);
}

/* The disk has little room from the start: the last side file must fit
 * all the same (room kept for it before the spool takes any, and the
 * spool gives back records if that is not enough), and the recorder
 * fails with the path. */
static void
test_disk_nearly_full (Fixture *f,
                       gconstpointer data)
{
  static const guint free_kib[] = { 8, 16, 40 };
  g_autofree char *workload = sp_test_workload ("deep");
  g_autofree char *filler = g_build_filename (f->rec, "filler", NULL);
  guint filled = 0;

  if (!sp_test_case_needs_perf () || !need_own_mounts ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (free_kib); i++)
    {
      /* 3 s: the program goes on unrecorded after the disk filled, and
       * with nothing kept (a first flush bigger than the room left) the
       * spool cannot name it to be killed: it ends by itself. */
      g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-F", "4000", "-o", f->spool, "--", workload, "3",
                                          "200", NULL);
      g_autoptr (SpChildResult) result = NULL;
      g_autoptr (GKeyFile) meta = NULL;
      g_autofree char *error = NULL;
      g_autofree char *meta_warning = g_strdup_printf ("cannot write %s", f->meta);
      SpSpoolReader *reader;
      GStatBuf st;

      g_test_message ("%u KiB free", free_kib[i]);
      if (mount ("tmpfs", f->rec, "tmpfs", 0, "size=200k") != 0)
        g_error ("cannot mount a tmpfs on %s: %s", f->rec, g_strerror (errno));
      write_filler (filler, (200 - free_kib[i]) * 1024);
      result = sp_test_run_recorder (f->dir, (const char *const *) argv);
      /* A recorder that fell far behind and left most samples out (a
       * sanitizer build on a slow host wrote 6.5 kB in 3 s) may fit the
       * larger rooms: then the recording is whole. The smaller ones must
       * fill (checked after the loop). */
      if (result->exit_code == 0 && free_kib[i] > 8)
        {
          g_test_message ("the recording fit: %s", result->err);
          g_assert_cmpint (umount2 (f->rec, MNT_DETACH), ==, 0);
          continue;
        }
      filled++;
      g_assert_cmpint (result->exit_code, ==, EXIT_FAILED);
      sp_test_assert_contains (result->err, f->spool);
      sp_test_assert_contains (result->err, g_strerror (ENOSPC));

      reader = open_spool (f->spool);
      g_test_message ("the spool keeps %" G_GSIZE_FORMAT " samples", sp_spool_reader_get_n_samples (reader));
      if (sp_spool_reader_get_n_threads (reader) > 0)
        kill (recorded_pid (reader), SIGKILL);
      meta = load_meta (f->meta);
      g_assert_true (g_key_file_get_boolean (meta, "recording", "complete", NULL));
      g_assert_cmpuint (meta_u64 (meta, "samples"), ==, sp_spool_reader_get_n_samples (reader));
      g_assert_cmpint (g_stat (f->spool, &st), ==, 0);
      g_assert_cmpuint (meta_u64 (meta, "spool_bytes"), ==, (guint64) st.st_size);
      error = g_key_file_get_string (meta, "recording", "error", NULL);
      g_assert_cmpstr (error, ==, g_strerror (ENOSPC));
      /* The last side file was written: a refresh that failed before it
       * is no warning. */
      g_assert_null (strstr (result->err, meta_warning));
      sp_spool_reader_free (reader);
      g_assert_cmpint (umount2 (f->rec, MNT_DETACH), ==, 0);
    }
  g_assert_cmpuint (filled, >=, 1);
}

/* ---- A recorder that is killed ------------------------------------------ */

/* The spool's first n bytes, as a file of their own. */
static char *
copy_prefix (Fixture *f,
             guint64 n)
{
  g_autofree char *spool = NULL;
  char *prefix = g_build_filename (f->dir, "prefix.spool", NULL);
  g_autoptr (GError) error = NULL;
  gsize len;

  g_assert_true (g_file_get_contents (f->spool, &spool, &len, NULL));
  g_assert_cmpuint (n, <=, len);
  g_file_set_contents (prefix, spool, (gssize) n, &error);
  g_assert_no_error (error);
  return prefix;
}

static void
test_killed_side_file (Fixture *f,
                       gconstpointer data)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *ready = g_build_filename (f->dir, "ready", NULL);
  g_autofree char *prefix = NULL;
  g_autofree char *main_line = NULL;
  g_auto (GStrv) argv = NULL;
  g_autoptr (GKeyFile) meta = NULL;
  SpChild *child;
  SpSpoolReader *reader;
  guint64 samples, bytes;

  if (!sp_test_case_needs_perf ())
    return;
  argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--", workload, "--ready", ready, "20", NULL);
  child = sp_child_spawn (f->dir, "record", (const char *const *) argv, FALSE);
  main_line = sp_test_wait_for_file (child, ready);
  wait_for_samples (child, f->meta, 300);
  sp_child_kill (child);
  /* "main PID": the workload goes on without the recorder. */
  kill ((pid_t) g_ascii_strtoll (main_line + 5, NULL, 10), SIGKILL);

  meta = load_meta (f->meta);
  g_assert_false (g_key_file_get_boolean (meta, "recording", "complete", NULL));
  samples = meta_u64 (meta, "samples");
  bytes = meta_u64 (meta, "spool_bytes");
  g_assert_cmpuint (samples, >=, 300);
  prefix = copy_prefix (f, bytes);
  reader = open_spool (prefix);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (reader), ==, samples);
  sp_spool_reader_free (reader);
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, sp_test_folder_set_up, func, sp_test_folder_tear_down)

/* Before any thread exists: a mount namespace of the test's own, where
 * mounts do not reach the rest of the machine and end with the test. */
static void
make_own_mounts (void)
{
  own_mounts = unshare (CLONE_NEWNS) == 0 && mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0;
  own_mounts_errno = own_mounts ? 0 : errno;
}

int
main (int argc,
      char **argv)
{
  make_own_mounts ();
  g_test_init (&argc, &argv, NULL);

  ADD ("/recorder/files/not-started-keeps-recording", test_not_started_keeps_recording);
  ADD ("/recorder/files/not-started-keeps-other-files", test_not_started_keeps_other_files);
  ADD ("/recorder/files/output-is-program", test_output_is_program);
  ADD ("/recorder/files/output-is-input", test_output_is_input);
  ADD ("/recorder/files/output-named-before-it-exists", test_output_named_before_it_exists);
  ADD ("/recorder/files/output-is-device", test_output_is_device);
  ADD ("/recorder/files/output-is-fifo", test_output_is_fifo);
  ADD ("/recorder/files/output-is-other-file", test_output_is_other_file);
  ADD ("/recorder/files/replaces-recording", test_replaces_recording);
  ADD ("/recorder/files/replacing-recording-grows", test_replacing_recording_grows);
  ADD ("/recorder/files/symlink-at-output", test_symlink_at_output);
  ADD ("/recorder/files/hardlink-at-output", test_hardlink_at_output);
  ADD ("/recorder/files/symlink-at-side-file", test_symlink_at_side_file);
  ADD ("/recorder/files/symlink-at-side-file-temporary", test_symlink_at_side_file_temporary);
  ADD ("/recorder/files/output-being-recorded", test_output_being_recorded);
  ADD ("/recorder/files/spool-no-longer-ours", test_spool_no_longer_ours);
  ADD ("/recorder/files/two-recorders-at-once", test_two_recorders_at_once);
  ADD ("/recorder/files/spool-overwritten-in-place", test_spool_overwritten_in_place);
  ADD ("/recorder/files/disk-full", test_disk_full);
  ADD ("/recorder/files/disk-nearly-full", test_disk_nearly_full);
  ADD ("/recorder/files/killed-side-file", test_killed_side_file);
  return g_test_run ();
}
