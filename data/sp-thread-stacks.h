/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-thread-stacks.h: the samples a filter chooses, weighed per thread
 * and stack.
 *
 * SpStackCounts (sp-stack-counts.h) counts per stack and process, which is
 * what the views need; the exports keep threads apart (speedscope has a
 * profile per thread, pprof a thread label per sample), so they count
 * here: one pass over the samples for the CPU metric, one weighing per
 * thread for a time metric (sp-metric-weights.h). For the profile's
 * updating thread, like every aggregation. */
#pragma once

#include <glib.h>

#include "sp-filter.h"
#include "sp-profile.h"

G_BEGIN_DECLS

typedef struct {
  guint32 thread;   /* the thread index samples carry */
  guint32 stack;    /* a stack id, or SP_STACK_NOT_RECORDED / _NOT_SAMPLED */
  gint32  pid;
  guint64 weight;   /* samples, or ns with a time metric */
} SpThreadStack;

/* SpThreadStack, sorted by thread, then stack; total: the weights' sum. */
GArray *sp_thread_stacks_new (SpProfile *profile,
                              const SpFilter *filter,
                              guint64 *total);

G_END_DECLS
