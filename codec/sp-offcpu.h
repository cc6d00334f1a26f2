/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu.h: the off-CPU companion stream ("SPOFF1"), written and read.
 *
 * OUT.spool.offcpu sits next to OUT.spool (docs/OFF-CPU.md): the switch
 * records of every followed thread, whose thread and stack ids are the
 * main spool's. The main spool stays SPULSE1.
 *
 *   file   := "SPOFF1\0\0" record*
 *   record := byte(tag) payload
 *     1 SYNC        uvar spool_bytes
 *     2 SWITCH_OUT  svar timestamp_delta_ns, uvar thread, byte state, uvar stack
 *     3 SWITCH_IN   svar timestamp_delta_ns, uvar thread
 *     4 THREAD_END  svar timestamp_delta_ns, uvar thread
 *
 * Timestamps are one delta chain (the first record's predecessor is 0);
 * deltas may be negative. `stack` is SP_SPOOL_NO_ID for "no stack". Every
 * thread and stack id after a SYNC is defined within the main spool's
 * first spool_bytes bytes. Like the spool, the file is only appended to,
 * and a follower treats an incomplete last record as not written yet. */
#pragma once

#include "sp-spool-error.h"
#include "sp-spool-format.h"

#define SP_OFFCPU_MAGIC "SPOFF1\0\0"
#define SP_OFFCPU_MAGIC_LEN 8

typedef enum {
  SP_OFFCPU_SYNC = 1,
  SP_OFFCPU_SWITCH_OUT = 2,
  SP_OFFCPU_SWITCH_IN = 3,
  SP_OFFCPU_THREAD_END = 4,
} SpOffCpuTag;

typedef enum {
  SP_OFFCPU_BLOCKED = 1,     /* switched out without PERF_RECORD_MISC_SWITCH_OUT_PREEMPT */
  SP_OFFCPU_RUNNABLE = 2,    /* preempted */
} SpOffCpuState;

/* One record as read: the timestamp is absolute (the chain summed). */
typedef struct {
  uint8_t  tag;              /* SpOffCpuTag */
  uint8_t  state;            /* SWITCH_OUT: SpOffCpuState; else 0 */
  uint32_t thread;           /* a main-spool THREAD id (not SYNC) */
  uint32_t stack;            /* SWITCH_OUT: a main-spool STACK id, or SP_SPOOL_NO_ID */
  uint64_t timestamp_ns;     /* not SYNC */
  uint64_t spool_bytes;      /* SYNC */
} SpOffCpuRecord;

/* ---- Writing ------------------------------------------------------------- */

typedef struct _SpOffCpuWriter SpOffCpuWriter;

/* Writes the magic to fd (from its current position); closes fd at the
 * end when owns_fd. */
SpOffCpuWriter *sp_offcpu_writer_new_for_fd (int fd,
                                             bool owns_fd,
                                             SpSpoolError *err);
bool sp_offcpu_writer_write_sync (SpOffCpuWriter *writer,
                                  uint64_t spool_bytes,
                                  SpSpoolError *err);
bool sp_offcpu_writer_write_switch_out (SpOffCpuWriter *writer,
                                        uint64_t timestamp_ns,
                                        uint32_t thread,
                                        SpOffCpuState state,
                                        uint32_t stack,
                                        SpSpoolError *err);
bool sp_offcpu_writer_write_switch_in (SpOffCpuWriter *writer,
                                       uint64_t timestamp_ns,
                                       uint32_t thread,
                                       SpSpoolError *err);
bool sp_offcpu_writer_write_thread_end (SpOffCpuWriter *writer,
                                        uint64_t timestamp_ns,
                                        uint32_t thread,
                                        SpSpoolError *err);
/* Hands what is buffered to the kernel; on failure the file is cut back
 * to the last record boundary, as the spool writer does. */
bool sp_offcpu_writer_flush (SpOffCpuWriter *writer,
                             SpSpoolError *err);
/* Bytes handed to the kernel. */
uint64_t sp_offcpu_writer_get_flushed_size (const SpOffCpuWriter *writer);
/* Flushes, closes (when owned) and frees; NULL is allowed. */
bool sp_offcpu_writer_close (SpOffCpuWriter *writer,
                             SpSpoolError *err);

/* ---- Reading ------------------------------------------------------------- */

typedef struct _SpOffCpuReader SpOffCpuReader;

/* Opens path for following (a regular file only: sp-safe-open.h); nothing
 * is parsed before the first update. */
SpOffCpuReader *sp_offcpu_reader_open_follow (const char *path,
                                              SpSpoolError *err);
/* Parses the records appended since the last call; false with the damage
 * in err once the file breaks a rule (everything before stays). */
bool sp_offcpu_reader_update (SpOffCpuReader *reader,
                              SpSpoolError *err);
/* Ends following: an incomplete tail becomes damage. */
bool sp_offcpu_reader_finish (SpOffCpuReader *reader,
                              SpSpoolError *err);
void sp_offcpu_reader_free (SpOffCpuReader *reader);

/* Whether the SPOFF1 magic was read: before it, nothing is known to be a
 * companion at all. */
bool sp_offcpu_reader_has_header (const SpOffCpuReader *reader);
/* The damage (record_offset: the record where it starts; its message says
 * what, not where), or NULL. */
const SpSpoolError *sp_offcpu_reader_get_damage (const SpOffCpuReader *reader);
/* Records read so far, in file order (SYNC records included). */
size_t sp_offcpu_reader_get_n_records (const SpOffCpuReader *reader);
const SpOffCpuRecord *sp_offcpu_reader_get_records (const SpOffCpuReader *reader);
/* The last SYNC's spool_bytes (0 before any): the main spool must be read
 * this far before the records after it are resolved. */
uint64_t sp_offcpu_reader_get_synced_spool_bytes (const SpOffCpuReader *reader);
