/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-reader.h: reads a SPULSE1 spool over mmap.
 *
 * Two ways to read:
 *  - whole file (sp_spool_reader_open): accepts exactly the files the
 *    reference reader accepts, derives the same data, and rejects the rest
 *    with the reference's message and the byte offset;
 *  - follow (sp_spool_reader_open_follow + _update + _finish): for a file
 *    that is still being written. Each update parses only the bytes appended
 *    since the last one; an incomplete last record is "not written yet".
 *    Finishing reports an incomplete tail as damage and keeps every record
 *    before it, which is also how a damaged file is opened for viewing.
 *
 * Tables only grow, so ids and counts stay valid across updates; pointers
 * returned by the accessors do not (an update may move the arrays). */
#pragma once

#include "sp-spool-error.h"
#include "sp-spool-format.h"

typedef struct _SpSpoolReader SpSpoolReader;

SpSpoolReader *sp_spool_reader_open (const char *path,
                                     SpSpoolError *err);

/* Opens path for following; nothing is parsed before the first update.
 * Fails only when the file cannot be opened. */
SpSpoolReader *sp_spool_reader_open_follow (const char *path,
                                            SpSpoolError *err);

/* Parses the records appended since the last call. Returns false, with the
 * damage in err, once the file breaks a rule; everything before stays. */
bool sp_spool_reader_update (SpSpoolReader *reader,
                             SpSpoolError *err);

/* As update, but no further than the first max_bytes of the file (a
 * record cut there is left for the next update): a first look at a
 * recording, such as the modules and frames of its start. */
bool sp_spool_reader_update_prefix (SpSpoolReader *reader,
                                    uint64_t max_bytes,
                                    SpSpoolError *err);

/* Ends following: parses the rest and reports an incomplete tail (or any
 * earlier damage) in err, returning false. The file is closed. */
bool sp_spool_reader_finish (SpSpoolReader *reader,
                             SpSpoolError *err);

/* True after sp_spool_reader_finish: the reader never changes again, so
 * other threads may read its tables while it lives, and pointers into
 * them stay valid. */
bool sp_spool_reader_is_finished (const SpSpoolReader *reader);

void sp_spool_reader_free (SpSpoolReader *reader);

/* The damage found so far, or NULL. */
const SpSpoolError *sp_spool_reader_get_damage (const SpSpoolReader *reader);

/* Bytes parsed so far (always at a record boundary, or 0 before the header). */
uint64_t sp_spool_reader_get_parsed_size (const SpSpoolReader *reader);

/* False while a followed file is still shorter than its header. */
bool sp_spool_reader_has_header (const SpSpoolReader *reader);

uint64_t sp_spool_reader_get_start_timestamp_us (const SpSpoolReader *reader);
uint64_t sp_spool_reader_get_sample_interval_us (const SpSpoolReader *reader);

size_t sp_spool_reader_get_n_modules (const SpSpoolReader *reader);
size_t sp_spool_reader_get_n_frames (const SpSpoolReader *reader);
size_t sp_spool_reader_get_n_stack_nodes (const SpSpoolReader *reader);
size_t sp_spool_reader_get_n_threads (const SpSpoolReader *reader);
size_t sp_spool_reader_get_n_samples (const SpSpoolReader *reader);
size_t sp_spool_reader_get_n_process_execs (const SpSpoolReader *reader);

/* The arrays themselves, indexed by id. */
const SpModule *sp_spool_reader_get_modules (const SpSpoolReader *reader);
const SpFrame *sp_spool_reader_get_frames (const SpSpoolReader *reader);
const SpStackNode *sp_spool_reader_get_stack_nodes (const SpSpoolReader *reader);
const SpThread *sp_spool_reader_get_threads (const SpSpoolReader *reader);
const SpProcessExec *sp_spool_reader_get_process_execs (const SpSpoolReader *reader);

/* Samples are stored by column and compactly (times as 32-bit offsets
 * within blocks, thread indexes in 8 or 16 bits while they fit): stack ids as
 * an array, the rest through accessors, one sample or a run at a time. */
const uint32_t *sp_spool_reader_get_sample_stacks (const SpSpoolReader *reader);
uint64_t sp_spool_reader_get_sample_timestamp (const SpSpoolReader *reader,
                                              size_t index);
uint32_t sp_spool_reader_get_sample_thread (const SpSpoolReader *reader,
                                            size_t index);
void sp_spool_reader_get_sample (const SpSpoolReader *reader,
                                 size_t index,
                                 SpSample *sample);

/* The times (or thread indexes) of samples [first, first + n) into out;
 * loops over every sample take them SP_SPOOL_SAMPLE_BATCH at a time into
 * arrays on the stack. */
#define SP_SPOOL_SAMPLE_BATCH 1024

void sp_spool_reader_copy_sample_timestamps (const SpSpoolReader *reader,
                                             size_t first,
                                             size_t n,
                                             uint64_t *out);
void sp_spool_reader_copy_sample_threads (const SpSpoolReader *reader,
                                          size_t first,
                                          size_t n,
                                          uint32_t *out);

/* The earliest and latest sample time (kept while parsing); false
 * without samples. */
bool sp_spool_reader_get_sample_time_span (const SpSpoolReader *reader,
                                           uint64_t *first_ns,
                                           uint64_t *last_ns);

/* A sample's time on the profile's wall clock, in microseconds:
 * start_us + (ts - first sample's ts) / 1000, saturating at both ends. */
uint64_t sp_spool_reader_get_sample_time_us (const SpSpoolReader *reader,
                                             size_t index);

/* The module of frame frame_id as seen by a sample of pid: the module the
 * frame names, or for a frame without one the newest module that was
 * defined and still active when the frame was defined and contains it.
 * Returns false when there is none (always for the truncated marker). */
bool sp_spool_reader_resolve_frame_module (const SpSpoolReader *reader,
                                           int32_t pid,
                                           uint32_t frame_id,
                                           uint32_t *module_id,
                                           uint64_t *rel_ip);

/* Leaf-first iteration over a stack, without copying. */
typedef struct {
  const SpStackNode *nodes;
  uint32_t           next;
} SpStackIter;

static inline void
sp_stack_iter_init (SpStackIter *iter,
                    const SpSpoolReader *reader,
                    uint32_t stack_id)
{
  iter->nodes = sp_spool_reader_get_stack_nodes (reader);
  iter->next = stack_id;
}

/* Gives the next frame id, leaf first; false after the root. */
static inline bool
sp_stack_iter_next (SpStackIter *iter,
                    uint32_t *frame_id)
{
  if (iter->next == SP_SPOOL_NO_ID)
    return false;
  *frame_id = iter->nodes[iter->next].frame_id;
  iter->next = iter->nodes[iter->next].prefix;
  return true;
}
