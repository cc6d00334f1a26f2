/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-huge-heap.c: a short-lived program's heap in transparent huge pages.
 *
 * The report and a perf.data conversion touch tens of megabytes once and
 * exit. Each first touch of a 4 kB page is a page fault, and on a virtual
 * machine whose hypervisor sees each one (this project's machines) a fault
 * costs about 10 us: 8,000 of them were half of `stackpulse-report tree`
 * on a 300k-sample recording. A 2 MB page is one fault for 512 of them.
 * So the heap is grown at the start, advised huge (MADV_HUGEPAGE: the
 * kernel's default setting gives huge pages only to memory that asks) and
 * kept: glibc does not give its top back, blocks up to 32 MB come from the
 * heap rather than from mappings of their own (glibc's setting for that
 * only goes up to 32 MB), and every thread allocates from it (one arena).
 * Only untouched room is reserved: what is not used costs no memory.
 * Nothing here is needed for correctness: where a step fails, the program
 * runs with the pages it gets. */
#include "sp-huge-heap.h"

#include <malloc.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define MIB ((size_t) 1 << 20)
/* glibc's largest M_MMAP_THRESHOLD on 64-bit. */
#define HEAP_BLOCK_MAX (32 * MIB)

void
sp_huge_heap_prepare (size_t reserve)
{
  void *blocks[64];
  size_t page = (size_t) sysconf (_SC_PAGESIZE);
  size_t n_blocks = (reserve + HEAP_BLOCK_MAX - 1) / HEAP_BLOCK_MAX;
  uintptr_t start, end;

  if (n_blocks > sizeof blocks / sizeof blocks[0])
    n_blocks = sizeof blocks / sizeof blocks[0];
  if (mallopt (M_MMAP_THRESHOLD, (int) HEAP_BLOCK_MAX) == 0 || mallopt (M_TRIM_THRESHOLD, 0x7fffffff) == 0
      || mallopt (M_ARENA_MAX, 1) == 0)
    return;
  start = (uintptr_t) sbrk (0);
  /* Below the threshold each block comes from the heap, one after
   * another; freed, they are its top, which it keeps. */
  for (size_t i = 0; i < n_blocks; i++)
    blocks[i] = malloc (HEAP_BLOCK_MAX - 4096);
  for (size_t i = 0; i < n_blocks; i++)
    free (blocks[i]);
  end = (uintptr_t) sbrk (0);
  start = (start + page - 1) & ~(uintptr_t) (page - 1);
  if (start != (uintptr_t) -1 && end > start)
    madvise ((void *) start, end - start, MADV_HUGEPAGE);
}
