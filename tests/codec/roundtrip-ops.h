/* SPDX-License-Identifier: GPL-3.0-or-later */
/* roundtrip-ops.h: random operation sequences for test-roundtrip.c.
 *
 * What the recorder does to the codec, drawn from a seeded GRand so that a
 * failing seed is a repro: modules interned (user and kernel, adjacent,
 * disjoint, overlapping, duplicated, empty), exec, fork, process-exec
 * records and samples whose stacks share prefixes, run hundreds of frames
 * deep, end in the truncated marker and have timestamps that repeat, go
 * backwards and sometimes leave the range the writer accepts. */
#pragma once

#include <glib.h>

#include "sp-spool-format.h"

typedef enum {
  OP_MODULE,          /* sp_module_table_intern */
  OP_DEACTIVATE,      /* sp_module_table_deactivate_process (exec) */
  OP_CLONE,           /* sp_module_table_clone_process (fork) */
  OP_EXEC,            /* sp_spool_writer_write_process_exec */
  OP_SAMPLE,          /* frames resolved, then sp_spool_writer_write_sample */
} OpKind;

/* One frame as the recorder sees it: an address in a mode
 * (SP_FRAME_TRUNCATED: the marker, address unused). */
typedef struct {
  guint64     addr;
  SpFrameMode mode;
} OpFrame;

typedef struct {
  OpKind   kind;
  gint32   pid;           /* also the parent of OP_CLONE */
  gint32   child_pid;
  SpModule module;        /* path: static, or the long path given */
  guint64  timestamp_ns;
  guint64  tid;
  gboolean is_python;
  GArray  *frames;        /* OpFrame, leaf first (OP_SAMPLE) */
} Op;

/* The pids samples and modules use, negative ones and the i32 ends too. */
#define ROUNDTRIP_N_PIDS 8
extern const gint32 roundtrip_pids[ROUNDTRIP_N_PIDS];

/* n_ops operations (an array of Op that frees its frames) for seed.
 * long_path (borrowed) is a module path longer than the writer's buffer. */
GArray *roundtrip_generate_ops (guint seed,
                                guint n_ops,
                                const char *long_path);

/* One line, for failure reports. */
char *roundtrip_op_describe (const Op *op);
