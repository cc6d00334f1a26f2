/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-metric-selector.h: what the views count: CPU samples, off-CPU time
 * or wall-clock time.
 *
 * A drop-down; the time metrics need the off-CPU companion of a
 * recording made with --off-cpu: without one it stays on CPU samples,
 * insensitive, and its tooltip says how to get the others (or, for a
 * recording converted from a perf.data, that they cannot be had). Emits
 * "changed" when the user picks another metric. */
#pragma once

#include <gtk/gtk.h>

#include "sp-filter.h"
#include "sp-record-advice.h"

G_BEGIN_DECLS

#define SP_TYPE_METRIC_SELECTOR (sp_metric_selector_get_type ())
G_DECLARE_FINAL_TYPE (SpMetricSelector, sp_metric_selector, SP, METRIC_SELECTOR, GtkWidget)

SpMetricSelector *sp_metric_selector_new (void);

SpMetric sp_metric_selector_get_metric (SpMetricSelector *self);
/* Shows metric without emitting "changed". */
void sp_metric_selector_set_metric (SpMetricSelector *self,
                                    SpMetric metric);

/* Whether the time metrics can be chosen (the recording has thread
 * states); turning them off goes back to CPU samples. */
void sp_metric_selector_set_times_available (SpMetricSelector *self,
                                             gboolean available);

/* Who recorded the recording shown, for the tooltip without times: how
 * to record off-CPU time live, or that a perf.data's is not converted. */
void sp_metric_selector_set_recorded_by (SpMetricSelector *self,
                                         SpRecordedBy recorded_by);

G_END_DECLS
