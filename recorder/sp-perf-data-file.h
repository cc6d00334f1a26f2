/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-file.h: a perf.data file as stackpulse-record --input reads it.
 *
 * Two modes, as perf writes them: a file (a header pointing at the
 * attributes, the data section and the feature sections after it) and a
 * pipe (perf record -o -: a short header, then records only, the
 * attributes and features among them as PERF_RECORD_HEADER_* records).
 * Either way the data records are read in one pass, front to back, from a
 * descriptor (sp-perf-data-records.c), so a pipe needs no seeking and a
 * file of any size no more memory than its largest record. Native byte
 * order only. */
#pragma once

#include <linux/perf_event.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sp-perf-data-format.h"

typedef struct {
  struct perf_event_attr attr;
  uint64_t *ids;
  size_t    n_ids;
  char     *name;         /* from EVENT_DESC, else made from type and config */
} SpPerfDataEvent;

typedef struct {
  int32_t  pid;
  char     build_id[41 + 88];   /* lower-case hex */
  char    *path;
  bool     kernel;              /* the kernel image ([kernel.kallsyms]) */
} SpPerfDataBuildId;

typedef struct {
  char     *hostname;
  char     *osrelease;
  char     *version;       /* perf's */
  char     *arch;
  char     *cmdline;       /* perf's command line, words joined by spaces */
  uint32_t  nr_cpus_online;
  uint32_t  nr_cpus_available;
  uint64_t  first_sample_time;  /* SAMPLE_TIME: perf's clock, 0 if unknown */
  uint64_t  last_sample_time;
  SpPerfDataBuildId *build_ids;
  size_t    n_build_ids;
  bool      compressed;    /* perf record -z */
  char    **event_names;   /* EVENT_DESC's, in the attributes' order */
  size_t    n_event_names;
} SpPerfDataFeatures;

typedef struct {
  int       fd;
  bool      pipe;          /* pipe mode (a stream: no seeking) */
  uint64_t  file_size;     /* file mode: the file's size; 0 for a pipe */
  uint64_t  data_offset;
  uint64_t  data_end;      /* UINT64_MAX for a pipe */
  bool      data_size_unknown; /* perf did not finish: data runs to the end of the file */
  uint64_t  kernel_text;   /* where the recording's kernel had _text (its
                            * [kernel.kallsyms] MMAP's pgoff), 0: unknown */
  SpPerfDataEvent *events;
  size_t    n_events;
  SpPerfDataFeatures features;
  uint8_t   head[16];      /* the first bytes read, to say what a refused input is */
  size_t    head_len;

  /* The record stream (sp-perf-data-records.c), read ahead on a thread
   * of its own (sp-perf-data-read-ahead.h). */
  struct SpReadAhead *read_ahead;
  uint8_t  *buffer;        /* the chunk being read, from the room before its data */
  size_t    start;         /* buffer[start..end) are read and not handed out */
  size_t    end;
  uint64_t  position;      /* the file offset of buffer[start] */
  bool      holding;       /* a chunk is taken (buffer), to give back after it */
  bool      at_eof;
  uint64_t *aligned;       /* a record that lies unaligned in the buffer, copied */
  volatile int *stop_flag; /* set by a signal: reading gives up */
  const sigset_t *wait_mask; /* the stop signals are blocked but while
                              * waiting for input (ppoll with this mask),
                              * so none slips in before a read that would
                              * then wait for good; NULL: plain reads */
} SpPerfData;

/* What reading the next record found. */
typedef enum {
  SP_PERF_DATA_RECORD,      /* *header is a whole record */
  SP_PERF_DATA_END,         /* the data ended where it should */
  SP_PERF_DATA_DAMAGED,     /* at *offset: what says why */
  SP_PERF_DATA_STOPPED,     /* a signal asked to stop */
  SP_PERF_DATA_READ_ERROR,  /* errno */
} SpPerfDataStatus;

/* Checks the magic of what fd reads and reads the header, the attributes
 * and the features (file mode), or the pipe header. fd is taken (closed by
 * sp_perf_data_clear); stop_flag and wait_mask may be NULL (see the
 * fields). False with a message (without the file's name) when it is not
 * a perf.data file stackpulse reads, or a signal stopped it. */
bool sp_perf_data_open (SpPerfData *data,
                        int fd,
                        volatile int *stop_flag,
                        const sigset_t *wait_mask,
                        char *message,
                        size_t message_size);

/* Waits until the input can be read (or has ended), with the stop
 * signals let in; false when one came, or waiting failed (errno). (The
 * data records are waited for by the thread that reads them ahead.) */
bool sp_perf_data_wait_input (const SpPerfData *data);

void sp_perf_data_clear (SpPerfData *data);

/* The next record of the data, 8-byte aligned, valid until the next call;
 * pipe mode's own payloads (tracing data, AUX data) are skipped. On
 * DAMAGED, *offset is where and what why. */
SpPerfDataStatus sp_perf_data_next (SpPerfData *data,
                                    const struct perf_event_header **header,
                                    uint64_t *offset,
                                    const char **what);

/* Pipe mode: the attribute of a PERF_RECORD_HEADER_ATTR record, added to
 * the events; false when it is malformed or memory runs out. */
bool sp_perf_data_add_attr_record (SpPerfData *data,
                                   const struct perf_event_header *header);

/* ---- sp-perf-data-features.c ------------------------------------------- */

/* One feature section's bytes (a file's section, or a pipe's
 * HEADER_FEATURE record's payload); unknown ones are ignored. */
void sp_perf_data_read_feature (SpPerfData *data,
                                unsigned feature,
                                const uint8_t *bytes,
                                size_t size);

/* Build-id records (the BUILD_ID section, or a pipe's HEADER_BUILD_ID
 * records) into the features. */
void sp_perf_data_read_build_ids (SpPerfData *data,
                                  const uint8_t *bytes,
                                  size_t size);


/* The event with this id, or -1 (one event: that one). */
long sp_perf_data_event_for_id (const SpPerfData *data,
                                uint64_t id);

/* The recorded build-id of path, or NULL. */
const char *sp_perf_data_build_id_of (const SpPerfData *data,
                                      const char *path);

/* ---- sp-perf-data-events.c --------------------------------------------- */

/* An event's name as perf's tools would say it, for an attr without one. */
char *sp_perf_data_event_name (const struct perf_event_attr *attr);

/* Gives every event a name: EVENT_DESC's, else one made from its attr.
 * False without memory. */
bool sp_perf_data_name_events (SpPerfData *data);

/* The event named name ("cycles" also finds "cycles:u"), or with NULL the
 * first sampling clock event (cycles, cpu-clock, task-clock), else the
 * first sampling event; -1 when there is none. */
long sp_perf_data_choose_event (const SpPerfData *data,
                                const char *name);

/* "cycles, page-faults": the events' names (malloc'd; NULL without memory). */
char *sp_perf_data_list_events (const SpPerfData *data);
