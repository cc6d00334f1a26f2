/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-synth.c: the synthetic recording bench-codec writes and reads:
 * the system it comes from, and the timed writer run.
 *
 * Shaped like a system-wide recording: four processes (one launched, three
 * forked and exec'd) with the modules such programs map, the kernel and one
 * kernel module shared by all, 16 threads sampled at ~1 kHz each.
 * bench-pool.c grows the pool of stacks, bench-schedule.c the samples.
 *
 * Everything random is decided in bench_recording_new, before any timing:
 * every pool stack is resolved once into SpFrame arrays, and the sample
 * schedule is three plain arrays (timestamp, thread, pool stack), so the
 * timed loop in bench_recording_write is sp_spool_writer_write_sample and a
 * checksum, nothing else. */
#include "bench-synth-private.h"

#include <stdlib.h>
#include <string.h>

#include "bench-probe.h"

#define LIB "/usr/lib/x86_64-linux-gnu/"

/* ---- The shape of the system ----------------------------------------- */

static const ModuleShape gtk_demo_modules[] = {
  { "/usr/bin/gtk4-demo",             0x180000, 0x1f000, 0 },
  { LIB "libc.so.6",                  0x165000, 0x26000, 0 },
  { LIB "libglib-2.0.so.0.7400.6",    0x0a2000, 0x1d000, 0 },
  { LIB "libgobject-2.0.so.0.7400.6", 0x037000, 0x10000, 0 },
  { LIB "libgtk-4.so.1.800.3",        0x4e0000, 0xc5000, 0 },
  { LIB "ld-linux-x86-64.so.2",       0x025000, 0x01000, 0 },
  { "[vdso]",                         0x002000, 0, 0 },
  { NULL, 0, 0, 0 },
};

static const ModuleShape server_modules[] = {
  { "/usr/local/bin/spd-server",      0x2a0000, 0x4a000, 0 },
  { LIB "libc.so.6",                  0x165000, 0x26000, 0 },
  { LIB "libssl.so.3",                0x076000, 0x22000, 0 },
  { LIB "libcrypto.so.3",             0x2c8000, 0x9e000, 0 },
  { LIB "libz.so.1.2.13",             0x016000, 0x03000, 0 },
  { LIB "ld-linux-x86-64.so.2",       0x025000, 0x01000, 0 },
  { "[vdso]",                         0x002000, 0, 0 },
  { NULL, 0, 0, 0 },
};

static const ModuleShape python_modules[] = {
  { "/usr/bin/python3.11",            0x2d5000, 0x6a000, 0 },
  { LIB "libc.so.6",                  0x165000, 0x26000, 0 },
  { LIB "libm.so.6",                  0x07f000, 0x0e000, 0 },
  { LIB "libexpat.so.1.8.10",         0x024000, 0x06000, 0 },
  { "/usr/lib/python3.11/lib-dynload/_json.cpython-311-x86_64-linux-gnu.so", 0x009000, 0x02000, 0 },
  { "[vdso]",                         0x002000, 0, 0 },
  { NULL, 0, 0, 0 },
};

static const ModuleShape cc1_modules[] = {
  { "/usr/libexec/gcc/x86_64-linux-gnu/12/cc1", 0x1a50000, 0x2ab000, 0 },
  { LIB "libc.so.6",                  0x165000, 0x26000, 0 },
  { LIB "libgmp.so.10.4.1",           0x06a000, 0x0b000, 0 },
  { LIB "libmpfr.so.6.2.0",           0x052000, 0x09000, 0 },
  { LIB "libzstd.so.1.5.4",           0x0a8000, 0x08000, 0 },
  { "[vdso]",                         0x002000, 0, 0 },
  { NULL, 0, 0, 0 },
};

static const ProcessShape process_shapes[] = {
  { "gtk4-demo",  4100, -1, 5, 0.30, false, false, gtk_demo_modules },
  { "spd-server", 4123,  0, 6, 0.35, false, true,  server_modules },
  { "python3",    4187,  0, 2, 0.15, true,  false, python_modules },
  { "cc1",        4242,  1, 3, 0.20, false, false, cc1_modules },
};

/* The kernel image and one loadable module, shared by every process. */
static const ModuleShape kernel_modules[] = {
  { "[kernel.kallsyms]", 0x2200000, 0, 0 },
  { "[ext4]",            0x00a0000, 0, 0 },
};
_Static_assert (sizeof process_shapes / sizeof process_shapes[0] == N_PROCESSES, "N_PROCESSES");
_Static_assert (sizeof gtk_demo_modules / sizeof gtk_demo_modules[0] <= MAX_MODULES, "MAX_MODULES");
_Static_assert (sizeof server_modules / sizeof server_modules[0] <= MAX_MODULES, "MAX_MODULES");
_Static_assert (sizeof python_modules / sizeof python_modules[0] <= MAX_MODULES, "MAX_MODULES");
_Static_assert (sizeof cc1_modules / sizeof cc1_modules[0] <= MAX_MODULES, "MAX_MODULES");
_Static_assert (sizeof kernel_modules / sizeof kernel_modules[0] == N_KERNEL_MODULES, "N_KERNEL_MODULES");

static uint64_t
hash_string (const char *s)
{
  uint64_t h = UINT64_C (0xcbf29ce484222325);

  for (; *s != '\0'; s++)
    h = (h ^ (uint8_t) *s) * UINT64_C (0x100000001b3);
  return h;
}

/* ---- The system ------------------------------------------------------ */

static bool
push_function (FunctionVec *vec,
               uint64_t start,
               uint32_t len)
{
  if (vec->n == vec->capacity)
    {
      size_t capacity = vec->capacity ? vec->capacity * 2 : 1024;
      Function *items = realloc (vec->items, capacity * sizeof *items);

      if (items == NULL)
        return false;
      vec->items = items;
      vec->capacity = capacity;
    }
  vec->items[vec->n++] = (Function) { start, len };
  return true;
}

/* Functions packed through a module's text; the layout depends only on
 * the file, so libc looks the same (at other addresses) in every process. */
static bool
layout_functions (FunctionVec *funcs,
                  const ModuleShape *module,
                  uint64_t start,
                  uint32_t mean_len)
{
  Rng rng = { hash_string (module->path) };
  uint64_t offset = rng_below (&rng, 16) * 16;

  for (size_t n = 0; n < MAX_FUNCS; n++)
    {
      uint32_t len = 16 + (uint32_t) rng_below (&rng, 2 * mean_len);

      if (offset + len > module->size)
        break;
      if (!push_function (funcs, start + offset, len))
        return false;
      offset += len + rng_below (&rng, 4) * 16;
    }
  return true;
}

static uint64_t
module_inode (const ModuleShape *shape)
{
  if (shape->inode != 0)
    return shape->inode;
  return shape->path[0] == '[' ? 0 : 0x100000 + hash_string (shape->path) % 0x800000;
}

/* Places the modules of one process as ASLR would, and their functions. */
static bool
setup_process (Process *proc,
               const ProcessShape *shape,
               Rng *rng)
{
  uint64_t lib_next = UINT64_C (0x7f0000000000) + rng_below (rng, 0x800000) * 0x1000;

  proc->shape = shape;
  for (size_t i = 0; shape->modules[i].path != NULL; i++)
    {
      const ModuleShape *module = &shape->modules[i];
      uint64_t start;

      if (i == 0)
        start = UINT64_C (0x550000000000) + rng_below (rng, 0x1000000) * 0x1000;
      else if (strcmp (module->path, "[vdso]") == 0)
        start = UINT64_C (0x7ffc00000000) + rng_below (rng, 0x100000) * 0x1000;
      else
        {
          start = lib_next;
          lib_next += (module->size + 0x300000) & ~UINT64_C (0xfff);
        }
      proc->module_starts[i] = start;
      if (i == 1)
        proc->libc_first = proc->funcs.n;
      if (!layout_functions (&proc->funcs, module, start, 0x200))
        return false;
    }
  proc->jit_start = UINT64_C (0x7e0000000000) + rng_below (rng, 0x100000) * 0x1000;
  for (size_t i = 0; i < N_HOT; i++)
    proc->hot[i] = (uint32_t) rng_below (rng, proc->funcs.n);
  return true;
}

static bool
setup_kernel (BenchRecording *rec,
              Rng *rng)
{
  rec->kernel_starts[0] = UINT64_C (0xffffffff81000000) + rng_below (rng, 64) * 0x200000;
  rec->kernel_starts[1] = UINT64_C (0xffffffffc0a00000);
  for (size_t i = 0; i < N_KERNEL_MODULES; i++)
    {
      if (!layout_functions (&rec->kernel_funcs, &kernel_modules[i], rec->kernel_starts[i], 0x180))
        return false;
      if (i == 0)
        rec->kernel_image_funcs = rec->kernel_funcs.n;
    }
  return true;
}

static SpModule
process_module (const Process *proc,
                size_t i)
{
  const ModuleShape *shape = &proc->shape->modules[i];
  SpModule module = {
    proc->module_starts[i], proc->module_starts[i] + shape->size, shape->file_offset,
    module_inode (shape), shape->path, strlen (shape->path), proc->shape->pid, false,
  };

  return module;
}

/* The recorder's preamble: kernel modules, then each process launched or
 * forked, exec'd and mapped. Run the same way before every writer run, so
 * module ids (and the pre-resolved frames) are the same each time. */
bool
_bench_replay_setup (const BenchRecording *rec,
              SpModuleTable *table,
              SpSpoolWriter *writer,
              SpSpoolError *err)
{
  uint32_t id;

  for (size_t i = 0; i < N_KERNEL_MODULES; i++)
    {
      SpModule module = {
        rec->kernel_starts[i], rec->kernel_starts[i] + kernel_modules[i].size, 0, 0,
        kernel_modules[i].path, strlen (kernel_modules[i].path), -1, true,
      };

      if (!sp_module_table_intern (table, writer, &module, &id, err))
        return false;
    }
  for (size_t p = 0; p < N_PROCESSES; p++)
    {
      const Process *proc = &rec->processes[p];
      const ProcessShape *shape = proc->shape;
      uint64_t exec_ns = START_NS - (N_PROCESSES - p) * 20 * PERIOD_NS;

      if (shape->parent >= 0
          && !sp_module_table_clone_process (table, writer, rec->process_shapes[shape->parent].pid,
                                             shape->pid, err))
        return false;
      if (!sp_spool_writer_write_process_exec (writer, exec_ns, shape->pid, shape->is_python, err)
          || !sp_module_table_deactivate_process (table, writer, shape->pid, err))
        return false;
      for (size_t i = 0; shape->modules[i].path != NULL; i++)
        {
          SpModule module = process_module (proc, i);

          if (!sp_module_table_intern (table, writer, &module, &id, err))
            return false;
        }
    }
  return true;
}

/* The recording's own copy of the system, each user module passed
 * through map (when given). */
static void
copy_shapes (BenchRecording *rec,
             BenchModuleMapFunc map,
             void *user_data)
{
  for (size_t p = 0; p < N_PROCESSES; p++)
    {
      ModuleShape *modules = rec->module_shapes[p];
      size_t i;

      rec->process_shapes[p] = process_shapes[p];
      rec->process_shapes[p].modules = modules;
      for (i = 0; process_shapes[p].modules[i].path != NULL; i++)
        {
          BenchModuleFile file = { NULL, 0, 0, 0 };

          modules[i] = process_shapes[p].modules[i];
          if (map == NULL || modules[i].path[0] == '[' || !map (modules[i].path, &file, user_data))
            continue;
          rec->mapped_paths[p][i] = file.path;
          modules[i] = (ModuleShape) { file.path, file.size, file.file_offset, file.inode };
        }
      modules[i] = (ModuleShape) { NULL, 0, 0, 0 };
    }
}

/* ---- Public ---------------------------------------------------------- */

BenchRecording *
bench_recording_new (size_t n_samples,
                     size_t n_stacks,
                     uint64_t seed)
{
  return bench_recording_new_mapped (n_samples, n_stacks, seed, NULL, NULL);
}

BenchRecording *
bench_recording_new_mapped (size_t n_samples,
                            size_t n_stacks,
                            uint64_t seed,
                            BenchModuleMapFunc map,
                            void *user_data)
{
  BenchRecording *rec = calloc (1, sizeof *rec);
  Rng rng = { seed };
  bool ok = rec != NULL && n_samples > 0 && n_stacks > 0;

  if (ok)
    copy_shapes (rec, map, user_data);
  ok = ok && setup_kernel (rec, &rng);
  for (size_t p = 0; ok && p < N_PROCESSES; p++)
    ok = setup_process (&rec->processes[p], &rec->process_shapes[p], &rng);
  ok = ok && _bench_pool_make (rec, n_stacks, &rng)
       && _bench_schedule_make (rec, n_samples, &rng);
  if (!ok)
    {
      bench_recording_free (rec);
      return NULL;
    }
  return rec;
}

void
bench_recording_free (BenchRecording *rec)
{
  if (rec == NULL)
    return;
  for (size_t p = 0; p < N_PROCESSES; p++)
    {
      free (rec->processes[p].funcs.items);
      free (rec->processes[p].zipf_cdf);
      free (rec->processes[p].by_rank);
      for (size_t i = 0; i < MAX_MODULES; i++)
        free (rec->mapped_paths[p][i]);
    }
  free (rec->kernel_funcs.items);
  free (rec->plans);
  free (rec->paths);
  free (rec->frames);
  free (rec->frame_offsets);
  free (rec->sample_ts);
  free (rec->sample_thread);
  free (rec->sample_stack);
  free (rec);
}

const BenchShape *
bench_recording_get_shape (const BenchRecording *rec)
{
  return &rec->shape;
}

/* The timed loop: one write_sample per scheduled sample, and a checksum
 * the reader side recomputes. */
static bool
write_samples (const BenchRecording *rec,
               SpSpoolWriter *writer,
               uint64_t *checksum,
               SpSpoolError *err)
{
  uint64_t h = 0;

  for (size_t i = 0; i < rec->n_samples; i++)
    {
      const Thread *thread = &rec->threads[rec->sample_thread[i]];
      uint32_t s = rec->sample_stack[i];
      uint32_t stack_id;

      if (!sp_spool_writer_write_sample (writer, rec->sample_ts[i], thread->pid, thread->tid,
                                         rec->frames + rec->frame_offsets[s],
                                         rec->frame_offsets[s + 1] - rec->frame_offsets[s],
                                         &stack_id, err))
        return false;
      h = bench_mix (bench_mix (bench_mix (h, rec->sample_ts[i]), stack_id), thread->tid);
    }
  *checksum = h;
  return true;
}

bool
bench_recording_write (const BenchRecording *rec,
                       const char *path,
                       BenchWriteResult *result,
                       SpSpoolError *err)
{
  double wall = bench_wall_now ();
  double cpu = bench_cpu_now ();
  SpModuleTable *table = sp_module_table_new ();
  SpSpoolWriter *writer = sp_spool_writer_create (path, START_US, INTERVAL_US, err);
  bool ok = writer != NULL && table != NULL && _bench_replay_setup (rec, table, writer, err);

  if (ok && sp_module_table_get_n_modules (table) != rec->shape.n_modules)
    {
      sp_spool_error_set (err, SP_SPOOL_ERROR_USAGE, 0, 0, "module ids differ from the generator's");
      ok = false;
    }
  ok = ok && write_samples (rec, writer, &result->checksum, err);
  result->bytes = writer != NULL ? sp_spool_writer_get_size (writer) : 0;
  ok = sp_spool_writer_close (writer, ok ? err : NULL) && ok;
  result->cpu = bench_cpu_now () - cpu;
  result->wall = bench_wall_now () - wall;
  sp_module_table_free (table);
  return ok;
}
