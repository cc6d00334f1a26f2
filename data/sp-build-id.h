/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-build-id.h: an ELF file's GNU build-id. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The file's NT_GNU_BUILD_ID as lower-case hex (newly allocated), or NULL
 * when it cannot be read, is no ELF file or has none. A FIFO or device
 * is never waited on (opened non-blocking, and libelf reads no such
 * thing). */
char *sp_build_id_of_file (const char *path);

G_END_DECLS
