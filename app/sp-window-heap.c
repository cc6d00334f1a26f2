/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-heap.c: no large copy while holding a malloc arena's lock.
 *
 * glibc grows a block that lies in an arena's heap by copying it to a
 * larger one, with that arena's lock held; a block that has a mapping of
 * its own grows by mremap, without a copy and without the lock. Which
 * blocks get a mapping of their own is decided by a threshold that glibc
 * raises, up to 32 MB, each time such a block is freed. So once a window
 * had let go of its first large trees and counts, the worker building
 * the next ones doubled its arrays of several megabytes by copying them
 * into fresh pages while the main thread waited for that lock: issue
 * 18's drag on a 50M-sample recording saw the main thread blocked in
 * glibc's lock for 25 to 58 ms in one frame of each drag, woken by the
 * worker as such a copy ended (perf, sched_waking), on a machine where
 * every first touch of a page costs about 10 us.
 *
 * A fixed threshold of 1 MB keeps every larger block in a mapping of its
 * own: growing one costs no copy, and a copy under the lock is of 1 MB at
 * most. The price is that a large block's pages are fresh each time
 * (no reuse of freed heap), which a worker building a tree pays once per
 * array, off the main thread. */
#include "sp-window-heap.h"

#include <malloc.h>

#define MMAP_THRESHOLD (1 << 20)

void
sp_window_heap_prepare (void)
{
  /* Nothing depends on it for correctness: if glibc says no, the window
   * runs with its defaults. */
  mallopt (M_MMAP_THRESHOLD, MMAP_THRESHOLD);
}
