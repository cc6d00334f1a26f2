/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-dirs.h: where a recording's source files are on this machine.
 *
 * DWARF names a source file by the path it was compiled at
 * ("/build/app-1.2/src/parse.c"); on the machine that views the recording
 * the sources are often elsewhere ("~/src/app"). When a file is not where
 * DWARF says, the user picks the folder it is in, once: the pick is
 * remembered for the build path's prefix ("/build/app-1.2" ->
 * "/home/u/src/app"), so every other file built there is found too, in
 * this recording and the next. The prefixes live in a GKeyFile,
 * g_get_user_config_dir()/stackpulse/source-dirs.ini by default.
 *
 * A value: the worker that looks files up gets its own copy. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SpSourceDirs SpSourceDirs;

/* The prefixes saved in ini_path (NULL: the user's), none when it does
 * not exist or cannot be read; sp_source_dirs_remember saves there. */
SpSourceDirs *sp_source_dirs_load (const char *ini_path);
SpSourceDirs *sp_source_dirs_copy (const SpSourceDirs *self);
void sp_source_dirs_free (SpSourceDirs *self);

/* The user found `wanted` (a path DWARF names) under folder: the longest
 * tail of wanted that exists in folder tells which prefix folder stands
 * for (no tail exists: wanted's own folder does); where that prefix and
 * folder end in the same folders ("/t/proj/src", "/t/proj-away/src"),
 * the part before them is remembered ("/t/proj" -> "/t/proj-away"), so
 * the build's other folders are found too. Saves it; FALSE and
 * error when the file cannot be written (the pick still holds for now).
 * *prefix (may be NULL) gets the prefix remembered. */
gboolean sp_source_dirs_remember (SpSourceDirs *self,
                                  const char *wanted,
                                  const char *folder,
                                  char **prefix,
                                  GError **error);

/* Where wanted is: as named, then under the folders remembered for its
 * prefixes (the longest prefix first), then under each of the extra
 * folders (may be NULL: the recording's folder, say), where its longest
 * tail that is there is taken (sp-source-file.h). Each path tried is
 * appended to looked (may be NULL), newly allocated. Returns the first
 * regular file found (newly allocated), or NULL. */
char *sp_source_dirs_find (const SpSourceDirs *self,
                           const char *wanted,
                           const char *const *extra,
                           GPtrArray *looked);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpSourceDirs, sp_source_dirs_free)

G_END_DECLS
