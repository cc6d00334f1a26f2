/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-map.c: names for JIT code, from /tmp/perf-PID.map.
 *
 * JIT compilers (V8, the JVM with an agent, LuaJIT, CPython 3.12's perf
 * trampolines, …) write one line per compiled function, "START SIZE name"
 * with hex numbers, appending as they go. Code can be recompiled at the
 * same address: the later line wins. */
#include "sp-symbolizer-private.h"

#include <string.h>

#include "sp-file-private.h"

static gboolean
parse_line (SpSymbolizer *self,
            const char *line,
            guint index,
            SpSymbolRange *range)
{
  const char *p = line;
  char *end = NULL;

  range->start = g_ascii_strtoull (p, &end, 16);
  if (end == p || (*end != ' ' && *end != '\t'))
    return FALSE;
  p = end + 1;
  range->size = g_ascii_strtoull (p, &end, 16);
  if (end == p || (*end != ' ' && *end != '\t'))
    return FALSE;
  p = end + 1;
  while (*p == ' ' || *p == '\t')
    p++;
  if (*p == '\0')
    return FALSE;
  /* Names may hold spaces ("LazyCompile:*foo app.js:12"): the rest of
   * the line is the name. */
  range->name = g_string_chunk_insert (self->strings, p);
  range->rank = G_MAXUINT - index;
  return TRUE;
}

GArray *
_sp_perf_map_load (SpSymbolizer *self,
                   const char *path,
                   GError **error)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  GArray *ranges;

  if (!_sp_file_read_regular (path, SP_FILE_MAX_SYMBOL_FILE, FALSE, &contents, NULL, error))
    return NULL;
  lines = g_strsplit (contents, "\n", -1);
  ranges = _sp_symbol_ranges_new ();
  for (guint i = 0; lines[i] != NULL; i++)
    {
      SpSymbolRange range;

      g_strchomp (lines[i]);
      if (parse_line (self, lines[i], i, &range))
        g_array_append_val (ranges, range);
    }
  _sp_symbol_ranges_finish (ranges, FALSE);
  return ranges;
}
