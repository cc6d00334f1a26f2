/* SPDX-License-Identifier: GPL-3.0-or-later */
/* record-run.h: running stackpulse-record and the workloads from a test.
 *
 * Programs run with stdin from /dev/null (or a pipe) and their output in
 * files of the test's temporary folder, with a deadline: a recorder that
 * hangs fails the test instead of stalling the suite. The built programs'
 * paths come from the environment (SP_RECORD, SP_WORK_THREADS, ...). */
#pragma once

#include <glib.h>

#include "sp-spool-reader.h"

/* How long any one program may run before the test gives up on it. */
#define SP_TEST_DEADLINE_S 30.0

/* ---- The environment ---------------------------------------------------- */

/* Checks that perf_event_open works here. When it does not: under CI (the
 * environment variable CI is set) the test aborts with the reason, since
 * CI must fail rather than skip; otherwise returns FALSE with the reason. */
gboolean sp_test_perf_usable (char **reason);

/* Calls sp_test_perf_usable() and, when perf is unusable outside CI,
 * prints the TAP plan "1..0 # SKIP reason". Returns FALSE then: main()
 * should return 0 without registering any test. */
gboolean sp_test_require_perf (void);

/* For one test case that reaches perf_event_open: calls
 * sp_test_perf_usable() and, when perf is unusable outside CI, skips the
 * case (g_test_skip) and returns FALSE. */
gboolean sp_test_case_needs_perf (void);

/* Fails the test, showing text, unless text contains part. */
void sp_test_assert_contains (const char *text,
                              const char *part);

/* kernel.perf_event_paranoid (2 when it cannot be read). */
int sp_test_perf_event_paranoid (void);

/* Copies the program from into dir, executable by all (a folder another
 * user can reach, whatever the build folder's permissions), and returns
 * the copy's path. */
char *sp_test_copy_program (const char *from,
                            const char *dir);

/* Adds to argv (a GPtrArray of char *) the command that runs what follows
 * as nobody: setpriv --reuid=65534 --regid=65534 --clear-groups (the test
 * runs as root). The strings live as long as the test. */
void sp_test_add_as_nobody (GPtrArray *argv);

/* $SP_RECORD, the stackpulse-record under test. */
const char *sp_test_recorder (void);

/* A workload's real path, from $SP_WORK_<NAME>: "threads", "fork", ... */
char *sp_test_workload (const char *name);

/* A NULL-terminated argument vector from the NULL-terminated arguments. */
GStrv sp_test_argv (const char *first,
                    ...) G_GNUC_NULL_TERMINATED;

/* ---- Temporary folders ------------------------------------------------ */

/* A new empty folder under the system's temporary folder. */
char *sp_test_make_dir (void);

/* Removes dir and everything below it. */
void sp_test_remove_dir (const char *dir);

/* The names in dir, sorted and joined with ' ' ("" when empty). */
char *sp_test_list_dir (const char *dir);

/* ---- Programs ------------------------------------------------------------ */

typedef struct {
  GPid    pid;
  int     stdin_fd;       /* write end of the child's stdin, or -1 */
  char   *out_path;       /* where its stdout goes */
  char   *err_path;       /* where its stderr goes */
  gint64  start_us;       /* g_get_monotonic_time () at spawn */
} SpChild;

typedef struct {
  int     wait_status;    /* as from waitpid () */
  int     exit_code;      /* the exit status, or -1 when killed by a signal */
  char   *out;            /* everything it wrote */
  char   *err;
  double  elapsed_s;      /* from spawn to exit */
} SpChildResult;

/* Starts argv in dir with stdout and stderr in dir/NAME.out and .err.
 * with_stdin: stdin is a pipe (child->stdin_fd), else /dev/null. */
SpChild *sp_child_spawn (const char *dir,
                         const char *name,
                         const char *const *argv,
                         gboolean with_stdin);

/* Waits until the child exits (failing the test after the deadline, with
 * what it wrote so far), collects its output and frees child. */
SpChildResult *sp_child_wait (SpChild *child);

/* Like sp_child_wait (), but returns NULL at once while the child runs. */
SpChildResult *sp_child_poll (SpChild *child);

/* Kills the child (SIGKILL), reaps it and frees it. */
void sp_child_kill (SpChild *child);

/* sp_child_spawn () + sp_child_wait (). */
SpChildResult *sp_test_run (const char *dir,
                            const char *name,
                            const char *const *argv);

/* A test case's folders, for g_test_add (): made before the case
 * (sp_test_folder_set_up), removed with all they hold after it
 * (sp_test_folder_tear_down). */
typedef struct {
  char *dir;      /* the case's folder: captured output, markers */
  char *rec;      /* dir/rec, where the recording goes */
  char *spool;    /* dir/rec/out.spool */
  char *meta;     /* dir/rec/out.spool.meta */
} SpTestFolder;

void sp_test_folder_set_up (SpTestFolder *f,
                            gconstpointer data);
void sp_test_folder_tear_down (SpTestFolder *f,
                               gconstpointer data);

/* sp_test_run () of the recorder's argv in dir (its output there as
 * "record"); its exit status and stderr go to the test's log. */
SpChildResult *sp_test_run_recorder (const char *dir,
                                     const char *const *argv);

void sp_child_result_free (SpChildResult *result);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpChildResult, sp_child_result_free)

/* Waits (up to the deadline) until path exists, failing the test if child
 * exits first. Returns path's contents. */
char *sp_test_wait_for_file (SpChild *child,
                             const char *path);

/* ---- A recording ------------------------------------------------------- */

typedef struct {
  char          *dir;         /* owned temporary folder */
  char          *spool;       /* dir/out.spool */
  char          *meta_path;   /* dir/out.spool.meta */
  SpChildResult *result;      /* of stackpulse-record */
  SpSpoolReader *reader;      /* after sp_test_recording_load () */
  GKeyFile      *meta;
} SpTestRecording;

/* Runs stackpulse-record -o DIR/out.spool -F 1000 OPTIONS... [-- COMMAND...]
 * in a new folder; options and command are NULL-terminated (command may
 * be NULL for an attach). Does not check the outcome. */
SpTestRecording *sp_test_record (const char *const *options,
                                 const char *const *command);

/* A recording around a recorder that was already started (and waited for)
 * in dir, which the recording then owns. */
SpTestRecording *sp_test_recording_new (char *dir,
                                        SpChildResult *result);

/* Opens the spool with the whole-file reader and the side file with
 * g_key_file_load_from_file, failing the test (with the recorder's stderr)
 * when either is not valid. */
void sp_test_recording_load (SpTestRecording *rec);

/* The side file's unsigned key in group (failing the test without it). */
guint64 sp_test_meta_u64 (SpTestRecording *rec,
                          const char *group,
                          const char *key);

/* A task's CPU time between start and end (CLOCK_MONOTONIC ns, the side
 * file's), from n polls in time order taken while the recorder ran: the
 * i-th poll's time is times[i * stride] and its CPU time cpu[i * stride]
 * (stride in guint64s: the polls may be structs). At least *low (polls
 * inside the window), at most *high (polls just outside); fails the test
 * unless the polls cover the window. */
void sp_test_cpu_in_window (const guint64 *times,
                            const guint64 *cpu,
                            gsize stride,
                            guint n,
                            guint64 start,
                            guint64 end,
                            guint64 *low,
                            guint64 *high);

/* The side file's key in group has the value expected. */
void sp_test_assert_meta_int (SpTestRecording *rec,
                              const char *group,
                              const char *key,
                              gint64 expected);
void sp_test_assert_meta_string (SpTestRecording *rec,
                                 const char *group,
                                 const char *key,
                                 const char *expected);

/* Fails the test, with what (a row's, a workload's name) and the
 * recorder's stderr, unless stackpulse-record exited with 0. */
void sp_test_assert_recorded (const SpTestRecording *rec,
                              const char *what);

void sp_test_recording_free (SpTestRecording *rec);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpTestRecording, sp_test_recording_free)

/* The process's wait status as the recorder reports it: 128 + N after
 * signal N. */
int sp_test_status_code (int wait_status);
