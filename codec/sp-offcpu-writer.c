/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-writer.c: writes the off-CPU companion stream (libc only).
 *
 * Like the spool writer: records go into a buffer that reaches the file
 * only at a record boundary, so a failed write (a full disk) is undone by
 * cutting the file back, and what stays is a valid stream. */
#include "sp-offcpu.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp-fd-write-private.h"
#include "sp-varint.h"

#define BUFFER_SIZE (16 * 1024)
/* The largest record: a tag, a byte and three varints. */
#define RECORD_ROOM (2 + 3 * SP_VARINT_MAX_LEN)

struct _SpOffCpuWriter
{
  int      fd;
  bool     owns_fd;
  bool     failed;
  int64_t  start_offset;       /* where in fd the stream begins; -1: not seekable */
  uint64_t flushed_bytes;
  uint64_t last_timestamp_ns;  /* the delta chain */
  size_t   used;
  uint8_t  buffer[BUFFER_SIZE];
};

bool
sp_offcpu_writer_flush (SpOffCpuWriter *writer,
                        SpSpoolError *err)
{
  uint64_t boundary = writer->flushed_bytes;
  size_t used = writer->used;

  if (writer->failed)
    {
      sp_spool_error_set (err, SP_SPOOL_ERROR_IO, 0, 0, "an earlier write to the off-CPU stream failed");
      return false;
    }
  writer->used = 0;
  if (_sp_fd_write_all (writer->fd, writer->buffer, used, &writer->flushed_bytes))
    return true;
  writer->failed = true;
  sp_spool_error_set_errno (err, errno, "cannot write the off-CPU stream", NULL);
  _sp_fd_cut_back (writer->fd, writer->start_offset, boundary, &writer->flushed_bytes);
  return false;
}

static bool
reserve (SpOffCpuWriter *writer,
         SpSpoolError *err)
{
  return writer->used + RECORD_ROOM <= BUFFER_SIZE || sp_offcpu_writer_flush (writer, err);
}

static void
put_u64 (SpOffCpuWriter *writer,
         uint64_t v)
{
  writer->used += sp_varint_put_u64 (writer->buffer + writer->used, v);
}

/* The tag and the timestamp's delta from the previous record's. */
static void
put_timed (SpOffCpuWriter *writer,
           SpOffCpuTag tag,
           uint64_t timestamp_ns)
{
  int64_t delta = (int64_t) (timestamp_ns - writer->last_timestamp_ns);

  writer->buffer[writer->used++] = (uint8_t) tag;
  writer->used += sp_varint_put_i64 (writer->buffer + writer->used, delta);
  writer->last_timestamp_ns = timestamp_ns;
}

SpOffCpuWriter *
sp_offcpu_writer_new_for_fd (int fd,
                             bool owns_fd,
                             SpSpoolError *err)
{
  SpOffCpuWriter *writer = calloc (1, sizeof *writer);

  if (writer == NULL)
    {
      sp_spool_error_set (err, SP_SPOOL_ERROR_NO_MEMORY, 0, 0, "out of memory");
      if (owns_fd)
        close (fd);
      return NULL;
    }
  writer->fd = fd;
  writer->owns_fd = owns_fd;
  writer->start_offset = lseek (fd, 0, SEEK_CUR);
  memcpy (writer->buffer, SP_OFFCPU_MAGIC, SP_OFFCPU_MAGIC_LEN);
  writer->used = SP_OFFCPU_MAGIC_LEN;
  return writer;
}

bool
sp_offcpu_writer_write_sync (SpOffCpuWriter *writer,
                             uint64_t spool_bytes,
                             SpSpoolError *err)
{
  if (!reserve (writer, err))
    return false;
  writer->buffer[writer->used++] = SP_OFFCPU_SYNC;
  put_u64 (writer, spool_bytes);
  return true;
}

bool
sp_offcpu_writer_write_switch_out (SpOffCpuWriter *writer,
                                   uint64_t timestamp_ns,
                                   uint32_t thread,
                                   SpOffCpuState state,
                                   uint32_t stack,
                                   SpSpoolError *err)
{
  if (!reserve (writer, err))
    return false;
  put_timed (writer, SP_OFFCPU_SWITCH_OUT, timestamp_ns);
  put_u64 (writer, thread);
  writer->buffer[writer->used++] = (uint8_t) state;
  put_u64 (writer, stack);
  return true;
}

bool
sp_offcpu_writer_write_switch_in (SpOffCpuWriter *writer,
                                  uint64_t timestamp_ns,
                                  uint32_t thread,
                                  SpSpoolError *err)
{
  if (!reserve (writer, err))
    return false;
  put_timed (writer, SP_OFFCPU_SWITCH_IN, timestamp_ns);
  put_u64 (writer, thread);
  return true;
}

bool
sp_offcpu_writer_write_thread_end (SpOffCpuWriter *writer,
                                   uint64_t timestamp_ns,
                                   uint32_t thread,
                                   SpSpoolError *err)
{
  if (!reserve (writer, err))
    return false;
  put_timed (writer, SP_OFFCPU_THREAD_END, timestamp_ns);
  put_u64 (writer, thread);
  return true;
}

uint64_t
sp_offcpu_writer_get_flushed_size (const SpOffCpuWriter *writer)
{
  return writer->flushed_bytes;
}

bool
sp_offcpu_writer_close (SpOffCpuWriter *writer,
                        SpSpoolError *err)
{
  bool ok;

  if (writer == NULL)
    return true;
  ok = sp_offcpu_writer_flush (writer, err);
  if (writer->owns_fd && close (writer->fd) != 0 && ok)
    {
      sp_spool_error_set_errno (err, errno, "cannot close the off-CPU stream", NULL);
      ok = false;
    }
  free (writer);
  return ok;
}
