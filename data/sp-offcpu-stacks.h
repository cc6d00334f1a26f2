/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-stacks.h: whether a recording's blocked stacks are missing,
 * and why, from its side file (docs/OFF-CPU.md: `off_cpu`,
 * `off_cpu_stacks`, `off_cpu_stacks_reason`).
 *
 * Without the rights to sample the kernel the recorder keeps thread
 * states and off-CPU times but no stack at switch-out; the report and the
 * window both say so with the recorder's own reason, asking here. */
#pragma once

#include <glib.h>

#include "sp-thread-states.h"

G_BEGIN_DECLS

/* The reason the side file meta gives for recording off-CPU time without
 * blocked stacks (off_cpu=true, off_cpu_stacks=none), or a sentence saying
 * it gave none; NULL when the stacks were recorded, or when meta (may be
 * NULL) is not of an off-CPU recording. */
char *sp_offcpu_stacks_missing_reason (GKeyFile *meta);

/* The same for the recording at spool_path (its side file, spool_path.meta,
 * read now); NULL also when there is no side file to read. */
char *sp_offcpu_stacks_missing_reason_for (const char *spool_path);

/* The side file's [thread TID] totals, written with --off-cpu (blocked,
 * runnable, switches; running is not written): what is known of a
 * thread's off-CPU time when the companion is missing. FALSE when meta
 * (may be NULL) has none for that thread. */
gboolean sp_offcpu_side_file_totals (GKeyFile *meta,
                                     guint64 tid,
                                     SpThreadTotals *totals);

G_END_DECLS
