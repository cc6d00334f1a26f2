/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-control.c: ending a launched recording from outside.
 *
 * A launch of a 30 s workload ends early on SIGINT to the recorder, or,
 * with --control-stdin, on a "stop" line or the end of input on stdin.
 * The target must be gone, promptly (not after the recorder's SIGKILL
 * grace period), when the recorder exits with the target's fate as its
 * status, and the spool and side file must be complete. A Ctrl-C typed on
 * the recorder's terminal reaches the target once, however the
 * recorder's stdin is redirected. */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record-run.h"
#include "record-stacks.h"

/* The recorder SIGKILLs a target that ignores it for 3 s; a target that
 * obeyed ends well before. */
#define PROMPT_EXIT_S 2.5

typedef struct {
  SpChild *recorder;
  char    *dir;
  gint32   target;
} Launch;

/* Launches sp-work-threads for 30 s under the recorder (with option, if
 * not NULL) and waits until its threads run. */
static Launch
start_long_launch (const char *option,
                   gboolean with_stdin)
{
  g_autofree char *workload = sp_test_workload ("threads");
  Launch launch = { NULL, sp_test_make_dir (), 0 };
  g_autofree char *ready_path = g_build_filename (launch.dir, "ready", NULL);
  g_autofree char *ready = NULL;
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  const char *const rest[] = { "--", workload, "--ready", ready_path, "30", NULL };

  g_ptr_array_add (argv, (char *) sp_test_recorder ());
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, "out.spool");
  if (option != NULL)
    g_ptr_array_add (argv, (char *) option);
  for (const char *const *arg = rest; *arg != NULL; arg++)
    g_ptr_array_add (argv, (char *) *arg);
  g_ptr_array_add (argv, NULL);
  launch.recorder = sp_child_spawn (launch.dir, "record", (const char *const *) argv->pdata, with_stdin);
  ready = sp_test_wait_for_file (launch.recorder, ready_path);
  launch.target = sp_test_ready_id (ready, "main");
  return launch;
}

/* Waits for the recorder after it was told to stop, and checks it ended
 * the target promptly and left a complete recording. */
static SpTestRecording *
finish_launch (Launch *launch,
               int expected_status)
{
  gint64 told = g_get_monotonic_time ();
  SpChildResult *result = sp_child_wait (launch->recorder);
  double after_s = (g_get_monotonic_time () - told) / 1e6;
  SpTestRecording *rec = sp_test_recording_new (launch->dir, result);

  g_test_message ("recorder's stderr:\n%s", result->err);
  g_test_message ("the recorder exited %.2f s after being told to stop", after_s);
  g_assert_true (WIFEXITED (result->wait_status));
  g_assert_cmpint (result->exit_code, ==, expected_status);
  g_assert_cmpfloat (after_s, <, PROMPT_EXIT_S);
  /* Reaped by the recorder, so gone. */
  g_assert_cmpint (kill (launch->target, 0), ==, -1);
  g_assert_cmpint (errno, ==, ESRCH);

  sp_test_recording_load (rec);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (rec->reader), >, 0);
  sp_test_assert_meta_string (rec, "recording", "complete", "true");
  sp_test_assert_meta_int (rec, "recording", "exit_status", expected_status);
  sp_test_assert_meta_int (rec, "recording", "samples", (gint64) sp_spool_reader_get_n_samples (rec->reader));
  return rec;
}

/* SIGINT to the recorder (not on a terminal, so the target did not get it
 * too): the recorder passes it on, and the target dies of it. */
static void
test_sigint (void)
{
  Launch launch = start_long_launch (NULL, FALSE);
  g_autoptr (SpTestRecording) rec = NULL;

  g_assert_cmpint (kill (launch.recorder->pid, SIGINT), ==, 0);
  rec = finish_launch (&launch, 128 + SIGINT);
}

/* Reads what the recorder wrote to its terminal (its progress line), so
 * that it never blocks on a full pty, until pid exits or timeout_s pass;
 * returns its wait status, or -1 on timeout. */
static int
drain_pty_until_exit (int master,
                      pid_t pid,
                      double timeout_s,
                      GString *out)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);
  int status;

  while (g_get_monotonic_time () < deadline)
    {
      struct pollfd pfd = { master, POLLIN, 0 };
      char buf[512];

      if (waitpid (pid, &status, WNOHANG) == pid)
        return status;
      if (poll (&pfd, 1, 50) > 0)
        {
          ssize_t n = read (master, buf, sizeof buf);

          if (n > 0)
            g_string_append_len (out, buf, n);
        }
    }
  return -1;
}

/* Ctrl-C typed on the terminal of `stackpulse-record ... < /dev/null`:
 * the kernel sends SIGINT to the terminal's foreground group, the
 * launched command included, so the recorder must not pass a second one
 * on (it did when its stdin was not the terminal: the command got two). */
static void
test_terminal_ctrl_c (void)
{
  g_autofree char *workload = sp_test_workload ("sigint");
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *ready = g_build_filename (dir, "ready", NULL);
  g_autofree char *counted = g_build_filename (dir, "sigints", NULL);
  g_autofree char *spool = g_build_filename (dir, "out.spool", NULL);
  g_autofree char *count = NULL;
  g_autoptr (GString) out = g_string_new (NULL);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;
  int master = posix_openpt (O_RDWR | O_NOCTTY | O_CLOEXEC);
  const char *slave;
  pid_t pid;
  int status;

  g_assert_cmpint (master, >=, 0);
  g_assert_cmpint (grantpt (master), ==, 0);
  g_assert_cmpint (unlockpt (master), ==, 0);
  slave = ptsname (master);
  g_assert_nonnull (slave);
  pid = fork ();
  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    {
      /* A session of its own whose controlling terminal is the pty (the
       * first terminal a session leader opens), stdin from /dev/null. */
      int tty, null;

      setsid ();
      tty = open (slave, O_RDWR);
      null = open ("/dev/null", O_RDONLY);
      if (tty < 0 || null < 0 || dup2 (null, 0) < 0 || dup2 (tty, 1) < 0 || dup2 (tty, 2) < 0)
        _exit (126);
      execl (sp_test_recorder (), sp_test_recorder (), "-o", spool, "--", workload, "--ready", ready, "20", counted,
             (char *) NULL);
      _exit (127);
    }
  while (!g_file_test (ready, G_FILE_TEST_EXISTS) && g_get_monotonic_time () < deadline)
    g_assert_cmpint (drain_pty_until_exit (master, pid, 0.05, out), ==, -1);
  g_assert_true (g_file_test (ready, G_FILE_TEST_EXISTS));
  /* ^C, as a person types it: the line discipline makes it a SIGINT. */
  g_assert_cmpint (write (master, "\x03", 1), ==, 1);
  status = drain_pty_until_exit (master, pid, 20, out);
  close (master);
  g_test_message ("the recorder's terminal:\n%s", out->str);
  if (status == -1)
    {
      kill (pid, SIGKILL);
      waitpid (pid, NULL, 0);
      g_error ("the recorder did not exit after Ctrl-C");
    }
  /* The command ended well a second after its first SIGINT. */
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_true (g_file_get_contents (counted, &count, NULL, NULL));
  g_assert_cmpstr (count, ==, "sigints 1\n");
  g_assert_true (g_file_test (spool, G_FILE_TEST_IS_REGULAR));
}

/* A "stop" line on stdin with --control-stdin ends a 30 s target. */
static void
test_control_stdin_stop (void)
{
  Launch launch = start_long_launch ("--control-stdin", TRUE);
  g_autoptr (SpTestRecording) rec = NULL;

  g_assert_cmpint (write (launch.recorder->stdin_fd, "stop\n", 5), ==, 5);
  rec = finish_launch (&launch, 128 + SIGTERM);
}

/* The end of input on stdin counts as "stop" too. */
static void
test_control_stdin_eof (void)
{
  Launch launch = start_long_launch ("--control-stdin", TRUE);
  g_autoptr (SpTestRecording) rec = NULL;

  g_assert_cmpint (close (launch.recorder->stdin_fd), ==, 0);
  launch.recorder->stdin_fd = -1;
  rec = finish_launch (&launch, 128 + SIGTERM);
}

/* Whether pid is gone, or a zombie its new parent has not reaped yet. */
static gboolean
process_ended (gint32 pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", (int) pid);
  g_autofree char *stat = NULL;
  const char *paren;

  if (!g_file_get_contents (path, &stat, NULL, NULL))
    return TRUE;
  paren = strrchr (stat, ')');
  return paren != NULL && paren[1] == ' ' && paren[2] == 'Z';
}

/* A stop while the command has exited and the worker it left runs (sh
 * -c 'W 30 & exit 5'), by a "stop" line (by_duration FALSE) or by
 * --duration: the worker is stopped too, its samples are in the spool,
 * and the status is the shell's. */
static void
stop_outliving_worker (gboolean by_duration)
{
  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *ready_path = g_build_filename (dir, "ready", NULL);
  g_autofree char *script = g_strdup_printf ("'%s' --ready '%s' 30 & exit 5", workload, ready_path);
  g_auto (GStrv) argv = by_duration
    ? sp_test_argv (sp_test_recorder (), "-o", "out.spool", "--duration", "1", "--", "/bin/sh", "-c", script, NULL)
    : sp_test_argv (sp_test_recorder (), "-o", "out.spool", "--control-stdin", "--", "/bin/sh", "-c", script, NULL);
  SpChild *recorder = sp_child_spawn (dir, "record", (const char *const *) argv, !by_duration);
  g_autofree char *ready = sp_test_wait_for_file (recorder, ready_path);
  gint32 worker = sp_test_ready_id (ready, "main");
  g_autoptr (SpTestRecording) rec = NULL;

  if (!by_duration)
    {
      /* A recorder that ended with the shell closed its stdin: EPIPE. */
      signal (SIGPIPE, SIG_IGN);
      g_assert_cmpint (write (recorder->stdin_fd, "stop\n", 5), ==, 5);
    }
  rec = sp_test_recording_new (g_steal_pointer (&dir), sp_child_wait (recorder));
  g_test_message ("recorder's stderr:\n%s", rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 5);
  g_assert_true (process_ended (worker));
  sp_test_recording_load (rec);
  g_assert_cmpuint (sp_test_count_samples (rec->reader, worker, (guint64) worker), >, 0);
  sp_test_assert_meta_string (rec, "recording", "complete", "true");
  sp_test_assert_meta_int (rec, "recording", "exit_status", 5);
}

static void
test_stop_outliving_worker (void)
{
  stop_outliving_worker (FALSE);
}

static void
test_duration_outliving_worker (void)
{
  stop_outliving_worker (TRUE);
}

/* --duration's stop is SIGTERM, then SIGKILL only after the grace
 * period: a command that takes a moment to end on SIGTERM ends as it
 * chooses (the SIGKILL once came a fraction of a millisecond after). */
static void
test_duration_grace (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *handled = g_build_filename (dir, "handled", NULL);
  g_autofree char *script = g_strdup_printf ("trap 'sleep 0.3; echo handled > \"%s\"; exit 7' TERM; "
                                             "while :; do :; done", handled);
  g_auto (GStrv) argv = sp_test_argv (sp_test_recorder (), "-o", "out.spool", "--duration", "1", "--", "/bin/sh",
                                      "-c", script, NULL);
  SpChild *recorder = sp_child_spawn (dir, "record", (const char *const *) argv, FALSE);
  g_autoptr (SpTestRecording) rec = sp_test_recording_new (g_steal_pointer (&dir), sp_child_wait (recorder));

  g_test_message ("recorder's stderr:\n%s", rec->result->err);
  g_assert_cmpint (rec->result->exit_code, ==, 7);
  g_assert_true (g_file_test (handled, G_FILE_TEST_EXISTS));
  sp_test_recording_load (rec);
  sp_test_assert_meta_int (rec, "recording", "exit_status", 7);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;

  g_test_add_func ("/recorder/control/sigint", test_sigint);
  g_test_add_func ("/recorder/control/terminal-ctrl-c", test_terminal_ctrl_c);
  g_test_add_func ("/recorder/control/stdin-stop", test_control_stdin_stop);
  g_test_add_func ("/recorder/control/stdin-eof", test_control_stdin_eof);
  g_test_add_func ("/recorder/control/stop-outliving-worker", test_stop_outliving_worker);
  g_test_add_func ("/recorder/control/duration-outliving-worker", test_duration_outliving_worker);
  g_test_add_func ("/recorder/control/duration-grace", test_duration_grace);
  return g_test_run ();
}
