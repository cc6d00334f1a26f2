/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-analysis.h: one recording under analysis, for a window.
 *
 * SpAnalysis owns the profile, the filter (time range, hidden threads,
 * transforms), the running counts of a followed spool and the one worker
 * thread that updates and aggregates the profile. Requests from the main
 * thread (a new range, a transform, another function's callers, the next
 * live update) are coalesced: at most one worker runs, and what was asked
 * meanwhile runs once after it. Each run ends in the "result" signal on
 * the main thread with a SpAnalysisResult: finished, immutable trees,
 * lists, thread rows and a snapshot of the sample index. The main thread
 * never takes the profile's lock and never reads a table a worker grows;
 * it reads the functions a result names (they never change).
 *
 * Lives on the main thread (signals are emitted from its main context). */
#pragma once

#include <gio/gio.h>

#include "sp-call-tree.h"
#include "sp-filter.h"
#include "sp-function-list.h"
#include "sp-profile.h"
#include "sp-recording-state.h"
#include "sp-sample-index.h"
#include "sp-source-annotation.h"
#include "sp-spool-summary.h"
#include "sp-thread-states.h"

G_BEGIN_DECLS

/* What one result holds: each part is NULL (or FALSE) when this run did
 * not make it; a handler may steal the parts it keeps. */
typedef struct {
  SpProfile       *profile;       /* the profile the parts come from (a reference) */
  gboolean         opened;        /* the first result of a newly opened profile */
  SpCallTree      *call_tree;     /* top-down, for the call tree */
  SpCallTree      *flame_tree;    /* the same, for the flame graph (each view owns its tree) */
  SpCallTree      *bottom_up;
  GArray          *functions;     /* SpFunctionCost, for the caller/callee view */
  guint64          n_kept;        /* the samples in functions */
  SpFunctionCost   focus;         /* the chosen function's own costs (with callers) */
  GArray          *callers;       /* SpFunctionCost */
  GArray          *callees;
  GArray          *problems;      /* SpSymbolProblem: the symbol problems so far */
  GArray          *missing_debug_info; /* SpMissingDebugInfo: what debuginfod may have (sp-symbolizer.h) */
  SpSampleIndex   *index;         /* a snapshot, when samples came in */
  GArray          *threads;       /* SpThreadRow, when they changed */
  GArray          *processes;     /* a recording of the whole system's SpProcessRow, with threads (or at its end) */
  guint64          idle_samples;  /* with processes: the idle task's (sp-process-rows.h) */
  guint            n_cpus;        /* with processes: the CPUs sampled (0: unknown) */
  guint64          interval_ns;   /* with processes: the sampling interval, per CPU */
  SpThreadStates  *states;        /* the off-CPU companion's thread states, when they changed */
  GHashTable      *blocking_names; /* with states: sp-blocking-names.h */
  SpSourceAnnotation *source;     /* the annotated function, for the Source page */
  SpMetric         metric;        /* what the trees and lists count (the filter's) */
  gsize            n_samples;     /* the samples read so far */
  SpSpoolSummary   summary;       /* when have_summary: opened, or finished */
  gboolean         have_summary;
  gboolean         finished;      /* a followed spool's last update: it is complete now */
} SpAnalysisResult;

#define SP_TYPE_ANALYSIS (sp_analysis_get_type ())
G_DECLARE_FINAL_TYPE (SpAnalysis, sp_analysis, SP, ANALYSIS, GObject)

SpAnalysis *sp_analysis_new (void);

/* Opens a file in the worker: a finished recording is read whole, one
 * another recorder still writes is followed as it grows. Ends in a result
 * with `opened`, or in "failed" (GError: not a spool, unreadable…).
 * Replaces the profile analysed so far; a file already being opened
 * (and nothing else asked since) goes on being read. */
void sp_analysis_open (SpAnalysis *self,
                       const char *path);

/* As sp_analysis_open, but the worker starts now, not at the main loop's
 * next turn: a file named on the command line is read while GTK starts
 * (the result still comes in the main loop). */
void sp_analysis_open_now (SpAnalysis *self,
                           const char *path);

/* Follows the spool this application's recorder is writing at path (it
 * may not exist yet): the profile opens once the file appears. */
void sp_analysis_follow_recording (SpAnalysis *self,
                                   const char *path);

/* The recorder ended: the next update reads the rest and finishes. */
void sp_analysis_recording_ended (SpAnalysis *self);

/* Stops following and drops what is analysed (a recording that never
 * wrote its file). */
void sp_analysis_stop (SpAnalysis *self);

/* The profile analysed (may be NULL); the functions results name are
 * readable through it. */
SpProfile *sp_analysis_get_profile (SpAnalysis *self);

/* Whether a growing spool is followed (live updates run). */
gboolean sp_analysis_is_following (SpAnalysis *self);

/* The filter the next trees are made with: read it, change it through
 * the setters below (each asks for new trees). */
const SpFilter *sp_analysis_get_filter (SpAnalysis *self);
void sp_analysis_set_time_range (SpAnalysis *self,
                                 guint64 from_ns,
                                 guint64 to_ns);
void sp_analysis_set_thread_hidden (SpAnalysis *self,
                                    guint32 thread,
                                    gboolean hidden);
/* What the trees and lists count: samples, off-CPU or wall-clock time
 * (the time metrics weigh nothing without an off-CPU companion). */
void sp_analysis_set_metric (SpAnalysis *self,
                             SpMetric metric);
void sp_analysis_add_function_transform (SpAnalysis *self,
                                         SpTransformKind kind,
                                         guint32 function);
void sp_analysis_add_focus_subtree (SpAnalysis *self,
                                    const guint32 *path,
                                    guint n_path);
void sp_analysis_add_collapse_module (SpAnalysis *self,
                                      const char *module);
/* Takes back the last transform (all of them with `all`); FALSE if none. */
gboolean sp_analysis_pop_transform (SpAnalysis *self,
                                    gboolean all);

/* The caller/callee view: whether it is shown (new trees bring it the
 * function list then; when hidden it catches up once shown), and the
 * function it shows (SP_FUNCTION_LIST_ROOT: the hottest, once known). */
void sp_analysis_set_callers_shown (SpAnalysis *self,
                                    gboolean shown);
void sp_analysis_set_focus (SpAnalysis *self,
                            guint32 function);
guint32 sp_analysis_get_focus (SpAnalysis *self);

/* Resolves every frame again, then new trees: after debug files were
 * fetched (sp-debuginfod.h) for modules a result listed in
 * missing_debug_info. The filter stays (a transform of a function that
 * was an address then applies to nothing), the function shown in the
 * callers view becomes the hottest again, and the Summary comes again
 * (not while a spool is followed: its end brings it). */
void sp_analysis_reload_symbols (SpAnalysis *self);
/* The Source page: the function it annotates (sp-source-annotation.h),
 * at place (SP_SOURCE_PLACE_HEAVIEST: the heaviest), comes in the next
 * result's `source`, and again with new trees (a filter changed, a
 * recording grew) while the page is shown; when hidden it catches up once
 * shown. SP_FUNCTION_LIST_ROOT annotates nothing. */
void sp_analysis_annotate (SpAnalysis *self,
                           guint32 function,
                           guint place);
guint32 sp_analysis_get_annotated (SpAnalysis *self);
void sp_analysis_set_source_shown (SpAnalysis *self,
                                   gboolean shown);
/* The user found the source file wanted under folder: remembered for its
 * build path's prefix (sp-source-dirs.h) and the function annotated again.
 * FALSE and error when the choice could not be saved (it holds for now). */
gboolean sp_analysis_add_source_dir (SpAnalysis *self,
                                     const char *wanted,
                                     const char *folder,
                                     GError **error);

/* Whether a worker is running (tests and benchmarks wait for it). */
gboolean sp_analysis_is_busy (SpAnalysis *self);

G_END_DECLS
