/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-errors.h: codec errors as GErrors, converted in this one place. */
#pragma once

#include <glib.h>

#include "sp-spool-error.h"

G_BEGIN_DECLS

#define SP_SPOOL_ERROR (sp_spool_error_quark ())

GQuark sp_spool_error_quark (void);

/* error gets the codec's code (SpSpoolErrorCode) and a message that says
 * where: "byte 1234: frame id 0 did not match expected 1". */
void sp_spool_error_propagate (GError **error,
                               const SpSpoolError *spool_error);

/* The same message, newly allocated. */
char *sp_spool_error_describe (const SpSpoolError *spool_error);

G_END_DECLS
