/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-line-reader.h: what a subprocess writes on a pipe, line by line, on
 * the main loop.
 *
 * The recorder and the perf.data converter both speak in lines: progress
 * as key=value lines on a pipe of their own, reasons on stderr. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Called with each line (without its end), then once with NULL when the
 * pipe ends (or cannot be read, or cancellable was cancelled). */
typedef void (*SpLineReaderFunc) (GObject *owner,
                                  const char *line);

/* Reads stream (taking a reference) until it ends, calling func for each
 * line; owner is held until then. */
void sp_line_reader_start (GInputStream *stream,
                           GCancellable *cancellable,
                           GObject *owner,
                           SpLineReaderFunc func);

/* The value of key in a line of space-separated key=value fields
 * ("samples=12 lost=0"), 0 when it has none. */
guint64 sp_line_reader_get_field (const char *line,
                                  const char *key);

G_END_DECLS
