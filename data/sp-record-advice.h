/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-record-advice.h: what to record differently, in the terms of the
 * program that recorded.
 *
 * A live recording's advice names stackpulse-record's options (and the
 * window's Record dialog); one converted from a perf.data (the side
 * file's [input] format=perf.data, sp-perf-input.h) was recorded by perf,
 * so its advice names perf record's options, or says that the conversion
 * has no such thing: perf's switch events and sched_switch tracepoints
 * are not converted, so off-CPU time cannot come from a perf.data. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  SP_RECORDED_BY_STACKPULSE,  /* stackpulse-record, or a side file that does not say */
  SP_RECORDED_BY_PERF,        /* converted from a perf.data */
} SpRecordedBy;

/* Who recorded the recording whose side file is meta (NULL: none). */
SpRecordedBy sp_recorded_by (GKeyFile *meta);

/* Why a converted recording has no off-CPU time, as the advice says it. */
#define SP_RECORD_ADVICE_NO_OFF_CPU_FROM_PERF "off-CPU time is not converted from perf.data"

/* How the user stacks were taken: "--call-graph auto, 8192-byte stack
 * copies"; converted, "perf's --call-graph dwarf,8192 stack copies,
 * unwound as stackpulse-record's --call-graph auto". */
char *sp_record_advice_call_graph (SpRecordedBy by,
                                   const char *call_graph,
                                   guint64 stack_size);

/* Stacks deeper than the stack copies: "record with --stack-size N", or
 * "record with perf record --call-graph dwarf,N": twice stack_size, at
 * most what the program takes. */
char *sp_record_advice_stack_size (SpRecordedBy by,
                                   guint64 stack_size);

/* Frame pointers that do not hold (an fp recording):
 * "record with --call-graph auto (the default)", or
 * "record with perf record --call-graph dwarf". */
const char *sp_record_advice_unwind (SpRecordedBy by);

/* Unwinding fell behind while recording (samples dropped): "a lower
 * frequency (-F) or --call-graph auto/fp costs less"; NULL for a
 * conversion, where perf took the samples and nothing is to be recorded
 * differently. */
const char *sp_record_advice_fell_behind (SpRecordedBy by);

G_END_DECLS
