/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-function-item-private.h: what a subclass of SpFunctionItem (ui/'s
 * SpTreeItem) sets in its base. */
#pragma once

#include "sp-function-item.h"

G_BEGIN_DECLS

/* Once, right after g_object_new: the function and its counts, as
 * sp_function_item_new takes them. */
void _sp_function_item_set_cost (SpFunctionItem *self,
                                 SpProfile *profile,
                                 const SpFunctionCost *cost,
                                 guint64 all);

/* What self and total count (SP_METRIC_CPU until set), notifying self
 * and total when it changes: the cells write them in the new unit. */
void _sp_function_item_set_metric (SpFunctionItem *self,
                                   SpMetric metric);

/* New counts for the same function (a new tree of the same profile),
 * notifying the properties whose values change. */
void _sp_function_item_update_counts (SpFunctionItem *self,
                                      guint64 self_count,
                                      guint64 total,
                                      guint64 all);

G_END_DECLS
