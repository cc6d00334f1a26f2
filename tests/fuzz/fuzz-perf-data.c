/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-perf-data.c: libFuzzer target for the perf.data reader
 * (stackpulse-record --input, docs/PERF-DATA.md).
 *
 * perf.data files come from anywhere and are often cut or damaged, so the
 * reader must survive any bytes: each input is opened as a file (from a
 * memfd), its records read to the end or the damage, pipe mode's own
 * records taken in, the event chosen, and every record re-encoded as the
 * live recorder's. Seeds: small files perf wrote (tests/fuzz/perf-data-seeds:
 * file mode with two events, DWARF stack copies, pipe mode). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sp-perf-data-file.h"
#include "sp-perf-data-sample.h"

/* Enough records for any seed and its mutations, few enough to stay fast. */
#define MAX_RECORDS 100000

int LLVMFuzzerTestOneInput (const uint8_t *bytes, size_t size);

static uint64_t encoded[65536 / 8];

/* Pipe mode's attribute, feature and build-id records, as the converter
 * takes them in. */
static void
read_header_record (SpPerfData *data,
                    const struct perf_event_header *header)
{
  uint64_t feature;

  if (header->type == SP_PERF_RECORD_HEADER_ATTR)
    sp_perf_data_add_attr_record (data, header);
  else if (header->type == SP_PERF_RECORD_HEADER_BUILD_ID)
    sp_perf_data_read_build_ids (data, (const uint8_t *) header, header->size);
  else if (header->type == SP_PERF_RECORD_HEADER_FEATURE && header->size >= sizeof *header + 8)
    {
      memcpy (&feature, header + 1, 8);
      if (feature < SP_PERF_FEAT_LAST)
        sp_perf_data_read_feature (data, (unsigned) feature, (const uint8_t *) (header + 1) + 8,
                                   header->size - sizeof *header - 8);
    }
}

/* The event chosen as the converter does; false when none can be. */
static bool
choose (SpPerfData *data,
        SpPerfDataConverter *conv)
{
  char message[512];
  long event;

  if (data->n_events == 0 || !sp_perf_data_name_events (data))
    return false;
  free (sp_perf_data_list_events (data));
  sp_perf_data_choose_event (data, "cycles");
  event = sp_perf_data_choose_event (data, NULL);
  return sp_perf_data_converter_init (conv, data, event >= 0 ? event : 0, message, sizeof message);
}

int
LLVMFuzzerTestOneInput (const uint8_t *bytes,
                        size_t size)
{
  int fd = memfd_create ("perf.data", MFD_CLOEXEC);
  const struct perf_event_header *header;
  SpPerfDataConverter conv;
  SpPerfData data;
  char message[512];
  const char *what;
  uint64_t offset;
  bool chosen = false;

  if (fd < 0 || write (fd, bytes, size) != (ssize_t) size || lseek (fd, 0, SEEK_SET) != 0)
    abort ();
  if (!sp_perf_data_open (&data, fd, NULL, NULL, message, sizeof message))
    {
      sp_perf_data_clear (&data);
      return 0;
    }
  for (int i = 0; i < MAX_RECORDS && sp_perf_data_next (&data, &header, &offset, &what) == SP_PERF_DATA_RECORD; i++)
    {
      if (header->type >= SP_PERF_RECORD_HEADER_ATTR)
        {
          read_header_record (&data, header);
          continue;
        }
      if (!chosen && !(chosen = choose (&data, &conv)))
        break;
      if (header->type == PERF_RECORD_SAMPLE)
        sp_perf_data_encode_sample (&conv, header, encoded);
      else
        sp_perf_data_encode_other (&conv, header, encoded);
    }
  sp_perf_data_clear (&data);
  return 0;
}
