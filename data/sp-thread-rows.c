/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-thread-rows.c: a copy of each thread's ids, name and sample count. */
#include "sp-thread-rows.h"

static void
clear_row (gpointer data)
{
  SpThreadRow *row = data;

  g_clear_pointer (&row->name, g_free);
}

GArray *
sp_thread_rows_new (SpProfile *profile,
                    const SpSampleIndex *index)
{
  guint n_threads = sp_profile_get_n_threads (profile);
  GArray *rows = g_array_sized_new (FALSE, TRUE, sizeof (SpThreadRow), n_threads);

  g_array_set_clear_func (rows, clear_row);
  for (guint t = 0; t < n_threads; t++)
    {
      SpThreadRow row = { t, 0, 0, NULL, sp_sample_index_get_thread_samples (index, t) };
      const char *name;

      sp_profile_get_thread (profile, t, &row.pid, &row.tid);
      name = sp_profile_get_thread_name (profile, row.tid);
      row.name = name != NULL && name[0] != '\0' ? g_strdup (name) : NULL;
      g_array_append_val (rows, row);
    }
  return rows;
}

gboolean
sp_thread_rows_equal (const GArray *a,
                      const GArray *b)
{
  if (a == NULL || b == NULL || a->len != b->len)
    return a == b;
  for (guint i = 0; i < a->len; i++)
    {
      const SpThreadRow *x = &g_array_index (a, SpThreadRow, i);
      const SpThreadRow *y = &g_array_index (b, SpThreadRow, i);

      if (x->tid != y->tid || x->pid != y->pid || x->n_samples != y->n_samples || g_strcmp0 (x->name, y->name) != 0)
        return FALSE;
    }
  return TRUE;
}
