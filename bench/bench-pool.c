/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-pool.c: the synthetic recording's pool of distinct stacks.
 *
 * Stacks grow as a tree of call paths: each new stack branches off an
 * earlier one of its process a few calls above the leaf and goes a few calls
 * deeper, through a call graph where every function calls a few others, so
 * most stacks share long prefixes and most frames recur. A quarter end in a
 * kernel path (a small tree of its own below the syscall, interrupt and
 * page-fault entries), 1% are truncated at the root, and some of the
 * server's end in JIT code that no module covers. The pool is resolved once
 * into SpFrame arrays, leaf first, with sp_module_table_resolve_frame. */
#include "bench-synth-private.h"

#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench-probe.h"

/* Each function calls a few others, the first of them most often; which
 * ones is fixed by a hash, so call paths reuse call sites like real code. */
static uint32_t
callee_of (uint32_t caller,
           size_t n_funcs,
           const uint32_t *hot,
           Rng *rng)
{
  uint64_t h = bench_mix (bench_mix (0x5eed, caller), rng_geometric (rng, 0.5, 7));

  if (hot != NULL && h % 100 < 35)
    return hot[(h / 100) % N_HOT];
  return (uint32_t) ((h / 100) % n_funcs);
}

/* Where in f a sample lands: one of a few hot instructions. */
static uint64_t
leaf_address (const Function *funcs,
              uint32_t f,
              Rng *rng)
{
  uint64_t h = bench_mix (bench_mix (0x1eaf, f), rng_below (rng, 4));

  return funcs[f].start + h % funcs[f].len;
}

/* Kernel paths, as a small tree of their own below three entry points:
 * syscalls, timer interrupts and page faults. */
static void
make_kernel_paths (BenchRecording *rec,
                   Rng *rng)
{
  size_t image = rec->kernel_image_funcs;

  for (size_t k = 0; k < N_KERNEL_PATHS; k++)
    {
      size_t len = 3 + rng_below (rng, MAX_KERNEL_PATH - 2);
      size_t keep;

      if (k < 3)
        {
          rec->kpaths[k][0] = (uint32_t) (2 * k);
          rec->kpaths[k][1] = (uint32_t) (2 * k + 1);
          keep = 2;
        }
      else
        {
          size_t base = rng_below (rng, k);
          size_t limit = rec->kpath_len[base] < len - 1 ? rec->kpath_len[base] : len - 1;
          size_t back = rng_geometric (rng, 0.6, 8);

          keep = limit > back + 2 ? limit - back : 2;
          memcpy (rec->kpaths[k], rec->kpaths[base], keep * sizeof (uint32_t));
        }
      for (size_t i = keep; i < len; i++)
        rec->kpaths[k][i] = rng_unit (rng) < 0.1
                            ? (uint32_t) (image + rng_below (rng, rec->kernel_funcs.n - image))
                            : (uint32_t) (6 + callee_of (rec->kpaths[k][i - 1], image - 6, NULL, rng));
      rec->kpath_len[k] = (uint8_t) len;
    }
}

/* A thread's root: _start → __libc_start_main → __libc_start_call_main →
 * main for the main thread, clone3 → start_thread → its entry otherwise. */
static size_t
thread_root (const Process *proc,
             size_t local,
             uint32_t *root)
{
  uint32_t libc = (uint32_t) proc->libc_first;

  if (local == 0)
    {
      root[0] = 0;
      root[1] = libc;
      root[2] = libc + 1;
      root[3] = 1;
      return 4;
    }
  root[0] = libc + 2;
  root[1] = libc + 3;
  root[2] = (uint32_t) (2 + local);
  return 3;
}

/* How many user frames a stack has, and how many of base's calls it keeps:
 * a new stack leaves its base a few calls above the leaf and goes a few
 * calls deeper, within the depth range. */
static size_t
branch_off (const StackPlan *base,
            size_t kernel,
            Rng *rng,
            size_t *keep)
{
  size_t back = rng_geometric (rng, 0.75, 20);
  size_t user;

  *keep = base->len > back + 3 ? base->len - back : 3;
  user = *keep + 1 + rng_geometric (rng, 0.7, 30);
  if (user < MIN_DEPTH - kernel)
    user = MIN_DEPTH - kernel;
  if (user > MAX_DEPTH - kernel)
    user = MAX_DEPTH - kernel;
  if (*keep > user - 1)
    *keep = user - 1;
  return user;
}

/* The frames a plan stands for, as one hash, to keep the pool distinct. */
static uint64_t
plan_hash (const BenchRecording *rec,
           const Process *proc,
           const StackPlan *plan)
{
  uint64_t h = bench_mix (bench_mix ((uint64_t) proc->shape->pid, plan->leaf_ip), plan->kernel_leaf_ip);

  h = bench_mix (bench_mix (h, (uint64_t) plan->kpath), plan->drop);
  for (size_t i = 0; i < plan->len; i++)
    h = bench_mix (h, rec->paths[plan->path + i]);
  return h | 1;
}

/* Adds h to the set; false if it was there. */
static bool
pool_set_add (uint64_t *set,
              size_t mask,
              uint64_t h)
{
  for (size_t i = h & mask;; i = (i + 1) & mask)
    {
      if (set[i] == h)
        return false;
      if (set[i] == 0)
        {
          set[i] = h;
          return true;
        }
    }
}

/* Plans stack s of proc at rec->paths_used: a branch off an earlier stack
 * (or off a thread root for the first ones), extended with new calls. */
static void
plan_stack (BenchRecording *rec,
            const Process *proc,
            size_t s,
            Rng *rng)
{
  StackPlan *plan = &rec->plans[proc->first_stack + s];
  uint32_t *path = rec->paths + rec->paths_used;
  size_t kernel = 0;
  size_t user, keep, depth;
  uint32_t root[4];
  const uint32_t *base;

  plan->kpath = -1;
  if (rng_unit (rng) < KERNEL_SHARE)
    {
      double u = rng_unit (rng);

      plan->kpath = (int16_t) (u * u * N_KERNEL_PATHS);
      kernel = rec->kpath_len[plan->kpath];
    }
  if (s < proc->shape->n_threads)
    {
      keep = thread_root (proc, s, root);
      base = root;
      user = MIN_DEPTH + rng_below (rng, MAX_DEPTH - MIN_DEPTH + 1) - kernel;
    }
  else
    {
      const StackPlan *from = &rec->plans[proc->first_stack + rng_below (rng, s)];

      user = branch_off (from, kernel, rng, &keep);
      base = rec->paths + from->path;
    }
  memcpy (path, base, keep * sizeof (uint32_t));
  for (size_t i = keep; i < user; i++)
    path[i] = callee_of (path[i - 1], proc->funcs.n, proc->hot, rng);
  if (kernel > 0)  /* the user leaf is a syscall wrapper */
    path[user - 1] = (uint32_t) (proc->libc_first + 4 + rng_below (rng, 16));

  plan->path = (uint32_t) rec->paths_used;
  plan->len = (uint8_t) user;
  depth = user + kernel;
  plan->drop = 0;
  if (depth > MIN_DEPTH && rng_unit (rng) < TRUNCATED_SHARE)
    {
      /* Unwinding stopped up to 8 calls short of the root, never at the leaf. */
      size_t most = depth - MIN_DEPTH < 8 ? depth - MIN_DEPTH : 8;

      most = most < user - 1 ? most : user - 1;
      plan->drop = (uint8_t) (1 + rng_below (rng, most));
    }
  plan->jit_leaf = proc->shape->has_jit && kernel == 0 && rng_unit (rng) < JIT_SHARE;
  plan->leaf_ip = plan->jit_leaf ? proc->jit_start + rng_below (rng, 0x10000) * 16
                                 : leaf_address (proc->funcs.items, path[user - 1], rng);
  plan->kernel_leaf_ip = kernel > 0 ? leaf_address (rec->kernel_funcs.items,
                                                    rec->kpaths[plan->kpath][kernel - 1], rng)
                                    : 0;
}

/* Plans every stack of proc, none twice. */
static void
plan_process (BenchRecording *rec,
              const Process *proc,
              uint64_t *set,
              size_t mask,
              Rng *rng)
{
  for (size_t s = 0; s < proc->n_stacks; s++)
    {
      const StackPlan *plan = &rec->plans[proc->first_stack + s];

      for (unsigned attempt = 0; attempt < 1000; attempt++)
        {
          plan_stack (rec, proc, s, rng);
          if (pool_set_add (set, mask, plan_hash (rec, proc, plan)))
            break;
        }
      rec->paths_used += plan->len;
    }
}

static size_t
plan_depth (const StackPlan *plan,
            const BenchRecording *rec)
{
  size_t kernel = plan->kpath >= 0 ? rec->kpath_len[plan->kpath] : 0;

  return kernel + plan->len - plan->drop + (plan->drop ? 1 : 0);
}

/* Where caller calls callee from: one call site per pair. */
static uint64_t
return_address (const Function *funcs,
                uint32_t caller,
                uint32_t callee)
{
  uint64_t h = bench_mix (bench_mix (0, caller), callee);

  return funcs[caller].start + 1 + h % (funcs[caller].len - 1);
}

/* The plan as the kernel would hand it over: leaf first, resolved. */
static size_t
resolve_stack (const BenchRecording *rec,
               const Process *proc,
               const StackPlan *plan,
               SpModuleTable *table,
               SpFrame *out)
{
  const Function *kfuncs = rec->kernel_funcs.items;
  const uint32_t *path = rec->paths + plan->path;
  int32_t pid = proc->shape->pid;
  size_t n = 0;

  if (plan->kpath >= 0)
    {
      const uint32_t *kpath = rec->kpaths[plan->kpath];

      out[n++] = sp_module_table_resolve_frame (table, pid, plan->kernel_leaf_ip, SP_FRAME_KERNEL);
      for (size_t i = rec->kpath_len[plan->kpath] - 1; i-- > 0;)
        out[n++] = sp_module_table_resolve_frame (table, pid,
                                                  return_address (kfuncs, kpath[i], kpath[i + 1]),
                                                  SP_FRAME_KERNEL);
    }
  out[n++] = sp_module_table_resolve_frame (table, pid, plan->leaf_ip, SP_FRAME_USER);
  for (size_t i = plan->len - 1; i-- > plan->drop;)
    out[n++] = sp_module_table_resolve_frame (table, pid,
                                              return_address (proc->funcs.items, path[i], path[i + 1]),
                                              SP_FRAME_USER);
  if (plan->drop > 0)
    out[n++] = sp_frame_truncated_marker ();
  return n;
}

/* Resolves the whole pool against the module table the writer will build. */
static bool
resolve_pool (BenchRecording *rec)
{
  SpModuleTable *table = sp_module_table_new ();
  int fd = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  SpSpoolWriter *writer = fd < 0 ? NULL : sp_spool_writer_new_for_fd (fd, true, START_US, INTERVAL_US, NULL);
  size_t total = 0;
  bool ok = table != NULL && writer != NULL && _bench_replay_setup (rec, table, writer, NULL);

  rec->frame_offsets = malloc ((rec->n_stacks + 1) * sizeof (uint32_t));
  ok = ok && rec->frame_offsets != NULL;
  for (size_t i = 0; ok && i < rec->n_stacks; i++)
    {
      rec->frame_offsets[i] = (uint32_t) total;
      total += plan_depth (&rec->plans[i], rec);
    }
  if (ok)
    {
      rec->frame_offsets[rec->n_stacks] = (uint32_t) total;
      rec->frames = malloc (total * sizeof (SpFrame));
      ok = rec->frames != NULL;
    }
  for (size_t p = 0; ok && p < N_PROCESSES; p++)
    {
      const Process *proc = &rec->processes[p];

      for (size_t s = proc->first_stack; s < proc->first_stack + proc->n_stacks; s++)
        resolve_stack (rec, proc, &rec->plans[s], table, rec->frames + rec->frame_offsets[s]);
    }
  if (ok)
    {
      rec->shape.n_modules = sp_module_table_get_n_modules (table);
      rec->shape.n_pool_frames = total;
      rec->shape.pool_bytes = total * sizeof (SpFrame) + (rec->n_stacks + 1) * sizeof (uint32_t);
    }
  sp_spool_writer_close (writer, NULL);
  sp_module_table_free (table);
  return ok;
}

static void
describe_pool (BenchRecording *rec)
{
  BenchShape *shape = &rec->shape;
  size_t kernel = 0, truncated = 0, jit = 0, sum = 0;

  shape->min_depth = MAX_DEPTH + 1;
  for (size_t i = 0; i < rec->n_stacks; i++)
    {
      const StackPlan *plan = &rec->plans[i];
      unsigned depth = rec->frame_offsets[i + 1] - rec->frame_offsets[i];

      sum += depth;
      shape->min_depth = depth < shape->min_depth ? depth : shape->min_depth;
      shape->max_depth = depth > shape->max_depth ? depth : shape->max_depth;
      kernel += plan->kpath >= 0;
      truncated += plan->drop > 0;
      jit += plan->jit_leaf;
    }
  shape->n_processes = N_PROCESSES;
  shape->n_stacks = rec->n_stacks;
  shape->mean_depth = (double) sum / (double) rec->n_stacks;
  shape->kernel_share = (double) kernel / (double) rec->n_stacks;
  shape->truncated_share = (double) truncated / (double) rec->n_stacks;
  shape->jit_share = (double) jit / (double) rec->n_stacks;
}

bool
_bench_pool_make (BenchRecording *rec,
                  size_t n_stacks,
                  Rng *rng)
{
  size_t room = n_stacks + N_PROCESSES * MAX_THREADS;
  size_t mask = 1;
  size_t first = 0;
  uint64_t *set;
  bool ok;

  while (mask < 2 * room)
    mask = mask * 2 + 1;
  make_kernel_paths (rec, rng);
  rec->plans = calloc (room, sizeof (StackPlan));
  rec->paths = malloc (room * MAX_DEPTH * sizeof (uint32_t));
  set = calloc (mask + 1, sizeof (uint64_t));
  if (rec->plans == NULL || rec->paths == NULL || set == NULL)
    {
      free (set);
      return false;
    }
  for (size_t p = 0; p < N_PROCESSES; p++)
    {
      Process *proc = &rec->processes[p];
      size_t n = (size_t) llround ((double) n_stacks * proc->shape->stack_share);

      proc->first_stack = first;
      proc->n_stacks = n > proc->shape->n_threads ? n : proc->shape->n_threads;
      plan_process (rec, proc, set, mask, rng);
      first += proc->n_stacks;
    }
  free (set);
  rec->n_stacks = first;
  ok = resolve_pool (rec);
  if (ok)
    describe_pool (rec);
  /* Only the resolved frames are needed from now on. */
  free (rec->plans);
  free (rec->paths);
  rec->plans = NULL;
  rec->paths = NULL;
  return ok;
}

