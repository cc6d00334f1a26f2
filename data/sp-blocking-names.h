/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-blocking-names.h: where each off-CPU stretch waited, by name.
 *
 * The timeline's hover says "blocked 12 ms in pipe_wait": the innermost
 * function of the program or its libraries in the switch-out's stack (the
 * kernel's scheduler frames say nothing a person can act on), or the
 * innermost kernel function for a stack without user frames. Made by the
 * thread that updates the profile, as a table of copies the window may
 * read: stack id (guint32) -> name (char *). */
#pragma once

#include <glib.h>

#include "sp-profile.h"
#include "sp-thread-states.h"

G_BEGIN_DECLS

/* The names of every stack the off-CPU intervals of states name; entries
 * of previous (may be NULL: a table this made for older states) are
 * reused rather than resolved again. A new table. */
GHashTable *sp_blocking_names_new (SpProfile *profile,
                                   const SpThreadStates *states,
                                   GHashTable *previous);

/* The name for stack, NULL when there is none (no stack was recorded). */
const char *sp_blocking_names_lookup (GHashTable *names,
                                      guint32 stack);

G_END_DECLS
