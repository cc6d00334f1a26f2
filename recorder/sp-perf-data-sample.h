/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-sample.h: perf.data records re-encoded as the live
 * recorder's own, for SpRecording (sp-recording.h).
 *
 * A perf.data sample has the fields its event's sample_type says (perf
 * asks for IDENTIFIER, ID, CPU, PERIOD, READ, RAW, BRANCH_STACK... as it
 * likes); the recording reads IP|TID|TIME|CALLCHAIN and, when it unwinds,
 * REGS_USER|STACK_USER with the registers in the unwinder's mask order
 * (sp_unwinder_regs_mask). Other records carry a sample_id trailer of
 * the first event's layout; the recording's is TID|TIME. */
#pragma once

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sp-perf-data-file.h"
#include "sp-perf-sample.h"
#include "sp-unwinder.h"

#define SP_PERF_DATA_MAX_REGS 64

typedef struct {
  const SpPerfData *data;
  long     event;            /* the event converted (index into data->events) */
  bool     unwind;           /* its samples carry user registers and stack */
  size_t   reg_index[SP_PERF_DATA_MAX_REGS]; /* unwinder's register i: perf's index */
  size_t   n_regs;           /* the unwinder's */
  SpSampleLayout layout;     /* what the re-encoded samples carry */
  const SpUnwinder *unwinder; /* where known, a thread's stack ends there: the
                               * copy above it is not kept (NULL: kept whole) */
  uint64_t n_other_events;   /* samples of other events, left out */
  uint64_t n_malformed;      /* samples shorter than their fields */
} SpPerfDataConverter;

/* For data's event number event. False with a message when its samples
 * cannot be unwound (registers the unwinder needs are missing). */
bool sp_perf_data_converter_init (SpPerfDataConverter *conv,
                                  const SpPerfData *data,
                                  long event,
                                  char *message,
                                  size_t message_size);

/* The event a sample belongs to, or -1. */
long sp_perf_data_sample_event (const SpPerfData *data,
                                const struct perf_event_header *header);

/* A sample of the converted event into out (64 KiB, 8-aligned), as the
 * recording reads it; false when it is another event's or malformed
 * (counted). */
bool sp_perf_data_encode_sample (SpPerfDataConverter *conv,
                                 const struct perf_event_header *header,
                                 uint64_t *out);

/* Another record with its sample_id trailer made TID|TIME; false when it
 * is too short for its trailer. */
bool sp_perf_data_encode_other (const SpPerfDataConverter *conv,
                                const struct perf_event_header *header,
                                uint64_t *out);
