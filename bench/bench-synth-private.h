/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-synth-private.h: the synthetic recording's insides, for the three
 * files that build it: bench-synth.c (the system and the writer run),
 * bench-pool.c (the stacks) and bench-schedule.c (the samples). */
#pragma once

#include "bench-synth.h"
#include "sp-module-table.h"
#include "sp-spool-writer.h"

#define START_US        UINT64_C (1700000000000000)  /* wall clock at the start */
#define INTERVAL_US     1000
#define START_NS        UINT64_C (3600000000000)     /* CLOCK_MONOTONIC, 1 h uptime */
#define PERIOD_NS       1000000                      /* ~1 kHz per thread */
#define JITTER_NS       25000     /* a sample lands up to this far off its slot */
#define DRAIN_NS        40000     /* per-CPU buffers drain up to this late */
#define ZIPF_S          1.0
#define KERNEL_SHARE    0.25
#define TRUNCATED_SHARE 0.01
#define JIT_SHARE       0.05
#define MIN_DEPTH       20
#define MAX_DEPTH       60
#define N_HOT           64        /* functions many paths go through */
#define MAX_FUNCS       8000      /* per module */
#define N_KERNEL_PATHS  512
#define MAX_KERNEL_PATH 12
#define MAX_THREADS     16        /* sample thread indexes are one byte */
#define N_PROCESSES     4
#define N_KERNEL_MODULES 2
#define MAX_MODULES     8         /* per process, the NULL end included */

/* ---- The shape of the system ----------------------------------------- */

/* A module's text mapping; modules[0] is the executable, [1] libc. */
typedef struct {
  const char *path;
  uint64_t    size;
  uint64_t    file_offset;
  uint64_t    inode;       /* 0: made up from the path */
} ModuleShape;

typedef struct {
  const char        *name;
  int32_t            pid;
  int                parent;       /* index of the forking process, or -1 */
  unsigned           n_threads;
  double             stack_share;  /* of the pool */
  bool               is_python;
  bool               has_jit;
  const ModuleShape *modules;      /* ends with a NULL path */
} ProcessShape;

/* ---- Randomness ------------------------------------------------------ */

typedef struct {
  uint64_t state;
} Rng;

static inline uint64_t
rng_next (Rng *rng)
{
  uint64_t z = (rng->state += UINT64_C (0x9E3779B97F4A7C15));

  z = (z ^ (z >> 30)) * UINT64_C (0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C (0x94D049BB133111EB);
  return z ^ (z >> 31);
}

static inline uint64_t
rng_below (Rng *rng,
           uint64_t n)
{
  return rng_next (rng) % n;
}

static inline double
rng_unit (Rng *rng)
{
  return (double) (rng_next (rng) >> 11) * 0x1.0p-53;
}

/* How many more times a coin with p_continue comes up, at most cap. */
static inline size_t
rng_geometric (Rng *rng,
               double p_continue,
               size_t cap)
{
  size_t n = 0;

  while (n < cap && rng_unit (rng) < p_continue)
    n++;
  return n;
}

/* ---- The recording --------------------------------------------------- */

typedef struct {
  uint64_t start;
  uint32_t len;
} Function;

typedef struct {
  Function *items;
  size_t    n;
  size_t    capacity;
} FunctionVec;

typedef struct {
  const ProcessShape *shape;
  uint64_t            module_starts[MAX_MODULES];
  FunctionVec         funcs;          /* every module's, executable first */
  size_t              libc_first;     /* libc's first function */
  uint32_t            hot[N_HOT];
  uint64_t            jit_start;
  size_t              first_stack;    /* its part of the pool */
  size_t              n_stacks;
  double             *zipf_cdf;       /* over popularity ranks */
  uint32_t           *by_rank;        /* pool stack (within the process) of a rank */
} Process;

typedef struct {
  int32_t  pid;
  uint64_t tid;
  uint32_t process;
  uint32_t rank_shift;                /* threads of a process favour different stacks */
  double   busy;                      /* share of ticks it is on a CPU */
  uint64_t phase_ns;
} Thread;

/* A pool stack before resolution: a path of functions, root first. */
typedef struct {
  uint32_t path;                      /* offset into paths */
  uint8_t  len;
  uint8_t  drop;                      /* root-side frames lost: truncated */
  int16_t  kpath;                     /* kernel path at the leaf, or -1 */
  bool     jit_leaf;
  uint64_t leaf_ip;
  uint64_t kernel_leaf_ip;
} StackPlan;

struct _BenchRecording
{
  /* The system: the built-in shapes, or copies naming real files. */
  ProcessShape process_shapes[N_PROCESSES];
  ModuleShape  module_shapes[N_PROCESSES][MAX_MODULES];
  char        *mapped_paths[N_PROCESSES][MAX_MODULES];

  Process      processes[N_PROCESSES];
  Thread       threads[MAX_THREADS];
  size_t       n_threads;
  uint64_t     kernel_starts[N_KERNEL_MODULES];
  FunctionVec  kernel_funcs;
  size_t       kernel_image_funcs;    /* the rest are ext4's */
  uint32_t     kpaths[N_KERNEL_PATHS][MAX_KERNEL_PATH];
  uint8_t      kpath_len[N_KERNEL_PATHS];

  StackPlan   *plans;
  uint32_t    *paths;
  size_t       paths_used;

  SpFrame     *frames;                /* pool stack i: frames[frame_offsets[i]..[i+1]) */
  uint32_t    *frame_offsets;
  size_t       n_stacks;

  uint64_t    *sample_ts;
  uint8_t     *sample_thread;
  uint32_t    *sample_stack;
  size_t       n_samples;

  BenchShape   shape;
};

/* bench-synth.c: the recorder's preamble (kernel modules, forks, execs). */
bool _bench_replay_setup (const BenchRecording *rec,
                          SpModuleTable *table,
                          SpSpoolWriter *writer,
                          SpSpoolError *err);

/* bench-pool.c: plans the pool, resolves it into rec->frames and fills in
 * its part of rec->shape. */
bool _bench_pool_make (BenchRecording *rec,
                       size_t n_stacks,
                       Rng *rng);

/* bench-schedule.c: the threads and the sample schedule, with its figures. */
bool _bench_schedule_make (BenchRecording *rec,
                           size_t n_samples,
                           Rng *rng);
