/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-format.h: the layout of perf.data files, as perf writes
 * them (tools/perf/Documentation/perf.data-file-format.txt): the file
 * header, its sections, the feature numbers and the record types perf
 * adds to the kernel's (PERF_RECORD_HEADER_*). Written from the format's
 * description; the kernel's records are in <linux/perf_event.h>. */
#pragma once

#include <stdint.h>

#define SP_PERF_DATA_MAGIC          "PERFILE2"
#define SP_PERF_DATA_MAGIC_SWAPPED  "2ELIFREP"
#define SP_PERF_DATA_MAGIC_LEN      8

typedef struct {
  uint64_t offset;
  uint64_t size;
} SpPerfFileSection;

/* The file header (file mode). */
typedef struct {
  char              magic[8];
  uint64_t          size;            /* of this header */
  uint64_t          attr_size;       /* of one entry of the attrs section */
  SpPerfFileSection attrs;
  SpPerfFileSection data;
  SpPerfFileSection event_types;     /* unused since long */
  uint64_t          features[4];     /* bit N: feature section N is present */
} SpPerfFileHeader;

/* perf record -o -: only the magic and this size, then records. */
typedef struct {
  char     magic[8];
  uint64_t size;
} SpPerfPipeHeader;

/* Feature sections (their bit in SpPerfFileHeader.features). */
enum {
  SP_PERF_FEAT_TRACING_DATA = 1,
  SP_PERF_FEAT_BUILD_ID     = 2,
  SP_PERF_FEAT_HOSTNAME     = 3,
  SP_PERF_FEAT_OSRELEASE    = 4,
  SP_PERF_FEAT_VERSION      = 5,
  SP_PERF_FEAT_ARCH         = 6,
  SP_PERF_FEAT_NRCPUS       = 7,
  SP_PERF_FEAT_CMDLINE      = 11,
  SP_PERF_FEAT_EVENT_DESC   = 12,
  SP_PERF_FEAT_SAMPLE_TIME  = 21,
  SP_PERF_FEAT_COMPRESSED   = 27,
  SP_PERF_FEAT_LAST         = 256,
};

/* Records perf adds to the kernel's. */
enum {
  SP_PERF_RECORD_HEADER_ATTR         = 64,
  SP_PERF_RECORD_HEADER_EVENT_TYPE   = 65,
  SP_PERF_RECORD_HEADER_TRACING_DATA = 66,
  SP_PERF_RECORD_HEADER_BUILD_ID     = 67,
  SP_PERF_RECORD_FINISHED_ROUND      = 68,
  SP_PERF_RECORD_ID_INDEX            = 69,
  SP_PERF_RECORD_AUXTRACE_INFO       = 70,
  SP_PERF_RECORD_AUXTRACE            = 71,
  SP_PERF_RECORD_AUXTRACE_ERROR      = 72,
  SP_PERF_RECORD_THREAD_MAP          = 73,
  SP_PERF_RECORD_CPU_MAP             = 74,
  SP_PERF_RECORD_STAT_CONFIG         = 75,
  SP_PERF_RECORD_STAT                = 76,
  SP_PERF_RECORD_STAT_ROUND          = 77,
  SP_PERF_RECORD_EVENT_UPDATE        = 78,
  SP_PERF_RECORD_TIME_CONV           = 79,
  SP_PERF_RECORD_HEADER_FEATURE      = 80,
  SP_PERF_RECORD_COMPRESSED          = 81,
  SP_PERF_RECORD_FINISHED_INIT       = 82,
  SP_PERF_RECORD_TYPE_MAX            = 128,  /* above: not a record (damage) */
};

/* A build-id record's misc says its size field is valid. */
#define SP_PERF_MISC_BUILD_ID_SIZE (1u << 15)
