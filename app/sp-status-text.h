/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-status-text.h: what the window says about a recording's health, in
 * words: the status line's figures (samples, duration, lost, truncated)
 * and its symbol problems.
 *
 * Short where the status bar shows it, complete where the Summary page
 * does. Problems that leave frames as bare addresses (a missing, changed
 * or stripped file) are the ones worth the status bar; a library without
 * debug info is common (most system libraries) and only costs source
 * lines, so the Summary page lists those. */
#pragma once

#include <glib.h>

#include "sp-spool-summary.h"

G_BEGIN_DECLS

/* "12000 samples over 4.00 s  ·  none lost  ·  15 truncated stacks (0.1%)":
 * lost only when the side file counts them, truncated only when any; and
 * "⚠ 38% of stacks are broken" when SP_STACK_ROOTS_WARN_PERCENT or more
 * of the stacks miss their outer frames; "⚠ the side file is unreadable"
 * when there is one that could not be read. */
char *sp_status_text_figures (const SpSpoolSummary *summary);

/* Whether problem leaves frames as addresses (everything but missing
 * debug info). */
gboolean sp_status_text_is_serious (const SpSymbolProblem *problem);

/* "libfoo.so has no symbols", "libbar.so was not found",
 * "app changed since the recording", "no kernel symbols". */
char *sp_status_text_problem (const SpSymbolProblem *problem);

/* For the status bar: the first serious problem, and how many more
 * ("libfoo.so has no symbols, and 2 more symbol problems"); NULL when
 * there is none. */
char *sp_status_text_headline (const GArray *problems);

/* For the Summary page: one serious problem a line, as data/ words them;
 * NULL when there is none. */
char *sp_status_text_serious (const GArray *problems);

/* For the Summary page: "libc.so.6, libm.so.6"; NULL when every module
 * has debug info. */
char *sp_status_text_no_debug_info (const GArray *problems);

/* What to do about those: install -dbgsym packages (the distribution's
 * files), rebuild with -g (programs built here), or both. */
char *sp_status_text_debug_advice (const GArray *problems);

G_END_DECLS
