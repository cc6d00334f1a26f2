/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-summary.h: the headline figures of a recording.
 *
 * The first thing the window and stackpulse-report show of a spool: how
 * many samples, threads and processes, over how long, and whether the file
 * is damaged (then the figures are those of every good record before the
 * damage); from an open profile also what was lost while recording (the
 * side file says) and what its symbols lack. */
#pragma once

#include <glib.h>

#include "sp-perf-input.h"
#include "sp-profile.h"
#include "sp-recording-state.h"
#include "sp-stack-roots.h"
#include "sp-unwind-report.h"
#include "sp-symbolizer.h"

G_BEGIN_DECLS

typedef struct {
  guint64  file_size;            /* bytes up to the end of the last good record */
  guint64  start_us;             /* wall clock of the first sample */
  guint64  sample_interval_us;
  guint64  duration_ns;          /* last sample - first sample; from a profile with thread states,
                                  * first to last of samples and off-CPU records */
  guint    n_samples;
  guint    n_threads;
  guint    n_processes;
  guint    n_modules;
  guint    n_frames;
  guint    n_stack_nodes;
  guint    n_process_execs;
  guint    n_truncated_samples;  /* samples whose stack holds the marker */
  guint    max_depth;
  char    *damage;               /* what is wrong with the file, or NULL */
  gboolean lost_known;           /* the side file counts lost samples */
  char    *side_file_problem;    /* why the side file there is was not read, or NULL */
  guint64  lost_samples;         /* samples the kernel dropped (ring buffer full) */
  guint64  dropped_samples;      /* samples the recorder could not unwind in time */
  GArray  *symbol_problems;      /* SpSymbolProblem (owned copies), or NULL */
  SpUnwindReport *unwinding;     /* how user stacks were unwound (dwarf, auto), or NULL */
  SpRecordingState recording_state; /* from a profile: complete, in progress, interrupted */
  SpPerfInput *perf_input;       /* the perf.data it was converted from (the side file's [input]), or NULL */
  gboolean roots_known;          /* from a profile: the stacks were judged */
  SpStackRoots roots;            /* how many reach their thread's root */
  /* Off-CPU (docs/OFF-CPU.md), from a profile: */
  gboolean off_cpu_recorded;     /* the side file says --off-cpu (off_cpu=true) */
  gboolean off_cpu_read;         /* its companion was read: thread states exist */
  char    *off_cpu_problem;      /* the companion is missing, damaged, not this recording's…; or NULL */
  char    *off_cpu_stacks_reason; /* why blocked stacks were not recorded, or NULL */
  guint64  off_cpu_switches;     /* switch-outs recorded (side file) */
  guint64  off_cpu_lost;         /* switch records the kernel dropped */
  guint64  off_cpu_dropped;      /* switch-out stacks the recorder could not take */
  guint64  off_cpu_span_ns;      /* first to last off-CPU record, 0 without */
} SpSpoolSummary;

/* The same from a profile already read: no second pass over the file.
 * Symbol problems are those met so far: call it after building the trees,
 * on the thread that updates the profile. */
void sp_spool_summary_from_profile (SpProfile *profile,
                                    SpSpoolSummary *summary);

/* The same from the profile's samples counted already (all of them, by
 * samples: sp_stack_counts_new (profile, NULL), or the counts a followed
 * recording keeps up to date). */
void sp_spool_summary_from_counts (SpProfile *profile,
                                   const SpStackCounts *counts,
                                   SpSpoolSummary *summary);

void sp_spool_summary_clear (SpSpoolSummary *summary);

G_END_DECLS
