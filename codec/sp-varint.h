/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-varint.h: LEB128 varints as the spool writes them.
 *
 * Encoding only; the reader decodes in sp-spool-reader.c, where it must
 * reproduce the reference reader's exact verdicts on odd inputs. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* The longest encoding of a 64-bit value. */
#define SP_VARINT_MAX_LEN 10

/* Writes v to out (at least SP_VARINT_MAX_LEN bytes); returns the length. */
static inline size_t
sp_varint_put_u64 (uint8_t *out, uint64_t v)
{
  size_t n = 0;

  while (v >= 0x80)
    {
      out[n++] = (uint8_t) (v | 0x80);
      v >>= 7;
    }
  out[n++] = (uint8_t) v;
  return n;
}

static inline uint64_t
sp_zigzag_encode (int64_t v)
{
  return ((uint64_t) v << 1) ^ (uint64_t) (v >> 63);
}

static inline int64_t
sp_zigzag_decode (uint64_t v)
{
  return (int64_t) (v >> 1) ^ -(int64_t) (v & 1);
}

static inline size_t
sp_varint_put_i64 (uint8_t *out, int64_t v)
{
  return sp_varint_put_u64 (out, sp_zigzag_encode (v));
}
