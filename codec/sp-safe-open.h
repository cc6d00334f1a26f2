/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-safe-open.h: opening a file a recording names, regular files only.
 *
 * A spool, and the files it names (modules, their debug files,
 * /tmp/perf-PID.map, its side file), may be a FIFO, which blocks open()
 * until a writer comes, or a device that never ends. The codec's reader
 * and data/ (data/sp-file.c) both open them through this one function, so
 * they refuse the same files in the same words. libc only. */
#pragma once

#include <sys/types.h>

/* The message for a file that is not regular: the path, then the type
 * sp_safe_open_regular() found ("… is a FIFO (named pipe), not a regular
 * file"). A failed open() is worded "cannot open PATH: strerror". */
#define SP_SAFE_OPEN_NOT_REGULAR_FORMAT "%s is %s, not a regular file"

/* Why sp_safe_open_regular() gave no descriptor: one of the two is set. */
typedef struct {
  int         sys_errno;  /* open() or fcntl() failed, or 0 */
  const char *file_type;  /* no regular file: "a directory", …, or NULL */
} SpSafeOpenFailure;

/* "a FIFO (named pipe)", "a directory", …, or NULL for a regular file. */
const char *sp_safe_open_file_type_name (mode_t mode);

/* A read-only, close-on-exec, blocking descriptor of path if it is a
 * regular file; otherwise -1, and *failure says why. */
int sp_safe_open_regular (const char *path,
                          SpSafeOpenFailure *failure);
