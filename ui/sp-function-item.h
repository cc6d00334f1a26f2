/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-function-item.h: one function with its samples, as a GObject for
 * the rows of ui/'s tables.
 *
 * data/'s function list, callers/callees and call tree are plain C; a
 * list view needs items with properties its column sorters can read.
 * Every table's row is an SpFunctionItem, so the cells and sorters
 * (sp-function-cells-private.h) are written once: the caller/callee view
 * makes them from SpFunctionCosts, the call tree views use SpTreeItem,
 * a subclass that also knows its node. Percentages are of the samples (or
 * the time, for a time metric) the view shows. */
#pragma once

#include <gio/gio.h>

#include "sp-filter.h"
#include "sp-function-list.h"
#include "sp-profile.h"

G_BEGIN_DECLS

#define SP_TYPE_FUNCTION_ITEM (sp_function_item_get_type ())

G_DECLARE_DERIVABLE_TYPE (SpFunctionItem, sp_function_item, SP, FUNCTION_ITEM, GObject)

struct _SpFunctionItemClass
{
  GObjectClass parent_class;

  /* The name of the row that stands for no function
   * (SP_FUNCTION_LIST_ROOT). */
  const char *no_function_name;
};

/* The item holds a reference to profile; cost->function may be
 * SP_FUNCTION_LIST_ROOT (stacks that begin with the function: it has no
 * caller). all: the samples the percentages are of. */
SpFunctionItem *sp_function_item_new (SpProfile *profile,
                                      const SpFunctionCost *cost,
                                      guint64 all);

/* The function's id in the profile, or SP_FUNCTION_LIST_ROOT (which is
 * SP_CALL_TREE_NONE: a call tree's root). */
guint32 sp_function_item_get_function (SpFunctionItem *self);
/* "[stack root]" (a call tree's root: "[all samples]") for no function. */
const char *sp_function_item_get_name (SpFunctionItem *self);
const char *sp_function_item_get_module (SpFunctionItem *self);
/* Where the function is defined ("parser.c:120"), or NULL; newly allocated. */
char *sp_function_item_get_location (SpFunctionItem *self);
SpFunctionKind sp_function_item_get_kind (SpFunctionItem *self);
/* What self and total count: samples (SP_METRIC_CPU, the default) or ns. */
SpMetric sp_function_item_get_metric (SpFunctionItem *self);
guint64 sp_function_item_get_self (SpFunctionItem *self);
guint64 sp_function_item_get_total (SpFunctionItem *self);
double sp_function_item_get_self_percent (SpFunctionItem *self);
double sp_function_item_get_total_percent (SpFunctionItem *self);

G_END_DECLS
