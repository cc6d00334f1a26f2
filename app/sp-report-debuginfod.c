/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report-debuginfod.c: stackpulse-report fetches missing debug info.
 *
 * The report has nothing to show before its frames are resolved, so it
 * fetches a module's debug file from debuginfod in place (where
 * DEBUGINFOD_URLS is set, unless --no-debuginfod), saying on stderr what
 * it fetches and how far it got, a line at most every half second:
 *   stackpulse-report: fetching debug info for libfoo.so (build-id 05be4237133f…)
 *   from debuginfod: 1.2 MB of 3.4 MB */
#include <stdio.h>

#include "sp-debuginfod.h"
#include "sp-report.h"

#define PROGRESS_INTERVAL_US (G_USEC_PER_SEC / 2)

typedef struct {
  char   *build_id;   /* the fetch being shown */
  gint64  last_us;    /* when its last line was written */
  gboolean done;      /* its last line said it all */
} FetchLine;

static gboolean
print_progress (const char *module,
                const char *build_id,
                guint64 received,
                guint64 total,
                gpointer user_data)
{
  FetchLine *line = user_data;
  gint64 now = g_get_monotonic_time ();
  gboolean first = g_strcmp0 (line->build_id, build_id) != 0;
  gboolean complete = total > 0 && received >= total;
  g_autofree char *base = g_path_get_basename (module);
  g_autofree char *done = g_format_size (received);
  g_autofree char *size = g_format_size (total);

  if (first)
    {
      g_free (line->build_id);
      line->build_id = g_strdup (build_id);
      line->done = FALSE;
    }
  else if (line->done || (!complete && now - line->last_us < PROGRESS_INTERVAL_US))
    return TRUE;
  line->last_us = now;
  line->done = complete;
  if (total == 0)
    fprintf (stderr, "stackpulse-report: fetching debug info for %s (build-id %.12s…) from debuginfod…\n", base,
             build_id);
  else
    fprintf (stderr, "stackpulse-report: fetching debug info for %s (build-id %.12s…) from debuginfod: %s of %s\n",
             base, build_id, done, size);
  return TRUE;
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
