/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-file.h: finding and reading the source file DWARF names.
 *
 * DWARF names a source file by the path it had where the program was
 * built. When that path is not here, folders the user gives stand for a
 * build path prefix: either "OLD=NEW" (OLD at the start of the path becomes
 * NEW), or a plain folder DIR, where the path's longest tail that exists
 * under DIR is taken (/build/pkg/src/a.c: DIR/build/pkg/src/a.c, then
 * DIR/pkg/src/a.c, DIR/src/a.c, DIR/a.c), as gdb's `directory` does.
 * Only regular files are read, up to a bound (sp-file-private.h). */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The path to read for dwarf_path, or NULL; every path tried is appended
 * to tried (char *, owned by it) when it is not NULL, to say where it
 * looked. dirs: NULL-terminated, may be NULL. */
char *sp_source_file_find (const char *dwarf_path,
                           const char *const *dirs,
                           GPtrArray *tried);

/* The file's lines (without their line ends; index 0 is line 1), or NULL
 * and error. */
GStrv sp_source_file_read_lines (const char *path,
                                 GError **error);

G_END_DECLS
