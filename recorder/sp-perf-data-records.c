/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-records.c: the data records of a perf.data file, one at a
 * time, from the chunks a thread reads ahead (sp-perf-data-read-ahead.h;
 * a file or a pipe alike).
 *
 * A record is handed out only when all of its bytes are there and inside
 * the data section; the first one that is not (a size below the header's,
 * a type no perf writes, a file that ends inside a record or before its
 * data section does) ends the reading as damage at its offset, so every
 * record before it can still be converted. */
#include "sp-perf-data-file.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp-perf-data-read-ahead.h"

#define MAX_RECORD     65536

static bool
ensure_reading (SpPerfData *data)
{
  if (data->read_ahead != NULL)
    return true;
  if (data->aligned == NULL)
    data->aligned = malloc (MAX_RECORD);
  if (data->aligned != NULL)
    data->read_ahead = sp_read_ahead_new (data);
  return data->read_ahead != NULL;
}

bool
sp_perf_data_wait_input (const SpPerfData *data)
{
  for (;;)
    {
      if (data->stop_flag != NULL && *data->stop_flag)
        return false;
      if (data->wait_mask == NULL || ppoll (&(struct pollfd) { data->fd, POLLIN, 0 }, 1, NULL, data->wait_mask) >= 0)
        return true;
      if (errno != EINTR)
        return false;
    }
}

/* Until need bytes (at most SP_READ_AHEAD_ROOM) lie one after the other,
 * or the data ends. The bytes left in a chunk go into the room before the
 * next one's, and the chunk is given back. */
static SpPerfDataStatus
fill (SpPerfData *data,
      size_t need)
{
  while (data->end - data->start < need && !data->at_eof)
    {
      const SpReadAheadChunk *chunk = sp_read_ahead_take (data->read_ahead);
      size_t left = data->end - data->start;

      if (chunk->status == SP_PERF_DATA_END)
        {
          data->at_eof = true;
          break;
        }
      if (chunk->status != SP_PERF_DATA_RECORD)
        {
          errno = chunk->error;
          return chunk->status;
        }
      if (left > 0)
        memcpy (chunk->data - left, data->buffer + data->start, left);
      if (data->holding)
        sp_read_ahead_release (data->read_ahead);
      data->holding = true;
      data->buffer = chunk->data - SP_READ_AHEAD_ROOM;
      data->start = SP_READ_AHEAD_ROOM - left;
      data->end = SP_READ_AHEAD_ROOM + chunk->size;
    }
  return data->end - data->start >= need ? SP_PERF_DATA_RECORD : SP_PERF_DATA_END;
}

/* Drops size bytes of the stream: payloads that follow some pipe records. */
static SpPerfDataStatus
skip (SpPerfData *data,
      uint64_t size)
{
  while (size > 0)
    {
      size_t chunk = size < SP_READ_AHEAD_ROOM ? (size_t) size : SP_READ_AHEAD_ROOM;
      SpPerfDataStatus status = fill (data, chunk);

      if (status != SP_PERF_DATA_RECORD)
        return status == SP_PERF_DATA_END ? SP_PERF_DATA_DAMAGED : status;
      data->start += chunk;
      data->position += chunk;
      size -= chunk;
    }
  return SP_PERF_DATA_RECORD;
}

/* The payload that follows a record in the stream, not in the record. */
static uint64_t
payload_after (const SpPerfData *data,
               const struct perf_event_header *header)
{
  uint64_t size = 0;

  if (header->type == SP_PERF_RECORD_AUXTRACE && header->size >= sizeof *header + 8)
    memcpy (&size, header + 1, 8);
  else if (header->type == SP_PERF_RECORD_HEADER_TRACING_DATA && data->pipe && header->size >= sizeof *header + 4)
    {
      uint32_t size32;

      memcpy (&size32, header + 1, 4);
      size = (size32 + 7u) & ~UINT64_C (7);
    }
  return size;
}

static SpPerfDataStatus
damaged (const SpPerfData *data,
         uint64_t *offset,
         const char **what,
         const char *why)
{
  *offset = data->position;
  *what = why;
  return SP_PERF_DATA_DAMAGED;
}

SpPerfDataStatus
sp_perf_data_next (SpPerfData *data,
                   const struct perf_event_header **out,
                   uint64_t *offset,
                   const char **what)
{
  struct perf_event_header header;
  SpPerfDataStatus status;
  uint64_t payload;
  uint8_t *record;

  if (!ensure_reading (data))
    {
      errno = ENOMEM;
      return SP_PERF_DATA_READ_ERROR;
    }
  for (;;)
    {
      *offset = data->position;
      status = fill (data, sizeof header);
      if (status == SP_PERF_DATA_END && data->end == data->start
          && (data->pipe || data->data_size_unknown || data->position == data->data_end))
        return SP_PERF_DATA_END;
      if (status == SP_PERF_DATA_END)
        return damaged (data, offset, what, data->end == data->start ? "the file ends before its data section does"
                                                                      : "the file ends inside a record");
      if (status != SP_PERF_DATA_RECORD)
        return status;
      memcpy (&header, data->buffer + data->start, sizeof header);
      if (header.size < sizeof header)
        return damaged (data, offset, what, "a record shorter than its header");
      if (header.type == 0 || header.type >= SP_PERF_RECORD_TYPE_MAX)
        return damaged (data, offset, what, "a record of a type perf does not write");
      if (data->position + header.size > data->data_end)
        return damaged (data, offset, what, data->data_size_unknown || data->data_end == data->file_size
                                            ? "the file ends inside a record"
                                            : "a record runs past the end of the data section");
      status = fill (data, header.size);
      if (status == SP_PERF_DATA_END)
        return damaged (data, offset, what, "the file ends inside a record");
      if (status != SP_PERF_DATA_RECORD)
        return status;
      /* In place where perf kept it 8-aligned (it does), else a copy. */
      record = data->buffer + data->start;
      if (((uintptr_t) record & 7) != 0)
        record = memcpy (data->aligned, record, header.size);
      data->start += header.size;
      data->position += header.size;
      payload = payload_after (data, (const struct perf_event_header *) record);
      if (payload > 0 && (status = skip (data, payload)) != SP_PERF_DATA_RECORD)
        return status == SP_PERF_DATA_DAMAGED ? damaged (data, offset, what, "the file ends inside a record's data")
                                              : status;
      /* Payloads carried along the stream are not records to convert. */
      if (header.type == SP_PERF_RECORD_AUXTRACE || header.type == SP_PERF_RECORD_HEADER_TRACING_DATA)
        continue;
      *out = (const struct perf_event_header *) (const void *) record;
      return SP_PERF_DATA_RECORD;
    }
}
