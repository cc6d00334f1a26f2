/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-export-file.h: an export written to a file, whole or not at all.
 *
 * The formats of sp-export.h, sp-export-pprof.h and sp-export-speedscope.h
 * go through a temporary file beside the target that is renamed over it
 * once complete: a full disk or a crash never leaves half an export, and
 * an existing file is replaced only by a whole one. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "sp-filter.h"
#include "sp-profile.h"

G_BEGIN_DECLS

typedef enum {
  SP_EXPORT_COLLAPSED,    /* folded stacks, text */
  SP_EXPORT_PPROF,        /* profile.proto, gzip */
  SP_EXPORT_SPEEDSCOPE,   /* JSON */
} SpExportFormat;

/* "collapsed", "pprof", "speedscope"; FALSE for another name. */
gboolean sp_export_format_from_name (const char *name,
                                     SpExportFormat *format);
/* The file name extension that format's files usually have (".pb.gz"). */
const char *sp_export_format_extension (SpExportFormat format);

/* Writes the export of what filter chooses to path. Refuses a path that
 * exists and is no regular file (a folder, a link, a FIFO, a device); the
 * error names the file and says why (G_FILE_ERROR: "cannot write
 * out.json: No space left on device"). */
gboolean sp_export_to_file (SpProfile *profile,
                            const SpFilter *filter,
                            SpExportFormat format,
                            const char *path,
                            GError **error);

/* The same to an open stream (stdout). FALSE when it could not be
 * written (errno says why). */
gboolean sp_export_to_stream (SpProfile *profile,
                              const SpFilter *filter,
                              SpExportFormat format,
                              FILE *out);

G_END_DECLS
