/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recording.h: perf records in, spool records out.
 *
 * Applies the time-ordered perf records of a recording to the spool:
 * samples with their callchains, mappings as modules, fork (clone the
 * parent's modules), exec (deactivate, then the new mappings, then a
 * PROCESS_EXEC), and keeps what the side file needs: thread and process
 * names, lost counts, and the kernel addresses that were sampled. */
#pragma once

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

#include "sp-intern-table.h"
#include "sp-module-files.h"
#include "sp-module-table.h"
#include "sp-perf-sample.h"
#include "sp-spool-writer.h"
#include "sp-unwinder.h"

#define SP_TASK_NAME_LEN 16

typedef struct {
  int32_t  pid;
  int32_t  tid;
  char     name[SP_TASK_NAME_LEN];
  uint64_t start_ns;          /* 0 when it ran before the recording */
  uint64_t exit_ns;           /* 0 while running */
  uint64_t n_samples;
  /* --off-cpu (sp-offcpu-recording.c): totals from the switch records, and
   * the interval open now. */
  uint64_t blocked_ns;
  uint64_t runnable_ns;
  uint64_t switches;          /* switch-outs */
  uint64_t out_ns;            /* the last switch-out, 0 while running */
  uint8_t  out_state;         /* its SpOffCpuState */
  bool     offcpu_synced;     /* its spool THREAD id is within the last SYNC */
  uint32_t spool_id;          /* its spool THREAD id (SP_SPOOL_NO_ID: none yet) */
  uint32_t pending_stack;     /* from the switch sample before its switch-out */
  uint64_t pending_ns;        /* that sample's time, 0: none */
  /* sched_switch samples (sp-offcpu-recording.c): a switch-in written at
   * an on-CPU sample, before the exact one is known; the switch-out it
   * ended. */
  uint64_t provisional_in_ns;
  uint64_t provisional_out_ns;
  bool     name_known;        /* -a: named by a COMM record or /proc, not only
                               * after its parent at fork */
} SpThreadInfo;

typedef struct {
  int32_t  pid;
  int32_t  parent_pid;        /* 0 when unknown */
  char    *executable;        /* first file mapping after the last exec */
  uint64_t exec_ns;           /* last exec, 0 if none seen */
  bool     exec_pending;      /* its PROCESS_EXEC is not written yet */
  bool     python;
  uint64_t n_samples;
  char    *command_line;      /* -a: its arguments joined by spaces, or NULL */
  bool     kernel_thread;     /* -a: a kernel thread (no user memory) */
  bool     described;         /* -a: its command line was read since its
                               * last exec (or its fork) */
} SpProcessInfo;

/* -a: a command line read just after an exec (sp_recording_note_exec_line). */
typedef struct SpExecLine {
  int32_t pid;
  char   *line;
} SpExecLine;

typedef struct {
  SpSpoolWriter *writer;      /* borrowed */
  SpModuleTable *modules;     /* owned */
  SpModuleFiles  module_files; /* what each mapped file was (side file) */
  SpSpoolError   error;       /* the first write error */
  bool           failed;
  unsigned       max_stack;   /* the kernel's callchain limit */

  SpInternTable  thread_index;    /* tid -> threads[] */
  SpThreadInfo  *threads;
  size_t         threads_capacity;
  SpInternTable  process_index;   /* pid -> processes[] */
  SpProcessInfo *processes;
  size_t         processes_capacity;
  SpInternTable  kernel_addresses;

  SpSampleLayout layout;          /* what every sample carries */
  SpSampleLayout switch_layout;   /* what a switch ring's sample carries */
  uint64_t       switch_stack_size; /* the copy a switch-out sample asks for */
  SpUnwinder    *unwinder;        /* borrowed; NULL: kernel callchains only */
  uint64_t       drop_before_ns;  /* stack samples older than this are dropped */

  uint64_t       n_samples;
  uint64_t       n_truncated;
  uint64_t       n_dropped;       /* not unwound: the recorder fell behind */
  uint64_t       n_lost;          /* samples the kernel could not store */
  uint64_t       n_throttled;
  /* Switch-out stacks whose copy ran out: went on along the kernel's
   * frame-pointer chain, or ended there (truncated). */
  uint64_t       n_switch_fp_tails;
  uint64_t       n_switch_truncated;
  uint64_t       first_ns;
  uint64_t       last_ns;

  /* -a (sp_recording_follow_system): the idle task's samples (pid 0) are
   * counted, not written; the recorder's own are written and counted. */
  bool           system_wide;
  bool           count_idle;      /* -a, or a perf.data: pid 0 is idle time */
  bool           live;            /* sp_recording_read_proc: /proc has the processes */
  int32_t        recorder_pid;
  int32_t        awaited_exec_pid; /* its samples are left out until its exec; 0: none */
  uint64_t       n_idle;
  uint64_t       n_recorder_samples;
  /* Command lines read when an exec's record left its ring, for the exec
   * to take when it is applied and the process is gone by then. */
  SpExecLine    *exec_lines;
  size_t         n_exec_lines;
  size_t         exec_lines_capacity;

  SpFrame       *frames;          /* scratch for one sample */
  size_t         frames_capacity;
  uint64_t      *user_frames;     /* scratch for the unwinder */
} SpRecording;

bool sp_recording_init (SpRecording *rec,
                        SpSpoolWriter *writer,
                        unsigned max_stack);

void sp_recording_clear (SpRecording *rec);

/* Samples carry user registers and stack copies, which unwinder turns
 * into user frames; the callchain then holds the kernel's part only.
 * Switch-out samples (--off-cpu) ask for switch_stack_size bytes, and
 * their callchain holds the user frames from frame pointers too. */
bool sp_recording_set_unwinder (SpRecording *rec,
                                SpUnwinder *unwinder,
                                const SpSampleLayout *layout,
                                uint64_t switch_stack_size);

/* One module [kernel.kallsyms] (pid -1) for every kernel frame. */
bool sp_recording_add_kernel_module (SpRecording *rec);

/* A mapping of module->pid, from an MMAP record or /proc/PID/maps
 * (attach); module->path is NUL-terminated. */
bool sp_recording_add_mapping (SpRecording *rec,
                               const SpModule *module);

/* -a: every CPU's tasks; processes get their command lines from /proc at
 * exec, and the idle task's samples are counted as idle time. */
/* A launch whose events count before its exec (per-CPU events of its
 * cgroup): pid's samples are not the program's until pid execs (its
 * COMM record with the exec flag), and are left out, as per-task events
 * enabled at the exec would never have taken them. */
void sp_recording_await_exec (SpRecording *rec,
                              int32_t pid);

void sp_recording_follow_system (SpRecording *rec,
                                 int32_t recorder_pid);

/* A live recording (not a perf.data's): the processes' command lines are
 * read from /proc, at each exec (sp_recording_note_exec_line) and for a
 * process attached to (sp_recording_describe_process); a fork's child
 * has its parent's. */
void sp_recording_read_proc (SpRecording *rec);

/* The command line of pid just after an exec, read when the exec's
 * record left its ring (the exec may be applied much later). */
void sp_recording_note_exec_line (SpRecording *rec,
                                  int32_t pid,
                                  const char *command_line);

/* -a: what /proc said of a process that existed before the recording. */
void sp_recording_describe_process (SpRecording *rec,
                                    int32_t pid,
                                    const char *command_line,
                                    bool kernel_thread);

/* A task that existed before the recording (attach). */
void sp_recording_add_task (SpRecording *rec,
                            int32_t pid,
                            int32_t tid,
                            const char *name);

/* The thread (pid, tid), created on first use; NULL without memory. */
SpThreadInfo *sp_recording_thread (SpRecording *rec,
                                   int32_t pid,
                                   int32_t tid);

/* The frames of a sample into rec->frames (leaf first), unwound as for
 * the spool's samples, in *n_frames; *dropped when the recorder is behind
 * and leaves it out. False when the record is not a whole sample.
 * switch_out: a switch-out's sample (its copy is short; past it, its
 * stack goes on along the kernel's frame-pointer chain). */
bool sp_recording_sample_frames (SpRecording *rec,
                                 const struct perf_event_header *header,
                                 uint64_t time,
                                 bool switch_out,
                                 SpPerfSample *sample,
                                 size_t *n_frames,
                                 bool *dropped);

/* Applies one perf record (in time order). */
void sp_recording_handle (SpRecording *rec,
                          const struct perf_event_header *header,
                          uint64_t time);

/* Writes what is still pending (exec records) at the end. */
void sp_recording_finish (SpRecording *rec);

/* The time of a perf record (as the time-ordering queue needs it). */
uint64_t sp_recording_record_time (const struct perf_event_header *header);

/* Whether the executable name or a mapped library says "Python". */
bool sp_recording_looks_like_python (const char *path);
