/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline-view.h: samples over time, one lane per thread, with a time
 * ruler, zoom, pan and a selected time range. */
#pragma once

#include <gtk/gtk.h>

#include "sp-profile.h"
#include "sp-timeline.h"

G_BEGIN_DECLS

#define SP_TYPE_TIMELINE_VIEW (sp_timeline_view_get_type ())

G_DECLARE_FINAL_TYPE (SpTimelineView, sp_timeline_view, SP, TIMELINE_VIEW, GtkWidget)

SpTimelineView *sp_timeline_view_new (void);

/* profile and index are borrowed: both must outlive the view's use of them,
 * or be cleared with NULL first. Call again after the profile grew (live;
 * update index first): lanes and range follow, the zoom and the selection
 * stay. A different profile resets both. */
void sp_timeline_view_set_profile (SpTimelineView *self,
                                   SpProfile *profile,
                                   SpSampleIndex *index);

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

/* The lanes, top to bottom (sorted by pid, then tid), as labelled. */
guint sp_timeline_view_get_n_lanes (SpTimelineView *self);
const char *sp_timeline_view_get_lane_label (SpTimelineView *self,
                                             guint lane);

G_END_DECLS
