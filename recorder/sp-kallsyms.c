/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-kallsyms.c: read the whole file, index the text symbols, sort. */
#include "sp-kallsyms.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int
compare_symbols (const void *a,
                 const void *b)
{
  const SpKernelSymbol *x = a;
  const SpKernelSymbol *y = b;

  return x->address < y->address ? -1 : x->address > y->address;
}

/* /proc files have no size: read until the end. */
static bool
read_all (const char *path,
          char **text,
          size_t *len)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  size_t capacity = 1 << 20;
  size_t used = 0;
  char *buffer;
  ssize_t n;

  if (fd < 0)
    return false;
  buffer = malloc (capacity + 1);
  while (buffer != NULL && (n = read (fd, buffer + used, capacity - used)) > 0)
    {
      used += (size_t) n;
      if (used == capacity)
        {
          char *grown = realloc (buffer, capacity * 2 + 1);

          if (grown == NULL)
            {
              free (buffer);
              buffer = NULL;
              break;
            }
          buffer = grown;
          capacity *= 2;
        }
    }
  close (fd);
  if (buffer == NULL)
    return false;
  buffer[used] = '\0';
  *text = buffer;
  *len = used;
  return true;
}

static int
hex_digit (char c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/* "ffffffff81000000 T _stext\n" or "... t name\t[module]\n": text symbols
 * (t, T, w, W) only. Returns the start of the next line. */
static const char *
parse_line (const char *line,
            const char *end,
            uint64_t *address,
            const char **name)
{
  const char *p = line;
  const char *next = memchr (line, '\n', (size_t) (end - line));
  uint64_t v = 0;
  int digit;

  next = next ? next + 1 : end;
  *name = NULL;
  while (p < next && (digit = hex_digit (*p)) >= 0)
    {
      v = v << 4 | (uint64_t) digit;
      p++;
    }
  if (p + 3 < next && p[0] == ' ' && strchr ("tTwW", p[1]) != NULL && p[2] == ' ')
    {
      *address = v;
      *name = p + 3;
    }
  return next;
}

bool
sp_kallsyms_load (SpKallsyms *kallsyms,
                  const char *path)
{
  const char *p;
  const char *end;
  size_t capacity = 0;
  bool any_address = false;

  memset (kallsyms, 0, sizeof *kallsyms);
  if (!read_all (path, &kallsyms->text, &kallsyms->text_len))
    return false;
  end = kallsyms->text + kallsyms->text_len;
  for (p = kallsyms->text; p < end;)
    {
      uint64_t address = 0;
      const char *name;

      p = parse_line (p, end, &address, &name);
      if (name == NULL)
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
      kallsyms->symbols[kallsyms->n_symbols++] =
        (SpKernelSymbol) { address, (uint32_t) (name - kallsyms->text) };
    }
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
  free (kallsyms->text);
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

void
sp_kallsyms_get_name (const SpKallsyms *kallsyms,
                      size_t index,
                      const char **name,
                      size_t *name_len,
                      const char **module,
                      size_t *module_len)
{
  const char *start = kallsyms->text + kallsyms->symbols[index].name_offset;
  size_t len = strcspn (start, "\n");
  const char *tab = memchr (start, '\t', len);

  *name = start;
  *name_len = tab ? (size_t) (tab - start) : len;
  *module = tab ? tab + 1 : "";
  *module_len = tab ? len - *name_len - 1 : 0;
}

static void *
load_thread (void *user_data)
{
  SpKallsymsLoad *load = user_data;

  load->loaded = sp_kallsyms_load (&load->kallsyms, load->path);
  return NULL;
}

void
sp_kallsyms_load_begin (SpKallsymsLoad *load,
                        const char *path)
{
  memset (load, 0, sizeof *load);
  load->path = path;
  load->started = pthread_create (&load->thread, NULL, load_thread, load) == 0;
}

bool
sp_kallsyms_load_end (SpKallsymsLoad *load,
                      const char *path,
                      SpKallsyms *kallsyms)
{
  bool loaded;

  if (!load->started)
    return sp_kallsyms_load (kallsyms, path);
  pthread_join (load->thread, NULL);
  load->started = false;
  loaded = load->loaded;
  *kallsyms = load->kallsyms;
  memset (&load->kallsyms, 0, sizeof load->kallsyms);
  return loaded;
}

void
sp_kallsyms_load_discard (SpKallsymsLoad *load)
{
  SpKallsyms kallsyms;

  if (load->started && sp_kallsyms_load_end (load, load->path, &kallsyms))
    sp_kallsyms_clear (&kallsyms);
}
