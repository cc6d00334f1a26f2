/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-unwinder.h: user stacks from copied stack bytes, while recording.
 *
 * With --call-graph dwarf or auto, each sample carries the user registers
 * and a copy of the top of the user stack. The unwinder follows every
 * process's executable mappings (MMAP2 records, /proc/PID/maps, fork,
 * exec, exit) and turns a sample into its user frames, leaf first:
 *
 *  - dwarf: libdw walks the stack with the CFI (.eh_frame, else
 *    .debug_frame, also from separate debug files), reading memory only
 *    from the copy. One Dwfl per process, its modules (ELF files, CFI)
 *    opened once and kept until the process execs or exits.
 *  - auto: the frame-pointer chain is walked in the copy first; it is
 *    taken when it can be trusted (see sp-unwind-fp.c), else the
 *    sample is unwound with libdw as in dwarf mode.
 *
 * Only the resulting addresses leave the unwinder; the stack bytes do not. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sp-spool-format.h"
#include "sp-stack-tops.h"

typedef enum {
  SP_UNWIND_COMPLETE,      /* reached the thread's outermost frame */
  SP_UNWIND_TRUNCATED,     /* the stack copy ended before the root */
  SP_UNWIND_STOPPED,       /* no way on: no CFI, unknown code, bad data */
} SpUnwindOutcome;

typedef struct {
  const uint64_t *regs;         /* the sample's user registers, in mask order */
  size_t          n_regs;
  const uint8_t  *stack;        /* copy of [sp, sp + stack_size) */
  uint64_t        stack_size;   /* bytes valid (dyn_size) */
  bool            stack_full;   /* the copy was cut at the asked size */
  bool            uncounted;    /* left out of the statistics: a switch-out's
                                 * short copy, which the recording counts */
} SpUserState;

/* Opaque: its parts live in sp-unwind-maps.c, sp-unwind-dwarf.c and
 * sp-unwind-fp.c (sp-unwinder-private.h). */
typedef struct SpUnwinder SpUnwinder;

/* How user stacks were unwound so far (the side file's [unwinding]). */
typedef struct {
  uint64_t samples;              /* samples with user state */
  uint64_t frame_pointer;        /* taken from frame pointers (auto) */
  uint64_t complete;
  uint64_t truncated;
  uint64_t stopped;
  uint64_t outer_frames_reused;  /* outer frames taken from the thread's last sample */
  bool     checked;              /* check_auto was asked for (and the mode is auto) */
  uint64_t n_checked;
  uint64_t n_check_mismatches;
  /* What the unwinder holds: the files mapped, of them the ones read (a
   * stack ran through them), libdw's sessions open now (one per process
   * unwound with DWARF, at most SP_UNWIND_MAX_DWFLS) and those closed to
   * stay under that bound (reopened when their process is sampled again). */
  uint64_t files;
  uint64_t files_read;
  uint64_t files_unloaded;       /* read files given back to stay under
                                  * SP_UNWIND_MAX_LOADED_FILES (read again
                                  * when a stack runs through them) */
  uint64_t dwfl_open;
  uint64_t dwfl_evicted;
} SpUnwindStats;

/* libdw sessions kept open at once: each holds its own copy of every
 * module's ELF and CFI, so a recording of the whole system with hundreds
 * of processes unwound with DWARF would otherwise grow without bound. */
#define SP_UNWIND_MAX_DWFLS 64
/* Files kept read at once (their images, function tables and rule caches:
 * up to a few MB for the largest libraries). */
#define SP_UNWIND_MAX_LOADED_FILES 512

/* One file the unwound stacks went through (the side file's
 * [unwind-module N]). */
typedef struct {
  const char *path;              /* the unwinder's, valid while it lives */
  bool        readable;
  bool        eh_frame;
  bool        debug_frame;
  bool        debuglink;
  bool        symbols;
  uint64_t    functions;
  uint64_t    frame_pointer_functions;
  uint64_t    samples;           /* whose user stack passes through it */
  uint64_t    frame_pointer;     /* of those, taken from frame pointers */
  uint64_t    truncated;         /* stack copy ran out in it */
  uint64_t    stopped;           /* unwinding found no way on in it */
} SpUnwindFileStats;

/* NULL (message set) when this machine cannot unwind (not x86-64), or out
 * of memory. use_frame_pointers: auto mode. check_auto (a developer
 * check, auto only): every stack auto takes through its fast paths is
 * unwound with DWARF too, differences are counted and printed on
 * stderr. */
SpUnwinder *sp_unwinder_new (bool use_frame_pointers,
                             bool check_auto,
                             char *message,
                             size_t message_size);
void sp_unwinder_free (SpUnwinder *unwinder);

void sp_unwinder_get_stats (const SpUnwinder *unwinder,
                            SpUnwindStats *out);

/* The files seen so far, i < sp_unwinder_get_n_files (). */
size_t sp_unwinder_get_n_files (const SpUnwinder *unwinder);
void sp_unwinder_get_file_stats (const SpUnwinder *unwinder,
                                 size_t i,
                                 SpUnwindFileStats *out);

/* The perf_event_attr.sample_regs_user mask the unwinder needs. */
uint64_t sp_unwinder_regs_mask (void);

/* An executable mapping of module->pid (module->path NUL-terminated). */
void sp_unwinder_add_mapping (SpUnwinder *unwinder,
                              const SpModule *module);
void sp_unwinder_fork (SpUnwinder *unwinder,
                       int32_t parent_pid,
                       int32_t pid);
/* The process exec'd or exited: its mappings and Dwfl go. */
void sp_unwinder_forget_process (SpUnwinder *unwinder,
                                 int32_t pid);

/* The sample's user stack pointer (regs in the mask's order). */
uint64_t sp_unwinder_user_sp (const uint64_t *regs);

/* Where thread tid's stack ends, learnt from its complete unwinds: bytes
 * of a stack copy above it are never read, so a sample's copy can be cut
 * there before it is queued. 0 while unknown. */
uint64_t sp_unwinder_stack_top (const SpUnwinder *unwinder,
                                int32_t tid);

/* From now on every stack top learnt (and forgotten) is also set in
 * tops, which another thread may read (the ring drain's cuts). */
void sp_unwinder_share_stack_tops (SpUnwinder *unwinder,
                                   SpStackTops *tops);

/* Thread tid ended: its id may be a new thread's. */
void sp_unwinder_forget_thread (SpUnwinder *unwinder,
                                int32_t tid);

/* Unwinds one sample of thread tid into frames (leaf first, at most
 * max_frames); returns how it ended. */
SpUnwindOutcome sp_unwinder_unwind (SpUnwinder *unwinder,
                                    int32_t pid,
                                    int32_t tid,
                                    const SpUserState *state,
                                    uint64_t *frames,
                                    size_t max_frames,
                                    size_t *n_frames);
