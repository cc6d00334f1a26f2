/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-byte-cursor.h: reading fields from a record's bytes, front to back,
 * never past its end (perf's samples, perf.data's sections). */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef struct {
  const uint8_t *p;
  const uint8_t *end;
} SpByteCursor;

static inline bool
sp_byte_cursor_skip (SpByteCursor *c,
                     uint64_t bytes)
{
  if (bytes > (uint64_t) (c->end - c->p))
    return false;
  c->p += bytes;
  return true;
}

static inline bool
sp_byte_cursor_take_u64 (SpByteCursor *c,
                         uint64_t *value)
{
  if (c->end - c->p < 8)
    return false;
  memcpy (value, c->p, 8);
  c->p += 8;
  return true;
}

static inline bool
sp_byte_cursor_take_u32 (SpByteCursor *c,
                         uint32_t *value)
{
  if (c->end - c->p < 4)
    return false;
  memcpy (value, c->p, 4);
  c->p += 4;
  return true;
}

/* Records and their u64 fields are 8-byte aligned in the ring, in the
 * queue and in perf.data's read buffer, so arrays of u64 are handed out in
 * place. */
static inline bool
sp_byte_cursor_take_u64_array (SpByteCursor *c,
                               uint64_t n,
                               const uint64_t **values)
{
  if (n > (uint64_t) (c->end - c->p) / 8)
    return false;
  *values = (const uint64_t *) (const void *) c->p;
  c->p += n * 8;
  return true;
}
