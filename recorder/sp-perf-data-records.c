/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-records.c: the data records of a perf.data file, one at a
 * time, from a buffer refilled by read() (a file or a pipe alike).
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

#define BUFFER_SIZE    (1u << 20)
#define MAX_RECORD     65536

static bool
ensure_buffer (SpPerfData *data)
{
  if (data->buffer != NULL)
    return true;
  data->buffer = malloc (BUFFER_SIZE);
  data->aligned = malloc (MAX_RECORD);
  data->buffer_size = BUFFER_SIZE;
  return data->buffer != NULL && data->aligned != NULL;
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

/* Bytes of the data section not read into the buffer yet. */
static uint64_t
unread_data (const SpPerfData *data)
{
  uint64_t read_to = data->position + (data->end - data->start);

  return data->data_end > read_to ? data->data_end - read_to : 0;
}

/* Until need bytes are buffered, the data ends or the input does. */
static SpPerfDataStatus
fill (SpPerfData *data,
      size_t need)
{
  while (data->end - data->start < need && !data->at_eof && unread_data (data) > 0)
    {
      size_t room;
      ssize_t n;

      if (data->start > 0)
        {
          /* Kept 8-aligned: records are whole multiples of 8 as perf writes them. */
          memmove (data->buffer, data->buffer + data->start, data->end - data->start);
          data->end -= data->start;
          data->start = 0;
        }
      room = data->buffer_size - data->end;
      if (room > unread_data (data))
        room = (size_t) unread_data (data);
      if (!sp_perf_data_wait_input (data))
        return data->stop_flag != NULL && *data->stop_flag ? SP_PERF_DATA_STOPPED : SP_PERF_DATA_READ_ERROR;
      n = read (data->fd, data->buffer + data->end, room);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return SP_PERF_DATA_READ_ERROR;
      if (n == 0)
        data->at_eof = true;
      data->end += (size_t) n;
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
      size_t chunk = size < BUFFER_SIZE / 2 ? (size_t) size : BUFFER_SIZE / 2;
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

  if (!ensure_buffer (data))
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
