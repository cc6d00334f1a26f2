/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-access.h: what the kernel lets this process record, asked the
 * same way by the recorder (which then tries) and by the record dialog
 * (which says beforehand what a recording will hold).
 *
 * Kernel sampling, and with it the context-switch samples that give
 * blocked stacks (docs/OFF-CPU.md), needs kernel.perf_event_paranoid <= 1
 * or CAP_PERFMON (CAP_SYS_ADMIN before Linux 5.8; root has both). Switch
 * records (thread states and off-CPU times) need only perf_event_open and
 * Linux 4.3. libc only: the recorder may run with privileges. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* kernel.perf_event_paranoid; 2 (the usual default) when unreadable. */
int sp_perf_paranoid (void);

/* Whether this process may sample kernel code: paranoid <= 1, or
 * CAP_PERFMON or CAP_SYS_ADMIN in its effective capabilities. */
bool sp_perf_kernel_sampling_allowed (void);

/* Whether the kernel gives context-switch records (PERF_RECORD_SWITCH):
 * perf events exist and the kernel is 4.3 or later. */
bool sp_perf_has_switch_records (void);

/* Why blocked stacks cannot be recorded when kernel sampling is refused,
 * and what would allow them: the side file's off_cpu_stacks_reason. */
void sp_perf_offcpu_stacks_reason (int paranoid,
                                   char *reason,
                                   size_t size);
