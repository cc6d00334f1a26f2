/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-format.h: the SPULSE1 records as plain C values.
 *
 * Shared by the writer and the reader; docs/SPOOL-FORMAT.md (and the seed
 * reader it describes) is the authority for every field. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SP_SPOOL_MAGIC      "SPULSE1\0"
#define SP_SPOOL_MAGIC_LEN  8

/* Record tags. */
enum {
  SP_SPOOL_REC_MODULE            = 1,
  SP_SPOOL_REC_FRAME             = 2,
  SP_SPOOL_REC_STACK             = 3,
  SP_SPOOL_REC_THREAD            = 4,
  SP_SPOOL_REC_SAMPLE            = 5,
  SP_SPOOL_REC_PROCESS_EXEC      = 6,
  SP_SPOOL_REC_MODULE_DEACTIVATE = 7,
};

/* "No id": a root stack node's prefix, a frame without a module. */
#define SP_SPOOL_NO_ID UINT32_C (0xFFFFFFFF)

/* The frame kind value of the truncated-stack marker. */
#define SP_SPOOL_FRAME_KIND_TRUNCATED 5

typedef enum {
  SP_FRAME_USER,
  SP_FRAME_KERNEL,
  SP_FRAME_TRUNCATED,   /* unwinding stopped before the root */
} SpFrameMode;

/* A code area: [start, end) in the address space of pid, backed by path at
 * file_offset. path is UTF-8 of path_len bytes and may hold NUL bytes. */
typedef struct {
  uint64_t    start;
  uint64_t    end;
  uint64_t    file_offset;
  uint64_t    inode;
  const char *path;
  size_t      path_len;
  int32_t     pid;
  bool        is_kernel;
} SpModule;

/* A raw frame. With a module, rel_ip is in that module's file-offset
 * coordinates; without one, rel_ip == abs_ip. */
typedef struct {
  uint64_t    rel_ip;
  uint64_t    abs_ip;
  uint32_t    module_id;  /* SP_SPOOL_NO_ID when the frame names no module */
  SpFrameMode mode;
} SpFrame;

/* One node of the stack prefix tree; a stack id names its leaf node. */
typedef struct {
  uint32_t prefix;    /* SP_SPOOL_NO_ID for a root node */
  uint32_t frame_id;
  uint32_t depth;     /* 1 for a root node */
} SpStackNode;

typedef struct {
  int32_t  pid;
  uint64_t tid;
} SpThread;

typedef struct {
  uint64_t timestamp_ns;
  uint32_t thread;    /* index into the thread table */
  uint32_t stack;     /* stack id (leaf node) */
} SpSample;

typedef struct {
  uint64_t timestamp_ns;
  int32_t  pid;
  bool     is_python_runtime;
} SpProcessExec;

static inline SpFrame
sp_frame_truncated_marker (void)
{
  SpFrame frame = { 0, 0, SP_SPOOL_NO_ID, SP_FRAME_TRUNCATED };
  return frame;
}
