/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-read-ahead.h: a thread that read()s a perf.data's data
 * section ahead of the conversion.
 *
 * Copying the file out of the page cache is a quarter of a conversion's
 * time (2.2 GB of mostly stack copies for 260k DWARF samples), and the
 * thread that unwinds would otherwise wait for each read() in turn. Here
 * a thread of its own fills a few chunks in the file's order, and the
 * reader of the records (sp-perf-data-records.c) takes them one after the
 * other, reading the records where they lie: only a record that spans two
 * chunks is copied, into the room left before the next chunk's bytes. The
 * chunks are bounded (8 of 256 KiB): the thread waits for one to be given
 * back, so it is never more than 2 MiB ahead.
 *
 * Stop signals reach it as they reached the reading before: it waits for
 * input with ppoll and the caller's wait mask, and a stop flag set by the
 * handler ends it with SP_PERF_DATA_STOPPED. Without a thread (one could
 * not be made) the same chunks are read on the caller's thread. */
#pragma once

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sp-perf-data-file.h"

/* Room before a chunk's bytes: the unread end of the chunk before it (less
 * than one record, or than the slice a skip asks for) goes there. */
#define SP_READ_AHEAD_ROOM 65536u

typedef struct SpReadAhead SpReadAhead;

typedef struct {
  uint8_t         *data;    /* at least SP_READ_AHEAD_ROOM bytes of room
                             * before it; at the address modulo 8 that its
                             * input offset has, so that records perf kept
                             * 8-aligned lie aligned */
  size_t           size;    /* bytes of data; 0 on the last chunk */
  SpPerfDataStatus status;  /* RECORD: data; END, READ_ERROR (errno in error),
                             * STOPPED: the last chunk, without data */
  int              error;
} SpReadAheadChunk;

/* Reads data's descriptor from data->position to data->data_end (a pipe:
 * to its end); data's fd, data_end, stop_flag and wait_mask are
 * read by the thread and must not change until sp_read_ahead_free. NULL
 * without memory (errno). */
SpReadAhead *sp_read_ahead_new (const SpPerfData *data);

/* Ends the thread (it may be waiting for input: it is woken) and frees the
 * chunks. */
void sp_read_ahead_free (SpReadAhead *ahead);

/* The next chunk, in the input's order, waited for. Each one taken is
 * held until sp_read_ahead_release gives it back (the oldest first); one
 * taken after the last gives the last one's status again. */
const SpReadAheadChunk *sp_read_ahead_take (SpReadAhead *ahead);

/* Gives back the oldest chunk taken, for the thread to fill again. */
void sp_read_ahead_release (SpReadAhead *ahead);
