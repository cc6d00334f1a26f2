/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-synth.h: a synthetic recording for bench-codec, and its writer run.
 *
 * bench_recording_new decides everything random up front (the processes
 * and their modules, a tree-shaped pool of stacks resolved into SpFrame
 * arrays, the sample schedule), so that bench_recording_write times the
 * real SpSpoolWriter and SpModuleTable, not the generator. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sp-spool-error.h"

typedef struct _BenchRecording BenchRecording;

/* What the recording looks like, for the report. */
typedef struct {
  size_t   n_processes;
  size_t   n_threads;
  size_t   n_modules;          /* module records, clones of forks included */
  size_t   n_stacks;           /* distinct stacks in the pool */
  size_t   n_pool_frames;      /* frames over all pool stacks */
  unsigned min_depth;
  unsigned max_depth;
  double   mean_depth;         /* over the pool */
  double   mean_sample_depth;  /* over the samples */
  double   kernel_share;       /* pool stacks with kernel frames at the leaf */
  double   truncated_share;
  double   jit_share;          /* leaf frame in no module */
  double   negative_deltas;    /* share of samples earlier than the previous */
  double   top1_share;         /* samples on the most popular stack */
  double   top10_share;
  size_t   stacks_for_half;    /* most popular stacks covering half the samples */
  size_t   schedule_bytes;     /* the precomputed sample arrays */
  size_t   pool_bytes;         /* the precomputed SpFrame arrays */
} BenchShape;

typedef struct {
  double   wall;               /* seconds, create to close */
  double   cpu;
  uint64_t bytes;              /* file size */
  uint64_t checksum;           /* of (timestamp, stack id, tid) per sample */
} BenchWriteResult;

BenchRecording *bench_recording_new (size_t n_samples,
                                     size_t n_stacks,
                                     uint64_t seed);

/* A real file to stand for one module of the synthetic system, so that a
 * symbolizer reading the spool finds files, symbols and debug info. */
typedef struct {
  char     *path;          /* malloc'd; the recording owns it */
  uint64_t  size;          /* its executable mapping: length, */
  uint64_t  file_offset;   /* file offset (page-aligned) */
  uint64_t  inode;
} BenchModuleFile;

/* Fills file for the module at path ("/usr/bin/gtk4-demo", ...) and
 * returns true, or returns false to keep the made-up module. */
typedef bool (*BenchModuleMapFunc) (const char *path,
                                    BenchModuleFile *file,
                                    void *user_data);

/* bench_recording_new, with the user modules passed through map first
 * (same seed, same stacks and schedule; only the function layout follows
 * the real modules' sizes). */
BenchRecording *bench_recording_new_mapped (size_t n_samples,
                                            size_t n_stacks,
                                            uint64_t seed,
                                            BenchModuleMapFunc map,
                                            void *user_data);

void bench_recording_free (BenchRecording *rec);

const BenchShape *bench_recording_get_shape (const BenchRecording *rec);

/* Writes the whole recording to path with a fresh writer and module
 * table, as the recorder would. */
bool bench_recording_write (const BenchRecording *rec,
                            const char *path,
                            BenchWriteResult *result,
                            SpSpoolError *err);
