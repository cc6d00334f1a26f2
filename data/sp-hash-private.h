/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-hash-private.h: a GHashFunc for 64-bit keys that mixes all the bits.
 *
 * GLib 2.74's g_int64_hash looks at the low 32 bits only; keys made of two
 * 32-bit halves (stack and pid, frame and pid) would share hash chains. */
#pragma once

#include <glib.h>

static inline guint
_sp_int64_hash (gconstpointer key)
{
  guint64 k = *(const guint64 *) key;

  k ^= k >> 33;
  k *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  k ^= k >> 33;
  return (guint) k;
}
