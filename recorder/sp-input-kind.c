/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-input-kind.c: naming a file by its magic, or as text, or by its
 * first bytes. */
#include "sp-input-kind.h"

#include <stdio.h>
#include <string.h>

#include "sp-perf-data-format.h"
#include "sp-spool-format.h"

typedef struct {
  const char *magic;
  size_t      len;
  const char *what;
} Signature;

static const Signature signatures[] = {
  { SP_SPOOL_MAGIC, SP_SPOOL_MAGIC_LEN, "a stackpulse recording already (a spool): open it with stackpulse" },
  { SP_PERF_DATA_MAGIC_SWAPPED, 8, "a perf.data file from a machine of the other byte order, which stackpulse "
                                   "does not convert (native byte order only)" },
  { "PERFFILE", 8, "an old-format perf.data file (before perf 2.6.35), which stackpulse does not read" },
  { "\x7f" "ELF", 4, "an ELF file (a program or a library), not a perf.data file" },
  { "\x1f\x8b", 2, "gzip-compressed: decompress it (gunzip) and convert the result" },
  { "\x28\xb5\x2f\xfd", 4, "zstd-compressed: decompress it (unzstd) and convert the result" },
  { "\xfd" "7zXZ", 5, "xz-compressed: decompress it (unxz) and convert the result" },
  { "BZh", 3, "bzip2-compressed: decompress it (bunzip2) and convert the result" },
};

/* Printable ASCII or UTF-8 lead and continuation bytes, and white space. */
static bool
is_text (const uint8_t *head,
         size_t len)
{
  for (size_t i = 0; i < len; i++)
    if (head[i] == 0 || (head[i] < 0x20 && head[i] != '\n' && head[i] != '\r' && head[i] != '\t' && head[i] != '\f')
        || head[i] == 0x7f)
      return false;
  return true;
}

void
sp_input_kind_describe (const uint8_t *head,
                        size_t len,
                        char *out,
                        size_t out_size)
{
  for (size_t i = 0; i < sizeof signatures / sizeof *signatures; i++)
    if (len >= signatures[i].len && memcmp (head, signatures[i].magic, signatures[i].len) == 0)
      {
        snprintf (out, out_size, "%s", signatures[i].what);
        return;
      }
  if (is_text (head, len))
    {
      size_t line = 0;

      while (line < len && head[line] != '\r' && head[line] != '\n')
        line++;
      snprintf (out, out_size, "a text file (it begins \"%.*s%s\"), not a perf.data file",
                (int) (line < 40 ? line : 40),
                (const char *) head, line > 40 ? "..." : "");
      return;
    }
  snprintf (out, out_size, "not a perf.data file: it does not begin with perf's magic PERFILE2 (its first bytes are");
  for (size_t i = 0; i < len && i < 8; i++)
    snprintf (out + strlen (out), out_size - strlen (out), " %02x", head[i]);
  snprintf (out + strlen (out), out_size - strlen (out), ")");
}
