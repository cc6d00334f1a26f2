/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recorded-files.h: what each mapped file was when it was recorded.
 *
 * The side file's [module-file N] groups (docs/SIDE-FILE.md): a mapped
 * file's build-id, modification time and size, read by the recorder
 * while it recorded. The symbolizer checks module files against them (a
 * program rebuilt in place keeps its path and inode), and the pprof
 * export names the build-ids from them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  char    *build_id;  /* lower-case hex; NULL: the file had none */
  guint64  mtime_ns;
  guint64  size;
} SpRecordedFile;

typedef struct _SpRecordedFiles SpRecordedFiles;

/* The groups of meta (NULL: none); never NULL. */
SpRecordedFiles *sp_recorded_files_new (GKeyFile *meta);

void sp_recorded_files_free (SpRecordedFiles *files);

/* The file recorded at path with that inode, or NULL when the side file
 * does not say. */
const SpRecordedFile *sp_recorded_files_lookup (const SpRecordedFiles *files,
                                                const char *path,
                                                guint64 inode);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpRecordedFiles, sp_recorded_files_free)

G_END_DECLS
