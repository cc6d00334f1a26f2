/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-process-rows.c: the threads' rows summed by pid. */
#include "sp-process-rows.h"

#include "sp-thread-rows.h"

static void
clear_row (gpointer data)
{
  SpProcessRow *row = data;

  g_clear_pointer (&row->name, g_free);
  g_clear_pointer (&row->command_line, g_free);
  g_clear_pointer (&row->threads, g_array_unref);
}

static gint
by_samples (gconstpointer a,
            gconstpointer b)
{
  const SpProcessRow *x = a, *y = b;

  if (x->n_samples != y->n_samples)
    return x->n_samples > y->n_samples ? -1 : 1;
  return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The side file's [process PID] group, which -a writes for every process. */
static void
set_side_file_keys (SpProcessRow *row,
                    GKeyFile *meta)
{
  g_autofree char *group = g_strdup_printf ("process %d", (int) row->pid);

  if (meta == NULL)
    return;
  row->command_line = g_key_file_get_string (meta, group, "command_line", NULL);
  row->kernel_thread = g_key_file_get_boolean (meta, group, "kernel_thread", NULL);
}

static SpProcessRow *
row_of (GArray *rows,
        GHashTable *index,
        gint32 pid,
        GKeyFile *meta)
{
  gpointer at;

  if (!g_hash_table_lookup_extended (index, GINT_TO_POINTER (pid), NULL, &at))
    {
      SpProcessRow row = { .pid = pid, .threads = g_array_new (FALSE, FALSE, sizeof (guint32)) };

      set_side_file_keys (&row, meta);
      g_array_append_val (rows, row);
      at = GUINT_TO_POINTER (rows->len - 1);
      g_hash_table_insert (index, GINT_TO_POINTER (pid), at);
    }
  return &g_array_index (rows, SpProcessRow, GPOINTER_TO_UINT (at));
}

GArray *
sp_process_rows_new (const GArray *thread_rows,
                     GKeyFile *meta,
                     const SpFilter *filter,
                     guint64 *total)
{
  g_autoptr (GHashTable) index = g_hash_table_new (g_direct_hash, g_direct_equal);
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (SpProcessRow));
  guint64 sum = 0;

  g_array_set_clear_func (rows, clear_row);
  for (guint i = 0; i < thread_rows->len; i++)
    {
      const SpThreadRow *thread = &g_array_index (thread_rows, SpThreadRow, i);
      SpProcessRow *row;

      if (filter != NULL && sp_filter_is_thread_hidden (filter, thread->thread))
        continue;
      row = row_of (rows, index, thread->pid, meta);
      /* The main thread's name is the process's; another's until then. */
      if (thread->name != NULL && (row->name == NULL || (guint64) thread->pid == thread->tid))
        {
          g_free (row->name);
          row->name = g_strdup (thread->name);
        }
      g_array_append_val (row->threads, thread->thread);
      row->n_samples += thread->n_samples;
      row->cpu_ns += thread->cpu_ns;
      sum += thread->n_samples;
    }
  g_array_sort (rows, by_samples);
  if (total != NULL)
    *total = sum;
  return rows;
}

gboolean
sp_process_rows_system_wide (GKeyFile *meta)
{
  return meta != NULL && g_key_file_get_boolean (meta, "recording", "system_wide", NULL);
}

guint
sp_process_rows_n_cpus (GKeyFile *meta)
{
  gsize n = 0;
  g_autofree gint *cpus = meta != NULL ? g_key_file_get_integer_list (meta, "recording", "cpus", &n, NULL) : NULL;

  return cpus != NULL ? (guint) n : 0;
}

guint64
sp_process_rows_idle_samples (GKeyFile *meta)
{
  if (!sp_process_rows_system_wide (meta))
    return 0;
  return g_key_file_get_uint64 (meta, "recording", "idle_samples", NULL);
}
