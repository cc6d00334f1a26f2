/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recording-state.c: the rule of sp-recording-state.h. */
#include "sp-recording-state.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* Whether the recorder's process still runs here: /proc/PID/stat names a
 * stackpulse-record that is not a zombie. A pid reused by another program
 * is not the recorder. Returns FALSE with *known FALSE when /proc does not
 * say (hidepid, another pid namespace). */
static gboolean
recorder_alive (guint64 pid,
                gboolean *known)
{
  g_autofree char *path = g_strdup_printf ("/proc/%" G_GUINT64_FORMAT "/stat", pid);
  g_autofree char *stat = NULL;
  const char *open_paren, *close_paren;

  *known = TRUE;
  if (!g_file_get_contents (path, &stat, NULL, NULL))
    {
      /* No such process is an answer; one /proc hides is not. */
      *known = kill ((pid_t) pid, 0) != 0 && errno == ESRCH;
      return FALSE;
    }
  /* "PID (comm) S ...": comm (15 bytes at most) may hold ')' itself. */
  open_paren = strchr (stat, '(');
  close_paren = strrchr (stat, ')');
  if (open_paren == NULL || close_paren == NULL || close_paren < open_paren || close_paren[1] != ' ')
    {
      *known = FALSE;
      return FALSE;
    }
  if (close_paren[2] == 'Z' || close_paren[2] == 'X')
    return FALSE;
  return g_str_has_prefix (open_paren + 1, "stackpulse-rec");
}

gboolean
sp_recording_state_is_local (GKeyFile *meta)
{
  g_autofree char *host = g_key_file_get_string (meta, "recording", "hostname", NULL);
  char here[256] = "";

  if (host == NULL || gethostname (here, sizeof here - 1) != 0)
    return FALSE;
  return g_str_equal (host, here);
}

/* Seconds since the spool or its side file last changed. */
static gint64
seconds_unchanged (const char *spool_path)
{
  g_autofree char *meta_path = g_strconcat (spool_path, ".meta", NULL);
  const char *paths[] = { spool_path, meta_path };
  gint64 newest = 0;

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      GStatBuf st;

      if (g_stat (paths[i], &st) == 0)
        newest = MAX (newest, (gint64) st.st_mtime);
    }
  return g_get_real_time () / G_USEC_PER_SEC - newest;
}

SpRecordingState
sp_recording_state_get (const char *spool_path,
                        GKeyFile *meta)
{
  GError *error = NULL;
  gboolean complete;
  guint64 pid;

  if (meta == NULL)
    return SP_RECORDING_STATE_UNKNOWN;
  complete = g_key_file_get_boolean (meta, "recording", "complete", &error);
  if (error != NULL)
    {
      g_error_free (error);
      return SP_RECORDING_STATE_UNKNOWN;
    }
  if (complete)
    return SP_RECORDING_STATE_COMPLETE;
  pid = g_key_file_get_uint64 (meta, "recording", "recorder_pid", NULL);
  if (pid > 0 && pid <= G_MAXINT32 && sp_recording_state_is_local (meta))
    {
      gboolean known;
      gboolean alive = recorder_alive (pid, &known);

      if (known)
        return alive ? SP_RECORDING_STATE_IN_PROGRESS : SP_RECORDING_STATE_INTERRUPTED;
    }
  return seconds_unchanged (spool_path) < SP_RECORDING_STALE_SECONDS ? SP_RECORDING_STATE_IN_PROGRESS
                                                                     : SP_RECORDING_STATE_INTERRUPTED;
}

const char *
sp_recording_state_to_string (SpRecordingState state)
{
  switch (state)
    {
    case SP_RECORDING_STATE_COMPLETE:    return "complete";
    case SP_RECORDING_STATE_IN_PROGRESS: return "in progress";
    case SP_RECORDING_STATE_INTERRUPTED: return "interrupted";
    case SP_RECORDING_STATE_UNKNOWN:
    default:                             return "unknown";
    }
}

char *
sp_recording_state_describe (SpRecordingState state,
                             guint64 n_samples,
                             guint64 duration_ns)
{
  if (state == SP_RECORDING_STATE_INTERRUPTED)
    return g_strdup_printf ("interrupted: its recorder ended before finishing it; %" G_GUINT64_FORMAT
                            " samples over %.2f s were saved", n_samples, duration_ns / 1e9);
  if (state == SP_RECORDING_STATE_IN_PROGRESS)
    return g_strdup_printf ("in progress: %" G_GUINT64_FORMAT " samples over %.2f s so far", n_samples,
                            duration_ns / 1e9);
  return NULL;
}
