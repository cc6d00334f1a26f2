/* SPDX-License-Identifier: GPL-3.0-or-later */
/* profile-builder.h: profiles written from text, for data/ tests.
 *
 * "main;parse;lex 10" means 10 samples whose stack is main -> parse -> lex
 * (root first), as Hotspot's tests write trees. Each function name becomes
 * a kernel symbol in the side file, so the real symbolizer names the
 * frames; an optional "@TID" before the stack puts the samples on that
 * thread, "+MS" after the count spaces them MS milliseconds apart. The
 * first sample is at 1000 ms. A name "PATH!function" is a user frame in
 * function (4 bytes into it; "PATH!function+N": N bytes; a stripped
 * file's function is found in its build-id debug file) of the ELF file
 * PATH instead (it must stay there while the profile is used: frames are
 * resolved when first asked for). "?ADDRESS" (0x... allowed) is a user
 * frame in no module, as JIT code is.
 *
 * Off-CPU switches go to the companion (OUT.spool.offcpu), times in ms:
 * "out TID MS blocked|runnable STACK" (STACK as above, or "-" for none),
 * "in TID MS", "end TID MS". */
#pragma once

#include "sp-profile.h"

/* Writes OUT.spool and OUT.spool.meta in a fresh temporary folder and
 * opens them; the folder goes when the test ends. */
SpProfile *profile_from_text (const char *const *lines);

/* Thread 1 spins (10 samples, 1000..1009 ms, no switch); thread 2 blocks
 * on a pipe for 30 ms, runs 10 ms, is preempted for 5, runs 5, blocks
 * without a stack for 10 ms and ends at 1060 ms. */
extern const char *const offcpu_example[];

/* The same step by step, for followed (growing) recordings. */
typedef struct _RecordingBuilder RecordingBuilder;

RecordingBuilder *recording_builder_new (void);
/* A line as above; switches are kept until the next flush. */
void recording_builder_add_line (RecordingBuilder *b,
                                 const char *line);
/* Flushes the spool, writes the side file, and a SYNC and the switches
 * added since to the companion (created at the first). */
void recording_builder_flush (RecordingBuilder *b);
const char *recording_builder_get_path (RecordingBuilder *b);
/* Flushes and closes the files (they stay until free). */
void recording_builder_finish (RecordingBuilder *b);
/* Removes the files. */
void recording_builder_free (RecordingBuilder *b);

/* Adds keys ("key=value\n" lines) to the [recording] group of the side
 * file of the recording at spool_path, as a recorder would have written
 * them (after recording_builder_finish: a flush writes it anew). */
void side_file_add_keys (const char *spool_path,
                         const char *keys);

/* The profile's tree as "a;b;c N" lines (self counts), sorted. */
char *collapsed_of (SpProfile *profile,
                    const void *filter);
