/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-convert.c: one conversion, from the input's first bytes to
 * the side file.
 *
 * Records are read front to back and queued; perf writes its CPUs' buffers
 * in rounds (FINISHED_ROUND), and every record of round N+1 is later than
 * the last one of round N-1, so each round's end hands the queue's records
 * up to that time to the recording, as a live recording's watermark does.
 * The output is created only once the input is known to be perf.data, so
 * a refusal leaves nothing behind; a signal removes the spool this run
 * created. */
#include "sp-perf-data-convert.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "sp-event-queue.h"
#include "sp-input-kind.h"
#include "sp-kallsyms.h"
#include "sp-output.h"
#include "sp-perf-data-file.h"
#include "sp-perf-data-machine.h"
#include "sp-perf-data-sample.h"
#include "sp-perf-events.h"
#include "sp-recording.h"
#include "sp-side-file.h"
#include "sp-unwinder.h"

#define PROGRESS_FD_INTERVAL_NS (250 * 1000000ull)
#define PROGRESS_LINE_INTERVAL_NS (1000 * 1000000ull)
#define FLUSH_INTERVAL_NS       (100 * 1000000ull)
#define RECORD_WORDS            (65536 / 8)

static volatile int stop_signal;
/* The signal mask before the stop signals were blocked: in force only
 * while waiting for input. */
static sigset_t unblocked_mask;

typedef struct {
  const SpConvertOptions *o;
  SpPerfData          data;
  SpPerfDataConverter conv;
  bool                chosen;        /* the event is chosen, conv is set */
  SpEventQueue        queue;
  SpRecording         rec;
  SpUnwinder         *unwinder;
  SpSpoolWriter      *writer;
  SpOutput            output;
  bool                output_open;
  SpSideFile          side_file;
  SpSideInfo          side;
  SpSideInput         input;
  char               *events_list;
  char               *absolute_path; /* of the input, NULL: standard input */
  char                kernel_note[256];
  SpKallsymsLoad      kallsyms_load; /* begun with the records, for the end */
  uint64_t            watermark;     /* records before it can be applied */
  uint64_t            max_time;      /* the latest record so far */
  uint64_t            start_ns;
  uint64_t            last_fd_ns;
  uint64_t            last_line_ns;
  uint64_t            last_flush_ns;
  uint64_t            n_applied;
  uint64_t            n_event_samples; /* of the event converted */
  uint64_t            lost_samples;  /* from LOST_SAMPLES records */
  uint64_t            record[RECORD_WORDS];
} Conversion;

static uint64_t
monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

static void
on_signal (int signal_number)
{
  stop_signal = signal_number;
}

/* SIGTERM, SIGINT and SIGHUP (a closed terminal, as a live recording
 * takes it) are blocked but while the reader waits for input
 * (ppoll with the old mask): there the handler sets the flag and the
 * reading gives up. A signal cannot slip in between a check of the flag
 * and a read that would then wait for good; one that comes while the
 * samples are unwound is taken at the next read, and one that comes after
 * the last read has no effect (the spool is written). */
static void
catch_stop_signals (void)
{
  struct sigaction action = { .sa_handler = on_signal };
  sigset_t stops;

  sigemptyset (&action.sa_mask);
  sigaction (SIGTERM, &action, NULL);
  sigaction (SIGINT, &action, NULL);
  sigaction (SIGHUP, &action, NULL);
  signal (SIGPIPE, SIG_IGN);
  sigemptyset (&stops);
  sigaddset (&stops, SIGTERM);
  sigaddset (&stops, SIGINT);
  sigaddset (&stops, SIGHUP);
  sigprocmask (SIG_BLOCK, &stops, &unblocked_mask);
}

/* ---- The input ------------------------------------------------------------ */

static int
refuse (const char *path,
        const char *what)
{
  fprintf (stderr, "stackpulse-record: %s is %s\n", strcmp (path, "-") == 0 ? "standard input" : path, what);
  return SP_CONVERT_EXIT_FAILED;
}

/* The descriptor to read, or -1 (said). A FIFO is opened without waiting
 * for a writer; one with nothing written is refused. */
static int
open_input (const char *path,
            int *status)
{
  struct stat st;
  int fd;

  *status = SP_CONVERT_EXIT_FAILED;
  if (strcmp (path, "-") == 0)
    return dup (STDIN_FILENO);
  if (stat (path, &st) != 0)
    {
      fprintf (stderr, "stackpulse-record: --input: '%s': %s\n", path, strerror (errno));
      return -1;
    }
  if (S_ISDIR (st.st_mode))
    {
      refuse (path, "a directory, not a perf.data file");
      return -1;
    }
  fd = open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    {
      fprintf (stderr, "stackpulse-record: --input: cannot open '%s': %s\n", path, strerror (errno));
      return -1;
    }
  if (S_ISFIFO (st.st_mode))
    fprintf (stderr, "stackpulse-record: %s is a FIFO: waiting for perf record -o - to write to it\n", path);
  /* Blocking from here: a FIFO that has no writer reads as empty. */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

static void
describe_refusal (const Conversion *c,
                  const char *message)
{
  uint8_t head[128];
  ssize_t len;
  char what[512];

  /* A file shows more of itself than a pipe's first 16 bytes. */
  if (!c->data.pipe && strcmp (message, "not a perf.data file") == 0
      && (len = pread (c->data.fd, head, sizeof head, 0)) > 0)
    sp_input_kind_describe (head, (size_t) len, what, sizeof what);
  else if (c->data.head_len == 0)
    snprintf (what, sizeof what, "empty, not a perf.data file%s",
              c->data.pipe ? " (nothing was written to it)" : "");
  else if (strcmp (message, "not a perf.data file") == 0)
    sp_input_kind_describe (c->data.head, c->data.head_len, what, sizeof what);
  else
    snprintf (what, sizeof what, "%s", message);
  refuse (c->o->input, what);
}

/* ---- The event ------------------------------------------------------------ */

/* The sampling frequency (or the clock's period) as the spool's interval. */
static void
set_sampling_rate (Conversion *c,
                   const struct perf_event_attr *attr)
{
  if (attr->freq && attr->sample_freq > 0)
    c->side.frequency_hz = (unsigned) attr->sample_freq;
  else if (attr->type == PERF_TYPE_SOFTWARE && attr->sample_period >= 1000
           && (attr->config == PERF_COUNT_SW_CPU_CLOCK || attr->config == PERF_COUNT_SW_TASK_CLOCK))
    c->side.frequency_hz = (unsigned) (1000000000ull / attr->sample_period);
  else
    c->side.frequency_hz = 1000;  /* not a rate: the viewer's times are then counts of ms */
  if (c->side.frequency_hz == 0)
    c->side.frequency_hz = 1;
}

/* The events that sample: perf adds a dummy one (dummy:HG) for its
 * side-band records with -a and others, which is not a choice. */
static size_t
count_sampling_events (const SpPerfData *data)
{
  size_t n = 0;

  for (size_t i = 0; i < data->n_events; i++)
    if (!(data->events[i].attr.type == PERF_TYPE_SOFTWARE && data->events[i].attr.config == PERF_COUNT_SW_DUMMY))
      n++;
  return n;
}

static bool
choose_event (Conversion *c)
{
  char message[512];
  long event;

  if (!sp_perf_data_name_events (&c->data))
    return false;
  c->events_list = sp_perf_data_list_events (&c->data);
  if (c->data.n_events == 0)
    {
      fprintf (stderr, "stackpulse-record: %s has no events\n", c->o->input);
      return false;
    }
  event = sp_perf_data_choose_event (&c->data, c->o->event);
  if (event < 0)
    {
      if (c->o->event != NULL)
        fprintf (stderr, "stackpulse-record: %s has no event '%s'; its events: %s\n", c->o->input, c->o->event,
                 c->events_list != NULL ? c->events_list : "");
      else
        fprintf (stderr, "stackpulse-record: %s has no sampling event (perf stat data?); its events: %s\n",
                 c->o->input, c->events_list != NULL ? c->events_list : "");
      return false;
    }
  if (!sp_perf_data_converter_init (&c->conv, &c->data, event, message, sizeof message))
    {
      fprintf (stderr, "stackpulse-record: %s cannot be converted: %s\n", c->o->input, message);
      return false;
    }
  if (count_sampling_events (&c->data) > 1)
    fprintf (stderr, "stackpulse-record: %s has %zu events (%s): converting %s%s\n", c->o->input,
             count_sampling_events (&c->data), c->events_list, c->data.events[event].name,
             c->o->event == NULL ? " (choose with --event NAME)" : "");
  c->input.event = c->data.events[event].name;
  c->input.events = c->events_list;
  set_sampling_rate (c, &c->data.events[event].attr);
  /* Stack copies are unwound as a live recording's default does (auto):
   * along frame pointers where the chain can be trusted, else with the
   * CFI; the same frames, at a fraction of the cost. */
  c->side.call_graph = c->conv.unwind ? "auto" : "fp";
  c->side.stack_size = c->conv.unwind ? (uint32_t) c->data.events[event].attr.sample_stack_user : 0;
  c->side.kernel_stacks = !c->data.events[event].attr.exclude_kernel;
  c->chosen = true;
  return true;
}

/* ---- The output ----------------------------------------------------------- */

static uint64_t
wall_us (void)
{
  struct timeval tv;

  gettimeofday (&tv, NULL);
  return (uint64_t) tv.tv_sec * 1000000ull + (uint64_t) tv.tv_usec;
}

/* When the first sample was taken, on the wall clock: perf writes a
 * file's header last, so its time less the samples' span (SAMPLE_TIME);
 * a pipe is converted as it is recorded. */
static uint64_t
recording_start_wall_us (const Conversion *c)
{
  const SpPerfDataFeatures *f = &c->data.features;
  struct stat st;
  uint64_t end_us;

  if (c->data.pipe || fstat (c->data.fd, &st) != 0)
    return wall_us ();
  end_us = (uint64_t) st.st_mtim.tv_sec * 1000000ull + (uint64_t) st.st_mtim.tv_nsec / 1000;
  if (f->last_sample_time > f->first_sample_time && (f->last_sample_time - f->first_sample_time) / 1000 < end_us)
    return end_us - (f->last_sample_time - f->first_sample_time) / 1000;
  return end_us;
}

static bool
open_output (Conversion *c)
{
  SpOutputInputs inputs = { 0 };
  char message[4400];
  SpSpoolError err;

  if (!sp_output_open (&c->output, c->o->output, &inputs, message, sizeof message))
    {
      fprintf (stderr, "stackpulse-record: %s\n", message);
      return false;
    }
  c->output_open = true;
  if (c->output.replacing)
    fprintf (stderr, "stackpulse-record: replacing the existing recording %s\n", c->o->output);
  sp_side_file_init (&c->side_file, &c->output);
  c->side.start_wall_us = c->side.spool_start_us = recording_start_wall_us (c);
  c->writer = sp_spool_writer_new_for_fd (c->output.spool_fd, true, c->side.start_wall_us,
                                          1000000 / c->side.frequency_hz, &err);
  if (c->writer == NULL || !sp_recording_init (&c->rec, c->writer, sp_perf_max_stack ()))
    {
      fprintf (stderr, "stackpulse-record: cannot write %s: %s\n", c->o->output,
               c->writer == NULL && err.sys_errno != 0 ? strerror (err.sys_errno) : "out of memory");
      return false;
    }
  /* perf record -a samples the idle task (swapper, pid 0): idle time, as
   * in a recording of stackpulse-record -a, not a thread "0". */
  c->rec.count_idle = true;
  if (c->conv.unwind)
    {
      c->unwinder = sp_unwinder_new (true, false, message, sizeof message);
      if (c->unwinder == NULL)
        {
          fprintf (stderr, "stackpulse-record: cannot unwind DWARF samples: %s\n", message);
          return false;
        }
      c->conv.unwinder = c->unwinder;
    }
  if (!sp_recording_set_unwinder (&c->rec, c->unwinder, &c->conv.layout, 0)
      || (c->side.kernel_stacks && !sp_recording_add_kernel_module (&c->rec)))
    {
      fprintf (stderr, "stackpulse-record: out of memory\n");
      return false;
    }
  return true;
}

/* The event is chosen and the output open: the records can flow. */
static bool
ready (Conversion *c)
{
  if (c->chosen)
    return true;
  if (c->data.features.compressed)
    {
      fprintf (stderr, "stackpulse-record: %s holds compressed records (perf record -z), which stackpulse does "
               "not read: record without -z\n", c->o->input);
      return false;
    }
  if (!choose_event (c) || !open_output (c))
    return false;
  /* The kernel formats /proc/kallsyms slowly: read on the second core
   * while the samples are unwound on this one. */
  if (c->side.kernel_stacks)
    sp_perf_data_begin_kernel_symbols (&c->data, &c->kallsyms_load);
  return true;
}

/* ---- The records ---------------------------------------------------------- */

static void periodic (Conversion *c);

/* Unwinding is the costly part, and a round may hold many samples: the
 * progress goes on while they are applied. */
static void
apply_record (const struct perf_event_header *header,
              uint64_t time,
              void *user_data)
{
  Conversion *c = user_data;

  sp_recording_handle (&c->rec, header, time);
  if ((++c->n_applied & 255) == 0)
    periodic (c);
}

static void
flush_queue (Conversion *c,
             uint64_t watermark)
{
  sp_event_queue_flush (&c->queue, watermark, 0, apply_record, c);
}

/* Mappings a live recording never sees: data mappings (perf asks for
 * them with --call-graph dwarf, mmap_data), which would shadow the code
 * of the same file; and those of pid -1, the kernel's and its modules'
 * (the recording has its own kernel module). */
static bool
is_mapping_left_out (const struct perf_event_header *header)
{
  int32_t pid;

  if ((header->type != PERF_RECORD_MMAP && header->type != PERF_RECORD_MMAP2) || header->size < 16)
    return false;
  if (header->misc & PERF_RECORD_MISC_MMAP_DATA)
    return true;
  memcpy (&pid, header + 1, 4);
  return pid == -1;
}

/* perf's mapping of the kernel ("[kernel.kallsyms]_text", pid -1) says
 * where _text was, which moves at each boot (KASLR). */
static void
note_kernel_text (Conversion *c,
                  const struct perf_event_header *header)
{
  size_t name_at = header->type == PERF_RECORD_MMAP ? 32 : 64;
  const char *name = (const char *) (header + 1) + name_at;
  size_t room = header->size - sizeof *header;
  int32_t pid;

  if ((header->type != PERF_RECORD_MMAP && header->type != PERF_RECORD_MMAP2) || room < name_at + 17)
    return;
  memcpy (&pid, header + 1, 4);
  if (pid == -1 && strncmp (name, "[kernel.kallsyms]", 17) == 0)
    memcpy (&c->data.kernel_text, (const uint8_t *) (header + 1) + 24, 8);
}

static bool
queue_record (Conversion *c,
              const struct perf_event_header *header)
{
  const struct perf_event_header *encoded = (const struct perf_event_header *) c->record;
  uint64_t time;

  switch (header->type)
    {
    case PERF_RECORD_SAMPLE:
      if (!sp_perf_data_encode_sample (&c->conv, header, c->record))
        return true;
      c->n_event_samples++;
      break;
    case PERF_RECORD_LOST_SAMPLES:
      /* perf writes one at the end for each event that lost samples: the
       * same losses as the ring's LOST records (counted once, at the end). */
      if (header->size >= sizeof *header + 8)
        {
          uint64_t lost;

          memcpy (&lost, header + 1, 8);
          c->lost_samples += lost;
        }
      return true;
    case PERF_RECORD_MMAP:
    case PERF_RECORD_MMAP2:
    case PERF_RECORD_COMM:
    case PERF_RECORD_FORK:
    case PERF_RECORD_EXIT:
    case PERF_RECORD_LOST:
    case PERF_RECORD_THROTTLE:
      note_kernel_text (c, header);
      if (is_mapping_left_out (header) || !sp_perf_data_encode_other (&c->conv, header, c->record))
        return true;
      break;
    default:
      return true;
    }
  time = sp_recording_record_time (encoded);
  if (time > c->max_time)
    c->max_time = time;
  if (!sp_event_queue_push (&c->queue, encoded, time))
    {
      fprintf (stderr, "stackpulse-record: out of memory while putting the records of %s in time order\n",
               c->o->input);
      return false;
    }
  return true;
}

/* perf's own records in a pipe: attributes, features, build-ids. */
static void
read_header_record (Conversion *c,
                    const struct perf_event_header *header)
{
  const uint8_t *body = (const uint8_t *) (header + 1);
  size_t size = header->size - sizeof *header;
  uint64_t feature;

  if (header->type == SP_PERF_RECORD_HEADER_ATTR)
    sp_perf_data_add_attr_record (&c->data, header);
  else if (header->type == SP_PERF_RECORD_HEADER_BUILD_ID)
    sp_perf_data_read_build_ids (&c->data, (const uint8_t *) header, header->size);
  else if (header->type == SP_PERF_RECORD_HEADER_FEATURE && size >= 8)
    {
      memcpy (&feature, body, 8);
      if (feature == SP_PERF_FEAT_BUILD_ID)
        sp_perf_data_read_build_ids (&c->data, body + 8, size - 8);
      else if (feature < SP_PERF_FEAT_LAST)
        sp_perf_data_read_feature (&c->data, (unsigned) feature, body + 8, size - 8);
    }
}

static bool
is_header_record (uint32_t type)
{
  return type == SP_PERF_RECORD_HEADER_ATTR || type == SP_PERF_RECORD_HEADER_BUILD_ID
         || type == SP_PERF_RECORD_HEADER_FEATURE || type == SP_PERF_RECORD_HEADER_EVENT_TYPE;
}

static void
format_mb (uint64_t bytes,
           char *out,
           size_t size)
{
  snprintf (out, size, "%.1f", bytes / 1e6);
}

static void
report_progress (Conversion *c,
                 uint64_t now,
                 bool force_line)
{
  uint64_t total = c->data.pipe ? 0 : c->data.data_end;
  char done[32], all[32];

  if (c->o->progress_fd >= 0 && now - c->last_fd_ns >= PROGRESS_FD_INTERVAL_NS)
    {
      dprintf (c->o->progress_fd, "input_bytes=%llu input_total=%llu samples=%llu state=converting\n",
               (unsigned long long) c->data.position, (unsigned long long) total,
               (unsigned long long) c->rec.n_samples);
      c->last_fd_ns = now;
    }
  if (!force_line && now - c->last_line_ns < PROGRESS_LINE_INTERVAL_NS)
    return;
  format_mb (c->data.position, done, sizeof done);
  format_mb (total, all, sizeof all);
  if (total > 0)
    fprintf (stderr, "stackpulse-record: converting %s: %.0f%% (%s of %s MB), %llu samples\n", c->o->input,
             100.0 * (double) c->data.position / (double) total, done, all, (unsigned long long) c->rec.n_samples);
  else
    fprintf (stderr, "stackpulse-record: converting %s: %s MB, %llu samples\n", c->o->input, done,
             (unsigned long long) c->rec.n_samples);
  c->last_line_ns = now;
}

static void
periodic (Conversion *c)
{
  uint64_t now = monotonic_ns ();
  SpSpoolError err;

  report_progress (c, now, false);
  if (c->writer != NULL && now - c->last_flush_ns >= FLUSH_INTERVAL_NS)
    {
      if (!sp_spool_writer_flush (c->writer, &err) && !c->rec.failed)
        {
          c->rec.failed = true;
          c->rec.error = err;
        }
      c->last_flush_ns = now;
    }
}

/* Every record to the end or the damage; false when it cannot go on
 * (said), or a signal stopped it. */
static bool
convert_records (Conversion *c)
{
  const struct perf_event_header *header;
  SpPerfDataStatus status;
  uint64_t offset;
  const char *what;

  while ((status = sp_perf_data_next (&c->data, &header, &offset, &what)) == SP_PERF_DATA_RECORD)
    {
      if (stop_signal != 0)
        return false;
      if ((++c->input.records & 1023) == 0)
        periodic (c);
      if (is_header_record (header->type))
        {
          read_header_record (c, header);
          continue;
        }
      if (header->type == SP_PERF_RECORD_COMPRESSED)
        c->data.features.compressed = true;
      if (!ready (c))
        return false;
      if (header->type == SP_PERF_RECORD_FINISHED_ROUND)
        {
          flush_queue (c, c->watermark);
          c->watermark = c->max_time;
        }
      else if (!queue_record (c, header))
        return false;
      if (c->rec.failed)
        return false;
    }
  if (status == SP_PERF_DATA_STOPPED || stop_signal != 0)
    return false;
  if (status == SP_PERF_DATA_READ_ERROR)
    {
      fprintf (stderr, "stackpulse-record: cannot read %s: %s\n", c->o->input, strerror (errno));
      return false;
    }
  if (status == SP_PERF_DATA_DAMAGED && c->n_event_samples == 0)
    {
      fprintf (stderr, "stackpulse-record: %s is damaged at byte %llu (%s) before any sample: nothing to convert\n",
               c->o->input, (unsigned long long) offset, what);
      return false;
    }
  /* perf could not run the command, say: a spool of nothing helps nobody. */
  if (status == SP_PERF_DATA_END && c->chosen && c->n_event_samples == 0)
    {
      fprintf (stderr, "stackpulse-record: %s holds no samples of %s: nothing to convert\n", c->o->input,
               c->input.event);
      return false;
    }
  if (status == SP_PERF_DATA_DAMAGED)
    {
      c->input.damaged_at = (int64_t) offset;
      c->input.damage = what;
    }
  return ready (c);
}

/* ---- The end ------------------------------------------------------------- */

static void
fill_side_info (Conversion *c)
{
  const SpPerfDataFeatures *f = &c->data.features;
  struct stat st;

  c->side.complete = true;
  c->side.exit_status = -1;
  c->side.start_monotonic_ns = c->rec.first_ns;
  c->side.end_monotonic_ns = c->rec.last_ns;
  c->side.end_wall_us = c->side.start_wall_us + (c->rec.last_ns - c->rec.first_ns) / 1000;
  c->side.hostname = f->hostname;
  c->side.kernel_release = f->osrelease;
  c->side.machine = f->arch;
  c->side.input = &c->input;
  c->input.format = "perf.data";
  /* Absolute, for whoever reads the side file from elsewhere (the window's
   * Summary looks at the file). */
  c->absolute_path = strcmp (c->o->input, "-") != 0 ? realpath (c->o->input, NULL) : NULL;
  c->input.path = c->absolute_path != NULL ? c->absolute_path : c->o->input;
  if (!c->data.pipe && fstat (c->data.fd, &st) == 0)
    c->input.file_size = (uint64_t) st.st_size;
  c->input.mode = c->data.pipe ? "pipe" : "file";
  c->input.perf_version = f->version;
  c->input.perf_cmdline = f->cmdline;
  c->input.nr_cpus_online = f->nr_cpus_online;
  c->input.input_bytes = c->data.position;
  c->input.other_event_samples = c->conv.n_other_events;
  c->input.malformed_samples = c->conv.n_malformed;
  c->input.kernel_symbols = c->kernel_note;
  c->input.unfinished = !c->data.pipe && c->data.data_size_unknown;
}

static int
finish (Conversion *c)
{
  SpKallsyms kallsyms;
  bool have_kallsyms;
  char message[4400];
  SpSpoolError err;
  bool ok;

  flush_queue (c, UINT64_MAX);
  sp_recording_finish (&c->rec);
  /* perf report's "Total Lost Samples" are these where perf wrote them
   * (perf 6), else the rings' LOST records. */
  if (c->lost_samples > 0)
    c->rec.n_lost = c->lost_samples;
  ok = sp_spool_writer_flush (c->writer, &err);
  c->side.spool_bytes = sp_spool_writer_get_flushed_size (c->writer);
  c->side.spool_samples = sp_spool_writer_get_flushed_samples (c->writer);
  ok = sp_spool_writer_close (c->writer, &err) && ok && !c->rec.failed;
  c->writer = NULL;
  if (!ok)
    {
      fprintf (stderr, "stackpulse-record: cannot write %s: %s\n", c->o->output,
               c->rec.failed ? c->rec.error.message : (err.sys_errno != 0 ? strerror (err.sys_errno) : err.message));
      return SP_CONVERT_EXIT_FAILED;
    }
  if (!sp_output_commit (&c->output, message, sizeof message))
    fprintf (stderr, "stackpulse-record: warning: %s\n", message);
  c->input.modules_changed = sp_perf_data_check_module_files (&c->data, &c->rec.module_files);
  have_kallsyms = sp_perf_data_kernel_symbols (&c->data, c->rec.kernel_addresses.count > 0, &c->kallsyms_load, &kallsyms,
                                               c->kernel_note, sizeof c->kernel_note);
  fill_side_info (c);
  ok = sp_side_file_write (&c->side_file, &c->side, &c->rec, have_kallsyms ? &kallsyms : NULL, message, sizeof message);
  if (have_kallsyms)
    sp_kallsyms_clear (&kallsyms);
  if (!ok)
    {
      fprintf (stderr, "stackpulse-record: %s\n", message);
      return SP_CONVERT_EXIT_FAILED;
    }
  report_progress (c, monotonic_ns (), false);
  if (c->input.unfinished)
    fprintf (stderr, "stackpulse-record: %s was not finished by perf (its header gives no data size: perf record "
             "was killed?): converted its records to the end of the file\n", c->o->input);
  if (c->input.damaged_at >= 0)
    fprintf (stderr, "stackpulse-record: %s is damaged at byte %lld (%s): converted the %llu records before it\n",
             c->o->input, (long long) c->input.damaged_at, c->input.damage, (unsigned long long) c->input.records);
  if (c->rec.kernel_addresses.count > 0 && strncmp (c->kernel_note, "unnamed", 7) == 0)
    fprintf (stderr, "stackpulse-record: kernel frames are %s\n", c->kernel_note);
  if (c->o->progress_fd >= 0)
    dprintf (c->o->progress_fd, "input_bytes=%llu input_total=%llu state=done samples=%llu lost=%llu exit_status=0\n",
             (unsigned long long) c->data.position, (unsigned long long) (c->data.pipe ? 0 : c->data.data_end),
             (unsigned long long) c->side.spool_samples, (unsigned long long) c->rec.n_lost);
  fprintf (stderr, "stackpulse-record: %s converted: %llu samples (%llu lost) in %.2f s, written to %s\n",
           c->o->input, (unsigned long long) c->side.spool_samples, (unsigned long long) c->rec.n_lost,
           (monotonic_ns () - c->start_ns) / 1e9, c->o->output);
  return 0;
}

/* Stopped or failed after the output was made: it goes (only what this
 * run created), before the writer closes its descriptor. */
static void
discard (Conversion *c)
{
  if (c->output_open)
    sp_output_discard (&c->output);
  if (c->writer != NULL)
    sp_spool_writer_close (c->writer, NULL);
  c->writer = NULL;
}

static void
cleanup (Conversion *c)
{
  sp_event_queue_clear (&c->queue);
  sp_kallsyms_load_discard (&c->kallsyms_load);
  if (c->rec.modules != NULL)
    sp_recording_clear (&c->rec);
  sp_unwinder_free (c->unwinder);
  if (c->output_open)
    {
      sp_side_file_clear (&c->side_file);
      sp_output_clear (&c->output);
    }
  sp_perf_data_clear (&c->data);
  free (c->events_list);
  free (c->absolute_path);
}

int
sp_perf_data_convert (const SpConvertOptions *options)
{
  Conversion *c = calloc (1, sizeof *c);
  char message[512];
  int status, fd;

  if (c == NULL)
    return SP_CONVERT_EXIT_FAILED;
  c->o = options;
  c->start_ns = c->last_fd_ns = c->last_line_ns = c->last_flush_ns = monotonic_ns ();
  c->input.damaged_at = -1;
  c->data.fd = -1;
  sp_event_queue_init (&c->queue);
  catch_stop_signals ();
  fd = open_input (options->input, &status);
  if (fd >= 0 && !sp_perf_data_open (&c->data, fd, &stop_signal, &unblocked_mask, message, sizeof message))
    {
      if (stop_signal == 0)
        describe_refusal (c, message);
    }
  else if (fd >= 0)
    {
      status = convert_records (c) ? finish (c) : SP_CONVERT_EXIT_FAILED;
      if (status != 0)
        discard (c);
    }
  /* Signals come in only while input is awaited: never after finish. */
  if (stop_signal != 0)
    {
      fprintf (stderr, "stackpulse-record: conversion of %s stopped by signal %d%s%s%s\n", options->input, stop_signal,
               c->output_open ? ": " : "", c->output_open ? options->output : "", c->output_open ? " removed" : "");
      status = 128 + stop_signal;
    }
  /* The window reads the exit status; this line says the same for a
   * reader of the progress alone. */
  if (status != 0 && options->progress_fd >= 0)
    dprintf (options->progress_fd, "state=failed exit_status=%d\n", status);
  cleanup (c);
  free (c);
  return status;
}
