/* SPDX-License-Identifier: GPL-3.0-or-later */
/* roundtrip-ops.c: drawing operation sequences (see roundtrip-ops.h).
 *
 * Addresses come from a few small regions so that areas overlap and
 * frames land inside, at the edges of and outside modules; the generator
 * keeps every module it offered and the last stacks it made, and draws
 * from them for duplicates, adjacent areas and shared prefixes. It only
 * needs the model to know which timestamps the writer accepts. */
#include "roundtrip-ops.h"

#include <string.h>

#include "roundtrip-model.h"

#define MAX_STACKS 64     /* earlier stacks kept for shared prefixes */

/* ---- Operations ------------------------------------------------------ */

static void
op_clear (gpointer data)
{
  Op *op = data;

  g_clear_pointer (&op->frames, g_array_unref);
}

char *
roundtrip_op_describe (const Op *op)
{
  const SpModule *m = &op->module;
  GString *s = g_string_new (NULL);

  switch (op->kind)
    {
    case OP_MODULE:
      g_string_append_printf (s, "intern pid=%d [0x%" G_GINT64_MODIFIER "x, 0x%" G_GINT64_MODIFIER "x) "
                              "off=0x%" G_GINT64_MODIFIER "x inode=%" G_GUINT64_FORMAT " kernel=%d path_len=%zu",
                              m->pid, m->start, m->end, m->file_offset, m->inode, m->is_kernel, m->path_len);
      break;
    case OP_DEACTIVATE:
      g_string_append_printf (s, "deactivate pid=%d", op->pid);
      break;
    case OP_CLONE:
      g_string_append_printf (s, "clone %d -> %d", op->pid, op->child_pid);
      break;
    case OP_EXEC:
      g_string_append_printf (s, "exec ts=%" G_GUINT64_FORMAT " pid=%d python=%d",
                              op->timestamp_ns, op->pid, op->is_python);
      break;
    case OP_SAMPLE:
      g_string_append_printf (s, "sample ts=%" G_GUINT64_FORMAT " pid=%d tid=%" G_GUINT64_FORMAT " frames:",
                              op->timestamp_ns, op->pid, op->tid);
      for (guint i = 0; i < op->frames->len; i++)
        {
          const OpFrame *f = &g_array_index (op->frames, OpFrame, i);

          g_string_append_printf (s, " %c:0x%" G_GINT64_MODIFIER "x",
                                  "ukt"[f->mode], f->addr);
        }
      break;
    }
  return g_string_free (s, FALSE);
}

/* ---- Generating ------------------------------------------------------ */

/* Paths: plain, empty, display names, multi-byte UTF-8, an embedded NUL,
 * and (rarely) the caller's long path, longer than the writer's buffer. */
#define P(s) { s, sizeof (s) - 1 }
static const struct {
  const char *bytes;
  gsize       len;
} paths[] = {
  P ("/usr/lib/x86_64-linux-gnu/libc.so.6"),
  P ("/usr/bin/python3.11"),
  P ("/opt/app/bin/app"),
  P (""),
  P ("[vdso]"),
  P ("/tmp/\xc3\xbcn\xc3\xaf/c\xc3\xb8" "d\xc3\xa9.so"),
  P ("/tmp/\xf0\x9f\xa6\x80.so"),
  P ("lib\0weird.so"),
  { NULL, 0 },
};
#undef P

const gint32 roundtrip_pids[ROUNDTRIP_N_PIDS] = { 7, 8, 9, 1000, -1, -42, G_MAXINT32, G_MININT32 };

#define USER_BASE   G_GUINT64_CONSTANT (0x400000)
#define HIGH_BASE   G_GUINT64_CONSTANT (0x7f0000000000)
#define KERNEL_BASE G_GUINT64_CONSTANT (0xffffffff81000000)

typedef struct {
  GRand      *rand;
  GArray     *ops;        /* Op */
  GArray     *proposed;   /* SpModule: every module an op offered */
  GPtrArray  *stacks;     /* GArray of OpFrame: earlier stacks */
  guint64     last_ts;    /* the writer's last sample timestamp */
  const char *long_path;
} Gen;

static gboolean
chance (Gen *gen,
        guint percent)
{
  return (guint) g_rand_int_range (gen->rand, 0, 100) < percent;
}

static guint64
rand_below (Gen *gen,
            guint64 n)
{
  return n <= G_MAXINT32 ? (guint64) g_rand_int_range (gen->rand, 0, (gint32) n)
                         : ((guint64) g_rand_int (gen->rand) << 32 | g_rand_int (gen->rand)) % n;
}

static guint64
rand_u64 (Gen *gen)
{
  return (guint64) g_rand_int (gen->rand) << 32 | g_rand_int (gen->rand);
}

static gint32
gen_pid (Gen *gen)
{
  guint r = (guint) g_rand_int_range (gen->rand, 0, 100);

  if (r < 60)
    return roundtrip_pids[r / 20];           /* 7, 8, 9 */
  if (r < 90)
    return roundtrip_pids[3 + (r - 60) / 10]; /* 1000, -1, -42 */
  return roundtrip_pids[6 + (r - 90) / 5];   /* the i32 extremes */
}

static void
gen_path (Gen *gen,
          SpModule *m)
{
  guint n = G_N_ELEMENTS (paths) - 1;
  guint i = (guint) g_rand_int_range (gen->rand, 0, 200) == 0 ? n : (guint) g_rand_int_range (gen->rand, 0, n);

  if (i == n)
    {
      m->path = gen->long_path;
      m->path_len = strlen (gen->long_path);
      return;
    }
  m->path = paths[i].bytes;
  m->path_len = paths[i].len;
}

static guint64
gen_length (Gen *gen)
{
  switch (g_rand_int_range (gen->rand, 0, 6))
    {
    case 0: return 1;
    case 1: return 0x10;
    case 2: return 0x12345;
    default: return 0x1000 * (guint64) g_rand_int_range (gen->rand, 1, 17);
    }
}

static void
gen_module_fields (Gen *gen,
                   SpModule *m)
{
  static const guint64 inodes[] = { 0, 1, 2, G_GUINT64_CONSTANT (1) << 40, G_MAXUINT64 };
  guint64 len = gen_length (gen);

  m->end = m->start > G_MAXUINT64 - len ? G_MAXUINT64 : m->start + len;
  m->inode = inodes[g_rand_int_range (gen->rand, 0, G_N_ELEMENTS (inodes))];
  switch (g_rand_int_range (gen->rand, 0, 4))
    {
    case 0: m->file_offset = 0x1000 * rand_below (gen, 64); break;
    case 1: m->file_offset = G_GUINT64_CONSTANT (1) << 44; break;
    default: m->file_offset = 0; break;
    }
  gen_path (gen, m);
}

/* User code: a low region where areas collide, adjacent to an earlier
 * area, far apart, or at the ends of the address space. */
static SpModule
gen_user_module (Gen *gen,
                 gint32 pid)
{
  SpModule m = { 0 };
  guint r = (guint) g_rand_int_range (gen->rand, 0, 10);

  m.pid = pid;
  if (r < 2 && gen->proposed->len > 0)
    m.start = g_array_index (gen->proposed, SpModule, rand_below (gen, gen->proposed->len)).end;
  else if (r < 4)
    m.start = HIGH_BASE + 0x100000 * rand_below (gen, 16);
  else if (r == 4)
    m.start = chance (gen, 50) ? 0 : G_MAXUINT64 - 0x2000;
  else
    m.start = USER_BASE + 0x1000 * rand_below (gen, 48) + (chance (gen, 20) ? 0x10 : 0);
  gen_module_fields (gen, &m);
  return m;
}

/* Kernel code, shared by all processes; the recorder uses pid -1. */
static SpModule
gen_kernel_module (Gen *gen)
{
  SpModule m = { 0 };

  m.pid = chance (gen, 85) ? -1 : gen_pid (gen);
  m.is_kernel = TRUE;
  m.start = KERNEL_BASE + 0x1000 * rand_below (gen, 32);
  gen_module_fields (gen, &m);
  m.end = m.start + 0x1000 * (guint64) g_rand_int_range (gen->rand, 1, 9);
  if (chance (gen, 50))
    {
      m.path = "[kernel]";
      m.path_len = 8;
    }
  return m;
}

/* A module offered again: as is (must be reused while active), with the
 * kernel flag flipped (the seed's duplicate test ignores it), or with
 * another inode (a distinct module). */
static SpModule
gen_duplicate_module (Gen *gen)
{
  SpModule m;

  if (gen->proposed->len == 0)
    return gen_user_module (gen, gen_pid (gen));
  m = g_array_index (gen->proposed, SpModule, rand_below (gen, gen->proposed->len));
  if (chance (gen, 10))
    m.is_kernel = !m.is_kernel;
  else if (chance (gen, 10))
    m.inode++;
  return m;
}

/* end <= start: the table must ignore it. */
static SpModule
gen_empty_module (Gen *gen)
{
  SpModule m = gen_user_module (gen, gen_pid (gen));

  if (chance (gen, 30))
    {
      m.start = G_MAXUINT64;
      m.end = 0;
    }
  else
    m.end = m.start - MIN (m.start, rand_below (gen, 0x1000));
  return m;
}

static Op *
gen_push (Gen *gen,
          OpKind kind)
{
  Op op = { 0 };

  op.kind = kind;
  g_array_append_val (gen->ops, op);
  return &g_array_index (gen->ops, Op, gen->ops->len - 1);
}

static void
gen_module_op (Gen *gen,
               SpModule m)
{
  Op *op = gen_push (gen, OP_MODULE);

  op->module = m;
  if (m.end > m.start)
    g_array_append_val (gen->proposed, m);
}

/* An address inside a module some op offered (of this pid or another),
 * at its edges, or anywhere. */
static guint64
gen_user_addr (Gen *gen,
               gint32 pid)
{
  guint r = (guint) g_rand_int_range (gen->rand, 0, 100);

  for (guint tries = 0; r < 75 && gen->proposed->len > 0 && tries < 8; tries++)
    {
      const SpModule *m = &g_array_index (gen->proposed, SpModule, rand_below (gen, gen->proposed->len));

      if (m->is_kernel || (m->pid != pid && r < 60))
        continue;
      if (r >= 65)
        {
          guint64 edges[] = { m->start, m->end - 1, m->end, m->start - 1 };

          return edges[g_rand_int_range (gen->rand, 0, 4)];
        }
      return m->start + rand_below (gen, m->end - m->start);
    }
  if (r < 90)
    return USER_BASE + rand_below (gen, 0x40000);
  return chance (gen, 50) ? HIGH_BASE + rand_below (gen, 0x1000000) : rand_u64 (gen);
}

static guint64
gen_kernel_addr (Gen *gen)
{
  if (chance (gen, 70))
    return KERNEL_BASE + rand_below (gen, 0x28000);
  return chance (gen, 50) ? USER_BASE + rand_below (gen, 0x40000) : rand_u64 (gen);
}

static guint
gen_depth (Gen *gen)
{
  guint r = (guint) g_rand_int_range (gen->rand, 0, 100);

  if (r < 70)
    return (guint) g_rand_int_range (gen->rand, 1, 7);
  if (r < 92)
    return (guint) g_rand_int_range (gen->rand, 7, 41);
  return (guint) g_rand_int_range (gen->rand, 100, 401);
}

/* Leaf frames: maybe a few kernel frames at the leaf, then user frames. */
static void
gen_leaf_frames (Gen *gen,
                 GArray *frames,
                 gint32 pid,
                 guint n)
{
  guint n_kernel = chance (gen, 30) ? MIN (n, (guint) g_rand_int_range (gen->rand, 1, 4)) : 0;

  for (guint i = 0; i < n; i++)
    {
      OpFrame f = { 0, i < n_kernel ? SP_FRAME_KERNEL : SP_FRAME_USER };

      f.addr = f.mode == SP_FRAME_KERNEL ? gen_kernel_addr (gen) : gen_user_addr (gen, pid);
      g_array_append_val (frames, f);
    }
}

/* A stack, leaf first: fresh, or new leaves on the root part of an earlier
 * stack (a shared prefix), maybe ending in the truncated marker, or the
 * marker alone. */
static GArray *
gen_stack (Gen *gen,
           gint32 pid)
{
  GArray *frames = g_array_new (FALSE, FALSE, sizeof (OpFrame));
  OpFrame marker = { 0, SP_FRAME_TRUNCATED };

  if (chance (gen, 2))
    {
      g_array_append_val (frames, marker);
      return frames;
    }
  if (gen->stacks->len > 0 && chance (gen, 40))
    {
      GArray *earlier = g_ptr_array_index (gen->stacks, rand_below (gen, gen->stacks->len));
      guint keep = 1 + (guint) rand_below (gen, earlier->len);

      gen_leaf_frames (gen, frames, pid, (guint) g_rand_int_range (gen->rand, 0, 6));
      g_array_append_vals (frames, &g_array_index (earlier, OpFrame, earlier->len - keep), keep);
      return frames;
    }
  gen_leaf_frames (gen, frames, pid, gen_depth (gen));
  if (chance (gen, 15))
    g_array_append_val (frames, marker);
  return frames;
}

static void
gen_remember_stack (Gen *gen,
                    GArray *frames)
{
  GArray *copy = g_array_copy (frames);

  if (gen->stacks->len < MAX_STACKS)
    g_ptr_array_add (gen->stacks, copy);
  else
    {
      guint i = (guint) rand_below (gen, MAX_STACKS);

      g_array_unref (g_ptr_array_index (gen->stacks, i));
      g_ptr_array_index (gen->stacks, i) = copy;
    }
}

/* Forward, repeated, backwards (samples from several CPUs), big jumps,
 * the exact i64 bounds, and deltas the writer must refuse. */
static guint64
gen_timestamp (Gen *gen)
{
  guint64 last = gen->last_ts;
  guint64 step;
  guint r = (guint) g_rand_int_range (gen->rand, 0, 100);

  if (r < 55)
    step = rand_below (gen, 100000);
  else if (r < 70)
    return last;
  else if (r < 85)
    return last - MIN (last, 1 + rand_below (gen, 50000));
  else if (r < 90)
    step = (1 + rand_below (gen, 1000)) << 40;
  else if (r < 94)
    {
      if (last <= G_MAXUINT64 - G_MAXINT64)
        return last + G_MAXINT64;
      return last - MIN (last, (guint64) G_MAXINT64 + 1);
    }
  else if (r < 97 && last < (guint64) G_MAXINT64)
    return last + (guint64) G_MAXINT64 + 1 + rand_below (gen, 1000);
  else
    return rand_u64 (gen);
  return last > G_MAXUINT64 - step ? last - MIN (last, step) : last + step;
}

static guint64
gen_tid (Gen *gen,
         gint32 pid)
{
  switch (g_rand_int_range (gen->rand, 0, 10))
    {
    case 0: return (G_GUINT64_CONSTANT (1) << 32) + rand_below (gen, 4);
    case 1: return G_MAXUINT64 - rand_below (gen, 2);
    case 2: return (guint64) (gint64) pid;
    default: return rand_below (gen, 200);
    }
}

static void
gen_sample (Gen *gen,
            gboolean empty)
{
  Op *op = gen_push (gen, OP_SAMPLE);
  g_autofree char *error = NULL;

  op->pid = gen_pid (gen);
  op->tid = gen_tid (gen, op->pid);
  op->timestamp_ns = gen_timestamp (gen);
  op->frames = empty ? g_array_new (FALSE, FALSE, sizeof (OpFrame)) : gen_stack (gen, op->pid);
  if (empty)
    return;
  gen_remember_stack (gen, op->frames);
  error = model_delta_error (gen->last_ts, op->timestamp_ns);
  if (error == NULL)
    gen->last_ts = op->timestamp_ns;
}

/* exec as the recorder reports it: the marker, the old mappings gone, the
 * new ones defined. */
static void
gen_exec_burst (Gen *gen)
{
  gint32 pid = gen_pid (gen);
  Op *op = gen_push (gen, OP_EXEC);
  guint n = (guint) g_rand_int_range (gen->rand, 1, 4);

  op->pid = pid;
  op->timestamp_ns = gen->last_ts;
  op->is_python = chance (gen, 30);
  gen_push (gen, OP_DEACTIVATE)->pid = pid;
  for (guint i = 0; i < n; i++)
    gen_module_op (gen, gen_user_module (gen, pid));
}

static void
gen_one (Gen *gen)
{
  guint r = (guint) g_rand_int_range (gen->rand, 0, 100);
  Op *op;

  if (r < 10)
    gen_module_op (gen, gen_user_module (gen, gen_pid (gen)));
  else if (r < 13)
    gen_module_op (gen, gen_kernel_module (gen));
  else if (r < 18)
    gen_module_op (gen, gen_duplicate_module (gen));
  else if (r < 20)
    gen_module_op (gen, gen_empty_module (gen));
  else if (r < 23)
    gen_push (gen, OP_DEACTIVATE)->pid = gen_pid (gen);
  else if (r < 26)
    {
      op = gen_push (gen, OP_CLONE);
      op->pid = gen_pid (gen);
      op->child_pid = gen_pid (gen);
    }
  else if (r < 28)
    gen_exec_burst (gen);
  else if (r < 29)
    {
      op = gen_push (gen, OP_EXEC);
      op->pid = gen_pid (gen);
      op->timestamp_ns = rand_u64 (gen);
      op->is_python = chance (gen, 50);
    }
  else
    gen_sample (gen, r < 30);
}

/* The operations of one seed: a few mappings first, so early samples
 * resolve, then a random mix. */
GArray *
roundtrip_generate_ops (guint seed,
                        guint n_ops,
                        const char *long_path)
{
  Gen gen = { 0 };

  gen.long_path = long_path;
  gen.rand = g_rand_new_with_seed (seed);
  gen.ops = g_array_new (FALSE, TRUE, sizeof (Op));
  g_array_set_clear_func (gen.ops, op_clear);
  gen.proposed = g_array_new (FALSE, FALSE, sizeof (SpModule));
  gen.stacks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint i = 0; i < 4; i++)
    gen_module_op (&gen, gen_user_module (&gen, roundtrip_pids[i % 3]));
  gen_module_op (&gen, gen_kernel_module (&gen));
  while (gen.ops->len < n_ops)
    gen_one (&gen);

  g_rand_free (gen.rand);
  g_array_unref (gen.proposed);
  g_ptr_array_unref (gen.stacks);
  return gen.ops;
}

