/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-events.h: the cpu-clock sampling events of a recording.
 *
 * One event per CPU and per traced task (inherit=1 follows every thread
 * and child the task creates); the sampling events of one CPU all write
 * into that CPU's ring buffer (PERF_EVENT_IOC_SET_OUTPUT). With --off-cpu
 * the switch records and context-switch samples have a second ring per
 * CPU, so that a loss there is told from a loss of on-CPU samples. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sp-perf-ring.h"
#include "sp-perf-sample.h"
#include "sp-sched-switch.h"

typedef enum {
  SP_CALL_GRAPH_FP,           /* the kernel walks frame pointers */
  SP_CALL_GRAPH_DWARF,        /* registers + stack copy, unwound by us */
  SP_CALL_GRAPH_AUTO,         /* the copy too; frame pointers where they hold */
} SpCallGraph;

typedef struct {
  unsigned    frequency_hz;
  bool        kernel_stacks;     /* sample kernel frames too */
  bool        enable_on_exec;    /* launch: count from the target's exec */
  SpCallGraph call_graph;
  uint32_t    stack_size;        /* bytes of user stack per sample (not fp) */
  uint64_t    regs_mask;         /* user registers per sample (not fp) */
  bool        off_cpu;           /* switch records, and context-switch samples
                                  * where allowed */
  uint32_t    switch_stack_size; /* bytes of user stack per switch-out (not
                                  * fp); when less than stack_size, the
                                  * kernel's frame-pointer chain goes on past
                                  * them (docs/OFF-CPU.md) */
} SpPerfConfig;

#define SP_STACK_SIZE_DEFAULT 16384u
/* A record's size is 16 bits: the copy, its two sizes and the rest. */
#define SP_STACK_SIZE_MAX     63488u

typedef struct {
  SpPerfConfig config;
  int          n_cpus;
  int         *ring_fd_of_cpu;  /* -1 where the CPU is offline */
  SpPerfRing  *rings;           /* one per online CPU */
  size_t       n_rings;
  int         *fds;             /* every event */
  size_t       n_fds;
  size_t       fds_capacity;
  size_t       ring_pages;
  bool         kernel_refused;  /* kernel stacks were asked for, not allowed */
  /* --off-cpu: the context-switches events (a sample at every switch-out,
   * with the stack) in rings of their own, so that their samples are told
   * from the cpu-clock ones by the ring they come from. */
  int         *switch_ring_fd_of_cpu;
  SpPerfRing  *switch_rings;
  size_t       n_switch_rings;
  bool         switch_refused;  /* kernel sampling not allowed: no switch stacks */
  int          switch_errno;    /* why (EACCES, EPERM), 0 when allowed */
  /* The switch records, on dummy events (they never sample) in a third set
   * of rings: a flood of stack copies in the rings above costs stacks, not
   * the switch records that give every thread's times, and the sampling
   * rings' losses are samples' alone. True once some task's records had to
   * ride its cpu-clock events instead. */
  int         *record_ring_fd_of_cpu;
  SpPerfRing  *record_rings;
  size_t       n_record_rings;
  size_t       record_ring_pages;
  bool         switch_records_shared;
  bool         per_cpu;         /* -a: one event per CPU for every task */
  bool         task_records_apart; /* -a: the task, mapping and name records
                                 * come from dummy events in the rings of
                                 * records, not from the sampling events */
  int          cgroup_fd;       /* >= 0: every event is a per-CPU event of
                                 * the tasks in this cgroup (sp-cgroup.h) */
  /* A cgroup's --off-cpu: the switch rings hold sched_switch tracepoint
   * samples (sp-sched-switch.h) and there are no switch records; why not
   * when it could not be had (the context-switches samples and switch
   * records are used instead). */
  bool         switch_tracepoint;
  /* Two sched_switch events per CPU, filtered by prev_state: a preempted
   * thread's samples without kernel frames (open_sched_switch_sampler). */
  bool         switch_tracepoint_split;
  SpSchedSwitchFormat sched_switch;
  char         switch_tracepoint_refused[256];
} SpPerfEvents;

/* The layout of the samples in the switch rings: layout's, and with
 * switch_tracepoint the tracepoint's fields too. */
SpSampleLayout sp_perf_events_switch_layout (const SpPerfEvents *events,
                                             const SpSampleLayout *layout);

/* What the sched_switch samples carry beyond sp_perf_events_sample_type:
 * the CPU, the cgroup's running time on it, the tracepoint's fields. */
#define SP_SWITCH_TRACEPOINT_SAMPLE_TYPE (PERF_SAMPLE_CPU | PERF_SAMPLE_READ | PERF_SAMPLE_RAW)
#define SP_SWITCH_TRACEPOINT_READ_FORMAT PERF_FORMAT_TOTAL_TIME_RUNNING

void sp_perf_events_init (SpPerfEvents *events,
                          const SpPerfConfig *config);

/* Opens the events for task tid on every CPU, with the switch records
 * when switch_records (--off-cpu, and they have no rings of their own).
 * On failure, message says why and what to do (perf_event_paranoid,
 * CAP_PERFMON, mlock limit). */
bool sp_perf_events_add_task (SpPerfEvents *events,
                              pid_t tid,
                              bool switch_records,
                              char *message,
                              size_t message_size);

/* -a: the sampling event of every task on cpu (pid -1), with the task,
 * mapping and name records of what runs there. On failure, message says
 * why and what would allow it (perf_event_paranoid 0, root, CAP_PERFMON). */
bool sp_perf_events_add_cpu (SpPerfEvents *events,
                             int cpu,
                             char *message,
                             size_t message_size);

/* --off-cpu, before sp_perf_events_add_task: opens the events that carry
 * tid's switch records in rings of their own on every CPU: the
 * context-switches events (switch records and a stacked sample at each
 * switch-out), or where the kernel refuses those (switch_refused set)
 * dummy events with the switch records alone. False when not even those
 * could be had: then the cpu-clock events must carry them. */
bool sp_perf_events_add_switch_task (SpPerfEvents *events,
                                     pid_t tid);

/* A launch as root, its program in a cgroup of its own (sp-cgroup.h):
 * per-CPU events of that cgroup's tasks on each of cpus, never switched
 * with the tasks. The task records, and with off_cpu the switch records
 * (PERF_RECORD_SWITCH_CPU_WIDE, one at each switch-out and switch-in of a
 * task of the cgroup), on dummy events in the rings of records; the
 * cpu-clock samples; with off_cpu the context-switch samples. Enabled by
 * sp_perf_events_enable, not at an exec. On failure, message says why. */
bool sp_perf_events_add_cgroup (SpPerfEvents *events,
                                int cgroup_fd,
                                const int *cpus,
                                size_t n_cpus,
                                char *message,
                                size_t message_size);

bool sp_perf_events_enable (SpPerfEvents *events);
void sp_perf_events_disable (SpPerfEvents *events);

void sp_perf_events_close (SpPerfEvents *events);

/* The sample_type of every event of a configuration. */
uint64_t sp_perf_events_sample_type (const SpPerfConfig *config);

/* The bytes a sample of the configuration takes in a ring, with its
 * stack copy whole (a reckoning: callchains vary). */
size_t sp_perf_events_sample_bytes (const SpPerfConfig *config);

/* The kernel's limit on callchain entries, from /proc. */
unsigned sp_perf_max_stack (void);
