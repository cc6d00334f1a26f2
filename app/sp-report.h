/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report.h: stackpulse-report's text reports. */
#pragma once

#include <stdio.h>

#include "sp-diff.h"
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
/* Where the frames' names came from: the symbol cache
 * (docs/SYMBOL-CACHE.md) or the module files, and how many modules' DWARF
 * was read; one line ("symbols: …"). */
void sp_report_symbol_cache (SpProfile *profile,
                             FILE *out);
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
/* One row per process, busiest first (sp-report-processes.c). */
void sp_report_processes (SpProfile *profile, const SpFilter *filter, gboolean tsv, FILE *out);
/* Whether threads takes the off-CPU columns from the side file's
 * per-thread keys (blocked_ns, runnable_ns, switches: whole-recording
 * totals): there are no thread states, and the side file has them. */
gboolean sp_report_threads_from_side_file (SpProfile *profile);

typedef struct {
  SpDiffNormalize normalize;
  gboolean        tsv;
  guint           limit;    /* rows; 0 for all */
} SpReportDiffOptions;

/* Every function of A and B by the size of its change (sp-diff.h): self
 * and total in A and B and the change, as text or tab-separated under a
 * header line (function, module, self_a, self_b, total_a, total_b,
 * delta). */
void sp_report_diff (SpProfile *a, const SpFilter *filter_a, SpProfile *b, const SpFilter *filter_b,
                     const SpReportDiffOptions *options, FILE *out);
/* A text as one TSV field: tabs and line breaks become spaces; newly
 * allocated. */
char *sp_report_field (const char *text);

/* annotate: a function's source lines (or, with asm_view, instructions)
 * with self and total. */
typedef struct {
  const char *function;
  const char *module;        /* NULL, or the module (path or file name) among several */
  gboolean    asm_view;
  gboolean    tsv;
  char      **source_dirs;   /* --source-dir values (DIR or BUILD_PREFIX=DIR), NULL-terminated or NULL */
  gboolean    debuginfod;    /* a source file not found here is asked of debuginfod (not --no-debuginfod) */
} SpAnnotateOptions;

/* Prints the annotation; returns the exit status: 1 for no such function,
 * 2 when it is ambiguous (several names, or modules without
 * options->module: the places are listed on err). */
int sp_report_annotate (SpProfile *profile,
                        const SpFilter *filter,
                        const SpAnnotateOptions *options,
                        FILE *out,
                        FILE *err);

/* Where DEBUGINFOD_URLS is set: with use, modules without symbols or debug
 * info get their debug files from debuginfod as they are resolved, with
 * progress lines on stderr (sp-report-debuginfod.c); without, not even
 * from the cache of earlier fetches. Before anything is resolved. */
void sp_report_use_debuginfod (SpProfile *profile, gboolean use);

/* The source file source_path (absolute, as DWARF names it) of module
 * from debuginfod, with progress lines on stderr: the path of the fetched
 * copy, or NULL, what debuginfod answered appended to tried (nothing is
 * asked, nor appended, where DEBUGINFOD_URLS is unset). */
char *sp_report_fetch_source (const char *module,
                              const char *source_path,
                              GPtrArray *tried);/* Before the recordings are read: the heap grown to fit what reading
 * files takes, in transparent huge pages (sp-report-heap.c). */
void sp_report_heap_prepare (const char *const *files,
                             guint n_files);


