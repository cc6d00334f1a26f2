/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline-view.h: samples over time, one lane per thread, with a time
 * ruler, zoom, pan and a selected time range. */
#pragma once

#include <gtk/gtk.h>

#include "sp-filter.h"
#include "sp-sample-index.h"
#include "sp-thread-states.h"
#include "sp-timeline.h"

G_BEGIN_DECLS

#define SP_TYPE_TIMELINE_VIEW (sp_timeline_view_get_type ())

G_DECLARE_FINAL_TYPE (SpTimelineView, sp_timeline_view, SP, TIMELINE_VIEW, GtkWidget)

SpTimelineView *sp_timeline_view_new (void);

/* Shows index (a snapshot: sp_sample_index_snapshot) in a lane per
 * thread of threads (SpThreadRow, sp-thread-rows.h); the view keeps a
 * reference to both, which nobody changes. Call again with the next
 * snapshot of a growing recording: lanes and range follow, the zoom and
 * the selection stay. NULL, NULL clears it for another recording. */
void sp_timeline_view_set_samples (SpTimelineView *self,
                                   SpSampleIndex *index,
                                   GArray *threads);

/* A recording of the whole system: its processes (SpProcessRow,
 * sp-process-rows.h, made from the same thread rows; the view keeps a
 * reference) group the lanes: a CPU-usage lane on top, then a lane per
 * process, busiest first, that a click on its label unfolds into its
 * threads' lanes. NULL: a lane per thread. The lanes are made anew at
 * once (with the samples shown) and with each set_samples. With n_cpus and interval_ns (the
 * sampling interval per CPU) known, the CPU-usage lane is drawn against
 * what all the CPUs could give a bucket (full: every CPU busy); else
 * against its busiest bucket. */
void sp_timeline_view_set_processes (SpTimelineView *self,
                                     GArray *processes,
                                     guint n_cpus,
                                     guint64 interval_ns);
/* With processes: the threads filter hides leave the lanes, and the
 * CPU-usage lane counts the others only (a process unticked on the
 * Processes page). NULL: none hidden. */
void sp_timeline_view_set_hidden_threads (SpTimelineView *self,
                                          const SpFilter *filter);

/* Unfolds (or folds) the lane of process pid, as a click on its label does. */
void sp_timeline_view_set_process_expanded (SpTimelineView *self,
                                            gint32 pid,
                                            gboolean expanded);

/* Thread states (the off-CPU companion's, sp-thread-states.h) drawn as a
 * strip along each lane, with the names of the functions blocked stretches
 * waited in (sp-blocking-names.h; may be NULL); the view keeps references.
 * NULL for none. Cleared with the samples. */
void sp_timeline_view_set_thread_states (SpTimelineView *self,
                                         SpThreadStates *states,
                                         GHashTable *blocking_names);

/* The selected range of sample timestamps, from_ns <= ts < to_ns (as in
 * SpFilter); 0 and G_MAXUINT64 when nothing is selected. Emits
 * "selection-changed" when it changes; (0, G_MAXUINT64) clears. */
void sp_timeline_view_get_selection (SpTimelineView *self,
                                     guint64 *from_ns,
                                     guint64 *to_ns);
void sp_timeline_view_set_selection (SpTimelineView *self,
                                     guint64 from_ns,
                                     guint64 to_ns);

/* Halve / double the visible span, keeping the time under the pointer in
 * place (the middle when the pointer is elsewhere). Never wider than the
 * recording. */
void sp_timeline_view_zoom_in (SpTimelineView *self);
void sp_timeline_view_zoom_out (SpTimelineView *self);

/* The visible range of sample timestamps; 0, 0 without a profile. */
void sp_timeline_view_get_visible_range (SpTimelineView *self,
                                         guint64 *from_ns,
                                         guint64 *to_ns);

/* TRUE while the bars of the visible range are being counted on a worker
 * (a range of many samples): the bars drawn are the previous ones. */
gboolean sp_timeline_view_is_counting (SpTimelineView *self);

/* The lanes, top to bottom (sorted by pid, then tid; grouped by process
 * with processes set), as labelled. */
guint sp_timeline_view_get_n_lanes (SpTimelineView *self);
const char *sp_timeline_view_get_lane_label (SpTimelineView *self,
                                             guint lane);

/* What the tooltip says over lane at from_s seconds after the first
 * sample (Pango markup); NULL off the recording. */
char *sp_timeline_view_describe (SpTimelineView *self,
                                 guint lane,
                                 double from_s);

G_END_DECLS
