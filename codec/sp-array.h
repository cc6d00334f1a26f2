/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-array.h: growing a malloc'd array by doubling.
 *
 * The codec's tables and the recorder's buffers all grow this way; large
 * arrays then grow by mremap inside glibc, without copying. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

/* Arrays from this size on ask for transparent huge pages. */
#define SP_ARRAY_HUGE_MIN ((size_t) 4 << 20)

/* Asks for transparent huge pages for a large array (the kernel's default
 * setting gives them only to memory that asks): a 2 MB page is one page
 * fault where 4 kB pages take 512, and on a virtual machine whose
 * hypervisor sees each fault (this project's machines: about 10 us each)
 * the faults of a 50M-sample recording's tables were seconds. glibc keeps
 * arrays this large in mappings of their own and grows them by mremap,
 * which keeps the advice; an array in the heap has its pages advised. */
static inline void
sp_array_advise_huge (void *array,
                      size_t bytes)
{
  uintptr_t start = (uintptr_t) array & ~(uintptr_t) 4095;
  uintptr_t end = ((uintptr_t) array + bytes + 4095) & ~(uintptr_t) 4095;

  if (bytes >= SP_ARRAY_HUGE_MIN)
    madvise ((void *) start, end - start, MADV_HUGEPAGE);
}

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
  sp_array_advise_huge (grown, n * item_size);
  *array = grown;
  *capacity = n;
  return true;
}
