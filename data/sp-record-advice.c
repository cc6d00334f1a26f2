/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-record-advice.c: stackpulse-record's options, or perf record's. */
#include "sp-record-advice.h"

/* The largest stack copy each takes: the live recorder's --stack-size, and
 * perf's --call-graph dwarf,SIZE (a u16 rounded down to 8 bytes). */
#define STACKPULSE_MAX_STACK_SIZE 63488
#define PERF_MAX_STACK_SIZE 65528

SpRecordedBy
sp_recorded_by (GKeyFile *meta)
{
  g_autofree char *format = meta != NULL ? g_key_file_get_string (meta, "input", "format", NULL) : NULL;

  return g_strcmp0 (format, "perf.data") == 0 ? SP_RECORDED_BY_PERF : SP_RECORDED_BY_STACKPULSE;
}

char *
sp_record_advice_call_graph (SpRecordedBy by,
                             const char *call_graph,
                             guint64 stack_size)
{
  const char *mode = call_graph != NULL ? call_graph : "?";

  if (by == SP_RECORDED_BY_PERF)
    return g_strdup_printf ("perf's --call-graph dwarf,%" G_GUINT64_FORMAT " stack copies, unwound as "
                            "stackpulse-record's --call-graph %s", stack_size, mode);
  return g_strdup_printf ("--call-graph %s, %" G_GUINT64_FORMAT "-byte stack copies", mode, stack_size);
}

char *
sp_record_advice_stack_size (SpRecordedBy by,
                             guint64 stack_size)
{
  if (by == SP_RECORDED_BY_PERF)
    return g_strdup_printf ("record with perf record --call-graph dwarf,%" G_GUINT64_FORMAT,
                            MIN (stack_size * 2, (guint64) PERF_MAX_STACK_SIZE));
  return g_strdup_printf ("record with --stack-size %" G_GUINT64_FORMAT,
                          MIN (stack_size * 2, (guint64) STACKPULSE_MAX_STACK_SIZE));
}

const char *
sp_record_advice_unwind (SpRecordedBy by)
{
  return by == SP_RECORDED_BY_PERF ? "record with perf record --call-graph dwarf"
                                   : "record with --call-graph auto (the default)";
}

const char *
sp_record_advice_fell_behind (SpRecordedBy by)
{
  return by == SP_RECORDED_BY_PERF ? NULL : "a lower frequency (-F) or --call-graph auto/fp costs less";
}
