/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-error.h: how the codec says what went wrong, and where.
 *
 * The message uses the reference reader's wording (the dump prints it as
 * is); offset says where in the file, so callers can add "at byte N". */
#pragma once

#include <stdint.h>

typedef enum {
  SP_SPOOL_ERROR_NONE = 0,
  SP_SPOOL_ERROR_IO,          /* open, stat, map, write failed: see sys_errno */
  SP_SPOOL_ERROR_NO_MEMORY,
  SP_SPOOL_ERROR_TRUNCATED,   /* the bytes end inside the header or a record */
  SP_SPOOL_ERROR_INVALID,     /* the bytes break a rule of the format */
  SP_SPOOL_ERROR_USAGE,       /* a writer call the format cannot express */
} SpSpoolErrorCode;

typedef struct {
  SpSpoolErrorCode code;
  int              sys_errno;       /* for SP_SPOOL_ERROR_IO */
  uint64_t         record_offset;   /* start of the damaged record (or 0: header) */
  uint64_t         offset;          /* byte at which the damage was detected */
  char             message[256];
} SpSpoolError;

/* Clears err (NULL is allowed everywhere an SpSpoolError * is taken). */
void sp_spool_error_clear (SpSpoolError *err);

/* Fills err (if not NULL) with a printf-style message. */
void sp_spool_error_set (SpSpoolError *err,
                         SpSpoolErrorCode code,
                         uint64_t record_offset,
                         uint64_t offset,
                         const char *format,
                         ...) __attribute__ ((format (printf, 5, 6)));

/* Fills err for a failed system call, naming what was being done. */
void sp_spool_error_set_errno (SpSpoolError *err,
                               int sys_errno,
                               const char *what,
                               const char *path);
