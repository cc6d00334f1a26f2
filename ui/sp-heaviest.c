/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-heaviest.c: matching nodes, heaviest first (sp-heaviest-private.h). */
#include "sp-heaviest-private.h"

/* Heavier nodes first; between equals, the tree's order. */
static int
compare_heavier (gconstpointer a,
                 gconstpointer b,
                 gpointer user_data)
{
  const SpCallTree *tree = user_data;
  guint32 na = *(const guint32 *) a, nb = *(const guint32 *) b;

  if (tree->nodes[na].total != tree->nodes[nb].total)
    return tree->nodes[na].total > tree->nodes[nb].total ? -1 : 1;
  return na < nb ? -1 : na > nb;
}

GArray *
_sp_heaviest_nodes (const SpCallTree *tree,
                    const gboolean *function_matches)
{
  GArray *nodes = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 n = 1; n < tree->n_nodes; n++)
    if (function_matches[tree->nodes[n].function])
      g_array_append_val (nodes, n);
  g_array_sort_with_data (nodes, compare_heavier, (gpointer) tree);
  return nodes;
}
