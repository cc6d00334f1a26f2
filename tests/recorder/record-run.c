/* SPDX-License-Identifier: GPL-3.0-or-later */
/* record-run.c: spawning, waiting, temporary folders, loading a recording. */
#include "record-run.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- The environment ---------------------------------------------------- */

/* The event the recorder needs: cpu-clock, user space, this process. */
static int
open_cpu_clock (void)
{
  struct perf_event_attr attr;

  memset (&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  attr.sample_freq = 1000;
  attr.freq = 1;
  attr.disabled = 1;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  return (int) syscall (SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

gboolean
sp_test_perf_usable (char **reason)
{
  int fd = open_cpu_clock ();
  const char *ci = g_getenv ("CI");

  if (fd >= 0)
    {
      close (fd);
      return TRUE;
    }
  *reason = g_strdup_printf ("perf_event_open (cpu-clock) failed: %s", g_strerror (errno));
  if (ci != NULL && *ci != '\0' && !g_str_equal (ci, "false") && !g_str_equal (ci, "0"))
    g_error ("%s, but CI is set: the recorder's tests must run in CI", *reason);
  return FALSE;
}

gboolean
sp_test_require_perf (void)
{
  g_autofree char *reason = NULL;

  if (sp_test_perf_usable (&reason))
    return TRUE;
  printf ("1..0 # SKIP %s\n", reason);
  return FALSE;
}

gboolean
sp_test_case_needs_perf (void)
{
  g_autofree char *reason = NULL;

  if (sp_test_perf_usable (&reason))
    return TRUE;
  g_test_skip (reason);
  return FALSE;
}

void
sp_test_assert_contains (const char *text,
                         const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("expected \"%s\" in:\n%s", part, text);
}

int
sp_test_perf_event_paranoid (void)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/sys/kernel/perf_event_paranoid", &text, NULL, NULL))
    return 2;
  return (int) g_ascii_strtoll (text, NULL, 10);
}

char *
sp_test_copy_program (const char *from,
                      const char *dir)
{
  g_autofree char *name = g_path_get_basename (from);
  char *to = g_build_filename (dir, name, NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  gsize len;

  g_file_get_contents (from, &contents, &len, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, contents, (gssize) len, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (to, 0755), ==, 0);
  return to;
}

void
sp_test_add_as_nobody (GPtrArray *argv)
{
  static char *setpriv;
  static const char *const drop[] = { "--reuid=65534", "--regid=65534", "--clear-groups", NULL };

  if (setpriv == NULL)
    setpriv = g_find_program_in_path ("setpriv");
  g_assert_nonnull (setpriv);
  g_ptr_array_add (argv, setpriv);
  for (const char *const *arg = drop; *arg != NULL; arg++)
    g_ptr_array_add (argv, (char *) *arg);
}

const char *
sp_test_recorder (void)
{
  const char *path = g_getenv ("SP_RECORD");

  g_assert_nonnull (path);
  return path;
}

char *
sp_test_workload (const char *name)
{
  g_autofree char *upper = g_ascii_strup (name, -1);
  g_autofree char *variable = g_strconcat ("SP_WORK_", upper, NULL);
  const char *path = g_getenv (variable);
  char *real;

  if (path == NULL)
    g_error ("%s is not set", variable);
  /* The kernel names mappings by their real path. */
  real = realpath (path, NULL);
  g_assert_nonnull (real);
  return real;
}

GStrv
sp_test_argv (const char *first,
              ...)
{
  GPtrArray *args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, g_strdup (arg));
  va_end (ap);
  g_ptr_array_add (args, NULL);
  return (GStrv) g_ptr_array_free (args, FALSE);
}

/* ---- Temporary folders ------------------------------------------------ */

char *
sp_test_make_dir (void)
{
  g_autoptr (GError) error = NULL;
  char *dir = g_dir_make_tmp ("stackpulse-record-test-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

void
sp_test_remove_dir (const char *dir)
{
  GDir *handle = g_dir_open (dir, 0, NULL);
  const char *name;

  if (handle == NULL)
    return;
  while ((name = g_dir_read_name (handle)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
        sp_test_remove_dir (path);
      else
        g_unlink (path);
    }
  g_dir_close (handle);
  g_rmdir (dir);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

char *
sp_test_list_dir (const char *dir)
{
  g_autoptr (GError) error = NULL;
  GDir *handle = g_dir_open (dir, 0, &error);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (handle)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_dir_close (handle);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

/* ---- Programs ------------------------------------------------------------ */

static int
open_output (const char *path)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  if (fd < 0)
    g_error ("cannot create %s: %s", path, g_strerror (errno));
  return fd;
}

SpChild *
sp_child_spawn (const char *dir,
                const char *name,
                const char *const *argv,
                gboolean with_stdin)
{
  g_autoptr (GError) error = NULL;
  SpChild *child = g_new0 (SpChild, 1);
  g_autofree char *out_name = g_strconcat (name, ".out", NULL);
  g_autofree char *err_name = g_strconcat (name, ".err", NULL);
  int out_fd, err_fd;
  GSpawnFlags flags = G_SPAWN_DO_NOT_REAP_CHILD;

  child->out_path = g_build_filename (dir, out_name, NULL);
  child->err_path = g_build_filename (dir, err_name, NULL);
  child->stdin_fd = -1;
  out_fd = open_output (child->out_path);
  err_fd = open_output (child->err_path);
  if (!with_stdin)
    flags |= G_SPAWN_STDIN_FROM_DEV_NULL;
  child->start_us = g_get_monotonic_time ();
  g_spawn_async_with_pipes_and_fds (dir, argv, NULL, flags, NULL, NULL,
                                    -1, out_fd, err_fd, NULL, NULL, 0,
                                    &child->pid, with_stdin ? &child->stdin_fd : NULL,
                                    NULL, NULL, &error);
  g_assert_no_error (error);
  close (out_fd);
  close (err_fd);
  return child;
}

static char *
read_output (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    text = g_strdup ("");
  return text;
}

static void
sp_child_free (SpChild *child)
{
  if (child->stdin_fd >= 0)
    close (child->stdin_fd);
  g_free (child->out_path);
  g_free (child->err_path);
  g_free (child);
}

static SpChildResult *
collect_result (SpChild *child,
                int status)
{
  SpChildResult *result = g_new0 (SpChildResult, 1);

  result->elapsed_s = (g_get_monotonic_time () - child->start_us) / 1e6;
  result->wait_status = status;
  result->exit_code = WIFEXITED (status) ? WEXITSTATUS (status) : -1;
  result->out = read_output (child->out_path);
  result->err = read_output (child->err_path);
  sp_child_free (child);
  return result;
}

SpChildResult *
sp_child_poll (SpChild *child)
{
  gint64 deadline = child->start_us + (gint64) (SP_TEST_DEADLINE_S * G_USEC_PER_SEC);
  int status = 0;
  pid_t pid = waitpid (child->pid, &status, WNOHANG);

  if (pid == child->pid)
    return collect_result (child, status);
  g_assert_cmpint (pid, ==, 0);
  if (g_get_monotonic_time () > deadline)
    {
      g_autofree char *err = read_output (child->err_path);

      kill (child->pid, SIGKILL);
      waitpid (child->pid, &status, 0);
      g_error ("pid %d did not exit within %.0f s; its stderr:\n%s", (int) child->pid,
               SP_TEST_DEADLINE_S, err);
    }
  return NULL;
}

SpChildResult *
sp_child_wait (SpChild *child)
{
  SpChildResult *result;

  while ((result = sp_child_poll (child)) == NULL)
    g_usleep (5000);
  return result;
}

void
sp_child_kill (SpChild *child)
{
  kill (child->pid, SIGKILL);
  waitpid (child->pid, NULL, 0);
  sp_child_free (child);
}

SpChildResult *
sp_test_run (const char *dir,
             const char *name,
             const char *const *argv)
{
  return sp_child_wait (sp_child_spawn (dir, name, argv, FALSE));
}

void
sp_test_folder_set_up (SpTestFolder *f,
                       gconstpointer data)
{
  f->dir = sp_test_make_dir ();
  f->rec = g_build_filename (f->dir, "rec", NULL);
  g_assert_cmpint (g_mkdir (f->rec, 0755), ==, 0);
  f->spool = g_build_filename (f->rec, "out.spool", NULL);
  f->meta = g_strconcat (f->spool, ".meta", NULL);
}

void
sp_test_folder_tear_down (SpTestFolder *f,
                          gconstpointer data)
{
  sp_test_remove_dir (f->dir);
  g_free (f->dir);
  g_free (f->rec);
  g_free (f->spool);
  g_free (f->meta);
}

SpChildResult *
sp_test_run_recorder (const char *dir,
                      const char *const *argv)
{
  SpChildResult *result = sp_test_run (dir, "record", argv);

  g_test_message ("exit status %d, stderr:\n%s", result->exit_code, result->err);
  return result;
}

void
sp_child_result_free (SpChildResult *result)
{
  g_free (result->out);
  g_free (result->err);
  g_free (result);
}

char *
sp_test_wait_for_file (SpChild *child,
                       const char *path)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (SP_TEST_DEADLINE_S * G_USEC_PER_SEC);
  char *text = NULL;

  while (!g_file_get_contents (path, &text, NULL, NULL))
    {
      int status;

      if (waitpid (child->pid, &status, WNOHANG) == child->pid)
        {
          g_autofree char *err = read_output (child->err_path);

          g_error ("pid %d exited (status 0x%x) before %s appeared; its stderr:\n%s",
                   (int) child->pid, (unsigned) status, path, err);
        }
      if (g_get_monotonic_time () > deadline)
        g_error ("%s did not appear within %.0f s", path, SP_TEST_DEADLINE_S);
      g_usleep (5000);
    }
  return text;
}

/* ---- A recording ------------------------------------------------------- */

SpTestRecording *
sp_test_recording_new (char *dir,
                       SpChildResult *result)
{
  SpTestRecording *rec = g_new0 (SpTestRecording, 1);

  rec->dir = dir;
  rec->spool = g_build_filename (dir, "out.spool", NULL);
  rec->meta_path = g_strconcat (rec->spool, ".meta", NULL);
  rec->result = result;
  return rec;
}

SpTestRecording *
sp_test_record (const char *const *options,
                const char *const *command)
{
  char *dir = sp_test_make_dir ();
  g_autofree char *spool = g_build_filename (dir, "out.spool", NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) sp_test_recorder ());
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, spool);
  g_ptr_array_add (argv, "-F");
  g_ptr_array_add (argv, "1000");
  for (const char *const *o = options; o != NULL && *o != NULL; o++)
    g_ptr_array_add (argv, (char *) *o);
  if (command != NULL)
    {
      g_ptr_array_add (argv, "--");
      for (const char *const *c = command; *c != NULL; c++)
        g_ptr_array_add (argv, (char *) *c);
    }
  g_ptr_array_add (argv, NULL);
  return sp_test_recording_new (dir, sp_test_run (dir, "record", (const char *const *) argv->pdata));
}

void
sp_test_recording_load (SpTestRecording *rec)
{
  g_autoptr (GError) error = NULL;
  SpSpoolError err;

  rec->reader = sp_spool_reader_open (rec->spool, &err);
  if (rec->reader == NULL)
    g_error ("%s is not a valid spool: %s (at byte %" G_GUINT64_FORMAT ")\nrecorder's stderr:\n%s",
             rec->spool, err.message, (guint64) err.offset, rec->result->err);
  rec->meta = g_key_file_new ();
  if (!g_key_file_load_from_file (rec->meta, rec->meta_path, G_KEY_FILE_NONE, &error))
    g_error ("%s does not load as a key file: %s\nrecorder's stderr:\n%s",
             rec->meta_path, error->message, rec->result->err);
}

guint64
sp_test_meta_u64 (SpTestRecording *rec,
                  const char *group,
                  const char *key)
{
  g_autoptr (GError) error = NULL;
  guint64 value = g_key_file_get_uint64 (rec->meta, group, key, &error);

  g_assert_no_error (error);
  return value;
}

void
sp_test_cpu_in_window (const guint64 *times,
                       const guint64 *cpu,
                       gsize stride,
                       guint n,
                       guint64 start,
                       guint64 end,
                       guint64 *low,
                       guint64 *high)
{
  guint before_start = 0, after_start = n - 1, before_end = 0, after_end = n - 1;

  for (guint p = 0; p < n; p++)
    {
      if (times[p * stride] <= start)
        before_start = p;
      if (times[p * stride] <= end)
        before_end = p;
    }
  for (guint p = n; p-- > 0;)
    {
      if (times[p * stride] >= start)
        after_start = p;
      if (times[p * stride] >= end)
        after_end = p;
    }
  g_assert_cmpuint (times[0], <=, start);
  g_assert_cmpuint (times[(n - 1) * stride], >=, end);
  *high = cpu[after_end * stride] - cpu[before_start * stride];
  *low = cpu[before_end * stride] >= cpu[after_start * stride] ? cpu[before_end * stride] - cpu[after_start * stride]
                                                                 : 0;
}

void
sp_test_assert_meta_int (SpTestRecording *rec,
                         const char *group,
                         const char *key,
                         gint64 expected)
{
  g_autoptr (GError) error = NULL;
  gint64 value = g_key_file_get_int64 (rec->meta, group, key, &error);

  g_assert_no_error (error);
  g_assert_cmpint (value, ==, expected);
}

void
sp_test_assert_meta_string (SpTestRecording *rec,
                            const char *group,
                            const char *key,
                            const char *expected)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *value = g_key_file_get_string (rec->meta, group, key, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (value, ==, expected);
}

void
sp_test_assert_recorded (const SpTestRecording *rec,
                         const char *what)
{
  if (rec->result->exit_code != 0)
    g_error ("%s: stackpulse-record exited with %d:\n%s", what, rec->result->exit_code, rec->result->err);
}

void
sp_test_recording_free (SpTestRecording *rec)
{
  if (rec->reader != NULL)
    sp_spool_reader_free (rec->reader);
  if (rec->meta != NULL)
    g_key_file_free (rec->meta);
  if (rec->result != NULL)
    sp_child_result_free (rec->result);
  sp_test_remove_dir (rec->dir);
  g_free (rec->dir);
  g_free (rec->spool);
  g_free (rec->meta_path);
  g_free (rec);
}

int
sp_test_status_code (int wait_status)
{
  if (WIFEXITED (wait_status))
    return WEXITSTATUS (wait_status);
  if (WIFSIGNALED (wait_status))
    return 128 + WTERMSIG (wait_status);
  return -1;
}
