/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-reader.c: the SPULSE1 reader (codec layer, libc only).
 *
 * One parser serves both modes. Each record is decoded and checked field by
 * field in the reference reader's order, and only committed to the tables
 * once it is complete, so a record cut by the end of the data leaves no
 * trace and can be parsed again when the rest arrives. A fault is either
 * "the data ended" (TRUNCATED: not yet written, while following) or "the
 * data is wrong" (INVALID: damage, final). */
#include "sp-spool-reader.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp-array.h"
#include "sp-intern-table.h"
#include "sp-utf8-private.h"
#include "sp-varint.h"

#define NOT_DEACTIVATED UINT64_MAX

/* Modules of one pid that a MODULE_DEACTIVATE record would still mark. */
typedef struct {
  uint32_t *ids;
  size_t    n;
  size_t    capacity;
} PendingModules;

struct _SpSpoolReader
{
  /* The file */
  int            fd;
  const uint8_t *map;
  size_t         map_len;
  uint64_t       parsed;         /* offset of the first unparsed byte */
  bool           has_header;
  SpSpoolError   damage;         /* code != NONE once damaged */
  SpSpoolError   tail;           /* why the bytes after `parsed` don't parse yet */

  uint64_t       start_timestamp_us;
  uint64_t       sample_interval_us;

  /* Tables, indexed by id */
  SpModule      *modules;
  uint64_t      *module_deactivated_at;  /* frame count at deactivation */
  size_t         n_modules;
  size_t         modules_capacity;
  SpInternTable  pending_of_pid;
  PendingModules *pending;
  size_t         pending_capacity;

  SpFrame       *frames;
  size_t        *frame_module_limit;     /* modules defined before the frame */
  size_t         n_frames;
  size_t         frames_capacity;

  SpStackNode   *stack_nodes;
  size_t         n_stack_nodes;
  size_t         stack_nodes_capacity;

  SpThread      *threads;
  size_t         n_threads;
  size_t         threads_capacity;

  SpProcessExec *execs;
  size_t         n_execs;
  size_t         execs_capacity;

  /* Samples, by column */
  uint64_t      *sample_ts;
  uint32_t      *sample_stack;
  void          *sample_thread;          /* uint16_t or uint32_t */
  bool           wide_threads;
  size_t         n_samples;
  size_t         samples_capacity;
  uint64_t       last_timestamp_ns;
};

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
  r->module_deactivated_at[r->n_modules] = NOT_DEACTIVATED;
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
  if (prefix != SP_SPOOL_NO_ID)
    {
      if (!check_u32_ref (c, prefix, r->n_stack_nodes, "stack prefix"))
        return false;
      node.prefix = (uint32_t) prefix;
      node.depth = r->stack_nodes[prefix].depth;
      if (node.depth != UINT32_MAX)
        node.depth++;
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

/* Thread indexes start at 16 bits each and widen once when one needs it. */
static bool
widen_sample_threads (SpSpoolReader *r)
{
  const uint16_t *narrow = r->sample_thread;
  uint32_t *wide = malloc ((r->samples_capacity ? r->samples_capacity : 1) * sizeof (uint32_t));

  if (wide == NULL)
    return false;
  for (size_t i = 0; i < r->n_samples; i++)
    wide[i] = narrow[i];
  free (r->sample_thread);
  r->sample_thread = wide;
  r->wide_threads = true;
  return true;
}

static bool
grow_samples (SpSpoolReader *r)
{
  size_t capacity = r->samples_capacity == 0 ? 4096 : r->samples_capacity * 2;
  uint64_t *ts = realloc (r->sample_ts, capacity * sizeof (uint64_t));
  uint32_t *stack;
  void *thread;

  if (ts == NULL)
    return false;
  r->sample_ts = ts;
  stack = realloc (r->sample_stack, capacity * sizeof (uint32_t));
  if (stack == NULL)
    return false;
  r->sample_stack = stack;
  thread = realloc (r->sample_thread, capacity * (r->wide_threads ? 4 : 2));
  if (thread == NULL)
    return false;
  r->sample_thread = thread;
  r->samples_capacity = capacity;
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
  if (__builtin_expect (thread > UINT16_MAX && !r->wide_threads, 0) && !widen_sample_threads (r))
    return no_memory (c);
  r->sample_ts[n] = ts;
  r->sample_stack[n] = (uint32_t) stack;
  if (r->wide_threads)
    ((uint32_t *) r->sample_thread)[n] = (uint32_t) thread;
  else
    ((uint16_t *) r->sample_thread)[n] = (uint16_t) thread;
  r->n_samples = n + 1;
  r->last_timestamp_ns = ts;
  return true;
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

/* Parses whole records from `parsed` to len. On a fault, `parsed` stays at
 * the start of the record that failed and *fault says why. */
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
        case SP_SPOOL_REC_SAMPLE:            ok = parse_sample (r, &c); break;
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

/* ---- Reading a file -------------------------------------------------- */

static const uint8_t empty_file[1];

static void
unmap (SpSpoolReader *r)
{
  if (r->map != NULL && r->map != empty_file)
    munmap ((void *) r->map, r->map_len);
  r->map = NULL;
  r->map_len = 0;
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
  return true;
}

static const char *
file_type_name (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISFIFO (mode))
    return "a FIFO (named pipe)";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISSOCK (mode))
    return "a socket";
  return "of an unknown type";
}

/* A FIFO would block open() until a writer comes, and a device read
 * forever: the file is opened without blocking and kept only if it is a
 * regular file. */
static int
open_regular (const char *path,
              SpSpoolError *err)
{
  struct stat st = { 0 };
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

  if (fd < 0)
    {
      sp_spool_error_set_errno (err, errno, "cannot open", path);
      return -1;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      sp_spool_error_set (err, SP_SPOOL_ERROR_IO, 0, 0, "%s is %s, not a regular file", path,
                          file_type_name (st.st_mode));
      close (fd);
      return -1;
    }
  if (fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK) != 0)
    {
      sp_spool_error_set_errno (err, errno, "cannot open", path);
      close (fd);
      return -1;
    }
  return fd;
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
  sp_intern_table_init (&r->pending_of_pid, 1);
  return r;
}

bool
sp_spool_reader_update (SpSpoolReader *r,
                        SpSpoolError *err)
{
  SpSpoolError fault;

  if (r->damage.code != SP_SPOOL_ERROR_NONE)
    goto damaged;
  if (r->fd < 0)
    return true;
  if (!map_file (r, &r->damage))
    goto damaged;

  sp_spool_error_clear (&fault);
  if (parse_records (r, r->map, r->map_len, &fault))
    {
      sp_spool_error_clear (&r->tail);
      return true;
    }
  if (fault.code == SP_SPOOL_ERROR_TRUNCATED)
    {
      r->tail = fault;
      return true;
    }
  r->damage = fault;

damaged:
  if (err != NULL)
    *err = r->damage;
  return false;
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

  shrink ((void **) &r->sample_ts, &capacity, r->n_samples, sizeof (uint64_t));
  capacity = r->samples_capacity;
  shrink ((void **) &r->sample_stack, &capacity, r->n_samples, sizeof (uint32_t));
  capacity = r->samples_capacity;
  shrink (&r->sample_thread, &capacity, r->n_samples, r->wide_threads ? 4 : 2);
  r->samples_capacity = capacity;
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
  return ok;
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
  free (r->sample_ts);
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
const uint64_t *sp_spool_reader_get_sample_timestamps (const SpSpoolReader *r) { return r->sample_ts; }
const uint32_t *sp_spool_reader_get_sample_stacks (const SpSpoolReader *r) { return r->sample_stack; }

uint32_t
sp_spool_reader_get_sample_thread (const SpSpoolReader *r,
                                   size_t index)
{
  if (r->wide_threads)
    return ((const uint32_t *) r->sample_thread)[index];
  return ((const uint16_t *) r->sample_thread)[index];
}

void
sp_spool_reader_get_sample (const SpSpoolReader *r,
                            size_t index,
                            SpSample *sample)
{
  sample->timestamp_ns = r->sample_ts[index];
  sample->thread = sp_spool_reader_get_sample_thread (r, index);
  sample->stack = r->sample_stack[index];
}

uint64_t
sp_spool_reader_get_sample_time_us (const SpSpoolReader *r,
                                    size_t index)
{
  uint64_t first = r->sample_ts[0];
  uint64_t ts = r->sample_ts[index];
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
