/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-stack-roots.h: whether a recording's stacks reach their thread's root.
 *
 * Counted from the stacks themselves, not from what the unwinder thought
 * of them: a stack reaches its thread's root when nothing of the
 * program's code is missing from its outer end. Its outermost frame must
 * then be where a thread begins (docs/UNWINDING.md has the rule):
 *
 *   - the program's entry: _start, or any frame whose callee is
 *     __libc_start_main (a stripped program's entry has no name), or
 *     ld.so's (a frame whose callee is _dl_start);
 *   - libc starting the program's first function: __libc_start_main,
 *     __libc_start_call_main; or a thread's: start_thread, clone3, clone;
 *   - Go's runtime: runtime.goexit (under every goroutine), runtime.mstart
 *     and runtime.clone (its threads), runtime.rt0_go (the first one).
 *
 * Rust's threads start in libc like C's. Stacks with kernel frames only (a
 * thread that is exiting) have no user stack to reach and are not
 * counted; a stack that ends in the truncated marker or in an address is
 * broken. */
#pragma once

#include <glib.h>

#include "sp-profile.h"
#include "sp-stack-counts.h"

G_BEGIN_DECLS

/* From this share of broken stacks on (percent), the window and the
 * report warn: a profile that misses the outer frames of one stack in ten
 * puts their time under the wrong callers. */
#define SP_STACK_ROOTS_WARN_PERCENT 10.0

typedef struct {
  guint64 n_stacks;    /* samples with a user stack */
  guint64 n_rooted;    /* of those, reaching their thread's root */
} SpStackRoots;

/* Whether name (a function, as the profile names it) begins threads. */
gboolean sp_stack_roots_is_thread_root (const char *name);

/* Counts the samples of counts (all the profile's, counted by samples:
 * sp_stack_counts_new (profile, NULL)), each stack judged as its process
 * resolves it. On the thread that updates the profile: it resolves the
 * stacks' two outermost frames. */
void sp_stack_roots_count (SpProfile *profile,
                           const SpStackCounts *counts,
                           SpStackRoots *roots);

/* The share of stacks that reach their root, and that do not, in percent
 * (both 0 without stacks). */
double sp_stack_roots_rooted_percent (const SpStackRoots *roots);
double sp_stack_roots_broken_percent (const SpStackRoots *roots);

G_END_DECLS
