/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-ring.c: the consumer side of the perf mmap protocol. */
#include "sp-perf-ring.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A record's size is a u16. */
#define MAX_RECORD_SIZE 65536

int
sp_perf_ring_map (SpPerfRing *ring,
                  int fd,
                  size_t data_pages)
{
  size_t page_size = (size_t) sysconf (_SC_PAGESIZE);
  void *map;

  memset (ring, 0, sizeof *ring);
  ring->fd = fd;
  ring->mmap_len = (1 + data_pages) * page_size;
  map = mmap (NULL, ring->mmap_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED)
    return errno;
  ring->scratch = malloc (MAX_RECORD_SIZE);
  if (ring->scratch == NULL)
    {
      munmap (map, ring->mmap_len);
      return ENOMEM;
    }
  ring->page = map;
  ring->data = (uint8_t *) map + page_size;
  ring->data_size = data_pages * page_size;
  return 0;
}

void
sp_perf_ring_unmap (SpPerfRing *ring)
{
  if (ring->page != NULL)
    munmap (ring->page, ring->mmap_len);
  free (ring->scratch);
  memset (ring, 0, sizeof *ring);
  ring->fd = -1;
}

size_t
sp_perf_ring_drain (SpPerfRing *ring,
                    SpPerfRecordFunc func,
                    void *user_data)
{
  uint64_t head, tail;
  size_t mask = ring->data_size - 1;
  size_t count = 0;

  if (ring->page == NULL)
    return 0;
  /* Acquire: the records before head are fully written. */
  head = __atomic_load_n (&ring->page->data_head, __ATOMIC_ACQUIRE);
  tail = ring->page->data_tail;

  while (tail < head)
    {
      size_t offset = (size_t) tail & mask;
      const struct perf_event_header *header = (const void *) (ring->data + offset);
      struct perf_event_header copy;
      size_t size;

      /* Even the header may wrap. */
      if (offset + sizeof copy > ring->data_size)
        {
          size_t first = ring->data_size - offset;

          memcpy (&copy, ring->data + offset, first);
          memcpy ((uint8_t *) &copy + first, ring->data, sizeof copy - first);
          header = &copy;
        }
      size = header->size;
      if (size < sizeof *header || size > head - tail)
        break;  /* cannot happen with a sane kernel; never loop forever */
      if (offset + size > ring->data_size)
        {
          size_t first = ring->data_size - offset;

          memcpy (ring->scratch, ring->data + offset, first);
          memcpy (ring->scratch + first, ring->data, size - first);
          header = (const void *) ring->scratch;
        }
      func (header, user_data);
      tail += size;
      count++;
    }
  /* Release: we are done reading what lies before the new tail. */
  __atomic_store_n (&ring->page->data_tail, tail, __ATOMIC_RELEASE);
  return count;
}
