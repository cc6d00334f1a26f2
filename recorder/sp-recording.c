/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recording.c: decoding perf records and writing the spool. */
#include "sp-recording.h"

#include <stdlib.h>
#include <string.h>

#include "sp-array.h"
#include "sp-system-target.h"

/* Addresses at or above this are the kernel's on x86-64 and arm64. */
#define KERNEL_SPACE_START UINT64_C (0xffff800000000000)
/* Deeper user stacks than this end in the truncated marker. */
#define MAX_USER_FRAMES 1024

/* The trailer of every non-sample record (sample_id_all with TID|TIME). */
typedef struct {
  uint32_t pid;
  uint32_t tid;
  uint64_t time;
} SampleId;

static void
remember_failure (SpRecording *rec,
                  const SpSpoolError *err)
{
  if (!rec->failed)
    rec->error = *err;
  rec->failed = true;
}

bool
sp_recording_init (SpRecording *rec,
                   SpSpoolWriter *writer,
                   unsigned max_stack)
{
  memset (rec, 0, sizeof *rec);
  rec->writer = writer;
  rec->max_stack = max_stack;
  rec->modules = sp_module_table_new ();
  rec->layout.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;
  rec->switch_layout = rec->layout;
  sp_intern_table_init (&rec->thread_index, 1);
  sp_intern_table_init (&rec->process_index, 1);
  sp_intern_table_init (&rec->kernel_addresses, 1);
  sp_module_files_init (&rec->module_files);
  return rec->modules != NULL;
}

void
sp_recording_clear (SpRecording *rec)
{
  for (size_t i = 0; i < rec->process_index.count; i++)
    {
      free (rec->processes[i].executable);
      free (rec->processes[i].command_line);
    }
  free (rec->processes);
  for (size_t i = 0; i < rec->n_exec_lines; i++)
    free (rec->exec_lines[i].line);
  free (rec->exec_lines);
  free (rec->threads);
  free (rec->frames);
  free (rec->user_frames);
  sp_intern_table_clear (&rec->thread_index);
  sp_intern_table_clear (&rec->process_index);
  sp_intern_table_clear (&rec->kernel_addresses);
  sp_module_files_clear (&rec->module_files);
  sp_module_table_free (rec->modules);
  memset (rec, 0, sizeof *rec);
}

bool
sp_recording_set_unwinder (SpRecording *rec,
                           SpUnwinder *unwinder,
                           const SpSampleLayout *layout,
                           uint64_t switch_stack_size)
{
  rec->unwinder = unwinder;
  rec->layout = *layout;
  rec->switch_layout = *layout;
  rec->switch_stack_size = switch_stack_size;
  if (unwinder != NULL && rec->user_frames == NULL)
    rec->user_frames = malloc (MAX_USER_FRAMES * sizeof (uint64_t));
  return unwinder == NULL || rec->user_frames != NULL;
}

/* The process record of pid, created on first use (NULL: no memory). */
static SpProcessInfo *
process_for (SpRecording *rec,
             int32_t pid)
{
  uint64_t key = (uint64_t) (int64_t) pid;
  bool added;
  int64_t i;

  if (!sp_array_reserve ((void **) &rec->processes, &rec->processes_capacity, rec->process_index.count + 1,
             sizeof (SpProcessInfo)))
    return NULL;
  i = sp_intern_table_intern (&rec->process_index, &key, &added);
  if (i < 0)
    return NULL;
  if (added)
    {
      memset (&rec->processes[i], 0, sizeof (SpProcessInfo));
      rec->processes[i].pid = pid;
    }
  return &rec->processes[i];
}

static SpThreadInfo *
thread_for (SpRecording *rec,
            int32_t pid,
            int32_t tid)
{
  uint64_t key = (uint64_t) (int64_t) tid;
  bool added;
  int64_t i;

  if (!sp_array_reserve ((void **) &rec->threads, &rec->threads_capacity, rec->thread_index.count + 1,
             sizeof (SpThreadInfo)))
    return NULL;
  i = sp_intern_table_intern (&rec->thread_index, &key, &added);
  if (i < 0)
    return NULL;
  if (added)
    {
      memset (&rec->threads[i], 0, sizeof (SpThreadInfo));
      rec->threads[i].tid = tid;
      rec->threads[i].spool_id = SP_SPOOL_NO_ID;
    }
  rec->threads[i].pid = pid;
  return &rec->threads[i];
}

SpThreadInfo *
sp_recording_thread (SpRecording *rec,
                     int32_t pid,
                     int32_t tid)
{
  return thread_for (rec, pid, tid);
}

static void
set_name (char *dest,
          const char *name)
{
  size_t len = strnlen (name, SP_TASK_NAME_LEN - 1);

  memcpy (dest, name, len);
  dest[len] = '\0';
}

bool
sp_recording_looks_like_python (const char *path)
{
  const char *base = strrchr (path, '/');

  base = base ? base + 1 : path;
  if (strncmp (base, "libpython", 9) == 0)
    return true;
  if (strncmp (base, "python", 6) != 0)
    return false;
  for (const char *p = base + 6; *p != '\0'; p++)
    if ((*p < '0' || *p > '9') && *p != '.')
      return false;
  return true;
}

bool
sp_recording_add_kernel_module (SpRecording *rec)
{
  static const char path[] = "[kernel.kallsyms]";
  SpModule module = { KERNEL_SPACE_START, UINT64_MAX, 0, 0, path, sizeof path - 1, -1, true };
  uint32_t id;
  SpSpoolError err;

  if (!sp_module_table_intern (rec->modules, rec->writer, &module, &id, &err))
    {
      remember_failure (rec, &err);
      return false;
    }
  return true;
}

bool
sp_recording_add_mapping (SpRecording *rec,
                          const SpModule *module)
{
  SpProcessInfo *process = process_for (rec, module->pid);
  uint32_t id;
  SpSpoolError err;

  if (process != NULL && process->executable == NULL && module->path[0] == '/')
    process->executable = strdup (module->path);
  if (process != NULL && process->exec_pending && sp_recording_looks_like_python (module->path))
    process->python = true;
  if (rec->unwinder != NULL)
    sp_unwinder_add_mapping (rec->unwinder, module);
  if (!module->is_kernel)
    sp_module_files_note (&rec->module_files, module->path, module->inode);
  if (!sp_module_table_intern (rec->modules, rec->writer, module, &id, &err))
    {
      remember_failure (rec, &err);
      return false;
    }
  return true;
}

void
sp_recording_add_task (SpRecording *rec,
                       int32_t pid,
                       int32_t tid,
                       const char *name)
{
  SpThreadInfo *thread = thread_for (rec, pid, tid);

  process_for (rec, pid);
  if (thread != NULL)
    {
      set_name (thread->name, name);
      thread->name_known = true;
    }
}

void
sp_recording_note_exec_line (SpRecording *rec,
                             int32_t pid,
                             const char *command_line)
{
  char *line = strdup (command_line);

  if (line == NULL || !sp_array_reserve ((void **) &rec->exec_lines, &rec->exec_lines_capacity,
                                         rec->n_exec_lines + 1, sizeof (SpExecLine)))
    {
      free (line);
      return;
    }
  rec->exec_lines[rec->n_exec_lines++] = (SpExecLine) { pid, line };
}

/* The first line noted for pid, taken (NULL: none): execs are applied in
 * the order their records left the rings. */
static char *
take_exec_line (SpRecording *rec,
                int32_t pid)
{
  for (size_t i = 0; i < rec->n_exec_lines; i++)
    if (rec->exec_lines[i].pid == pid)
      {
        char *line = rec->exec_lines[i].line;

        memmove (&rec->exec_lines[i], &rec->exec_lines[i + 1],
                 (rec->n_exec_lines - i - 1) * sizeof (SpExecLine));
        rec->n_exec_lines--;
        return line;
      }
  return NULL;
}

void
sp_recording_await_exec (SpRecording *rec,
                         int32_t pid)
{
  rec->awaited_exec_pid = pid;
}

void
sp_recording_read_proc (SpRecording *rec)
{
  rec->live = true;
}

void
sp_recording_follow_system (SpRecording *rec,
                            int32_t recorder_pid)
{
  rec->system_wide = true;
  rec->count_idle = true;
  rec->recorder_pid = recorder_pid;
}

void
sp_recording_describe_process (SpRecording *rec,
                               int32_t pid,
                               const char *command_line,
                               bool kernel_thread)
{
  SpProcessInfo *process = process_for (rec, pid);

  if (process == NULL)
    return;
  free (process->command_line);
  process->command_line = command_line != NULL ? strdup (command_line) : NULL;
  process->kernel_thread = kernel_thread;
  process->described = true;
}

/* An exec's new command line, while /proc still has it (a process that
 * ends meanwhile keeps the one read when the exec's record left its ring,
 * if any). */
static void
reread_command_line (SpRecording *rec,
                     SpProcessInfo *process)
{
  char line[4096];

  if (!rec->live || !sp_system_command_line (process->pid, line, sizeof line))
    return;
  free (process->command_line);
  process->command_line = strdup (line);
  process->described = true;
}

/* -a: a process or thread first sampled whose exec or name record was
 * lost (a full ring on a busy machine) would keep its parent's command
 * line and name: /proc has them while it runs. Once each. */
static void
describe_on_first_sample (SpRecording *rec,
                          SpProcessInfo *process,
                          SpThreadInfo *thread)
{
  char name[SP_TASK_NAME_LEN];

  if (process != NULL && !process->described && !process->kernel_thread)
    reread_command_line (rec, process);
  if (process != NULL)
    process->described = true;
  if (thread != NULL && !thread->name_known
      && sp_system_thread_name (thread->pid, thread->tid, name, sizeof name))
    set_name (thread->name, name);
  if (thread != NULL)
    thread->name_known = true;
}

/* The PROCESS_EXEC of the last exec, once its mappings told us whether it
 * is a Python interpreter. */
static void
write_pending_exec (SpRecording *rec,
                    SpProcessInfo *process)
{
  SpSpoolError err;

  if (!process->exec_pending)
    return;
  process->exec_pending = false;
  if (!sp_spool_writer_write_process_exec (rec->writer, process->exec_ns, process->pid,
                                           process->python, &err))
    remember_failure (rec, &err);
}

/* ---- Records ----------------------------------------------------------- */

static SampleId
read_sample_id (const struct perf_event_header *header)
{
  SampleId id;

  memcpy (&id, (const uint8_t *) header + header->size - sizeof id, sizeof id);
  return id;
}

static bool
add_frame (SpRecording *rec,
           size_t *n,
           SpFrame frame)
{
  if (!sp_array_reserve ((void **) &rec->frames, &rec->frames_capacity, *n + 1, sizeof (SpFrame)))
    return false;
  rec->frames[(*n)++] = frame;
  return true;
}

static void
add_address (SpRecording *rec,
             size_t *n,
             int32_t pid,
             uint64_t address,
             SpFrameMode mode)
{
  if (mode == SP_FRAME_KERNEL)
    sp_intern_table_intern (&rec->kernel_addresses, &address, &(bool) { false });
  add_frame (rec, n, sp_module_table_resolve_frame (rec->modules, pid, address, mode));
}

/* Whether frame n - 1, a user frame in no module, is the frame before
 * it again: the kernel's frame-pointer walk gone into a loop through a
 * word that is no frame pointer (code without them), which repeats one
 * address to the chain's limit. A real recursion's frames are in its
 * module. */
static bool
is_looping_garbage (const SpRecording *rec,
                    size_t n)
{
  const SpFrame *last = &rec->frames[n - 1];

  return n >= 2 && last->mode == SP_FRAME_USER && last->module_id == SP_SPOOL_NO_ID
         && rec->frames[n - 2].mode == SP_FRAME_USER && rec->frames[n - 2].abs_ip == last->abs_ip;
}

/* The callchain, leaf first, with PERF_CONTEXT_* markers saying whose
 * frames follow; a chain cut at the kernel's limit ends in the marker,
 * and so does a user part cut where it loops through garbage. With
 * kernel_only, the user part is left to the unwinder. */
static size_t
frames_from_callchain (SpRecording *rec,
                       const SpPerfSample *sample,
                       uint16_t misc,
                       bool kernel_only)
{
  int32_t pid = (int32_t) sample->pid;
  SpFrameMode mode = SP_FRAME_USER;
  bool skip = false, cut = false;
  size_t n = 0;
  uint64_t n_ips = 0;

  for (uint64_t i = 0; i < sample->n_callchain; i++)
    {
      uint64_t ip = sample->callchain[i];

      if (ip >= (uint64_t) PERF_CONTEXT_MAX)
        {
          skip = ip != (uint64_t) PERF_CONTEXT_KERNEL && (ip != (uint64_t) PERF_CONTEXT_USER || kernel_only);
          mode = ip == (uint64_t) PERF_CONTEXT_KERNEL ? SP_FRAME_KERNEL : SP_FRAME_USER;
          continue;
        }
      n_ips++;
      if (skip || cut)
        continue;
      add_address (rec, &n, pid, ip, mode);
      if (mode == SP_FRAME_USER && is_looping_garbage (rec, n))
        {
          rec->frames[n - 1] = sp_frame_truncated_marker ();
          rec->n_truncated++;
          cut = true;
        }
    }
  if (n == 0 && !kernel_only)
    {
      mode = (misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL ? SP_FRAME_KERNEL
                                                                                : SP_FRAME_USER;
      add_address (rec, &n, pid, sample->ip, mode);
    }
  if (n > 0 && n_ips >= rec->max_stack && !kernel_only && !cut)
    {
      add_frame (rec, &n, sp_frame_truncated_marker ());
      rec->n_truncated++;
    }
  return n;
}

/* A switch-out's copy ran out after n_user frames: its stack goes on
 * along the user part of the kernel's callchain (frame pointers, as
 * perf -g takes it) from the entry after the last frame's return address,
 * which the chain holds when that frame's caller keeps a frame pointer.
 * *outcome becomes complete when the chain ended on its own. */
static size_t
append_frame_pointer_tail (SpRecording *rec,
                           const SpPerfSample *sample,
                           size_t n_user,
                           SpUnwindOutcome *outcome)
{
  const uint64_t *chain = NULL;
  uint64_t n_chain = 0, n_ips = 0, from;

  for (uint64_t i = 0; i < sample->n_callchain; i++)
    {
      if (sample->callchain[i] < (uint64_t) PERF_CONTEXT_MAX)
        n_ips++;
      else if (sample->callchain[i] == (uint64_t) PERF_CONTEXT_USER && chain == NULL)
        {
          chain = sample->callchain + i + 1;
          n_chain = sample->n_callchain - i - 1;
        }
    }
  if (chain == NULL || n_user == 0)
    return n_user;
  /* Entry 0 is the pc itself; a return address matches from entry 1. */
  for (from = n_user == 1 ? 0 : 1; from < n_chain; from++)
    if (chain[from] == rec->user_frames[n_user - 1])
      break;
  if (from >= n_chain)
    return n_user;
  for (uint64_t i = from + 1; i < n_chain && chain[i] < (uint64_t) PERF_CONTEXT_MAX && n_user < MAX_USER_FRAMES; i++)
    rec->user_frames[n_user++] = chain[i];
  rec->n_switch_fp_tails++;
  if (n_ips < rec->max_stack && n_user < MAX_USER_FRAMES)
    *outcome = SP_UNWIND_COMPLETE;
  return n_user;
}

/* The user frames from the registers and stack copy, after the kernel's
 * part; the marker when the copy ran out before the thread's root. */
static size_t
add_unwound_frames (SpRecording *rec,
                    const SpPerfSample *sample,
                    bool switch_out,
                    size_t n)
{
  SpSampleLayout layout = switch_out ? rec->switch_layout : rec->layout;
  SpUserState state;
  size_t n_user = 0;
  SpUnwindOutcome outcome;

  if (switch_out)
    layout.stack_size = rec->switch_stack_size;
  state = (SpUserState) {
    sample->regs, sample->n_regs, sample->stack, sp_perf_sample_stack_bytes (sample),
    sp_perf_sample_stack_cut (&layout, sample), switch_out,
  };
  outcome = sp_unwinder_unwind (rec->unwinder, (int32_t) sample->pid, (int32_t) sample->tid, &state,
                                rec->user_frames, MAX_USER_FRAMES, &n_user);
  if (switch_out && outcome == SP_UNWIND_TRUNCATED)
    {
      n_user = append_frame_pointer_tail (rec, sample, n_user, &outcome);
      rec->n_switch_truncated += outcome == SP_UNWIND_TRUNCATED;
    }
  for (size_t i = 0; i < n_user; i++)
    add_address (rec, &n, (int32_t) sample->pid, rec->user_frames[i], SP_FRAME_USER);
  if (outcome == SP_UNWIND_TRUNCATED && n > 0)
    {
      add_frame (rec, &n, sp_frame_truncated_marker ());
      rec->n_truncated += !switch_out;
    }
  return n;
}

/* The frames of a sample into rec->frames (leaf first): the kernel's
 * callchain, and the user part unwound from the stack copy when there is
 * one, in *n_frames. *dropped when the recorder is behind and the sample
 * is left out (unwinding it would cost). False when the record is not a
 * whole sample. */
bool
sp_recording_sample_frames (SpRecording *rec,
                            const struct perf_event_header *header,
                            uint64_t time,
                            bool switch_out,
                            SpPerfSample *sample,
                            size_t *n_frames,
                            bool *dropped)
{
  bool unwind;
  size_t n;

  *dropped = false;
  *n_frames = 0;
  if (!sp_perf_sample_parse (switch_out ? &rec->switch_layout : &rec->layout, header, sample))
    return false;
  if (rec->awaited_exec_pid != 0 && (int32_t) sample->pid == rec->awaited_exec_pid)
    return false;  /* the launch before its exec: the recorder's code, not the program's */
  /* A per-CPU event's sample of a task on its way out, already unhashed,
   * names no thread (-1): its exit record ended it. */
  if ((int32_t) sample->tid < 0 || (int32_t) sample->pid < 0)
    return false;
  /* 64-bit user state only: a 32-bit process's registers are another set. */
  unwind = rec->unwinder != NULL && sample->regs_abi == PERF_SAMPLE_REGS_ABI_64 && sample->regs != NULL;
  if (unwind && time < rec->drop_before_ns)
    {
      /* Behind by more than the rings can hold: skip the costly part. */
      *dropped = true;
      return true;
    }
  /* A sample the unwinder cannot take (no registers, a 32-bit process)
   * keeps what the callchain has, as without unwinding. */
  n = frames_from_callchain (rec, sample, header->misc, unwind);
  if (unwind)
    n = add_unwound_frames (rec, sample, switch_out, n);
  *n_frames = n;
  return true;
}

static void
handle_sample (SpRecording *rec,
               const struct perf_event_header *header,
               uint64_t time)
{
  SpPerfSample sample;
  SpProcessInfo *process;
  SpThreadInfo *thread;
  SpSpoolError err;
  bool dropped;
  size_t n;

  if (rec->count_idle && sp_perf_sample_parse (&rec->layout, header, &sample) && sample.pid == 0)
    {
      /* The idle task (swapper): idle time, not a process. */
      rec->n_idle++;
      return;
    }
  if (!sp_recording_sample_frames (rec, header, time, false, &sample, &n, &dropped))
    return;
  if (rec->system_wide && (int32_t) sample.pid == rec->recorder_pid)
    rec->n_recorder_samples++;
  if (dropped)
    {
      rec->n_dropped++;
      return;
    }

  process = process_for (rec, (int32_t) sample.pid);
  if (process != NULL)
    {
      write_pending_exec (rec, process);
      process->n_samples++;
    }
  thread = thread_for (rec, (int32_t) sample.pid, (int32_t) sample.tid);
  if (thread != NULL)
    thread->n_samples++;
  if (rec->system_wide)
    describe_on_first_sample (rec, process_for (rec, (int32_t) sample.pid), thread);
  if (n == 0)
    return;
  if (!sp_spool_writer_write_sample (rec->writer, time, (int32_t) sample.pid, sample.tid,
                                     rec->frames, n, NULL, &err))
    {
      remember_failure (rec, &err);
      return;
    }
  if (rec->n_samples == 0)
    rec->first_ns = time;
  rec->n_samples++;
  rec->last_ns = time > rec->last_ns ? time : rec->last_ns;
}

/* MMAP2 (or MMAP): executable mappings only, as the event asked. */
static void
handle_mmap (SpRecording *rec,
             const struct perf_event_header *header)
{
  const uint8_t *p = (const uint8_t *) (header + 1);
  const uint8_t *end = (const uint8_t *) header + header->size - sizeof (SampleId);
  uint32_t pid_tid[2];
  uint64_t addr, len, pgoff, inode = 0;
  char path[4096];
  size_t path_len;

  if (end - p < 32)
    return;
  memcpy (pid_tid, p, 8);
  memcpy (&addr, p + 8, 8);
  memcpy (&len, p + 16, 8);
  memcpy (&pgoff, p + 24, 8);
  p += 32;
  if (header->type == PERF_RECORD_MMAP2)
    {
      if (end - p < 32)
        return;
      if (!(header->misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
        memcpy (&inode, p + 8, 8);
      p += 32;  /* maj, min, ino, ino_generation (or build id); prot, flags */
    }
  path_len = strnlen ((const char *) p, (size_t) (end - p));
  if (path_len >= sizeof path)
    path_len = sizeof path - 1;
  memcpy (path, p, path_len);
  path[path_len] = '\0';
  if (len == 0 || addr + len < addr)
    return;
  sp_recording_add_mapping (rec, &(SpModule) { addr, addr + len, pgoff, inode, path, path_len,
                                                (int32_t) pid_tid[0], false });
}

static void
handle_comm (SpRecording *rec,
             const struct perf_event_header *header,
             uint64_t time)
{
  const uint8_t *p = (const uint8_t *) (header + 1);
  const uint8_t *end = (const uint8_t *) header + header->size - sizeof (SampleId);
  uint32_t pid_tid[2];
  char name[SP_TASK_NAME_LEN] = { 0 };
  SpThreadInfo *thread;

  if (end - p < 8)
    return;
  memcpy (pid_tid, p, 8);
  memcpy (name, p + 8, (size_t) (end - p - 8) < sizeof name - 1 ? (size_t) (end - p - 8) : sizeof name - 1);
  thread = thread_for (rec, (int32_t) pid_tid[0], (int32_t) pid_tid[1]);
  if (thread != NULL)
    {
      set_name (thread->name, name);
      thread->name_known = true;
    }

  if (header->misc & PERF_RECORD_MISC_COMM_EXEC)
    {
      SpProcessInfo *process = process_for (rec, (int32_t) pid_tid[0]);
      SpSpoolError err;

      if ((int32_t) pid_tid[0] == rec->awaited_exec_pid)
        rec->awaited_exec_pid = 0;

      if (process == NULL)
        return;
      write_pending_exec (rec, process);
      if (rec->unwinder != NULL)
        sp_unwinder_forget_process (rec->unwinder, process->pid);
      if (!sp_module_table_deactivate_process (rec->modules, rec->writer, process->pid, &err))
        remember_failure (rec, &err);
      free (process->executable);
      process->executable = NULL;
      process->exec_ns = time;
      process->exec_pending = true;
      process->python = sp_recording_looks_like_python (name);
      /* The command line before the exec is not this program's: none
       * rather than that one when the process is gone before /proc is
       * read (the recorder behind). */
      free (process->command_line);
      process->command_line = take_exec_line (rec, process->pid);
      process->described = false;
      /* The line read when the exec left its ring is this program's; /proc
       * now may be a later program's, or another process's. */
      if (process->command_line == NULL)
        reread_command_line (rec, process);
    }
}

/* A new process runs its parent's command line until it execs, and what
 * kthreadd (pid 2) starts is a kernel thread (-a). */
static void
inherit_description (SpRecording *rec,
                     SpProcessInfo *process)
{
  uint64_t key = (uint64_t) (int64_t) process->parent_pid;
  int64_t i = sp_intern_table_lookup (&rec->process_index, &key);
  const SpProcessInfo *parent = i >= 0 ? &rec->processes[i] : NULL;

  process->kernel_thread = process->parent_pid == 2 || (parent != NULL && parent->kernel_thread);
  process->described = false;
  if (parent != NULL && parent->command_line != NULL && process->command_line == NULL)
    process->command_line = strdup (parent->command_line);
}

static void
handle_fork (SpRecording *rec,
             const struct perf_event_header *header,
             uint64_t time)
{
  uint32_t ids[4];  /* pid, ppid, tid, ptid */
  SpThreadInfo *parent_thread;
  SpThreadInfo *thread;
  int64_t parent_index;
  uint64_t key;

  if (header->size < sizeof *header + sizeof ids)
    return;
  memcpy (ids, header + 1, sizeof ids);
  key = (uint64_t) (int64_t) (int32_t) ids[3];
  parent_index = sp_intern_table_lookup (&rec->thread_index, &key);
  thread = thread_for (rec, (int32_t) ids[0], (int32_t) ids[2]);
  if (thread == NULL)
    return;
  thread->start_ns = time;
  thread->exit_ns = 0;  /* a tid used again */
  thread->name_known = false;
  /* A new task starts with its parent's name. */
  parent_thread = parent_index >= 0 ? &rec->threads[parent_index] : NULL;
  if (parent_thread != NULL)
    memcpy (thread->name, parent_thread->name, sizeof thread->name);

  if (ids[0] != ids[1])
    {
      SpProcessInfo *process = process_for (rec, (int32_t) ids[0]);
      SpSpoolError err;

      if (process != NULL)
        process->parent_pid = (int32_t) ids[1];
      if (process != NULL && rec->live)
        inherit_description (rec, process);
      if (rec->unwinder != NULL)
        sp_unwinder_fork (rec->unwinder, (int32_t) ids[1], (int32_t) ids[0]);
      if (!sp_module_table_clone_process (rec->modules, rec->writer, (int32_t) ids[1], (int32_t) ids[0], &err))
        remember_failure (rec, &err);
    }
}

static void
handle_exit (SpRecording *rec,
             const struct perf_event_header *header,
             uint64_t time)
{
  uint32_t ids[4];
  uint64_t key;
  int64_t i;

  if (header->size < sizeof *header + sizeof ids)
    return;
  memcpy (ids, header + 1, sizeof ids);
  key = (uint64_t) (int64_t) (int32_t) ids[2];
  i = sp_intern_table_lookup (&rec->thread_index, &key);
  if (i >= 0)
    rec->threads[i].exit_ns = time;
  /* The leader's exit is the process's: its unwinding state can go. */
  if (rec->unwinder != NULL)
    sp_unwinder_forget_thread (rec->unwinder, (int32_t) ids[2]);
  if (rec->unwinder != NULL && ids[0] == ids[2])
    sp_unwinder_forget_process (rec->unwinder, (int32_t) ids[0]);
}

static void
handle_lost (SpRecording *rec,
             const struct perf_event_header *header)
{
  uint64_t lost;

  if (header->type == PERF_RECORD_LOST && header->size >= sizeof *header + 16)
    memcpy (&lost, (const uint8_t *) (header + 1) + 8, 8);
  else if (header->type == PERF_RECORD_LOST_SAMPLES && header->size >= sizeof *header + 8)
    memcpy (&lost, header + 1, 8);
  else
    return;
  rec->n_lost += lost;
}

void
sp_recording_handle (SpRecording *rec,
                     const struct perf_event_header *header,
                     uint64_t time)
{
  switch (header->type)
    {
    case PERF_RECORD_SAMPLE:       handle_sample (rec, header, time); break;
    case PERF_RECORD_MMAP:
    case PERF_RECORD_MMAP2:        handle_mmap (rec, header); break;
    case PERF_RECORD_COMM:         handle_comm (rec, header, time); break;
    case PERF_RECORD_FORK:         handle_fork (rec, header, time); break;
    case PERF_RECORD_EXIT:         handle_exit (rec, header, time); break;
    case PERF_RECORD_LOST:
    case PERF_RECORD_LOST_SAMPLES: handle_lost (rec, header); break;
    case PERF_RECORD_THROTTLE:     rec->n_throttled++; break;
    default: break;
    }
}

void
sp_recording_finish (SpRecording *rec)
{
  for (size_t i = 0; i < rec->process_index.count; i++)
    write_pending_exec (rec, &rec->processes[i]);
}

/* Samples carry the time after ip and pid/tid; every other record in its
 * sample_id trailer. */
uint64_t
sp_recording_record_time (const struct perf_event_header *header)
{
  uint64_t time = 0;

  if (header->type == PERF_RECORD_SAMPLE)
    {
      if (header->size >= sizeof *header + 24)
        memcpy (&time, (const uint8_t *) (header + 1) + 16, 8);
    }
  else if (header->size >= sizeof *header + sizeof (SampleId))
    time = read_sample_id (header).time;
  return time;
}
