/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-array.h: growing a malloc'd array by doubling.
 *
 * The codec's tables and the recorder's buffers all grow this way; large
 * arrays then grow by mremap inside glibc, without copying. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

/* Makes *array hold at least needed items of item_size bytes, doubling
 * *capacity (starting at 64). False when memory ran out (the array is
 * left as it was). */
static inline bool
sp_array_reserve (void **array,
                  size_t *capacity,
                  size_t needed,
                  size_t item_size)
{
  size_t n = *capacity == 0 ? 64 : *capacity;
  void *grown;

  if (needed <= *capacity)
    return true;
  while (n < needed)
    n *= 2;
  grown = realloc (*array, n * item_size);
  if (grown == NULL)
    return false;
  *array = grown;
  *capacity = n;
  return true;
}
