/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recorded-files.c: the side file's [module-file N] groups, by path and
 * inode. */
#include "sp-recorded-files.h"

struct _SpRecordedFiles {
  GHashTable *by_file;  /* "path\x1finode" -> SpRecordedFile */
};

static void
recorded_file_free (SpRecordedFile *file)
{
  g_free (file->build_id);
  g_free (file);
}

static char *
file_key (const char *path,
          guint64 inode)
{
  return g_strdup_printf ("%s\x1f%" G_GUINT64_FORMAT, path, inode);
}

SpRecordedFiles *
sp_recorded_files_new (GKeyFile *meta)
{
  g_auto (GStrv) groups = meta != NULL ? g_key_file_get_groups (meta, NULL) : NULL;
  SpRecordedFiles *files = g_new0 (SpRecordedFiles, 1);

  files->by_file = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) recorded_file_free);
  for (guint i = 0; groups != NULL && groups[i] != NULL; i++)
    {
      g_autofree char *path = NULL;
      SpRecordedFile *file;

      if (!g_str_has_prefix (groups[i], "module-file ")
          || (path = g_key_file_get_string (meta, groups[i], "path", NULL)) == NULL)
        continue;
      file = g_new0 (SpRecordedFile, 1);
      file->build_id = g_key_file_get_string (meta, groups[i], "build_id", NULL);
      file->mtime_ns = g_key_file_get_uint64 (meta, groups[i], "mtime_ns", NULL);
      file->size = g_key_file_get_uint64 (meta, groups[i], "size", NULL);
      g_hash_table_replace (files->by_file, file_key (path, g_key_file_get_uint64 (meta, groups[i], "inode", NULL)),
                            file);
    }
  return files;
}

void
sp_recorded_files_free (SpRecordedFiles *files)
{
  if (files == NULL)
    return;
  g_hash_table_unref (files->by_file);
  g_free (files);
}

const SpRecordedFile *
sp_recorded_files_lookup (const SpRecordedFiles *files,
                          const char *path,
                          guint64 inode)
{
  g_autofree char *key = file_key (path, inode);

  return g_hash_table_lookup (files->by_file, key);
}
