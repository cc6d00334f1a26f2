/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-diff.h: two recordings compared function by function (issue 15).
 *
 * A function of A and one of B are the same when their names are equal
 * and their modules are: the same file name, or, where the file names
 * differ, the same build-id (a library moved or renamed between the runs).
 * Never by address: ASLR and rebuilds move code. Each side is counted
 * with its own filter (time range, threads, transforms, metric), exactly
 * as the function list counts it (sp-function-list.h).
 *
 * Values are normalized per side so that runs of different lengths or
 * sizes compare: as shares of the side's total (%), or as time per
 * second of the side's recorded span (% of one CPU: a function that ran
 * 0.5 s in a 2 s recording is 25%). The change (delta) is B minus A in
 * percentage points of the self value. */
#pragma once

#include <glib.h>

#include "sp-filter.h"
#include "sp-profile.h"

G_BEGIN_DECLS

#define SP_DIFF_NONE G_MAXUINT32   /* no such function on that side */

typedef enum {
  SP_DIFF_NORMALIZE_SHARE,   /* % of the side's total */
  SP_DIFF_NORMALIZE_TIME,    /* time per second of the side's span, % of a CPU */
} SpDiffNormalize;

typedef struct {
  const char *name;          /* the function's name */
  const char *module;        /* its module's file name (A's, when both have it) */
  guint32     function_a;    /* its id in A's profile, or SP_DIFF_NONE */
  guint32     function_b;    /* in B's */
  guint64     self_a;        /* raw counts: samples, or ns with a time metric */
  guint64     total_a;
  guint64     self_b;
  guint64     total_b;
  double      self_value_a;  /* normalized (see SpDiffNormalize) */
  double      total_value_a;
  double      self_value_b;
  double      total_value_b;
  double      delta;         /* self_value_b - self_value_a */
} SpDiffRow;

typedef struct {
  GArray          *rows;        /* SpDiffRow, by |delta| descending */
  SpDiffNormalize  normalize;
  guint64          total_a;     /* each side's total count */
  guint64          total_b;
  double           span_s_a;    /* each side's span in seconds (time normalization) */
  double           span_s_b;
  GStringChunk    *strings;     /* owns the rows' names */
} SpDiff;

/* Compares A and B, each with its own filter. With time normalization a
 * side without a span (one sample, or none) has all values 0. */
SpDiff *sp_diff_new (SpProfile *a,
                     const SpFilter *filter_a,
                     SpProfile *b,
                     const SpFilter *filter_b,
                     SpDiffNormalize normalize);

void sp_diff_free (SpDiff *diff);

/* A row's normalized values and delta from its raw counts, unit_a and
 * unit_b being what one count of each side is worth. */
void sp_diff_row_normalize (SpDiffRow *row,
                            double unit_a,
                            double unit_b);

/* The rows' order (GCompareFunc on SpDiffRow): by the size of the
 * change, then by the self values together, then by name and module. */
gint sp_diff_row_compare (gconstpointer x,
                          gconstpointer y);

/* "share", "time"; FALSE for another name. */
gboolean sp_diff_normalize_from_name (const char *name,
                                      SpDiffNormalize *normalize);

/* The span of profile's samples (and off-CPU records with a time
 * metric) that filter's time range keeps, in seconds. */
double sp_diff_span_seconds (SpProfile *profile,
                             const SpFilter *filter);

/* B's module file names that A does not have, each mapped to A's module
 * with the same build-id (a library renamed between the runs), or B's
 * launched program to A's (two builds of a program named apart), for
 * sp-diff-tree.h; newly allocated. Reads both profiles' module tables:
 * call it where the profiles do not grow (finished recordings). */
GHashTable *sp_diff_module_map (SpProfile *a,
                                SpProfile *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpDiff, sp_diff_free)

G_END_DECLS
