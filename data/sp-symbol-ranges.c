/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-symbol-ranges.c: address → name tables, sorted once, searched often.
 *
 * ELF symbols, kernel symbols and perf-map entries are all "a name for
 * [start, start + size)"; the tables are filled in any order, finished
 * once, then looked up by binary search. */
#include "sp-symbolizer-private.h"

#include <string.h>

/* How far back a lookup looks for an enclosing range when the nearest
 * start below the address is a smaller range that ends before it (a local
 * label inside a function, say). */
#define MAX_ENCLOSING_STEPS 16

GArray *
_sp_symbol_ranges_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (SpSymbolRange));
}

static int
compare_ranges (gconstpointer a,
                gconstpointer b)
{
  const SpSymbolRange *ra = a;
  const SpSymbolRange *rb = b;

  if (ra->start != rb->start)
    return ra->start < rb->start ? -1 : 1;
  if (ra->rank != rb->rank)
    return ra->rank < rb->rank ? -1 : 1;
  return strcmp (ra->name, rb->name);
}

void
_sp_symbol_ranges_finish (GArray *ranges,
                          gboolean fill_sizes)
{
  SpSymbolRange *r = (SpSymbolRange *) (gpointer) ranges->data;
  guint kept = 0;

  g_array_sort (ranges, compare_ranges);

  /* The best-ranked entry comes first among those with one start. */
  for (guint i = 0; i < ranges->len; i++)
    if (kept == 0 || r[kept - 1].start != r[i].start)
      r[kept++] = r[i];
  g_array_set_size (ranges, kept);

  if (fill_sizes)
    for (guint i = 0; i + 1 < kept; i++)
      if (r[i].size == 0)
        r[i].size = r[i + 1].start - r[i].start;
}

static gboolean
range_contains (const SpSymbolRange *range,
                guint64 address)
{
  return address == range->start || address - range->start < range->size;
}

const SpSymbolRange *
_sp_symbol_ranges_lookup (GArray *ranges,
                          guint64 address)
{
  const SpSymbolRange *r;
  guint lo = 0;
  guint hi;

  if (ranges == NULL || ranges->len == 0)
    return NULL;
  r = (const SpSymbolRange *) (gconstpointer) ranges->data;
  hi = ranges->len;

  /* The first entry that starts above address. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (r[mid].start <= address)
        lo = mid + 1;
      else
        hi = mid;
    }

  for (guint i = lo, steps = 0; i > 0 && steps < MAX_ENCLOSING_STEPS; i--, steps++)
    if (range_contains (&r[i - 1], address))
      return &r[i - 1];
  return NULL;
}
