/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-import.h: a perf.data file converted into a spool, for the
 * window.
 *
 * stackpulse-record --input does the work, as a subprocess (a large file
 * takes a while, and a damaged one must not take the window down); its
 * progress comes as key=value lines on a pipe, its reasons on stderr.
 * Conversions go to the user's cache, never beside the perf.data (which
 * may be read-only, or someone else's), under a name made from the file's
 * path, size and time: the same perf.data opened again reuses a finished
 * conversion, and a perf.data recorded again converts again. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SP_TYPE_PERF_DATA_IMPORT (sp_perf_data_import_get_type ())

G_DECLARE_FINAL_TYPE (SpPerfDataImport, sp_perf_data_import, SP, PERF_DATA_IMPORT, GObject)

/* Where perf_data's conversion goes: CACHE/stackpulse/converted/NAME-HASH.spool
 * (NAME: its file name; HASH: of its absolute path, size and modification
 * time). NULL and error when the file cannot be looked at. */
char *sp_perf_data_import_cache_path (const char *perf_data,
                                      GError **error);

/* Whether output (from sp_perf_data_import_cache_path) holds a finished
 * conversion: the spool is there and its side file says it is complete. */
gboolean sp_perf_data_import_is_done (const char *output);

/* What the converter warned about when it made output (a damaged
 * perf.data: "… is damaged at byte N …"), kept beside it; NULL when it
 * said nothing. */
char *sp_perf_data_import_read_warnings (const char *output);

/* Starts converting perf_data into output: the converter writes under a
 * hidden name beside output, which takes output's name only once the
 * conversion succeeded, so output is never half written. Signals:
 * "progress" (guint64 input bytes done, guint64 input total (0: unknown),
 * guint64 samples) about every 250 ms, and "finished" (gboolean
 * converted) once the converter ended and said all it had to. NULL and
 * error when the converter cannot be found or started. */
SpPerfDataImport *sp_perf_data_import_start (const char *perf_data,
                                             const char *output,
                                             GError **error);

/* Stops the conversion (SIGTERM: the converter removes what it wrote);
 * "finished" (FALSE) follows. The object stays alive until the converter
 * has ended, so it may be dropped right after. */
void sp_perf_data_import_cancel (SpPerfDataImport *self);

gboolean sp_perf_data_import_is_running (SpPerfDataImport *self);
const char *sp_perf_data_import_get_output (SpPerfDataImport *self);
/* The converter's process id while it runs (0 once it ended). */
GPid sp_perf_data_import_get_pid (SpPerfDataImport *self);
/* After "finished": whether sp_perf_data_import_cancel stopped it. */
gboolean sp_perf_data_import_was_cancelled (SpPerfDataImport *self);
/* After "finished" (FALSE): why nothing was converted, in the
 * converter's words (its last line on stderr). */
const char *sp_perf_data_import_get_error (SpPerfDataImport *self);
/* After "finished" (TRUE): the converter's warnings (a damaged perf.data
 * converted up to the damage), or NULL. */
const char *sp_perf_data_import_get_warnings (SpPerfDataImport *self);

G_END_DECLS
