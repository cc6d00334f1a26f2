/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-cgroup.h: a cgroup of its own for a launched program, so that its
 * events can be per-CPU events limited to that cgroup (perf record -G).
 *
 * Why: a per-task event is switched out and in with its thread at every
 * context switch (the cpu-clock timer stopped and re-armed, the task's
 * event context swapped); a per-CPU event of a cgroup only when its CPU
 * changes cgroup (to idle or another cgroup's task), not when it goes
 * from one of the program's threads to another. A program that switches
 * hundreds of thousands of times a second ran measurably slower under the
 * per-task events than under perf's sched_switch tracepoint, and at nearly
 * its own speed under per-CPU events of its cgroup (docs/OFF-CPU.md
 * "Benchmark"). The cgroup holds the program and everything it starts, as
 * inherited events did.
 *
 * Root only (moving a process between cgroups, and sampling a CPU); made
 * in the hierarchy that has the perf_event controller (a cgroup v1 mount
 * of it, else the cgroup2 mount), inside the recorder's own cgroup (so
 * that the limits and CPU share the recorder's processes live under stay
 * the program's: nothing is enabled in the new one), named
 * stackpulse-record.PID, and removed at the end after what is still
 * running in it (or in cgroups the program made in it) is moved back to
 * the recorder's own cgroup. */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct {
  int  dir_fd;              /* the cgroup's directory: perf_event_open's pid */
  int  home_fd;             /* the recorder's own cgroup, where it is made */
  char name[64];            /* the cgroup's directory, in the recorder's */
  char path[PATH_MAX];      /* as the hierarchy names it ("/user.slice/…/stackpulse-record.12") */
  char home[PATH_MAX];      /* the recorder's own cgroup there, relative ("user.slice/…" or "") */
  bool v1;                  /* a cgroup v1 hierarchy (perf_event mounted on its own) */
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

/* Whether process pid is in the cgroup (or one the program made in it);
 * where it is, when not, in where ("" when pid is gone). */
bool sp_cgroup_holds (const SpCgroup *cgroup,
                      pid_t pid,
                      char *where,
                      size_t where_size);

/* Moves what still runs in the cgroup back to the recorder's own and
 * removes it; says on stderr what could not be done. Safe to call on a
 * cgroup never made (after sp_cgroup_init) or removed. */
void sp_cgroup_remove (SpCgroup *cgroup);

void sp_cgroup_init (SpCgroup *cgroup);
