/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-recording.h: switch records in, the off-CPU companion out.
 *
 * With --off-cpu, every followed thread's switch-outs and switch-ins
 * (PERF_RECORD_SWITCH, in time order with the other records) become the
 * SWITCH_OUT / SWITCH_IN / THREAD_END records of OUT.spool.offcpu
 * (codec/sp-offcpu.h, docs/OFF-CPU.md). Where kernel sampling is allowed, a
 * context-switches sample comes just before each switch-out of the same
 * thread: its stack, unwound like an on-CPU sample's, is interned in the
 * main spool and named by the switch-out. The companion names spool ids
 * only after a SYNC that covers their definitions. Per-thread totals
 * (blocked, runnable, switches) go to the side file. */
#pragma once

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

#include "sp-intern-table.h"
#include "sp-offcpu.h"
#include "sp-recording.h"
#include "sp-sched-switch.h"

/* Recorder-private record types (beyond the kernel's and perf's): what the
 * context-switch events' rings hold, retyped as they are queued so that
 * they are told from the cpu-clock samples. */
#define SP_RECORD_SWITCH_SAMPLE       0x10001u
#define SP_RECORD_SWITCH_LOST         0x10002u  /* a PERF_RECORD_LOST */
#define SP_RECORD_SWITCH_LOST_SAMPLES 0x10003u  /* a PERF_RECORD_LOST_SAMPLES */
/* A sched_switch sample whose stack the drain had no room for (it is
 * counted as dropped there): the switch-out without it. */
#define SP_RECORD_SWITCH_STUB         0x10004u

/* A CPU's last sched_switch sample: when, and the running time of the
 * cgroup's tasks there until then. */
typedef struct {
  uint64_t time;
  uint64_t running;
  bool     seen;
} SpSwitchCpu;

typedef struct {
  SpRecording    *rec;            /* borrowed */
  SpOffCpuWriter *writer;         /* owned; NULL: no off-CPU recording */
  bool            failed;         /* writing the companion failed (said once) */
  uint64_t        synced_bytes;   /* the last SYNC's spool_bytes */
  SpInternTable   synced_stacks;  /* stack ids within it */
  uint64_t        n_switches;     /* switch-outs written */
  uint64_t        flushed_switches; /* of them, in the flushed bytes */
  uint64_t        n_lost;         /* records the kernel lost in the switch samples' rings */
  uint64_t        n_dropped;      /* switch stacks the recorder left out (behind, unpaired) */
  /* A launch's cgroup: sched_switch samples, no switch records
   * (sp_offcpu_recording_use_sched_switch). */
  bool                sched_switch;
  SpSchedSwitchFormat format;
  SpSwitchCpu        *cpus;
  size_t              n_cpus;
} SpOffCpuRecording;

/* Takes fd (the companion file, created by sp-output.c) and writes its
 * magic. False with the error. */
bool sp_offcpu_recording_init (SpOffCpuRecording *off,
                               SpRecording *rec,
                               int fd,
                               SpSpoolError *err);

/* FORK (after sp_recording_handle has made the thread): a new thread
 * waits for its first CPU, runnable from its creation: written as a
 * switch-out without a stack at that time, which its first switch-in
 * ends (without it a reader would start the thread at that switch-in and
 * count the wait nowhere). */
void sp_offcpu_recording_fork (SpOffCpuRecording *off,
                               const struct perf_event_header *header,
                               uint64_t time);

/* Whether a record is one of the off-CPU kinds (switch, switch sample,
 * switch loss); an EXIT is also handed to sp_recording_handle. */
bool sp_offcpu_recording_wants (uint32_t type);

/* Whether a record came from the switch samples' rings (the recorder's
 * own types): it is not for sp_recording_handle. */
bool sp_offcpu_recording_is_switch_ring (uint32_t type);

/* The side file's off_cpu_lost: what the kernel lost in the rings that
 * carry the switch records and switch samples (their own), plus rec_lost:
 * the sampling rings' losses where some task's switch records had to ride
 * them (SpPerfEvents.switch_records_shared), else 0. */
uint64_t sp_offcpu_recording_lost (const SpOffCpuRecording *off,
                                   uint64_t rec_lost);

/* A thread of an attached process that was asleep (or waiting for the
 * disk) when the recording started, at time: its first stretch is blocked
 * (no stack: it blocked before the recording), so a thread that sleeps
 * through the whole recording is shown, and the wait it was in counts
 * from the start. Not counted as a switch. */
void sp_offcpu_recording_blocked_at_start (SpOffCpuRecording *off,
                                           int32_t pid,
                                           int32_t tid,
                                           uint64_t time);

/* The switch rings hold sched_switch samples of a cgroup's tasks on
 * n_cpus CPUs, laid out as rec->switch_layout says, and there are no
 * switch records: a switch-out is the sample; a switch-in is the sample's
 * next_pid, or, when the thread came in after a task outside the cgroup,
 * its switch-out's time less the cgroup's running time on that CPU since
 * the CPU's sample before (docs/OFF-CPU.md). False: out of memory. */
bool sp_offcpu_recording_use_sched_switch (SpOffCpuRecording *off,
                                          const SpSchedSwitchFormat *format,
                                          size_t n_cpus);

/* With sched_switch samples: an on-CPU sample (in time order with the
 * others). A thread seen running while it is switched out came in after
 * a task outside the cgroup: a switch-in is written now, so that a
 * follower sees it run, and made exact at its switch-out. */
void sp_offcpu_recording_running (SpOffCpuRecording *off,
                                  const struct perf_event_header *header,
                                  uint64_t time);

/* Applies one record (in time order). */
void sp_offcpu_recording_handle (SpOffCpuRecording *off,
                                 const struct perf_event_header *header,
                                 uint64_t time);

/* Hands the companion to the kernel (after the spool's own flush). */
void sp_offcpu_recording_flush (SpOffCpuRecording *off);

/* The companion's bytes in the file. */
uint64_t sp_offcpu_recording_bytes (const SpOffCpuRecording *off);

/* At the end: the intervals still open end at end_ns in the totals, and the
 * companion is flushed and closed. */
void sp_offcpu_recording_finish (SpOffCpuRecording *off,
                                 uint64_t end_ns);

void sp_offcpu_recording_clear (SpOffCpuRecording *off);
