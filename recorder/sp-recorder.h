/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recorder.h: one recording, from setting up the events to the side file.
 *
 * Launches a command (or attaches to processes), drains the perf rings
 * into the spool while the target runs, flushing often so a follower sees
 * progress, and returns the exit status stackpulse-record should exit
 * with: the target's own for a launch (128+N after signal N), 0 after an
 * attach, 127 when the command cannot be run, 125 when recording failed. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "sp-invoker.h"
#include "sp-perf-events.h"

#define SP_RECORDER_EXIT_FAILED    125
#define SP_RECORDER_EXIT_NOT_FOUND 127

typedef struct {
  const char   *output;          /* OUT.spool */
  unsigned      frequency_hz;
  bool          kernel_stacks;
  SpCallGraph   call_graph;
  uint32_t      stack_size;      /* bytes per sample in dwarf/auto mode */
  uint32_t      switch_stack_size; /* bytes per switch-out sample (--off-cpu);
                                  * 0: stack_size, a blocked stack unwound
                                  * like a running one */
  double        duration_s;      /* 0: until the target ends or stop */
  bool          control_stdin;   /* a line "stop" or EOF on stdin stops */
  int           progress_fd;     /* key=value lines each second, or -1 */
  char *const  *command;         /* launch, or NULL */
  const char   *directory;       /* where the command runs; NULL: here */
  const SpInvoker *invoker;      /* runs the command and owns the files; NULL: none */
  const pid_t  *pids;            /* attach */
  size_t        n_pids;
  bool          system_wide;     /* -a: every process on every online CPU, until
                                  * stopped or duration_s (docs/SYSTEM-WIDE.md) */
  bool          off_cpu;         /* switch records to OUT.spool.offcpu, with the
                                  * switch-out stacks where kernel sampling is
                                  * allowed (docs/OFF-CPU.md) */
  bool          per_task_events; /* --no-cgroup: a launch as root with --off-cpu is
                                  * followed by per-task events, as any other,
                                  * not by per-CPU events of a cgroup of its own */
  bool          check_auto;      /* a developer check, --call-graph auto only: every
                                  * stack taken through auto's fast paths is also
                                  * unwound with DWARF; differences are counted in
                                  * the side file and printed on stderr */
  size_t        queue_limit;     /* a developer's bound of the records waiting to
                                  * be unwound, in bytes; 0: a second of samples */
} SpRecorderOptions;

int sp_recorder_run (const SpRecorderOptions *options);
