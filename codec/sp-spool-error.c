/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-error.c: filling SpSpoolError. */
#include "sp-spool-error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void
sp_spool_error_clear (SpSpoolError *err)
{
  if (err != NULL)
    memset (err, 0, sizeof *err);
}

void
sp_spool_error_set (SpSpoolError *err,
                    SpSpoolErrorCode code,
                    uint64_t record_offset,
                    uint64_t offset,
                    const char *format,
                    ...)
{
  va_list args;

  if (err == NULL)
    return;

  err->code = code;
  err->sys_errno = 0;
  err->record_offset = record_offset;
  err->offset = offset;
  va_start (args, format);
  vsnprintf (err->message, sizeof err->message, format, args);
  va_end (args);
}

void
sp_spool_error_set_errno (SpSpoolError *err,
                          int sys_errno,
                          const char *what,
                          const char *path)
{
  if (err == NULL)
    return;

  sp_spool_error_set (err, sys_errno == ENOMEM ? SP_SPOOL_ERROR_NO_MEMORY : SP_SPOOL_ERROR_IO,
                      0, 0, "%s %s: %s", what, path != NULL ? path : "", strerror (sys_errno));
  err->sys_errno = sys_errno;
}
