/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-stack-counts.h: the samples a filter chooses, counted per stack.
 *
 * Aggregation starts here: one pass over the samples (time range, hidden
 * threads) gives a count per (stack id, pid); every view then works on the
 * distinct stacks, never on every frame of every sample. */
#pragma once

#include <glib.h>

#include "sp-filter.h"
#include "sp-profile.h"
#include "sp-thread-states.h"

G_BEGIN_DECLS

/* Stack ids beyond the spool's, for time metrics (sp-metric-weights.h):
 * each stands for one synthetic function. */
#define SP_STACK_NOT_RECORDED SP_SPOOL_NO_ID        /* "[off-CPU: stack not recorded]" */
#define SP_STACK_NOT_SAMPLED (SP_SPOOL_NO_ID - 1)   /* "[on-CPU: not sampled]" (wall) */
#define SP_STACK_NOT_STARTED SP_THREAD_NOT_STARTED_STACK /* "[off-CPU: waiting for its first CPU]":
                                                          * a new thread from its creation to its first run */
/* Whether a stack id is one of the synthetic ones above. */
#define SP_STACK_IS_SYNTHETIC(stack) ((stack) >= SP_STACK_NOT_STARTED)

typedef struct {
  guint32 stack;
  gint32  pid;
  guint64 count;          /* samples, or ns with a time metric (SpFilter.metric) */
} SpStackCount;

typedef struct _SpStackCountsState SpStackCountsState;

typedef struct {
  GArray             *stacks;     /* SpStackCount: stack id order, then shared stacks */
  guint64             n_samples;  /* chosen samples (wall: those that took a share) */
  guint64             total;      /* the counts' sum: n_samples, or ns with a time metric */
  SpStackCountsState *state;      /* private: what update needs */
} SpStackCounts;

/* Counts the samples the profile has now. */
SpStackCounts *sp_stack_counts_new (SpProfile *profile,
                                    const SpFilter *filter);

/* Counts only the samples added since (a followed spool grew) with the
 * same filter, and refreshes `stacks`. Returns whether any were added.
 * With a time metric everything is weighed again (an open interval grows
 * with the recording), and it returns TRUE. */
gboolean sp_stack_counts_update (SpStackCounts *counts,
                                 SpProfile *profile,
                                 const SpFilter *filter);

void sp_stack_counts_free (SpStackCounts *counts);

/* One counted stack's functions, root first, after the filter's transforms
 * (NULL path: the transforms dropped it). */
typedef void (*SpPathFunc) (const guint32 *path,
                            guint n_path,
                            const SpStackCount *stack,
                            gpointer user_data);

void sp_stack_counts_foreach_path (SpStackCounts *counts,
                                   SpProfile *profile,
                                   const SpFilter *filter,
                                   SpPathFunc func,
                                   gpointer user_data);

/* Appends the functions of stack (as pid sees it) to path, root first. */
void sp_stack_path (SpProfile *profile,
                    guint32 stack,
                    gint32 pid,
                    GArray *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpStackCounts, sp_stack_counts_free)

G_END_DECLS
