/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-heap.c: no large copy while holding a malloc arena's lock.
 *
 * glibc grows a block that lies in an arena's heap by copying it to a
 * larger one, with that arena's lock held; a block that has a mapping of
 * its own grows by mremap, without a copy and without the lock. Which
 * blocks get a mapping of their own is decided by a threshold that glibc
 * raises, up to 32 MB, each time such a block is freed. So once a window
 * had let go of its first large trees and counts, the worker building
 * the next ones doubled its arrays of up to 32 MB by copying them into
 * fresh pages while the main thread waited for that lock: issue 18's drag
 * on a 50M-sample recording saw the main thread blocked in glibc's lock
 * for 25 to 58 ms in one frame of each drag, woken by the worker as such
 * a copy ended (perf, sched_waking), on a machine where every first touch
 * of a page costs about 10 us.
 *
 * A fixed threshold of 8 MB bounds such a copy (about 18 ms there), and
 * keeps the main thread's per-frame buffers in the heap (cairo's 1.5 MB
 * mask in a flame graph zoom, a 1080p window's 8 MB): with 1 MB, each
 * zoom mapped its mask anew and faulted it in, and its p95 frame went from
 * 6 to 11 ms. Fixing the threshold also fixes glibc's trim threshold at
 * 128 kB, which gave the heap's top back after every frame for the next
 * to fault in again: it is set to what the dynamic setting reaches, 64 MB.
 * Drag on the 50M recording, median of 3 runs: longest gap 31-64 ms ->
 * 31 ms (worst run 33); zoom unchanged (p95 6 ms). */
#include "sp-window-heap.h"

#include <malloc.h>

#define MMAP_THRESHOLD (8 << 20)
#define TRIM_THRESHOLD (64 << 20)

void
sp_window_heap_prepare (void)
{
  /* Nothing depends on it for correctness: if glibc says no, the window
   * runs with its defaults. */
  mallopt (M_MMAP_THRESHOLD, MMAP_THRESHOLD);
  mallopt (M_TRIM_THRESHOLD, TRIM_THRESHOLD);
}
