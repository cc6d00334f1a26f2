/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-system-target.h: the whole machine as a target (stackpulse-record -a).
 *
 * Which CPUs are online (one sampling event each), every process and
 * thread that exists when the recording starts (from /proc), which of
 * them are kernel threads, and the command line of a process. A process
 * that ends while /proc is read is skipped: it is no error. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The online CPUs, from /sys/devices/system/cpu/online ("0-3,6"), into
 * cpus (at most max); how many. 0 when it cannot be read. */
size_t sp_system_online_cpus (int *cpus,
                              size_t max);

typedef void (*SpSystemProcessFunc) (pid_t pid, void *user_data);

/* Calls func for every process /proc lists now; how many. */
size_t sp_system_foreach_process (SpSystemProcessFunc func,
                                  void *user_data);

/* Whether pid is a kernel thread (PF_KTHREAD in /proc/PID/stat: no user
 * memory, no maps); false when it cannot be read. */
bool sp_system_is_kernel_thread (pid_t pid);

/* The name of thread tid of process pid (/proc/PID/task/TID/comm, cut
 * at size); false when it is gone. */
bool sp_system_thread_name (pid_t pid,
                            pid_t tid,
                            char *out,
                            size_t size);

/* The command line of pid, its arguments joined by spaces, into out
 * (cut at size); false when it has none (a kernel thread, a zombie) or
 * it is gone. */
bool sp_system_command_line (pid_t pid,
                             char *out,
                             size_t size);
