/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-writer.h: writes a SPULSE1 spool, interning as it goes.
 *
 * The same sequence of calls writes the same bytes as the reference
 * writer (seed PerfSpoolWriter): threads, frames and stacks are interned and
 * defined right before the first record that needs them; a frame is
 * interned anew after any module or deactivation record, because a frame
 * without a module is read in the module context of its definition. */
#pragma once

#include "sp-spool-error.h"
#include "sp-spool-format.h"

typedef struct _SpSpoolWriter SpSpoolWriter;

/* Creates (truncates) path and writes the header. */
SpSpoolWriter *sp_spool_writer_create (const char *path,
                                       uint64_t start_timestamp_us,
                                       uint64_t sample_interval_us,
                                       SpSpoolError *err);

/* Writes to fd from its current position; closes it at the end when
 * owns_fd. */
SpSpoolWriter *sp_spool_writer_new_for_fd (int fd,
                                           bool owns_fd,
                                           uint64_t start_timestamp_us,
                                           uint64_t sample_interval_us,
                                           SpSpoolError *err);

/* A MODULE record with the given id, as is (SpModuleTable numbers them). */
bool sp_spool_writer_write_module (SpSpoolWriter *writer,
                                   uint32_t id,
                                   const SpModule *module,
                                   SpSpoolError *err);

/* A MODULE_DEACTIVATE record for pid. */
bool sp_spool_writer_write_module_deactivation (SpSpoolWriter *writer,
                                                int32_t pid,
                                                SpSpoolError *err);

/* A SAMPLE record with the stack frames[0..n_frames) given leaf first (the
 * order of a kernel callchain). With no frames nothing is written and
 * *stack_id is SP_SPOOL_NO_ID. A timestamp more than 2^63 ns away from the
 * previous sample's is refused (SP_SPOOL_ERROR_USAGE). stack_id may be
 * NULL. */
bool sp_spool_writer_write_sample (SpSpoolWriter *writer,
                                   uint64_t timestamp_ns,
                                   int32_t pid,
                                   uint64_t tid,
                                   const SpFrame *frames,
                                   size_t n_frames,
                                   uint32_t *stack_id,
                                   SpSpoolError *err);

/* Interns the stack frames[0..n_frames) (leaf first) of thread (pid, tid)
 * as write_sample would, writing the THREAD, FRAME and STACK definitions
 * it needs, but no SAMPLE: for stacks another stream names (the off-CPU
 * companion, sp-offcpu.h). *thread_id gets the thread's id; *stack_id the
 * stack's, or SP_SPOOL_NO_ID with no frames. Either may be NULL. The bytes
 * written for later samples are the same as without this call's
 * definitions having come first. */
bool sp_spool_writer_intern_stack (SpSpoolWriter *writer,
                                   int32_t pid,
                                   uint64_t tid,
                                   const SpFrame *frames,
                                   size_t n_frames,
                                   uint32_t *thread_id,
                                   uint32_t *stack_id,
                                   SpSpoolError *err);

bool sp_spool_writer_write_process_exec (SpSpoolWriter *writer,
                                         uint64_t timestamp_ns,
                                         int32_t pid,
                                         bool is_python_runtime,
                                         SpSpoolError *err);

/* Hands everything buffered to the kernel (a follower sees it then). When
 * that fails, the file is cut back to where the buffer began, the last
 * record boundary, and nothing more is written. */
bool sp_spool_writer_flush (SpSpoolWriter *writer,
                            SpSpoolError *err);

/* Bytes written so far, buffered ones included. */
uint64_t sp_spool_writer_get_size (const SpSpoolWriter *writer);

/* Bytes, and SAMPLE records, in the file: handed to the kernel (a failed
 * flush's are not). */
uint64_t sp_spool_writer_get_flushed_size (const SpSpoolWriter *writer);
uint64_t sp_spool_writer_get_flushed_samples (const SpSpoolWriter *writer);

/* Flushes, closes (when owned) and frees. Returns false if the final flush
 * or close failed; the writer is freed either way. NULL is allowed. */
bool sp_spool_writer_close (SpSpoolWriter *writer,
                            SpSpoolError *err);
