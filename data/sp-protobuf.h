/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-protobuf.h: the few protocol buffers encodings pprof needs.
 *
 * Written by hand rather than generated with protobuf-c: profile.proto
 * uses only varints, packed varints, strings and nested messages (five
 * small message types), so about a hundred lines do what a generated
 * library and a build-time compiler would, and the export has no new
 * dependency. Proto3 rules: a scalar 0 is left out; repeated fields are
 * always written. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void sp_proto_varint (GByteArray *buf,
                      guint64 value);
/* A varint field (uint64, int64 as two's complement, bool); 0 is left out. */
void sp_proto_uint (GByteArray *buf,
                    guint field,
                    guint64 value);
void sp_proto_int (GByteArray *buf,
                   guint field,
                   gint64 value);
/* A string or bytes field, written even when empty (a repeated string). */
void sp_proto_bytes (GByteArray *buf,
                     guint field,
                     const void *data,
                     gsize len);
/* A nested message, already encoded. */
void sp_proto_message (GByteArray *buf,
                       guint field,
                       const GByteArray *message);
/* A packed repeated varint field; nothing for n == 0. */
void sp_proto_packed (GByteArray *buf,
                      guint field,
                      const guint64 *values,
                      guint n);

G_END_DECLS
