/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report-heap.c: how much huge-page heap a report reserves
 * (sp-huge-heap.c), from the size of the recordings it reads. */
#include "sp-report.h"

#include <glib/gstdio.h>
#include <sys/stat.h>

#include "sp-huge-heap.h"

#define MIB ((gsize) 1 << 20)
#define SPOOL_BYTES_MAX (16 * MIB)

void
sp_report_heap_prepare (const char *const *files,
                        guint n_files)
{
  gsize spool_bytes = 0;

  for (guint i = 0; i < n_files; i++)
    {
      struct stat st;

      if (g_stat (files[i], &st) == 0 && S_ISREG (st.st_mode))
        spool_bytes += (gsize) st.st_size;
    }
  /* A larger recording's tables outgrow the heap's blocks: grown there
   * by doubling, then moved to mappings of their own, they left holes the
   * heap kept: a 50M-sample tree peaked at 846 MB instead of 516, over
   * the 12 bytes a sample the report is allowed, and a 33 MB spool's
   * bottom-up tree at 275 MB instead of 237 (a try-out). Up to 16 MB (the
   * deep 300k benchmark's spool is 7 MB) the faults saved are worth more. */
  if (spool_bytes > SPOOL_BYTES_MAX)
    return;
  /* The tables take a few times the spool's size (its records are
   * varint-packed): this covers what a report of it touches. */
  sp_huge_heap_prepare (16 * MIB + spool_bytes * 4);
}
