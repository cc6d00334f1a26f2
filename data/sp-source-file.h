/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-file.h: finding and reading the source file DWARF names.
 *
 * DWARF names a source file by the path it had where the program was
 * built. When that path is not here, folders the user gives stand for a
 * build path prefix: either "OLD=NEW" (OLD at the start of the path becomes
 * NEW), or a plain folder DIR, where the path's longest tail that exists
 * under DIR is taken (/build/pkg/src/a.c: DIR/build/pkg/src/a.c, then
 * DIR/pkg/src/a.c, DIR/src/a.c, DIR/a.c), as gdb's `directory` does.
 * Only regular files are read, up to a bound (sp-file-private.h).
 *
 * When the file is nowhere here, the debuginfod servers DEBUGINFOD_URLS
 * names may have it, by the module's build-id and the DWARF path
 * (sp_source_file_fetch). */
#pragma once

#include <glib.h>

#include "sp-debuginfod.h"

G_BEGIN_DECLS

/* The path to read for dwarf_path, or NULL; every path tried is appended
 * to tried (char *, owned by it) when it is not NULL, once, to say where
 * it looked. dirs: NULL-terminated, may be NULL. A relative dwarf_path
 * (from a relative DW_AT_comp_dir) is looked for under dirs only, never
 * under the working folder; an absolute one under a dir is not glued
 * onto it whole. */
char *sp_source_file_find (const char *dwarf_path,
                           const char *const *dirs,
                           GPtrArray *tried);

/* The source file dwarf_path (absolute, as DWARF names it) of module (the
 * ELF file whose code it is, as recorded) from the debuginfod servers:
 * the path of the copy in libdebuginfod's cache (an earlier fetch's, else
 * fetched now), newly allocated, or NULL with error
 * (G_IO_ERROR_NOT_SUPPORTED: DEBUGINFOD_URLS names no server, and nothing
 * was asked; else as sp_debuginfod_find_source). When a server was asked
 * (or could not be: no build-id), what it answered is appended to tried
 * (when not NULL) as "asked debuginfod: …", for the message that says
 * where the file was looked for. Blocks for the transfer, reporting it to
 * progress (may be NULL; it returns FALSE to stop, as does cancelling
 * cancellable): call it from a worker thread (the report, which has
 * nothing else to do, calls it in place). A caller whose user turned
 * debuginfod off (--no-debuginfod) does not call it. */
char *sp_source_file_fetch (const char *module,
                            const char *dwarf_path,
                            SpDebuginfodProgress progress,
                            gpointer user_data,
                            GCancellable *cancellable,
                            GPtrArray *tried,
                            GError **error);

/* The file's lines (without their line ends; index 0 is line 1), or NULL
 * and error. */
GStrv sp_source_file_read_lines (const char *path,
                                 GError **error);

G_END_DECLS
