/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report-debuginfod.c: stackpulse-report fetches missing debug info.
 *
 * The report has nothing to show before its frames are resolved, so it
 * fetches a module's debug file from debuginfod in place (where
 * DEBUGINFOD_URLS is set, unless --no-debuginfod), saying on stderr what
 * it fetches and how far it got, a line at most every half second:
 *   stackpulse-report: fetching debug info for libfoo.so (build-id 05be4237133f…)
 *   from debuginfod: 1.2 MB of 3.4 MB
 * and, for annotate, a source file that is not here. */
#include <stdio.h>

#include "sp-debuginfod.h"
#include "sp-report.h"
#include "sp-source-file.h"

#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 2)
/* A server that has not answered by then is said to be waited for, once. */
#define WAITING_NOTE_US (5 * G_USEC_PER_SEC)

typedef struct {
  char   *key;        /* the fetch being shown: its build-id, or its source path */
  gint64  start_us;   /* when it began */
  gint64  last_us;    /* when its last line was written */
  gboolean done;      /* its last line said it all */
  gboolean waited;    /* "still waiting" was said */
} FetchLine;

/* Whether to write a line now: the first of a fetch, its last, and one
 * every PROGRESS_INTERVAL_US between while bytes come; while none has
 * come (a server slow to answer, or one that never does), nothing but one
 * note after WAITING_NOTE_US (*waiting set). */
static gboolean
line_is_due (FetchLine *line,
             const char *key,
             guint64 received,
             guint64 total,
             gboolean *waiting)
{
  gint64 now = g_get_monotonic_time ();
  gboolean complete = total > 0 && received >= total;

  *waiting = FALSE;
  if (g_strcmp0 (line->key, key) != 0)
    {
      g_free (line->key);
      line->key = g_strdup (key);
      line->done = line->waited = FALSE;
      line->start_us = now;
    }
  else if (line->done || (!complete && now - line->last_us < PROGRESS_INTERVAL_US))
    return FALSE;
  else if (received == 0 && total == 0)
    {
      if (line->waited || now - line->start_us < WAITING_NOTE_US)
        return FALSE;
      line->waited = *waiting = TRUE;
    }
  line->last_us = now;
  line->done = complete;
  return TRUE;
}

/* "… has not answered after 5 s (it waits DEBUGINFOD_TIMEOUT seconds for
 * a first byte, 90 by default; --no-debuginfod skips the servers)" */
static void
print_waiting_line (const char *what)
{
  const char *timeout = g_getenv ("DEBUGINFOD_TIMEOUT");

  fprintf (stderr, "stackpulse-report: fetching %s: no answer from debuginfod after %d s (it waits up to %s s "
           "for one: DEBUGINFOD_TIMEOUT; --no-debuginfod skips the servers)\n", what,
           (int) (WAITING_NOTE_US / G_USEC_PER_SEC), timeout != NULL && timeout[0] != '\0' ? timeout : "90");
}

/* "stackpulse-report: fetching WHAT from debuginfod: 1.2 MB of 3.4 MB" */
static void
print_fetch_line (const char *what,
                  guint64 received,
                  guint64 total)
{
  g_autofree char *done = g_format_size (received);
  g_autofree char *size = g_format_size (total);

  if (total == 0)
    fprintf (stderr, "stackpulse-report: fetching %s from debuginfod…\n", what);
  else
    fprintf (stderr, "stackpulse-report: fetching %s from debuginfod: %s of %s\n", what, done, size);
}

static gboolean
print_progress (const char *module,
                const char *build_id,
                guint64 received,
                guint64 total,
                gpointer user_data)
{
  g_autofree char *base = g_path_get_basename (module);
  g_autofree char *what = g_strdup_printf ("debug info for %s (build-id %.12s…)", base, build_id);
  gboolean waiting;

  if (received == SP_SYMBOLIZER_FETCH_FAILED)
    {
      fprintf (stderr, "stackpulse-report: %s: not had from debuginfod (the summary's symbol problems say why, "
               "unless the servers have none)\n", what);
      return TRUE;
    }
  if (!line_is_due (user_data, build_id, received, total, &waiting))
    return TRUE;
  if (waiting)
    print_waiting_line (what);
  else
    print_fetch_line (what, received, total);
  return TRUE;
}

typedef struct {
  FetchLine   line;
  const char *source_path;
  const char *module;
} SourceFetch;

static gboolean
print_source_progress (guint64 received,
                       guint64 total,
                       gpointer user_data)
{
  SourceFetch *fetch = user_data;
  g_autofree char *base = g_path_get_basename (fetch->module);
  g_autofree char *what = g_strdup_printf ("source file %s of %s", fetch->source_path, base);
  gboolean waiting;

  if (!line_is_due (&fetch->line, fetch->source_path, received, total, &waiting))
    return TRUE;
  if (waiting)
    print_waiting_line (what);
  else
    print_fetch_line (what, received, total);
  return TRUE;
}

char *
sp_report_fetch_source (const char *module,
                        const char *source_path,
                        GPtrArray *tried)
{
  SourceFetch fetch = { { NULL, 0, FALSE }, source_path, module };
  char *path = sp_source_file_fetch (module, source_path, print_source_progress, &fetch, NULL, tried, NULL);

  g_free (fetch.line.key);
  return path;
}

void
sp_report_use_debuginfod (SpProfile *profile,
                          gboolean use)
{
  static FetchLine line;

  if (!use)
    sp_profile_set_debuginfod (profile, SP_SYMBOLIZER_DEBUGINFOD_OFF, NULL, NULL);
  else if (sp_debuginfod_is_enabled ())
    sp_profile_set_debuginfod (profile, SP_SYMBOLIZER_DEBUGINFOD_FETCH, print_progress, &line);
}
