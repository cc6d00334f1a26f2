/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-errors.c: the codec's error struct meets GError here. */
#include "sp-spool-errors.h"

G_DEFINE_QUARK (sp-spool-error-quark, sp_spool_error)

char *
sp_spool_error_describe (const SpSpoolError *spool_error)
{
  switch (spool_error->code)
    {
    case SP_SPOOL_ERROR_TRUNCATED:
      return g_strdup_printf ("the recording ends inside a record at byte %" G_GUINT64_FORMAT
                              " (%s): it may still be being written, or the recorder stopped early",
                              spool_error->record_offset, spool_error->message);
    case SP_SPOOL_ERROR_INVALID:
      return g_strdup_printf ("damaged record at byte %" G_GUINT64_FORMAT ": %s",
                              spool_error->record_offset, spool_error->message);
    case SP_SPOOL_ERROR_NONE:
    case SP_SPOOL_ERROR_IO:
    case SP_SPOOL_ERROR_NO_MEMORY:
    case SP_SPOOL_ERROR_USAGE:
    default:
      return g_strdup (spool_error->message);
    }
}

void
sp_spool_error_propagate (GError **error,
                          const SpSpoolError *spool_error)
{
  g_autofree char *message = sp_spool_error_describe (spool_error);

  g_set_error_literal (error, SP_SPOOL_ERROR, (int) spool_error->code, message);
}
