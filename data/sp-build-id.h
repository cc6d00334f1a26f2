/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-build-id.h: an ELF file's GNU build-id. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* bits as lower-case hex; newly allocated. */
char *sp_build_id_to_hex (const guint8 *bits,
                          gsize len);

/* The file's NT_GNU_BUILD_ID as lower-case hex (newly allocated), or NULL
 * with error (may be NULL) when it cannot be read, is not a regular file
 * (a FIFO or device is never opened for reading), is no ELF file or has
 * no build-id (G_IO_ERROR_NOT_FOUND). */
char *sp_build_id_of_file (const char *path,
                           GError **error);

G_END_DECLS
