/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-skeleton-plan-private.h: what a first top-down tree visits, planned
 * from the stack nodes alone, so that sp-call-tree.c can build the
 * skeleton in one forward pass over the stack nodes (prefixes come before
 * the nodes that name them) instead of walking up from each counted stack
 * through memos that miss the cache.
 *
 * Walking up from each counted stack (in the counts' order) resolved each
 * frame the first time a stack reached it, from the root down, and a
 * function's id is the order in which it was first resolved; ties between
 * equal totals are broken by function id. So the plan also resolves the
 * frames in exactly that order before the pass, and every report stays
 * byte for byte what it was. */
#pragma once

#include "sp-profile.h"
#include "sp-stack-counts.h"

#define SP_PLAN_SCRATCH 3

/* What the pass computes per stack node (SpSkeletonPlan.need). */
enum {
  SP_PLAN_CALLER = 1 << 0,       /* its tree node as a caller (a return address) */
  SP_PLAN_EXACT = 1 << 1,        /* its tree node with its address exact (a leaf) */
  SP_PLAN_UNDER_EXACT = 1 << 2,  /* its prefix is exact for it: a user frame under a kernel one */
};

typedef struct {
  guint8        *need;         /* per stack node: SP_PLAN_* bits, 0 for a node no counted stack reaches */
  gsize          n_nodes;
  /* Per frame and role (frame_id * 2 + exact): its functions, resolved,
   * innermost first; count 0 for a role nothing needs. */
  const guint32 **functions;
  guint16       *n_functions;
  guint32       *chain;        /* per frame and role: equal for equal lists of functions */
  gsize          n_calls;      /* functions descended in all, the most nodes the pass can add */
  /* SP_PLAN_SCRATCH words per stack node that the plan used and the pass
   * may use as it likes (the pass writes a node's words before it reads
   * them): one array's pages touched once rather than two arrays'. */
  guint32       *scratch;
  guint          n_counted;    /* counts->stacks before the first the pass does not cover */
} SpSkeletonPlan;

/* NULL when the plan does not apply: a counted stack's frames depend on
 * its pid (JIT maps), or the counts are not in stack order. Resolves the
 * frames it needs, in the order the walk would have. */
SpSkeletonPlan *_sp_skeleton_plan_new (SpProfile *profile,
                                       const SpStackCounts *counts);

void _sp_skeleton_plan_free (SpSkeletonPlan *plan);
