/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-file.c: a perf.data file's header, attributes and feature
 * sections (file mode), or a pipe's header. Every offset and size read
 * from the file is checked against the file's size before it is used. */
#include "sp-perf-data-file.h"

#include "sp-perf-data-read-ahead.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Sections larger than this are not feature data perf writes. */
#define MAX_FEATURE_SIZE (64u * 1024 * 1024)
#define MAX_EVENTS       4096
#define MAX_IDS          (1u << 20)

/* Every event's ids together: a small file may point all of its events
 * at one large ids section (or repeat attribute records), which must not
 * become gigabytes of memory. */
static bool
ids_fit (const SpPerfData *data,
         uint64_t more)
{
  uint64_t total = more;

  for (size_t i = 0; i < data->n_events; i++)
    total += data->events[i].n_ids;
  return total <= MAX_IDS;
}

static bool
read_at (int fd,
         uint64_t offset,
         void *buffer,
         size_t size)
{
  size_t done = 0;

  while (done < size)
    {
      ssize_t n = pread (fd, (uint8_t *) buffer + done, size - done, (off_t) (offset + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return false;
      done += (size_t) n;
    }
  return true;
}

static bool
section_fits (const SpPerfFileSection *section,
              uint64_t file_size)
{
  return section->offset <= file_size && section->size <= file_size - section->offset;
}

/* An attr of attr_size bytes (older or newer perf than ours): the fields
 * both know, the rest zero. */
static void
copy_attr (struct perf_event_attr *attr,
           const uint8_t *bytes,
           size_t size)
{
  memset (attr, 0, sizeof *attr);
  memcpy (attr, bytes, size < sizeof *attr ? size : sizeof *attr);
}

static SpPerfDataEvent *
add_event (SpPerfData *data)
{
  SpPerfDataEvent *events;

  if (data->n_events >= MAX_EVENTS)
    return NULL;
  events = realloc (data->events, (data->n_events + 1) * sizeof *events);
  if (events == NULL)
    return NULL;
  data->events = events;
  memset (&events[data->n_events], 0, sizeof *events);
  return &events[data->n_events++];
}

static bool
read_file_attrs (SpPerfData *data,
                 const SpPerfFileHeader *header,
                 char *message,
                 size_t message_size)
{
  uint64_t entry_size = header->attr_size;
  uint8_t *entry;
  bool ok = true;

  if (entry_size < PERF_ATTR_SIZE_VER0 + sizeof (SpPerfFileSection) || entry_size > 4096
      || !section_fits (&header->attrs, data->file_size) || header->attrs.size % entry_size != 0
      || header->attrs.size == 0)
    {
      snprintf (message, message_size, "a perf.data file whose event attributes section is damaged");
      return false;
    }
  entry = malloc (entry_size);
  if (entry == NULL)
    return false;
  for (uint64_t offset = 0; ok && offset < header->attrs.size; offset += entry_size)
    {
      SpPerfFileSection ids;
      SpPerfDataEvent *event;

      ok = read_at (data->fd, header->attrs.offset + offset, entry, entry_size);
      memcpy (&ids, entry + entry_size - sizeof ids, sizeof ids);
      ok = ok && section_fits (&ids, data->file_size) && ids.size / 8 <= MAX_IDS && ids_fit (data, ids.size / 8)
           && (event = add_event (data)) != NULL;
      if (!ok)
        break;
      copy_attr (&event->attr, entry, entry_size - sizeof ids);
      event->n_ids = ids.size / 8;
      event->ids = calloc (event->n_ids + 1, 8);
      ok = event->ids != NULL && read_at (data->fd, ids.offset, event->ids, event->n_ids * 8);
    }
  free (entry);
  if (!ok)
    snprintf (message, message_size, "a perf.data file whose event attributes cannot be read");
  return ok;
}

/* The feature sections after the data: a table of sections, one per bit
 * set, in bit order. A file cut short has none: its events then get
 * names made from their attributes. */
static void
read_file_features (SpPerfData *data,
                    const SpPerfFileHeader *header)
{
  uint64_t table = header->data.offset + header->data.size;
  unsigned n = 0;

  if (data->data_size_unknown)
    return;
  for (unsigned bit = 0; bit < SP_PERF_FEAT_LAST; bit++)
    {
      SpPerfFileSection section;
      uint8_t *bytes;

      if (!(header->features[bit / 64] & (UINT64_C (1) << (bit % 64))))
        continue;
      if (!read_at (data->fd, table + n++ * sizeof section, &section, sizeof section))
        return;
      if (!section_fits (&section, data->file_size) || section.size > MAX_FEATURE_SIZE)
        continue;
      if (bit == SP_PERF_FEAT_COMPRESSED)
        data->features.compressed = true;
      if (bit == SP_PERF_FEAT_TRACING_DATA || (bytes = malloc (section.size + 1)) == NULL)
        continue;
      if (read_at (data->fd, section.offset, bytes, section.size))
        {
          if (bit == SP_PERF_FEAT_BUILD_ID)
            sp_perf_data_read_build_ids (data, bytes, section.size);
          else
            sp_perf_data_read_feature (data, bit, bytes, section.size);
        }
      free (bytes);
    }
}

static bool
open_file_mode (SpPerfData *data,
                char *message,
                size_t message_size)
{
  SpPerfFileHeader header;
  struct stat st;

  if (fstat (data->fd, &st) != 0 || !read_at (data->fd, 0, &header, sizeof header))
    {
      snprintf (message, message_size, "a perf.data file cut short in its header");
      return false;
    }
  data->file_size = (uint64_t) st.st_size;
  if (header.size != sizeof header)
    {
      snprintf (message, message_size, "a perf.data file with a header of %llu bytes (perf's is %zu): damaged, "
                "or from a perf stackpulse does not know", (unsigned long long) header.size, sizeof header);
      return false;
    }
  if (header.data.offset < sizeof header || header.data.offset > data->file_size)
    {
      snprintf (message, message_size, "a perf.data file whose data section lies outside the file (damaged)");
      return false;
    }
  /* perf writes the data size when it ends: 0 (killed) means the data
   * runs to the end of what is there; more than there is, a cut copy. */
  data->data_offset = header.data.offset;
  data->data_size_unknown = header.data.size == 0;
  data->data_end = data->data_size_unknown ? data->file_size : header.data.offset + header.data.size;
  if (!read_file_attrs (data, &header, message, message_size))
    return false;
  read_file_features (data, &header);
  if (lseek (data->fd, (off_t) data->data_offset, SEEK_SET) < 0)
    {
      snprintf (message, message_size, "cannot seek to its data: %s", strerror (errno));
      return false;
    }
  data->position = data->data_offset;
  return true;
}

static bool
read_all (const SpPerfData *data,
          void *buffer,
          size_t size,
          size_t *got)
{
  *got = 0;
  while (*got < size)
    {
      ssize_t n;

      if (!sp_perf_data_wait_input (data))
        return false;
      n = read (data->fd, (uint8_t *) buffer + *got, size - *got);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return false;
      if (n == 0)
        break;
      *got += (size_t) n;
    }
  return true;
}

bool
sp_perf_data_open (SpPerfData *data,
                   int fd,
                   volatile int *stop_flag,
                   const sigset_t *wait_mask,
                   char *message,
                   size_t message_size)
{
  SpPerfPipeHeader head;
  struct stat st;
  size_t got;

  memset (data, 0, sizeof *data);
  data->fd = fd;
  data->stop_flag = stop_flag;
  data->wait_mask = wait_mask;
  data->data_end = UINT64_MAX;
  data->pipe = fstat (fd, &st) != 0 || !S_ISREG (st.st_mode);
  data->file_size = data->pipe ? 0 : (uint64_t) st.st_size;
  if (!read_all (data, &head, sizeof head, &got))
    {
      if (stop_flag != NULL && *stop_flag)
        snprintf (message, message_size, "stopped");
      else
        snprintf (message, message_size, "cannot be read: %s", strerror (errno));
      return false;
    }
  memcpy (data->head, &head, got);
  data->head_len = got;
  if (got < SP_PERF_DATA_MAGIC_LEN || memcmp (head.magic, SP_PERF_DATA_MAGIC, SP_PERF_DATA_MAGIC_LEN) != 0)
    {
      snprintf (message, message_size, "not a perf.data file");
      return false;
    }
  if (got < sizeof head)
    {
      snprintf (message, message_size, "a perf.data file cut short in its header");
      return false;
    }
  /* perf writes the pipe header to a regular file too (perf record -o - > f). */
  if (head.size == sizeof head)
    {
      data->pipe = true;
      data->position = sizeof head;
      return true;
    }
  if (data->pipe)
    {
      snprintf (message, message_size, "a perf.data file in file mode, which cannot be read from a pipe: "
                "give its name, or record with perf record -o -");
      return false;
    }
  return open_file_mode (data, message, message_size);
}

void
sp_perf_data_clear (SpPerfData *data)
{
  for (size_t i = 0; i < data->n_events; i++)
    {
      free (data->events[i].ids);
      free (data->events[i].name);
    }
  free (data->events);
  free (data->features.hostname);
  free (data->features.osrelease);
  free (data->features.version);
  free (data->features.arch);
  free (data->features.cmdline);
  for (size_t i = 0; i < data->features.n_build_ids; i++)
    free (data->features.build_ids[i].path);
  free (data->features.build_ids);
  for (size_t i = 0; i < data->features.n_event_names; i++)
    free (data->features.event_names[i]);
  free (data->features.event_names);
  /* Its thread reads the descriptor: ended before it is closed. */
  sp_read_ahead_free (data->read_ahead);
  free (data->aligned);
  if (data->fd >= 0)
    close (data->fd);
  memset (data, 0, sizeof *data);
  data->fd = -1;
}

bool
sp_perf_data_add_attr_record (SpPerfData *data,
                              const struct perf_event_header *header)
{
  const uint8_t *body = (const uint8_t *) (header + 1);
  size_t body_size = header->size - sizeof *header;
  uint32_t attr_size;
  SpPerfDataEvent *event;

  if (body_size < PERF_ATTR_SIZE_VER0)
    return false;
  memcpy (&attr_size, body + offsetof (struct perf_event_attr, size), 4);
  if (attr_size < PERF_ATTR_SIZE_VER0 || attr_size > body_size || !ids_fit (data, (body_size - attr_size) / 8)
      || (event = add_event (data)) == NULL)
    return false;
  copy_attr (&event->attr, body, attr_size);
  event->n_ids = (body_size - attr_size) / 8;
  event->ids = calloc (event->n_ids + 1, 8);
  if (event->ids == NULL)
    return false;
  memcpy (event->ids, body + attr_size, event->n_ids * 8);
  return true;
}

long
sp_perf_data_event_for_id (const SpPerfData *data,
                           uint64_t id)
{
  if (data->n_events == 1)
    return 0;
  for (size_t i = 0; i < data->n_events; i++)
    for (size_t j = 0; j < data->events[i].n_ids; j++)
      if (data->events[i].ids[j] == id)
        return (long) i;
  return -1;
}
