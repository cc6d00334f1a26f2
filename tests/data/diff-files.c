/* SPDX-License-Identifier: GPL-3.0-or-later */
/* diff-files.c: the diff tests' copies of real ELF files (diff-files.h). */
#include "diff-files.h"

#include <glib/gstdio.h>

#include "remove-tree.h"

static void
remove_folder (char *path)
{
  sp_test_remove_tree (path);
  g_free (path);
}

/* A folder for the test's copies, removed when the test ends. */
char *
diff_test_dir (void)
{
  char *dir = g_dir_make_tmp ("stackpulse-diff-XXXXXX", NULL);

  g_assert_nonnull (dir);
  g_test_queue_destroy ((GDestroyNotify) remove_folder, g_strdup (dir));
  return dir;
}

char *
diff_test_copy (const char *dir,
                const char *subdir,
                const char *name,
                const char *from_env)
{
  const char *source = g_getenv (from_env);
  g_autofree char *folder = g_build_filename (dir, subdir, NULL);
  char *path = g_build_filename (folder, name, NULL);
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_nonnull (source);
  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) length, NULL));
  return path;
}

