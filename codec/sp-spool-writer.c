/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-writer.c: the SPULSE1 writer (codec layer, libc only).
 *
 * Records are encoded into a buffer that goes to the file descriptor when
 * it fills up or on flush; the recorder flushes often so that a follower
 * sees samples while the target runs. The buffer only ever goes out at a
 * record boundary, so a write that fails (a full disk) can be undone by
 * cutting the file back to where the buffer began: what stays is a valid
 * spool. */
#include "sp-spool-writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp-fd-write-private.h"
#include "sp-intern-table.h"
#include "sp-varint.h"

#define BUFFER_SIZE (64 * 1024)
/* The largest fixed part of any record: a tag and four varints. */
#define RECORD_ROOM (1 + 6 * SP_VARINT_MAX_LEN)

struct _SpSpoolWriter
{
  int           fd;
  bool          owns_fd;
  bool          failed;          /* a write failed: nothing more goes out */
  int64_t       start_offset;    /* where in fd the spool begins; -1: not seekable */
  uint64_t      flushed_bytes;
  uint64_t      n_samples;       /* SAMPLE records encoded */
  uint64_t      flushed_samples; /* of those, in flushed_bytes */
  uint64_t      last_timestamp_ns;
  uint64_t      frame_context_epoch;
  SpInternTable threads;         /* (pid, tid) */
  SpInternTable frames;          /* (rel_ip, abs_ip, module_id | mode, epoch) */
  SpInternTable stacks;          /* (prefix << 32 | frame_id) */
  size_t        used;
  uint8_t       buffer[BUFFER_SIZE];
};

static bool
write_all (SpSpoolWriter *writer,
           const uint8_t *data,
           size_t len,
           SpSpoolError *err)
{
  if (_sp_fd_write_all (writer->fd, data, len, &writer->flushed_bytes))
    return true;
  writer->failed = true;
  sp_spool_error_set_errno (err, errno, "cannot write spool", NULL);
  return false;
}

/* After a failed write: the file ends at the last whole record again
 * (when it is a file that can be cut). */
static void
cut_back_to (SpSpoolWriter *writer,
             uint64_t boundary)
{
  _sp_fd_cut_back (writer->fd, writer->start_offset, boundary, &writer->flushed_bytes);
}

bool
sp_spool_writer_flush (SpSpoolWriter *writer,
                       SpSpoolError *err)
{
  size_t used = writer->used;
  uint64_t boundary = writer->flushed_bytes;

  if (writer->failed)
    {
      sp_spool_error_set (err, SP_SPOOL_ERROR_IO, 0, 0, "an earlier write to the spool failed");
      return false;
    }
  writer->used = 0;
  if (!write_all (writer, writer->buffer, used, err))
    {
      cut_back_to (writer, boundary);
      return false;
    }
  writer->flushed_samples = writer->n_samples;
  return true;
}

/* Makes sure room bytes fit in the buffer. */
static bool
reserve (SpSpoolWriter *writer,
         size_t room,
         SpSpoolError *err)
{
  if (writer->used + room <= BUFFER_SIZE)
    return true;
  return sp_spool_writer_flush (writer, err);
}

static inline void
put_byte (SpSpoolWriter *writer,
          uint8_t byte)
{
  writer->buffer[writer->used++] = byte;
}

static inline void
put_u64 (SpSpoolWriter *writer,
         uint64_t v)
{
  writer->used += sp_varint_put_u64 (writer->buffer + writer->used, v);
}

static inline void
put_i64 (SpSpoolWriter *writer,
         int64_t v)
{
  writer->used += sp_varint_put_i64 (writer->buffer + writer->used, v);
}

static bool
out_of_memory (SpSpoolError *err)
{
  sp_spool_error_set (err, SP_SPOOL_ERROR_NO_MEMORY, 0, 0, "out of memory while interning");
  return false;
}

SpSpoolWriter *
sp_spool_writer_new_for_fd (int fd,
                            bool owns_fd,
                            uint64_t start_timestamp_us,
                            uint64_t sample_interval_us,
                            SpSpoolError *err)
{
  SpSpoolWriter *writer = calloc (1, sizeof *writer);

  if (writer == NULL)
    {
      out_of_memory (err);
      if (owns_fd)
        close (fd);
      return NULL;
    }
  writer->fd = fd;
  writer->owns_fd = owns_fd;
  writer->start_offset = lseek (fd, 0, SEEK_CUR);
  sp_intern_table_init (&writer->threads, 2);
  sp_intern_table_init (&writer->frames, 4);
  sp_intern_table_init (&writer->stacks, 1);

  memcpy (writer->buffer, SP_SPOOL_MAGIC, SP_SPOOL_MAGIC_LEN);
  writer->used = SP_SPOOL_MAGIC_LEN;
  put_u64 (writer, start_timestamp_us);
  put_u64 (writer, sample_interval_us);
  return writer;
}

SpSpoolWriter *
sp_spool_writer_create (const char *path,
                        uint64_t start_timestamp_us,
                        uint64_t sample_interval_us,
                        SpSpoolError *err)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

  if (fd < 0)
    {
      sp_spool_error_set_errno (err, errno, "cannot create", path);
      return NULL;
    }
  return sp_spool_writer_new_for_fd (fd, true, start_timestamp_us, sample_interval_us, err);
}

bool
sp_spool_writer_close (SpSpoolWriter *writer,
                       SpSpoolError *err)
{
  bool ok;

  if (writer == NULL)
    return true;

  ok = sp_spool_writer_flush (writer, err);
  if (writer->owns_fd && close (writer->fd) != 0 && ok)
    {
      sp_spool_error_set_errno (err, errno, "cannot close spool", NULL);
      ok = false;
    }
  sp_intern_table_clear (&writer->threads);
  sp_intern_table_clear (&writer->frames);
  sp_intern_table_clear (&writer->stacks);
  free (writer);
  return ok;
}

uint64_t
sp_spool_writer_get_size (const SpSpoolWriter *writer)
{
  return writer->flushed_bytes + writer->used;
}

uint64_t
sp_spool_writer_get_flushed_size (const SpSpoolWriter *writer)
{
  return writer->flushed_bytes;
}

uint64_t
sp_spool_writer_get_flushed_samples (const SpSpoolWriter *writer)
{
  return writer->flushed_samples;
}

bool
sp_spool_writer_write_module (SpSpoolWriter *writer,
                              uint32_t id,
                              const SpModule *module,
                              SpSpoolError *err)
{
  size_t done = 0;
  size_t fixed = 1 + 7 * SP_VARINT_MAX_LEN + 1;

  /* The whole record, so that it does not straddle a flush (unless its
   * path alone nearly fills the buffer). */
  if (!reserve (writer, fixed + module->path_len <= BUFFER_SIZE ? fixed + module->path_len : fixed, err))
    return false;
  put_byte (writer, SP_SPOOL_REC_MODULE);
  put_u64 (writer, id);
  put_i64 (writer, module->pid);
  put_u64 (writer, module->start);
  put_u64 (writer, module->end);
  put_u64 (writer, module->file_offset);
  put_u64 (writer, module->inode);
  put_byte (writer, module->is_kernel ? 1 : 0);
  put_u64 (writer, module->path_len);

  /* A path may be longer than the buffer. */
  while (done < module->path_len)
    {
      size_t chunk = module->path_len - done;

      if (writer->used == BUFFER_SIZE && !sp_spool_writer_flush (writer, err))
        return false;
      if (chunk > BUFFER_SIZE - writer->used)
        chunk = BUFFER_SIZE - writer->used;
      memcpy (writer->buffer + writer->used, module->path + done, chunk);
      writer->used += chunk;
      done += chunk;
    }
  writer->frame_context_epoch++;
  return true;
}

bool
sp_spool_writer_write_module_deactivation (SpSpoolWriter *writer,
                                           int32_t pid,
                                           SpSpoolError *err)
{
  if (!reserve (writer, RECORD_ROOM, err))
    return false;
  put_byte (writer, SP_SPOOL_REC_MODULE_DEACTIVATE);
  put_i64 (writer, pid);
  writer->frame_context_epoch++;
  return true;
}

bool
sp_spool_writer_write_process_exec (SpSpoolWriter *writer,
                                    uint64_t timestamp_ns,
                                    int32_t pid,
                                    bool is_python_runtime,
                                    SpSpoolError *err)
{
  if (!reserve (writer, RECORD_ROOM, err))
    return false;
  put_byte (writer, SP_SPOOL_REC_PROCESS_EXEC);
  put_u64 (writer, timestamp_ns);
  put_i64 (writer, pid);
  put_byte (writer, is_python_runtime ? 1 : 0);
  return true;
}

static bool
intern_thread (SpSpoolWriter *writer,
               int32_t pid,
               uint64_t tid,
               uint32_t *id,
               SpSpoolError *err)
{
  uint64_t key[2] = { (uint64_t) (int64_t) pid, tid };
  bool added;
  int64_t found = sp_intern_table_intern (&writer->threads, key, &added);

  if (found < 0)
    return out_of_memory (err);
  *id = (uint32_t) found;
  if (!added)
    return true;
  if (!reserve (writer, RECORD_ROOM, err))
    return false;
  put_byte (writer, SP_SPOOL_REC_THREAD);
  put_u64 (writer, *id);
  put_i64 (writer, pid);
  put_u64 (writer, tid);
  return true;
}

/* The compact form: (kind, address) as SPOOL-FORMAT.md defines them. */
static void
put_frame_kind_and_address (SpSpoolWriter *writer,
                            const SpFrame *frame)
{
  if (frame->mode == SP_FRAME_TRUNCATED)
    {
      put_u64 (writer, SP_SPOOL_FRAME_KIND_TRUNCATED);
      put_u64 (writer, 0);
    }
  else if (frame->module_id != SP_SPOOL_NO_ID)
    {
      put_u64 (writer, (uint64_t) frame->module_id << 1);
      put_u64 (writer, frame->rel_ip);
    }
  else
    {
      put_u64 (writer, frame->mode == SP_FRAME_KERNEL ? 3 : 1);
      put_u64 (writer, frame->abs_ip);
    }
}

static bool
intern_frame (SpSpoolWriter *writer,
              const SpFrame *frame,
              uint32_t *id,
              SpSpoolError *err)
{
  uint64_t key[4] = {
    frame->rel_ip,
    frame->abs_ip,
    (uint64_t) frame->module_id << 2 | (uint64_t) frame->mode,
    writer->frame_context_epoch,
  };
  bool added;
  int64_t found;

  found = sp_intern_table_intern (&writer->frames, key, &added);
  if (found < 0)
    return out_of_memory (err);
  *id = (uint32_t) found;
  if (!added)
    return true;
  if (!reserve (writer, RECORD_ROOM, err))
    return false;
  put_byte (writer, SP_SPOOL_REC_FRAME);
  put_u64 (writer, *id);
  put_frame_kind_and_address (writer, frame);
  return true;
}

/* Walks the frames root first, defining the nodes the tree lacks. */
static bool
intern_stack (SpSpoolWriter *writer,
              const SpFrame *frames,
              size_t n_frames,
              uint32_t *stack_id,
              SpSpoolError *err)
{
  uint32_t prefix = SP_SPOOL_NO_ID;

  for (size_t i = n_frames; i-- > 0;)
    {
      uint32_t frame_id;
      uint64_t key;
      bool added;
      int64_t found;

      if (!intern_frame (writer, &frames[i], &frame_id, err))
        return false;
      key = (uint64_t) prefix << 32 | frame_id;
      found = sp_intern_table_intern (&writer->stacks, &key, &added);
      if (found < 0)
        return out_of_memory (err);
      if (added)
        {
          if (!reserve (writer, RECORD_ROOM, err))
            return false;
          put_byte (writer, SP_SPOOL_REC_STACK);
          put_u64 (writer, (uint64_t) found);
          put_u64 (writer, prefix);
          put_u64 (writer, frame_id);
        }
      prefix = (uint32_t) found;
    }
  *stack_id = prefix;
  return true;
}

/* The delta must fit an i64, as the reference writer demands. */
static bool
timestamp_delta (uint64_t last,
                 uint64_t timestamp,
                 int64_t *delta,
                 SpSpoolError *err)
{
  if (timestamp >= last && timestamp - last <= (uint64_t) INT64_MAX)
    *delta = (int64_t) (timestamp - last);
  else if (timestamp < last && last - timestamp <= (uint64_t) INT64_MAX + 1)
    *delta = (int64_t) (0 - (last - timestamp));
  else
    {
      sp_spool_error_set (err, SP_SPOOL_ERROR_USAGE, 0, 0,
                          "sample timestamp delta %s%llu out of range",
                          timestamp < last ? "-" : "",
                          (unsigned long long) (timestamp < last ? last - timestamp : timestamp - last));
      return false;
    }
  return true;
}

bool
sp_spool_writer_write_sample (SpSpoolWriter *writer,
                              uint64_t timestamp_ns,
                              int32_t pid,
                              uint64_t tid,
                              const SpFrame *frames,
                              size_t n_frames,
                              uint32_t *stack_id,
                              SpSpoolError *err)
{
  uint32_t stack = SP_SPOOL_NO_ID;
  uint32_t thread;
  int64_t delta;

  if (stack_id != NULL)
    *stack_id = SP_SPOOL_NO_ID;
  if (n_frames == 0)
    return true;
  if (!timestamp_delta (writer->last_timestamp_ns, timestamp_ns, &delta, err)
      || !intern_stack (writer, frames, n_frames, &stack, err)
      || !intern_thread (writer, pid, tid, &thread, err)
      || !reserve (writer, RECORD_ROOM, err))
    return false;
  writer->last_timestamp_ns = timestamp_ns;
  writer->n_samples++;

  put_byte (writer, SP_SPOOL_REC_SAMPLE);
  put_i64 (writer, delta);
  put_u64 (writer, thread);
  put_u64 (writer, stack);
  if (stack_id != NULL)
    *stack_id = stack;
  return true;
}

bool
sp_spool_writer_intern_stack (SpSpoolWriter *writer,
                              int32_t pid,
                              uint64_t tid,
                              const SpFrame *frames,
                              size_t n_frames,
                              uint32_t *thread_id,
                              uint32_t *stack_id,
                              SpSpoolError *err)
{
  uint32_t stack = SP_SPOOL_NO_ID;
  uint32_t thread;

  /* In write_sample's order: the stack's definitions, then the thread's. */
  if ((n_frames > 0 && !intern_stack (writer, frames, n_frames, &stack, err))
      || !intern_thread (writer, pid, tid, &thread, err))
    return false;
  if (thread_id != NULL)
    *thread_id = thread;
  if (stack_id != NULL)
    *stack_id = stack;
  return true;
}
