/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-recording-callchain.c: a frame-pointer callchain into frames
 * (recorder internals: no perf needed).
 *
 * The kernel's frame-pointer walk of code without frame pointers can go
 * into a loop through a word that is no frame pointer, and repeat one
 * address outside every module to the chain's limit (a try-out saw 127 of
 * them under clone3). Such a chain is cut there, with the truncated
 * marker; a recursion's repeated return address, in its module, is kept. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "sp-recording.h"
#include "sp-spool-writer.h"

#define PID  200
#define TEXT G_GUINT64_CONSTANT (0x400000)
#define HEAP G_GUINT64_CONSTANT (0x55c98b4212b0)

typedef struct {
  char          *dir;
  SpSpoolWriter *writer;
  SpRecording    rec;
} Fixture;

static void
fixture_set_up (Fixture *f,
                gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *spool = NULL;
  SpSpoolError err;
  static const char path[] = "/usr/bin/true";

  (void) data;
  f->dir = g_dir_make_tmp ("stackpulse-callchain-XXXXXX", &error);
  g_assert_no_error (error);
  spool = g_build_filename (f->dir, "out.spool", NULL);
  f->writer = sp_spool_writer_create (spool, 0, 1000, &err);
  g_assert_nonnull (f->writer);
  g_assert_true (sp_recording_init (&f->rec, f->writer, 127));
  f->rec.layout.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;
  g_assert_nonnull (sp_recording_thread (&f->rec, PID, PID));
  g_assert_true (sp_recording_add_mapping (&f->rec, &(SpModule) { TEXT, TEXT + 0x10000, 0, 1, path, strlen (path),
                                                                  PID, false }));
}

static void
fixture_tear_down (Fixture *f,
                   gconstpointer data)
{
  SpSpoolError err;
  g_autofree char *spool = g_build_filename (f->dir, "out.spool", NULL);

  (void) data;
  sp_recording_clear (&f->rec);
  g_assert_true (sp_spool_writer_close (f->writer, &err));
  g_unlink (spool);
  g_rmdir (f->dir);
  g_free (f->dir);
}

/* The frames of a user callchain (leaf first) of n addresses. */
static size_t
frames_of (Fixture *f,
           const guint64 *ips,
           guint n)
{
  struct {
    struct perf_event_header header;
    uint32_t                 pid, tid;
    uint64_t                 time;
    uint64_t                 nr;
    uint64_t                 chain[130];
  } sample = { { PERF_RECORD_SAMPLE, 0, 0 }, PID, PID, 1000, n + 1, { 0 } };
  SpPerfSample parsed;
  size_t n_frames = 0;
  bool dropped = false;

  g_assert_cmpuint (n + 1, <=, G_N_ELEMENTS (sample.chain));
  sample.chain[0] = (uint64_t) PERF_CONTEXT_USER;
  memcpy (sample.chain + 1, ips, n * sizeof *ips);
  sample.header.size = (uint16_t) ((size_t) ((char *) sample.chain - (char *) &sample) + (n + 1) * 8);
  g_assert_true (sp_recording_sample_frames (&f->rec, &sample.header, 1000, false, &parsed, &n_frames, &dropped));
  g_assert_false (dropped);
  return n_frames;
}

static void
test_garbage_loop_cut (Fixture *f,
                       gconstpointer data)
{
  guint64 ips[100];
  size_t n;

  (void) data;
  ips[0] = TEXT + 0x1234;  /* the leaf, in the program */
  ips[1] = TEXT + 0x2000;
  for (guint i = 2; i < G_N_ELEMENTS (ips); i++)
    ips[i] = HEAP;
  n = frames_of (f, ips, G_N_ELEMENTS (ips));
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (f->rec.frames[2].abs_ip, ==, HEAP);
  g_assert_cmpint (f->rec.frames[3].mode, ==, sp_frame_truncated_marker ().mode);
  g_assert_cmpuint (f->rec.n_truncated, ==, 1);
}

static void
test_recursion_kept (Fixture *f,
                     gconstpointer data)
{
  guint64 ips[60];

  (void) data;
  ips[0] = TEXT + 0x1234;
  for (guint i = 1; i < G_N_ELEMENTS (ips); i++)
    ips[i] = TEXT + 0x1240;  /* fib calling itself from one place */
  g_assert_cmpuint (frames_of (f, ips, G_N_ELEMENTS (ips)), ==, G_N_ELEMENTS (ips));
  g_assert_cmpuint (f->rec.n_truncated, ==, 0);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/recorder/callchain/garbage-loop-cut", Fixture, NULL, fixture_set_up, test_garbage_loop_cut,
              fixture_tear_down);
  g_test_add ("/recorder/callchain/recursion-kept", Fixture, NULL, fixture_set_up, test_recursion_kept,
              fixture_tear_down);
  return g_test_run ();
}
