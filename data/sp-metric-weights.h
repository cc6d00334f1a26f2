/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-metric-weights.h: what each stack weighs in time (off-CPU and wall).
 *
 * From the profile's thread states (sp-thread-states.h) and samples, for
 * the threads and time range a filter chooses: every blocked and runnable
 * interval weighs the part of it inside the range (ns) on its switch-out's
 * stack; with wall time, every running interval's part inside the range
 * is shared among the thread's samples in it (so a thread's wall total is
 * its measured running plus off-CPU time, not samples x period). A
 * running stretch with no sample weighs on SP_STACK_NOT_SAMPLED; samples
 * outside every running interval of their thread (clock skew between the
 * two streams) weigh nothing. */
#pragma once

#include <glib.h>

#include "sp-filter.h"
#include "sp-profile.h"

G_BEGIN_DECLS

typedef void (*SpWeighFunc) (guint32 stack,
                             gint32 pid,
                             guint64 weight,
                             gpointer user_data);

typedef struct {
  guint64 weight;          /* everything weighed, ns */
  guint64 n_samples;       /* samples that took a share (wall) */
} SpMetricTotals;

/* Calls func for every (stack, pid, weight) of filter's metric (OFF_CPU or
 * WALL; nothing without thread states). shown: per thread index, nonzero
 * for the threads to weigh. */
void sp_metric_weigh (SpProfile *profile,
                      const SpFilter *filter,
                      const guint8 *shown,
                      SpWeighFunc func,
                      gpointer user_data,
                      SpMetricTotals *totals);

G_END_DECLS
