/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-thread-states.h: each thread's running, blocked and runnable stretches.
 *
 * Derived from the off-CPU companion's switch records (docs/OFF-CPU.md,
 * "Deriving states and durations"): a thread runs from its first known
 * time (its first sample or record) or a switch-in to the next
 * switch-out, then is blocked or runnable (the switch-out's state) until
 * the next switch-in or THREAD_END. An interval still open when the
 * records end (a growing recording) ends at the last known time. Pure:
 * made from a record array, so tests need no files. Immutable once made
 * and reference-counted: the updating thread replaces its states as
 * records arrive; a result handed to the window keeps the ones it had. */
#pragma once

#include <glib.h>

#include "sp-offcpu.h"

G_BEGIN_DECLS

/* The stack of a new thread's first stretch, runnable from its creation
 * to its first switch-in: the recorder writes a switch-out without a
 * stack at its creation (docs/OFF-CPU.md), and a thread that has not run
 * has no stack. SP_STACK_NOT_STARTED in sp-stack-counts.h. */
#define SP_THREAD_NOT_STARTED_STACK (SP_SPOOL_NO_ID - 2)

typedef enum {
  SP_THREAD_RUNNING = 0,
  SP_THREAD_BLOCKED = SP_OFFCPU_BLOCKED,
  SP_THREAD_RUNNABLE = SP_OFFCPU_RUNNABLE,
} SpThreadState;

typedef struct {
  guint64 start_ns;
  guint64 end_ns;
  /* Off the CPU: the switch-out's stack. Running: the stack of the
   * switch-out that ends it. SP_SPOOL_NO_ID for none,
   * SP_THREAD_NOT_STARTED_STACK for a new thread's wait for its first CPU. */
  guint32 stack;
  guint8  state;             /* SpThreadState */
  guint8  open;              /* not ended yet: end_ns is the last known time */
} SpStateInterval;

typedef struct {
  guint64 running_ns;
  guint64 blocked_ns;
  guint64 runnable_ns;
  guint64 switches;          /* switch-outs */
} SpThreadTotals;

typedef struct _SpThreadStates SpThreadStates;

/* records: companion records (SYNC ones are skipped) in any order; per
 * thread they are taken in timestamp order (file order for equal times).
 * Records naming a thread >= n_threads are ignored. first_sample_ns: per
 * thread its first sample's time, G_MAXUINT64 for none; NULL for no
 * samples. last_known_ns: the recording's latest time (samples and
 * records), where open intervals end. */
SpThreadStates *sp_thread_states_new (const SpOffCpuRecord *records,
                                      gsize n_records,
                                      guint n_threads,
                                      const guint64 *first_sample_ns,
                                      guint64 last_known_ns);
SpThreadStates *sp_thread_states_ref (SpThreadStates *states);
void sp_thread_states_unref (SpThreadStates *states);

guint sp_thread_states_get_n_threads (const SpThreadStates *states);
guint64 sp_thread_states_get_last_known_ns (const SpThreadStates *states);

/* The earliest interval's start and the latest end of all threads; FALSE
 * when there is no interval. */
gboolean sp_thread_states_get_span (const SpThreadStates *states,
                                    guint64 *first_ns,
                                    guint64 *last_ns);

/* A thread's intervals in time order (zero-length closed ones left out). */
const SpStateInterval *sp_thread_states_get_intervals (const SpThreadStates *states,
                                                       guint thread,
                                                       gsize *n_intervals);
const SpThreadTotals *sp_thread_states_get_totals (const SpThreadStates *states,
                                                   guint thread);

/* A thread's totals within [from, to): each interval by its overlap, the
 * switch-outs that begin an off-CPU interval there. */
void sp_thread_states_sum_range (const SpThreadStates *states,
                                 guint thread,
                                 guint64 from_ns,
                                 guint64 to_ns,
                                 SpThreadTotals *totals);

/* The thread's interval holding t (start <= t < end), or NULL. */
const SpStateInterval *sp_thread_states_find (const SpThreadStates *states,
                                              guint thread,
                                              guint64 t_ns);

/* The time of each state in one of n_buckets equal parts of a range. */
typedef struct {
  guint64 ns[3];             /* by SpThreadState */
} SpStateBucket;

/* Fills buckets[n_buckets] for [from, to) (the timeline's lanes). */
void sp_thread_states_bucket (const SpThreadStates *states,
                              guint thread,
                              guint64 from_ns,
                              guint64 to_ns,
                              guint n_buckets,
                              SpStateBucket *buckets);

/* The part of [start, end) inside [from, to), in ns (0 when apart). */
guint64 sp_state_interval_overlap (const SpStateInterval *interval,
                                   guint64 from_ns,
                                   guint64 to_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpThreadStates, sp_thread_states_unref)

G_END_DECLS
