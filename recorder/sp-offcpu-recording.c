/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-recording.c: decoding switch records and switch samples, and
 * writing the off-CPU companion. */
#include "sp-offcpu-recording.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A switch sample pairs with its thread's next switch-out only this close
 * to it: the kernel takes both in one pass through the scheduler. */
#define PAIRING_WINDOW_NS (1000 * 1000ull)

/* The trailer of every non-sample record (sample_id_all with TID|TIME). */
typedef struct {
  uint32_t pid;
  uint32_t tid;
  uint64_t time;
} SampleId;

static void
fail (SpOffCpuRecording *off,
      const SpSpoolError *err)
{
  if (!off->failed)
    fprintf (stderr, "\nstackpulse-record: warning: cannot write the off-CPU records (%s); the recording goes on "
             "without them\n", err->sys_errno != 0 ? strerror (err->sys_errno) : err->message);
  off->failed = true;
}

bool
sp_offcpu_recording_init (SpOffCpuRecording *off,
                          SpRecording *rec,
                          int fd,
                          SpSpoolError *err)
{
  memset (off, 0, sizeof *off);
  off->rec = rec;
  sp_intern_table_init (&off->synced_stacks, 1);
  off->writer = sp_offcpu_writer_new_for_fd (fd, true, err);
  if (off->writer == NULL)
    {
      close (fd);
      return false;
    }
  return sp_offcpu_writer_flush (off->writer, err);
}

bool
sp_offcpu_recording_is_switch_ring (uint32_t type)
{
  return type == SP_RECORD_SWITCH_SAMPLE || type == SP_RECORD_SWITCH_STUB || type == SP_RECORD_SWITCH_LOST
         || type == SP_RECORD_SWITCH_LOST_SAMPLES;
}

bool
sp_offcpu_recording_wants (uint32_t type)
{
  return type == PERF_RECORD_SWITCH || type == PERF_RECORD_SWITCH_CPU_WIDE || type == PERF_RECORD_EXIT
         || sp_offcpu_recording_is_switch_ring (type);
}

uint64_t
sp_offcpu_recording_lost (const SpOffCpuRecording *off,
                          uint64_t rec_lost)
{
  return rec_lost + off->n_lost;
}

/* The thread's spool THREAD id, defined (with no stack) when it has none. */
static bool
ensure_thread_id (SpOffCpuRecording *off,
                  SpThreadInfo *thread)
{
  SpSpoolError err;

  if (thread->spool_id != SP_SPOOL_NO_ID)
    return true;
  if (!sp_spool_writer_intern_stack (off->rec->writer, thread->pid, (uint64_t) thread->tid, NULL, 0,
                                     &thread->spool_id, NULL, &err))
    {
      if (!off->rec->failed)
        off->rec->error = err;
      off->rec->failed = true;
      return false;
    }
  return true;
}

/* Before a record that names thread (and stack): when either may be
 * defined after the last SYNC, the spool is flushed and a SYNC says how far
 * a reader must have read it. */
static bool
sync_ids (SpOffCpuRecording *off,
          SpThreadInfo *thread,
          uint32_t stack)
{
  uint64_t key = stack;
  SpSpoolError err;

  if (thread->offcpu_synced && (stack == SP_SPOOL_NO_ID || sp_intern_table_lookup (&off->synced_stacks, &key) >= 0))
    return true;
  if (sp_spool_writer_get_size (off->rec->writer) > off->synced_bytes)
    {
      if (!sp_spool_writer_flush (off->rec->writer, &err))
        {
          if (!off->rec->failed)
            off->rec->error = err;
          off->rec->failed = true;
          return false;
        }
      off->synced_bytes = sp_spool_writer_get_flushed_size (off->rec->writer);
      if (!sp_offcpu_writer_write_sync (off->writer, off->synced_bytes, &err))
        {
          fail (off, &err);
          return false;
        }
    }
  thread->offcpu_synced = true;
  if (stack != SP_SPOOL_NO_ID)
    sp_intern_table_intern (&off->synced_stacks, &key, &(bool) { false });
  return true;
}

/* A switch sample's frames (rec->frames) as a stack of the main spool,
 * SP_SPOOL_NO_ID when there are none; false when the spool cannot be
 * written (the recording has failed). */
static bool
intern_switch_stack (SpOffCpuRecording *off,
                     const SpPerfSample *sample,
                     SpThreadInfo *thread,
                     size_t n_frames,
                     uint32_t *stack)
{
  SpRecording *rec = off->rec;
  SpSpoolError err;

  *stack = SP_SPOOL_NO_ID;
  if (n_frames == 0 || sp_spool_writer_intern_stack (rec->writer, (int32_t) sample->pid, sample->tid, rec->frames,
                                                     n_frames, &thread->spool_id, stack, &err))
    return true;
  if (!rec->failed)
    rec->error = err;
  rec->failed = true;
  return false;
}

/* A context-switches sample: its stack waits for the thread's switch-out. */
static void
handle_switch_sample (SpOffCpuRecording *off,
                      const struct perf_event_header *header,
                      uint64_t time)
{
  SpRecording *rec = off->rec;
  SpPerfSample sample;
  SpThreadInfo *thread;
  uint32_t stack = SP_SPOOL_NO_ID;
  bool dropped;
  size_t n;

  if (!sp_recording_sample_frames (rec, header, time, true, &sample, &n, &dropped))
    return;
  thread = sp_recording_thread (rec, (int32_t) sample.pid, (int32_t) sample.tid);
  /* A per-CPU event sees an ended thread's last switch too: no wait. */
  if (thread == NULL || thread->exit_ns != 0)
    return;
  if (thread->pending_ns != 0)
    off->n_dropped++;  /* a sample whose switch-out never came */
  thread->pending_ns = 0;
  if (dropped)
    {
      off->n_dropped++;
      return;
    }
  if (!intern_switch_stack (off, &sample, thread, n, &stack))
    return;
  thread->pending_stack = stack;
  thread->pending_ns = time;
}

static void
write_switch_out (SpOffCpuRecording *off,
                  SpThreadInfo *thread,
                  bool preempted,
                  uint32_t stack,
                  uint64_t time)
{
  SpOffCpuState state = preempted ? SP_OFFCPU_RUNNABLE : SP_OFFCPU_BLOCKED;
  SpSpoolError err;

  thread->out_ns = time;
  thread->out_state = (uint8_t) state;
  thread->switches++;
  if (!ensure_thread_id (off, thread) || !sync_ids (off, thread, stack))
    return;
  if (!sp_offcpu_writer_write_switch_out (off->writer, time, thread->spool_id, state, stack, &err))
    fail (off, &err);
  off->n_switches++;
}

/* A switch record's switch-out, with the stack of the switch sample just
 * before it. */
static void
switch_out (SpOffCpuRecording *off,
            SpThreadInfo *thread,
            bool preempted,
            uint64_t time)
{
  uint32_t stack = SP_SPOOL_NO_ID;

  if (thread->pending_ns != 0 && time - thread->pending_ns <= PAIRING_WINDOW_NS && time >= thread->pending_ns)
    stack = thread->pending_stack;
  else if (thread->pending_ns != 0)
    off->n_dropped++;
  thread->pending_ns = 0;
  write_switch_out (off, thread, preempted, stack, time);
}

/* A state a thread is in from time on, without a stack, that is no
 * context switch (not counted as one: readers do not either): blocked
 * when an attach finds it so, runnable from its creation. */
static void
write_state_at (SpOffCpuRecording *off,
                SpThreadInfo *thread,
                SpOffCpuState state,
                uint64_t time)
{
  SpSpoolError err;

  if (!ensure_thread_id (off, thread) || !sync_ids (off, thread, SP_SPOOL_NO_ID))
    return;
  thread->out_ns = time;
  thread->out_state = (uint8_t) state;
  if (!sp_offcpu_writer_write_switch_out (off->writer, time, thread->spool_id, state, SP_SPOOL_NO_ID, &err))
    fail (off, &err);
}

void
sp_offcpu_recording_blocked_at_start (SpOffCpuRecording *off,
                                      int32_t pid,
                                      int32_t tid,
                                      uint64_t time)
{
  SpThreadInfo *thread = sp_recording_thread (off->rec, pid, tid);

  if (off->writer != NULL && thread != NULL)
    write_state_at (off, thread, SP_OFFCPU_BLOCKED, time);
}

/* Closes the thread's off-CPU interval at time in its totals. */
static void
close_interval (SpThreadInfo *thread,
                uint64_t time)
{
  uint64_t span;

  if (thread->out_ns == 0)
    return;
  span = time > thread->out_ns ? time - thread->out_ns : 0;
  if (thread->out_state == SP_OFFCPU_RUNNABLE)
    thread->runnable_ns += span;
  else
    thread->blocked_ns += span;
  thread->out_ns = 0;
}

static void
switch_in (SpOffCpuRecording *off,
           SpThreadInfo *thread,
           uint64_t time)
{
  SpSpoolError err;

  close_interval (thread, time);
  if (!ensure_thread_id (off, thread) || !sync_ids (off, thread, SP_SPOOL_NO_ID))
    return;
  if (!sp_offcpu_writer_write_switch_in (off->writer, time, thread->spool_id, &err))
    fail (off, &err);
}

static void
handle_switch (SpOffCpuRecording *off,
               const struct perf_event_header *header,
               uint64_t time)
{
  SampleId id;
  SpThreadInfo *thread;

  if (header->size < sizeof *header + sizeof id)
    return;
  memcpy (&id, (const uint8_t *) header + header->size - sizeof id, sizeof id);
  /* A per-CPU event's record of a task on its way out names no thread
   * (tid -1): its exit record has ended it already. */
  if ((int32_t) id.tid <= 0)
    return;
  thread = sp_recording_thread (off->rec, (int32_t) id.pid, (int32_t) id.tid);
  if (thread == NULL || thread->exit_ns != 0)
    return;  /* the last switch-out of a thread that ended is no wait */
  if (header->misc & PERF_RECORD_MISC_SWITCH_OUT)
    switch_out (off, thread, (header->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) != 0, time);
  else
    switch_in (off, thread, time);
}

/* The thread of a tid the recording knows (a sched_switch sample names
 * the next thread by its tid alone), NULL when it knows none. */
static SpThreadInfo *
known_thread (SpOffCpuRecording *off,
              int32_t tid)
{
  uint64_t key = (uint64_t) (int64_t) tid;
  int64_t i = tid > 0 ? sp_intern_table_lookup (&off->rec->thread_index, &key) : -1;

  return i >= 0 ? &off->rec->threads[i] : NULL;
}

/* The thread a FORK or EXIT record names (pid, ppid, tid, ptid), NULL
 * when the recording knows none. */
static SpThreadInfo *
task_record_thread (SpOffCpuRecording *off,
                    const struct perf_event_header *header)
{
  uint32_t ids[4];

  if (header->size < sizeof *header + sizeof ids)
    return NULL;
  memcpy (ids, header + 1, sizeof ids);
  return known_thread (off, (int32_t) ids[2]);
}

/* EXIT: the thread's last interval ends (it switches in no more). */
static void
handle_exit (SpOffCpuRecording *off,
             const struct perf_event_header *header,
             uint64_t time)
{
  SpThreadInfo *thread = task_record_thread (off, header);
  SpSpoolError err;

  /* With switch records, a thread never switched and never sampled has
   * nothing to end. With sched_switch samples no switch of a short
   * process that never switches out is written, and its samples may come
   * after its exit record (per-CPU events see it tear its memory down):
   * every thread is ended, or a reader would take one sampled later for
   * running to the end of the recording. */
  if (thread == NULL || (!off->sched_switch && thread->spool_id == SP_SPOOL_NO_ID && thread->n_samples == 0))
    return;
  close_interval (thread, time);
  if (!ensure_thread_id (off, thread) || !sync_ids (off, thread, SP_SPOOL_NO_ID))
    return;
  if (!sp_offcpu_writer_write_thread_end (off->writer, time, thread->spool_id, &err))
    fail (off, &err);
}

void
sp_offcpu_recording_fork (SpOffCpuRecording *off,
                          const struct perf_event_header *header,
                          uint64_t time)
{
  SpThreadInfo *thread;

  if (off->writer == NULL || off->failed || off->rec->failed)
    return;
  thread = task_record_thread (off, header);
  /* Made by sp_recording_handle; seen running already (a record out of
   * order) is left as it is. */
  if (thread != NULL && thread->exit_ns == 0 && thread->out_ns == 0 && thread->start_ns == time)
    write_state_at (off, thread, SP_OFFCPU_RUNNABLE, time);
}

/* The kernel's count of what it could not store in a switch samples'
 * ring: PERF_RECORD_LOST (id, lost) or PERF_RECORD_LOST_SAMPLES (lost).
 * The switch-outs of those samples are written without a stack. */
static void
handle_switch_lost (SpOffCpuRecording *off,
                    const struct perf_event_header *header)
{
  size_t offset = header->type == SP_RECORD_SWITCH_LOST ? 8 : 0;
  uint64_t lost;

  if (header->size >= sizeof *header + offset + sizeof lost)
    {
      memcpy (&lost, (const uint8_t *) (header + 1) + offset, sizeof lost);
      off->n_lost += lost;
    }
  /* A launch's cgroup: its task records share these rings, and the exec
   * the recording waits for may be among what was lost. Better a few
   * samples from before the exec than none of the program's. */
  sp_recording_await_exec (off->rec, 0);
}

bool
sp_offcpu_recording_use_sched_switch (SpOffCpuRecording *off,
                                      const SpSchedSwitchFormat *format,
                                      size_t n_cpus)
{
  off->cpus = calloc (n_cpus > 0 ? n_cpus : 1, sizeof *off->cpus);
  if (off->cpus == NULL)
    return false;
  off->n_cpus = n_cpus;
  off->format = *format;
  off->sched_switch = true;
  return true;
}

void
sp_offcpu_recording_running (SpOffCpuRecording *off,
                             const struct perf_event_header *header,
                             uint64_t time)
{
  SpPerfSample sample;
  SpThreadInfo *thread;

  if (off->writer == NULL || off->failed || off->rec->failed || !off->sched_switch
      || !sp_perf_sample_parse (&off->rec->layout, header, &sample))
    return;
  thread = known_thread (off, (int32_t) sample.tid);
  if (thread == NULL || thread->exit_ns != 0 || thread->out_ns == 0 || time < thread->out_ns)
    return;
  thread->provisional_out_ns = thread->out_ns;
  switch_in (off, thread, time);
  thread->provisional_in_ns = time;
}

/* The switch-in of a thread switching out at a sched_switch sample, when
 * no next_pid gave it: it came in after a task outside the cgroup, and has
 * run since for as long as the cgroup ran on the CPU (in_ns). A
 * provisional one (sp_offcpu_recording_running) is made exact: an earlier
 * switch-in is written (a follower ignores the later one: the thread is
 * running by then), and the time the provisional one counted off-CPU is
 * taken back. */
static void
infer_switch_in (SpOffCpuRecording *off,
                 SpThreadInfo *thread,
                 uint64_t in_ns)
{
  SpSpoolError err;

  if (thread->out_ns != 0)
    switch_in (off, thread, in_ns > thread->out_ns ? in_ns : thread->out_ns);
  else if (thread->provisional_in_ns != 0)
    {
      uint64_t exact = in_ns > thread->provisional_out_ns ? in_ns : thread->provisional_out_ns;

      if (exact < thread->provisional_in_ns)
        {
          uint64_t *total = thread->out_state == SP_OFFCPU_RUNNABLE ? &thread->runnable_ns : &thread->blocked_ns;
          uint64_t back = thread->provisional_in_ns - exact;

          *total -= back < *total ? back : *total;
          if (!sp_offcpu_writer_write_switch_in (off->writer, exact, thread->spool_id, &err))
            fail (off, &err);
        }
    }
  thread->provisional_in_ns = 0;
}

/* A cgroup's sched_switch sample: the thread switching out (with its
 * stack, and whether it blocked), and the one coming in. */
static void
handle_sched_switch (SpOffCpuRecording *off,
                     const struct perf_event_header *header,
                     uint64_t time)
{
  SpRecording *rec = off->rec;
  SpPerfSample sample;
  SpThreadInfo *thread, *next;
  SpSwitchCpu *cpu;
  uint32_t stack = SP_SPOOL_NO_ID;
  uint64_t ran;
  int32_t next_tid;
  bool runnable, dropped, stub;
  size_t n = 0;

  if (!sp_perf_sample_parse (&rec->switch_layout, header, &sample) || sample.cpu >= off->n_cpus
      || !sp_sched_switch_decode (&off->format, sample.raw, sample.raw_size, &runnable, &next_tid))
    return;
  /* Every sample of the CPU moves its clock on, the launch's before its
   * exec too: the running time since is the next thread's alone. */
  cpu = &off->cpus[sample.cpu];
  ran = !cpu->seen ? sample.time_running : sample.time_running > cpu->running ? sample.time_running - cpu->running : 0;
  *cpu = (SpSwitchCpu) { time, sample.time_running, true };
  /* A stub's stack was dropped by the drain (and counted there): it has
   * no frames to take (its emptied callchain would give its ip alone,
   * __schedule). */
  stub = header->type == SP_RECORD_SWITCH_STUB;
  dropped = false;
  if ((stub || sp_recording_sample_frames (rec, header, time, true, &sample, &n, &dropped))
      && (thread = sp_recording_thread (rec, (int32_t) sample.pid, (int32_t) sample.tid)) != NULL
      && thread->exit_ns == 0)
    {
      infer_switch_in (off, thread, time > ran ? time - ran : 0);
      if (dropped)
        off->n_dropped++;
      else if (!stub && !intern_switch_stack (off, &sample, thread, n, &stack))
        return;
      write_switch_out (off, thread, runnable, stack, time);
    }
  /* (Switched out, it has no provisional switch-in: infer_switch_in
   * cleared it before its switch-out.) */
  next = known_thread (off, next_tid);
  if (next != NULL && next->exit_ns == 0 && next->out_ns != 0 && time >= next->out_ns)
    switch_in (off, next, time);
}

void
sp_offcpu_recording_handle (SpOffCpuRecording *off,
                            const struct perf_event_header *header,
                            uint64_t time)
{
  if (off->writer == NULL || off->failed || off->rec->failed)
    return;
  switch (header->type)
    {
    /* Per-CPU events of a launch's cgroup: the same, as its sample_id
     * names the thread switching out or in (the other one in the record
     * is left to its own record). */
    case PERF_RECORD_SWITCH_CPU_WIDE:
    case PERF_RECORD_SWITCH:      handle_switch (off, header, time); break;
    case SP_RECORD_SWITCH_STUB:
    case SP_RECORD_SWITCH_SAMPLE:
      if (off->sched_switch)
        handle_sched_switch (off, header, time);
      else
        handle_switch_sample (off, header, time);
      break;
    case SP_RECORD_SWITCH_LOST:
    case SP_RECORD_SWITCH_LOST_SAMPLES: handle_switch_lost (off, header); break;
    case PERF_RECORD_EXIT:        handle_exit (off, header, time); break;
    default: break;
    }
}

void
sp_offcpu_recording_flush (SpOffCpuRecording *off)
{
  SpSpoolError err;

  if (off->writer == NULL || off->failed)
    return;
  if (!sp_offcpu_writer_flush (off->writer, &err))
    fail (off, &err);
  else
    off->flushed_switches = off->n_switches;
}

uint64_t
sp_offcpu_recording_bytes (const SpOffCpuRecording *off)
{
  return off->writer != NULL ? sp_offcpu_writer_get_flushed_size (off->writer) : 0;
}

void
sp_offcpu_recording_finish (SpOffCpuRecording *off,
                            uint64_t end_ns)
{
  SpRecording *rec = off->rec;

  if (off->writer == NULL)
    return;
  for (size_t i = 0; i < rec->thread_index.count; i++)
    close_interval (&rec->threads[i], end_ns);
  sp_offcpu_recording_flush (off);
}

void
sp_offcpu_recording_clear (SpOffCpuRecording *off)
{
  SpSpoolError err;

  if (off->writer != NULL && !sp_offcpu_writer_close (off->writer, &err) && !off->failed)
    fail (off, &err);
  sp_intern_table_clear (&off->synced_stacks);
  free (off->cpus);
  memset (off, 0, sizeof *off);
}
