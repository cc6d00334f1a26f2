/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline.h: samples over time, per thread (the timeline's lanes).
 *
 * SpTimeline counts, for a time range cut into N buckets, each thread's
 * samples per bucket, from the sample index (sp-sample-index.h). */
#pragma once

#include <gio/gio.h>

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

/* Reads the index only (a snapshot): one pass over the range's samples. */
SpTimeline *sp_timeline_new (const SpSampleIndex *index,
                             guint64 from_ns,
                             guint64 to_ns,
                             guint n_buckets);

/* The same counted on a thread of its own, behind the main thread (nice
 * 10), the result coming as a GTask's: what a range of millions of
 * samples needs, as the main thread must not take that long.
 * index must be a snapshot (immutable); it is held until the count ends.
 * A cancelled count finishes with G_IO_ERROR_CANCELLED. */
void sp_timeline_new_async (gpointer source_object,
                            SpSampleIndex *index,
                            guint64 from_ns,
                            guint64 to_ns,
                            guint n_buckets,
                            GCancellable *cancellable,
                            GAsyncReadyCallback callback,
                            gpointer user_data);
SpTimeline *sp_timeline_new_finish (GAsyncResult *result,
                                    GError **error);
void sp_timeline_free (SpTimeline *timeline);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpTimeline, sp_timeline_free)

G_END_DECLS
