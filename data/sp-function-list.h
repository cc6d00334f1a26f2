/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-function-list.h: the flat function list, and callers/callees of one.
 *
 * Self: samples whose innermost function it is. Total: samples with it
 * anywhere on the stack (counted once however deep the recursion). */
#pragma once

#include <glib.h>

#include "sp-filter.h"
#include "sp-profile.h"
#include "sp-stack-counts.h"

G_BEGIN_DECLS

typedef struct {
  guint32 function;   /* SP_FUNCTION_LIST_ROOT for "called from the root" */
  guint64 self;
  guint64 total;
} SpFunctionCost;

#define SP_FUNCTION_LIST_ROOT G_MAXUINT32

/* Every function with samples, by self (then total) descending. counts may
 * be NULL. */
GArray *sp_function_list_new (SpProfile *profile,
                              const SpFilter *filter,
                              SpStackCounts *counts);

/* Who calls function (at its outermost call on each stack), and what it
 * calls, with the samples through each; *cost gets the function's own
 * self and total. Sorted by total descending. */
void sp_function_list_callers_callees (SpProfile *profile,
                                       const SpFilter *filter,
                                       SpStackCounts *counts,
                                       guint32 function,
                                       SpFunctionCost *cost,
                                       GArray **callers,
                                       GArray **callees);

G_END_DECLS
