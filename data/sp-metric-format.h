/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-metric-format.h: a cost as people read it, in the unit of its metric.
 *
 * A cost is a count of samples (SP_METRIC_CPU) or nanoseconds (the time
 * metrics): the views and the report show the first as a number and the
 * second as a duration with a unit that keeps it short, so one function
 * formats both for every view. */
#pragma once

#include <glib.h>

#include "sp-filter.h"

G_BEGIN_DECLS

/* ns as three significant digits in the largest unit it fills: "1.23 s",
 * "45.6 ms", "789 µs", "12 ns" ("0 s" for 0); newly allocated. */
char *sp_format_duration (guint64 ns);

/* Whether metric's costs are nanoseconds (else samples). */
gboolean sp_metric_is_time (SpMetric metric);

/* value of metric: "456" (samples) or a duration (sp_format_duration);
 * newly allocated. */
char *sp_metric_format_value (SpMetric metric,
                              guint64 value);

/* What metric's costs are, for titles and tooltips: "samples",
 * "off-CPU time", "wall-clock time". */
const char *sp_metric_describe (SpMetric metric);

G_END_DECLS
