/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-dirs.c: build path prefixes and the folders they are in now
 * (sp-source-dirs.h), kept in a key file's [prefixes] group; the files
 * are looked for by sp-source-file.c, as the report's --source-dir does. */
#include "sp-source-dirs.h"

#include "sp-source-file.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define GROUP "prefixes"

struct _SpSourceDirs
{
  char      *ini_path;
  GKeyFile  *keys;
};

static char *
default_ini_path (void)
{
  return g_build_filename (g_get_user_config_dir (), "stackpulse", "source-dirs.ini", NULL);
}

SpSourceDirs *
sp_source_dirs_load (const char *ini_path)
{
  SpSourceDirs *self = g_new0 (SpSourceDirs, 1);

  self->ini_path = ini_path != NULL ? g_strdup (ini_path) : default_ini_path ();
  self->keys = g_key_file_new ();
  /* None saved yet, or unreadable: nothing is remembered. */
  g_key_file_load_from_file (self->keys, self->ini_path, G_KEY_FILE_NONE, NULL);
  return self;
}

SpSourceDirs *
sp_source_dirs_copy (const SpSourceDirs *self)
{
  SpSourceDirs *copy = g_new0 (SpSourceDirs, 1);
  g_autofree char *data = g_key_file_to_data (self->keys, NULL, NULL);

  copy->ini_path = g_strdup (self->ini_path);
  copy->keys = g_key_file_new ();
  g_key_file_load_from_data (copy->keys, data, (gsize) -1, G_KEY_FILE_NONE, NULL);
  return copy;
}

void
sp_source_dirs_free (SpSourceDirs *self)
{
  if (self == NULL)
    return;
  g_free (self->ini_path);
  g_key_file_unref (self->keys);
  g_free (self);
}

static gboolean
is_regular (const char *path)
{
  struct stat st;

  return stat (path, &st) == 0 && S_ISREG (st.st_mode);
}

/* Where the prefix of wanted ends when folder holds wanted's tail that
 * starts there: the first (longest) tail found in folder wins. */
static char *
prefix_for (const char *wanted,
            const char *folder)
{
  for (const char *tail = strchr (wanted + 1, '/'); tail != NULL; tail = strchr (tail + 1, '/'))
    {
      g_autofree char *candidate = g_build_filename (folder, tail, NULL);

      if (is_regular (candidate))
        return g_strndup (wanted, tail - wanted);
    }
  /* Only the file's own folder moved (or the file is not there yet). */
  return g_path_get_dirname (wanted);
}

/* The build folder's prefix rather than the one folder picked: where
 * prefix and folder end alike ("/t/proj/src" picked as "/t/proj-away/src"),
 * the part that differs is what moved ("/t/proj" -> "/t/proj-away"), so
 * the build's other folders ("/t/proj/include") are found too. The prefix
 * keeps one component at least. */
static void
strip_common_tail (char **prefix,
                   char **folder)
{
  for (;;)
    {
      g_autofree char *prefix_base = g_path_get_basename (*prefix);
      g_autofree char *folder_base = g_path_get_basename (*folder);
      g_autofree char *prefix_dir = g_path_get_dirname (*prefix);
      g_autofree char *folder_dir = g_path_get_dirname (*folder);

      if (!g_str_equal (prefix_base, folder_base) || g_str_equal (prefix_dir, "/") || g_str_equal (prefix_dir, ".")
          || g_str_equal (folder_dir, "/") || g_str_equal (folder_dir, "."))
        return;
      g_free (*prefix);
      g_free (*folder);
      *prefix = g_steal_pointer (&prefix_dir);
      *folder = g_steal_pointer (&folder_dir);
    }
}

gboolean
sp_source_dirs_remember (SpSourceDirs *self,
                         const char *wanted,
                         const char *folder,
                         char **prefix,
                         GError **error)
{
  g_autofree char *found = prefix_for (wanted, folder);
  g_autofree char *moved = g_strdup (folder);
  g_autofree char *dir = g_path_get_dirname (self->ini_path);

  strip_common_tail (&found, &moved);
  g_key_file_set_string (self->keys, GROUP, found, moved);
  if (prefix != NULL)
    *prefix = g_strdup (found);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "cannot create %s", dir);
      return FALSE;
    }
  return g_key_file_save_to_file (self->keys, self->ini_path, error);
}

/* Whether prefix is wanted's, at a path component's boundary. */
static gboolean
has_prefix (const char *wanted,
            const char *prefix)
{
  gsize n = strlen (prefix);

  return n > 0 && strncmp (wanted, prefix, n) == 0 && (wanted[n] == '/' || prefix[n - 1] == '/');
}

static int
longest_first (gconstpointer a,
               gconstpointer b)
{
  return (int) strlen (*(const char *const *) b) - (int) strlen (*(const char *const *) a);
}

char *
sp_source_dirs_find (const SpSourceDirs *self,
                     const char *wanted,
                     const char *const *extra,
                     GPtrArray *looked)
{
  g_auto (GStrv) prefixes = g_key_file_get_keys (self->keys, GROUP, NULL, NULL);
  g_autoptr (GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);

  /* The remembered prefixes of wanted as sp-source-file.h's "OLD=NEW"
   * mappings, the longest first; then the extra folders, where the
   * longest tail of wanted is looked for. */
  if (prefixes != NULL)
    qsort (prefixes, g_strv_length (prefixes), sizeof (char *), longest_first);
  for (guint i = 0; prefixes != NULL && prefixes[i] != NULL; i++)
    {
      g_autofree char *folder = g_key_file_get_string (self->keys, GROUP, prefixes[i], NULL);

      if (folder != NULL && has_prefix (wanted, prefixes[i]))
        g_ptr_array_add (dirs, g_strconcat (prefixes[i], "=", folder, NULL));
    }
  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    g_ptr_array_add (dirs, g_strdup (extra[i]));
  g_ptr_array_add (dirs, NULL);
  return sp_source_file_find (wanted, (const char *const *) dirs->pdata, looked);
}
