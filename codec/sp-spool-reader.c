/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-reader.c: the SPULSE1 reader (codec layer, libc only): the file
 * side. It opens the spool (regular files only), maps it as it grows, hands
 * the new bytes to the record decoding (sp-spool-records.c), and keeps
 * what went wrong: a cut last record is "not written yet" while following
 * and damage once finished. One parser serves both modes. */
#include "sp-spool-reader-private.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp-safe-open.h"

/* ---- Reading a file -------------------------------------------------- */

static const uint8_t empty_file[1];

/* madvise works on whole pages; 64 kB is a multiple of every page size
 * Linux uses on the machines we run on. */
#define PAGE_GRAIN ((size_t) 64 << 10)
#define PARSE_WINDOW ((size_t) 32 << 20)

static void
unmap (SpSpoolReader *r)
{
  if (r->map != NULL && r->map != empty_file)
    munmap ((void *) r->map, r->map_len);
  r->map = NULL;
  r->map_len = 0;
  r->released = 0;
}

/* Maps the whole file as it is now; a file only ever grows. */
static bool
map_file (SpSpoolReader *r,
          SpSpoolError *err)
{
  struct stat st;
  void *map;

  if (fstat (r->fd, &st) != 0)
    {
      sp_spool_error_set_errno (err, errno, "cannot stat spool", NULL);
      return false;
    }
  /* Spools only grow: a shorter file was truncated or replaced under us,
   * and the old mapping would read bytes that are gone (or SIGBUS). */
  if ((uint64_t) st.st_size < r->parsed || (size_t) st.st_size < r->map_len)
    {
      sp_spool_error_set (err, SP_SPOOL_ERROR_INVALID, r->parsed, (uint64_t) st.st_size,
                          "the spool shrank to %" PRIu64 " bytes after %" PRIu64 " were seen",
                          (uint64_t) st.st_size, (uint64_t) r->map_len > r->parsed ? (uint64_t) r->map_len : r->parsed);
      return false;
    }
  if ((size_t) st.st_size <= r->map_len && r->map != NULL)
    return true;
  unmap (r);
  if (st.st_size == 0)
    {
      r->map = empty_file;
      return true;
    }
  map = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_SHARED, r->fd, 0);
  if (map == MAP_FAILED)
    {
      sp_spool_error_set_errno (err, errno, "cannot map spool", NULL);
      return false;
    }
  madvise (map, (size_t) st.st_size, MADV_SEQUENTIAL);
  r->map = map;
  r->map_len = (size_t) st.st_size;
  /* The new mapping has none of the parsed pages resident. */
  r->released = (size_t) r->parsed & ~(PAGE_GRAIN - 1);
  return true;
}

/* Gives back the pages of the map the parser is done with: the tables
 * hold all that is kept of them, and the file's pages would otherwise
 * count in the process's memory as much as the tables themselves. */
static void
release_parsed_pages (SpSpoolReader *r)
{
  size_t done = (size_t) r->parsed & ~(PAGE_GRAIN - 1);

  if (r->map == empty_file || done <= r->released)
    return;
  madvise ((uint8_t *) r->map + r->released, done - r->released, MADV_DONTNEED);
  r->released = done;
}

/* Parses the map up to end in windows, releasing the pages behind each.
 * A record cut by a window's end is parsed again whole with the next
 * window. */
static bool
parse_map (SpSpoolReader *r,
           size_t end,
           SpSpoolError *fault)
{
  size_t limit = (size_t) r->parsed;

  for (;;)
    {
      bool ok;

      limit = end - limit > PARSE_WINDOW ? limit + PARSE_WINDOW : end;
      ok = _sp_spool_reader_parse_records (r, r->map, limit, fault);
      release_parsed_pages (r);
      if (limit == end || (!ok && fault->code != SP_SPOOL_ERROR_TRUNCATED))
        return ok;
    }
}

/* The shared safe open, worded as the codec's error. */
static int
open_regular (const char *path,
              SpSpoolError *err)
{
  SpSafeOpenFailure failure;
  int fd = sp_safe_open_regular (path, &failure);

  if (fd >= 0)
    return fd;
  if (failure.file_type != NULL)
    sp_spool_error_set (err, SP_SPOOL_ERROR_IO, 0, 0, SP_SAFE_OPEN_NOT_REGULAR_FORMAT, path, failure.file_type);
  else
    sp_spool_error_set_errno (err, failure.sys_errno, "cannot open", path);
  return -1;
}

SpSpoolReader *
sp_spool_reader_open_follow (const char *path,
                             SpSpoolError *err)
{
  SpSpoolReader *r;
  int fd = open_regular (path, err);

  if (fd < 0)
    return NULL;
  r = calloc (1, sizeof *r);
  if (r == NULL)
    {
      sp_spool_error_set (err, SP_SPOOL_ERROR_NO_MEMORY, 0, 0, "out of memory");
      close (fd);
      return NULL;
    }
  r->fd = fd;
  r->thread_width = 1;
  sp_intern_table_init (&r->pending_of_pid, 1);
  return r;
}

/* Parses what was appended, up to max_bytes of the file. Only a cut at
 * the file's end is its tail; one at max_bytes is read on the next call. */
static bool
update_to (SpSpoolReader *r,
           uint64_t max_bytes,
           SpSpoolError *err)
{
  SpSpoolError fault;
  size_t end;

  if (r->damage.code != SP_SPOOL_ERROR_NONE)
    goto damaged;
  if (r->fd < 0)
    return true;
  if (!map_file (r, &r->damage))
    goto damaged;
  end = max_bytes < r->map_len ? (size_t) max_bytes : r->map_len;
  if (end <= r->parsed && end < r->map_len)
    return true;

  sp_spool_error_clear (&fault);
  if (parse_map (r, end, &fault))
    {
      if (end == r->map_len)
        sp_spool_error_clear (&r->tail);
      return true;
    }
  if (fault.code == SP_SPOOL_ERROR_TRUNCATED)
    {
      if (end == r->map_len)
        r->tail = fault;
      return true;
    }
  r->damage = fault;

damaged:
  if (err != NULL)
    *err = r->damage;
  return false;
}

bool
sp_spool_reader_update (SpSpoolReader *r,
                        SpSpoolError *err)
{
  return update_to (r, UINT64_MAX, err);
}

bool
sp_spool_reader_update_prefix (SpSpoolReader *r,
                               uint64_t max_bytes,
                               SpSpoolError *err)
{
  return update_to (r, max_bytes, err);
}

/* Gives back the room the doubling arrays reserved beyond their counts
 * (for large arrays glibc remaps rather than copies). */
static void
shrink (void **array,
        size_t *capacity,
        size_t count,
        size_t item_size)
{
  void *shrunk;

  if (count == 0 || count == *capacity)
    return;
  shrunk = realloc (*array, count * item_size);
  if (shrunk != NULL)
    {
      *array = shrunk;
      *capacity = count;
    }
}

static void
shrink_tables (SpSpoolReader *r)
{
  size_t capacity = r->samples_capacity;

  shrink ((void **) &r->sample_ts_offset, &capacity, r->n_samples, sizeof (int32_t));
  capacity = r->samples_capacity;
  shrink ((void **) &r->sample_stack, &capacity, r->n_samples, sizeof (uint32_t));
  capacity = r->samples_capacity;
  shrink (&r->sample_thread, &capacity, r->n_samples, r->thread_width);
  r->samples_capacity = capacity;
  shrink ((void **) &r->time_blocks, &r->time_blocks_capacity, r->n_time_blocks, sizeof (TimeBlock));
  shrink ((void **) &r->stack_nodes, &r->stack_nodes_capacity, r->n_stack_nodes, sizeof (SpStackNode));
  capacity = r->frames_capacity;
  shrink ((void **) &r->frames, &capacity, r->n_frames, sizeof (SpFrame));
  capacity = r->frames_capacity;
  shrink ((void **) &r->frame_module_limit, &capacity, r->n_frames, sizeof (size_t));
  r->frames_capacity = capacity;
}

bool
sp_spool_reader_finish (SpSpoolReader *r,
                        SpSpoolError *err)
{
  bool ok = sp_spool_reader_update (r, err);

  if (ok && r->fd >= 0 && (!r->has_header || r->parsed < r->map_len))
    {
      r->damage = r->tail;
      if (err != NULL)
        *err = r->damage;
      ok = false;
    }
  unmap (r);
  if (r->fd >= 0)
    close (r->fd);
  r->fd = -1;
  shrink_tables (r);
  r->finished = true;
  return ok;
}

bool
sp_spool_reader_is_finished (const SpSpoolReader *r)
{
  return r->finished;
}

SpSpoolReader *
sp_spool_reader_open (const char *path,
                      SpSpoolError *err)
{
  SpSpoolReader *r = sp_spool_reader_open_follow (path, err);

  if (r != NULL && !sp_spool_reader_finish (r, err))
    {
      sp_spool_reader_free (r);
      return NULL;
    }
  return r;
}

void
sp_spool_reader_free (SpSpoolReader *r)
{
  if (r == NULL)
    return;
  unmap (r);
  if (r->fd >= 0)
    close (r->fd);
  for (size_t i = 0; i < r->n_modules; i++)
    free ((char *) r->modules[i].path);
  for (size_t i = 0; i < r->pending_of_pid.count; i++)
    free (r->pending[i].ids);
  sp_intern_table_clear (&r->pending_of_pid);
  free (r->pending);
  free (r->modules);
  free (r->module_deactivated_at);
  free (r->frames);
  free (r->frame_module_limit);
  free (r->stack_nodes);
  free (r->threads);
  free (r->execs);
  for (size_t i = 0; i < r->n_time_blocks; i++)
    free (r->time_blocks[i].wide_ns);
  free (r->time_blocks);
  free (r->sample_ts_offset);
  free (r->sample_stack);
  free (r->sample_thread);
  free (r);
}

/* ---- Accessors ------------------------------------------------------- */

const SpSpoolError *
sp_spool_reader_get_damage (const SpSpoolReader *r)
{
  return r->damage.code == SP_SPOOL_ERROR_NONE ? NULL : &r->damage;
}

uint64_t sp_spool_reader_get_parsed_size (const SpSpoolReader *r) { return r->parsed; }
bool sp_spool_reader_has_header (const SpSpoolReader *r) { return r->has_header; }
uint64_t sp_spool_reader_get_start_timestamp_us (const SpSpoolReader *r) { return r->start_timestamp_us; }
uint64_t sp_spool_reader_get_sample_interval_us (const SpSpoolReader *r) { return r->sample_interval_us; }
size_t sp_spool_reader_get_n_modules (const SpSpoolReader *r) { return r->n_modules; }
size_t sp_spool_reader_get_n_frames (const SpSpoolReader *r) { return r->n_frames; }
size_t sp_spool_reader_get_n_stack_nodes (const SpSpoolReader *r) { return r->n_stack_nodes; }
size_t sp_spool_reader_get_n_threads (const SpSpoolReader *r) { return r->n_threads; }
size_t sp_spool_reader_get_n_samples (const SpSpoolReader *r) { return r->n_samples; }
size_t sp_spool_reader_get_n_process_execs (const SpSpoolReader *r) { return r->n_execs; }
const SpModule *sp_spool_reader_get_modules (const SpSpoolReader *r) { return r->modules; }
const SpFrame *sp_spool_reader_get_frames (const SpSpoolReader *r) { return r->frames; }
const SpStackNode *sp_spool_reader_get_stack_nodes (const SpSpoolReader *r) { return r->stack_nodes; }
const SpThread *sp_spool_reader_get_threads (const SpSpoolReader *r) { return r->threads; }
const SpProcessExec *sp_spool_reader_get_process_execs (const SpSpoolReader *r) { return r->execs; }
const uint32_t *sp_spool_reader_get_sample_stacks (const SpSpoolReader *r) { return r->sample_stack; }

uint32_t
sp_spool_reader_get_sample_thread (const SpSpoolReader *r,
                                   size_t index)
{
  if (r->thread_width == 1)
    return ((const uint8_t *) r->sample_thread)[index];
  if (r->thread_width == 2)
    return ((const uint16_t *) r->sample_thread)[index];
  return ((const uint32_t *) r->sample_thread)[index];
}

uint64_t
sp_spool_reader_get_sample_timestamp (const SpSpoolReader *r,
                                      size_t index)
{
  const TimeBlock *block = &r->time_blocks[index >> SP_TIME_BLOCK_BITS];

  if (block->wide_ns != NULL)
    return block->wide_ns[index & (SP_TIME_BLOCK_SIZE - 1)];
  return block->base_ns + (uint64_t) (int64_t) r->sample_ts_offset[index];
}

void
sp_spool_reader_copy_sample_timestamps (const SpSpoolReader *r,
                                        size_t first,
                                        size_t n,
                                        uint64_t *out)
{
  size_t end = first + n;

  for (size_t i = first; i < end;)
    {
      const TimeBlock *block = &r->time_blocks[i >> SP_TIME_BLOCK_BITS];
      size_t block_end = ((i >> SP_TIME_BLOCK_BITS) + 1) << SP_TIME_BLOCK_BITS;
      size_t stop = block_end < end ? block_end : end;

      if (block->wide_ns != NULL)
        memcpy (out, block->wide_ns + (i & (SP_TIME_BLOCK_SIZE - 1)), (stop - i) * sizeof (uint64_t));
      else
        for (size_t k = i; k < stop; k++)
          out[k - i] = block->base_ns + (uint64_t) (int64_t) r->sample_ts_offset[k];
      out += stop - i;
      i = stop;
    }
}

void
sp_spool_reader_copy_sample_threads (const SpSpoolReader *r,
                                     size_t first,
                                     size_t n,
                                     uint32_t *out)
{
  if (r->thread_width == 1)
    for (size_t i = 0; i < n; i++)
      out[i] = ((const uint8_t *) r->sample_thread)[first + i];
  else if (r->thread_width == 2)
    for (size_t i = 0; i < n; i++)
      out[i] = ((const uint16_t *) r->sample_thread)[first + i];
  else
    memcpy (out, (const uint32_t *) r->sample_thread + first, n * sizeof (uint32_t));
}

bool
sp_spool_reader_get_sample_time_span (const SpSpoolReader *r,
                                      uint64_t *first_ns,
                                      uint64_t *last_ns)
{
  if (r->n_samples == 0)
    return false;
  *first_ns = r->min_timestamp_ns;
  *last_ns = r->max_timestamp_ns;
  return true;
}

void
sp_spool_reader_get_sample (const SpSpoolReader *r,
                            size_t index,
                            SpSample *sample)
{
  sample->timestamp_ns = sp_spool_reader_get_sample_timestamp (r, index);
  sample->thread = sp_spool_reader_get_sample_thread (r, index);
  sample->stack = r->sample_stack[index];
}

uint64_t
sp_spool_reader_get_sample_time_us (const SpSpoolReader *r,
                                    size_t index)
{
  uint64_t first = sp_spool_reader_get_sample_timestamp (r, 0);
  uint64_t ts = sp_spool_reader_get_sample_timestamp (r, index);
  uint64_t since = ts > first ? (ts - first) / 1000 : 0;

  return r->start_timestamp_us > UINT64_MAX - since ? UINT64_MAX : r->start_timestamp_us + since;
}

/* Only the modules defined before the frame, and not deactivated before
 * it, count: that was the writer's context when it interned the frame. */
bool
sp_spool_reader_resolve_frame_module (const SpSpoolReader *r,
                                      int32_t pid,
                                      uint32_t frame_id,
                                      uint32_t *module_id,
                                      uint64_t *rel_ip)
{
  const SpFrame *frame;

  if (frame_id >= r->n_frames)
    return false;
  frame = &r->frames[frame_id];
  if (frame->module_id != SP_SPOOL_NO_ID)
    {
      *module_id = frame->module_id;
      *rel_ip = frame->rel_ip;
      return true;
    }
  if (frame->mode == SP_FRAME_TRUNCATED)
    return false;

  for (size_t i = r->frame_module_limit[frame_id]; i-- > 0;)
    {
      const SpModule *m = &r->modules[i];
      uint64_t offset;

      if (frame_id >= r->module_deactivated_at[i])
        continue;
      if (frame->mode == SP_FRAME_KERNEL ? !m->is_kernel : (m->is_kernel || m->pid != pid))
        continue;
      if (frame->abs_ip < m->start || frame->abs_ip >= m->end)
        continue;
      offset = frame->abs_ip - m->start;
      *module_id = (uint32_t) i;
      *rel_ip = offset > UINT64_MAX - m->file_offset ? UINT64_MAX : offset + m->file_offset;
      return true;
    }
  return false;
}
