/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-export.c: collapsed stacks. */
#include "sp-export.h"

#include <string.h>

#include "sp-stack-counts.h"

typedef struct {
  SpProfile  *profile;
  GHashTable *lines;   /* "a;b;c" -> guint64 * */
} Collapse;

static void
collapse_path (const guint32 *path,
               guint n,
               const SpStackCount *stack,
               gpointer user_data)
{
  Collapse *c = user_data;
  g_autoptr (GString) line = g_string_new (NULL);
  guint64 *count;

  if (path == NULL)
    return;
  for (guint i = 0; i < n; i++)
    {
      const char *name = sp_profile_get_function (c->profile, path[i])->name;

      if (i > 0)
        g_string_append_c (line, ';');
      /* ';' separates frames: keep names clear of it. Spaces stay (C++'s
       * "basic_string<char, std::char_traits<char> >"): the count is after
       * the last space, which is where flamegraph.pl and inferno split. */
      for (const char *p = name; *p != '\0'; p++)
        g_string_append_c (line, *p == ';' ? ':' : *p == '\n' ? ' ' : *p);
    }
  count = g_hash_table_lookup (c->lines, line->str);
  if (count == NULL)
    g_hash_table_insert (c->lines, g_string_free (g_steal_pointer (&line), FALSE), count = g_new0 (guint64, 1));
  *count += stack->count;
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b,
                 gpointer user_data)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

gboolean
sp_export_collapsed (SpProfile *profile,
                     const SpFilter *filter,
                     FILE *out)
{
  g_autoptr (SpStackCounts) counts = sp_stack_counts_new (profile, filter);
  g_autoptr (GHashTable) lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  Collapse c = { profile, lines };
  g_autofree gpointer *keys = NULL;
  guint n;

  sp_stack_counts_foreach_path (counts, profile, filter, collapse_path, &c);
  keys = g_hash_table_get_keys_as_array (lines, &n);
  g_qsort_with_data (keys, (gint) n, sizeof (gpointer), compare_strings, NULL);
  for (guint i = 0; i < n; i++)
    {
      guint64 weight = *(guint64 *) g_hash_table_lookup (lines, keys[i]);

      /* Time metrics in µs, as off-CPU folded stacks usually are (rounded
       * per line: a line under half a µs says nothing). */
      if (filter != NULL && filter->metric != SP_METRIC_CPU && (weight = (weight + 500) / 1000) == 0)
        continue;
      fprintf (out, "%s %" G_GUINT64_FORMAT "\n", (char *) keys[i], weight);
    }
  return fflush (out) == 0 && !ferror (out);
}
