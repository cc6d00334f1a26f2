/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-sched-switch.h: the sched:sched_switch tracepoint, as this kernel
 * lays it out (tracefs: events/sched/sched_switch/format).
 *
 * Why: with a launch's cgroup (sp-cgroup.h), one tracepoint sample per
 * switch-out gives the thread switching out, its stack, whether it blocked
 * or was preempted (prev_state) and which thread comes next (next_pid):
 * what the context-switches samples and the two switch records of every
 * switch gave, at the cost of one record instead of three
 * (docs/OFF-CPU.md "Switch-ins from the cgroup's running time"). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t id;                 /* perf_event_attr.config */
  uint32_t prev_state_offset;  /* in the raw fields */
  uint32_t prev_state_size;    /* 8 (long) on 64-bit kernels, 4 on some */
  uint32_t next_pid_offset;
} SpSchedSwitchFormat;

/* Reads the tracepoint's id and field offsets from tracefs (mounted at
 * /sys/kernel/tracing, or under debugfs); false with why in message. */
bool sp_sched_switch_format_read (SpSchedSwitchFormat *format,
                                  char *message,
                                  size_t message_size);

/* Reads the format from a file's text (for the tests). */
bool sp_sched_switch_format_parse (SpSchedSwitchFormat *format,
                                   const char *text);

/* A sample's raw fields: whether the thread switching out was still
 * runnable (preempted, or yielding), and the tid switched in. False when
 * the fields are too short. */
bool sp_sched_switch_decode (const SpSchedSwitchFormat *format,
                             const uint8_t *raw,
                             uint32_t raw_size,
                             bool *runnable,
                             int32_t *next_tid);
