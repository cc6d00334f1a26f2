/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-offcpu.c: the off-CPU companion stream (codec/sp-offcpu.h), and
 * stacks interned into a spool without a sample.
 *
 * Records written are read back with their absolute times (deltas going
 * back included), a follower sees a record only once it is whole, a cut
 * tail is damage when following ends, a file that is no stream is refused,
 * a write that fails part way (a full disk) leaves the stream at its last
 * whole record, and a spool with stacks and threads no sample uses is
 * still read whole (the reference reader's rules, as the codec reader
 * implements them). */
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "sp-offcpu.h"
#include "sp-spool-reader.h"
#include "sp-spool-writer.h"

typedef struct {
  char *dir;
  char *path;
} Files;

static void
files_init (Files *f,
            const char *name)
{
  g_autoptr (GError) error = NULL;

  f->dir = g_dir_make_tmp ("stackpulse-offcpu-XXXXXX", &error);
  g_assert_no_error (error);
  f->path = g_build_filename (f->dir, name, NULL);
}

static void
files_clear (Files *f)
{
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

static SpOffCpuWriter *
create_writer (const char *path)
{
  SpSpoolError err;
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  SpOffCpuWriter *writer;

  g_assert_cmpint (fd, >=, 0);
  writer = sp_offcpu_writer_new_for_fd (fd, TRUE, &err);
  g_assert_nonnull (writer);
  return writer;
}

static void
test_roundtrip (void)
{
  Files f;
  SpSpoolError err;
  SpOffCpuWriter *writer;
  SpOffCpuReader *reader;
  const SpOffCpuRecord *r;

  files_init (&f, "t.spool.offcpu");
  writer = create_writer (f.path);
  g_assert_true (sp_offcpu_writer_write_sync (writer, 1234, &err));
  g_assert_true (sp_offcpu_writer_write_switch_out (writer, 5000000000, 3, SP_OFFCPU_BLOCKED, 77, &err));
  /* Another CPU's record from a little earlier: the delta goes back. */
  g_assert_true (sp_offcpu_writer_write_switch_out (writer, 4999999000, 4, SP_OFFCPU_RUNNABLE, SP_SPOOL_NO_ID, &err));
  g_assert_true (sp_offcpu_writer_write_switch_in (writer, 5002000000, 3, &err));
  g_assert_true (sp_offcpu_writer_write_thread_end (writer, 5003000000, 4, &err));
  g_assert_true (sp_offcpu_writer_close (writer, &err));

  reader = sp_offcpu_reader_open_follow (f.path, &err);
  g_assert_nonnull (reader);
  g_assert_true (sp_offcpu_reader_update (reader, &err));
  g_assert_true (sp_offcpu_reader_finish (reader, &err));
  g_assert_null (sp_offcpu_reader_get_damage (reader));
  g_assert_cmpuint (sp_offcpu_reader_get_n_records (reader), ==, 5);
  g_assert_cmpuint (sp_offcpu_reader_get_synced_spool_bytes (reader), ==, 1234);
  r = sp_offcpu_reader_get_records (reader);
  g_assert_cmpuint (r[0].tag, ==, SP_OFFCPU_SYNC);
  g_assert_cmpuint (r[1].tag, ==, SP_OFFCPU_SWITCH_OUT);
  g_assert_cmpuint (r[1].timestamp_ns, ==, 5000000000);
  g_assert_cmpuint (r[1].thread, ==, 3);
  g_assert_cmpuint (r[1].state, ==, SP_OFFCPU_BLOCKED);
  g_assert_cmpuint (r[1].stack, ==, 77);
  g_assert_cmpuint (r[2].timestamp_ns, ==, 4999999000);
  g_assert_cmpuint (r[2].state, ==, SP_OFFCPU_RUNNABLE);
  g_assert_cmpuint (r[2].stack, ==, SP_SPOOL_NO_ID);
  g_assert_cmpuint (r[3].tag, ==, SP_OFFCPU_SWITCH_IN);
  g_assert_cmpuint (r[3].timestamp_ns, ==, 5002000000);
  g_assert_cmpuint (r[4].tag, ==, SP_OFFCPU_THREAD_END);
  g_assert_cmpuint (r[4].thread, ==, 4);
  sp_offcpu_reader_free (reader);
  files_clear (&f);
}

/* The stream grows a byte at a time: a record appears once it is whole,
 * and following to the end finds each record once. */
static void
test_follow_byte_by_byte (void)
{
  Files f, whole;
  SpSpoolError err;
  SpOffCpuWriter *writer;
  g_autofree char *bytes = NULL;
  gsize len;
  SpOffCpuReader *reader;
  int fd;
  size_t seen = 0;

  files_init (&whole, "whole.offcpu");
  writer = create_writer (whole.path);
  for (guint i = 0; i < 50; i++)
    {
      g_assert_true (sp_offcpu_writer_write_switch_out (writer, 1000 + i * 300, i % 3, SP_OFFCPU_BLOCKED, i, &err));
      g_assert_true (sp_offcpu_writer_write_switch_in (writer, 1100 + i * 300, i % 3, &err));
    }
  g_assert_true (sp_offcpu_writer_close (writer, &err));
  g_assert_true (g_file_get_contents (whole.path, &bytes, &len, NULL));

  files_init (&f, "growing.offcpu");
  fd = open (f.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  reader = sp_offcpu_reader_open_follow (f.path, &err);
  g_assert_nonnull (reader);
  for (gsize i = 0; i < len; i++)
    {
      size_t n;

      g_assert_cmpint (write (fd, bytes + i, 1), ==, 1);
      g_assert_true (sp_offcpu_reader_update (reader, &err));
      n = sp_offcpu_reader_get_n_records (reader);
      g_assert_cmpuint (n, >=, seen);
      g_assert_cmpuint (n, <=, seen + 1);
      seen = n;
    }
  close (fd);
  g_assert_true (sp_offcpu_reader_finish (reader, &err));
  g_assert_cmpuint (sp_offcpu_reader_get_n_records (reader), ==, 100);
  g_assert_cmpuint (sp_offcpu_reader_get_records (reader)[99].timestamp_ns, ==, 1100 + 49 * 300);
  sp_offcpu_reader_free (reader);
  files_clear (&f);
  files_clear (&whole);
}

/* A cut last record is damage once following ends; the records before it
 * stay. A file that is no stream is refused by its first bytes. */
static void
test_damage (void)
{
  Files f;
  SpSpoolError err;
  SpOffCpuWriter *writer;
  SpOffCpuReader *reader;
  g_autofree char *bytes = NULL;
  gsize len;

  files_init (&f, "cut.offcpu");
  writer = create_writer (f.path);
  g_assert_true (sp_offcpu_writer_write_switch_out (writer, 1000, 1, SP_OFFCPU_BLOCKED, 2, &err));
  g_assert_true (sp_offcpu_writer_write_switch_in (writer, 9000000, 1, &err));
  g_assert_true (sp_offcpu_writer_close (writer, &err));
  g_assert_true (g_file_get_contents (f.path, &bytes, &len, NULL));
  g_assert_true (g_file_set_contents (f.path, bytes, (gssize) len - 1, NULL));
  reader = sp_offcpu_reader_open_follow (f.path, &err);
  g_assert_true (sp_offcpu_reader_update (reader, &err));
  g_assert_false (sp_offcpu_reader_finish (reader, &err));
  g_assert_nonnull (sp_offcpu_reader_get_damage (reader));
  g_test_message ("%s", err.message);
  g_assert_nonnull (strstr (err.message, "incomplete"));
  g_assert_cmpuint (sp_offcpu_reader_get_n_records (reader), ==, 1);
  sp_offcpu_reader_free (reader);

  g_assert_true (g_file_set_contents (f.path, "SPULSE1\0 not an off-CPU stream", 30, NULL));
  reader = sp_offcpu_reader_open_follow (f.path, &err);
  g_assert_false (sp_offcpu_reader_update (reader, &err));
  g_assert_nonnull (strstr (err.message, "SPOFF1"));
  sp_offcpu_reader_free (reader);

  /* A state the format does not have. */
  g_assert_true (g_file_set_contents (f.path, "SPOFF1\0\0\x02\x00\x01\x07\x00", 13, NULL));
  reader = sp_offcpu_reader_open_follow (f.path, &err);
  g_assert_false (sp_offcpu_reader_update (reader, &err));
  g_assert_nonnull (strstr (err.message, "malformed"));
  sp_offcpu_reader_free (reader);
  files_clear (&f);
}

/* A write that fails part way (here the file size limit, as a full disk
 * would: the recorder's companion shares the spool's write and cut-back,
 * codec/sp-fd-write.c) leaves the stream at the last whole record: it
 * reads to the end without damage, with every record the writer flushed. */
static void
test_write_fails_at_record_boundary (void)
{
  Files f;
  SpSpoolError err;
  SpOffCpuWriter *writer;
  SpOffCpuReader *reader;
  struct rlimit saved, limit;
  gboolean ok = TRUE;
  guint written = 0;
  guint64 size;
  GStatBuf st;

  files_init (&f, "full.offcpu");
  writer = create_writer (f.path);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  limit = saved;
  limit.rlim_cur = 10007;  /* inside some record */
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  /* Flushed every few records, so a flush writes several and the cut
   * must go back over whole ones. */
  for (guint i = 0; ok && i < 100000; i++)
    {
      ok = sp_offcpu_writer_write_switch_out (writer, 1000 + 1000 * (guint64) i, 1 + i % 7, SP_OFFCPU_BLOCKED,
                                              100000 + i, &err)
           && sp_offcpu_writer_write_switch_in (writer, 1500 + 1000 * (guint64) i, 1 + i % 7, &err)
           && (i % 5 != 4 || sp_offcpu_writer_flush (writer, &err));
      if (ok && i % 5 == 4)
        written = 2 * (i + 1);
    }
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  g_assert_false (ok);
  size = sp_offcpu_writer_get_flushed_size (writer);
  g_assert_false (sp_offcpu_writer_close (writer, &err));

  g_assert_cmpint (g_stat (f.path, &st), ==, 0);
  g_assert_cmpuint ((guint64) st.st_size, ==, size);
  g_assert_cmpuint (size, <, 10007);
  g_assert_cmpuint (written, >, 0);
  reader = sp_offcpu_reader_open_follow (f.path, &err);
  g_assert_true (sp_offcpu_reader_update (reader, &err));
  g_assert_true (sp_offcpu_reader_finish (reader, &err));
  g_assert_null (sp_offcpu_reader_get_damage (reader));
  g_assert_cmpuint (sp_offcpu_reader_get_n_records (reader), ==, written);
  sp_offcpu_reader_free (reader);
  files_clear (&f);
}

/* Stacks and threads interned without a sample: defined in the spool, no
 * SAMPLE written; a later sample of the same stack names the same ids, and
 * the spool reads whole (unused definitions break no rule). */
static void
test_intern_stack (void)
{
  Files f;
  SpSpoolError err;
  SpSpoolWriter *writer;
  SpSpoolReader *reader;
  SpFrame frames[2] = {
    { 0x2000, 0x2000, SP_SPOOL_NO_ID, SP_FRAME_USER },
    { 0x1000, 0x1000, SP_SPOOL_NO_ID, SP_FRAME_USER },
  };
  uint32_t thread = 99, stack = 99, lone_thread = 99, none = 0, sample_stack = 0;

  files_init (&f, "t.spool");
  writer = sp_spool_writer_create (f.path, 0, 1000, &err);
  g_assert_true (sp_spool_writer_intern_stack (writer, 10, 11, frames, 2, &thread, &stack, &err));
  g_assert_true (sp_spool_writer_intern_stack (writer, 10, 12, NULL, 0, &lone_thread, &none, &err));
  g_assert_cmpuint (none, ==, SP_SPOOL_NO_ID);
  g_assert_cmpuint (lone_thread, !=, thread);
  g_assert_true (sp_spool_writer_write_sample (writer, 5000, 10, 11, frames, 2, &sample_stack, &err));
  g_assert_cmpuint (sample_stack, ==, stack);
  g_assert_true (sp_spool_writer_close (writer, &err));

  reader = sp_spool_reader_open (f.path, &err);
  g_assert_nonnull (reader);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (reader), ==, 1);
  g_assert_cmpuint (sp_spool_reader_get_n_threads (reader), ==, 2);
  g_assert_cmpuint (sp_spool_reader_get_n_stack_nodes (reader), ==, 2);
  g_assert_cmpuint (sp_spool_reader_get_sample_thread (reader, 0), ==, thread);
  sp_spool_reader_free (reader);
  files_clear (&f);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/codec/offcpu/roundtrip", test_roundtrip);
  g_test_add_func ("/codec/offcpu/follow-byte-by-byte", test_follow_byte_by_byte);
  g_test_add_func ("/codec/offcpu/damage", test_damage);
  g_test_add_func ("/codec/offcpu/write-fails-at-record-boundary", test_write_fails_at_record_boundary);
  g_test_add_func ("/codec/offcpu/intern-stack", test_intern_stack);
  return g_test_run ();
}
