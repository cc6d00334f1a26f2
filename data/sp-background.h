/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-background.h: the viewer's worker threads give way to its main thread.
 *
 * On a machine whose CPUs are all busy (a 50M-sample file read on two
 * CPUs), a frame of the window waits for a CPU behind its own helpers.
 * Linux keeps a nice value per thread: a helper lowers its own, once, so
 * the main thread (and the X server or compositor it talks to) runs
 * first when both want a CPU; an idle CPU still goes to the helper at
 * full speed. Used by the work that only completes a picture (the sample
 * index built beside the counts, the timeline's bars), not by the
 * analysis worker: while recording on every CPU it competes with the
 * workload, and at nice 10 its live updates fell seconds behind. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The calling thread's priority, lowered (once per thread; a no-op where
 * the system has no per-thread priority). */
void sp_background_thread_enter (void);

G_END_DECLS
