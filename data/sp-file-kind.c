/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-file-kind.c: what a file that is not a spool looks like, and
 * whether it is a perf.data file the window converts first.
 *
 * A perf.data file, a program or a text file given to the viewer would
 * otherwise read as a spool damaged at byte 0, with no records: saying
 * what it is tells the user what to do instead. */
#include "sp-file-kind.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp-file-private.h"
#include "sp-spool-format.h"

/* How much of the file is looked at. */
#define HEAD_SIZE 512

/* perf's magic, "PERFILE2" as a 64-bit number: its bytes read "PERFILE2"
 * only in the byte order of the machine that wrote it (tools/perf's
 * header.c), so comparing numbers accepts this machine's files alone. */
#define PERF_MAGIC2 G_GUINT64_CONSTANT (0x32454c4946524550)

typedef struct {
  const char *magic;
  gsize       len;
  const char *what;
} Signature;

static const Signature signatures[] = {
  { "PERFILE2", 8, "a perf.data file (from perf record), not a spool: convert it first "
                   "(stackpulse-record --input FILE -o out.spool), or open it in the stackpulse window, "
                   "which converts it" },
  /* Worded as stackpulse-record --input refuses them (recorder/sp-input-kind.c). */
  { "2ELIFREP", 8, "a perf.data file from a machine of the other byte order, which stackpulse does not convert "
                   "(native byte order only)" },
  { "PERFFILE", 8, "an old-format perf.data file (before perf 2.6.35), which stackpulse does not read" },
  { "\x7f" "ELF", 4, "an ELF file (a program or a library), not a recording; "
                     "to profile a program: stackpulse-record -o out.spool -- PROGRAM" },
  { "\x1f\x8b", 2, "gzip-compressed: decompress it (gunzip) and open the result" },
  { "\x28\xb5\x2f\xfd", 4, "zstd-compressed: decompress it (unzstd) and open the result" },
  { "\xfd" "7zXZ", 5, "xz-compressed: decompress it (unxz) and open the result" },
  { "BZh", 3, "bzip2-compressed: decompress it (bunzip2) and open the result" },
};

static gboolean
is_text (const char *head,
         gsize len)
{
  const char *end = NULL;

  if (memchr (head, '\0', len) != NULL)
    return FALSE;
  /* The head may end inside a character. */
  if (!g_utf8_validate (head, (gssize) len, &end) && len - (gsize) (end - head) >= 4)
    return FALSE;
  for (const char *p = head; p < end; p++)
    if ((guchar) *p < 0x20 && *p != '\n' && *p != '\r' && *p != '\t' && *p != '\f')
      return FALSE;
  return TRUE;
}

/* "a text file (it begins \"hello world\")" */
static char *
describe_text (const char *head,
               gsize len)
{
  gsize line_len = strcspn (head, "\r\n");
  g_autofree char *line = g_utf8_make_valid (head, (gssize) MIN (MIN (line_len, len), 40));

  if (line[0] == '\0')
    return g_strdup ("a text file, not a stackpulse recording");
  return g_strdup_printf ("a text file (it begins \"%s%s\"), not a stackpulse recording", line,
                          line_len > 40 ? "…" : "");
}

static char *
describe (const char *head,
          gsize len)
{
  g_autoptr (GString) bytes = g_string_new (NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (signatures); i++)
    if (len >= signatures[i].len && memcmp (head, signatures[i].magic, signatures[i].len) == 0)
      return g_strdup (signatures[i].what);
  if (is_text (head, len))
    return describe_text (head, len);
  for (gsize i = 0; i < MIN (len, 8); i++)
    g_string_append_printf (bytes, "%s%02x", i > 0 ? " " : "", (guchar) head[i]);
  return g_strdup_printf ("not a stackpulse recording: it does not begin with the spool header "
                          "(its first bytes are %s)", bytes->str);
}

static gboolean
begins_as_spool (const char *head,
                 gsize len)
{
  return memcmp (head, SP_SPOOL_MAGIC, MIN (len, (gsize) SP_SPOOL_MAGIC_LEN)) == 0;
}

gboolean
_sp_file_check_spool (const char *path,
                      gboolean following,
                      GError **error)
{
  char head[HEAD_SIZE + 1];
  gssize len = 0;
  g_autofree char *what = NULL;
  struct stat st = { 0 };
  int fd = _sp_file_open_regular (path, error);

  if (fd < 0)
    return FALSE;
  /* Files in /proc say size 0, and some block a read (/proc/kmsg). */
  if (fstat (fd, &st) != 0 || st.st_size > 0)
    len = pread (fd, head, (size_t) MIN (st.st_size, HEAD_SIZE), 0);
  close (fd);
  if (len < 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_IO, "cannot read %s", path);
      return FALSE;
    }
  head[len] = '\0';
  if (len == 0 && following)
    return TRUE;
  if (len == 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   "%s is empty, not a stackpulse recording (a recording begins with a header)", path);
      return FALSE;
    }
  if (begins_as_spool (head, (gsize) len))
    return TRUE;
  what = describe (head, (gsize) len);
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s is %s", path, what);
  return FALSE;
}

gboolean
sp_file_kind_is_perf_data (const char *path)
{
  guint64 magic = 0;
  gssize len;
  int fd = _sp_file_open_regular (path, NULL);

  if (fd < 0)
    return FALSE;
  len = pread (fd, &magic, sizeof magic, 0);
  close (fd);
  return len == (gssize) sizeof magic && magic == PERF_MAGIC2;
}
