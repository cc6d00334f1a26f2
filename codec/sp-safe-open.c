/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-safe-open.c: regular files only, opened without blocking. */
#include "sp-safe-open.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/stat.h>
#include <unistd.h>

const char *
sp_safe_open_file_type_name (mode_t mode)
{
  if (S_ISREG (mode))
    return NULL;
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISFIFO (mode))
    return "a FIFO (named pipe)";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISSOCK (mode))
    return "a socket";
  return "of an unknown type";
}

static int
fail_errno (SpSafeOpenFailure *failure,
            int sys_errno)
{
  failure->sys_errno = sys_errno;
  failure->file_type = NULL;
  return -1;
}

/* A FIFO would block open() until a writer comes, and a device read
 * forever: the file is opened without blocking and kept only if it is a
 * regular file. */
int
sp_safe_open_regular (const char *path,
                      SpSafeOpenFailure *failure)
{
  struct stat st = { 0 };
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  int saved_errno;

  if (fd < 0)
    return fail_errno (failure, errno);
  if (fstat (fd, &st) != 0)
    st.st_mode = 0; /* refused below as "of an unknown type" */
  if (!S_ISREG (st.st_mode))
    {
      close (fd);
      failure->sys_errno = 0;
      failure->file_type = sp_safe_open_file_type_name (st.st_mode);
      return -1;
    }
  /* Regular files ignore O_NONBLOCK today; readers must not depend on it. */
  if (fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK) != 0)
    {
      saved_errno = errno;
      close (fd);
      return fail_errno (failure, saved_errno);
    }
  return fd;
}
