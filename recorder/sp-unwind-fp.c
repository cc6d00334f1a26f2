/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-unwind-fp.c: the frame-pointer chain in a stack copy (auto), as far
 * as the code it goes through can be trusted to keep one. */
#include "sp-unwinder-private.h"

#include <string.h>

/* Whether the function at pc has its frame in %rbp at pc: it sets one
 * up, and (for the leaf, stopped anywhere) pc is past that and not at a
 * `ret` after the frame was popped. A return address points after the
 * call, so its call lies at pc - 1. */
static bool
keeps_frame_at (const SpUnwindProcess *process,
                uint64_t pc,
                bool leaf)
{
  const SpUnwindMapping *m = _sp_unwinder_mapping_at (process, leaf ? pc : pc - 1);
  const SpUnwindFunction *function;
  uint64_t offset, vaddr;
  int byte;

  if (m == NULL || !m->file->readable)
    return false;
  offset = (leaf ? pc : pc - 1) - m->start + m->file_offset;
  if (!sp_unwind_file_vaddr_of_offset (m->file, offset, &vaddr))
    return false;
  function = sp_unwind_file_find_function (m->file, vaddr);
  if (function == NULL || function->frame_set_at == 0)
    return false;
  if (!leaf)
    return true;
  if (vaddr - function->start < function->frame_set_at)
    return false;
  byte = sp_unwind_file_byte_at (m->file, offset);
  return byte != 0xc3 && byte != 0xc2;  /* ret */
}

/* The CFI's rule at the leaf's pc (sp_unwind_file_leaf_rule). */
SpLeafBase
_sp_unwinder_leaf_rule (const SpUnwindProcess *process,
                        uint64_t pc,
                        SpLeafRule *rule)
{
  const SpUnwindMapping *m = _sp_unwinder_mapping_at (process, pc);
  uint64_t vaddr;

  *rule = (SpLeafRule) { 0, 0, SP_LEAF_UNKNOWN, false };
  if (m != NULL && m->file->readable
      && sp_unwind_file_vaddr_of_offset (m->file, pc - m->start + m->file_offset, &vaddr))
    *rule = sp_unwind_file_leaf_rule (m->file, vaddr);
  return (SpLeafBase) rule->base;
}

bool
_sp_unwinder_read_stack (SpUnwindProcess *process,
                         const SpUserState *state,
                         uint64_t sp,
                         uint64_t address,
                         uint64_t *value)
{
  if (address < sp || state->stack_size < 8 || address - sp > state->stack_size - 8)
    return false;
  memcpy (value, state->stack + (address - sp), 8);
  if (address + 8 > process->read_end)
    process->read_end = address + 8;
  return true;
}

static bool
read_logged (SpUnwindProcess *process,
             const SpUserState *state,
             uint64_t address,
             uint64_t *value,
             SpStackRead *reads,
             size_t *n_reads)
{
  if (*n_reads == SP_TAIL_MAX_READS
      || !_sp_unwinder_read_stack (process, state, state->regs[SP_REG_SP], address, value))
    return false;
  reads[(*n_reads)++] = (SpStackRead) { address, *value };
  return true;
}

bool
_sp_unwinder_walk_cfi (SpUnwindProcess *process,
                       const SpUserState *state,
                       SpStackRead *reads,
                       size_t *n_reads)
{
  uint64_t cfa = process->resume_sp;
  uint64_t fp = process->resume_fp;
  size_t n = process->n_frames;

  *n_reads = 0;
  if (n == 0)
    return false;
  for (;;)
    {
      uint64_t next_cfa, return_address, saved_fp = fp;
      SpLeafRule rule;

      /* A return address: its call lies at pc - 1. */
      switch (_sp_unwinder_leaf_rule (process, process->frames[n - 1] - 1, &rule))
        {
        case SP_LEAF_OUTERMOST:
          process->n_frames = n;
          return true;
        case SP_LEAF_RSP:
          next_cfa = cfa + (uint64_t) (int64_t) rule.cfa_offset;
          break;
        case SP_LEAF_RBP:
          next_cfa = fp + 16;
          break;
        case SP_LEAF_UNKNOWN:
        default:
          return false;
        }
      /* A caller is never a PLT stub; a frame below its callee's is none. */
      if (rule.plt || next_cfa <= cfa || n == process->max_frames
          || !read_logged (process, state, next_cfa - 8, &return_address, reads, n_reads)
          || (rule.rbp_offset != 0
              && !read_logged (process, state, next_cfa + (uint64_t) (int64_t) rule.rbp_offset, &saved_fp, reads,
                               n_reads))
          || return_address == 0)
        return false;
      process->frames[n++] = return_address;
      cfa = next_cfa;
      fp = saved_fp;
    }
}

/* The frame-pointer chain, as far as it can be trusted: the leaf keeps
 * its frame in %rbp at its pc, and so does every function the chain goes
 * through. The walk stops at the first return address into a function
 * that does not (libc's __libc_start_call_main or start_thread, a qsort
 * calling back), where DWARF unwinding takes over with the %rsp and %rbp
 * that the frame records give; it ends at a saved %rbp of 0 (what _start
 * and clone3 leave for the outermost frame). */
SpFramePointerWalk
_sp_unwinder_walk_frame_pointers (SpUnwindProcess *process,
                                  const SpUserState *state,
                                  uint64_t *frames,
                                  size_t max_frames,
                                  size_t *n_frames)
{
  uint64_t sp = state->regs[SP_REG_SP];
  uint64_t fp = state->regs[SP_REG_BP];
  SpLeafRule rule;
  size_t n = 0;

  process->read_end = sp;
  if (max_frames < 3)
    return SP_FP_UNUSABLE;
  frames[n++] = state->regs[SP_REG_IP];
  switch (_sp_unwinder_leaf_rule (process, state->regs[SP_REG_IP], &rule))
    {
    case SP_LEAF_OUTERMOST:
      *n_frames = n;  /* stopped in _start itself: that is the whole stack */
      return SP_FP_COMPLETE;
    case SP_LEAF_RBP:
      break;  /* the frame is set up: %rbp is its base */
    case SP_LEAF_RSP:
      {
        /* No frame in %rbp here: a leaf without one (GCC omits it in
         * small leaves even with -fno-omit-frame-pointer), or stopped in
         * a prologue or after the epilogue's `leave`. The CFI says where
         * the return address and the caller's %rbp are. */
        uint64_t cfa = sp + (uint64_t) (int64_t) rule.cfa_offset;
        uint64_t return_address;

        if (!_sp_unwinder_read_stack (process, state, sp, cfa - 8, &return_address)
            || (rule.rbp_offset != 0
                && !_sp_unwinder_read_stack (process, state, sp, cfa + (uint64_t) (int64_t) rule.rbp_offset, &fp)))
          {
            *n_frames = n;
            return state->stack_full ? SP_FP_TRUNCATED : SP_FP_UNUSABLE;
          }
        if (return_address == 0)
          return SP_FP_UNUSABLE;
        frames[n++] = return_address;
        *n_frames = n;
        if (!keeps_frame_at (process, return_address, false))
          {
            process->resume_sp = cfa;
            process->resume_fp = fp;
            return SP_FP_RESUME;
          }
        break;
      }
    case SP_LEAF_UNKNOWN:
    default:
      /* No CFI to ask (or an unusual rule): the prologue tells. */
      if (!keeps_frame_at (process, state->regs[SP_REG_IP], true))
        return SP_FP_UNUSABLE;
      break;
    }
  for (;;)
    {
      uint64_t next, return_address;
      bool keeps_frame;

      if (!_sp_unwinder_read_stack (process, state, sp, fp, &next)
          || !_sp_unwinder_read_stack (process, state, sp, fp + 8, &return_address))
        {
          *n_frames = n;
          return state->stack_full && fp >= sp ? SP_FP_TRUNCATED : SP_FP_UNUSABLE;
        }
      if (return_address == 0 || n == max_frames)
        return SP_FP_UNUSABLE;
      frames[n++] = return_address;
      *n_frames = n;
      keeps_frame = keeps_frame_at (process, return_address, false);
      if (!keeps_frame || next == 0)
        {
          process->resume_sp = fp + 16;
          process->resume_fp = next;
          return keeps_frame ? SP_FP_COMPLETE : SP_FP_RESUME;
        }
      if (next <= fp)
        return SP_FP_UNUSABLE;
      fp = next;
    }
}
