/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-file.c: a DWARF source path, mapped and read. */
#include "sp-source-file.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sp-build-id.h"
#include "sp-file-private.h"

/* Source files larger than this are not shown. */
#define MAX_SOURCE_SIZE ((gsize) 64 << 20)

/* What is at path when it is there but no regular file (which is not
 * read, so as not to hang on a FIFO or read a device); NULL otherwise. */
static const char *
not_regular (const char *path)
{
  GStatBuf st;

  if (g_stat (path, &st) != 0 || S_ISREG (st.st_mode))
    return NULL;
  if (S_ISDIR (st.st_mode))
    return "a folder";
  if (S_ISFIFO (st.st_mode))
    return "a FIFO";
  if (S_ISSOCK (st.st_mode))
    return "a socket";
  if (S_ISCHR (st.st_mode) || S_ISBLK (st.st_mode))
    return "a device";
  return "not a regular file";
}

/* Whether path was tried already (listed as is, or with what it is). */
static gboolean
was_tried (const char *path,
           GPtrArray *tried)
{
  gsize n = strlen (path);

  for (guint i = 0; tried != NULL && i < tried->len; i++)
    {
      const char *entry = g_ptr_array_index (tried, i);

      if (strncmp (entry, path, n) == 0 && (entry[n] == '\0' || g_str_has_prefix (entry + n, " (")))
        return TRUE;
    }
  return FALSE;
}

/* Each path is listed once: one tried already was not found. */
static gboolean
try_path (const char *path,
          GPtrArray *tried)
{
  const char *what;

  if (was_tried (path, tried))
    return FALSE;
  what = tried != NULL ? not_regular (path) : NULL;

  if (tried != NULL)
    g_ptr_array_add (tried, what != NULL ? g_strdup_printf ("%s (%s, not read)", path, what) : g_strdup (path));
  return g_file_test (path, G_FILE_TEST_IS_REGULAR);
}

/* "OLD=NEW": the path with OLD replaced, or NULL when it does not start
 * with OLD. */
static char *
map_prefix (const char *dwarf_path,
            const char *mapping)
{
  const char *equals = strchr (mapping, '=');
  g_autofree char *old = NULL;

  if (equals == NULL)
    return NULL;
  old = g_strndup (mapping, (gsize) (equals - mapping));
  if (old[0] == '\0' || !g_str_has_prefix (dwarf_path, old))
    return NULL;
  return g_strconcat (equals + 1, dwarf_path + strlen (old), NULL);
}

/* The longest tail of dwarf_path that is a file under dir. */
static char *
find_tail (const char *dwarf_path,
           const char *dir,
           GPtrArray *tried)
{
  gsize n = strlen (dir);
  /* A path under dir already (the recording's folder, the working
   * folder) is not glued onto it ("/tmp/x/tmp/x/a.c"). */
  gboolean under_dir = n > 0 && strncmp (dwarf_path, dir, n) == 0 && (dwarf_path[n] == '/' || dir[n - 1] == '/');

  for (const char *tail = dwarf_path; tail != NULL; tail = strchr (tail + 1, '/'))
    {
      g_autofree char *candidate = NULL;

      if (tail == dwarf_path && under_dir)
        continue;
      candidate = g_build_filename (dir, tail, NULL);

      if (try_path (candidate, tried))
        return g_steal_pointer (&candidate);
    }
  return NULL;
}

char *
sp_source_file_find (const char *dwarf_path,
                     const char *const *dirs,
                     GPtrArray *tried)
{
  /* A relative path (a relative DW_AT_comp_dir: glibc's "./string") is
   * relative to a build folder unknown here, not to the working folder:
   * only its tails under dirs are tried. */
  if (g_path_is_absolute (dwarf_path) && try_path (dwarf_path, tried))
    return g_strdup (dwarf_path);
  for (guint i = 0; dirs != NULL && dirs[i] != NULL; i++)
    {
      g_autofree char *mapped = map_prefix (dwarf_path, dirs[i]);
      char *found;

      if (strchr (dirs[i], '=') != NULL)
        {
          if (mapped != NULL && try_path (mapped, tried))
            return g_steal_pointer (&mapped);
          continue;
        }
      if ((found = find_tail (dwarf_path, dirs[i], tried)) != NULL)
        return found;
    }
  return NULL;
}

char *
sp_source_file_fetch (const char *module,
                      const char *dwarf_path,
                      SpDebuginfodProgress progress,
                      gpointer user_data,
                      GCancellable *cancellable,
                      GPtrArray *tried,
                      GError **error)
{
  g_autoptr (GError) local_error = NULL;
  g_autofree char *build_id = NULL;
  char *path = NULL;

  g_return_val_if_fail (module != NULL && dwarf_path != NULL, NULL);

  if (!sp_debuginfod_is_enabled ())
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "no debuginfod server is set (DEBUGINFOD_URLS is empty)");
      return NULL;
    }
  /* Servers know a source by the build-id of the code compiled from it. */
  build_id = sp_build_id_of_file (module, &local_error);
  if (build_id != NULL)
    path = sp_debuginfod_find_source (build_id, dwarf_path, progress, user_data, cancellable, &local_error);
  if (path != NULL)
    return path;
  if (tried != NULL)
    g_ptr_array_add (tried, g_strdup_printf ("asked debuginfod: %s", local_error->message));
  g_propagate_error (error, g_steal_pointer (&local_error));
  return NULL;
}

/* contents (length bytes) with each NUL byte as U+FFFD, the mark for a
 * character that cannot be shown; frees contents. */
static char *
replace_nul_bytes (char *contents,
                   gsize length)
{
  GString *text = g_string_sized_new (length + 16);

  for (gsize i = 0; i < length; i++)
    if (contents[i] == '\0')
      g_string_append (text, "\xef\xbf\xbd");
    else
      g_string_append_c (text, contents[i]);
  g_free (contents);
  return g_string_free (text, FALSE);
}

GStrv
sp_source_file_read_lines (const char *path,
                           GError **error)
{
  g_autofree char *contents = NULL;
  gsize length;
  GStrv lines;
  guint n;

  if (!_sp_file_read_regular (path, MAX_SOURCE_SIZE, FALSE, &contents, &length, error))
    return NULL;
  /* A NUL byte would end its line there: it becomes a visible mark. */
  if (memchr (contents, '\0', length) != NULL)
    contents = replace_nul_bytes (g_steal_pointer (&contents), length);
  lines = g_strsplit (contents, "\n", -1);
  n = g_strv_length (lines);
  /* A final line end ends the last line: no empty line after it. */
  if (n > 0 && lines[n - 1][0] == '\0')
    g_clear_pointer (&lines[n - 1], g_free);
  /* CRLF line ends. */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      gsize len = strlen (lines[i]);

      if (len > 0 && lines[i][len - 1] == '\r')
        lines[i][len - 1] = '\0';
    }
  return lines;
}
