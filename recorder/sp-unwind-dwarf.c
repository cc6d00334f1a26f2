/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-unwind-dwarf.c: libdw over a sample's stack copy, with the CFI of
 * the files the process maps, and the thread's outer frames kept for the
 * next sample (sp-unwinder-private.h, SpTailCache). */
#include "sp-unwinder-private.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DWARF_N_REGS 17  /* rax..r15 and the return address column (rip) */

static char *debuginfo_path;

static const Dwfl_Callbacks dwfl_callbacks = {
  .find_elf = dwfl_build_id_find_elf,
  .find_debuginfo = dwfl_standard_find_debuginfo,
  .debuginfo_path = &debuginfo_path,
};

static pid_t
next_thread (Dwfl *dwfl,
             void *arg,
             void **thread_arg)
{
  SpUnwindProcess *process = arg;

  (void) dwfl;
  if (*thread_arg != NULL)
    return 0;
  *thread_arg = process;
  return process->tid;
}

static bool
get_thread (Dwfl *dwfl,
            pid_t tid,
            void *arg,
            void **thread_arg)
{
  (void) dwfl;
  (void) tid;
  *thread_arg = arg;
  return true;
}

/* Memory is the stack copy and nothing else. A read just beyond a copy
 * that was cut at the asked size means the copy ran out. */
static bool
memory_read (Dwfl *dwfl,
             Dwarf_Addr address,
             Dwarf_Word *result,
             void *arg)
{
  SpUnwindProcess *process = arg;
  const SpUserState *state = process->state;

  (void) dwfl;
  if (address >= process->sp && address - process->sp <= state->stack_size - sizeof *result
      && state->stack_size >= sizeof *result)
    {
      memcpy (result, state->stack + (address - process->sp), sizeof *result);
      if (address + sizeof *result > process->read_end)
        process->read_end = address + sizeof *result;
      if (process->log != NULL)
        {
          if (process->n_log < SP_TAIL_MAX_READS)
            process->log[process->n_log++] = (SpStackRead) { address, *result };
          else
            process->log_full = true;
        }
      return true;
    }
  if (state->stack_full && address >= process->sp + state->stack_size)
    process->ran_out = true;
  return false;
}

static bool
set_initial_registers (Dwfl_Thread *thread,
                       void *arg)
{
  SpUnwindProcess *process = arg;
  const uint64_t *r = process->state->regs;
  Dwarf_Word frame[2] = { process->resume_fp, process->resume_sp };  /* rbp, rsp */
  Dwarf_Word dwarf[DWARF_N_REGS] = {
    r[SP_REG_AX], r[SP_REG_DX], r[SP_REG_CX], r[SP_REG_BX], r[SP_REG_SI], r[SP_REG_DI], r[SP_REG_BP], r[SP_REG_SP],
    r[SP_REG_R8], r[SP_REG_R8 + 1], r[SP_REG_R8 + 2], r[SP_REG_R8 + 3],
    r[SP_REG_R8 + 4], r[SP_REG_R8 + 5], r[SP_REG_R8 + 6], r[SP_REG_R8 + 7],
    r[SP_REG_IP],
  };

  if (process->resume && process->resume_all_registers)
    {
      /* The caller of a PLT stub, which changed no register but %rsp. */
      dwarf[7] = process->resume_sp;
      if (!dwfl_thread_state_registers (thread, 0, DWARF_N_REGS, dwarf))
        return false;
      dwfl_thread_state_register_pc (thread, process->resume_pc - 1);
      return true;
    }
  if (process->resume)
    {
      /* An outer frame reached through frame pointers: its %rsp and %rbp
       * are known, the other registers were the inner frames' business. */
      if (!dwfl_thread_state_registers (thread, 6, 2, frame))
        return false;
      /* libdw takes the first frame for an interrupted one and looks up
       * the CFI at its pc; a return address's rule is the call's, at
       * pc - 1 (after a call that ends a function, pc is another's). */
      dwfl_thread_state_register_pc (thread, process->resume_pc - 1);
      return true;
    }
  if (!dwfl_thread_state_registers (thread, 0, DWARF_N_REGS, dwarf))
    return false;
  dwfl_thread_state_register_pc (thread, r[SP_REG_IP]);
  return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
  .next_thread = next_thread,
  .get_thread = get_thread,
  .memory_read = memory_read,
  .set_initial_registers = set_initial_registers,
};

/* Where libdw must place a mapping's file: the load bias for ET_DYN. */
static bool
mapping_base (const SpUnwindMapping *m,
              uint64_t *base)
{
  if (!m->file->is_dyn)
    {
      *base = 0;  /* ignored: ET_EXEC sits at its own addresses */
      return true;
    }
  return sp_unwind_file_load_bias (m->file, m->start, m->file_offset, base);
}

static bool
already_reported (const SpUnwindProcess *process,
                  const SpUnwindMapping *m,
                  uint64_t base)
{
  for (size_t i = 0; i < process->n_maps; i++)
    {
      const SpUnwindMapping *other = &process->maps[i];
      uint64_t other_base;

      if (other != m && other->reported && other->file == m->file && mapping_base (other, &other_base)
          && other_base == base)
        return true;
    }
  return false;
}

/* A process's Dwfl goes; its mappings are reported to the next. */
static void
close_dwfl (SpUnwindProcess *process)
{
  _sp_unwinder_dwarf_forget (process);
  for (size_t i = 0; i < process->n_maps; i++)
    process->maps[i].reported = false;
}

/* Before a new Dwfl: at SP_UNWIND_MAX_DWFLS open, the one unwound with
 * least recently closes. A scan of the processes, once per Dwfl made. */
static void
make_room_for_dwfl (SpUnwinder *unwinder)
{
  SpUnwindProcess *oldest = NULL;
  size_t open = 0;

  for (size_t i = 0; i < unwinder->process_index.count; i++)
    {
      SpUnwindProcess *p = unwinder->processes[i];

      if (p == NULL || p->dwfl == NULL)
        continue;
      open++;
      if (oldest == NULL || p->dwfl_used < oldest->dwfl_used)
        oldest = p;
    }
  if (open < SP_UNWIND_MAX_DWFLS || oldest == NULL)
    return;
  close_dwfl (oldest);
  unwinder->stats.dwfl_evicted++;
}

/* The process's Dwfl with every mapping reported; started over when a
 * reported mapping was replaced (libdw cannot move a module). */
static bool
ensure_dwfl (SpUnwinder *unwinder,
             SpUnwindProcess *process)
{
  bool report = false;

  if (process->dwfl != NULL && process->stale)
    close_dwfl (process);
  process->stale = false;
  process->dwfl_used = ++unwinder->dwfl_clock;
  if (process->dwfl == NULL)
    make_room_for_dwfl (unwinder);
  if (process->dwfl == NULL && (process->dwfl = dwfl_begin (&dwfl_callbacks)) == NULL)
    return false;

  for (size_t i = 0; i < process->n_maps; i++)
    report |= !process->maps[i].reported;
  if (report)
    {
      dwfl_report_begin_add (process->dwfl);
      for (size_t i = 0; i < process->n_maps; i++)
        {
          SpUnwindMapping *m = &process->maps[i];
          uint64_t base;
          int fd;

          if (m->reported)
            continue;
          m->reported = true;  /* also when it fails: not again per sample */
          _sp_unwinder_use_file (unwinder, m->file);
          if (!m->file->readable || !mapping_base (m, &base) || already_reported (process, m, base))
            continue;
          fd = m->file->memfd >= 0 ? dup (m->file->memfd) : -1;
          if (dwfl_report_elf (process->dwfl, m->file->path, m->file->path, fd, base, false) == NULL
              && fd >= 0)
            close (fd);
        }
      dwfl_report_end (process->dwfl, NULL, NULL);
    }
  if (!process->attached)
    process->attached = dwfl_attach_state (process->dwfl, unwinder->arch_elf, process->pid,
                                           &thread_callbacks, process);
  return process->attached;
}

static int
on_frame (Dwfl_Frame *frame,
          void *arg)
{
  SpUnwindProcess *process = arg;
  Dwarf_Addr pc;

  if (!dwfl_frame_pc (frame, &pc, NULL))
    return DWARF_CB_ABORT;
  if (process->resume && pc == process->resume_pc - 1 && process->n_frames > 0
      && process->frames[process->n_frames - 1] == process->resume_pc)
    return DWARF_CB_OK;  /* the frame we resumed from is listed already */
  if (process->n_frames == process->max_frames)
    {
      process->capped = true;
      return DWARF_CB_ABORT;
    }
  process->frames[process->n_frames++] = pc;
  return DWARF_CB_OK;
}

static SpTailCache *
tail_of (SpUnwinder *unwinder,
         int32_t tid)
{
  SpUnwindThread *thread = _sp_unwinder_thread_for (unwinder, tid);

  if (thread != NULL && thread->tail == NULL)
    thread->tail = calloc (1, sizeof (SpTailCache));
  return thread != NULL ? thread->tail : NULL;
}

/* The thread's last outer frames, when this sample's chain ends where
 * that one's did and the stack holds the same words libdw read then. */
static bool
reuse_tail (SpUnwinder *unwinder,
            SpUnwindProcess *process,
            const SpUserState *state)
{
  const SpUnwindThread *thread = _sp_unwinder_thread_lookup (unwinder, process->tid);
  const SpTailCache *tail = thread != NULL ? thread->tail : NULL;

  if (tail == NULL || !tail->valid || tail->pc != process->resume_pc || tail->sp != process->resume_sp
      || tail->fp != process->resume_fp || process->n_frames + tail->n_frames > process->max_frames)
    return false;
  for (size_t i = 0; i < tail->n_reads; i++)
    {
      uint64_t address = tail->reads[i].address;
      uint64_t value;

      if (address < process->sp || state->stack_size < 8 || address - process->sp > state->stack_size - 8)
        return false;
      memcpy (&value, state->stack + (address - process->sp), 8);
      if (value != tail->reads[i].value)
        return false;
    }
  memcpy (process->frames + process->n_frames, tail->frames, tail->n_frames * sizeof (uint64_t));
  process->n_frames += tail->n_frames;
  if (tail->read_end > process->read_end)
    process->read_end = tail->read_end;
  unwinder->stats.outer_frames_reused++;
  return true;
}

/* The outer frames from the files' own CFI rules, without a libdw session
 * for the process (a recording of the whole system would otherwise build
 * one for every process it samples): kept as the thread's last outer
 * frames, as libdw's are. */
static bool
walk_outer_frames (SpUnwinder *unwinder,
                   SpUnwindProcess *process,
                   const SpUserState *state,
                   size_t n_frames)
{
  SpStackRead reads[SP_TAIL_MAX_READS];
  size_t n_reads;
  SpTailCache *tail;

  if (!_sp_unwinder_walk_cfi (process, state, reads, &n_reads))
    return false;
  tail = process->n_frames > n_frames ? tail_of (unwinder, process->tid) : NULL;
  if (tail != NULL && process->n_frames - n_frames <= SP_TAIL_MAX_FRAMES)
    {
      *tail = (SpTailCache) { true, process->resume_pc, process->resume_sp, process->resume_fp, process->read_end,
                              n_reads, { { 0, 0 } }, process->n_frames - n_frames, { 0 } };
      memcpy (tail->reads, reads, n_reads * sizeof (SpStackRead));
      memcpy (tail->frames, process->frames + n_frames, tail->n_frames * sizeof (uint64_t));
    }
  return true;
}

/* LLD and mold give PLT stubs no CFI, and libdw finds no caller for a
 * sample stopped in one: the step to the caller is taken here, from the
 * rule the stub's code gives (the return address at %rsp, or above the
 * words the lazy path pushed), and libdw goes on from the caller with the
 * sample's registers, which the stub left alone but for %rsp. */
static bool
step_out_of_plt (SpUnwindProcess *process,
                 const SpUserState *state,
                 uint64_t *frames,
                 size_t max_frames)
{
  uint64_t sp = state->regs[SP_REG_SP];
  uint64_t cfa, return_address;
  SpLeafRule rule;

  if (max_frames < 3 || _sp_unwinder_leaf_rule (process, state->regs[SP_REG_IP], &rule) != SP_LEAF_RSP || !rule.plt)
    return false;
  cfa = sp + (uint64_t) (int64_t) rule.cfa_offset;
  if (!_sp_unwinder_read_stack (process, state, sp, cfa - 8, &return_address) || return_address == 0)
    return false;
  frames[0] = state->regs[SP_REG_IP];
  frames[1] = return_address;
  process->n_frames = 2;
  process->resume = true;
  process->resume_all_registers = true;
  process->resume_pc = return_address;
  process->resume_sp = cfa;
  return true;
}

SpUnwindOutcome
_sp_unwinder_dwarf (SpUnwinder *unwinder,
                    SpUnwindProcess *process,
                    int32_t tid,
                    const SpUserState *state,
                    uint64_t *frames,
                    size_t n_frames,
                    size_t max_frames)
{
  SpTailCache *tail;
  int result;

  process->tid = tid;
  process->state = state;
  process->sp = state->regs[SP_REG_SP];
  if (n_frames == 0)
    process->read_end = process->sp;
  process->ran_out = false;
  process->frames = frames;
  process->max_frames = max_frames;
  process->n_frames = n_frames;
  process->capped = false;
  process->resume = n_frames > 0;
  process->resume_all_registers = false;
  if (process->resume)
    process->resume_pc = frames[n_frames - 1];
  else
    step_out_of_plt (process, state, frames, max_frames);

  /* (The tail cache knows frame-pointer resumes, which %rsp, %rbp and
   * the stack decide; a PLT caller's unwind may read other registers.) */
  if (process->resume && !process->resume_all_registers
      && (reuse_tail (unwinder, process, state) || walk_outer_frames (unwinder, process, state, n_frames)))
    return SP_UNWIND_COMPLETE;
  if (!ensure_dwfl (unwinder, process))
    {
      if (process->n_frames == 0)
        frames[process->n_frames++] = state->regs[SP_REG_IP];
      return SP_UNWIND_STOPPED;
    }
  tail = process->resume && !process->resume_all_registers ? tail_of (unwinder, tid) : NULL;
  if (tail != NULL)
    {
      process->log = tail->reads;
      process->n_log = 0;
      process->log_full = false;
      tail->valid = false;
    }
  result = dwfl_getthread_frames (process->dwfl, tid, on_frame, process);
  process->log = NULL;
  if (process->n_frames == 0)
    frames[process->n_frames++] = state->regs[SP_REG_IP];
  /* libdw may take an unreadable return address for the end of the
   * stack: a read beyond a cut copy says otherwise. */
  if (process->ran_out || process->capped)
    return SP_UNWIND_TRUNCATED;
  if (result != 0)
    return SP_UNWIND_STOPPED;
  if (tail != NULL && !process->log_full && process->n_frames > n_frames
      && process->n_frames - n_frames <= SP_TAIL_MAX_FRAMES)
    {
      tail->valid = true;
      tail->pc = process->resume_pc;
      tail->sp = process->resume_sp;
      tail->fp = process->resume_fp;
      tail->read_end = process->read_end;
      tail->n_reads = process->n_log;
      tail->n_frames = process->n_frames - n_frames;
      memcpy (tail->frames, frames + n_frames, tail->n_frames * sizeof (uint64_t));
    }
  return SP_UNWIND_COMPLETE;
}


void
_sp_unwinder_dwarf_forget (SpUnwindProcess *process)
{
  if (process->dwfl != NULL)
    dwfl_end (process->dwfl);
  process->dwfl = NULL;
  process->attached = false;
}
