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
#include "sp-recording.h"

typedef struct {
  char *const *command;       /* launch: argv; NULL for attach */
  const int   *attached_pids; /* attach: the pids */
  size_t       n_attached_pids;
  const char  *call_graph;    /* "fp", "dwarf" or "auto" */
  uint32_t     stack_size;    /* bytes copied per sample, 0 in fp mode */
  unsigned     frequency_hz;
  bool         kernel_stacks; /* as recorded (false if refused) */
  uint64_t     start_wall_us;
  uint64_t     start_monotonic_ns;
  uint64_t     end_wall_us;   /* 0 while recording */
  uint64_t     end_monotonic_ns;
  bool         complete;      /* the recording is over */
  int          exit_status;   /* the target's, -1 when none */
} SpSideInfo;

/* kallsyms may be NULL (kernel names unknown). */
bool sp_side_file_write (const char *spool_path,
                         const SpSideInfo *info,
                         const SpRecording *rec,
                         const SpKallsyms *kallsyms,
                         char *message,
                         size_t message_size);
