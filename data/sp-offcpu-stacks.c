/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-stacks.c: the side file's off_cpu_stacks keys, read. */
#include "sp-offcpu-stacks.h"

char *
sp_offcpu_stacks_missing_reason (GKeyFile *meta)
{
  g_autofree char *stacks = NULL;
  char *reason;

  if (meta == NULL || !g_key_file_get_boolean (meta, "recording", "off_cpu", NULL))
    return NULL;
  stacks = g_key_file_get_string (meta, "recording", "off_cpu_stacks", NULL);
  /* "kernel+user" and "user" are stacks; an older recorder wrote none. */
  if (stacks == NULL || (!g_str_equal (stacks, "none") && !g_str_equal (stacks, "false")))
    return NULL;
  reason = g_key_file_get_string (meta, "recording", "off_cpu_stacks_reason", NULL);
  if (reason != NULL && reason[0] != '\0')
    return reason;
  g_free (reason);
  return g_strdup ("the recorder did not say why");
}

char *
sp_offcpu_stacks_missing_reason_for (const char *spool_path)
{
  g_autofree char *meta_path = g_strconcat (spool_path, ".meta", NULL);
  g_autoptr (GKeyFile) meta = g_key_file_new ();

  if (!g_key_file_load_from_file (meta, meta_path, G_KEY_FILE_NONE, NULL))
    return NULL;
  return sp_offcpu_stacks_missing_reason (meta);
}

gboolean
sp_offcpu_side_file_totals (GKeyFile *meta,
                            guint64 tid,
                            SpThreadTotals *totals)
{
  g_autofree char *group = g_strdup_printf ("thread %" G_GUINT64_FORMAT, tid);

  if (meta == NULL || !g_key_file_has_key (meta, group, "blocked_ns", NULL))
    return FALSE;
  *totals = (SpThreadTotals) { 0 };
  totals->blocked_ns = g_key_file_get_uint64 (meta, group, "blocked_ns", NULL);
  totals->runnable_ns = g_key_file_get_uint64 (meta, group, "runnable_ns", NULL);
  totals->switches = g_key_file_get_uint64 (meta, group, "switches", NULL);
  return TRUE;
}
