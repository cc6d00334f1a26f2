/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-protobuf.c: varints and length-delimited fields (the wire format of
 * https://protobuf.dev/programming-guides/encoding/). */
#include "sp-protobuf.h"

enum { WIRE_VARINT = 0, WIRE_LENGTH = 2 };

void
sp_proto_varint (GByteArray *buf,
                 guint64 value)
{
  guint8 bytes[10];
  guint n = 0;

  do
    {
      bytes[n++] = (guint8) ((value & 0x7f) | (value >= 0x80 ? 0x80 : 0));
      value >>= 7;
    }
  while (value != 0);
  g_byte_array_append (buf, bytes, n);
}

static void
tag (GByteArray *buf,
     guint field,
     guint wire_type)
{
  sp_proto_varint (buf, (guint64) field << 3 | wire_type);
}

void
sp_proto_uint (GByteArray *buf,
               guint field,
               guint64 value)
{
  if (value == 0)
    return;
  tag (buf, field, WIRE_VARINT);
  sp_proto_varint (buf, value);
}

void
sp_proto_int (GByteArray *buf,
              guint field,
              gint64 value)
{
  /* int64 (not sint64): a negative number is its ten-byte two's complement. */
  sp_proto_uint (buf, field, (guint64) value);
}

void
sp_proto_bytes (GByteArray *buf,
                guint field,
                const void *data,
                gsize len)
{
  tag (buf, field, WIRE_LENGTH);
  sp_proto_varint (buf, len);
  g_byte_array_append (buf, data, (guint) len);
}

void
sp_proto_message (GByteArray *buf,
                  guint field,
                  const GByteArray *message)
{
  sp_proto_bytes (buf, field, message->data, message->len);
}

void
sp_proto_packed (GByteArray *buf,
                 guint field,
                 const guint64 *values,
                 guint n)
{
  g_autoptr (GByteArray) packed = NULL;

  if (n == 0)
    return;
  packed = g_byte_array_new ();
  for (guint i = 0; i < n; i++)
    sp_proto_varint (packed, values[i]);
  sp_proto_message (buf, field, packed);
}
