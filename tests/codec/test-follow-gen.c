/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-follow-gen.c: the spool generator of the follow-mode tests.
 *
 * Everything goes through sp_module_table and sp_spool_writer, as in the
 * recorder, so the spools have the shapes the viewer will follow. */
#include "test-follow-gen.h"

#include <string.h>

#include "sp-module-table.h"

#define KERNEL_START  G_GUINT64_CONSTANT (0xffffffff81000000)
#define KERNEL_SIZE   G_GUINT64_CONSTANT (0x1000000)
#define KMOD_START    G_GUINT64_CONSTANT (0xffffffffc0000000)
#define EXE_START     G_GUINT64_CONSTANT (0x400000)
#define LIB_START     G_GUINT64_CONSTANT (0x7f3a00000000)
#define PLUGIN_START  G_GUINT64_CONSTANT (0x7f3b00000000)
#define JIT_START     G_GUINT64_CONSTANT (0x10000000)   /* never a module */
#define MAX_PROCESSES 12

struct _Gen
{
  SpSpoolWriter *writer;
  SpModuleTable *modules;
  GRand         *rand;
  GArray        *pids;          /* int32_t: live processes, pid 0 first */
  int32_t        next_pid;
  guint          n_kernel_modules;
  guint          n_plugins;
  guint64        ts;
  guint          n_steps;
  guint          n_samples;
  guint          n_execs;
};

static void
gen_module (Gen *gen,
            int32_t pid,
            guint64 start,
            guint64 size,
            guint64 file_offset,
            const char *path,
            gboolean is_kernel)
{
  SpModule module = { start, start + size, file_offset, g_str_hash (path), path, strlen (path),
                      pid, is_kernel };
  SpSpoolError err;
  uint32_t id;

  if (!sp_module_table_intern (gen->modules, gen->writer, &module, &id, &err))
    g_error ("cannot write a module: %s", err.message);
}

/* An executable, libraries side by side, one overlapping another. */
static void
gen_map_process (Gen *gen,
                 int32_t pid,
                 gboolean python)
{
  gen_module (gen, pid, EXE_START, 0x100000, 0,
              python ? "/usr/bin/python3.11" : "/usr/bin/app", FALSE);
  gen_module (gen, pid, LIB_START, 0x200000, 0x1000, "/lib/x86_64-linux-gnu/libc.so.6", FALSE);
  gen_module (gen, pid, LIB_START + 0x200000, 0x40000, 0, "/opt/odd path/ld\tlinux\\x.so", FALSE);
  gen_module (gen, pid, LIB_START + 0x180000, 0x100000, 0x2000, "/tmp/ünïcode\n.so", FALSE);
}

Gen *
gen_new (const char *path,
         guint32 seed)
{
  Gen *gen = g_new0 (Gen, 1);
  SpSpoolError err;
  int32_t pid;

  gen->writer = sp_spool_writer_create (path, G_GUINT64_CONSTANT (1700000000000000) + seed, 997, &err);
  if (gen->writer == NULL)
    g_error ("cannot create %s: %s", path, err.message);
  gen->modules = sp_module_table_new ();
  gen->rand = g_rand_new_with_seed (seed);
  gen->pids = g_array_new (FALSE, FALSE, sizeof (int32_t));
  gen->next_pid = 100;
  gen->ts = 1000000;

  gen_module (gen, -1, KERNEL_START, KERNEL_SIZE, 0, "[kernel.kallsyms]", TRUE);
  pid = 0;
  g_array_append_val (gen->pids, pid);
  for (guint i = 0; i < 3; i++)
    {
      pid = gen->next_pid++;
      gen_map_process (gen, pid, FALSE);
      g_array_append_val (gen->pids, pid);
    }
  return gen;
}

static int32_t
gen_pick_pid (Gen *gen,
              gboolean with_idle)
{
  guint first = with_idle ? 0 : 1;

  return g_array_index (gen->pids, int32_t, g_rand_int_range (gen->rand, first, gen->pids->len));
}

/* Some frames are stored without a module and left to the reader's lookup
 * (decided by address, so that the same frame stays the same frame). */
static SpFrame
gen_frame (Gen *gen,
           int32_t pid,
           guint64 ip,
           SpFrameMode mode)
{
  SpFrame raw = { ip, ip, SP_SPOOL_NO_ID, mode };

  if ((ip >> 4) % 5 == 0)
    return raw;
  return sp_module_table_resolve_frame (gen->modules, pid, ip, mode);
}

/* Level `level` from the root of call path `path`: samples of one path
 * share their stack but for the last few frames. Every fourth level is JIT
 * code outside any module. */
static guint64
gen_user_ip (Gen *gen,
             guint path,
             guint level,
             guint depth)
{
  guint64 variant = level + 2 < depth ? (path * 7 + level) % 3 : (guint64) g_rand_int_range (gen->rand, 0, 3);
  guint64 spot = (level * G_GUINT64_CONSTANT (0x340) + variant * 0x10) % 0xf0000;

  switch (level % 4)
    {
    case 0: return EXE_START + spot;
    case 1: return LIB_START + spot * 2;
    case 2: return LIB_START + 0x1f0000 + spot;
    default: return JIT_START + spot;
    }
}

static guint64
gen_kernel_ip (Gen *gen,
               guint level)
{
  guint64 spot = level * G_GUINT64_CONSTANT (0x1000) + (guint64) g_rand_int_range (gen->rand, 0, 2) * 0x20;

  /* Loadable kernel modules are sparse: some of these miss every one. */
  if (level == 3)
    return KMOD_START + (guint64) g_rand_int_range (gen->rand, 0, 8) * 0x10000 + 0x100;
  return KERNEL_START + spot;
}

static guint
gen_depth (Gen *gen)
{
  guint r = (guint) g_rand_int_range (gen->rand, 0, 100);

  if (r < 70)
    return (guint) g_rand_int_range (gen->rand, 1, 13);
  if (r < 95)
    return (guint) g_rand_int_range (gen->rand, 13, 61);
  return (guint) g_rand_int_range (gen->rand, 100, 201);
}

static guint64
gen_timestamp (Gen *gen)
{
  guint r = (guint) g_rand_int_range (gen->rand, 0, 100);

  if (r < 3)
    gen->ts -= MIN (gen->ts, (guint64) g_rand_int_range (gen->rand, 0, 1000000));
  else if (r > 5)
    gen->ts += (guint64) g_rand_int_range (gen->rand, 0, 2000000);
  return gen->ts;
}

/* Leaf first: kernel frames, user frames, maybe a truncation marker. */
static void
gen_sample_for (Gen *gen,
                int32_t pid,
                guint64 tid)
{
  guint n_user = pid == 0 ? 0 : gen_depth (gen);
  guint n_kernel = pid == 0 || g_rand_int_range (gen->rand, 0, 10) < 4
                   ? (guint) g_rand_int_range (gen->rand, 1, 5) : 0;
  gboolean truncated = g_rand_int_range (gen->rand, 0, 10) == 0;
  guint path = (guint) g_rand_int_range (gen->rand, 0, 6);
  g_autofree SpFrame *frames = g_new (SpFrame, n_user + n_kernel + 1);
  guint n = 0;
  SpSpoolError err;

  if (g_rand_int_range (gen->rand, 0, 100) == 0)
    {
      /* A stack of nothing but the marker. */
      n_user = n_kernel = 0;
      truncated = TRUE;
    }
  for (guint i = 0; i < n_kernel; i++)
    frames[n++] = gen_frame (gen, pid, gen_kernel_ip (gen, n_kernel - 1 - i), SP_FRAME_KERNEL);
  for (guint i = 0; i < n_user; i++)
    frames[n++] = gen_frame (gen, pid, gen_user_ip (gen, path, n_user - 1 - i, n_user), SP_FRAME_USER);
  if (truncated)
    frames[n++] = sp_frame_truncated_marker ();

  if (!sp_spool_writer_write_sample (gen->writer, gen_timestamp (gen), pid, tid, frames, n, NULL, &err))
    g_error ("cannot write a sample: %s", err.message);
  gen->n_samples++;
}

void
gen_sample (Gen *gen)
{
  int32_t pid = gen_pick_pid (gen, TRUE);
  guint64 tid = (guint64) pid * 16 + (guint64) g_rand_int_range (gen->rand, 0, 4);

  if (g_rand_int_range (gen->rand, 0, 50) == 0)
    tid |= G_GUINT64_CONSTANT (1) << 33;
  gen_sample_for (gen, pid, tid);
}

static void
gen_exec (Gen *gen)
{
  int32_t pid = gen_pick_pid (gen, FALSE);
  gboolean python = g_rand_boolean (gen->rand);
  SpSpoolError err;

  if (!sp_module_table_deactivate_process (gen->modules, gen->writer, pid, &err)
      || !sp_spool_writer_write_process_exec (gen->writer, gen_timestamp (gen), pid, python, &err))
    g_error ("cannot write an exec: %s", err.message);
  gen->n_execs++;
  gen_map_process (gen, pid, python);
}

static void
gen_fork (Gen *gen)
{
  int32_t parent = gen_pick_pid (gen, FALSE);
  int32_t child;
  SpSpoolError err;

  if (gen->pids->len >= MAX_PROCESSES)
    return;
  child = gen->next_pid++;
  if (!sp_module_table_clone_process (gen->modules, gen->writer, parent, child, &err))
    g_error ("cannot write a fork: %s", err.message);
  g_array_append_val (gen->pids, child);
}

static void
gen_dlopen (Gen *gen)
{
  g_autofree char *path = g_strdup_printf ("/usr/lib/plugins/plugin-%u.so", gen->n_plugins);
  guint64 start = PLUGIN_START + (guint64) (gen->n_plugins % 16) * 0x8000;

  gen->n_plugins++;
  gen_module (gen, gen_pick_pid (gen, FALSE), start, 0xc000, 0x1000, path, FALSE);
}

static void
gen_kernel_module (Gen *gen)
{
  g_autofree char *path = g_strdup_printf ("[mod%u]", gen->n_kernel_modules);
  guint64 start = KMOD_START + (guint64) (gen->n_kernel_modules % 8) * 0x10000;

  gen->n_kernel_modules++;
  gen_module (gen, -1, start, 0x4000, 0, path, TRUE);
}

/* Module events come on a schedule, so that even a short spool has each
 * kind, and now and then at random. */
void
gen_step (Gen *gen)
{
  static void (*const scheduled[]) (Gen *) = {
    gen_fork, gen_exec, gen_dlopen, gen_kernel_module, gen_exec, gen_fork,
  };
  guint r = (guint) g_rand_int_range (gen->rand, 0, 1000);

  gen->n_steps++;
  if (gen->n_steps % 40 == 0)
    scheduled[gen->n_steps / 40 % G_N_ELEMENTS (scheduled)] (gen);
  else if (r < 2)
    gen_exec (gen);
  else if (r < 4)
    gen_fork (gen);
  else if (r < 5)
    gen_dlopen (gen);
  else
    gen_sample (gen);
}

void
gen_long_path_module (Gen *gen)
{
  gsize len = 100 * 1024;
  g_autofree char *path = g_malloc (len + 1);

  memset (path, 'p', len);
  path[0] = '/';
  path[len] = '\0';
  gen_module (gen, gen_pick_pid (gen, FALSE), PLUGIN_START + 0x100000, 0x1000, 0, path, FALSE);
}

void
gen_thread_flood (Gen *gen,
                  guint n)
{
  int32_t pid = gen->next_pid++;
  SpSpoolError err;

  for (guint i = 0; i < n; i++)
    {
      SpFrame frame = gen_frame (gen, pid, JIT_START + i % 4 * 16, SP_FRAME_USER);

      if (!sp_spool_writer_write_sample (gen->writer, gen_timestamp (gen), pid, i, &frame, 1, NULL, &err))
        g_error ("cannot write a sample: %s", err.message);
      gen->n_samples++;
    }
}

SpSpoolWriter *
gen_get_writer (Gen *gen)
{
  return gen->writer;
}

guint gen_get_n_samples (const Gen *gen) { return gen->n_samples; }
guint gen_get_n_execs (const Gen *gen) { return gen->n_execs; }
guint gen_get_n_modules (const Gen *gen) { return (guint) sp_module_table_get_n_modules (gen->modules); }

void
gen_close (Gen *gen)
{
  SpSpoolError err;

  if (!sp_spool_writer_close (gen->writer, &err))
    g_error ("cannot close the spool: %s", err.message);
  sp_module_table_free (gen->modules);
  g_rand_free (gen->rand);
  g_array_unref (gen->pids);
  g_free (gen);
}

void
gen_write_spool (const char *path,
                 guint32 seed,
                 guint n_steps)
{
  Gen *gen = gen_new (path, seed);

  for (guint i = 0; i < n_steps; i++)
    gen_step (gen);
  gen_close (gen);
}
