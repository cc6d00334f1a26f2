/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recording-session.h: stackpulse-record running for the window.
 *
 * The recorder is a subprocess (it may need privileges the app has not);
 * it is stopped through its standard input ("stop"), reports progress as
 * key=value lines on a pipe, and explains failures on its standard error. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SP_TYPE_RECORDING_SESSION (sp_recording_session_get_type ())

G_DECLARE_FINAL_TYPE (SpRecordingSession, sp_recording_session, SP, RECORDING_SESSION, GObject)

typedef struct {
  char     **argv;            /* the command to launch, or NULL to attach */
  char      *working_directory;
  guint      frequency_hz;
  gboolean   kernel_stacks;
  GPid       pid;             /* the process to attach to, when argv is NULL */
  char     **environment;     /* KEY=VALUE added to the command's, or NULL */
  char      *call_graph;      /* "fp", "dwarf"; NULL or "auto": the recorder picks */
  gboolean   elevated;        /* run the recorder through pkexec */
  gboolean   off_cpu;         /* --off-cpu: thread states, off-CPU times, blocked stacks where allowed */
  gboolean   all_cpus;        /* -a: every process on every CPU (argv NULL, pid ignored) */
} SpRecordOptions;

void sp_record_options_clear (SpRecordOptions *options);
void sp_record_options_copy (SpRecordOptions *to,
                             const SpRecordOptions *from);

/* Starts the recorder writing output. Signals: "progress" (guint64 samples,
 * guint64 lost, guint64 bytes) about once a second, and "finished" (int
 * exit status of the recorder; its last error lines are in
 * sp_recording_session_get_errors). */
SpRecordingSession *sp_recording_session_start (const SpRecordOptions *options,
                                                const char *output,
                                                GError **error);

/* The recorder's arguments for options (without pkexec), for tests and
 * for saying what runs. */
char **sp_recording_session_build_argv (const char *recorder,
                                        const SpRecordOptions *options,
                                        const char *output,
                                        int progress_fd);

/* Asks the recorder to stop; it stops the target and finishes the spool. */
void sp_recording_session_stop (SpRecordingSession *self);

gboolean sp_recording_session_is_running (SpRecordingSession *self);
const char *sp_recording_session_get_output (SpRecordingSession *self);
/* What the recorder said on standard error (warnings, the reason it failed). */
const char *sp_recording_session_get_errors (SpRecordingSession *self);
/* FALSE when the recorder runs through pkexec, which closes every file
 * descriptor past stderr: no "progress" then; follow the spool instead. */
gboolean sp_recording_session_has_progress (SpRecordingSession *self);
/* After "finished": the recorder itself was killed (by a signal), before
 * it could finish the spool; the exit status is then 128 + the signal,
 * not the program's. */
gboolean sp_recording_session_was_killed (SpRecordingSession *self);
/* After "finished": the recorder ended because the kernel would not let it
 * sample (perf_event_paranoid, capabilities, locked memory): raised
 * privileges would help. */
gboolean sp_recording_session_was_refused (SpRecordingSession *self);

/* pkexec's path when it is installed (NULL otherwise). */
char *sp_recording_session_find_pkexec (void);

/* Where stackpulse-record is: $STACKPULSE_RECORD, next to this program,
 * or on PATH. */
char *sp_recording_session_find_recorder (void);

/* Where stackpulse-demo is: $STACKPULSE_DEMO, next to this program, or on
 * PATH; NULL when nowhere. */
char *sp_recording_session_find_demo (void);

G_END_DECLS
