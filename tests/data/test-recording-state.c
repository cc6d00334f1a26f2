/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-recording-state.c: the rule that tells a complete recording from one
 * in progress or interrupted (data/sp-recording-state.c), on side files
 * written here next to an empty spool. The recordings a real recorder
 * leaves are checked by tests/report/test-report-state.c and
 * tests/app/test-window-live.c; here, what those cannot make happen: a
 * recorder pid that another program now has, another host, no `complete`. */
#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <utime.h>

#include "sp-recording-state.h"

typedef struct {
  char *dir;
  char *spool;
  char *meta_path;
} Files;

static void
files_init (Files *f)
{
  g_autoptr (GError) error = NULL;

  f->dir = g_dir_make_tmp ("stackpulse-state-XXXXXX", &error);
  g_assert_no_error (error);
  f->spool = g_build_filename (f->dir, "out.spool", NULL);
  f->meta_path = g_strconcat (f->spool, ".meta", NULL);
  g_assert_true (g_file_set_contents (f->spool, "", 0, NULL));
}

static void
files_clear (Files *f)
{
  g_unlink (f->spool);
  g_unlink (f->meta_path);
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f->spool);
  g_free (f->meta_path);
}

/* The state of a side file with these [recording] lines. */
static SpRecordingState
state_of (Files *f,
          const char *recording)
{
  g_autofree char *text = g_strdup_printf ("[recording]\nformat=1\n%s", recording);
  g_autoptr (GKeyFile) meta = g_key_file_new ();

  g_assert_true (g_file_set_contents (f->meta_path, text, -1, NULL));
  g_assert_true (g_key_file_load_from_data (meta, text, -1, G_KEY_FILE_NONE, NULL));
  return sp_recording_state_get (f->spool, meta);
}

static void
make_old (Files *f)
{
  struct utimbuf when;

  when.actime = when.modtime = (time_t) (g_get_real_time () / G_USEC_PER_SEC - 60);
  g_assert_cmpint (g_utime (f->spool, &when), ==, 0);
  g_assert_cmpint (g_utime (f->meta_path, &when), ==, 0);
}

static void
test_complete_and_unknown (void)
{
  Files f;

  files_init (&f);
  g_assert_cmpint (state_of (&f, "complete=true\n"), ==, SP_RECORDING_STATE_COMPLETE);
  g_assert_cmpint (state_of (&f, "samples=3\n"), ==, SP_RECORDING_STATE_UNKNOWN);
  g_assert_cmpint (sp_recording_state_get (f.spool, NULL), ==, SP_RECORDING_STATE_UNKNOWN);
  files_clear (&f);
}

/* The recorder_pid on this host is a live process that is not a recorder
 * (this test): the pid was reused, the recorder is gone. */
static void
test_reused_pid (void)
{
  char host[256] = "";
  g_autofree char *lines = NULL;
  Files f;

  files_init (&f);
  g_assert_cmpint (gethostname (host, sizeof host - 1), ==, 0);
  lines = g_strdup_printf ("complete=false\nhostname=%s\nrecorder_pid=%d\n", host, (int) getpid ());
  g_assert_cmpint (state_of (&f, lines), ==, SP_RECORDING_STATE_INTERRUPTED);
  files_clear (&f);
}

/* Recorded elsewhere: this host's processes say nothing; the files' age
 * does. */
static void
test_other_host (void)
{
  g_autofree char *lines = g_strdup_printf ("complete=false\nhostname=not-%s\nrecorder_pid=%d\n",
                                            g_get_host_name (), (int) getpid ());
  Files f;

  files_init (&f);
  g_assert_cmpint (state_of (&f, lines), ==, SP_RECORDING_STATE_IN_PROGRESS);
  make_old (&f);
  g_assert_cmpint (sp_recording_state_get (f.spool, NULL), ==, SP_RECORDING_STATE_UNKNOWN);
  {
    g_autoptr (GKeyFile) meta = g_key_file_new ();

    g_assert_true (g_key_file_load_from_file (meta, f.meta_path, G_KEY_FILE_NONE, NULL));
    g_assert_cmpint (sp_recording_state_get (f.spool, meta), ==, SP_RECORDING_STATE_INTERRUPTED);
  }
  files_clear (&f);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/recording-state/complete-and-unknown", test_complete_and_unknown);
  g_test_add_func ("/data/recording-state/reused-pid", test_reused_pid);
  g_test_add_func ("/data/recording-state/other-host", test_other_host);
  return g_test_run ();
}
