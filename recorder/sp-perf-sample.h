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
} SpSampleLayout;

typedef struct {
  uint64_t        ip;
  uint32_t        pid;
  uint32_t        tid;
  uint64_t        time;
  const uint64_t *callchain;
  uint64_t        n_callchain;
  uint64_t        regs_abi;     /* PERF_SAMPLE_REGS_ABI_NONE: no user state */
  const uint64_t *regs;
  size_t          n_regs;
  const uint8_t  *stack;
  uint64_t        stack_size;   /* bytes asked for */
  uint64_t        stack_used;   /* bytes the kernel copied (dyn_size) */
} SpPerfSample;

/* False when the record is shorter than its fields say. */
bool sp_perf_sample_parse (const SpSampleLayout *layout,
                           const struct perf_event_header *header,
                           SpPerfSample *sample);
