/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-features.c: the feature sections stackpulse uses (host,
 * kernel release, perf's version and command line, CPUs, build-ids, event
 * names), read with bounds checks from their bytes. */
#include "sp-perf-data-file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sp-byte-cursor.h"

/* perf's strings: a u32 length (padding included), then the bytes. */
static char *
take_string (SpByteCursor *c)
{
  uint32_t len;

  if (!sp_byte_cursor_take_u32 (c, &len) || len > (size_t) (c->end - c->p))
    return NULL;
  c->p += len;
  return strndup ((const char *) c->p - len, len);
}

static void
read_cmdline (SpPerfDataFeatures *features,
              SpByteCursor *c)
{
  uint32_t n;
  size_t used = 0, size = 1;
  char *line = NULL;

  if (!sp_byte_cursor_take_u32 (c, &n) || n > 4096)
    return;
  for (uint32_t i = 0; i < n; i++)
    {
      char *word = take_string (c);
      size_t len;
      char *grown;

      if (word == NULL)
        break;
      len = strlen (word);
      size = used + len + 2;
      grown = realloc (line, size);
      if (grown == NULL)
        {
          free (word);
          break;
        }
      line = grown;
      if (used > 0)
        line[used++] = ' ';
      memcpy (line + used, word, len + 1);
      used += len;
      free (word);
    }
  features->cmdline = line;
}

/* EVENT_DESC: for each event, its attr, its ids and its name; in the
 * order of the attributes (which a pipe may send after it). */
static void
read_event_desc (SpPerfData *data,
                 SpByteCursor *c)
{
  uint32_t n, attr_size;

  if (!sp_byte_cursor_take_u32 (c, &n) || !sp_byte_cursor_take_u32 (c, &attr_size) || n > 4096
      || data->features.event_names != NULL)
    return;
  data->features.event_names = calloc (n + 1, sizeof (char *));
  if (data->features.event_names == NULL)
    return;
  for (uint32_t i = 0; i < n; i++)
    {
      uint32_t n_ids;
      char *name;

      if (attr_size > (size_t) (c->end - c->p))
        return;
      c->p += attr_size;
      if (!sp_byte_cursor_take_u32 (c, &n_ids) || (name = take_string (c)) == NULL)
        return;
      data->features.event_names[data->features.n_event_names++] = name;
      if (n_ids > (size_t) (c->end - c->p) / 8)
        return;
      c->p += (size_t) n_ids * 8;
    }
}

void
sp_perf_data_read_feature (SpPerfData *data,
                           unsigned feature,
                           const uint8_t *bytes,
                           size_t size)
{
  SpPerfDataFeatures *f = &data->features;
  SpByteCursor c = { bytes, bytes + size };
  char **string = NULL;

  switch (feature)
    {
    case SP_PERF_FEAT_HOSTNAME:  string = &f->hostname; break;
    case SP_PERF_FEAT_OSRELEASE: string = &f->osrelease; break;
    case SP_PERF_FEAT_VERSION:   string = &f->version; break;
    case SP_PERF_FEAT_ARCH:      string = &f->arch; break;
    case SP_PERF_FEAT_NRCPUS:
      if (sp_byte_cursor_take_u32 (&c, &f->nr_cpus_available))
        sp_byte_cursor_take_u32 (&c, &f->nr_cpus_online);
      return;
    case SP_PERF_FEAT_SAMPLE_TIME:
      if (size >= 16)
        {
          memcpy (&f->first_sample_time, bytes, 8);
          memcpy (&f->last_sample_time, bytes + 8, 8);
        }
      return;
    case SP_PERF_FEAT_CMDLINE:
      /* A second CMDLINE (a pipe may repeat its features) replaces the first. */
      free (f->cmdline);
      f->cmdline = NULL;
      read_cmdline (f, &c);
      return;
    case SP_PERF_FEAT_EVENT_DESC:
      read_event_desc (data, &c);
      return;
    case SP_PERF_FEAT_COMPRESSED:
      f->compressed = true;
      return;
    default:
      return;
    }
  free (*string);
  *string = take_string (&c);
}

static void
add_build_id (SpPerfData *data,
              const struct perf_event_header *header,
              const uint8_t *body,
              size_t body_size)
{
  SpPerfDataFeatures *f = &data->features;
  SpPerfDataBuildId *entry, *grown;
  uint8_t id_size = 20;
  int32_t pid;

  /* pid, 24 bytes of build-id (20, then its size), then the path. */
  if (body_size < 4 + 24 + 1)
    return;
  if (header->misc & SP_PERF_MISC_BUILD_ID_SIZE)
    id_size = body[4 + 20] <= 20 ? body[4 + 20] : 20;
  grown = realloc (f->build_ids, (f->n_build_ids + 1) * sizeof *grown);
  if (grown == NULL)
    return;
  f->build_ids = grown;
  entry = &f->build_ids[f->n_build_ids];
  memcpy (&pid, body, 4);
  entry->pid = pid;
  for (uint8_t i = 0; i < id_size; i++)
    snprintf (entry->build_id + 2 * i, 3, "%02x", body[4 + i]);
  entry->build_id[2 * id_size] = '\0';
  entry->path = strndup ((const char *) body + 28, body_size - 28);
  if (entry->path == NULL)
    return;
  entry->kernel = strcmp (entry->path, "[kernel.kallsyms]") == 0 || strcmp (entry->path, "vmlinux") == 0;
  f->n_build_ids++;
}

void
sp_perf_data_read_build_ids (SpPerfData *data,
                             const uint8_t *bytes,
                             size_t size)
{
  size_t offset = 0;

  while (size - offset >= sizeof (struct perf_event_header))
    {
      struct perf_event_header header;

      memcpy (&header, bytes + offset, sizeof header);
      if (header.size < sizeof header || header.size > size - offset)
        return;
      add_build_id (data, &header, bytes + offset + sizeof header, header.size - sizeof header);
      offset += header.size;
    }
}

const char *
sp_perf_data_build_id_of (const SpPerfData *data,
                          const char *path)
{
  for (size_t i = 0; i < data->features.n_build_ids; i++)
    if (strcmp (data->features.build_ids[i].path, path) == 0)
      return data->features.build_ids[i].build_id;
  return NULL;
}
