/* SPDX-License-Identifier: GPL-3.0-or-later */
/* remove-tree.c: removing a test's temporary folder. */
#include "remove-tree.h"

#include <glib.h>
#include <glib/gstdio.h>

void
sp_test_remove_tree (const char *path)
{
  g_autoptr (GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        sp_test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}
