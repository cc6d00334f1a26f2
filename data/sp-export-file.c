/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-export-file.c: temporary file, write, sync, rename. */
#include "sp-export-file.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

#include "sp-export-pprof.h"
#include "sp-export-speedscope.h"
#include "sp-export.h"

static const char *const format_names[] = { "collapsed", "pprof", "speedscope" };

gboolean
sp_export_format_from_name (const char *name,
                            SpExportFormat *format)
{
  for (guint i = 0; i < G_N_ELEMENTS (format_names); i++)
    if (g_str_equal (name, format_names[i]))
      {
        *format = (SpExportFormat) i;
        return TRUE;
      }
  return FALSE;
}

const char *
sp_export_format_extension (SpExportFormat format)
{
  static const char *const extensions[] = { ".folded", ".pb.gz", ".speedscope.json" };

  return extensions[format];
}

gboolean
sp_export_to_stream (SpProfile *profile,
                     const SpFilter *filter,
                     SpExportFormat format,
                     FILE *out)
{
  switch (format)
    {
    case SP_EXPORT_PPROF:
      return sp_export_pprof (profile, filter, out);
    case SP_EXPORT_SPEEDSCOPE:
      return sp_export_speedscope (profile, filter, out);
    case SP_EXPORT_COLLAPSED:
    default:
      return sp_export_collapsed (profile, filter, out);
    }
}

static gboolean
fail (GError **error,
      const char *path,
      int saved_errno)
{
  g_autofree char *display = g_filename_display_name (path);

  /* A failed fwrite may leave errno unset on some paths: still a reason. */
  g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno), "cannot write %s: %s", display,
               saved_errno != 0 ? g_strerror (saved_errno) : "write error");
  return FALSE;
}

/* Only a regular file is replaced; a link is not followed (nor replaced:
 * the file it names would stay as it was, which is not what was asked). */
static gboolean
check_target (const char *path,
              GError **error)
{
  g_autofree char *display = g_filename_display_name (path);
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return errno == ENOENT ? TRUE : fail (error, path, errno);
  if (S_ISREG (st.st_mode))
    return TRUE;
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_EXIST, "cannot write %s: it exists and is %s, not a regular file",
               display, S_ISDIR (st.st_mode) ? "a folder" : S_ISLNK (st.st_mode) ? "a symbolic link"
               : S_ISFIFO (st.st_mode) ? "a FIFO" : S_ISCHR (st.st_mode) || S_ISBLK (st.st_mode) ? "a device"
               : "a special file");
  return FALSE;
}

/* Writes the export to fd (closed here), synced: a full disk may show
 * only when the data is flushed or synced. Returns 0 or an errno. */
static int
write_fd (SpProfile *profile,
          const SpFilter *filter,
          SpExportFormat format,
          int fd)
{
  FILE *out = fdopen (fd, "wb");
  int saved;

  if (out == NULL)
    {
      saved = errno;
      close (fd);
      return saved;
    }
  errno = 0;
  if (!sp_export_to_stream (profile, filter, format, out) || fsync (fileno (out)) != 0)
    {
      saved = errno != 0 ? errno : EIO;
      fclose (out);
      return saved;
    }
  return fclose (out) == 0 ? 0 : errno;
}

gboolean
sp_export_to_file (SpProfile *profile,
                   const SpFilter *filter,
                   SpExportFormat format,
                   const char *path,
                   GError **error)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *base = g_path_get_basename (path);
  g_autofree char *tmp = g_strdup_printf ("%s/.%s.XXXXXX", dir, base);
  int fd, saved;

  if (!check_target (path, error))
    return FALSE;
  /* 0666 before the umask, as any file a program creates. */
  fd = g_mkstemp_full (tmp, O_WRONLY | O_CLOEXEC, 0666);
  if (fd < 0)
    return fail (error, path, errno);
  saved = write_fd (profile, filter, format, fd);
  if (saved == 0 && g_rename (tmp, path) != 0)
    saved = errno;
  if (saved != 0)
    {
      g_unlink (tmp);
      return fail (error, path, saved);
    }
  return TRUE;
}
