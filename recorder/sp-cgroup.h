/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-cgroup.h: a cgroup of its own for a launched program, so that its
 * events can be per-CPU events limited to that cgroup (perf record -G).
 *
 * Why: a per-task event is switched out and in with its thread at every
 * context switch (the cpu-clock timer stopped and re-armed, the task's
 * event context swapped); a per-CPU event is not. A program that switches
 * hundreds of thousands of times a second ran measurably slower under the
 * per-task events than under perf's sched_switch tracepoint, and at nearly
 * its own speed under per-CPU events of its cgroup (docs/OFF-CPU.md
 * "Benchmark"). The cgroup holds the program and everything it starts, as
 * inherited events did.
 *
 * Root only (moving a process between cgroups, and sampling a CPU); made
 * in the hierarchy that has the perf_event controller (a cgroup v1 mount
 * of it, else the cgroup2 mount), at its top, named
 * stackpulse-record.PID, and removed at the end after what is still
 * running in it is moved back to the recorder's own cgroup. */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct {
  int  dir_fd;              /* the cgroup's directory: perf_event_open's pid */
  int  mount_fd;            /* the hierarchy's top */
  char name[64];            /* the cgroup's directory, in the top */
  char path[PATH_MAX];      /* as the hierarchy names it ("/stackpulse-record.12") */
  char home[PATH_MAX];      /* the recorder's own cgroup there, relative ("user.slice/…" or "") */
} SpCgroup;

/* Makes the cgroup; false with why in message (not root, no cgroup
 * hierarchy with perf_event, cannot make a directory there). */
bool sp_cgroup_create (SpCgroup *cgroup,
                       char *message,
                       size_t message_size);

/* Moves process pid (all its threads) into the cgroup. */
bool sp_cgroup_add_process (SpCgroup *cgroup,
                            pid_t pid,
                            char *message,
                            size_t message_size);

/* Moves what still runs in the cgroup back to the recorder's own and
 * removes it; says on stderr what could not be done. Safe to call on a
 * cgroup never made (after sp_cgroup_init) or removed. */
void sp_cgroup_remove (SpCgroup *cgroup);

void sp_cgroup_init (SpCgroup *cgroup);
