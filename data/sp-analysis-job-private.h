/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-analysis-job-private.h: what one worker run of an SpAnalysis does (private
 * to data/: sp-analysis.c schedules jobs, sp-analysis-job.c runs them). */
#pragma once

#include "sp-analysis.h"
#include "sp-stack-counts.h"

G_BEGIN_DECLS

/* What one worker run does; a run may do several. */
typedef enum {
  SP_WORK_OPEN      = 1 << 0,  /* open the file: the first trees and the summary */
  SP_WORK_PARSE     = 1 << 1,  /* take in what the recorder appended */
  SP_WORK_FINISH    = 1 << 2,  /* the recorder is done: read the tail, summarize */
  SP_WORK_TREES     = 1 << 3,  /* the three trees for the filter */
  SP_WORK_FUNCTIONS = 1 << 4,  /* the function list, for the caller/callee view */
  SP_WORK_CALLERS   = 1 << 5,  /* the chosen function's callers and callees */
  SP_WORK_BOTTOM_UP = 1 << 6,  /* only the bottom-up tree: an opened file has the others */
  SP_WORK_RELOAD_SYMBOLS = 1 << 7,  /* resolve every frame again (debug files came) */
  SP_WORK_ANNOTATE  = 1 << 8,  /* the Source page's function */
} SpWork;

/* A job owns what it works on while it runs: the main thread hands the
 * profile's running counts over and takes them back with the result. */
typedef struct {
  SpWork          work;
  guint           generation;    /* the analysis's when asked: a stale result is dropped */
  char           *path;          /* SP_WORK_OPEN */
  SpProfile      *profile;       /* a reference; set by SP_WORK_OPEN */
  SpStackCounts  *counts;        /* a followed spool's running counts, or NULL */
  SpStackCounts  *whole_counts;  /* all the samples by samples, when this job counted them */
  SpFilter       *filter;        /* a copy of the analysis's */
  guint32         focus;         /* for SP_WORK_CALLERS; SP_FUNCTION_LIST_ROOT: the hottest */
  guint32         annotated;     /* for SP_WORK_ANNOTATE */
  guint           place;
  SpSourceDirs   *source_dirs;   /* a copy of the analysis's, for SP_WORK_ANNOTATE */
  gsize           n_indexed;     /* samples in the last index snapshot sent */
  GArray         *last_threads;  /* the thread rows last sent (a reference), or NULL */
  SpThreadStates *last_states;   /* the thread states last sent (a reference), or NULL */
  GHashTable     *last_blocking_names; /* sent with them (a reference), or NULL */
  gboolean        follow;        /* SP_WORK_OPEN: the file is still being recorded */
  gboolean        recording_ended; /* SP_WORK_PARSE: its recorder finished or died */
} SpAnalysisJob;

void sp_analysis_job_free (SpAnalysisJob *job);

/* In the worker thread: does job->work and returns what it made, or NULL
 * with error (SP_WORK_OPEN on a file that cannot be opened). */
SpAnalysisResult *sp_analysis_job_run (SpAnalysisJob *job,
                                       GError **error);

void sp_analysis_result_free (SpAnalysisResult *result);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpAnalysisJob, sp_analysis_job_free)

G_END_DECLS
