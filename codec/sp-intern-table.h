/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-intern-table.h: a hash table from fixed-size keys to dense ids.
 *
 * Every cache of the writer (threads, frames, stacks) hands out ids in the
 * order keys are first seen, so the table stores the keys in id order and
 * an open-addressing index of ids next to them. The recorder uses it too
 * (kernel addresses, per-process state). */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t *keys;       /* n_words per key; key i has id i */
  uint32_t *slots;      /* 0: empty; otherwise id + 1 */
  size_t    n_words;
  size_t    count;
  size_t    keys_capacity;
  size_t    mask;       /* number of slots - 1 (a power of two minus one) */
} SpInternTable;

void sp_intern_table_init (SpInternTable *table,
                            size_t n_words);

void sp_intern_table_clear (SpInternTable *table);

/* Returns the id of key (n_words words), giving it the next id when it is
 * new (*added is then true). Returns -1 when memory ran out. */
int64_t sp_intern_table_intern (SpInternTable *table,
                                 const uint64_t *key,
                                 bool *added);

/* Returns the id of key, or -1 when it was never interned. */
int64_t sp_intern_table_lookup (const SpInternTable *table,
                                 const uint64_t *key);

static inline const uint64_t *
sp_intern_table_key (const SpInternTable *table,
                      uint32_t id)
{
  return table->keys + (size_t) id * table->n_words;
}
