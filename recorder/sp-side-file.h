/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-side-file.h: OUT.spool.meta, what the spool has no room for.
 *
 * A GKeyFile-compatible text file (docs/SIDE-FILE.md): the command line,
 * host, kernel, settings, times, lost counts, process and thread names, and
 * kernel symbols for the sampled kernel addresses. Written atomically
 * (temporary file, then rename), during the recording and at its end. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sp-kallsyms.h"
#include "sp-output.h"
#include "sp-recording.h"

/* stackpulse-record --input: what was converted (the side file's [input],
 * docs/PERF-DATA.md). */
typedef struct {
  const char *format;          /* "perf.data" */
  const char *path;            /* absolute ("-": standard input) */
  const char *mode;            /* "file" or "pipe" */
  const char *event;           /* the event converted */
  const char *events;          /* every event in the file, comma-separated */
  const char *perf_version;    /* NULL when the file does not say */
  const char *perf_cmdline;
  uint32_t    nr_cpus_online;  /* 0: unknown */
  uint64_t    input_bytes;     /* read */
  uint64_t    file_size;       /* the file's size (0: a pipe) */
  uint64_t    records;         /* converted */
  uint64_t    other_event_samples; /* samples of the events not converted */
  uint64_t    malformed_samples;
  int64_t     damaged_at;      /* byte offset of the damage, -1: none */
  const char *damage;          /* what it is */
  const char *kernel_symbols;  /* how kernel frames are named */
  uint64_t    modules_changed; /* files whose build-id differs from the recorded one */
  bool        unfinished;      /* perf did not finish the file (no data size): read to its end */
} SpSideInput;

typedef struct {
  char *const *command;       /* launch: argv; NULL for attach */
  const int   *attached_pids; /* attach: the pids */
  size_t       n_attached_pids;
  const char  *call_graph;    /* "fp", "dwarf" or "auto" */
  uint32_t     stack_size;    /* bytes copied per sample, 0 in fp mode */
  unsigned     frequency_hz;
  bool         kernel_stacks; /* as recorded (false if refused) */
  uint64_t     start_wall_us;
  uint64_t     spool_start_us; /* the spool header's timestamp: whose side file this is */
  uint64_t     start_monotonic_ns;
  uint64_t     end_wall_us;   /* 0 while recording */
  uint64_t     end_monotonic_ns;
  bool         complete;      /* the recording is over */
  int          exit_status;   /* the target's, -1 when none */
  uint64_t     spool_bytes;   /* the spool in the file when this is written */
  uint64_t     spool_samples; /* the samples in those bytes */
  const char  *error;         /* why writing the spool failed, or NULL */
  bool         off_cpu;       /* --off-cpu (docs/OFF-CPU.md) */
  const char  *off_cpu_stacks;        /* "kernel+user", "user" or "none" */
  const char  *off_cpu_stacks_reason; /* why not kernel+user, or NULL */
  const char  *off_cpu_switch_source; /* "sched_switch" or "switch_records"; NULL: not said (per-task events) */
  const char  *off_cpu_switch_source_reason; /* why not sched_switch in a cgroup, or NULL */
  const char  *off_cpu_preempted_stacks; /* "user": a preempted thread's switch-out stack has no kernel
                                          * frames (sched_switch, split by state); NULL: as off_cpu_stacks */
  uint64_t     off_cpu_bytes;         /* the companion in the file */
  uint64_t     off_cpu_switches;      /* switch-outs in those bytes */
  uint64_t     off_cpu_lost;          /* records lost in the rings of the switch records */
  uint64_t     off_cpu_dropped;       /* switch stacks left out */
  uint64_t     off_cpu_stack_size;    /* user stack copied per switch-out (0: fp) */
  uint64_t     off_cpu_fp_tails;      /* switch stacks that went on past the
                                       * copy along frame pointers */
  uint64_t     off_cpu_truncated;     /* switch stacks that ended at the copy */
  /* A conversion (--input): the recording machine's, instead of this one's. */
  const char  *hostname;
  const char  *kernel_release;
  const char  *machine;
  const SpSideInput *input;
  bool         system_wide;   /* -a: every process on every CPU (docs/SYSTEM-WIDE.md) */
  const char  *cgroup;        /* a launch followed by per-CPU events of this
                               * cgroup (sp-cgroup.h), or NULL */
  const char  *cgroup_refused; /* why a launch as root is followed by per-task
                               * events after all, or NULL */
  const int   *cgroup_left;   /* followed processes found outside the cgroup */
  size_t       n_cgroup_left;
  const int   *cpus;          /* -a: the CPUs sampled */
  size_t       n_cpus;
  const uint64_t *idle_per_cpu; /* -a: the idle task's samples on each of cpus */
  size_t       scan_processes; /* -a: processes /proc listed at the start */
  uint64_t     scan_ns;        /* -a: how long reading them took */
  /* The rings and the drain's backlog (sp-ring-drain.h); 0 in a conversion. */
  uint64_t     ring_bytes;     /* each sampling ring (per CPU) */
  uint64_t     queue_limit_bytes; /* records waiting to be unwound, at most */
  uint64_t     queue_peak_bytes;  /* the most that waited */
  uint64_t     queue_dropped;     /* samples left out at that limit (in dropped_samples) */
  uint64_t     ring_samples;      /* samples read from the sampling rings (idle ones not) */
} SpSideInfo;

/* Where the side file goes, and room kept for it: an unnamed file
 * (O_TMPFILE) in the output's folder holding 16 KiB (at most half the free
 * room) from before the spool takes any, then twice the last side file's
 * size, given back when the disk is full at the end, so that the last side file
 * (complete=true, with the counts of what the spool kept) can still be
 * written after the spool filled the disk. */
typedef struct {
  const SpOutput *output;
  int             spare_fd;     /* -1: none (or the folder cannot have one) */
  uint64_t        spare_bytes;
  bool            failed;       /* the last writing failed (said once) */
  bool            orphaned;     /* the spool's name is not ours any more: no more side files */
  bool            disk_full;    /* the last writing failed for want of room */
  bool            recording_only; /* only [recording] (the last resort on a full disk) */
} SpSideFile;

void sp_side_file_init (SpSideFile *side_file,
                        const SpOutput *output);

/* Written in the output's folder, never through a link (sp-output.h).
 * kallsyms may be NULL (kernel names unknown). */
bool sp_side_file_write (SpSideFile *side_file,
                         const SpSideInfo *info,
                         const SpRecording *rec,
                         const SpKallsyms *kallsyms,
                         char *message,
                         size_t message_size);

/* Gives back the room kept. */
void sp_side_file_clear (SpSideFile *side_file);
