/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-fd-write-private.h: how the codec's writers hand a buffer to a file.
 *
 * The spool writer and the off-CPU stream's writer both write whole
 * records from a buffer; a write that fails (a full disk) is undone by
 * cutting the file back to the last record boundary, so what stays is a
 * valid file. libc only. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Writes data[0..len) to fd, retrying short writes and EINTR; *written
 * grows by what went out. On failure returns false with errno set. */
bool _sp_fd_write_all (int fd,
                       const uint8_t *data,
                       size_t len,
                       uint64_t *written);

/* After a failed write: the file (begun at start_offset in fd, -1 when it
 * cannot be cut) ends at boundary again, and *written says so. */
void _sp_fd_cut_back (int fd,
                      int64_t start_offset,
                      uint64_t boundary,
                      uint64_t *written);
