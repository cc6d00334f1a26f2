/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline.h: samples over time, per thread (the timeline's lanes).
 *
 * SpTimeline counts, for a time range cut into N buckets, each thread's
 * samples per bucket, from the sample index (sp-sample-index.h). */
#pragma once

#include <glib.h>

#include "sp-sample-index.h"

G_BEGIN_DECLS

typedef struct {
  guint64  from_ns;
  guint64  to_ns;
  guint    n_buckets;
  guint    n_threads;
  guint32 *counts;       /* counts[thread * n_buckets + bucket] */
  guint32  max_count;    /* the largest bucket, for scaling lanes */
} SpTimeline;

/* Reads the index only (a snapshot, on the main thread). */
SpTimeline *sp_timeline_new (const SpSampleIndex *index,
                             guint64 from_ns,
                             guint64 to_ns,
                             guint n_buckets);

void sp_timeline_free (SpTimeline *timeline);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpTimeline, sp_timeline_free)

G_END_DECLS
