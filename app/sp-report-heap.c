/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report-heap.c: the report's heap in transparent huge pages.
 *
 * The report touches tens of megabytes once (the reader's tables, the
 * counts, the tree's sums) and exits. Each first touch of a 4 kB page is a
 * page fault, and on a virtual machine whose hypervisor sees each one
 * (this project's machines) a fault costs about 10 us: 8,000 of them were
 * half of `stackpulse-report tree` on a 300k-sample recording. A 2 MB page
 * is one fault for 512 of them. So, before the recording is read, the heap
 * is grown to a size that follows the recording's, advised huge
 * (MADV_HUGEPAGE: the kernel's default setting gives huge pages only to
 * memory that asks) and kept: glibc does not give its top back (the report
 * frees little before it ends), and blocks up to 32 MB come from the heap
 * rather than from mappings of their own (glibc's setting for that only
 * goes up to 32 MB). Recordings of more than a few million samples are
 * left as they were (below). Nothing here is needed for correctness: where
 * a step fails, the report runs with the pages it gets. */
#include "sp-report.h"

#include <glib/gstdio.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB ((gsize) 1 << 20)
/* glibc's largest M_MMAP_THRESHOLD on 64-bit. */
#define HEAP_BLOCK_MAX (32 * MIB)
#define SPOOL_BYTES_MAX (32 * MIB)

void
sp_report_heap_prepare (const char *const *files,
                        guint n_files)
{
  g_autofree void **blocks = NULL;
  gsize spool_bytes = 0;
  gsize reserve;
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guint n_blocks;
  guintptr start, end;

  /* The tables take a few times the spool's size (its records are
   * varint-packed): this covers what a report of it touches. */
  for (guint i = 0; i < n_files; i++)
    {
      struct stat st;

      if (g_stat (files[i], &st) == 0 && S_ISREG (st.st_mode))
        spool_bytes += (gsize) st.st_size;
    }
  /* A larger recording's tables outgrow the heap's blocks: grown there
   * by doubling, then moved to mappings of their own, they left holes the
   * heap kept: a 50M-sample tree peaked at 846 MB instead of 516, over
   * the 12 bytes a sample the report is allowed. */
  if (spool_bytes > SPOOL_BYTES_MAX)
    return;
  reserve = 16 * MIB + spool_bytes * 4;
  /* One arena: the thread that reads the modules while the spool is read
   * (sp-symbol-warmup.c) allocates from this heap too, not from a
   * mapping of its own in 4 kB pages. */
  if (mallopt (M_MMAP_THRESHOLD, (int) HEAP_BLOCK_MAX) == 0 || mallopt (M_TRIM_THRESHOLD, G_MAXINT) == 0
      || mallopt (M_ARENA_MAX, 1) == 0)
    return;
  start = (guintptr) sbrk (0);
  n_blocks = (guint) ((reserve + HEAP_BLOCK_MAX - 1) / HEAP_BLOCK_MAX);
  blocks = g_new0 (void *, n_blocks);
  /* Below the threshold each block comes from the heap, one after
   * another; freed, they are its top, which it keeps. */
  for (guint i = 0; i < n_blocks; i++)
    blocks[i] = malloc (HEAP_BLOCK_MAX - 4096);
  for (guint i = 0; i < n_blocks; i++)
    free (blocks[i]);
  end = (guintptr) sbrk (0);
  start = (start + page - 1) & ~(page - 1);
  if (start != (guintptr) -1 && end > start)
    madvise ((void *) start, end - start, MADV_HUGEPAGE);
}
