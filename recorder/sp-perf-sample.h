/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-sample.h: the fields of a PERF_RECORD_SAMPLE.
 *
 * Which fields a sample has, and in which order, follows from the event's
 * sample_type (and the register mask); every event of a recording has the
 * same, so one layout reads them all. */
#pragma once

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t sample_type;
  size_t   n_user_regs;    /* bits set in sample_regs_user */
  uint64_t stack_size;     /* sample_stack_user: bytes asked for */
  uint64_t read_format;    /* with PERF_SAMPLE_READ: one event's, not a group's */
} SpSampleLayout;

typedef struct {
  uint64_t        ip;
  uint32_t        pid;
  uint32_t        tid;
  uint64_t        time;
  uint32_t        cpu;          /* PERF_SAMPLE_CPU */
  uint64_t        time_running; /* PERF_SAMPLE_READ with TOTAL_TIME_RUNNING */
  const uint64_t *callchain;
  uint64_t        n_callchain;
  const uint8_t  *raw;          /* PERF_SAMPLE_RAW: a tracepoint's fields */
  uint32_t        raw_size;
  uint64_t        regs_abi;     /* PERF_SAMPLE_REGS_ABI_NONE: no user state */
  const uint64_t *regs;
  size_t          n_regs;
  const uint8_t  *stack;
  uint64_t        stack_size;   /* bytes in the record (the recorder may
                                 * have cut what lies above the thread's
                                 * stack: sp-recorder.c) */
  uint64_t        stack_used;   /* bytes the kernel copied (dyn_size) */
} SpPerfSample;

/* The stack bytes a sample holds, and whether the kernel's copy was cut
 * at the size asked for (then the stack may go on above it). */
static inline uint64_t
sp_perf_sample_stack_bytes (const SpPerfSample *sample)
{
  return sample->stack_used < sample->stack_size ? sample->stack_used : sample->stack_size;
}

static inline bool
sp_perf_sample_stack_cut (const SpSampleLayout *layout,
                          const SpPerfSample *sample)
{
  return sample->stack_used >= layout->stack_size;
}

/* Where the stack copy's size field is, from the start of the record: a
 * recorder that cuts the copy rewrites the record from there. */
size_t sp_perf_sample_stack_offset (const SpPerfSample *sample,
                                    const struct perf_event_header *header);

/* False when the record is shorter than its fields say. */
bool sp_perf_sample_parse (const SpSampleLayout *layout,
                           const struct perf_event_header *header,
                           SpPerfSample *sample);
