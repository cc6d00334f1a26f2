/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-file-private.h: opening the files a recording names, safely.
 *
 * A spool names files (modules, their debug files, /tmp/perf-PID.map, its
 * side file) that the viewer then opens: any of them may be a FIFO, which
 * blocks open() until a writer comes, or a device that never ends. These
 * open only regular files, without blocking (through the codec's
 * sp-safe-open.h, which the spool reader uses too), and read at most a
 * bound. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The biggest side file, JIT map or kallsyms copy read. */
#define SP_FILE_MAX_SIDE_FILE ((gsize) 64 << 20)
#define SP_FILE_MAX_SYMBOL_FILE ((gsize) 512 << 20)

/* A read-only, close-on-exec, blocking descriptor of path if it is a
 * regular file; -1 and error (G_FILE_ERROR) otherwise. */
int _sp_file_open_regular (const char *path,
                           GError **error);

/* Whether path is absent or a regular file (stat, following links):
 * what libraries will open by path themselves. */
gboolean _sp_file_is_absent_or_regular (const char *path);

/* The whole of a regular file of at most max_size bytes, NUL-terminated:
 * as many bytes as its size says, or with past_size to its end (files in
 * /proc say size 0; some of them, /proc/kmsg, block a read: only for a
 * path no recording names). */
gboolean _sp_file_read_regular (const char *path,
                                gsize max_size,
                                gboolean past_size,
                                char **contents,
                                gsize *length,
                                GError **error);

/* Whether path looks like a spool: it begins with the spool header, or
 * with part of it (a spool cut short, or one just created when
 * following). Otherwise FALSE, and error says what the file looks like
 * ("… is a perf.data file", "… is empty"). An empty file is accepted only
 * when following (its recorder may not have written the header yet). */
gboolean _sp_file_check_spool (const char *path,
                               gboolean following,
                               GError **error);

G_END_DECLS
