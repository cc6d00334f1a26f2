/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-file.c: regular files only, opened without blocking (the codec's
 * sp-safe-open), read bounded; errors as GError. */
#include "sp-file-private.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp-safe-open.h"

/* The codec's safe open, worded as a GError (g_strerror: UTF-8 in any
 * locale, as a GError message must be). */
int
_sp_file_open_regular (const char *path,
                       GError **error)
{
  SpSafeOpenFailure failure;
  int fd = sp_safe_open_regular (path, &failure);

  if (fd >= 0)
    return fd;
  if (failure.file_type != NULL)
    g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL, SP_SAFE_OPEN_NOT_REGULAR_FORMAT, path,
                 failure.file_type);
  else
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (failure.sys_errno), "cannot open %s: %s", path,
                 g_strerror (failure.sys_errno));
  return -1;
}

gboolean
_sp_file_is_absent_or_regular (const char *path)
{
  struct stat st;

  return stat (path, &st) != 0 || S_ISREG (st.st_mode);
}

static void
set_too_big_error (GError **error,
                   const char *path,
                   gsize max_size)
{
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s is larger than %" G_GSIZE_FORMAT " MiB: not read",
               path, max_size >> 20);
}

/* Reads up to size bytes (the size fstat gave: a file that grows is read
 * as it was), or with to_end until the end of the file, failing past
 * max_size. */
static gboolean
read_all (int fd,
          const char *path,
          gsize size,
          gboolean to_end,
          gsize max_size,
          GByteArray *bytes,
          GError **error)
{
  guint8 chunk[65536];

  while (to_end || bytes->len < size)
    {
      gsize want = to_end ? sizeof chunk : MIN (sizeof chunk, size - bytes->len);
      gssize n = read (fd, chunk, want);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), "cannot read %s: %s", path,
                       g_strerror (saved_errno));
          return FALSE;
        }
      if (n == 0)
        break;
      if (bytes->len + (gsize) n > max_size)
        {
          set_too_big_error (error, path, max_size);
          return FALSE;
        }
      g_byte_array_append (bytes, chunk, (guint) n);
    }
  return TRUE;
}

gboolean
_sp_file_read_regular (const char *path,
                       gsize max_size,
                       gboolean past_size,
                       char **contents,
                       gsize *length,
                       GError **error)
{
  g_autoptr (GByteArray) bytes = NULL;
  struct stat st = { 0 };
  int fd = _sp_file_open_regular (path, error);
  gboolean ok;

  if (fd < 0)
    return FALSE;
  if (fstat (fd, &st) == 0 && (guint64) st.st_size > max_size)
    {
      close (fd);
      set_too_big_error (error, path, max_size);
      return FALSE;
    }
  bytes = g_byte_array_sized_new ((guint) MAX (st.st_size, 0) + 1);
  ok = read_all (fd, path, (gsize) MAX (st.st_size, 0), past_size, max_size, bytes, error);
  close (fd);
  if (!ok)
    return FALSE;
  if (length != NULL)
    *length = bytes->len;
  g_byte_array_append (bytes, (const guint8 *) "", 1);
  *contents = (char *) g_byte_array_free (g_steal_pointer (&bytes), FALSE);
  return TRUE;
}
