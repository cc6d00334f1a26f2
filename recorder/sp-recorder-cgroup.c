/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recorder-cgroup.c: following a launch by per-CPU events of a cgroup
 * made for it, where that is allowed (root) and worth it (--off-cpu: the
 * per-task events' cost at every context switch; docs/OFF-CPU.md). */
#include "sp-recorder-private.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sp-system-target.h"

#define CHECK_INTERVAL_NS (1000 * 1000000ull)

/* Undoes a half-made attempt: no event of the cgroup stays open. */
static bool
refuse (SpRecorder *r,
        const char *why)
{
  SpPerfConfig config = r->events.config;

  snprintf (r->cgroup_refused, sizeof r->cgroup_refused, "%s", why);
  r->side.cgroup_refused = r->cgroup_refused;
  fprintf (stderr, "stackpulse-record: note: no cgroup of its own for the program (%s): following it with "
           "per-task events, which cost it more at each context switch\n", why);
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

/* The switch rings hold sched_switch samples (sp-perf-events.h), or, where
 * the tracepoint could not be had, the switch records do as before: the
 * side file and stderr say which, and why. False: out of memory. */
static bool
use_switch_tracepoint (SpRecorder *r)
{
  SpPerfEvents *events = &r->events;

  if (!r->options->off_cpu)
    return true;
  if (events->switch_tracepoint)
    {
      r->rec.switch_layout = sp_perf_events_switch_layout (events, &r->rec.layout);
      r->side.off_cpu_switch_source = "sched_switch";
      if (events->switch_tracepoint_split && events->config.kernel_stacks)
        r->side.off_cpu_preempted_stacks = "user";
      return sp_offcpu_recording_use_sched_switch (&r->off_cpu, &events->sched_switch, (size_t) events->n_cpus);
    }
  r->side.off_cpu_switch_source = "switch_records";
  if (!events->switch_refused && events->switch_tracepoint_refused[0] != '\0')
    {
      r->side.off_cpu_switch_source_reason = events->switch_tracepoint_refused;
      /* Said where it is not the user's choice of stacks. */
      if (events->config.call_graph == SP_CALL_GRAPH_FP)
        fprintf (stderr, "stackpulse-record: note: switch records instead of sched_switch samples (%s): the program "
                 "runs a little slower at each context switch\n", events->switch_tracepoint_refused);
    }
  return true;
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
  if (!use_switch_tracepoint (r))
    return refuse (r, "out of memory");
  /* The events count from now, not from the exec: what the child does
   * before it (becoming the invoker, the exec itself) is not the
   * program's. */
  sp_recording_await_exec (&r->rec, (int32_t) r->launch.pid);
  r->side.cgroup = r->cgroup.path;
  r->side.cgroup_left = r->cgroup_left;
  return true;
}

static bool
said_to_have_left (const SpRecorder *r,
                   int32_t pid)
{
  for (size_t i = 0; i < r->n_cgroup_left; i++)
    if (r->cgroup_left[i] == pid)
      return true;
  return false;
}

void
_sp_recorder_check_cgroup (SpRecorder *r,
                           uint64_t now)
{
  if (r->cgroup.dir_fd < 0 || now - r->cgroup_checked_ns < CHECK_INTERVAL_NS
      || r->n_cgroup_left == sizeof r->cgroup_left / sizeof r->cgroup_left[0])
    return;
  r->cgroup_checked_ns = now;
  for (size_t i = 0; i < r->rec.thread_index.count; i++)
    {
      const SpThreadInfo *thread = &r->rec.threads[i];
      char where[PATH_MAX];

      /* Processes move whole: their leaders tell. */
      if (thread->tid != thread->pid || thread->exit_ns != 0 || said_to_have_left (r, thread->pid)
          || sp_cgroup_holds (&r->cgroup, (pid_t) thread->pid, where, sizeof where))
        continue;
      fprintf (stderr, "stackpulse-record: warning: process %d (%s) left the recording's cgroup for %s: it is no "
               "longer recorded; record with --no-cgroup to follow it\n", (int) thread->pid, thread->name, where);
      if (r->n_cgroup_left < sizeof r->cgroup_left / sizeof r->cgroup_left[0])
        r->cgroup_left[r->n_cgroup_left++] = thread->pid;
      r->side.n_cgroup_left = r->n_cgroup_left;
    }
}
