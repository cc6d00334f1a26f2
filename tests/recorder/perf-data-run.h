/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perf-data-run.h: perf record and perf report beside
 * stackpulse-record --input, for the perf.data conversion's tests.
 *
 * perf is Debian's linux-perf (scripts/install-deps). Where it is missing,
 * or perf_event is refused, a case skips with the reason, and fails under
 * CI (CI set), like the recorder's other tests. */
#pragma once

#include <glib.h>

#include "record-run.h"

/* perf's path when it and perf_event can be used here; NULL (the case is
 * skipped) otherwise; aborts under CI. */
const char *sp_test_perf_data_needs_perf (void);

/* perf record ARGS... -o DIR/NAME -- COMMAND... (both NULL-terminated);
 * fails the test unless it exits 0. Returns DIR/NAME. */
char *sp_test_perf_record (const char *perf,
                           const char *dir,
                           const char *name,
                           const char *const *args,
                           const char *const *command);

/* stackpulse-record --input INPUT -o DIR/out.spool EXTRA... in dir; the
 * result is a recording of dir (which it does not own: dir is the
 * caller's). */
SpChildResult *sp_test_convert (const char *dir,
                                const char *input,
                                const char *const *extra);

/* The samples perf report counts of event (perf's name; "cpu-clock" also
 * counts "cpu-clock:ppp"), or of every event with NULL. */
guint64 sp_test_perf_samples (const char *perf,
                              const char *dir,
                              const char *data,
                              const char *event);

typedef struct {
  char    *key;       /* the symbol, or "PID:COMM" with --sort pid */
  double   share;     /* percent */
  guint64  samples;
} SpPerfRow;

/* perf report --stdio --no-children -n -g none --sort SORT, rows in perf's
 * order (highest first); event: perf's --event filter or NULL. */
GPtrArray *sp_test_perf_report_rows (const char *perf,
                                     const char *dir,
                                     const char *data,
                                     const char *sort);

/* The side file's samples= of [recording]. */
guint64 sp_test_meta_samples (const char *meta_path);

/* Whether a stack's outermost function is where a thread starts (_start,
 * clone3, clone...), as the conformance matrix counts it. */
gboolean sp_test_is_thread_root (const char *function);

/* The share (0..1) of the collapsed stacks' samples whose outermost frame
 * is a thread root. */
double sp_test_rooted_share (GHashTable *stacks);

/* stackpulse-report top of spool beside perf report of data: perf's top
 * functions with their self shares within 3 points. */
void sp_test_assert_top_shares (const char *perf,
                                const char *dir,
                                const char *data,
                                const char *spool,
                                guint min_rows);
