/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-reader.c: follows the off-CPU companion stream (libc only).
 *
 * Each update reads the bytes appended since the last one (pread from
 * where parsing stopped) and decodes the whole records among them; a
 * record cut by the end of the file waits for the rest, and becomes
 * damage only when following ends. Records are kept as an array. */
#include "sp-offcpu.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp-safe-open.h"
#include "sp-varint.h"

#define READ_CHUNK (64 * 1024)

struct _SpOffCpuReader
{
  int             fd;
  uint64_t        parsed;        /* bytes of the file decoded: a record boundary */
  bool            has_magic;
  SpSpoolError    damage;        /* code NONE while there is none */
  uint64_t        last_timestamp_ns;
  uint64_t        synced;
  SpOffCpuRecord *records;
  size_t          n_records;
  size_t          capacity;
};

/* Where decoding is: a record is committed only once it is whole. */
typedef struct {
  const uint8_t *p;
  const uint8_t *end;
} Cursor;

typedef enum { DECODED, CUT, BROKEN } Outcome;

static Outcome
read_u64 (Cursor *c,
          uint64_t *out)
{
  uint64_t v = 0;

  for (unsigned i = 0; i < SP_VARINT_MAX_LEN; i++)
    {
      uint8_t b;

      if (c->p == c->end)
        return CUT;
      b = *c->p++;
      v |= (uint64_t) (b & 0x7f) << (7 * i);
      if (!(b & 0x80))
        {
          *out = v;
          return i == SP_VARINT_MAX_LEN - 1 && b > 1 ? BROKEN : DECODED;
        }
    }
  return BROKEN;
}

static Outcome
read_u32 (Cursor *c,
          uint32_t *out)
{
  uint64_t v = 0;
  Outcome outcome = read_u64 (c, &v);

  if (outcome == DECODED && v > UINT32_MAX)
    return BROKEN;
  *out = (uint32_t) v;
  return outcome;
}

static Outcome
read_byte (Cursor *c,
           uint8_t *out)
{
  if (c->p == c->end)
    return CUT;
  *out = *c->p++;
  return DECODED;
}

#define TRY(expr) do { Outcome o_ = (expr); if (o_ != DECODED) return o_; } while (0)

/* One record into *record (timestamps still deltas: *delta). */
static Outcome
decode (Cursor *c,
        SpOffCpuRecord *record,
        int64_t *delta)
{
  uint64_t raw = 0;

  memset (record, 0, sizeof *record);
  *delta = 0;
  TRY (read_byte (c, &record->tag));
  switch (record->tag)
    {
    case SP_OFFCPU_SYNC:
      return read_u64 (c, &record->spool_bytes);
    case SP_OFFCPU_SWITCH_OUT:
      TRY (read_u64 (c, &raw));
      TRY (read_u32 (c, &record->thread));
      TRY (read_byte (c, &record->state));
      TRY (read_u32 (c, &record->stack));
      *delta = sp_zigzag_decode (raw);
      return record->state == SP_OFFCPU_BLOCKED || record->state == SP_OFFCPU_RUNNABLE ? DECODED : BROKEN;
    case SP_OFFCPU_SWITCH_IN:
    case SP_OFFCPU_THREAD_END:
      TRY (read_u64 (c, &raw));
      TRY (read_u32 (c, &record->thread));
      *delta = sp_zigzag_decode (raw);
      return DECODED;
    default:
      return BROKEN;
    }
}

static bool
append (SpOffCpuReader *reader,
        const SpOffCpuRecord *record)
{
  if (reader->n_records == reader->capacity)
    {
      size_t capacity = reader->capacity ? 2 * reader->capacity : 1024;
      SpOffCpuRecord *grown = realloc (reader->records, capacity * sizeof *grown);

      if (grown == NULL)
        return false;
      reader->records = grown;
      reader->capacity = capacity;
    }
  reader->records[reader->n_records++] = *record;
  return true;
}

static void
set_damage (SpOffCpuReader *reader,
            uint64_t offset,
            const char *what)
{
  /* The offset is the error's: the reader's caller says where. */
  sp_spool_error_set (&reader->damage, SP_SPOOL_ERROR_INVALID, offset, offset, "%s", what);
}

/* Decodes the whole records of data (which starts at reader->parsed);
 * returns how many bytes they took. */
static size_t
decode_all (SpOffCpuReader *reader,
            const uint8_t *data,
            size_t len)
{
  Cursor c = { data, data + len };

  if (!reader->has_magic)
    {
      /* A few bytes that cannot begin the magic are no companion either. */
      if (memcmp (data, SP_OFFCPU_MAGIC, len < SP_OFFCPU_MAGIC_LEN ? len : SP_OFFCPU_MAGIC_LEN) != 0)
        {
          set_damage (reader, 0, "not an off-CPU stream (no SPOFF1 magic)");
          return 0;
        }
      if (len < SP_OFFCPU_MAGIC_LEN)
        return 0;
      reader->has_magic = true;
      c.p = data + SP_OFFCPU_MAGIC_LEN;
    }
  while (c.p < c.end)
    {
      const uint8_t *record_start = c.p;
      SpOffCpuRecord record;
      int64_t delta;
      Outcome outcome = decode (&c, &record, &delta);

      if (outcome == CUT)
        return (size_t) (record_start - data);
      if (outcome == BROKEN || !append (reader, &record))
        {
          set_damage (reader, reader->parsed + (uint64_t) (record_start - data),
                      outcome == BROKEN ? "a malformed record" : "out of memory");
          return (size_t) (record_start - data);
        }
      if (record.tag == SP_OFFCPU_SYNC)
        reader->synced = record.spool_bytes;
      else
        {
          reader->last_timestamp_ns += (uint64_t) delta;
          reader->records[reader->n_records - 1].timestamp_ns = reader->last_timestamp_ns;
        }
    }
  return len;
}

SpOffCpuReader *
sp_offcpu_reader_open_follow (const char *path,
                              SpSpoolError *err)
{
  SpSafeOpenFailure failure;
  int fd = sp_safe_open_regular (path, &failure);
  SpOffCpuReader *reader;

  if (fd < 0)
    {
      if (failure.file_type != NULL)
        sp_spool_error_set (err, SP_SPOOL_ERROR_IO, 0, 0, SP_SAFE_OPEN_NOT_REGULAR_FORMAT, path, failure.file_type);
      else
        sp_spool_error_set_errno (err, failure.sys_errno, "cannot open", path);
      return NULL;
    }
  reader = calloc (1, sizeof *reader);
  if (reader == NULL)
    {
      close (fd);
      sp_spool_error_set (err, SP_SPOOL_ERROR_NO_MEMORY, 0, 0, "out of memory");
      return NULL;
    }
  reader->fd = fd;
  return reader;
}

/* Reads from reader->parsed to the end of the file as it is now. */
static uint8_t *
read_tail (SpOffCpuReader *reader,
           size_t *len,
           SpSpoolError *err)
{
  size_t used = 0, capacity = READ_CHUNK;
  uint8_t *data = malloc (capacity);

  while (data != NULL)
    {
      ssize_t n;

      if (used == capacity)
        {
          uint8_t *grown = realloc (data, capacity *= 2);

          if (grown == NULL)
            break;
          data = grown;
        }
      n = pread (reader->fd, data + used, capacity - used, (off_t) (reader->parsed + used));
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          sp_spool_error_set_errno (err, errno, "cannot read the off-CPU stream", NULL);
          free (data);
          return NULL;
        }
      if (n == 0)
        {
          *len = used;
          return data;
        }
      used += (size_t) n;
    }
  free (data);
  sp_spool_error_set (err, SP_SPOOL_ERROR_NO_MEMORY, 0, 0, "out of memory");
  return NULL;
}

bool
sp_offcpu_reader_update (SpOffCpuReader *reader,
                         SpSpoolError *err)
{
  size_t len = 0;
  uint8_t *data;

  if (reader->damage.code != SP_SPOOL_ERROR_NONE)
    {
      if (err != NULL)
        *err = reader->damage;
      return false;
    }
  if (reader->fd < 0)
    return true;
  data = read_tail (reader, &len, err);
  if (data == NULL)
    return false;
  reader->parsed += decode_all (reader, data, len);
  free (data);
  if (reader->damage.code != SP_SPOOL_ERROR_NONE)
    {
      if (err != NULL)
        *err = reader->damage;
      return false;
    }
  return true;
}

bool
sp_offcpu_reader_finish (SpOffCpuReader *reader,
                         SpSpoolError *err)
{
  off_t end;
  bool ok = sp_offcpu_reader_update (reader, err);

  if (reader->fd < 0)
    return ok;
  end = lseek (reader->fd, 0, SEEK_END);
  if (ok && end >= 0 && (uint64_t) end > reader->parsed)
    {
      sp_spool_error_set (&reader->damage, SP_SPOOL_ERROR_TRUNCATED, reader->parsed, (uint64_t) end,
                          reader->has_magic ? "the last record is incomplete" : "the header is incomplete");
      if (err != NULL)
        *err = reader->damage;
      ok = false;
    }
  close (reader->fd);
  reader->fd = -1;
  return ok;
}

void
sp_offcpu_reader_free (SpOffCpuReader *reader)
{
  if (reader == NULL)
    return;
  if (reader->fd >= 0)
    close (reader->fd);
  free (reader->records);
  free (reader);
}

bool
sp_offcpu_reader_has_header (const SpOffCpuReader *reader)
{
  return reader->has_magic;
}

const SpSpoolError *
sp_offcpu_reader_get_damage (const SpOffCpuReader *reader)
{
  return reader->damage.code != SP_SPOOL_ERROR_NONE ? &reader->damage : NULL;
}

size_t
sp_offcpu_reader_get_n_records (const SpOffCpuReader *reader)
{
  return reader->n_records;
}

const SpOffCpuRecord *
sp_offcpu_reader_get_records (const SpOffCpuReader *reader)
{
  return reader->records;
}

uint64_t
sp_offcpu_reader_get_synced_spool_bytes (const SpOffCpuReader *reader)
{
  return reader->synced;
}
