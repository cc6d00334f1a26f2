/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-unwinder.c: frame pointers and libdw over copied user stacks. */
#include "sp-unwinder.h"

#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp-array.h"

/* perf's x86-64 register numbers (asm/perf_regs.h). */
enum {
  PERF_AX, PERF_BX, PERF_CX, PERF_DX, PERF_SI, PERF_DI, PERF_BP, PERF_SP, PERF_IP,
  PERF_R8 = 16,
};
/* Positions in the sample, which lists the masked registers in bit order. */
enum { REG_AX, REG_BX, REG_CX, REG_DX, REG_SI, REG_DI, REG_BP, REG_SP, REG_IP, REG_R8, N_REGS = REG_R8 + 8 };
#define DWARF_N_REGS 17  /* rax..r15 and the return address column (rip) */

typedef struct {
  uint64_t      start;
  uint64_t      end;
  uint64_t      file_offset;
  SpUnwindFile *file;
  bool          reported;     /* handed to this process's Dwfl */
} Mapping;

#define TAIL_MAX_FRAMES 32
#define TAIL_MAX_READS  64

typedef struct {
  uint64_t address;
  uint64_t value;
} StackRead;

/* The outer frames DWARF found above where a thread's frame-pointer chain
 * ended (auto), with every stack word libdw read to find them: a later
 * sample whose chain ends at the same pc, %rsp and %rbp, with the same
 * words there, has the same outer frames (unwinding is a function of the
 * registers and the memory it reads), without asking libdw again. */
typedef struct {
  bool            valid;
  uint64_t        pc;
  uint64_t        sp;
  uint64_t        fp;
  uint64_t        read_end;
  size_t          n_reads;
  StackRead       reads[TAIL_MAX_READS];
  size_t          n_frames;
  uint64_t        frames[TAIL_MAX_FRAMES];
} TailCache;

struct SpUnwindThread {
  uint64_t   stack_top;   /* just above its outermost frame; 0: unknown */
  TailCache *tail;
};

struct SpUnwindProcess {
  int32_t       pid;
  Mapping      *maps;         /* sorted by start, never overlapping */
  size_t        n_maps;
  size_t        maps_capacity;
  Dwfl         *dwfl;
  bool          attached;
  bool          stale;        /* a reported mapping went away: start over */

  /* The sample being unwound, for libdw's callbacks. */
  int32_t            tid;
  const SpUserState *state;
  bool               resume;    /* start from resume_* instead of the sample */
  bool               resume_all_registers;  /* the sample's, but for %rsp and pc */
  uint64_t           resume_pc;
  uint64_t           resume_sp;
  uint64_t           resume_fp;
  uint64_t           sp;
  uint64_t           read_end;  /* just above the highest stack word read */
  StackRead         *log;       /* the words read, while caching a tail */
  size_t             n_log;
  bool               log_full;
  bool               ran_out;   /* a read beyond a cut copy */
  uint64_t          *frames;
  size_t             max_frames;
  size_t             n_frames;
  bool               capped;
};

uint64_t
sp_unwinder_regs_mask (void)
{
  return ((UINT64_C (1) << (PERF_IP + 1)) - 1)        /* ax..ip */
         | (UINT64_C (0xff) << PERF_R8);              /* r8..r15 */
}

bool
sp_unwinder_init (SpUnwinder *unwinder,
                  bool use_frame_pointers,
                  char *message,
                  size_t message_size)
{
  memset (unwinder, 0, sizeof *unwinder);
  unwinder->arch_fd = -1;
#if !defined(__x86_64__)
  snprintf (message, message_size, "DWARF unwinding is only implemented for x86-64; use --call-graph fp");
  return false;
#else
  unwinder->use_frame_pointers = use_frame_pointers;
  unwinder->check_auto = use_frame_pointers && getenv ("STACKPULSE_CHECK_AUTO") != NULL
                         && strcmp (getenv ("STACKPULSE_CHECK_AUTO"), "1") == 0;
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
      sp_unwinder_clear (unwinder);
      return false;
    }
  return true;
#endif
}

static void
process_free (SpUnwindProcess *process)
{
  if (process == NULL)
    return;
  if (process->dwfl != NULL)
    dwfl_end (process->dwfl);
  free (process->maps);
  free (process);
}

void
sp_unwinder_clear (SpUnwinder *unwinder)
{
  for (size_t i = 0; i < unwinder->process_index.count; i++)
    process_free (unwinder->processes[i]);
  free (unwinder->processes);
  sp_intern_table_clear (&unwinder->process_index);
  for (size_t i = 0; i < unwinder->thread_index.count; i++)
    free (unwinder->threads[i].tail);
  free (unwinder->threads);
  free (unwinder->check_frames);
  sp_intern_table_clear (&unwinder->thread_index);
  for (size_t i = 0; i < unwinder->n_files; i++)
    sp_unwind_file_free (unwinder->files[i]);
  free (unwinder->files);
  if (unwinder->arch_elf != NULL)
    elf_end (unwinder->arch_elf);
  if (unwinder->arch_fd >= 0)
    close (unwinder->arch_fd);
  memset (unwinder, 0, sizeof *unwinder);
  unwinder->arch_fd = -1;
}

/* ---- Files and processes ----------------------------------------------- */

/* A file is known by path and inode: a path can name another file later
 * in a recording (a program rebuilt and run again). */
static SpUnwindFile *
file_for (SpUnwinder *unwinder,
          const char *path,
          uint64_t inode)
{
  SpUnwindFile *file;

  for (size_t i = 0; i < unwinder->n_files; i++)
    if (unwinder->files[i]->inode == inode && strcmp (unwinder->files[i]->path, path) == 0)
      return unwinder->files[i];
  if (!sp_array_reserve ((void **) &unwinder->files, &unwinder->files_capacity, unwinder->n_files + 1,
                         sizeof (SpUnwindFile *))
      || (file = sp_unwind_file_load (path, inode)) == NULL)
    return NULL;
  unwinder->files[unwinder->n_files++] = file;
  return file;
}

static SpUnwindProcess *
process_lookup (SpUnwinder *unwinder,
                int32_t pid)
{
  uint64_t key = (uint64_t) (int64_t) pid;
  int64_t i = sp_intern_table_lookup (&unwinder->process_index, &key);

  return i >= 0 ? unwinder->processes[i] : NULL;
}

static SpUnwindProcess *
process_for (SpUnwinder *unwinder,
             int32_t pid)
{
  uint64_t key = (uint64_t) (int64_t) pid;
  bool added;
  int64_t i;

  if (!sp_array_reserve ((void **) &unwinder->processes, &unwinder->processes_capacity,
                         unwinder->process_index.count + 1, sizeof (SpUnwindProcess *)))
    return NULL;
  i = sp_intern_table_intern (&unwinder->process_index, &key, &added);
  if (i < 0)
    return NULL;
  if (added)
    unwinder->processes[i] = NULL;
  if (unwinder->processes[i] == NULL)
    {
      unwinder->processes[i] = calloc (1, sizeof (SpUnwindProcess));
      if (unwinder->processes[i] != NULL)
        unwinder->processes[i]->pid = pid;
    }
  return unwinder->processes[i];
}

static void
process_forget (SpUnwinder *unwinder,
                int32_t pid)
{
  uint64_t key = (uint64_t) (int64_t) pid;
  int64_t i = sp_intern_table_lookup (&unwinder->process_index, &key);

  if (i >= 0)
    {
      process_free (unwinder->processes[i]);
      unwinder->processes[i] = NULL;
    }
}

static struct SpUnwindThread *
thread_lookup (const SpUnwinder *unwinder,
               int32_t tid)
{
  uint64_t key = (uint64_t) (int64_t) tid;
  int64_t i = sp_intern_table_lookup (&unwinder->thread_index, &key);

  return i >= 0 ? &unwinder->threads[i] : NULL;
}

static struct SpUnwindThread *
thread_for (SpUnwinder *unwinder,
            int32_t tid)
{
  uint64_t key = (uint64_t) (int64_t) tid;
  bool added;
  int64_t i;

  if (!sp_array_reserve ((void **) &unwinder->threads, &unwinder->threads_capacity,
                         unwinder->thread_index.count + 1, sizeof (struct SpUnwindThread)))
    return NULL;
  i = sp_intern_table_intern (&unwinder->thread_index, &key, &added);
  if (i < 0)
    return NULL;
  if (added)
    memset (&unwinder->threads[i], 0, sizeof (struct SpUnwindThread));
  return &unwinder->threads[i];
}

/* The mapping holding address, or NULL. */
static const Mapping *
mapping_at (const SpUnwindProcess *process,
            uint64_t address)
{
  size_t lo = 0;
  size_t hi = process->n_maps;

  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (process->maps[mid].start <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || address >= process->maps[lo - 1].end)
    return NULL;
  return &process->maps[lo - 1];
}

void
sp_unwinder_add_mapping (SpUnwinder *unwinder,
                         const SpModule *module)
{
  SpUnwindProcess *process = process_for (unwinder, module->pid);
  uint64_t start = module->start;
  uint64_t end = module->end;
  uint64_t file_offset = module->file_offset;
  SpUnwindFile *file;
  size_t kept = 0;
  size_t at;

  if (process == NULL || start >= end)
    return;
  if (module->path[0] != '/' && strcmp (module->path, "[vdso]") != 0)
    return;  /* anonymous code (JIT), [vsyscall]: nothing to unwind with */
  file = file_for (unwinder, module->path, module->inode);
  if (file == NULL)
    return;

  /* A new mapping replaces whatever it overlaps. */
  for (size_t i = 0; i < process->n_maps; i++)
    {
      Mapping *m = &process->maps[i];

      if (m->start < end && start < m->end)
        {
          if (m->start == start && m->end == end && m->file == file && m->file_offset == file_offset)
            return;  /* seen before (attach reads /proc after enabling) */
          process->stale |= m->reported;
          continue;
        }
      process->maps[kept++] = *m;
    }
  process->n_maps = kept;
  if (!sp_array_reserve ((void **) &process->maps, &process->maps_capacity, process->n_maps + 1, sizeof (Mapping)))
    return;
  for (at = 0; at < process->n_maps && process->maps[at].start < start; at++)
    ;
  memmove (&process->maps[at + 1], &process->maps[at], (process->n_maps - at) * sizeof (Mapping));
  process->maps[at] = (Mapping) { start, end, file_offset, file, false };
  process->n_maps++;
}

void
sp_unwinder_fork (SpUnwinder *unwinder,
                  int32_t parent_pid,
                  int32_t pid)
{
  SpUnwindProcess *parent = process_lookup (unwinder, parent_pid);
  SpUnwindProcess *child;

  if (parent_pid == pid)
    return;
  process_forget (unwinder, pid);
  child = process_for (unwinder, pid);
  parent = process_lookup (unwinder, parent_pid);  /* the table may have moved */
  if (child == NULL || parent == NULL || parent->n_maps == 0)
    return;
  child->maps = malloc (parent->n_maps * sizeof (Mapping));
  if (child->maps == NULL)
    return;
  memcpy (child->maps, parent->maps, parent->n_maps * sizeof (Mapping));
  child->n_maps = child->maps_capacity = parent->n_maps;
  for (size_t i = 0; i < child->n_maps; i++)
    child->maps[i].reported = false;
}

void
sp_unwinder_forget_process (SpUnwinder *unwinder,
                            int32_t pid)
{
  process_forget (unwinder, pid);
}

/* ---- libdw ------------------------------------------------------------- */

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
          if (process->n_log < TAIL_MAX_READS)
            process->log[process->n_log++] = (StackRead) { address, *result };
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
    r[REG_AX], r[REG_DX], r[REG_CX], r[REG_BX], r[REG_SI], r[REG_DI], r[REG_BP], r[REG_SP],
    r[REG_R8], r[REG_R8 + 1], r[REG_R8 + 2], r[REG_R8 + 3],
    r[REG_R8 + 4], r[REG_R8 + 5], r[REG_R8 + 6], r[REG_R8 + 7],
    r[REG_IP],
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
  dwfl_thread_state_register_pc (thread, r[REG_IP]);
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
mapping_base (const Mapping *m,
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
                  const Mapping *m,
                  uint64_t base)
{
  for (size_t i = 0; i < process->n_maps; i++)
    {
      const Mapping *other = &process->maps[i];
      uint64_t other_base;

      if (other != m && other->reported && other->file == m->file && mapping_base (other, &other_base)
          && other_base == base)
        return true;
    }
  return false;
}

/* The process's Dwfl with every mapping reported; started over when a
 * reported mapping was replaced (libdw cannot move a module). */
static bool
ensure_dwfl (SpUnwinder *unwinder,
             SpUnwindProcess *process)
{
  bool report = false;

  if (process->dwfl != NULL && process->stale)
    {
      dwfl_end (process->dwfl);
      process->dwfl = NULL;
      process->attached = false;
      for (size_t i = 0; i < process->n_maps; i++)
        process->maps[i].reported = false;
    }
  process->stale = false;
  if (process->dwfl == NULL && (process->dwfl = dwfl_begin (&dwfl_callbacks)) == NULL)
    return false;

  for (size_t i = 0; i < process->n_maps; i++)
    report |= !process->maps[i].reported;
  if (report)
    {
      dwfl_report_begin_add (process->dwfl);
      for (size_t i = 0; i < process->n_maps; i++)
        {
          Mapping *m = &process->maps[i];
          uint64_t base;
          int fd;

          if (m->reported)
            continue;
          m->reported = true;  /* also when it fails: not again per sample */
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

static TailCache *
tail_of (SpUnwinder *unwinder,
         int32_t tid)
{
  struct SpUnwindThread *thread = thread_for (unwinder, tid);

  if (thread != NULL && thread->tail == NULL)
    thread->tail = calloc (1, sizeof (TailCache));
  return thread != NULL ? thread->tail : NULL;
}

/* The thread's last outer frames, when this sample's chain ends where
 * that one's did and the stack holds the same words libdw read then. */
static bool
reuse_tail (SpUnwinder *unwinder,
            SpUnwindProcess *process,
            const SpUserState *state)
{
  const struct SpUnwindThread *thread = thread_lookup (unwinder, process->tid);
  const TailCache *tail = thread != NULL ? thread->tail : NULL;

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
  unwinder->n_tail_reused++;
  return true;
}

static SpLeafBase leaf_rule (const SpUnwindProcess *process,
                             uint64_t pc,
                             SpLeafRule *rule);
static bool read_stack (SpUnwindProcess *process,
                        const SpUserState *state,
                        uint64_t sp,
                        uint64_t address,
                        uint64_t *value);

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
  uint64_t sp = state->regs[REG_SP];
  uint64_t cfa, return_address;
  SpLeafRule rule;

  if (max_frames < 3 || leaf_rule (process, state->regs[REG_IP], &rule) != SP_LEAF_RSP || !rule.plt)
    return false;
  cfa = sp + (uint64_t) (int64_t) rule.cfa_offset;
  if (!read_stack (process, state, sp, cfa - 8, &return_address) || return_address == 0)
    return false;
  frames[0] = state->regs[REG_IP];
  frames[1] = return_address;
  process->n_frames = 2;
  process->resume = true;
  process->resume_all_registers = true;
  process->resume_pc = return_address;
  process->resume_sp = cfa;
  return true;
}

/* Unwinds from the sample's registers, or (n_frames > 0) on from the
 * outermost of the frames[] already found through frame pointers, whose
 * %rsp and %rbp process->resume_* hold. */
static SpUnwindOutcome
unwind_dwarf (SpUnwinder *unwinder,
              SpUnwindProcess *process,
              int32_t tid,
              const SpUserState *state,
              uint64_t *frames,
              size_t n_frames,
              size_t max_frames)
{
  TailCache *tail;
  int result;

  process->tid = tid;
  process->state = state;
  process->sp = state->regs[REG_SP];
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
  if (process->resume && !process->resume_all_registers && reuse_tail (unwinder, process, state))
    return SP_UNWIND_COMPLETE;
  if (!ensure_dwfl (unwinder, process))
    {
      if (process->n_frames == 0)
        frames[process->n_frames++] = state->regs[REG_IP];
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
    frames[process->n_frames++] = state->regs[REG_IP];
  /* libdw may take an unreadable return address for the end of the
   * stack: a read beyond a cut copy says otherwise. */
  if (process->ran_out || process->capped)
    return SP_UNWIND_TRUNCATED;
  if (result != 0)
    return SP_UNWIND_STOPPED;
  if (tail != NULL && !process->log_full && process->n_frames > n_frames
      && process->n_frames - n_frames <= TAIL_MAX_FRAMES)
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

/* ---- Frame pointers (auto) -------------------------------------------- */

/* Whether the function at pc has its frame in %rbp at pc: it sets one
 * up, and (for the leaf, stopped anywhere) pc is past that and not at a
 * `ret` after the frame was popped. A return address points after the
 * call, so its call lies at pc - 1. */
static bool
keeps_frame_at (const SpUnwindProcess *process,
                uint64_t pc,
                bool leaf)
{
  const Mapping *m = mapping_at (process, leaf ? pc : pc - 1);
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
static SpLeafBase
leaf_rule (const SpUnwindProcess *process,
           uint64_t pc,
           SpLeafRule *rule)
{
  const Mapping *m = mapping_at (process, pc);
  uint64_t vaddr;

  *rule = (SpLeafRule) { 0, 0, SP_LEAF_UNKNOWN, false };
  if (m != NULL && m->file->readable
      && sp_unwind_file_vaddr_of_offset (m->file, pc - m->start + m->file_offset, &vaddr))
    *rule = sp_unwind_file_leaf_rule (m->file, vaddr);
  return (SpLeafBase) rule->base;
}

static bool
read_stack (SpUnwindProcess *process,
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

typedef enum {
  FP_UNUSABLE,    /* the leaf keeps no frame pointer: unwind it all with DWARF */
  FP_COMPLETE,    /* the chain reached its end in frame-pointer code */
  FP_RESUME,      /* trusted up to frames[n-1]; DWARF goes on from there */
  FP_TRUNCATED,   /* the chain leaves a copy that was cut */
} FramePointerWalk;

/* The frame-pointer chain, as far as it can be trusted: the leaf keeps
 * its frame in %rbp at its pc, and so does every function the chain goes
 * through. The walk stops at the first return address into a function
 * that does not (libc's __libc_start_call_main or start_thread, a qsort
 * calling back), where DWARF unwinding takes over with the %rsp and %rbp
 * that the frame records give; it ends at a saved %rbp of 0 (what _start
 * and clone3 leave for the outermost frame). */
static FramePointerWalk
walk_frame_pointers (SpUnwindProcess *process,
                     const SpUserState *state,
                     uint64_t *frames,
                     size_t max_frames,
                     size_t *n_frames)
{
  uint64_t sp = state->regs[REG_SP];
  uint64_t fp = state->regs[REG_BP];
  SpLeafRule rule;
  size_t n = 0;

  process->read_end = sp;
  if (max_frames < 3)
    return FP_UNUSABLE;
  frames[n++] = state->regs[REG_IP];
  switch (leaf_rule (process, state->regs[REG_IP], &rule))
    {
    case SP_LEAF_OUTERMOST:
      *n_frames = n;  /* stopped in _start itself: that is the whole stack */
      return FP_COMPLETE;
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

        if (!read_stack (process, state, sp, cfa - 8, &return_address)
            || (rule.rbp_offset != 0 && !read_stack (process, state, sp, cfa + (uint64_t) (int64_t) rule.rbp_offset, &fp)))
          {
            *n_frames = n;
            return state->stack_full ? FP_TRUNCATED : FP_UNUSABLE;
          }
        if (return_address == 0)
          return FP_UNUSABLE;
        frames[n++] = return_address;
        *n_frames = n;
        if (!keeps_frame_at (process, return_address, false))
          {
            process->resume_sp = cfa;
            process->resume_fp = fp;
            return FP_RESUME;
          }
        break;
      }
    case SP_LEAF_UNKNOWN:
    default:
      /* No CFI to ask (or an unusual rule): the prologue tells. */
      if (!keeps_frame_at (process, state->regs[REG_IP], true))
        return FP_UNUSABLE;
      break;
    }
  for (;;)
    {
      uint64_t next, return_address;
      bool keeps_frame;

      if (!read_stack (process, state, sp, fp, &next) || !read_stack (process, state, sp, fp + 8, &return_address))
        {
          *n_frames = n;
          return state->stack_full && fp >= sp ? FP_TRUNCATED : FP_UNUSABLE;
        }
      if (return_address == 0 || n == max_frames)
        return FP_UNUSABLE;
      frames[n++] = return_address;
      *n_frames = n;
      keeps_frame = keeps_frame_at (process, return_address, false);
      if (!keeps_frame || next == 0)
        {
          process->resume_sp = fp + 16;
          process->resume_fp = next;
          return keeps_frame ? FP_COMPLETE : FP_RESUME;
        }
      if (next <= fp)
        return FP_UNUSABLE;
      fp = next;
    }
}

/* ---- Statistics -------------------------------------------------------- */

static SpUnwindFile *
unknown_file (SpUnwinder *unwinder)
{
  if (unwinder->unknown == NULL)
    unwinder->unknown = file_for (unwinder, "[unknown]", 0);
  return unwinder->unknown;
}

static void
count_sample (SpUnwinder *unwinder,
              const SpUnwindProcess *process,
              const uint64_t *frames,
              size_t n_frames,
              SpUnwindOutcome outcome,
              bool frame_pointers)
{
  SpUnwindFile *last = NULL;

  unwinder->stamp++;
  for (size_t i = 0; i < n_frames; i++)
    {
      const Mapping *m = mapping_at (process, i == 0 ? frames[i] : frames[i] - 1);
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
  unwinder->n_unwound++;
  unwinder->n_frame_pointer += frame_pointers;
  switch (outcome)
    {
    case SP_UNWIND_COMPLETE:
      unwinder->n_complete++;
      break;
    case SP_UNWIND_TRUNCATED:
      unwinder->n_truncated++;
      if (last != NULL)
        last->n_truncated++;
      break;
    case SP_UNWIND_STOPPED:
      unwinder->n_stopped++;
      if (last != NULL)
        last->n_stopped++;
      break;
    }
}


uint64_t
sp_unwinder_stack_top (const SpUnwinder *unwinder,
                       int32_t tid)
{
  const struct SpUnwindThread *thread = thread_lookup (unwinder, tid);

  return thread != NULL ? thread->stack_top : 0;
}

/* A complete unwind read nothing above the thread's outermost frame: the
 * highest word it read bounds what any later unwind of the thread needs
 * (with a margin for the words an outermost frame's CFI may look at). */
static void
learn_stack_top (SpUnwinder *unwinder,
                 int32_t tid,
                 uint64_t read_end)
{
  struct SpUnwindThread *thread = thread_for (unwinder, tid);
  uint64_t top = read_end + 256;

  if (thread != NULL && top > thread->stack_top)
    thread->stack_top = top;
}

void
sp_unwinder_forget_thread (SpUnwinder *unwinder,
                           int32_t tid)
{
  struct SpUnwindThread *thread = thread_lookup (unwinder, tid);

  if (thread != NULL)
    {
      thread->stack_top = 0;
      if (thread->tail != NULL)
        thread->tail->valid = false;
    }
}

uint64_t
sp_unwinder_user_sp (const uint64_t *regs)
{
  return regs[REG_SP];
}

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
  SpUnwindProcess *process = process_for (unwinder, pid);
  SpUnwindOutcome outcome;

  *n_frames = 0;
  if (max_frames == 0 || state->n_regs < N_REGS)
    return SP_UNWIND_STOPPED;
  if (process == NULL)
    {
      frames[(*n_frames)++] = state->regs[REG_IP];
      return SP_UNWIND_STOPPED;
    }
  if (unwinder->use_frame_pointers)
    {
      switch (walk_frame_pointers (process, state, frames, max_frames, n_frames))
        {
        case FP_COMPLETE:
          *by_frame_pointers = true;
          count_sample (unwinder, process, frames, *n_frames, SP_UNWIND_COMPLETE, true);
          learn_stack_top (unwinder, tid, process->read_end);
          return SP_UNWIND_COMPLETE;
        case FP_TRUNCATED:
          *by_frame_pointers = true;
          count_sample (unwinder, process, frames, *n_frames, SP_UNWIND_TRUNCATED, true);
          return SP_UNWIND_TRUNCATED;
        case FP_RESUME:
          {
            size_t walked = *n_frames;

            outcome = unwind_dwarf (unwinder, process, tid, state, frames, walked, max_frames);
            /* From the resumed frame libdw knows %rsp and %rbp only: code
             * whose CFA lives in another register (ld.so's lazy-binding
             * trampoline realigns the stack and keeps it in %rbx) stops
             * it there. Nothing found, or a stop: ask it from the
             * sample's full registers instead. */
            if (outcome == SP_UNWIND_STOPPED || (outcome == SP_UNWIND_COMPLETE && process->n_frames == walked))
              break;
            *by_frame_pointers = true;
            *n_frames = process->n_frames;
            count_sample (unwinder, process, frames, *n_frames, outcome, true);
            if (outcome == SP_UNWIND_COMPLETE)
              learn_stack_top (unwinder, tid, process->read_end);
            return outcome;
          }
        case FP_UNUSABLE:
          break;
        }
    }
  outcome = unwind_dwarf (unwinder, process, tid, state, frames, 0, max_frames);
  *n_frames = process->n_frames;
  count_sample (unwinder, process, frames, *n_frames, outcome, false);
  if (outcome == SP_UNWIND_COMPLETE)
    learn_stack_top (unwinder, tid, process->read_end);
  return outcome;
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

  if (!unwinder->check_auto || !by_frame_pointers || (process = process_lookup (unwinder, pid)) == NULL)
    return outcome;
  if (unwinder->check_frames == NULL && (unwinder->check_frames = malloc (max_frames * sizeof (uint64_t))) == NULL)
    return outcome;
  reference = unwind_dwarf (unwinder, process, tid, state, unwinder->check_frames, 0, max_frames);
  unwinder->n_checked++;
  if (reference != outcome || process->n_frames != *n_frames
      || memcmp (unwinder->check_frames, frames, *n_frames * sizeof (uint64_t)) != 0)
    {
      unwinder->n_check_mismatches++;
      if (getenv ("STACKPULSE_CHECK_AUTO_DEBUG") != NULL)
        {
          fprintf (stderr, "auto (%d):", outcome);
          for (size_t i = 0; i < *n_frames; i++)
            fprintf (stderr, " %lx", (unsigned long) frames[i]);
          fprintf (stderr, "\ndwarf (%d):", reference);
          for (size_t i = 0; i < process->n_frames; i++)
            fprintf (stderr, " %lx", (unsigned long) unwinder->check_frames[i]);
          fprintf (stderr, "\n");
        }
    }
  return outcome;
}
