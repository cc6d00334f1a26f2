/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-errors.c: stackpulse-record on bad input.
 *
 * Each case says what must happen, as the recorder's help and header
 * promise: a command that cannot run exits 127 with a message and leaves
 * no spool behind; a pid that does not exist is refused with a message; an
 * output that cannot be written is refused before the target starts (the
 * target would create a marker file); a bad command line prints the usage
 * on stderr and exits 2. The recording goes into its own folder, rec/, so
 * "nothing left behind" means that folder is empty. */
#include <errno.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record-run.h"

#define EXIT_USAGE     2
#define EXIT_NOT_FOUND 127

/* The case's folders (record-run.h). */
typedef SpTestFolder Fixture;

static void
assert_nothing_left (Fixture *f)
{
  g_autofree char *left = sp_test_list_dir (f->rec);

  g_assert_cmpstr (left, ==, "");
}

static void
test_command_not_found (Fixture *f,
                        gconstpointer data)
{
  g_auto (GStrv) argv = NULL;
  g_autoptr (SpChildResult) result = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--", "sp-no-such-command-4711", NULL);
  result = sp_test_run_recorder (f->dir, (const char *const *) argv);
  g_assert_cmpint (result->exit_code, ==, EXIT_NOT_FOUND);
  sp_test_assert_contains (result->err, "sp-no-such-command-4711");
  sp_test_assert_contains (result->err, g_strerror (ENOENT));
  assert_nothing_left (f);
}

static void
test_command_not_executable (Fixture *f,
                             gconstpointer data)
{
  g_autofree char *script = g_build_filename (f->dir, "not-executable", NULL);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) argv = NULL;
  g_autoptr (SpChildResult) result = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  g_file_set_contents (script, "#!/bin/sh\nexit 0\n", -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (script, 0644), ==, 0);
  argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--", script, NULL);
  result = sp_test_run_recorder (f->dir, (const char *const *) argv);
  g_assert_cmpint (result->exit_code, ==, EXIT_NOT_FOUND);
  sp_test_assert_contains (result->err, script);
  sp_test_assert_contains (result->err, g_strerror (EACCES));
  assert_nothing_left (f);
}

/* A pid above every running one; pid_max - 1 is almost always free. */
static pid_t
unused_pid (void)
{
  g_autofree char *text = NULL;
  pid_t pid;

  g_assert_true (g_file_get_contents ("/proc/sys/kernel/pid_max", &text, NULL, NULL));
  for (pid = (pid_t) g_ascii_strtoll (text, NULL, 10) - 1; pid > 1; pid--)
    if (kill (pid, 0) != 0 && errno == ESRCH)
      return pid;
  g_error ("no unused pid");
  return -1;
}

static void
test_no_such_pid (Fixture *f,
                  gconstpointer data)
{
  g_autofree char *pid = g_strdup_printf ("%d", (int) unused_pid ());
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "-p", pid, "--duration", "1", NULL);
  g_autoptr (SpChildResult) result = sp_test_run_recorder (f->dir, (const char *const *) argv);

  g_assert_true (WIFEXITED (result->wait_status));
  g_assert_cmpint (result->exit_code, !=, 0);
  sp_test_assert_contains (result->err, pid);
  assert_nothing_left (f);
}

/* The target would write dir/marker as soon as its threads run. */
static void
assert_output_refused (Fixture *f,
                       const char *output)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *marker = g_build_filename (f->dir, "marker", NULL);
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", output, "--",
                                      workload, "--ready", marker, "0.1", NULL);
  g_autoptr (SpChildResult) result = sp_test_run_recorder (f->dir, (const char *const *) argv);

  g_assert_true (WIFEXITED (result->wait_status));
  g_assert_cmpint (result->exit_code, !=, 0);
  sp_test_assert_contains (result->err, output);
  /* Had it started, the target would have written the marker by now. */
  g_usleep (300 * 1000);
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
}

static void
test_output_in_missing_folder (Fixture *f,
                               gconstpointer data)
{
  g_autofree char *output = g_build_filename (f->dir, "missing", "out.spool", NULL);

  assert_output_refused (f, output);
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
}

static void
test_output_is_folder (Fixture *f,
                       gconstpointer data)
{
  assert_output_refused (f, f->rec);
  assert_nothing_left (f);
}

static void
assert_usage (Fixture *f,
              const char *const *argv)
{
  g_autoptr (SpChildResult) result = sp_test_run_recorder (f->dir, argv);

  g_assert_cmpint (result->exit_code, ==, EXIT_USAGE);
  sp_test_assert_contains (result->err, "Usage: stackpulse-record");
  g_assert_cmpstr (result->out, ==, "");
  assert_nothing_left (f);
}

static void
test_unknown_option (Fixture *f,
                     gconstpointer data)
{
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "--no-such-option", "-o", f->spool, "--", "true", NULL);

  assert_usage (f, (const char *const *) argv);
}

static void
test_no_command (Fixture *f,
                 gconstpointer data)
{
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, NULL);

  assert_usage (f, (const char *const *) argv);
}

static void
test_pid_and_command (Fixture *f,
                      gconstpointer data)
{
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "-p", "1", "--", "true", NULL);

  assert_usage (f, (const char *const *) argv);
}

/* --env and --directory are for a launched command: with -p they are a
 * mistake, said before anything is attached. */
static void
test_env_with_pid (Fixture *f,
                   gconstpointer data)
{
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--env", "A=b", "-p", "1", NULL);
  g_autoptr (SpChildResult) result = sp_test_run_recorder (f->dir, (const char *const *) argv);

  g_assert_cmpint (result->exit_code, ==, EXIT_USAGE);
  sp_test_assert_contains (result->err, "apply to a launched command");
  assert_nothing_left (f);
}

static void
test_env_without_value (Fixture *f,
                        gconstpointer data)
{
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--env", "NOEQUALS", "--", "true", NULL);
  g_autoptr (SpChildResult) result = sp_test_run_recorder (f->dir, (const char *const *) argv);

  g_assert_cmpint (result->exit_code, ==, EXIT_USAGE);
  sp_test_assert_contains (result->err, "--env takes KEY=VALUE");
  assert_nothing_left (f);
}

/* A folder that does not exist: the command cannot run there, and the
 * message names the folder rather than the command. */
static void
test_missing_directory (Fixture *f,
                        gconstpointer data)
{
  g_autofree char *marker = g_build_filename (f->dir, "ran", NULL);
  g_autofree char *missing = g_build_filename (f->dir, "no-such-folder", NULL);
  g_autofree char *touch = g_strdup_printf ("touch '%s'", marker);
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--directory", missing, "--",
                                      "/bin/sh", "-c", touch, NULL);
  g_autoptr (SpChildResult) result = sp_test_run_recorder (f->dir, (const char *const *) argv);

  g_assert_cmpint (result->exit_code, ==, EXIT_NOT_FOUND);
  sp_test_assert_contains (result->err, "no-such-folder");
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  assert_nothing_left (f);
}

/* Every numeric option out of its range, or not a number: refused with
 * a message naming the option and the value, exit 2, before the command
 * runs. 1e11 and inf seconds once stopped the recording at once (their
 * nanoseconds overflowed); -p 1,1 sampled pid 1 twice. */
static const struct {
  const char *option;
  const char *value;
} bad_numbers[] = {
  { "-F", "0" }, { "-F", "-5" }, { "-F", "100001" }, { "-F", "1e3" },
  { "--duration", "1e11" }, { "--duration", "inf" }, { "--duration", "nan" }, { "--duration", "0" },
  { "--duration", "-2" }, { "--duration", "3s" },
  { "--stack-size", "63" }, { "--stack-size", "99999999999999999999" }, { "--stack-size", "-64" },
  { "--progress-fd", "-1" }, { "--progress-fd", "999" }, { "--progress-fd", "x" },
  { "-p", "0" }, { "-p", "-3" }, { "-p", "1,1" }, { "-p", "2147483648" },
};

static void
test_bad_numbers (Fixture *f,
                  gconstpointer data)
{
  g_autofree char *marker = g_build_filename (f->dir, "ran", NULL);
  g_autofree char *touch = g_strdup_printf ("touch '%s'", marker);

  for (guint i = 0; i < G_N_ELEMENTS (bad_numbers); i++)
    {
      const char *option = bad_numbers[i].option;
      const char *value = bad_numbers[i].value;
      gboolean attach = g_str_equal (option, "-p");
      g_auto (GStrv) argv = attach ? sp_test_argv (sp_test_recorder (), "-o", f->spool, option, value, NULL)
                                   : sp_test_argv (sp_test_recorder (), "-o", f->spool, option, value, "--",
                                                   "/bin/sh", "-c", touch, NULL);
      g_autoptr (SpChildResult) result = sp_test_run_recorder (f->dir, (const char *const *) argv);

      g_test_message ("%s %s", option, value);
      g_assert_cmpint (result->exit_code, ==, EXIT_USAGE);
      sp_test_assert_contains (result->err, option);
      if (!g_str_equal (value, "1,1"))
        sp_test_assert_contains (result->err, value);
      else
        sp_test_assert_contains (result->err, "pid 1 is given twice");
      g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
      assert_nothing_left (f);
    }
}

/* The largest values each option takes still record. */
static void
test_largest_numbers (Fixture *f,
                      gconstpointer data)
{
  g_auto (GStrv) argv = NULL;
  g_autoptr (SpChildResult) result = NULL;

  if (!sp_test_case_needs_perf ())
    return;
  argv = sp_test_argv (sp_test_recorder (), "-o", f->spool, "--duration", "1e9", "--stack-size", "63488",
                       "--", "true", NULL);
  result = sp_test_run_recorder (f->dir, (const char *const *) argv);
  g_assert_cmpint (result->exit_code, ==, 0);
  g_assert_true (g_file_test (f->spool, G_FILE_TEST_IS_REGULAR));
}

#define ADD(path, func) \
  g_test_add (path, Fixture, NULL, sp_test_folder_set_up, func, sp_test_folder_tear_down)

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  ADD ("/recorder/errors/command-not-found", test_command_not_found);
  ADD ("/recorder/errors/command-not-executable", test_command_not_executable);
  ADD ("/recorder/errors/no-such-pid", test_no_such_pid);
  ADD ("/recorder/errors/output-in-missing-folder", test_output_in_missing_folder);
  ADD ("/recorder/errors/output-is-folder", test_output_is_folder);
  ADD ("/recorder/errors/unknown-option", test_unknown_option);
  ADD ("/recorder/errors/no-command", test_no_command);
  ADD ("/recorder/errors/pid-and-command", test_pid_and_command);
  ADD ("/recorder/errors/env-with-pid", test_env_with_pid);
  ADD ("/recorder/errors/env-without-value", test_env_without_value);
  ADD ("/recorder/errors/missing-directory", test_missing_directory);
  ADD ("/recorder/errors/bad-numbers", test_bad_numbers);
  ADD ("/recorder/errors/largest-numbers", test_largest_numbers);
  return g_test_run ();
}
