/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-perf-data-input.c: stackpulse-record --input on inputs that are
 * damaged or not perf.data at all.
 *
 *  - a copy cut in the middle of its data section converts the records
 *    before the cut, exits 0 and says where the damage is (stderr and the
 *    side file's [input] input_damaged_at);
 *  - a bad header, random bytes, a spool, an ELF program, an empty file, a
 *    directory and standard input with nothing on it are refused with a
 *    non-zero exit, a message saying what they look like, and no output;
 *  - SIGTERM while converting removes the spool it was writing;
 *  - a command with --input is a usage error, an event the file does not
 *    have is refused naming the ones it has;
 *  - a file recorded under another kernel release (its OSRELEASE section
 *    changed here) keeps its kernel frames unnamed, and says why. */
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "perf-data-run.h"
#include "record-run.h"
#include "record-stacks.h"

/* A fp recording of sp-work-threads in dir. */
static char *
record_threads (const char *perf,
                const char *dir)
{
  g_autofree char *workload = sp_test_workload ("threads");

  return sp_test_perf_record (perf, dir, "whole.data", (const char *const[]) { "-F", "2000", "-g", NULL },
                              (const char *const[]) { workload, "0.4", NULL });
}

static void
test_truncated (void)
{
  const char *perf = sp_test_perf_data_needs_perf ();
  g_autofree char *data = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *cut = NULL;
  g_autofree char *meta = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  g_autoptr (GKeyFile) keys = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  SpChildResult *result;
  guint64 data_offset, data_size, cut_at, whole;
  gsize len;
  char *dir;

  if (perf == NULL)
    return;
  dir = sp_test_make_dir ();
  data = record_threads (perf, dir);
  whole = sp_test_perf_samples (perf, dir, data, NULL);
  g_assert_true (g_file_get_contents (data, &bytes, &len, NULL));
  /* The header's data section: offset and size at bytes 40 and 48. */
  memcpy (&data_offset, bytes + 40, 8);
  memcpy (&data_size, bytes + 48, 8);
  cut_at = data_offset + data_size / 2 + 3;   /* inside a record, most likely */
  cut = g_build_filename (dir, "cut.data", NULL);
  g_assert_true (g_file_set_contents (cut, bytes, (gssize) cut_at, NULL));

  result = sp_test_convert (dir, cut, NULL);
  rec = sp_test_recording_new (dir, result);
  g_assert_cmpint (result->exit_code, ==, 0);
  sp_test_assert_contains (result->err, "is damaged at byte");
  sp_test_assert_contains (result->err, "converted the");
  sp_test_recording_load (rec);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (rec->reader), >, whole / 4);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (rec->reader), <, whole);
  meta = g_strdup (rec->meta_path);
  g_key_file_load_from_file (keys, meta, G_KEY_FILE_NONE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_key_file_get_uint64 (keys, "input", "input_damaged_at", &error), >=, data_offset);
  g_assert_no_error (error);
  g_assert_cmpuint (g_key_file_get_uint64 (keys, "input", "input_damaged_at", NULL), <=, cut_at);
}

static void
assert_refused (const char *dir,
                const char *input,
                const char *what)
{
  g_autoptr (SpChildResult) result = sp_test_convert (dir, input, NULL);
  g_autofree char *spool = g_build_filename (dir, "out.spool", NULL);
  g_autofree char *meta = g_build_filename (dir, "out.spool.meta", NULL);

  g_assert_cmpint (result->exit_code, !=, 0);
  sp_test_assert_contains (result->err, what);
  g_assert_false (g_file_test (spool, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (meta, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (strlen (result->err), <, 400);
}

static char *
write_file (const char *dir,
            const char *name,
            const void *bytes,
            gsize len)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, bytes, (gssize) len, NULL));
  return path;
}

static void
test_refused (void)
{
  const char *perf = sp_test_perf_data_needs_perf ();
  g_autofree char *data = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *out_dir = NULL;
  g_autofree char *spool_dir = NULL;
  g_autofree char *bad_header = NULL;
  g_autofree char *random_bytes = NULL;
  g_autofree char *empty = NULL;
  g_autofree char *text = NULL;
  g_autofree char *elf = sp_test_workload ("threads");
  g_autofree char *spool = NULL;
  g_autofree char *listing = NULL;
  g_autoptr (SpChildResult) made = NULL;
  guint8 noise[4096];
  guint8 header[104] = "PERFILE2";

  if (perf == NULL)
    return;
  dir = sp_test_make_dir ();
  out_dir = sp_test_make_dir ();
  spool_dir = sp_test_make_dir ();
  data = record_threads (perf, dir);
  made = sp_test_convert (spool_dir, data, NULL);
  g_assert_cmpint (made->exit_code, ==, 0);
  spool = g_build_filename (spool_dir, "out.spool", NULL);

  for (guint i = 0; i < sizeof noise; i++)
    noise[i] = (guint8) g_random_int ();
  noise[0] = 0x93;  /* not text */
  /* perf's magic, then a header size perf never wrote. */
  memset (header + 8, 0xab, sizeof header - 8);
  bad_header = write_file (dir, "bad-header.data", header, sizeof header);
  random_bytes = write_file (dir, "random.data", noise, sizeof noise);
  empty = write_file (dir, "empty.data", "", 0);
  text = write_file (dir, "notes.txt", "hello perf\n", 11);

  assert_refused (out_dir, bad_header, "header");
  assert_refused (out_dir, random_bytes, "not a perf.data file");
  assert_refused (out_dir, spool, "a stackpulse recording already");
  assert_refused (out_dir, elf, "an ELF file");
  assert_refused (out_dir, empty, "is empty");
  assert_refused (out_dir, dir, "a directory");
  assert_refused (out_dir, text, "a text file (it begins \"hello perf\")");
  assert_refused (out_dir, "-", "standard input is empty");
  listing = sp_test_list_dir (out_dir);
  /* Only what the test itself keeps of the runs' output. */
  g_assert_cmpstr (listing, ==, "convert.err convert.out");
  sp_test_remove_dir (dir);
  sp_test_remove_dir (out_dir);
  sp_test_remove_dir (spool_dir);
}

/* A pipe whose writer waits: the conversion waits for more, and SIGTERM
 * (the window's Cancel) or SIGHUP (a closed terminal) ends it and removes
 * its spool. */
static void
test_cancel (gconstpointer data)
{
  int stop = GPOINTER_TO_INT (data);
  const char *perf = sp_test_perf_data_needs_perf ();
  g_autofree char *dir = NULL;
  g_autofree char *out_dir = NULL;
  g_autofree char *pipe_data = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *spool = NULL;
  g_autofree char *script = NULL;
  g_autofree char *workload = NULL;
  g_autoptr (SpChildResult) recorded = NULL;
  g_autoptr (SpChildResult) result = NULL;
  SpChild *child;
  gsize len;

  if (perf == NULL)
    return;
  dir = sp_test_make_dir ();
  out_dir = sp_test_make_dir ();
  workload = sp_test_workload ("threads");
  pipe_data = g_build_filename (dir, "pipe.data", NULL);
  script = g_strdup_printf ("'%s' record -g -o - -- '%s' 0.2 > '%s'", perf, workload, pipe_data);
  recorded = sp_test_run (dir, "record", (const char *const[]) { "/bin/sh", "-c", script, NULL });
  g_assert_cmpint (recorded->exit_code, ==, 0);
  g_assert_true (g_file_get_contents (pipe_data, &bytes, &len, NULL));
  spool = g_build_filename (out_dir, "out.spool", NULL);
  child = sp_child_spawn (out_dir, "convert",
                          (const char *const[]) { sp_test_recorder (), "--input", "-", "-o", spool, NULL }, TRUE);
  /* All of it, and the pipe stays open: the recorder waits for more. */
  g_assert_cmpint (write (child->stdin_fd, bytes, len), ==, (gssize) len);
  g_free (sp_test_wait_for_file (child, spool));
  g_usleep (500 * 1000);
  g_assert_cmpint (kill (child->pid, stop), ==, 0);
  result = sp_child_wait (child);
  g_test_message ("stderr: %s", result->err);
  g_assert_cmpint (result->exit_code, ==, 128 + stop);
  sp_test_assert_contains (result->err, "removed");
  g_assert_false (g_file_test (spool, G_FILE_TEST_EXISTS));
  sp_test_remove_dir (dir);
  sp_test_remove_dir (out_dir);
}

static void
test_wrong_use (void)
{
  const char *perf = sp_test_perf_data_needs_perf ();
  g_autofree char *dir = NULL;
  g_autofree char *data = NULL;
  g_autofree char *listing = NULL;
  g_autofree char *progress = NULL;
  g_autofree char *progress_text = NULL;
  g_autofree char *script = NULL;
  g_autoptr (SpChildResult) with_command = NULL;
  g_autoptr (SpChildResult) no_event = NULL;

  if (perf == NULL)
    return;
  dir = sp_test_make_dir ();
  data = record_threads (perf, dir);
  with_command = sp_test_convert (dir, data, (const char *const[]) { "--", "true", NULL });
  g_assert_cmpint (with_command->exit_code, ==, 2);
  sp_test_assert_contains (with_command->err, "takes no command");
  progress = g_build_filename (dir, "progress", NULL);
  script = g_strdup_printf ("exec '%s' --input '%s' -o '%s/out.spool' --event no-such-event --progress-fd 3 3>'%s'",
                            sp_test_recorder (), data, dir, progress);
  no_event = sp_test_run (dir, "convert", (const char *const[]) { "/bin/sh", "-c", script, NULL });
  g_assert_cmpint (no_event->exit_code, ==, 1);
  g_assert_true (g_file_get_contents (progress, &progress_text, NULL, NULL));
  g_assert_cmpstr (progress_text, ==, "state=failed exit_status=1\n");
  sp_test_assert_contains (no_event->err, "has no event 'no-such-event'; its events: cpu-clock");
  listing = sp_test_list_dir (dir);
  g_assert_null (strstr (listing, "out.spool"));
  sp_test_remove_dir (dir);
}

/* Every copy of this kernel's release in the file, its last character
 * changed: the file then says another kernel recorded it. */
static void
test_other_kernel (void)
{
  const char *perf = sp_test_perf_data_needs_perf ();
  g_autofree char *data = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *other = NULL;
  g_autofree char *note = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  struct utsname uts;
  gsize len, release_len, changed = 0;
  char *dir;

  if (perf == NULL)
    return;
  g_assert_cmpint (uname (&uts), ==, 0);
  release_len = strlen (uts.release);
  dir = sp_test_make_dir ();
  data = record_threads (perf, dir);
  g_assert_true (g_file_get_contents (data, &bytes, &len, NULL));
  for (gsize i = 0; i + release_len <= len; i++)
    if (memcmp (bytes + i, uts.release, release_len) == 0)
      {
        bytes[i + release_len - 1] = bytes[i + release_len - 1] == 'x' ? 'y' : 'x';
        changed++;
      }
  g_assert_cmpuint (changed, >, 0);
  other = write_file (dir, "other-kernel.data", bytes, len);
  rec = sp_test_recording_new (dir, sp_test_convert (dir, other, NULL));
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  sp_test_recording_load (rec);
  g_assert_true (sp_test_has_kernel_frames (rec->reader));
  sp_test_assert_contains (rec->result->err, "kernel frames are unnamed: recorded on kernel");
  note = g_key_file_get_string (rec->meta, "input", "kernel_symbols", NULL);
  g_assert_nonnull (note);
  g_assert_true (g_str_has_prefix (note, "unnamed: recorded on kernel"));
  g_assert_false (g_key_file_has_group (rec->meta, "kernel-symbols"));
}

/* The kernel's mapping moved by 2 MiB, as KASLR moves it at each boot:
 * the same kernel, another boot, whose addresses this machine's
 * /proc/kallsyms does not give. The unedited file is named. */
static void
test_other_boot (void)
{
  const char *perf = sp_test_perf_data_needs_perf ();
  g_autofree char *data = NULL;
  g_autofree char *bytes = NULL;
  g_autofree char *moved = NULL;
  g_autofree char *note = NULL;
  g_autoptr (SpTestRecording) same = NULL;
  g_autoptr (SpTestRecording) rec = NULL;
  const char *name;
  gsize len;
  guint64 text;
  char *dir;

  if (perf == NULL)
    return;
  dir = sp_test_make_dir ();
  data = record_threads (perf, dir);
  same = sp_test_recording_new (g_strdup (dir), sp_test_convert (dir, data, NULL));
  g_assert_cmpint (same->result->exit_code, ==, 0);
  sp_test_recording_load (same);
  g_assert_true (g_key_file_has_group (same->meta, "kernel-symbols"));
  g_assert_true (g_file_get_contents (data, &bytes, &len, NULL));
  /* perf maps the kernel with an MMAP record (pid -1) whose name follows
   * pid, tid, addr, len and pgoff (_text's address). */
  name = memmem (bytes, len, "[kernel.kallsyms]", 17);
  g_assert_nonnull (name);
  g_assert_cmpuint (name - bytes, >=, 40);
  memcpy (&text, name - 8, 8);
  g_assert_cmpuint (text >> 32, ==, 0xffffffffu);
  text += 2 << 20;
  memcpy ((char *) name - 8, &text, 8);
  moved = write_file (dir, "other-boot.data", bytes, len);
  rec = sp_test_recording_new (dir, sp_test_convert (dir, moved, NULL));
  g_assert_cmpint (rec->result->exit_code, ==, 0);
  sp_test_recording_load (rec);
  sp_test_assert_contains (rec->result->err, "kernel frames are unnamed: recorded in another boot");
  note = g_key_file_get_string (rec->meta, "input", "kernel_symbols", NULL);
  g_assert_true (g_str_has_prefix (note, "unnamed: recorded in another boot"));
  g_assert_false (g_key_file_has_group (rec->meta, "kernel-symbols"));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/perf-data/truncated", test_truncated);
  g_test_add_func ("/perf-data/refused", test_refused);
  g_test_add_data_func ("/perf-data/cancel", GINT_TO_POINTER (SIGTERM), test_cancel);
  g_test_add_data_func ("/perf-data/hangup", GINT_TO_POINTER (SIGHUP), test_cancel);
  g_test_add_func ("/perf-data/wrong-use", test_wrong_use);
  g_test_add_func ("/perf-data/other-kernel", test_other_kernel);
  g_test_add_func ("/perf-data/other-boot", test_other_boot);
  return g_test_run ();
}
