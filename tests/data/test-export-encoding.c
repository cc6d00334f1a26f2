/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-export-encoding.c: the exports' hand-written encoders, byte by
 * byte: protocol buffers varints and fields (pprof), JSON strings
 * (speedscope). The formats as a whole are read back by the real readers
 * in tests/report/test-report-pprof.c and test-report-speedscope.c. */
#include <glib.h>
#include <string.h>

#include "sp-export-speedscope.h"
#include "sp-protobuf.h"

/* The bytes as "08 96 01". */
static char *
hex (const GByteArray *buf)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < buf->len; i++)
    g_string_append_printf (text, i > 0 ? " %02x" : "%02x", buf->data[i]);
  return g_string_free (text, FALSE);
}

static void
assert_varint (guint64 value,
               const char *expected)
{
  g_autoptr (GByteArray) buf = g_byte_array_new ();
  g_autofree char *got = NULL;

  sp_proto_varint (buf, value);
  got = hex (buf);
  g_assert_cmpstr (got, ==, expected);
}

static void
test_varints (void)
{
  assert_varint (0, "00");
  assert_varint (1, "01");
  assert_varint (127, "7f");
  assert_varint (128, "80 01");
  assert_varint (300, "ac 02");
  assert_varint (G_MAXUINT64, "ff ff ff ff ff ff ff ff ff 01");
}

/* The examples of protobuf.dev's encoding guide: field 1 = 150 is
 * "08 96 01", field 2 = "testing" is "12 07 74 65 73 74 69 6e 67". */
static void
test_fields (void)
{
  g_autoptr (GByteArray) buf = g_byte_array_new ();
  g_autoptr (GByteArray) nested = g_byte_array_new ();
  g_autofree char *got = NULL;
  guint64 packed[] = { 3, 270, 86942 };

  sp_proto_uint (buf, 1, 150);
  sp_proto_uint (buf, 5, 0);   /* proto3: a zero scalar is left out */
  sp_proto_bytes (buf, 2, "testing", 7);
  sp_proto_int (buf, 3, -1);   /* int64: ten bytes */
  sp_proto_packed (buf, 4, packed, 3);
  sp_proto_packed (buf, 6, packed, 0);
  sp_proto_uint (nested, 1, 150);
  sp_proto_message (buf, 3, nested);
  sp_proto_bytes (buf, 6, "", 0);  /* a repeated string is written even empty */
  got = hex (buf);
  g_assert_cmpstr (got, ==, "08 96 01 12 07 74 65 73 74 69 6e 67 18 ff ff ff ff ff ff ff ff ff 01 "
                            "22 06 03 8e 02 9e a7 05 1a 03 08 96 01 32 00");
}

static void
assert_json (const char *s,
             const char *expected)
{
  g_autoptr (GString) json = g_string_new (NULL);

  sp_json_append_string (json, s);
  g_assert_cmpstr (json->str, ==, expected);
}

static void
test_json_strings (void)
{
  assert_json ("main", "\"main\"");
  assert_json ("operator\"\"_x", "\"operator\\\"\\\"_x\"");
  assert_json ("C:\\dir", "\"C:\\\\dir\"");
  assert_json ("a\nb\tc\x01", "\"a\\nb\\tc\\u0001\"");
  assert_json ("caf\xc3\xa9", "\"caf\xc3\xa9\"");          /* UTF-8 as it is */
  assert_json ("bad\xff", "\"bad\xef\xbf\xbd\"");          /* invalid: U+FFFD */
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/export-encoding/varints", test_varints);
  g_test_add_func ("/data/export-encoding/fields", test_fields);
  g_test_add_func ("/data/export-encoding/json-strings", test_json_strings);
  return g_test_run ();
}
