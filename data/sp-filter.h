/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-filter.h: which samples count, and how their stacks are rewritten.
 *
 * A time range and a set of threads choose samples; transforms rewrite each
 * stack's function path (root first) before it is counted: focus on a
 * function or a subtree, merge a function into its callers, drop samples
 * with a function, collapse a module into one node, collapse recursion.
 * Transforms apply in the order they were added (a breadcrumb trail). */
#pragma once

#include <glib.h>

#include "sp-profile.h"

G_BEGIN_DECLS

typedef enum {
  SP_TRANSFORM_FOCUS_FUNCTION,    /* only stacks through it, rooted at its outermost call */
  SP_TRANSFORM_FOCUS_SUBTREE,     /* only stacks starting with path, rooted at its end */
  SP_TRANSFORM_MERGE_FUNCTION,    /* the function disappears; its time goes to its caller */
  SP_TRANSFORM_DROP_FUNCTION,     /* samples with the function disappear */
  SP_TRANSFORM_COLLAPSE_MODULE,   /* runs of a module's functions become one node */
  SP_TRANSFORM_COLLAPSE_RECURSION,/* from a function's first call to its innermost: one node */
} SpTransformKind;

typedef struct {
  SpTransformKind kind;
  guint32         function;       /* the function transforms */
  char           *module;         /* COLLAPSE_MODULE */
  GArray         *path;           /* FOCUS_SUBTREE: function ids, root first;
                                   * FOCUS_FUNCTION of several: all of them */
} SpTransform;

/* What a stack weighs (docs/OFF-CPU.md, "Reading it"). */
typedef enum {
  SP_METRIC_CPU,                  /* on-CPU samples: 1 each */
  SP_METRIC_OFF_CPU,              /* blocked and runnable time, ns, on the switch-out's stack */
  SP_METRIC_WALL,                 /* off-CPU time plus running time shared among its samples, ns */
} SpMetric;

typedef struct {
  guint64  from_ns;               /* samples with from_ns <= ts < to_ns */
  guint64  to_ns;
  GArray  *hidden_threads;        /* thread indexes (guint32) left out, or NULL */
  GPtrArray *transforms;          /* SpTransform *, owned */
  SpMetric   metric;              /* intervals count by their overlap with the time range */
} SpFilter;

SpFilter *sp_filter_new (void);
SpFilter *sp_filter_copy (const SpFilter *filter);
void sp_filter_free (SpFilter *filter);

void sp_filter_set_time_range (SpFilter *filter,
                               guint64 from_ns,
                               guint64 to_ns);
void sp_filter_set_metric (SpFilter *filter,
                           SpMetric metric);
/* "cpu", "off-cpu", "wall"; FALSE for another name. */
gboolean sp_metric_from_name (const char *name,
                              SpMetric *metric);
void sp_filter_hide_thread (SpFilter *filter,
                            guint32 thread_index);
void sp_filter_set_thread_hidden (SpFilter *filter,
                                  guint32 thread_index,
                                  gboolean hidden);
gboolean sp_filter_is_thread_hidden (const SpFilter *filter,
                                     guint32 thread_index);
void sp_filter_add_function_transform (SpFilter *filter,
                                       SpTransformKind kind,
                                       guint32 function);

/* A focus on any of n functions (one name's, in several modules): only
 * stacks through one of them, rooted at the outermost such call. */
void sp_filter_add_focus_functions (SpFilter *filter,
                                    const guint32 *functions,
                                    guint n);
void sp_filter_add_collapse_module (SpFilter *filter,
                                    const char *module);
void sp_filter_add_focus_subtree (SpFilter *filter,
                                  const guint32 *path,
                                  guint n_path);
/* What a transform does, as its breadcrumb names it ("Merge"). */
const char *sp_transform_kind_label (SpTransformKind kind);
/* Undoes the last transform; FALSE when there is none. */
gboolean sp_filter_pop_transform (SpFilter *filter);

/* Rewrites path (function ids, root first) in place. Returns FALSE when
 * the sample is to be left out. */
gboolean sp_filter_apply_transforms (const SpFilter *filter,
                                     SpProfile *profile,
                                     GArray *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpFilter, sp_filter_free)

G_END_DECLS
