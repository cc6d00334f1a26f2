/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recording-state.h: whether a recording is complete, still being
 * recorded, or was interrupted, from its side file (docs/SIDE-FILE.md).
 *
 * The recorder writes `complete=false` while it records and `true` once it
 * has finished the spool. A side file that stays `false` is a recording in
 * progress while its recorder (`recorder_pid` on `hostname`) lives, and an
 * interrupted one once that process is gone; without a pid this host can
 * check, a recording whose files have not changed for
 * SP_RECORDING_STALE_SECONDS is taken as interrupted. The report and the
 * window both ask here, so they agree. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  SP_RECORDING_STATE_UNKNOWN,      /* no side file (or no `complete`): nothing says */
  SP_RECORDING_STATE_COMPLETE,     /* the recorder finished it */
  SP_RECORDING_STATE_IN_PROGRESS,  /* its recorder is still writing it */
  SP_RECORDING_STATE_INTERRUPTED,  /* its recorder ended without finishing it */
} SpRecordingState;

/* The side file is rewritten at least every 2 s while recording. */
#define SP_RECORDING_STALE_SECONDS 10

/* The state of the recording at spool_path whose side file is meta (NULL
 * when it has none). Looks at the recorder's process and at when the spool
 * and side file last changed, so the answer is as of now. */
SpRecordingState sp_recording_state_get (const char *spool_path,
                                         GKeyFile *meta);

/* Whether the side file says the recording was made on this machine
 * (its `hostname` is this one's). */
gboolean sp_recording_state_is_local (GKeyFile *meta);

/* "complete", "in progress", "interrupted", or "unknown". */
const char *sp_recording_state_to_string (SpRecordingState state);

/* The state in a sentence with what is known of the recording, or NULL
 * when there is nothing to say (complete, unknown):
 * "interrupted: its recorder ended before finishing it; 903 samples over
 * 1.80 s were saved", "in progress: 903 samples over 1.80 s so far". */
char *sp_recording_state_describe (SpRecordingState state,
                                   guint64 n_samples,
                                   guint64 duration_ns);

G_END_DECLS
