/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-ring.h: one perf_event ring buffer, read without blocking.
 *
 * The kernel appends records at data_head; we consume up to it and move
 * data_tail so the space can be reused. A record that wraps around the end
 * of the buffer is copied into a scratch area so callers always see it in
 * one piece. */
#pragma once

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  int                          fd;
  struct perf_event_mmap_page *page;
  size_t                       mmap_len;
  uint8_t                     *data;
  size_t                       data_size;     /* a power of two */
  uint8_t                     *scratch;       /* room for one wrapped record */
} SpPerfRing;

/* Maps 1 + data_pages pages of fd (data_pages a power of two). Returns an
 * errno value, 0 on success. */
int sp_perf_ring_map (SpPerfRing *ring,
                      int fd,
                      size_t data_pages);

void sp_perf_ring_unmap (SpPerfRing *ring);

typedef void (*SpPerfRecordFunc) (const struct perf_event_header *header,
                                  void *user_data);

/* Hands every record available now to func; returns how many. */
size_t sp_perf_ring_drain (SpPerfRing *ring,
                           SpPerfRecordFunc func,
                           void *user_data);
