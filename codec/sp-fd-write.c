/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-fd-write.c: whole buffers to a file, and undoing a failed write. */
#include "sp-fd-write-private.h"

#include <errno.h>
#include <unistd.h>

bool
_sp_fd_write_all (int fd,
                  const uint8_t *data,
                  size_t len,
                  uint64_t *written)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return false;
      data += n;
      len -= (size_t) n;
      *written += (uint64_t) n;
    }
  return true;
}

void
_sp_fd_cut_back (int fd,
                 int64_t start_offset,
                 uint64_t boundary,
                 uint64_t *written)
{
  off_t end = (off_t) (start_offset + (int64_t) boundary);

  if (start_offset >= 0 && ftruncate (fd, end) == 0 && lseek (fd, end, SEEK_SET) == end)
    *written = boundary;
}
