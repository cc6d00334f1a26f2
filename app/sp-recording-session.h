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
  char     **argv;            /* the command to launch */
  char      *working_directory;
  guint      frequency_hz;
  gboolean   kernel_stacks;
} SpRecordOptions;

void sp_record_options_clear (SpRecordOptions *options);

/* Starts the recorder writing output. Signals: "progress" (guint64 samples,
 * guint64 lost, guint64 bytes) about once a second, and "finished" (int
 * exit status of the recorder; its last error lines are in
 * sp_recording_session_get_errors). */
SpRecordingSession *sp_recording_session_start (const SpRecordOptions *options,
                                                const char *output,
                                                GError **error);

/* Asks the recorder to stop; it stops the target and finishes the spool. */
void sp_recording_session_stop (SpRecordingSession *self);

gboolean sp_recording_session_is_running (SpRecordingSession *self);
const char *sp_recording_session_get_output (SpRecordingSession *self);
/* What the recorder said on standard error (warnings, the reason it failed). */
const char *sp_recording_session_get_errors (SpRecordingSession *self);

/* Where stackpulse-record is: $STACKPULSE_RECORD, next to this program,
 * or on PATH. */
char *sp_recording_session_find_recorder (void);

/* Where stackpulse-demo is: $STACKPULSE_DEMO, next to this program, or on
 * PATH; NULL when nowhere. */
char *sp_recording_session_find_demo (void);

G_END_DECLS
