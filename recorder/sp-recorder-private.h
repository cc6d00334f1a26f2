/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recorder-private.h: one recording's state, shared by the loop
 * (sp-recorder.c) and its files (sp-recorder-files.c: the spool's
 * flushes and the side file). */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#include "sp-cgroup.h"
#include "sp-event-queue.h"
#include "sp-kallsyms.h"
#include "sp-offcpu-recording.h"
#include "sp-output.h"
#include "sp-perf-events.h"
#include "sp-recorder.h"
#include "sp-recording.h"
#include "sp-ring-drain.h"
#include "sp-stack-tops.h"
#include "sp-side-file.h"
#include "sp-target.h"
#include "sp-unwinder.h"

/* Where the spool ended after a flush: a whole record. */
typedef struct {
  uint64_t bytes;
  uint64_t samples;
} SpFlushPoint;

typedef struct SpRecorder SpRecorder;

struct SpRecorder {
  const SpRecorderOptions *options;
  SpPerfEvents  events;
  SpEventQueue  queue;
  SpRecording   rec;
  SpOffCpuRecording off_cpu;   /* writer NULL without --off-cpu */
  SpUnwinder   *unwinder;      /* dwarf and auto; NULL: fp */
  SpStackTops   stack_tops;    /* the unwinder's, shared with the drain (with the unwinder only) */
  SpRingDrain   drain;         /* the thread that empties the rings */
  SpRecordBuffer taken;        /* the records taken from it last */
  uint64_t     *drain_idle;    /* -a: its idle counts per ring, as last taken */
  SpSpoolWriter *writer;
  SpOutput      output;
  SpSideFile    side_file;
  SpSideInfo    side;
  uint64_t      side_cost_ns;   /* how long the last side file took */
  uint64_t      side_lost;      /* the losses it counted */
  uint64_t      side_dropped;
  SpFlushPoint *flush_points;   /* the spool's size and samples after each flush */
  size_t        n_flush_points;
  size_t        flush_points_size;
  SpLaunch      launch;
  SpCgroup      cgroup;          /* dir_fd -1: none (per-task events) */
  char          cgroup_refused[256]; /* why not, when it was tried */
  uint64_t      cgroup_checked_ns;   /* when followed processes were last looked for in it */
  int           cgroup_left[16];     /* processes seen outside it (said once each) */
  size_t        n_cgroup_left;
  bool          launched;
  bool          child_done;
  int           child_status;
  bool          told_following;   /* said that the command's processes outlive it */
  bool          stop_forwarded;   /* the stop's signal went to every followed process */
  uint64_t      applied_through_ns; /* every record before this is applied */
  uint64_t      none_running_since_ns; /* 0: a followed task runs */
  bool          stop_requested;
  uint64_t      stop_requested_ns;
  bool          killed;
  uint64_t      killed_ns;
  int           signal_fd;
  char          control_line[256];
  size_t        control_used;
  bool          progress_tty;
  uint64_t      last_flush_ns;
  uint64_t      last_side_ns;
  uint64_t      last_progress_ns;
  bool          queue_failed;
  bool          spool_overwritten; /* a program wrote over the spool in place */
  int          *cpus;            /* -a: the CPUs sampled, in the order of their rings */
  size_t        n_cpus;
  uint64_t     *idle_per_cpu;    /* -a: the idle task's samples, per ring */
  size_t        unreadable_processes; /* -a: whose maps this user may not read */
};


static inline uint64_t
_sp_recorder_monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

static inline uint64_t
_sp_recorder_wall_us (void)
{
  struct timeval tv;

  gettimeofday (&tv, NULL);
  return (uint64_t) tv.tv_sec * 1000000ull + (uint64_t) tv.tv_usec;
}

/* The records the drain's thread took out of the rings since the last
 * time, into the time queue, unwritten; returns the time before which
 * every record is out of the rings. */
uint64_t _sp_recorder_take (SpRecorder *r);

/* ---- sp-recorder-system.c (-a) ------------------------------------------ */

/* One sampling event per online CPU; the status to exit with (said on
 * stderr) when the kernel refuses, else 0. */
int _sp_recorder_setup_system (SpRecorder *r);

/* The processes and threads running now, from /proc. */
void _sp_recorder_scan_system (SpRecorder *r);

/* ---- sp-recorder-cgroup.c ----------------------------------------------- */

/* A launch as root with --off-cpu: the held child moved into a cgroup of
 * its own and per-CPU events of that cgroup opened (sp-cgroup.h says why).
 * False when that cannot be (r->cgroup_refused says why, nothing is left
 * of the attempt): then per-task events follow the child. */
bool _sp_recorder_setup_cgroup (SpRecorder *r);

/* Now and then: whether a followed process left the cgroup (systemd-run
 * --scope, su -l, a container tool), which its events then no longer
 * see; said once per process on stderr and in the side file. */
void _sp_recorder_check_cgroup (SpRecorder *r,
                                uint64_t now);

/* ---- sp-recorder-files.c ------------------------------------------------ */

/* Checks and creates the spool, and writes its header at once: an output
 * that cannot be written is refused before the target starts. False
 * (said on stderr) when it cannot. */
bool _sp_recorder_create_spool (SpRecorder *r);

/* Nothing was recorded: the spool this run created goes. */
void _sp_recorder_discard_spool (SpRecorder *r);

/* --off-cpu: the companion's writer on the file made with the spool.
 * False (said) when it cannot be written. */
bool _sp_recorder_start_offcpu (SpRecorder *r);

/* The recording has started: the spool takes its name and the side file
 * says it is in progress. */
void _sp_recorder_place_spool (SpRecorder *r);

/* Each round: flushes the spool when it is time, and refreshes the side
 * file after a flush that changed its counts. */
void _sp_recorder_flush (SpRecorder *r,
                         uint64_t now);

/* After a flush: false (said) when a program wrote over the spool in
 * place, which ends the recording. */
bool _sp_recorder_check_spool_intact (SpRecorder *r);

/* At the end: the last flush, and the spool is closed; r->side gets its
 * final size (and the error, if writing failed). */
void _sp_recorder_close_spool (SpRecorder *r);

/* The last side file (complete=true), making room on a full disk by
 * giving back the spool's last records. False (said) when it could not
 * be written, or the spool gave back records. */
bool _sp_recorder_write_last_side_file (SpRecorder *r,
                                        const SpKallsyms *kallsyms);
