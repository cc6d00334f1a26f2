/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-reader-private.h: the reader's state, shared by the file side
 * (sp-spool-reader.c: opening, mapping, following, the accessors) and the
 * record decoding (sp-spool-records.c). For codec/ only. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sp-intern-table.h"
#include "sp-spool-reader.h"

#define SP_SPOOL_NOT_DEACTIVATED UINT64_MAX

/* Sample times are kept as 32-bit offsets from a base per block of 256
 * samples: 4 bytes a sample instead of 8. Samples come nearly in time
 * order, so a block's samples lie within 2.1 s of its first at any rate
 * above 120 Hz; a block with one that does not (a sleepy program, a
 * hand-made file) keeps its times whole instead. */
#define SP_TIME_BLOCK_BITS 8
#define SP_TIME_BLOCK_SIZE ((size_t) 1 << SP_TIME_BLOCK_BITS)

typedef struct {
  uint64_t  base_ns;    /* the block's first sample's time */
  uint64_t *wide_ns;    /* NULL, or every time of the block whole */
} TimeBlock;

/* Modules of one pid that a MODULE_DEACTIVATE record would still mark. */
typedef struct {
  uint32_t *ids;
  size_t    n;
  size_t    capacity;
} PendingModules;

struct _SpSpoolReader
{
  /* The file */
  int            fd;
  bool           finished;       /* by sp_spool_reader_finish: nothing changes after */
  const uint8_t *map;
  size_t         map_len;
  size_t         released;       /* bytes of the map given back behind the parser */
  uint64_t       parsed;         /* offset of the first unparsed byte */
  bool           has_header;
  SpSpoolError   damage;         /* code != NONE once damaged */
  SpSpoolError   tail;           /* why the bytes after `parsed` don't parse yet */

  uint64_t       start_timestamp_us;
  uint64_t       sample_interval_us;

  /* Tables, indexed by id */
  SpModule      *modules;
  uint64_t      *module_deactivated_at;  /* frame count at deactivation */
  size_t         n_modules;
  size_t         modules_capacity;
  SpInternTable  pending_of_pid;
  PendingModules *pending;
  size_t         pending_capacity;

  SpFrame       *frames;
  size_t        *frame_module_limit;     /* modules defined before the frame */
  size_t         n_frames;
  size_t         frames_capacity;

  SpStackNode   *stack_nodes;
  size_t         n_stack_nodes;
  size_t         stack_nodes_capacity;

  SpThread      *threads;
  size_t         n_threads;
  size_t         threads_capacity;

  SpProcessExec *execs;
  size_t         n_execs;
  size_t         execs_capacity;

  /* Samples, by column */
  int32_t       *sample_ts_offset;       /* from its block's base_ns */
  TimeBlock     *time_blocks;
  size_t         n_time_blocks;
  size_t         time_blocks_capacity;
  uint32_t      *sample_stack;
  void          *sample_thread;          /* uint8_t, uint16_t or uint32_t */
  size_t         thread_width;           /* bytes a thread index takes: 1, 2, 4 */
  size_t         n_samples;
  size_t         samples_capacity;
  uint64_t       last_timestamp_ns;
  uint64_t       min_timestamp_ns;
  uint64_t       max_timestamp_ns;
};

/* Parses whole records from r->parsed to len (the header first, once).
 * On a fault, r->parsed stays at the start of the record that failed and
 * *fault says why: TRUNCATED if the data ended inside it, INVALID if it
 * breaks a rule. */
bool _sp_spool_reader_parse_records (SpSpoolReader *r,
                                     const uint8_t *base,
                                     size_t len,
                                     SpSpoolError *fault);
