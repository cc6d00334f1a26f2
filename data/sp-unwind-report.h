/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-unwind-report.h: how well user stacks were unwound, and why not.
 *
 * Read from the side file's [unwinding] and [unwind-module N] groups
 * (docs/SIDE-FILE.md), written by recordings made with --call-graph dwarf
 * or auto, or converted from perf record --call-graph dwarf. The advice
 * names the modules where stacks stop or run out, with the likely reason
 * and what to do about it (in perf's terms for a conversion):
 *
 *   libfoo.so: no unwind tables, 12.0% of stacks stop here; install its
 *   debug symbols (libfoo-dbgsym) or rebuild it with -fasynchronous-unwind-tables */
#pragma once

#include <glib.h>

#include "sp-record-advice.h"

G_BEGIN_DECLS

typedef struct {
  char    *path;
  gboolean readable;
  gboolean eh_frame;
  gboolean debug_frame;
  gboolean debuglink;
  gboolean symbols;
  guint64  functions;
  guint64  frame_pointer_functions;
  guint64  samples;          /* whose stack passes through it */
  guint64  frame_pointer;    /* of those, walked by frame pointers */
  guint64  truncated;        /* the stack copy ran out in it */
  guint64  stopped;          /* unwinding found no way on in it */
} SpUnwindModuleStats;

typedef struct {
  char      *call_graph;     /* "dwarf" or "auto" */
  guint64    stack_size;
  guint64    samples;
  guint64    frame_pointer;
  guint64    complete;
  guint64    truncated;
  guint64    stopped;
  guint64    dropped;        /* not unwound: the recorder fell behind */
  SpRecordedBy recorded_by;  /* live, or converted from a perf.data: whose options the advice names */
  GPtrArray *modules;        /* of SpUnwindModuleStats, most stops first */
} SpUnwindReport;

/* NULL when the recording has no unwinding statistics (fp mode, or no
 * side file). */
SpUnwindReport *sp_unwind_report_new (GKeyFile *meta);
void sp_unwind_report_free (SpUnwindReport *report);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpUnwindReport, sp_unwind_report_free)

/* part as a percentage of the unwound stacks. */
double sp_unwind_report_percent (const SpUnwindReport *report,
                                 guint64 part);

/* One line per module where at least min_percent of the stacks stop or
 * are truncated, saying why and what helps; strings owned by the array. */
GPtrArray *sp_unwind_report_advice (const SpUnwindReport *report,
                                    double min_percent);

/* "libc.so.6" from "/usr/lib/x86_64-linux-gnu/libc.so.6". */
const char *sp_unwind_module_name (const SpUnwindModuleStats *module);

G_END_DECLS
