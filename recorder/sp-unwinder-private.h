/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-unwinder-private.h: what the unwinder's files share, and only they.
 *
 *  - sp-unwinder.c: the coordinator (setting up, which way a sample is
 *    unwound, the auto check) and the statistics;
 *  - sp-unwind-maps.c: files, processes, their mappings, and threads;
 *  - sp-unwind-dwarf.c: libdw over the stack copy, and the per-thread
 *    cache of outer frames;
 *  - sp-unwind-fp.c: the frame-pointer chain (auto). */
#pragma once

#include <elfutils/libdwfl.h>

#include "sp-intern-table.h"
#include "sp-stack-tops.h"
#include "sp-unwind-file.h"
#include "sp-unwinder.h"

/* perf's x86-64 register numbers (asm/perf_regs.h). */
enum {
  SP_PERF_AX, SP_PERF_BX, SP_PERF_CX, SP_PERF_DX, SP_PERF_SI, SP_PERF_DI, SP_PERF_BP, SP_PERF_SP, SP_PERF_IP,
  SP_PERF_R8 = 16,
};
/* Positions in the sample, which lists the masked registers in bit order. */
enum {
  SP_REG_AX, SP_REG_BX, SP_REG_CX, SP_REG_DX, SP_REG_SI, SP_REG_DI, SP_REG_BP, SP_REG_SP, SP_REG_IP, SP_REG_R8,
  SP_N_REGS = SP_REG_R8 + 8
};

typedef struct {
  uint64_t      start;
  uint64_t      end;
  uint64_t      file_offset;
  SpUnwindFile *file;
  bool          reported;     /* handed to this process's Dwfl */
} SpUnwindMapping;

#define SP_TAIL_MAX_FRAMES 32
#define SP_TAIL_MAX_READS  64

typedef struct {
  uint64_t address;
  uint64_t value;
} SpStackRead;

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
  SpStackRead     reads[SP_TAIL_MAX_READS];
  size_t          n_frames;
  uint64_t        frames[SP_TAIL_MAX_FRAMES];
} SpTailCache;

typedef struct {
  uint64_t     stack_top;   /* just above its outermost frame; 0: unknown */
  SpTailCache *tail;
} SpUnwindThread;

typedef struct {
  struct SpUnwinder *unwinder;   /* whose files its mappings name */
  int32_t          pid;
  SpUnwindMapping *maps;         /* sorted by start, never overlapping */
  size_t           n_maps;
  size_t           maps_capacity;
  Dwfl            *dwfl;
  uint64_t         dwfl_used;    /* the unwinder's dwfl_clock when last unwound */
  bool             attached;
  bool             stale;        /* a reported mapping went away: start over */

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
  SpStackRead       *log;       /* the words read, while caching a tail */
  size_t             n_log;
  bool               log_full;
  bool               ran_out;   /* a read beyond a cut copy */
  uint64_t          *frames;
  size_t             max_frames;
  size_t             n_frames;
  bool               capped;
} SpUnwindProcess;

struct SpUnwinder {
  bool              use_frame_pointers;  /* auto mode */
  SpUnwindFile    **files;               /* every file seen, by path */
  SpUnwindFile     *unknown;             /* "[unknown]": addresses outside any file */
  size_t            n_files;
  size_t            files_capacity;
  SpInternTable     process_index;       /* pid -> processes[] */
  SpUnwindProcess **processes;
  size_t            processes_capacity;
  SpInternTable     thread_index;        /* tid -> threads[] */
  SpUnwindThread   *threads;             /* stack top, last outer frames */
  size_t            threads_capacity;
  void             *arch_elf;            /* libdw's architecture reference */
  int               arch_fd;
  uint64_t          stamp;               /* counts a file once per sample */
  uint64_t          dwfl_clock;          /* counts DWARF unwinds: the LRU's clock */
  uint64_t          file_clock;          /* counts files' uses: their LRU's clock */
  size_t            n_loaded_files;

  SpUnwindStats     stats;
  SpStackTops      *shared_tops;         /* where the stack tops are published, or NULL */
  uint64_t         *check_frames;        /* scratch for the auto check */
};

/* ---- sp-unwind-maps.c --------------------------------------------------- */

/* The file at path with that inode, loaded on first sight; NULL out of
 * memory. */
SpUnwindFile *_sp_unwinder_file_for (SpUnwinder *unwinder,
                                     const char *path,
                                     uint64_t inode);

/* A file about to be used (the mapping of an address, or reported to
 * libdw): read if it is not, giving back the least recently used read
 * file beyond SP_UNWIND_MAX_LOADED_FILES. */
void _sp_unwinder_use_file (SpUnwinder *unwinder,
                            SpUnwindFile *file);

/* Frees every process, thread and file. */
void _sp_unwinder_maps_clear (SpUnwinder *unwinder);

SpUnwindProcess *_sp_unwinder_process_lookup (SpUnwinder *unwinder,
                                              int32_t pid);
/* Made when new; NULL out of memory. */
SpUnwindProcess *_sp_unwinder_process_for (SpUnwinder *unwinder,
                                           int32_t pid);

SpUnwindThread *_sp_unwinder_thread_lookup (const SpUnwinder *unwinder,
                                            int32_t tid);
/* Made when new; NULL out of memory. */
SpUnwindThread *_sp_unwinder_thread_for (SpUnwinder *unwinder,
                                         int32_t tid);

/* The mapping holding address, or NULL. */
const SpUnwindMapping *_sp_unwinder_mapping_at (const SpUnwindProcess *process,
                                                uint64_t address);

/* A complete unwind read nothing of tid's stack above read_end. */
void _sp_unwinder_learn_stack_top (SpUnwinder *unwinder,
                                   int32_t tid,
                                   uint64_t read_end);

/* ---- sp-unwind-fp.c ----------------------------------------------------- */

typedef enum {
  SP_FP_UNUSABLE,    /* the leaf keeps no frame pointer: unwind it all with DWARF */
  SP_FP_COMPLETE,    /* the chain reached its end in frame-pointer code */
  SP_FP_RESUME,      /* trusted up to frames[n-1]; DWARF goes on from there */
  SP_FP_TRUNCATED,   /* the chain leaves a copy that was cut */
} SpFramePointerWalk;

/* The frame-pointer chain, as far as it can be trusted; on SP_FP_RESUME
 * process->resume_sp and resume_fp say where DWARF goes on. */
SpFramePointerWalk _sp_unwinder_walk_frame_pointers (SpUnwindProcess *process,
                                                     const SpUserState *state,
                                                     uint64_t *frames,
                                                     size_t max_frames,
                                                     size_t *n_frames);

/* The CFI's rule at the leaf's pc (sp_unwind_file_leaf_rule). */
SpLeafBase _sp_unwinder_leaf_rule (const SpUnwindProcess *process,
                                   uint64_t pc,
                                   SpLeafRule *rule);

/* The stack word at address, from the copy of [sp, ...); false when the
 * copy does not hold it. */
bool _sp_unwinder_read_stack (SpUnwindProcess *process,
                              const SpUserState *state,
                              uint64_t sp,
                              uint64_t address,
                              uint64_t *value);

/* From the frame the chain stopped at (process->frames[n_frames - 1], a
 * return address, with process->resume_sp and resume_fp), each caller's
 * frame from its CFI rule (sp_unwind_file_leaf_rule at its call: one
 * table per file, whichever processes map it) up to the outermost frame.
 * True only when it got there, every rule a simple one (the CFA from %rsp
 * or %rbp), with the frames in process->frames (process->n_frames) and the
 * stack words it read in reads (at most SP_TAIL_MAX_READS); false (frames
 * and count as they were) leaves the rest to libdw. */
bool _sp_unwinder_walk_cfi (SpUnwindProcess *process,
                            const SpUserState *state,
                            SpStackRead *reads,
                            size_t *n_reads);

/* ---- sp-unwind-dwarf.c -------------------------------------------------- */

/* Unwinds from the sample's registers, or (n_frames > 0) on from the
 * outermost of the frames[] already found through frame pointers, whose
 * %rsp and %rbp process->resume_* hold. The frames found end up in
 * process->n_frames. */
SpUnwindOutcome _sp_unwinder_dwarf (SpUnwinder *unwinder,
                                    SpUnwindProcess *process,
                                    int32_t tid,
                                    const SpUserState *state,
                                    uint64_t *frames,
                                    size_t n_frames,
                                    size_t max_frames);

/* The process's Dwfl (and what libdw holds of its modules) goes. */
void _sp_unwinder_dwarf_forget (SpUnwindProcess *process);
