/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-sample-index.h: a recording's samples in time order.
 *
 * SpSampleIndex keeps the samples in time order (the spool has them in
 * arrival order, slightly shuffled between CPUs), each thread's first and
 * last sample and its sample count; it grows with a followed spool. It
 * reads the codec's reader only. */
#pragma once

#include <glib.h>

#include "sp-spool-reader.h"

G_BEGIN_DECLS

typedef struct _SpSampleIndex SpSampleIndex;

SpSampleIndex *sp_sample_index_new (void);
void sp_sample_index_free (SpSampleIndex *index);

/* Takes in the samples the reader has gained since the last call. */
void sp_sample_index_update (SpSampleIndex *index,
                             const SpSpoolReader *reader);

/* Sample indexes in time order. */
const guint32 *sp_sample_index_get_order (const SpSampleIndex *index,
                                          gsize *n_samples);

/* The part of the order with from_ns <= ts < to_ns: [*first, *last). */
void sp_sample_index_find_range (const SpSampleIndex *index,
                                 const SpSpoolReader *reader,
                                 guint64 from_ns,
                                 guint64 to_ns,
                                 gsize *first,
                                 gsize *last);

/* The first and last sample time of all threads; FALSE if none. */
gboolean sp_sample_index_get_time_span (const SpSampleIndex *index,
                                        guint64 *first_ns,
                                        guint64 *last_ns);

/* How many samples a thread has (kept as samples come in). */
guint64 sp_sample_index_get_thread_samples (const SpSampleIndex *index,
                                            guint32 thread);

/* A thread's first and last sample time; FALSE if it has none. */
gboolean sp_sample_index_get_thread_span (const SpSampleIndex *index,
                                          guint32 thread,
                                          guint64 *first_ns,
                                          guint64 *last_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpSampleIndex, sp_sample_index_free)

G_END_DECLS
