/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recorder-cgroup.c: following a launch by per-CPU events of a cgroup
 * made for it, where that is allowed (root) and worth it (--off-cpu: the
 * per-task events' cost at every context switch; docs/OFF-CPU.md). */
#include "sp-recorder-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sp-system-target.h"

/* Undoes a half-made attempt: no event of the cgroup stays open. */
static bool
refuse (SpRecorder *r,
        const char *why)
{
  SpPerfConfig config = r->events.config;

  snprintf (r->cgroup_refused, sizeof r->cgroup_refused, "%s", why);
  r->side.cgroup_refused = r->cgroup_refused;
  if (r->events.cgroup_fd >= 0)
    {
      sp_perf_events_close (&r->events);
      config.enable_on_exec = true;
      sp_perf_events_init (&r->events, &config);
    }
  sp_cgroup_remove (&r->cgroup);
  sp_cgroup_init (&r->cgroup);
  return false;
}

bool
_sp_recorder_setup_cgroup (SpRecorder *r)
{
  char message[1024];
  size_t max = (size_t) r->events.n_cpus;
  int *cpus;
  size_t n_cpus;
  bool opened;

  sp_cgroup_init (&r->cgroup);
  if (!r->options->off_cpu || r->options->per_task_events || geteuid () != 0)
    return false;
  if (!sp_cgroup_create (&r->cgroup, message, sizeof message)
      || !sp_cgroup_add_process (&r->cgroup, r->launch.pid, message, sizeof message))
    return refuse (r, message);
  cpus = calloc (max > 0 ? max : 1, sizeof (int));
  if (cpus == NULL)
    return refuse (r, "out of memory");
  n_cpus = sp_system_online_cpus (cpus, max);
  if (n_cpus == 0)
    for (size_t i = 0; i < max; i++)
      cpus[n_cpus++] = (int) i;  /* no /sys: offline ones are skipped as ENODEV */
  opened = sp_perf_events_add_cgroup (&r->events, r->cgroup.dir_fd, cpus, n_cpus, message, sizeof message);
  free (cpus);
  if (!opened)
    return refuse (r, message);
  /* The events count from now, not from the exec: what the child does
   * before it (becoming the invoker, the exec itself) is not the
   * program's. */
  sp_recording_await_exec (&r->rec, (int32_t) r->launch.pid);
  r->side.cgroup = r->cgroup.path;
  return true;
}
