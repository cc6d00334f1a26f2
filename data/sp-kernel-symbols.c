/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-kernel-symbols.c: kernel frames' names, from the recording or the
 * running kernel.
 *
 * The recorder copies the kernel symbols its samples hit into the side
 * file's [kernel-symbols] group ("HEXSTART=SIZE;NAME;MODULE;", see
 * docs/SIDE-FILE.md), because kernel addresses change with every boot and
 * /proc/kallsyms may show zeros to the viewer. Without that group the
 * running kernel's /proc/kallsyms is the fallback, good for recordings of
 * this boot. */
#include "sp-symbolizer-private.h"

#include <string.h>

#include "sp-file-private.h"

#define KERNEL_SYMBOLS_GROUP "kernel-symbols"

static gboolean
parse_hex (const char *text,
           guint64 *value)
{
  char *end = NULL;

  if (text == NULL || !g_ascii_isxdigit (text[0]))
    return FALSE;
  *value = g_ascii_strtoull (text, &end, 16);
  return end != text && *end == '\0';
}

/* One "HEXSTART=SIZE;NAME;MODULE;" entry; FALSE for other keys (source). */
static gboolean
parse_entry (SpSymbolizer *self,
             GKeyFile *meta,
             const char *key,
             SpSymbolRange *range)
{
  g_auto (GStrv) fields = NULL;
  gsize n_fields = 0;
  char *end = NULL;

  if (!parse_hex (key, &range->start))
    return FALSE;
  fields = g_key_file_get_string_list (meta, KERNEL_SYMBOLS_GROUP, key, &n_fields, NULL);
  if (fields == NULL || n_fields < 2 || fields[1][0] == '\0')
    return FALSE;
  range->size = g_ascii_strtoull (fields[0], &end, 10);
  if (end == fields[0])
    range->size = 0;
  range->name = g_string_chunk_insert_const (self->strings, fields[1]);
  range->rank = 0;
  return TRUE;
}

GArray *
_sp_kernel_symbols_from_key_file (SpSymbolizer *self,
                                  GKeyFile *meta)
{
  g_auto (GStrv) keys = g_key_file_get_keys (meta, KERNEL_SYMBOLS_GROUP, NULL, NULL);
  g_autoptr (GArray) symbols = NULL;

  if (keys == NULL)
    return NULL;
  symbols = _sp_symbol_ranges_new ();
  for (guint i = 0; keys[i] != NULL; i++)
    {
      SpSymbolRange range;

      if (parse_entry (self, meta, keys[i], &range))
        g_array_append_val (symbols, range);
    }
  if (symbols->len == 0)
    return NULL;
  /* Sizes are given: the group holds only the symbols that were hit, so
   * the next entry is no symbol's end. */
  _sp_symbol_ranges_finish (symbols, FALSE);
  return g_steal_pointer (&symbols);
}

/* One "ffffffff81000000 T _stext [module]" line, text symbols only. */
static gboolean
parse_kallsyms_line (SpSymbolizer *self,
                     char *line,
                     SpSymbolRange *range,
                     gboolean *nonzero)
{
  char *fields[3];
  char *save = NULL;
  guint n = 0;

  for (char *field = strtok_r (line, " \t", &save); field != NULL && n < 3;
       field = strtok_r (NULL, " \t", &save))
    fields[n++] = field;
  if (n < 3 || !parse_hex (fields[0], &range->start))
    return FALSE;
  *nonzero |= range->start != 0;
  if (strcmp (fields[1], "t") != 0 && strcmp (fields[1], "T") != 0)
    return FALSE;
  range->size = 0;
  range->name = g_string_chunk_insert (self->strings, fields[2]);
  range->rank = 0;
  return TRUE;
}

GArray *
_sp_kernel_symbols_from_kallsyms (SpSymbolizer *self,
                                  const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr (GArray) symbols = NULL;
  gboolean nonzero = FALSE;
  char *save = NULL;

  if (!_sp_file_read_regular (path, SP_FILE_MAX_SYMBOL_FILE, TRUE, &contents, NULL, NULL))
    return NULL;
  symbols = _sp_symbol_ranges_new ();
  for (char *line = strtok_r (contents, "\n", &save); line != NULL; line = strtok_r (NULL, "\n", &save))
    {
      SpSymbolRange range;

      if (parse_kallsyms_line (self, line, &range, &nonzero))
        g_array_append_val (symbols, range);
    }
  /* Without privileges every address reads as zero: no symbols at all. */
  if (!nonzero || symbols->len == 0)
    return NULL;
  _sp_symbol_ranges_finish (symbols, TRUE);
  return g_steal_pointer (&symbols);
}
