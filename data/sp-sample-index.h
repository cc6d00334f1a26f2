/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-sample-index.h: a recording's samples in time order.
 *
 * SpSampleIndex keeps each sample's time, thread and number in time order
 * (the spool has them in arrival order, slightly shuffled between CPUs),
 * and each thread's first and last sample and sample count; it grows with
 * a followed spool. It reads the codec's reader only, and copies what it
 * needs, so nothing it hands out points into the growing reader.
 *
 * There is one index per profile. The thread that updates it (the
 * analysis worker) hands other threads snapshots: immutable versions that
 * share the index's storage in blocks (copy on write), so a snapshot of a
 * growing recording costs the block being written, not the whole index.
 *
 * A position takes 6 bytes: its time as an offset within its block, its
 * thread in 8 bits and its sample as a distance from the position (the
 * spool is nearly in time order); wider where one of them does not fit
 * (8 or 16 bytes). Over a finished reader (sp_sample_index_new_over) it
 * takes 1 byte, the distance: time and thread are read from the reader. */
#pragma once

#include <glib.h>

#include "sp-spool-reader.h"

G_BEGIN_DECLS

typedef struct _SpSampleIndex SpSampleIndex;

SpSampleIndex *sp_sample_index_new (void);
/* An index of a finished reader (sp_spool_reader_is_finished) that
 * reads the samples' times and threads from it rather than copying them.
 * owner keeps the reader alive: each snapshot holds a reference on it
 * (owner_ref, owner_unref); the index itself does not, so the owner may
 * hold the index. */
SpSampleIndex *sp_sample_index_new_over (const SpSpoolReader *reader,
                                         gpointer owner,
                                         gpointer (*owner_ref) (gpointer owner),
                                         GDestroyNotify owner_unref);
SpSampleIndex *sp_sample_index_ref (SpSampleIndex *index);
void sp_sample_index_unref (SpSampleIndex *index);

/* Takes in the samples the reader has gained since the last call; not on
 * a snapshot. */
void sp_sample_index_update (SpSampleIndex *index,
                             const SpSpoolReader *reader);

/* An immutable copy of the index as it is now, for another thread: it
 * stays as it is while the index goes on growing. */
SpSampleIndex *sp_sample_index_snapshot (SpSampleIndex *index);

gsize sp_sample_index_get_n_samples (const SpSampleIndex *index);

/* The threads the reader had at the last update (with or without samples). */
guint sp_sample_index_get_n_threads (const SpSampleIndex *index);

/* A run of the time order, decoded (the index keeps it compactly):
 * positions [pos, pos + n) are time[i], thread[i], sample[i] for i < n. */
#define SP_SAMPLE_RUN_MAX 1024

typedef struct {
  guint64 time[SP_SAMPLE_RUN_MAX];
  guint32 thread[SP_SAMPLE_RUN_MAX];
  guint32 sample[SP_SAMPLE_RUN_MAX];   /* the sample's number in the spool */
  gsize   n;
} SpSampleRun;

/* The run starting at pos and ending at end at the latest (pos < end <=
 * n_samples). Walk a range with
 *   for (gsize pos = first; pos < last; pos += run.n)
 *     sp_sample_index_get_run (index, pos, last, &run), ... */
void sp_sample_index_get_run (const SpSampleIndex *index,
                              gsize pos,
                              gsize end,
                              SpSampleRun *run);

/* The sample at a position of the time order. */
guint32 sp_sample_index_get_sample (const SpSampleIndex *index,
                                    gsize pos);

/* The part of the order with from_ns <= time < to_ns: [*first, *last). */
void sp_sample_index_find_range (const SpSampleIndex *index,
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpSampleIndex, sp_sample_index_unref)

G_END_DECLS
