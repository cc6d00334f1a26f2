/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-records.c: decoding SPULSE1 records into the reader's tables
 * (codec layer, libc only).
 *
 * Each record is decoded and checked field by field in the reference
 * reader's order, and only committed to the tables once it is complete, so
 * a record cut by the end of the data leaves no trace and can be parsed
 * again when the rest arrives. A fault is either "the data ended"
 * (TRUNCATED: not yet written, while following) or "the data is wrong"
 * (INVALID: damage, final). */
#include "sp-spool-reader-private.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp-array.h"
#include "sp-utf8-private.h"
#include "sp-varint.h"

/* Where the parser is, and where its record started. */
typedef struct {
  const uint8_t *p;
  const uint8_t *end;
  const uint8_t *base;
  const uint8_t *record;
  SpSpoolError  *fault;
} Cursor;

static bool
fault (Cursor *c,
       SpSpoolErrorCode code,
       const char *format,
       ...) __attribute__ ((format (printf, 3, 4)));

static bool
fault (Cursor *c,
       SpSpoolErrorCode code,
       const char *format,
       ...)
{
  va_list args;

  c->fault->code = code;
  c->fault->sys_errno = 0;
  c->fault->record_offset = (uint64_t) (c->record - c->base);
  c->fault->offset = (uint64_t) (c->p - c->base);
  va_start (args, format);
  vsnprintf (c->fault->message, sizeof c->fault->message, format, args);
  va_end (args);
  return false;
}

/* ---- Fields ---------------------------------------------------------- */

/* Decodes like integer-encoding 4.1.0 over a reader: at most 10 bytes, the
 * tenth carrying only bit 63; an eleventh byte makes it unterminated. */
static bool __attribute__ ((noinline))
read_u64_slow (Cursor *c,
               uint64_t *out)
{
  const uint8_t *p = c->p;
  uint64_t v = 0;

  for (unsigned i = 0; i < SP_VARINT_MAX_LEN; i++)
    {
      uint8_t b;

      if (p == c->end)
        return fault (c, SP_SPOOL_ERROR_TRUNCATED, "Reached EOF");
      b = *p++;
      if (i == SP_VARINT_MAX_LEN - 1)
        {
          c->p = p;
          if (b & 0x80)
            return p == c->end ? fault (c, SP_SPOOL_ERROR_TRUNCATED, "Reached EOF")
                               : fault (c, SP_SPOOL_ERROR_INVALID, "Unterminated varint");
          if (b > 1)
            return fault (c, SP_SPOOL_ERROR_INVALID, "Reached EOF");
          *out = v | (uint64_t) b << 63;
          return true;
        }
      v |= (uint64_t) (b & 0x7F) << (7 * i);
      if (!(b & 0x80))
        {
          c->p = p;
          *out = v;
          return true;
        }
    }
  return false; /* not reached */
}

/* Values of up to 9 bytes with room to spare need no bounds checks; the
 * tenth byte's special rules and the end of the data go the slow way. */
static inline bool
read_u64 (Cursor *c,
          uint64_t *out)
{
  const uint8_t *p = c->p;
  uint64_t v;

  if (__builtin_expect (p < c->end && *p < 0x80, 1))
    {
      *out = *p;
      c->p = p + 1;
      return true;
    }
  if (__builtin_expect (c->end - p < SP_VARINT_MAX_LEN, 0))
    return read_u64_slow (c, out);
  v = p[0] & 0x7F;
  for (unsigned i = 1; i < SP_VARINT_MAX_LEN - 1; i++)
    {
      v |= (uint64_t) (p[i] & 0x7F) << (7 * i);
      if (p[i] < 0x80)
        {
          *out = v;
          c->p = p + i + 1;
          return true;
        }
    }
  return read_u64_slow (c, out);
}

static inline bool
read_i64 (Cursor *c,
          int64_t *out)
{
  uint64_t raw;

  if (!read_u64 (c, &raw))
    return false;
  *out = sp_zigzag_decode (raw);
  return true;
}

static bool
read_pid (Cursor *c,
          int32_t *pid)
{
  int64_t v;

  if (!read_i64 (c, &v))
    return false;
  if (v < INT32_MIN || v > INT32_MAX)
    return fault (c, SP_SPOOL_ERROR_INVALID, "process id %" PRId64 " out of range", v);
  *pid = (int32_t) v;
  return true;
}

static bool
read_flag (Cursor *c,
           bool *flag)
{
  if (c->p == c->end)
    return fault (c, SP_SPOOL_ERROR_TRUNCATED, "failed to fill whole buffer");
  *flag = *c->p++ != 0;
  return true;
}

/* A record's own id must be the next number of its table. */
static bool
read_own_id (Cursor *c,
             size_t expected,
             const char *kind)
{
  uint64_t id;

  if (!read_u64 (c, &id))
    return false;
  if (id != expected)
    return fault (c, SP_SPOOL_ERROR_INVALID, "%s id %" PRIu64 " did not match expected %zu",
                  kind, id, expected);
  return true;
}

/* A reference to an earlier id stored as u32. */
static bool
check_u32_ref (Cursor *c,
               uint64_t raw,
               size_t limit,
               const char *kind)
{
  if (raw > UINT32_MAX)
    return fault (c, SP_SPOOL_ERROR_INVALID, "%s id too large", kind);
  if (raw >= limit)
    return fault (c, SP_SPOOL_ERROR_INVALID, "%s references missing id %" PRIu64, kind, raw);
  return true;
}

/* ---- Tables ---------------------------------------------------------- */

static bool
no_memory (Cursor *c)
{
  return fault (c, SP_SPOOL_ERROR_NO_MEMORY, "out of memory");
}

/* Grows several parallel arrays to one new capacity. */
static bool
grow_parallel (size_t *capacity,
               size_t needed,
               void **a, size_t a_size,
               void **b, size_t b_size)
{
  size_t n = *capacity;

  if (needed <= *capacity)
    return true;
  if (!sp_array_reserve (a, &n, needed, a_size))
    return false;
  if (b != NULL)
    {
      void *grown = realloc (*b, n * b_size);

      if (grown == NULL)
        return false;
      sp_array_advise_huge (grown, n * b_size);
      *b = grown;
    }
  *capacity = n;
  return true;
}

static PendingModules *
pending_for_pid (SpSpoolReader *r,
                 int32_t pid,
                 bool create)
{
  uint64_t key = (uint64_t) (int64_t) pid;
  size_t n_groups = r->pending_of_pid.count;
  bool added;
  int64_t i;

  if (!create)
    {
      i = sp_intern_table_lookup (&r->pending_of_pid, &key);
      return i < 0 ? NULL : &r->pending[i];
    }
  if (!sp_array_reserve ((void **) &r->pending, &r->pending_capacity, n_groups + 1, sizeof (PendingModules)))
    return NULL;
  i = sp_intern_table_intern (&r->pending_of_pid, &key, &added);
  if (i < 0)
    return NULL;
  if (added)
    memset (&r->pending[i], 0, sizeof (PendingModules));
  return &r->pending[i];
}

/* ---- Records --------------------------------------------------------- */

static bool
parse_module (SpSpoolReader *r,
              Cursor *c)
{
  SpModule m = { 0 };
  uint64_t len;
  SpUtf8Error utf8;
  char *path;

  if (!read_own_id (c, r->n_modules, "module")
      || !read_pid (c, &m.pid)
      || !read_u64 (c, &m.start)
      || !read_u64 (c, &m.end)
      || !read_u64 (c, &m.file_offset)
      || !read_u64 (c, &m.inode)
      || !read_flag (c, &m.is_kernel)
      || !read_u64 (c, &len))
    return false;

  if ((uint64_t) (c->p - c->base) > UINT64_MAX - len)
    return fault (c, SP_SPOOL_ERROR_INVALID, "spool byte range overflow");
  if (len > (uint64_t) (c->end - c->p))
    return fault (c, SP_SPOOL_ERROR_TRUNCATED, "truncated spool byte range");
  if (!_sp_utf8_validate (c->p, len, &utf8))
    {
      if (utf8.error_len == 0)
        return fault (c, SP_SPOOL_ERROR_INVALID, "incomplete utf-8 byte sequence from index %zu",
                      utf8.valid_up_to);
      return fault (c, SP_SPOOL_ERROR_INVALID, "invalid utf-8 sequence of %zu bytes from index %zu",
                    utf8.error_len, utf8.valid_up_to);
    }

  path = malloc (len + 1);
  if (path == NULL
      || !grow_parallel (&r->modules_capacity, r->n_modules + 1,
                         (void **) &r->modules, sizeof (SpModule),
                         (void **) &r->module_deactivated_at, sizeof (uint64_t)))
    {
      free (path);
      return no_memory (c);
    }
  if (!m.is_kernel)
    {
      PendingModules *pending = pending_for_pid (r, m.pid, true);

      if (pending == NULL
          || !sp_array_reserve ((void **) &pending->ids, &pending->capacity, pending->n + 1, sizeof (uint32_t)))
        {
          free (path);
          return no_memory (c);
        }
      pending->ids[pending->n++] = (uint32_t) r->n_modules;
    }
  memcpy (path, c->p, len);
  path[len] = '\0';
  c->p += len;
  m.path = path;
  m.path_len = len;
  r->modules[r->n_modules] = m;
  r->module_deactivated_at[r->n_modules] = SP_SPOOL_NOT_DEACTIVATED;
  r->n_modules++;
  return true;
}

/* The frame's address must lie inside the module it names. */
static bool
check_module_frame (SpSpoolReader *r,
                    Cursor *c,
                    uint64_t module_id,
                    uint64_t address,
                    SpFrame *frame)
{
  const SpModule *m;

  if (!check_u32_ref (c, module_id, r->n_modules, "frame module"))
    return false;
  m = &r->modules[module_id];
  if (address < m->file_offset)
    return fault (c, SP_SPOOL_ERROR_INVALID, "frame address precedes module %" PRIu64 " file offset",
                  module_id);
  if (m->end < m->start)
    return fault (c, SP_SPOOL_ERROR_INVALID, "module %" PRIu64 " end precedes module start",
                  module_id);
  if (address - m->file_offset >= m->end - m->start)
    return fault (c, SP_SPOOL_ERROR_INVALID, "frame address outside referenced module %" PRIu64,
                  module_id);
  frame->module_id = (uint32_t) module_id;
  frame->rel_ip = address;
  frame->abs_ip = m->start + (address - m->file_offset);
  frame->mode = m->is_kernel ? SP_FRAME_KERNEL : SP_FRAME_USER;
  return true;
}

static bool
parse_frame (SpSpoolReader *r,
             Cursor *c)
{
  SpFrame frame = { 0, 0, SP_SPOOL_NO_ID, SP_FRAME_TRUNCATED };
  uint64_t kind;
  uint64_t address;

  if (!read_own_id (c, r->n_frames, "frame")
      || !read_u64 (c, &kind)
      || !read_u64 (c, &address))
    return false;

  if (kind == SP_SPOOL_FRAME_KIND_TRUNCATED)
    {
      if (address != 0)
        return fault (c, SP_SPOOL_ERROR_INVALID, "truncated stack marker has nonzero payload");
    }
  else if ((kind & 1) == 0)
    {
      if (!check_module_frame (r, c, kind >> 1, address, &frame))
        return false;
    }
  else
    {
      frame.rel_ip = frame.abs_ip = address;
      frame.mode = (kind & 2) ? SP_FRAME_KERNEL : SP_FRAME_USER;
    }

  if (!grow_parallel (&r->frames_capacity, r->n_frames + 1,
                      (void **) &r->frames, sizeof (SpFrame),
                      (void **) &r->frame_module_limit, sizeof (size_t)))
    return no_memory (c);
  r->frames[r->n_frames] = frame;
  r->frame_module_limit[r->n_frames] = r->n_modules;
  r->n_frames++;
  return true;
}

static bool
parse_stack_node (SpSpoolReader *r,
                  Cursor *c)
{
  SpStackNode node = { SP_SPOOL_NO_ID, 0, 1 };
  uint64_t prefix;
  uint64_t frame_id;

  if (!read_own_id (c, r->n_stack_nodes, "stack")
      || !read_u64 (c, &prefix))
    return false;
  /* The depth is filled in after the parse (fill_depths). */
  if (prefix != SP_SPOOL_NO_ID)
    {
      if (!check_u32_ref (c, prefix, r->n_stack_nodes, "stack prefix"))
        return false;
      node.prefix = (uint32_t) prefix;
    }
  if (!read_u64 (c, &frame_id)
      || !check_u32_ref (c, frame_id, r->n_frames, "stack frame"))
    return false;
  node.frame_id = (uint32_t) frame_id;

  if (!sp_array_reserve ((void **) &r->stack_nodes, &r->stack_nodes_capacity, r->n_stack_nodes + 1,
             sizeof (SpStackNode)))
    return no_memory (c);
  r->stack_nodes[r->n_stack_nodes++] = node;
  return true;
}

static bool
parse_thread (SpSpoolReader *r,
              Cursor *c)
{
  SpThread thread;

  if (!read_own_id (c, r->n_threads, "thread")
      || !read_pid (c, &thread.pid)
      || !read_u64 (c, &thread.tid))
    return false;
  if (!sp_array_reserve ((void **) &r->threads, &r->threads_capacity, r->n_threads + 1, sizeof (SpThread)))
    return no_memory (c);
  r->threads[r->n_threads++] = thread;
  return true;
}

/* Thread indexes start at 8 bits each and widen (to 16, then 32) once
 * one needs it: most recordings have fewer than 256 threads. */
static bool
widen_sample_threads (SpSpoolReader *r,
                      size_t width)
{
  size_t capacity = r->samples_capacity ? r->samples_capacity : 1;
  void *wide = malloc (capacity * width);

  if (wide == NULL)
    return false;
  for (size_t i = 0; i < r->n_samples; i++)
    {
      uint32_t t = sp_spool_reader_get_sample_thread (r, i);

      if (width == 2)
        ((uint16_t *) wide)[i] = (uint16_t) t;
      else
        ((uint32_t *) wide)[i] = t;
    }
  free (r->sample_thread);
  r->sample_thread = wide;
  r->thread_width = width;
  return true;
}

/* The bytes thread index t needs. */
static inline size_t
thread_width_of (uint64_t t)
{
  return t > UINT16_MAX ? 4 : t > UINT8_MAX ? 2 : 1;
}

static inline void
store_thread (SpSpoolReader *r,
              size_t n,
              uint64_t thread)
{
  if (r->thread_width == 1)
    ((uint8_t *) r->sample_thread)[n] = (uint8_t) thread;
  else if (r->thread_width == 2)
    ((uint16_t *) r->sample_thread)[n] = (uint16_t) thread;
  else
    ((uint32_t *) r->sample_thread)[n] = (uint32_t) thread;
}

static bool
grow_samples (SpSpoolReader *r)
{
  size_t capacity = r->samples_capacity == 0 ? 4096 : r->samples_capacity * 2;
  int32_t *offset = realloc (r->sample_ts_offset, capacity * sizeof (int32_t));
  uint32_t *stack;
  void *thread;

  if (offset == NULL)
    return false;
  r->sample_ts_offset = offset;
  sp_array_advise_huge (offset, capacity * sizeof (int32_t));
  stack = realloc (r->sample_stack, capacity * sizeof (uint32_t));
  if (stack == NULL)
    return false;
  r->sample_stack = stack;
  sp_array_advise_huge (stack, capacity * sizeof (uint32_t));
  thread = realloc (r->sample_thread, capacity * r->thread_width);
  if (thread == NULL)
    return false;
  r->sample_thread = thread;
  sp_array_advise_huge (thread, capacity * r->thread_width);
  r->samples_capacity = capacity;
  return true;
}

/* Sample n's time, into its block (the first of a block sets its base). */
static bool
store_time (SpSpoolReader *r,
            size_t n,
            uint64_t ts)
{
  size_t b = n >> SP_TIME_BLOCK_BITS;
  size_t i = n & (SP_TIME_BLOCK_SIZE - 1);
  TimeBlock *block;
  int64_t offset;

  if (i == 0)
    {
      if (!sp_array_reserve ((void **) &r->time_blocks, &r->time_blocks_capacity, b + 1, sizeof (TimeBlock)))
        return false;
      r->time_blocks[b] = (TimeBlock) { ts, NULL };
      r->n_time_blocks = b + 1;
    }
  block = &r->time_blocks[b];
  offset = (int64_t) (ts - block->base_ns);
  if (__builtin_expect (block->wide_ns == NULL && offset == (int32_t) offset, 1))
    {
      r->sample_ts_offset[n] = (int32_t) offset;
      return true;
    }
  if (block->wide_ns == NULL)
    {
      block->wide_ns = malloc (SP_TIME_BLOCK_SIZE * sizeof (uint64_t));
      if (block->wide_ns == NULL)
        return false;
      for (size_t k = 0; k < i; k++)
        block->wide_ns[k] = block->base_ns + (uint64_t) (int64_t) r->sample_ts_offset[n - i + k];
    }
  block->wide_ns[i] = ts;
  r->sample_ts_offset[n] = 0;
  return true;
}

static bool
parse_sample (SpSpoolReader *r,
              Cursor *c)
{
  int64_t delta;
  uint64_t ts;
  uint64_t thread;
  uint64_t stack;
  size_t n = r->n_samples;

  if (!read_i64 (c, &delta))
    return false;
  if (delta >= 0 ? __builtin_add_overflow (r->last_timestamp_ns, (uint64_t) delta, &ts)
                 : r->last_timestamp_ns < (uint64_t) 0 - (uint64_t) delta)
    return fault (c, SP_SPOOL_ERROR_INVALID, "sample timestamp delta %" PRId64 " out of range", delta);
  if (delta < 0)
    ts = r->last_timestamp_ns - ((uint64_t) 0 - (uint64_t) delta);
  if (!read_u64 (c, &thread))
    return false;
  if (thread >= r->n_threads)
    return fault (c, SP_SPOOL_ERROR_INVALID, "sample thread references missing id %" PRIu64, thread);
  if (!read_u64 (c, &stack)
      || !check_u32_ref (c, stack, r->n_stack_nodes, "sample stack"))
    return false;

  if (__builtin_expect (n == r->samples_capacity, 0) && !grow_samples (r))
    return no_memory (c);
  if (__builtin_expect (thread_width_of (thread) > r->thread_width, 0)
      && !widen_sample_threads (r, thread_width_of (thread)))
    return no_memory (c);
  if (!store_time (r, n, ts))
    return no_memory (c);
  r->sample_stack[n] = (uint32_t) stack;
  store_thread (r, n, thread);
  r->n_samples = n + 1;
  r->last_timestamp_ns = ts;
  r->min_timestamp_ns = n == 0 || ts < r->min_timestamp_ns ? ts : r->min_timestamp_ns;
  r->max_timestamp_ns = n == 0 || ts > r->max_timestamp_ns ? ts : r->max_timestamp_ns;
  return true;
}

/* A varint of at most 9 bytes, the caller having checked there are 10
 * to read; false for a longer one (the careful path decodes it). */
static inline bool
read_u64_unchecked (const uint8_t **pp,
                    uint64_t *out)
{
  const uint8_t *p = *pp;
  uint64_t v = p[0];

  if (v < 0x80)
    {
      *out = v;
      *pp = p + 1;
      return true;
    }
  v &= 0x7F;
  for (unsigned i = 1; i < SP_VARINT_MAX_LEN - 1; i++)
    {
      v |= (uint64_t) (p[i] & 0x7F) << (7 * i);
      if (p[i] < 0x80)
        {
          *out = v;
          *pp = p + i + 1;
          return true;
        }
    }
  return false;
}

/* Room for a whole sample record of the longest varints. */
#define MAX_SAMPLE_RECORD (1 + 3 * SP_VARINT_MAX_LEN)

/* The sample records that follow one parse_sample took, the bulk of a
 * spool, decoded with the reader's state in locals, as long as they are
 * the common case: small varints, valid ids, room in the arrays, within
 * the current time block. Anything else (a fault among it) stops the run
 * at its record, for parse_sample to decode or refuse with its message.
 * Returns where it stopped, always a record's start. */
static const uint8_t *
parse_sample_run (SpSpoolReader *r,
                  const uint8_t *p,
                  const uint8_t *end)
{
  size_t n = r->n_samples;
  size_t capacity = r->samples_capacity;
  uint64_t last = r->last_timestamp_ns;
  uint64_t lowest = r->min_timestamp_ns;
  uint64_t highest = r->max_timestamp_ns;
  uint64_t n_threads = r->n_threads;
  uint64_t n_nodes = r->n_stack_nodes;
  size_t width = r->thread_width;
  const TimeBlock *block;

  if (n == 0 || (n & (SP_TIME_BLOCK_SIZE - 1)) == 0)
    return p;
  block = &r->time_blocks[n >> SP_TIME_BLOCK_BITS];
  if (block->wide_ns != NULL)
    return p;
  /* The run ends with the block: the next one needs its base set. */
  while (end - p >= MAX_SAMPLE_RECORD && *p == SP_SPOOL_REC_SAMPLE && n < capacity
         && (n & (SP_TIME_BLOCK_SIZE - 1)) != 0)
    {
      const uint8_t *q = p + 1;
      uint64_t raw, thread, stack, ts;
      int64_t delta, offset;

      if (!read_u64_unchecked (&q, &raw) || !read_u64_unchecked (&q, &thread)
          || !read_u64_unchecked (&q, &stack))
        break;
      delta = sp_zigzag_decode (raw);
      ts = last + (uint64_t) delta;
      offset = (int64_t) (ts - block->base_ns);
      if ((delta >= 0 ? ts < last : ts > last) || thread >= n_threads || thread_width_of (thread) > width
          || stack >= n_nodes || offset != (int32_t) offset)
        break;
      r->sample_ts_offset[n] = (int32_t) offset;
      r->sample_stack[n] = (uint32_t) stack;
      store_thread (r, n, thread);
      n++;
      last = ts;
      lowest = ts < lowest ? ts : lowest;
      highest = ts > highest ? ts : highest;
      p = q;
    }
  r->n_samples = n;
  r->last_timestamp_ns = last;
  r->min_timestamp_ns = lowest;
  r->max_timestamp_ns = highest;
  return p;
}

static bool
parse_process_exec (SpSpoolReader *r,
                    Cursor *c)
{
  SpProcessExec exec;

  if (!read_u64 (c, &exec.timestamp_ns)
      || !read_pid (c, &exec.pid)
      || !read_flag (c, &exec.is_python_runtime))
    return false;
  if (!sp_array_reserve ((void **) &r->execs, &r->execs_capacity, r->n_execs + 1, sizeof (SpProcessExec)))
    return no_memory (c);
  r->execs[r->n_execs++] = exec;
  return true;
}

/* Marks the pid's modules that are not marked yet with the frame count. */
static bool
parse_module_deactivation (SpSpoolReader *r,
                           Cursor *c)
{
  int32_t pid;
  PendingModules *pending;

  if (!read_pid (c, &pid))
    return false;
  pending = pending_for_pid (r, pid, false);
  if (pending == NULL)
    return true;
  for (size_t i = 0; i < pending->n; i++)
    r->module_deactivated_at[pending->ids[i]] = r->n_frames;
  pending->n = 0;
  return true;
}

static bool
parse_header (SpSpoolReader *r,
              Cursor *c)
{
  if (c->end - c->p < SP_SPOOL_MAGIC_LEN)
    return fault (c, SP_SPOOL_ERROR_TRUNCATED, "failed to fill whole buffer");
  if (memcmp (c->p, SP_SPOOL_MAGIC, SP_SPOOL_MAGIC_LEN) != 0)
    return fault (c, SP_SPOOL_ERROR_INVALID, "invalid stackpulse spool magic");
  c->p += SP_SPOOL_MAGIC_LEN;
  return read_u64 (c, &r->start_timestamp_us)
         && read_u64 (c, &r->sample_interval_us);
}

/* The depths of the stack nodes from first on: 1 for a root, one more
 * than its prefix's (saturating). Apart from the parse, in a loop of its
 * own: a node that branches off an older one reads a prefix that is
 * rarely in the cache, and here those reads overlap, where in the parse
 * each stalled it. */
static void
fill_depths (SpSpoolReader *r,
             size_t first)
{
  SpStackNode *nodes = r->stack_nodes;

  for (size_t i = first; i < r->n_stack_nodes; i++)
    {
      uint32_t depth = 1;

      if (nodes[i].prefix != SP_SPOOL_NO_ID)
        {
          depth = nodes[nodes[i].prefix].depth;
          if (depth != UINT32_MAX)
            depth++;
        }
      nodes[i].depth = depth;
    }
}

static bool
parse_records (SpSpoolReader *r,
               const uint8_t *base,
               size_t len,
               SpSpoolError *fault_out)
{
  Cursor c = { base + r->parsed, base + len, base, base + r->parsed, fault_out };

  if (!r->has_header)
    {
      if (!parse_header (r, &c))
        return false;
      r->has_header = true;
      r->parsed = (uint64_t) (c.p - base);
    }

  while (c.p < c.end)
    {
      bool ok;

      c.record = c.p;
      switch (*c.p++)
        {
        case SP_SPOOL_REC_SAMPLE:
          ok = parse_sample (r, &c);
          if (ok)
            c.p = parse_sample_run (r, c.p, c.end);
          break;
        case SP_SPOOL_REC_STACK:             ok = parse_stack_node (r, &c); break;
        case SP_SPOOL_REC_FRAME:             ok = parse_frame (r, &c); break;
        case SP_SPOOL_REC_THREAD:            ok = parse_thread (r, &c); break;
        case SP_SPOOL_REC_MODULE:            ok = parse_module (r, &c); break;
        case SP_SPOOL_REC_PROCESS_EXEC:      ok = parse_process_exec (r, &c); break;
        case SP_SPOOL_REC_MODULE_DEACTIVATE: ok = parse_module_deactivation (r, &c); break;
        default:
          ok = fault (&c, SP_SPOOL_ERROR_INVALID, "unknown spool record tag %u", c.record[0]);
          break;
        }
      if (!ok)
        {
          r->parsed = (uint64_t) (c.record - base);
          return false;
        }
    }
  r->parsed = len;
  return true;
}

bool
_sp_spool_reader_parse_records (SpSpoolReader *r,
                                const uint8_t *base,
                                size_t len,
                                SpSpoolError *fault_out)
{
  size_t first_node = r->n_stack_nodes;
  bool ok = parse_records (r, base, len, fault_out);

  fill_depths (r, first_node);
  return ok;
}
