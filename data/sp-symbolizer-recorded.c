/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-symbolizer-recorded.c: is a module file still the one recorded?
 *
 * The spool knows a module's path and inode, which a program rebuilt in
 * place keeps (gcc and ld write over the old file), as does a package
 * upgrade that rewrites a file. The recorder wrote each mapped file's
 * GNU build-id, modification time and size to the side file
 * ([module-file N], docs/SIDE-FILE.md); a file that differs now is
 * refused here, so its frames stay addresses rather than being named by
 * another build's symbols. */
#include "sp-symbolizer-private.h"

#include "sp-build-id.h"
#include "sp-recorded-files.h"

void
sp_symbolizer_load_module_files (SpSymbolizer *self,
                                 GKeyFile *meta)
{
  g_return_if_fail (self != NULL);
  g_clear_pointer (&self->recorded_files, sp_recorded_files_free);
  self->recorded_files = sp_recorded_files_new (meta);
}

/* "ab12cd34…": enough of a build-id to tell two apart in a message. */
static char *
short_id (const char *build_id)
{
  return build_id != NULL ? g_strdup_printf ("%.12s…", build_id) : g_strdup ("none");
}

char *
_sp_symbolizer_recorded_file_change (SpSymbolizer *self,
                                     const char *path,
                                     guint64 inode,
                                     const struct stat *now)
{
  g_autofree char *current = NULL;
  g_autofree char *then_id = NULL;
  g_autofree char *now_id = NULL;
  const SpRecordedFile *file;

  if (self->recorded_files == NULL || (file = sp_recorded_files_lookup (self->recorded_files, path, inode)) == NULL)
    return NULL;
  if (file->build_id != NULL)
    {
      current = sp_build_id_of_file (path, NULL);
      if (g_strcmp0 (current, file->build_id) == 0)
        return NULL;
      then_id = short_id (file->build_id);
      now_id = short_id (current);
      return g_strdup_printf ("build-id %s when recorded, %s now", then_id, now_id);
    }
  /* No build-id (a Go binary, say): its time and size say whether it was
   * written since. */
  if ((guint64) now->st_size != file->size)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " bytes when recorded, %" G_GUINT64_FORMAT " now", file->size,
                            (guint64) now->st_size);
  if ((guint64) now->st_mtim.tv_sec * G_GUINT64_CONSTANT (1000000000) + (guint64) now->st_mtim.tv_nsec
      != file->mtime_ns)
    return g_strdup ("modified since it was recorded");
  return NULL;
}
