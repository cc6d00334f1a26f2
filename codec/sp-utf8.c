/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-utf8.c: the same state machine as Rust's core::str::from_utf8. */
#include "sp-utf8-private.h"

static size_t
char_width (uint8_t first)
{
  if (first >= 0xC2 && first <= 0xDF)
    return 2;
  if (first >= 0xE0 && first <= 0xEF)
    return 3;
  if (first >= 0xF0 && first <= 0xF4)
    return 4;
  return 0;
}

/* Whether second may follow first in a 3- or 4-byte sequence. */
static bool
second_byte_ok (uint8_t first,
                uint8_t second)
{
  switch (first)
    {
    case 0xE0: return second >= 0xA0 && second <= 0xBF;
    case 0xED: return second >= 0x80 && second <= 0x9F;
    case 0xF0: return second >= 0x90 && second <= 0xBF;
    case 0xF4: return second >= 0x80 && second <= 0x8F;
    default:   return second >= 0x80 && second <= 0xBF;
    }
}

static bool
is_continuation (uint8_t byte)
{
  return (byte & 0xC0) == 0x80;
}

static bool
fail (SpUtf8Error *error,
      size_t valid_up_to,
      size_t error_len)
{
  error->valid_up_to = valid_up_to;
  error->error_len = error_len;
  return false;
}

bool
_sp_utf8_validate (const uint8_t *bytes,
                   size_t len,
                   SpUtf8Error *error)
{
  size_t i = 0;

  while (i < len)
    {
      uint8_t first = bytes[i];
      size_t width;

      if (first < 0x80)
        {
          i++;
          continue;
        }
      width = char_width (first);
      if (width == 0)
        return fail (error, i, 1);
      for (size_t k = 1; k < width; k++)
        {
          bool ok;

          if (i + k >= len)
            return fail (error, i, 0);
          ok = k == 1 && width > 2 ? second_byte_ok (first, bytes[i + k])
                                   : is_continuation (bytes[i + k]);
          if (!ok)
            return fail (error, i, k);
        }
      i += width;
    }
  return true;
}
