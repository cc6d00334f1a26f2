/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recorder-system.c: recording the whole system (-a): one sampling
 * event per online CPU, and what /proc says of the processes that ran
 * before the recording (docs/SYSTEM-WIDE.md). */
#include "sp-recorder-private.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp-system-target.h"

int
_sp_recorder_setup_system (SpRecorder *r)
{
  char message[1024];
  size_t max = (size_t) r->events.n_cpus;

  r->cpus = calloc (max > 0 ? max : 1, sizeof (int));
  r->idle_per_cpu = calloc (max > 0 ? max : 1, sizeof (uint64_t));
  if (r->cpus == NULL || r->idle_per_cpu == NULL)
    return SP_RECORDER_EXIT_FAILED;
  r->n_cpus = sp_system_online_cpus (r->cpus, max);
  if (r->n_cpus == 0)
    {
      /* No /sys: every CPU this process may know of (offline ones say ENODEV). */
      for (size_t i = 0; i < max; i++)
        r->cpus[i] = (int) i;
      r->n_cpus = max;
    }
  for (size_t i = 0; i < r->n_cpus; i++)
    if (!sp_perf_events_add_cpu (&r->events, r->cpus[i], message, sizeof message))
      {
        fprintf (stderr, "stackpulse-record: %s\n", message);
        return SP_RECORDER_EXIT_FAILED;
      }
  sp_recording_follow_system (&r->rec, (int32_t) getpid ());
  r->side.system_wide = true;
  r->side.cpus = r->cpus;
  r->side.n_cpus = r->n_cpus;
  r->side.idle_per_cpu = r->idle_per_cpu;
  return 0;
}

static void
add_task (pid_t pid,
          pid_t tid,
          const char *name,
          void *user_data)
{
  sp_recording_add_task (user_data, pid, tid, name);
}

static void
add_mapping (const SpModule *module,
             void *user_data)
{
  sp_recording_add_mapping (user_data, module);
}

/* One process: its threads and their names, what it is, and (a user
 * process) its executable mappings. One that ended meanwhile lists no
 * threads and is left out; the rings have its exit. */
static void
add_process (pid_t pid,
             void *user_data)
{
  SpRecorder *r = user_data;
  char command_line[4096];
  bool kernel_thread;

  if (sp_proc_foreach_task (pid, add_task, &r->rec) == 0)
    return;
  kernel_thread = sp_system_is_kernel_thread (pid);
  sp_recording_describe_process (&r->rec, (int32_t) pid,
                                 sp_system_command_line (pid, command_line, sizeof command_line) ? command_line
                                                                                                   : NULL,
                                 kernel_thread);
  if (!kernel_thread)
    {
      char maps[64];

      /* Another user's process, to a recorder that is not root: the
       * kernel samples it, but its code cannot be known. */
      int fd;

      snprintf (maps, sizeof maps, "/proc/%d/maps", (int) pid);
      /* The kernel's check is at open (ptrace access), not in the mode. */
      fd = open (maps, O_RDONLY | O_CLOEXEC);
      if (fd >= 0)
        close (fd);
      else if ((errno == EACCES || errno == EPERM) && geteuid () != 0)
        r->unreadable_processes++;  /* (root is refused only by a process on its way out) */
      sp_proc_foreach_mapping (pid, add_mapping, &r->rec);
    }
  /* Reading /proc and the files' build-ids from a cold disk can take
   * seconds: the drain's thread keeps the rings from overflowing
   * meanwhile, and what it took goes into the time queue now and then. */
  _sp_recorder_take (r);
}

/* After the events are enabled, before the rings are read: what starts,
 * maps or renames itself meanwhile is in the rings too (a mapping seen
 * twice is one module). */
void
_sp_recorder_scan_system (SpRecorder *r)
{
  uint64_t started = _sp_recorder_monotonic_ns ();
  size_t n = sp_system_foreach_process (add_process, r);

  r->side.scan_processes = n;
  r->side.scan_ns = _sp_recorder_monotonic_ns () - started;
  if (r->unreadable_processes > 0)
    fprintf (stderr, "stackpulse-record: warning: %zu processes are other users', whose memory maps this user may "
             "not read: their samples are recorded, but their code will be unnamed; record as root (or with "
             "CAP_SYS_PTRACE) to name it\n", r->unreadable_processes);
}
