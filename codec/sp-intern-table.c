/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-intern-table.c: open addressing with linear probing, keys kept dense. */
#include "sp-intern-table.h"

#include <stdlib.h>
#include <string.h>

#define MIN_SLOTS 64

static uint64_t
hash_key (const uint64_t *key,
          size_t n_words)
{
  uint64_t h = 0x9E3779B97F4A7C15u;

  for (size_t i = 0; i < n_words; i++)
    {
      h ^= key[i];
      h *= 0xBF58476D1CE4E5B9u;
      h ^= h >> 31;
    }
  return h;
}

void
sp_intern_table_init (SpInternTable *table,
                       size_t n_words)
{
  memset (table, 0, sizeof *table);
  table->n_words = n_words;
}

void
sp_intern_table_clear (SpInternTable *table)
{
  free (table->keys);
  free (table->slots);
  sp_intern_table_init (table, table->n_words);
}

static inline bool
same_key (const uint64_t *a,
          const uint64_t *b,
          size_t n_words)
{
  for (size_t i = 0; i < n_words; i++)
    if (a[i] != b[i])
      return false;
  return true;
}

static size_t
find_slot (const SpInternTable *table,
           const uint64_t *key,
           bool *found)
{
  size_t i = (size_t) hash_key (key, table->n_words) & table->mask;

  for (;; i = (i + 1) & table->mask)
    {
      uint32_t slot = table->slots[i];

      if (slot == 0)
        {
          *found = false;
          return i;
        }
      if (same_key (sp_intern_table_key (table, slot - 1), key, table->n_words))
        {
          *found = true;
          return i;
        }
    }
}

/* Keeps the load factor at or below 1/2. */
static bool
grow_slots (SpInternTable *table)
{
  size_t n_slots = table->slots == NULL ? MIN_SLOTS : (table->mask + 1) * 2;
  uint32_t *slots = calloc (n_slots, sizeof *slots);

  if (slots == NULL)
    return false;

  free (table->slots);
  table->slots = slots;
  table->mask = n_slots - 1;
  for (size_t id = 0; id < table->count; id++)
    {
      bool found;
      size_t i = find_slot (table, sp_intern_table_key (table, (uint32_t) id), &found);

      table->slots[i] = (uint32_t) id + 1;
    }
  return true;
}

static bool
grow_keys (SpInternTable *table)
{
  size_t capacity = table->keys_capacity == 0 ? MIN_SLOTS : table->keys_capacity * 2;
  uint64_t *keys = realloc (table->keys, capacity * table->n_words * sizeof (uint64_t));

  if (keys == NULL)
    return false;
  table->keys = keys;
  table->keys_capacity = capacity;
  return true;
}

int64_t
sp_intern_table_lookup (const SpInternTable *table,
                         const uint64_t *key)
{
  bool found;
  size_t i;

  if (table->slots == NULL)
    return -1;
  i = find_slot (table, key, &found);
  return found ? (int64_t) table->slots[i] - 1 : -1;
}

int64_t
sp_intern_table_intern (SpInternTable *table,
                         const uint64_t *key,
                         bool *added)
{
  bool found = false;
  size_t i = 0;

  *added = false;
  if (table->slots != NULL)
    {
      i = find_slot (table, key, &found);
      if (found)
        return (int64_t) table->slots[i] - 1;
    }

  if (table->count >= UINT32_MAX - 1)
    return -1;
  if (table->count == table->keys_capacity && !grow_keys (table))
    return -1;
  memcpy (table->keys + table->count * table->n_words, key, table->n_words * sizeof (uint64_t));
  table->count++;

  if (table->slots == NULL || table->count * 2 > table->mask + 1)
    {
      if (!grow_slots (table))
        {
          table->count--;
          return -1;
        }
    }
  else
    table->slots[i] = (uint32_t) table->count;

  *added = true;
  return (int64_t) table->count - 1;
}
