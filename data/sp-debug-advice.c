/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-debug-advice.c: what to do about missing debug info
 * (sp-debug-advice.h). */
#include "sp-debug-advice.h"

gboolean
sp_debug_is_packaged (const char *path)
{
  static const char *const prefixes[] = { "/usr/", "/lib/", "/lib64/", "/lib32/", "/bin/", "/sbin/" };

  if (path == NULL || g_str_has_prefix (path, "/usr/local/"))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (path, prefixes[i]))
      return TRUE;
  return FALSE;
}

const char *
sp_debug_info_advice (const char *path)
{
  /* A program someone built has no -dbgsym package to install. */
  return sp_debug_is_packaged (path) ? "install its -dbgsym package"
                                     : "rebuild it with -g; cargo: debug = true in [profile.release]";
}
