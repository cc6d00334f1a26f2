/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-ring-drain.c: a thread that copies the rings' records out as they come. */
#include "sp-ring-drain.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

#include "sp-offcpu-recording.h"
#include "sp-recording.h"
#include "sp-system-target.h"
#include "sp-unwinder.h"

/* Without a ring's wakeup (its watermark) the thread drains this often:
 * a record is then at most this late for the spool's followers. */
#define POLL_MS        50
/* A ring whose event's task exited says POLLHUP for good, so poll()
 * cannot wait on it: while one does, every ring is drained this often
 * (the command's children may still write into it). */
#define HUNG_UP_POLL_MS 10

static uint64_t
monotonic_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000ull + (uint64_t) ts.tv_nsec;
}

/* A sample's stack copy without the bytes above its thread's stack (the
 * kernel copies --stack-size bytes whatever the thread's depth): what is
 * queued is often a tenth of what the ring holds. NULL: keep it whole. */
static const struct perf_event_header *
cut_stack_copy (SpRingDrain *d,
                const SpSampleLayout *layout,
                const struct perf_event_header *header)
{
  SpPerfSample sample;
  uint64_t top, sp, keep;
  size_t at;
  uint8_t *out;

  if (d->stack_tops == NULL || header->type != PERF_RECORD_SAMPLE
      || !sp_perf_sample_parse (layout, header, &sample) || sample.regs == NULL || sample.stack == NULL)
    return NULL;
  top = sp_stack_tops_get (d->stack_tops, (int32_t) sample.tid);
  sp = sp_unwinder_user_sp (sample.regs);
  if (top <= sp || top - sp >= sp_perf_sample_stack_bytes (&sample))
    return NULL;
  keep = (top - sp + 7) & ~(uint64_t) 7;
  at = sp_perf_sample_stack_offset (&sample, header);
  out = (uint8_t *) d->cut_record;
  /* Everything before the copy, its new size, the kept bytes, and the
   * kernel's dyn_size (which still says whether the copy was cut). */
  memcpy (out, header, at);
  memcpy (out + at, &keep, 8);
  memcpy (out + at + 8, sample.stack, keep);
  memcpy (out + at + 8 + keep, &sample.stack_used, 8);
  ((struct perf_event_header *) (void *) out)->size = (uint16_t) (at + 16 + keep);
  return (const struct perf_event_header *) (void *) out;
}

/* -a: a sample of the idle task (pid 0) is idle time on the CPU whose
 * ring it came from, counted there and never queued. */
static bool
count_if_idle (SpRingDrain *d,
               const struct perf_event_header *header)
{
  SpPerfSample sample;

  if (!d->system_wide || header->type != PERF_RECORD_SAMPLE
      || !sp_perf_sample_parse (&d->layout, header, &sample) || sample.pid != 0)
    return false;
  d->idle_per_ring[d->draining_ring]++;
  return true;
}

static void
queue_record (const struct perf_event_header *header,
              void *user_data)
{
  SpRingDrain *d = user_data;
  const struct perf_event_header *cut;
  uint64_t time = sp_recording_record_time (header);

  if (count_if_idle (d, header))
    return;
  if (header->type != PERF_RECORD_SAMPLE)
    {
      sp_record_backlog_add (&d->backlog, header, time, SP_BACKLOG_KEEP);
      return;
    }
  d->ring_samples++;
  cut = cut_stack_copy (d, &d->layout, header);
  sp_record_backlog_add (&d->backlog, cut != NULL ? cut : header, time, SP_BACKLOG_SAMPLE);
}

/* An exec's command line, read now (SP_RECORD_EXEC_LINE): the program
 * may be gone when the recording applies the exec. */
static void
note_exec_line (SpRingDrain *d,
                const struct perf_event_header *header,
                uint64_t time)
{
  struct {
    struct perf_event_header header;
    uint32_t pid;
    char line[4096];
  } record;
  uint32_t pid;

  if (header->type != PERF_RECORD_COMM || !(header->misc & PERF_RECORD_MISC_COMM_EXEC)
      || header->size < sizeof *header + 8)
    return;
  memcpy (&pid, header + 1, sizeof pid);
  if (!sp_system_command_line ((pid_t) pid, record.line, sizeof record.line))
    return;
  record.header = (struct perf_event_header) {
    SP_RECORD_EXEC_LINE, 0, (uint16_t) (sizeof record.header + sizeof record.pid + strlen (record.line) + 1)
  };
  record.pid = pid;
  sp_record_backlog_add (&d->backlog, &record.header, time, SP_BACKLOG_KEEP);
}

/* A sched_switch sample the backlog has no room for, without its stack:
 * the switch-out it is (and the switch-in it may give) must not go with
 * the stack. The fields before the callchain, an empty callchain, the
 * tracepoint's fields, no registers, no copy: the switch layout still
 * reads it. Made in place when header is the drain's own copy (each part
 * moves down, never over what is still to move). */
static void
queue_switch_stub (SpRingDrain *d,
                   const struct perf_event_header *header,
                   uint64_t time)
{
  const uint64_t type = d->switch_layout.sample_type;
  uint8_t *out = (uint8_t *) d->cut_record;
  const uint8_t *raw_block;
  uint64_t zero = 0;
  SpPerfSample sample;
  size_t at, raw_bytes;

  if (!sp_perf_sample_parse (&d->switch_layout, header, &sample) || sample.raw == NULL
      || !(type & PERF_SAMPLE_CALLCHAIN))
    return;
  at = (size_t) ((const uint8_t *) sample.callchain - 8 - (const uint8_t *) header);
  raw_block = sample.raw - 4;
  raw_bytes = 4 + (size_t) sample.raw_size;
  memmove (out, header, at);
  memcpy (out + at, &zero, 8);
  at += 8;
  memmove (out + at, raw_block, raw_bytes);
  at += raw_bytes;
  if (type & PERF_SAMPLE_REGS_USER)
    {
      memcpy (out + at, &zero, 8);  /* PERF_SAMPLE_REGS_ABI_NONE */
      at += 8;
    }
  if (type & PERF_SAMPLE_STACK_USER)
    {
      memcpy (out + at, &zero, 8);
      at += 8;
    }
  ((struct perf_event_header *) (void *) out)->type = SP_RECORD_SWITCH_STUB;
  ((struct perf_event_header *) (void *) out)->size = (uint16_t) at;
  sp_record_backlog_add (&d->backlog, (const struct perf_event_header *) (void *) out, time, SP_BACKLOG_KEEP);
}

/* The switch rings' records: the switch records as they are, the
 * context-switch samples and the losses retyped so that they are not
 * taken for on-CPU ones (the copy is cut as a sample's). */
static void
queue_switch_record (const struct perf_event_header *header,
                     void *user_data)
{
  SpRingDrain *d = user_data;
  uint64_t time = sp_recording_record_time (header);
  const struct perf_event_header *cut;
  struct perf_event_header *copy;
  uint32_t type;
  /* What a ring loses counts as switch samples' in the switch rings
   * (off_cpu_lost), and as task records' (with the samples',
   * lost_samples) in the rings of records of their own events (-a, a
   * launch's cgroup) — unless those carry a cgroup's switch records too,
   * which are nearly all they lose (two at every switch). */
  bool cgroup_switch_records = d->events->cgroup_fd >= 0 && d->events->config.off_cpu
                               && !d->events->switch_tracepoint;
  bool losses_are_records = !d->draining_switch_ring && d->events->task_records_apart && !cgroup_switch_records;

  if (header->type == PERF_RECORD_SWITCH || header->type == PERF_RECORD_SWITCH_CPU_WIDE)
    {
      /* Its own type: the off-CPU recording and the recording take it. */
      sp_record_backlog_add (&d->backlog, header, time, SP_BACKLOG_KEEP);
      return;
    }
  if (header->type == PERF_RECORD_MMAP || header->type == PERF_RECORD_MMAP2 || header->type == PERF_RECORD_COMM
      || header->type == PERF_RECORD_FORK || header->type == PERF_RECORD_EXIT
      || (losses_are_records && header->type == PERF_RECORD_LOST))
    {
      note_exec_line (d, header, time);
      /* -a: the task records' own events (task_records_apart), whose
       * losses count with the samples' (lost_samples). */
      sp_record_backlog_add (&d->backlog, header, time, SP_BACKLOG_KEEP);
      return;
    }
  if (header->type == PERF_RECORD_SAMPLE)
    type = SP_RECORD_SWITCH_SAMPLE;
  else if (header->type == PERF_RECORD_LOST)
    type = SP_RECORD_SWITCH_LOST;
  else if (header->type == PERF_RECORD_LOST_SAMPLES)
    type = SP_RECORD_SWITCH_LOST_SAMPLES;
  else
    return;
  cut = cut_stack_copy (d, &d->switch_layout, header);
  copy = (struct perf_event_header *) (void *) d->cut_record;
  if (cut == NULL)
    memcpy (copy, header, header->size);
  copy->type = type;
  if (!sp_record_backlog_add (&d->backlog, copy, time,
                              type == SP_RECORD_SWITCH_SAMPLE ? SP_BACKLOG_SWITCH_SAMPLE : SP_BACKLOG_KEEP)
      && type == SP_RECORD_SWITCH_SAMPLE && d->events->switch_tracepoint)
    queue_switch_stub (d, copy, time);
}

void
sp_ring_drain_pass (SpRingDrain *d)
{
  SpPerfEvents *events = d->events;
  uint64_t start = monotonic_ns ();
  size_t used;

  sp_record_backlog_lock (&d->backlog);
  /* Switch samples first: each comes before its switch-out record. */
  d->draining_switch_ring = true;
  for (size_t i = 0; i < events->n_switch_rings; i++)
    sp_perf_ring_drain (&events->switch_rings[i], queue_switch_record, d);
  d->draining_switch_ring = false;
  for (size_t i = 0; i < events->n_record_rings; i++)
    sp_perf_ring_drain (&events->record_rings[i], queue_switch_record, d);
  for (size_t i = 0; i < events->n_rings; i++)
    {
      d->draining_ring = i;
      sp_perf_ring_drain (&events->rings[i], queue_record, d);
    }
  d->drained_through_ns = start;
  used = d->backlog.pending.used;
  sp_record_backlog_unlock (&d->backlog);
  /* The taker wakes (EAGAIN: a counter that full wakes it all the same). */
  if (used > 0)
    {
      uint64_t one = 1;
      ssize_t written = write (d->wake_fd, &one, sizeof one);

      (void) written;
    }
}

/* Every ring's fd (its first event's), after the stop's. */
static size_t
ring_fds (const SpRingDrain *d,
          struct pollfd *fds)
{
  const SpPerfEvents *events = d->events;
  size_t n = 0;

  fds[n++] = (struct pollfd) { d->stop_fd, POLLIN, 0 };
  for (size_t i = 0; i < events->n_rings; i++)
    fds[n++] = (struct pollfd) { events->rings[i].fd, POLLIN, 0 };
  for (size_t i = 0; i < events->n_switch_rings; i++)
    fds[n++] = (struct pollfd) { events->switch_rings[i].fd, POLLIN, 0 };
  for (size_t i = 0; i < events->n_record_rings; i++)
    fds[n++] = (struct pollfd) { events->record_rings[i].fd, POLLIN, 0 };
  return n;
}

static void *
drain_thread (void *data)
{
  SpRingDrain *d = data;
  bool hung_up = false;

  for (;;)
    {
      poll (d->fds, d->n_fds, hung_up ? HUNG_UP_POLL_MS : POLL_MS);
      if (d->fds[0].revents & POLLIN)
        break;
      for (size_t i = 1; i < d->n_fds; i++)
        if (d->fds[i].revents & (POLLHUP | POLLERR | POLLNVAL))
          {
            d->fds[i].fd = -1;
            hung_up = true;
          }
      sp_ring_drain_pass (d);
    }
  return NULL;
}

bool
sp_ring_drain_init (SpRingDrain *d,
                    SpPerfEvents *events,
                    const SpSampleLayout *layout,
                    SpStackTops *stack_tops,
                    bool system_wide,
                    size_t limit)
{
  memset (d, 0, sizeof *d);
  d->events = events;
  d->layout = *layout;
  d->switch_layout = sp_perf_events_switch_layout (events, layout);
  d->stack_tops = stack_tops;
  d->system_wide = system_wide;
  d->stop_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  d->wake_fd = eventfd (0, EFD_CLOEXEC | EFD_NONBLOCK);
  sp_record_backlog_init (&d->backlog, limit);
  d->idle_per_ring = calloc (events->n_rings > 0 ? events->n_rings : 1, sizeof (uint64_t));
  return d->stop_fd >= 0 && d->wake_fd >= 0 && d->idle_per_ring != NULL;
}

void
sp_ring_drain_clear (SpRingDrain *d)
{
  if (d->events == NULL)
    return;  /* never set up */
  if (d->running)
    sp_ring_drain_stop (d);
  if (d->stop_fd >= 0)
    close (d->stop_fd);
  if (d->wake_fd >= 0)
    close (d->wake_fd);
  sp_record_backlog_clear (&d->backlog);
  free (d->idle_per_ring);
  free (d->fds);
  memset (d, 0, sizeof *d);
}

bool
sp_ring_drain_start (SpRingDrain *d)
{
  const SpPerfEvents *events = d->events;
  int err;

  d->fds = calloc (1 + events->n_rings + events->n_switch_rings + events->n_record_rings, sizeof *d->fds);
  if (d->fds == NULL)
    {
      errno = ENOMEM;
      return false;
    }
  d->n_fds = ring_fds (d, d->fds);
  err = pthread_create (&d->thread, NULL, drain_thread, d);
  if (err != 0)
    {
      errno = err;
      return false;
    }
  d->running = true;
  return true;
}

void
sp_ring_drain_stop (SpRingDrain *d)
{
  uint64_t one = 1;

  if (d->running)
    {
      while (write (d->stop_fd, &one, sizeof one) < 0 && errno == EINTR)
        ;
      pthread_join (d->thread, NULL);
      d->running = false;
    }
  sp_ring_drain_pass (d);
}

int
sp_ring_drain_wake_fd (const SpRingDrain *d)
{
  return d->wake_fd;
}

void
sp_ring_drain_take (SpRingDrain *d,
                    SpRecordBuffer *into,
                    uint64_t *idle_per_ring,
                    SpDrainTaken *taken)
{
  uint64_t cleared;

  /* Read before the records are taken: what they say is then true of
   * the records taken (which may include a later pass's). */
  sp_record_backlog_lock (&d->backlog);
  taken->drained_through_ns = d->drained_through_ns;
  taken->ring_samples = d->ring_samples;
  if (idle_per_ring != NULL)
    memcpy (idle_per_ring, d->idle_per_ring, d->events->n_rings * sizeof (uint64_t));
  sp_record_backlog_unlock (&d->backlog);
  if (read (d->wake_fd, &cleared, sizeof cleared) < 0)
    cleared = 0;  /* nothing was added since the last read */
  sp_record_backlog_take (&d->backlog, into, &taken->counts);
}
