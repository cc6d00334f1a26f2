/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline-states-private.h: the timeline's thread-state strips.
 *
 * With an off-CPU companion each lane gets a strip along its bottom:
 * running, runnable (preempted, waiting for a CPU) and blocked, each
 * bucket coloured by the state that took most of its time, and a hover
 * that names the stretch under the pointer, its duration and, for a
 * blocked one, the function it waited in. Private to the timeline view. */
#pragma once

#include <gtk/gtk.h>

#include "sp-thread-states.h"

G_BEGIN_DECLS

#define SP_TIMELINE_STATE_HEIGHT 6

/* Draws thread's strip for [from, to) in n_buckets buckets over the
 * rectangle x, y, width, SP_TIMELINE_STATE_HEIGHT. */
void _sp_timeline_states_render (const SpThreadStates *states,
                                 GtkSnapshot *snapshot,
                                 guint thread,
                                 guint64 from_ns,
                                 guint64 to_ns,
                                 guint n_buckets,
                                 double x,
                                 double y,
                                 double width);

/* The colour key, drawn into the ruler's label cell at x, y (the cell's
 * top left), width wide and height high. */
void _sp_timeline_states_render_key (GtkSnapshot *snapshot,
                                     PangoLayout *layout,
                                     double width,
                                     double height,
                                     const GdkRGBA *fg);

/* Tooltip lines (Pango markup) for thread at t_ns, whose bucket spans
 * [bucket_from, bucket_to): the stretch under the pointer and, when the
 * bucket holds more than that stretch, the bucket's split. names:
 * sp-blocking-names.h (may be NULL). NULL when nothing is known there. */
char *_sp_timeline_states_describe (const SpThreadStates *states,
                                    GHashTable *names,
                                    guint thread,
                                    guint64 t_ns,
                                    guint64 data_from_ns,
                                    guint64 bucket_from_ns,
                                    guint64 bucket_to_ns);

G_END_DECLS
