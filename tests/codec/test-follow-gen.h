/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-follow-gen.h: writes random but realistic spools through the codec's
 * writer and module table, for the follow-mode tests.
 *
 * A recording of a few processes: kernel modules, executables and
 * libraries (adjacent, overlapping, with paths that need escaping), forks
 * that clone modules, execs that deactivate them, samples with kernel and
 * user frames, frames in and outside modules, truncated-stack markers,
 * shared prefixes, deep stacks and timestamps that go backwards. The same
 * seed writes the same bytes. */
#pragma once

#include <glib.h>

#include "sp-spool-writer.h"

typedef struct _Gen Gen;

/* Creates path with the header buffered (the file stays empty until the
 * first flush) and defines the kernel image and a first few processes. */
Gen *gen_new (const char *path,
              guint32 seed);

/* One random event: mostly a sample, sometimes an exec, a fork, a library
 * or a kernel module being loaded. */
void gen_step (Gen *gen);

/* A sample, whatever gen_step would have chosen. */
void gen_sample (Gen *gen);

/* A module whose path is longer than the writer's buffer: the writer hands
 * the record to the file in pieces. Not flushed. */
void gen_long_path_module (Gen *gen);

/* One sample on each of n new threads of a new process. */
void gen_thread_flood (Gen *gen,
                       guint n);

SpSpoolWriter *gen_get_writer (Gen *gen);

guint gen_get_n_samples (const Gen *gen);
guint gen_get_n_execs (const Gen *gen);
guint gen_get_n_modules (const Gen *gen);

/* Closes the writer (flushing it) and frees gen. */
void gen_close (Gen *gen);

/* Writes a spool of n_steps events to path. */
void gen_write_spool (const char *path,
                      guint32 seed,
                      guint n_steps);
