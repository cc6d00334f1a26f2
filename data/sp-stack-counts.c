/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-stack-counts.c: count per stack, then paths for the distinct ones. */
#include "sp-stack-counts.h"

#define NO_PID G_MININT32

static guint8 *
thread_mask (const SpSpoolReader *reader,
             const SpFilter *filter)
{
  gsize n = sp_spool_reader_get_n_threads (reader);
  guint8 *shown = g_malloc (MAX (n, 1));

  memset (shown, 1, MAX (n, 1));
  if (filter != NULL && filter->hidden_threads != NULL)
    for (guint i = 0; i < filter->hidden_threads->len; i++)
      {
        guint32 t = g_array_index (filter->hidden_threads, guint32, i);

        if (t < n)
          shown[t] = 0;
      }
  return shown;
}

/* Almost every stack belongs to one process: a count and a pid per stack,
 * and a hash table for the rare stack a second pid shares. */
SpStackCounts *
sp_stack_counts_new (SpProfile *profile,
                     const SpFilter *filter)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  const uint64_t *ts = sp_spool_reader_get_sample_timestamps (reader);
  const uint32_t *stacks = sp_spool_reader_get_sample_stacks (reader);
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  gsize n_samples = sp_spool_reader_get_n_samples (reader);
  gsize n_nodes = sp_spool_reader_get_n_stack_nodes (reader);
  guint64 from = filter ? filter->from_ns : 0;
  guint64 to = filter ? filter->to_ns : G_MAXUINT64;
  g_autofree guint8 *shown = thread_mask (reader, filter);
  g_autofree guint64 *count = g_new0 (guint64, MAX (n_nodes, 1));
  g_autofree gint32 *pid_of = g_new (gint32, MAX (n_nodes, 1));
  g_autoptr (GHashTable) shared = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  SpStackCounts *counts = g_new0 (SpStackCounts, 1);
  GHashTableIter iter;
  gpointer key, value;

  for (gsize i = 0; i < n_nodes; i++)
    pid_of[i] = NO_PID;
  for (gsize i = 0; i < n_samples; i++)
    {
      uint32_t thread = sp_spool_reader_get_sample_thread (reader, i);
      uint32_t stack = stacks[i];
      gint32 pid;

      if (ts[i] < from || ts[i] >= to || !shown[thread])
        continue;
      counts->n_samples++;
      pid = threads[thread].pid;
      if (pid_of[stack] == NO_PID || pid_of[stack] == pid)
        {
          pid_of[stack] = pid;
          count[stack]++;
        }
      else
        {
          gint64 k = (gint64) stack << 32 | (guint32) pid;
          guint64 *c = g_hash_table_lookup (shared, &k);

          if (c == NULL)
            g_hash_table_insert (shared, g_memdup2 (&k, sizeof k), c = g_new0 (guint64, 1));
          (*c)++;
        }
    }

  counts->stacks = g_array_new (FALSE, FALSE, sizeof (SpStackCount));
  for (gsize i = 0; i < n_nodes; i++)
    if (count[i] > 0)
      g_array_append_val (counts->stacks, ((SpStackCount) { (guint32) i, pid_of[i], count[i] }));
  g_hash_table_iter_init (&iter, shared);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      gint64 k = *(gint64 *) key;

      g_array_append_val (counts->stacks, ((SpStackCount) { (guint32) (k >> 32), (gint32) (guint32) k,
                                                            *(guint64 *) value }));
    }
  return counts;
}

void
sp_stack_counts_free (SpStackCounts *counts)
{
  if (counts == NULL)
    return;
  g_array_unref (counts->stacks);
  g_free (counts);
}

/* Leaf first from the reader, so: collect, then reverse. */
void
sp_stack_path (SpProfile *profile,
               guint32 stack,
               gint32 pid,
               GArray *path)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  guint start = path->len;
  gboolean leaf = TRUE;
  SpStackIter iter;
  uint32_t frame_id;

  sp_stack_iter_init (&iter, reader, stack);
  while (sp_stack_iter_next (&iter, &frame_id))
    {
      const guint32 *functions;
      guint n = sp_profile_get_frame_functions (profile, frame_id, pid, leaf, &functions);

      g_array_append_vals (path, functions, n);
      leaf = FALSE;
    }
  for (guint i = start, j = path->len; i + 1 < j; i++, j--)
    {
      guint32 t = g_array_index (path, guint32, i);

      g_array_index (path, guint32, i) = g_array_index (path, guint32, j - 1);
      g_array_index (path, guint32, j - 1) = t;
    }
}

void
sp_stack_counts_foreach_path (SpStackCounts *counts,
                              SpProfile *profile,
                              const SpFilter *filter,
                              SpPathFunc func,
                              gpointer user_data)
{
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < counts->stacks->len; i++)
    {
      const SpStackCount *stack = &g_array_index (counts->stacks, SpStackCount, i);

      g_array_set_size (path, 0);
      sp_stack_path (profile, stack->stack, stack->pid, path);
      if (filter == NULL || sp_filter_apply_transforms (filter, profile, path))
        func ((const guint32 *) path->data, path->len, stack, user_data);
      else
        func (NULL, 0, stack, user_data);
    }
}
