/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-kallsyms.c: parse, sort, binary search. */
#include "sp-kallsyms.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
compare_symbols (const void *a,
                 const void *b)
{
  const SpKernelSymbol *x = a;
  const SpKernelSymbol *y = b;

  return x->address < y->address ? -1 : x->address > y->address;
}

static bool
is_text_type (char type)
{
  return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/* "ffffffff81000000 T _stext" or "... t name\t[module]". */
static bool
parse_line (char *line,
            uint64_t *address,
            char **name)
{
  char *type;
  char *end;

  *address = strtoull (line, &end, 16);
  if (end == line || *end != ' ')
    return false;
  type = end + 1;
  if (!is_text_type (*type) || type[1] != ' ')
    return false;
  *name = type + 2;
  (*name)[strcspn (*name, "\n")] = '\0';
  return **name != '\0';
}

bool
sp_kallsyms_load (SpKallsyms *kallsyms,
                  const char *path)
{
  FILE *file = fopen (path, "re");
  char *line = NULL;
  size_t line_size = 0;
  size_t capacity = 0;
  bool any_address = false;

  memset (kallsyms, 0, sizeof *kallsyms);
  if (file == NULL)
    return false;
  while (getline (&line, &line_size, file) > 0)
    {
      uint64_t address;
      char *name;

      if (!parse_line (line, &address, &name))
        continue;
      any_address |= address != 0;
      if (kallsyms->n_symbols == capacity)
        {
          size_t n = capacity ? capacity * 2 : 65536;
          SpKernelSymbol *grown = realloc (kallsyms->symbols, n * sizeof *grown);

          if (grown == NULL)
            break;
          kallsyms->symbols = grown;
          capacity = n;
        }
      kallsyms->symbols[kallsyms->n_symbols].address = address;
      kallsyms->symbols[kallsyms->n_symbols].name = strdup (name);
      kallsyms->n_symbols++;
    }
  free (line);
  fclose (file);
  if (!any_address)
    {
      sp_kallsyms_clear (kallsyms);
      return false;
    }
  qsort (kallsyms->symbols, kallsyms->n_symbols, sizeof (SpKernelSymbol), compare_symbols);
  return true;
}

void
sp_kallsyms_clear (SpKallsyms *kallsyms)
{
  for (size_t i = 0; i < kallsyms->n_symbols; i++)
    free (kallsyms->symbols[i].name);
  free (kallsyms->symbols);
  memset (kallsyms, 0, sizeof *kallsyms);
}

long
sp_kallsyms_lookup (const SpKallsyms *kallsyms,
                    uint64_t address)
{
  size_t lo = 0;
  size_t hi = kallsyms->n_symbols;

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (kallsyms->symbols[mid].address <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo == 0 ? -1 : (long) lo - 1;
}
