/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report.h: stackpulse-report's text reports. */
#pragma once

#include <stdio.h>

#include "sp-filter.h"
#include "sp-profile.h"

typedef struct {
  double   min_percent;   /* tree: prune nodes below this share of all samples */
  guint    limit;         /* top: rows; 0 for all */
  gboolean bottom_up;
} SpReportOptions;

/* How the recording stands when it is not complete ("interrupted: ...",
 * "in progress: ..."), or NULL. */
char *sp_report_recording_state (SpProfile *profile);
void sp_report_summary (SpProfile *profile, const SpFilter *filter, FILE *out);
void sp_report_top (SpProfile *profile, const SpFilter *filter, const SpReportOptions *options, FILE *out);
void sp_report_tree (SpProfile *profile, const SpFilter *filter, const SpReportOptions *options, FILE *out);
/* FALSE when no function has that name. */
gboolean sp_report_callers_callees (SpProfile *profile, const SpFilter *filter, const char *name,
                                    gboolean callers, FILE *out);
/* One row per thread (pid, tid, name, samples, cpu_s, off_cpu_s, wall_s,
 * blocked_s, runnable_s, switches); tab-separated under a header line
 * with tsv. Without off-CPU data the off-CPU columns are empty ("-"). */
void sp_report_threads (SpProfile *profile, const SpFilter *filter, gboolean tsv, FILE *out);
/* Whether threads takes the off-CPU columns from the side file's
 * per-thread keys (blocked_ns, runnable_ns, switches: whole-recording
 * totals): there are no thread states, and the side file has them. */
gboolean sp_report_threads_from_side_file (SpProfile *profile);

/* Where DEBUGINFOD_URLS is set: with use, modules without symbols or debug
 * info get their debug files from debuginfod as they are resolved, with
 * progress lines on stderr (sp-report-debuginfod.c); without, not even
 * from the cache of earlier fetches. Before anything is resolved. */
void sp_report_use_debuginfod (SpProfile *profile, gboolean use);
