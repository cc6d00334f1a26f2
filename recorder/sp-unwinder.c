/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-unwinder.c: which way a sample is unwound (frame pointers, libdw or
 * both), the auto check, and the statistics. The parts are in
 * sp-unwind-maps.c, sp-unwind-dwarf.c and sp-unwind-fp.c. */
#include "sp-unwinder-private.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t
sp_unwinder_regs_mask (void)
{
  return ((UINT64_C (1) << (SP_PERF_IP + 1)) - 1)     /* ax..ip */
         | (UINT64_C (0xff) << SP_PERF_R8);           /* r8..r15 */
}

uint64_t
sp_unwinder_user_sp (const uint64_t *regs)
{
  return regs[SP_REG_SP];
}

SpUnwinder *
sp_unwinder_new (bool use_frame_pointers,
                 bool check_auto,
                 char *message,
                 size_t message_size)
{
  SpUnwinder *unwinder;

#if !defined(__x86_64__)
  (void) use_frame_pointers;
  (void) check_auto;
  snprintf (message, message_size, "DWARF unwinding is only implemented for x86-64; use --call-graph fp");
  return NULL;
#else
  unwinder = calloc (1, sizeof *unwinder);
  if (unwinder == NULL)
    {
      snprintf (message, message_size, "out of memory");
      return NULL;
    }
  unwinder->arch_fd = -1;
  unwinder->use_frame_pointers = use_frame_pointers;
  unwinder->stats.checked = use_frame_pointers && check_auto;
  sp_intern_table_init (&unwinder->process_index, 1);
  sp_intern_table_init (&unwinder->thread_index, 1);
  elf_version (EV_CURRENT);
  /* libdw learns the architecture from an ELF file: ours, which is the
   * targets' (only 64-bit x86 samples are unwound). */
  unwinder->arch_fd = open ("/proc/self/exe", O_RDONLY | O_CLOEXEC);
  if (unwinder->arch_fd >= 0)
    unwinder->arch_elf = elf_begin (unwinder->arch_fd, ELF_C_READ_MMAP, NULL);
  if (unwinder->arch_elf == NULL)
    {
      snprintf (message, message_size, "cannot read /proc/self/exe to set up unwinding");
      sp_unwinder_free (unwinder);
      return NULL;
    }
  return unwinder;
#endif
}

void
sp_unwinder_free (SpUnwinder *unwinder)
{
  if (unwinder == NULL)
    return;
  _sp_unwinder_maps_clear (unwinder);
  free (unwinder->check_frames);
  if (unwinder->arch_elf != NULL)
    elf_end (unwinder->arch_elf);
  if (unwinder->arch_fd >= 0)
    close (unwinder->arch_fd);
  free (unwinder);
}

/* ---- Statistics -------------------------------------------------------- */

static SpUnwindFile *
unknown_file (SpUnwinder *unwinder)
{
  if (unwinder->unknown == NULL)
    unwinder->unknown = _sp_unwinder_file_for (unwinder, "[unknown]", 0);
  return unwinder->unknown;
}

static void
count_sample (SpUnwinder *unwinder,
              const SpUserState *state,
              const SpUnwindProcess *process,
              const uint64_t *frames,
              size_t n_frames,
              SpUnwindOutcome outcome,
              bool frame_pointers)
{
  SpUnwindFile *last = NULL;

  if (state->uncounted)
    return;
  unwinder->stamp++;
  for (size_t i = 0; i < n_frames; i++)
    {
      const SpUnwindMapping *m = _sp_unwinder_mapping_at (process, i == 0 ? frames[i] : frames[i] - 1);
      SpUnwindFile *file = m != NULL ? m->file : unknown_file (unwinder);

      if (file == NULL)
        continue;
      last = file;
      if (file->seen_stamp == unwinder->stamp)
        continue;
      file->seen_stamp = unwinder->stamp;
      file->n_samples++;
      file->n_frame_pointer += frame_pointers;
    }
  unwinder->stats.samples++;
  unwinder->stats.frame_pointer += frame_pointers;
  switch (outcome)
    {
    case SP_UNWIND_COMPLETE:
      unwinder->stats.complete++;
      break;
    case SP_UNWIND_TRUNCATED:
      unwinder->stats.truncated++;
      if (last != NULL)
        last->n_truncated++;
      break;
    case SP_UNWIND_STOPPED:
      unwinder->stats.stopped++;
      if (last != NULL)
        last->n_stopped++;
      break;
    }
}

void
sp_unwinder_get_stats (const SpUnwinder *unwinder,
                       SpUnwindStats *out)
{
  *out = unwinder->stats;
  out->files = unwinder->n_files;
  for (size_t i = 0; i < unwinder->n_files; i++)
    out->files_read += unwinder->files[i]->loaded;
  for (size_t i = 0; i < unwinder->process_index.count; i++)
    out->dwfl_open += unwinder->processes[i] != NULL && unwinder->processes[i]->dwfl != NULL;
}

size_t
sp_unwinder_get_n_files (const SpUnwinder *unwinder)
{
  return unwinder->n_files;
}

void
sp_unwinder_get_file_stats (const SpUnwinder *unwinder,
                            size_t i,
                            SpUnwindFileStats *out)
{
  const SpUnwindFile *file = unwinder->files[i];

  *out = (SpUnwindFileStats) {
    .path = file->path,
    .readable = file->readable,
    .eh_frame = file->has_eh_frame,
    .debug_frame = file->has_debug_frame,
    .debuglink = file->has_debuglink,
    .symbols = file->has_symbols,
    .functions = file->n_functions,
    .frame_pointer_functions = file->n_frame_pointer_functions,
    .samples = file->n_samples,
    .frame_pointer = file->n_frame_pointer,
    .truncated = file->n_truncated,
    .stopped = file->n_stopped,
  };
}

/* ---- Unwinding --------------------------------------------------------- */

static SpUnwindOutcome
unwind_sample (SpUnwinder *unwinder,
               int32_t pid,
               int32_t tid,
               const SpUserState *state,
               uint64_t *frames,
               size_t max_frames,
               size_t *n_frames,
               bool *by_frame_pointers)
{
  SpUnwindProcess *process = _sp_unwinder_process_for (unwinder, pid);
  SpUnwindOutcome outcome;

  *n_frames = 0;
  if (max_frames == 0 || state->n_regs < SP_N_REGS)
    return SP_UNWIND_STOPPED;
  if (process == NULL)
    {
      frames[(*n_frames)++] = state->regs[SP_REG_IP];
      return SP_UNWIND_STOPPED;
    }
  if (unwinder->use_frame_pointers)
    {
      switch (_sp_unwinder_walk_frame_pointers (process, state, frames, max_frames, n_frames))
        {
        case SP_FP_COMPLETE:
          *by_frame_pointers = true;
          count_sample (unwinder, state, process, frames, *n_frames, SP_UNWIND_COMPLETE, true);
          _sp_unwinder_learn_stack_top (unwinder, tid, process->read_end);
          return SP_UNWIND_COMPLETE;
        case SP_FP_TRUNCATED:
          *by_frame_pointers = true;
          count_sample (unwinder, state, process, frames, *n_frames, SP_UNWIND_TRUNCATED, true);
          return SP_UNWIND_TRUNCATED;
        case SP_FP_RESUME:
          {
            size_t walked = *n_frames;

            outcome = _sp_unwinder_dwarf (unwinder, process, tid, state, frames, walked, max_frames);
            /* From the resumed frame libdw knows %rsp and %rbp only: code
             * whose CFA lives in another register (ld.so's lazy-binding
             * trampoline realigns the stack and keeps it in %rbx) stops
             * it there. Nothing found, or a stop: ask it from the
             * sample's full registers instead. */
            if (outcome == SP_UNWIND_STOPPED || (outcome == SP_UNWIND_COMPLETE && process->n_frames == walked))
              break;
            *by_frame_pointers = true;
            *n_frames = process->n_frames;
            count_sample (unwinder, state, process, frames, *n_frames, outcome, true);
            if (outcome == SP_UNWIND_COMPLETE)
              _sp_unwinder_learn_stack_top (unwinder, tid, process->read_end);
            return outcome;
          }
        case SP_FP_UNUSABLE:
          break;
        }
    }
  outcome = _sp_unwinder_dwarf (unwinder, process, tid, state, frames, 0, max_frames);
  *n_frames = process->n_frames;
  count_sample (unwinder, state, process, frames, *n_frames, outcome, false);
  if (outcome == SP_UNWIND_COMPLETE)
    _sp_unwinder_learn_stack_top (unwinder, tid, process->read_end);
  return outcome;
}

/* Prints a sample auto and DWARF disagree on (the auto check). */
static void
print_mismatch (SpUnwindOutcome outcome,
                const uint64_t *frames,
                size_t n_frames,
                SpUnwindOutcome reference,
                const uint64_t *reference_frames,
                size_t n_reference_frames)
{
  fprintf (stderr, "auto (%d):", outcome);
  for (size_t i = 0; i < n_frames; i++)
    fprintf (stderr, " %lx", (unsigned long) frames[i]);
  fprintf (stderr, "\ndwarf (%d):", reference);
  for (size_t i = 0; i < n_reference_frames; i++)
    fprintf (stderr, " %lx", (unsigned long) reference_frames[i]);
  fprintf (stderr, "\n");
}

SpUnwindOutcome
sp_unwinder_unwind (SpUnwinder *unwinder,
                    int32_t pid,
                    int32_t tid,
                    const SpUserState *state,
                    uint64_t *frames,
                    size_t max_frames,
                    size_t *n_frames)
{
  bool by_frame_pointers = false;
  SpUnwindOutcome outcome = unwind_sample (unwinder, pid, tid, state, frames, max_frames, n_frames,
                                           &by_frame_pointers);
  SpUnwindProcess *process;
  SpUnwindOutcome reference;

  if (!unwinder->stats.checked || !by_frame_pointers
      || (process = _sp_unwinder_process_lookup (unwinder, pid)) == NULL)
    return outcome;
  if (unwinder->check_frames == NULL && (unwinder->check_frames = malloc (max_frames * sizeof (uint64_t))) == NULL)
    return outcome;
  reference = _sp_unwinder_dwarf (unwinder, process, tid, state, unwinder->check_frames, 0, max_frames);
  unwinder->stats.n_checked++;
  if (reference != outcome || process->n_frames != *n_frames
      || memcmp (unwinder->check_frames, frames, *n_frames * sizeof (uint64_t)) != 0)
    {
      unwinder->stats.n_check_mismatches++;
      print_mismatch (outcome, frames, *n_frames, reference, unwinder->check_frames, process->n_frames);
    }
  return outcome;
}
