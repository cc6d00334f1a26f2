/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-ring-drain.h: the thread that empties the perf rings.
 *
 * A ring fills while a slow DWARF unwind runs if the thread that unwinds
 * also drains it, and what the kernel cannot store is lost. So a thread
 * of its own does nothing but drain: it sleeps in poll() until a ring is
 * a quarter full (or 50 ms pass), copies every record out into the
 * backlog (sp-record-backlog.h), cutting each stack copy to its thread's
 * stack (the tops the unwinder learnt, shared through SpStackTops), and
 * sleeps again; the recording's thread takes the records from there,
 * orders, unwinds and writes them behind it. The drain never waits for
 * that thread: the backlog is bounded, and a sample over its bound is
 * left out and counted.
 *
 * The drain's thread owns the rings' read side while it runs; before
 * sp_ring_drain_start and after sp_ring_drain_stop the caller may drain
 * them itself with sp_ring_drain_pass. */
#pragma once

#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sp-perf-events.h"
#include "sp-perf-sample.h"
#include "sp-record-backlog.h"
#include "sp-stack-tops.h"

/* A command line read when its exec left the rings (-a): a record of the
 * drain's own, "pid (u32), the line (NUL-terminated)", which comes before
 * its exec's COMM record: by the time the exec is applied (after the
 * samples before it are unwound) a short program may be gone. */
#define SP_RECORD_EXEC_LINE 0x10010u

typedef struct {
  SpPerfEvents    *events;         /* its rings stay as they are while the thread runs */
  SpSampleLayout   layout;
  SpSampleLayout   switch_layout;  /* the switch rings' samples */
  bool             draining_switch_ring; /* else a ring of records, in queue_switch_record */
  SpStackTops     *stack_tops;     /* NULL: stack copies are kept whole */
  bool             system_wide;    /* idle samples counted */
  SpRecordBacklog  backlog;
  /* Under the backlog's lock: */
  uint64_t        *idle_per_ring;  /* -a: the idle task's samples per sampling ring */
  uint64_t         ring_samples;   /* samples read from the sampling rings, idle ones not */
  uint64_t         drained_through_ns; /* every record before this was out of the rings */
  /* The draining thread's own: */
  size_t           draining_ring;
  uint64_t         cut_record[65536 / 8]; /* one record, 8-aligned as in the ring */
  int              stop_fd;        /* eventfd: the thread ends */
  int              wake_fd;        /* eventfd: records were added */
  struct pollfd   *fds;            /* the stop's, then every ring's */
  size_t           n_fds;
  pthread_t        thread;
  bool             running;
} SpRingDrain;

/* limit: the backlog's bound in bytes. False when out of memory or file
 * descriptors. */
bool sp_ring_drain_init (SpRingDrain *drain,
                         SpPerfEvents *events,
                         const SpSampleLayout *layout,
                         SpStackTops *stack_tops,
                         bool system_wide,
                         size_t limit);

/* Stops the thread if it runs and frees everything. */
void sp_ring_drain_clear (SpRingDrain *drain);

/* Starts the thread; false (errno set) when it could not be. */
bool sp_ring_drain_start (SpRingDrain *drain);

/* Ends the thread, then drains every ring one last time. */
void sp_ring_drain_stop (SpRingDrain *drain);

/* Every ring's records into the backlog, now (the drain's thread does
 * this each time it wakes). */
void sp_ring_drain_pass (SpRingDrain *drain);

/* Readable when records were added (reading it clears it). */
int sp_ring_drain_wake_fd (const SpRingDrain *drain);

typedef struct {
  SpBacklogCounts counts;           /* since the last take */
  uint64_t        drained_through_ns;
  uint64_t        ring_samples;
} SpDrainTaken;

/* The records drained so far into *into (see sp_record_backlog_take);
 * idle_per_ring (n_rings entries, or NULL) gets the idle counts. */
void sp_ring_drain_take (SpRingDrain *drain,
                         SpRecordBuffer *into,
                         uint64_t *idle_per_ring,
                         SpDrainTaken *taken);
