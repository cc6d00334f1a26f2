/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-roundtrip.c: writer → file → reader, checked against a model.
 *
 * The recorder drives SpModuleTable and SpSpoolWriter; the viewer only
 * sees what SpSpoolReader derives from the file. Seeded random operation
 * sequences (roundtrip-ops.c) go through the codec and through a model of
 * the seed's semantics (roundtrip-model.c), which predicts every id the
 * codec hands out, every frame the table resolves, every byte written and
 * everything the reader derives, so a divergence is caught at the step
 * that causes it. The same operations must write the same bytes twice.
 *
 * Also here: small spools encoded by hand from SPOOL-FORMAT.md (what the
 * seed writer writes for them), and enough threads to make the reader
 * widen its sample columns. The seed's own unit tests are ported in
 * test-seed-cases.c. */
#include <glib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include "roundtrip-model.h"
#include "roundtrip-ops.h"
#include "sp-module-table.h"
#include "sp-spool-reader.h"
#include "sp-spool-writer.h"

#define N_SEEDS 200
#define N_OPS   300

static char *tmp_dir;
static char *long_path;     /* a module path longer than the writer's buffer */

/* ---- Failure context ------------------------------------------------- */

/* What is being compared, printed only when a comparison fails. */
static struct {
  guint        seed;
  GArray      *ops;
  const char  *what;
  gint64       index;
  gint64       sub;
  gint64       op;
} where;

static void
print_where (const char *check)
{
  g_printerr ("\nMISMATCH: %s\n", check);
  g_printerr ("  seed %u, %s %" G_GINT64_FORMAT " (item %" G_GINT64_FORMAT "), op %" G_GINT64_FORMAT "\n",
              where.seed, where.what ? where.what : "-", where.index, where.sub, where.op);
  if (where.ops == NULL)
    return;
  g_printerr ("  operation sequence up to the failing one:\n");
  for (gint64 i = 0; i < (gint64) where.ops->len && i <= where.op; i++)
    {
      g_autofree char *text = roundtrip_op_describe (&g_array_index (where.ops, Op, i));

      g_printerr ("  %4" G_GINT64_FORMAT ": %s\n", i, text);
    }
}

static void
set_where (const char *what,
           gint64 index,
           gint64 sub,
           gint64 op)
{
  where.what = what;
  where.index = index;
  where.sub = sub;
  where.op = op;
}

#define expect_cmpuint(a, cmp, b) G_STMT_START {                            \
    if (!((guint64) (a) cmp (guint64) (b)))                                \
      print_where (#a " " #cmp " " #b);                                    \
    g_assert_cmpuint ((a), cmp, (b));                                      \
  } G_STMT_END

#define expect_cmpint(a, cmp, b) G_STMT_START {                             \
    if (!((gint64) (a) cmp (gint64) (b)))                                  \
      print_where (#a " " #cmp " " #b);                                    \
    g_assert_cmpint ((a), cmp, (b));                                       \
  } G_STMT_END

/* ---- Running operations through the codec and the model ----------------- */

typedef struct {
  SpModuleTable *table;
  SpSpoolWriter *writer;
  Model         *model;   /* NULL: codec only (the determinism rerun) */
  guint          op;
} Run;

static void
expect_frame (const SpFrame *got,
              const SpFrame *want)
{
  expect_cmpint (got->mode, ==, want->mode);
  expect_cmpuint (got->module_id, ==, want->module_id);
  expect_cmpuint (got->rel_ip, ==, want->rel_ip);
  expect_cmpuint (got->abs_ip, ==, want->abs_ip);
}

static void
expect_module (const SpModule *got,
               const SpModule *want)
{
  expect_cmpint (got->pid, ==, want->pid);
  expect_cmpuint (got->start, ==, want->start);
  expect_cmpuint (got->end, ==, want->end);
  expect_cmpuint (got->file_offset, ==, want->file_offset);
  expect_cmpuint (got->inode, ==, want->inode);
  expect_cmpint (got->is_kernel, ==, want->is_kernel);
  expect_cmpuint (got->path_len, ==, want->path_len);
  if (memcmp (got->path, want->path, want->path_len) != 0)
    print_where ("path bytes");
  g_assert_cmpmem (got->path, got->path_len, want->path, want->path_len);
}

/* The table's active flags against the model's, after exec and fork. */
static void
expect_table (const Run *run)
{
  if (run->model == NULL)
    return;
  expect_cmpuint (sp_module_table_get_n_modules (run->table), ==, run->model->modules->len);
  for (guint i = 0; i < run->model->modules->len; i++)
    {
      const ModelModule *m = &g_array_index (run->model->modules, ModelModule, i);

      set_where ("table module", i, 0, run->op);
      expect_cmpint (sp_module_table_is_active (run->table, i), ==, m->active);
    }
}

static void
run_module (Run *run,
            const Op *op)
{
  SpSpoolError err;
  guint32 id = 0;

  g_assert_true (sp_module_table_intern (run->table, run->writer, &op->module, &id, &err));
  if (run->model == NULL)
    return;
  set_where ("intern", run->op, 0, run->op);
  expect_cmpuint (id, ==, model_intern_module (run->model, &op->module, run->op));
  expect_cmpuint (sp_module_table_get_n_modules (run->table), ==, run->model->modules->len);
  if (id != SP_SPOOL_NO_ID)
    {
      expect_module (sp_module_table_get_module (run->table, id),
                     &g_array_index (run->model->modules, ModelModule, id).module);
      expect_cmpint (sp_module_table_is_active (run->table, id), ==, TRUE);
    }
}

/* Resolves the op's frames through the table (and the model, which must
 * agree), leaf first. */
static GArray *
resolve_frames (Run *run,
                const Op *op)
{
  GArray *frames = g_array_sized_new (FALSE, FALSE, sizeof (SpFrame), op->frames->len);

  for (guint i = 0; i < op->frames->len; i++)
    {
      const OpFrame *f = &g_array_index (op->frames, OpFrame, i);
      SpFrame frame = f->mode == SP_FRAME_TRUNCATED
        ? sp_frame_truncated_marker ()
        : sp_module_table_resolve_frame (run->table, op->pid, f->addr, f->mode);

      if (run->model != NULL && f->mode != SP_FRAME_TRUNCATED)
        {
          SpFrame want = model_resolve (run->model, op->pid, f->addr, f->mode);

          set_where ("resolve", run->op, i, run->op);
          expect_frame (&frame, &want);
        }
      g_array_append_val (frames, frame);
    }
  return frames;
}

static void
run_sample (Run *run,
            const Op *op)
{
  g_autoptr (GArray) frames = resolve_frames (run, op);
  g_autofree char *want_error = NULL;
  SpSpoolError err;
  guint32 stack_id = 0;
  gboolean ok;
  guint32 want_stack;

  ok = sp_spool_writer_write_sample (run->writer, op->timestamp_ns, op->pid, op->tid,
                                     (const SpFrame *) frames->data, frames->len, &stack_id, &err);
  if (run->model == NULL)
    return;
  set_where ("write sample", run->op, 0, run->op);
  want_stack = model_write_sample (run->model, op->timestamp_ns, op->pid, op->tid,
                                   (const SpFrame *) frames->data, frames->len, run->op, &want_error);
  expect_cmpint (ok, ==, want_error == NULL);
  expect_cmpuint (stack_id, ==, want_stack);
  if (want_error != NULL)
    {
      expect_cmpint (err.code, ==, SP_SPOOL_ERROR_USAGE);
      g_assert_cmpstr (err.message, ==, want_error);
    }
}

static void
run_op (Run *run,
        const Op *op)
{
  SpSpoolError err;

  switch (op->kind)
    {
    case OP_MODULE:
      run_module (run, op);
      break;
    case OP_DEACTIVATE:
      g_assert_true (sp_module_table_deactivate_process (run->table, run->writer, op->pid, &err));
      if (run->model != NULL)
        model_deactivate (run->model, op->pid);
      expect_table (run);
      break;
    case OP_CLONE:
      g_assert_true (sp_module_table_clone_process (run->table, run->writer, op->pid, op->child_pid, &err));
      if (run->model != NULL)
        model_clone (run->model, op->pid, op->child_pid, run->op);
      expect_table (run);
      break;
    case OP_EXEC:
      g_assert_true (sp_spool_writer_write_process_exec (run->writer, op->timestamp_ns, op->pid,
                                                         op->is_python, &err));
      if (run->model != NULL)
        model_write_exec (run->model, op->timestamp_ns, op->pid, op->is_python);
      break;
    case OP_SAMPLE:
      run_sample (run, op);
      break;
    }
}

static guint64
seed_start_us (guint seed)
{
  return seed % 3 == 0 ? G_MAXUINT64 - seed : G_GUINT64_CONSTANT (1700000000000000) + seed;
}

/* Writes path from ops; with a model, checks every step against it. */
static void
run_ops (const char *path,
         GArray *ops,
         guint seed,
         Model *model)
{
  SpSpoolError err;
  Run run = { sp_module_table_new (), NULL, model, 0 };

  run.writer = sp_spool_writer_create (path, seed_start_us (seed), seed % 5 * 1000, &err);
  g_assert_nonnull (run.writer);
  for (run.op = 0; run.op < ops->len; run.op++)
    run_op (&run, &g_array_index (ops, Op, run.op));
  g_assert_true (sp_spool_writer_close (run.writer, &err));
  sp_module_table_free (run.table);
}

/* ---- Checking what the reader derives ------------------------------- */

static void
check_tables (const SpSpoolReader *reader,
              const Model *model)
{
  const SpModule *modules = sp_spool_reader_get_modules (reader);
  const SpFrame *frames = sp_spool_reader_get_frames (reader);
  const SpStackNode *nodes = sp_spool_reader_get_stack_nodes (reader);
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  const SpProcessExec *execs = sp_spool_reader_get_process_execs (reader);

  set_where ("counts", 0, 0, -1);
  expect_cmpuint (sp_spool_reader_get_n_modules (reader), ==, model->modules->len);
  expect_cmpuint (sp_spool_reader_get_n_frames (reader), ==, model->frames->len);
  expect_cmpuint (sp_spool_reader_get_n_stack_nodes (reader), ==, model->nodes->len);
  expect_cmpuint (sp_spool_reader_get_n_threads (reader), ==, model->threads->len);
  expect_cmpuint (sp_spool_reader_get_n_samples (reader), ==, model->samples->len);
  expect_cmpuint (sp_spool_reader_get_n_process_execs (reader), ==, model->execs->len);

  for (guint i = 0; i < model->modules->len; i++)
    {
      const ModelModule *m = &g_array_index (model->modules, ModelModule, i);

      set_where ("module", i, 0, m->op);
      expect_module (&modules[i], &m->module);
    }
  for (guint i = 0; i < model->frames->len; i++)
    {
      const ModelFrame *want = &g_array_index (model->frames, ModelFrame, i);

      set_where ("frame", i, 0, want->op);
      expect_frame (&frames[i], &want->frame);
    }
  for (guint i = 0; i < model->nodes->len; i++)
    {
      const SpStackNode *want = &g_array_index (model->nodes, SpStackNode, i);

      set_where ("stack node", i, 0, -1);
      expect_cmpuint (nodes[i].prefix, ==, want->prefix);
      expect_cmpuint (nodes[i].frame_id, ==, want->frame_id);
      expect_cmpuint (nodes[i].depth, ==, want->depth);
    }
  for (guint i = 0; i < model->threads->len; i++)
    {
      const SpThread *want = &g_array_index (model->threads, SpThread, i);

      set_where ("thread", i, 0, -1);
      expect_cmpint (threads[i].pid, ==, want->pid);
      expect_cmpuint (threads[i].tid, ==, want->tid);
    }
  for (guint i = 0; i < model->execs->len; i++)
    {
      const SpProcessExec *want = &g_array_index (model->execs, SpProcessExec, i);

      set_where ("exec", i, 0, -1);
      expect_cmpuint (execs[i].timestamp_ns, ==, want->timestamp_ns);
      expect_cmpint (execs[i].pid, ==, want->pid);
      expect_cmpint (execs[i].is_python_runtime, ==, want->is_python_runtime);
    }
}

/* The module a sample's frame resolves to: what the model's reader says,
 * and what the table said when the sample was written. */
static void
check_frame_module (const SpSpoolReader *reader,
                    const Model *model,
                    gint32 pid,
                    guint32 frame_id,
                    const SpFrame *written)
{
  guint32 got_module = SP_SPOOL_NO_ID, want_module = SP_SPOOL_NO_ID;
  guint64 got_rel = 0, want_rel = 0;
  gboolean got = sp_spool_reader_resolve_frame_module (reader, pid, frame_id, &got_module, &got_rel);
  gboolean want = model_reader_resolve (model, pid, frame_id, &want_module, &want_rel);

  expect_cmpint (got, ==, want);
  if (want)
    {
      expect_cmpuint (got_module, ==, want_module);
      expect_cmpuint (got_rel, ==, want_rel);
    }
  if (written == NULL)
    return;
  expect_cmpint (got, ==, written->module_id != SP_SPOOL_NO_ID);
  if (got)
    {
      expect_cmpuint (got_module, ==, written->module_id);
      expect_cmpuint (got_rel, ==, written->rel_ip);
    }
}

/* Leaf first, the frames the sample was written with, each resolving to
 * the module the table gave it. */
static void
check_sample_stack (const SpSpoolReader *reader,
                    const Model *model,
                    guint index,
                    const ModelSample *s)
{
  const SpFrame *frames = sp_spool_reader_get_frames (reader);
  const SpStackNode *nodes = sp_spool_reader_get_stack_nodes (reader);
  SpStackIter iter;
  guint32 frame_id;
  guint depth = 0;

  expect_cmpuint (nodes[s->stack].depth, ==, s->n_frames);
  sp_stack_iter_init (&iter, reader, s->stack);
  while (sp_stack_iter_next (&iter, &frame_id))
    {
      const SpFrame *written = &g_array_index (model->written, SpFrame, s->first + MIN (depth, s->n_frames - 1));
      SpFrame want = model_frame_as_read (model, written);

      set_where ("sample frame", index, depth, s->op);
      expect_cmpuint (depth, <, s->n_frames);
      expect_frame (&frames[frame_id], &want);
      check_frame_module (reader, model, s->pid, frame_id, written);
      depth++;
    }
  set_where ("sample", index, 0, s->op);
  expect_cmpuint (depth, ==, s->n_frames);
}

static void
check_samples (const SpSpoolReader *reader,
               const Model *model)
{
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  guint64 start_us = sp_spool_reader_get_start_timestamp_us (reader);
  guint64 first_ns = 0;

  for (guint i = 0; i < model->samples->len; i++)
    {
      const ModelSample *s = &g_array_index (model->samples, ModelSample, i);
      guint64 since_us;
      SpSample got;

      if (i == 0)
        first_ns = s->timestamp_ns;
      since_us = s->timestamp_ns > first_ns ? (s->timestamp_ns - first_ns) / 1000 : 0;
      set_where ("sample", i, 0, s->op);
      sp_spool_reader_get_sample (reader, i, &got);
      expect_cmpuint (got.timestamp_ns, ==, s->timestamp_ns);
      expect_cmpuint (got.thread, ==, s->thread);
      expect_cmpuint (got.stack, ==, s->stack);
      expect_cmpint (threads[got.thread].pid, ==, s->pid);
      expect_cmpuint (threads[got.thread].tid, ==, s->tid);
      expect_cmpuint (sp_spool_reader_get_sample_time_us (reader, i), ==,
                      start_us > G_MAXUINT64 - since_us ? G_MAXUINT64 : start_us + since_us);
      check_sample_stack (reader, model, i, s);
    }
}

/* Every frame as a sample of some other process would see it: exercises
 * the deactivation points and module limits beyond the writer's own
 * pairing of frames and pids. */
static void
check_cross_process (const SpSpoolReader *reader,
                     const Model *model,
                     guint seed)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (seed ^ 0x5eed);

  for (guint i = 0; i < model->frames->len; i++)
    {
      gint32 pid = roundtrip_pids[g_rand_int_range (rand, 0, ROUNDTRIP_N_PIDS)];

      set_where ("cross-process frame", i, pid, -1);
      check_frame_module (reader, model, pid, i, NULL);
    }
}

static void
expect_same_bytes (const char *what,
                   const guint8 *got,
                   gsize got_len,
                   const guint8 *want,
                   gsize want_len)
{
  gsize i = 0;

  while (i < got_len && i < want_len && got[i] == want[i])
    i++;
  if (i == got_len && i == want_len)
    return;
  set_where (what, (gint64) i, 0, -1);
  g_printerr ("\n%s: first difference at byte %zu of %zu (want %zu):", what, i, got_len, want_len);
  for (gsize j = i - MIN (i, 8); j < MIN (i + 8, MAX (got_len, want_len)); j++)
    g_printerr (" %02x/%02x", j < got_len ? got[j] : 0, j < want_len ? want[j] : 0);
  g_printerr ("\n");
  expect_cmpuint (i, ==, want_len);
  expect_cmpuint (got_len, ==, want_len);
}

static GBytes *
read_bytes (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *contents = NULL;
  gsize len = 0;

  g_file_get_contents (path, &contents, &len, &error);
  g_assert_no_error (error);
  return g_bytes_new_take (contents, len);
}

static void
test_random (gconstpointer data)
{
  guint seed = GPOINTER_TO_UINT (data);
  g_autoptr (GArray) ops = roundtrip_generate_ops (seed, N_OPS, long_path);
  g_autofree char *path = g_strdup_printf ("%s/seed-%u.spool", tmp_dir, seed);
  g_autofree char *again_path = g_strdup_printf ("%s/seed-%u-again.spool", tmp_dir, seed);
  g_autoptr (GBytes) bytes = NULL;
  g_autoptr (GBytes) again = NULL;
  SpSpoolReader *reader;
  SpSpoolError err;
  Model model;

  where.seed = seed;
  where.ops = ops;
  model_init (&model, seed_start_us (seed), seed % 5 * 1000);
  run_ops (path, ops, seed, &model);

  reader = sp_spool_reader_open (path, &err);
  if (reader == NULL)
    g_error ("seed %u: the reader rejected the spool: %s (at byte %" G_GUINT64_FORMAT ")",
             seed, err.message, err.offset);
  expect_cmpuint (sp_spool_reader_get_start_timestamp_us (reader), ==, seed_start_us (seed));
  expect_cmpuint (sp_spool_reader_get_sample_interval_us (reader), ==, seed % 5 * 1000);
  check_tables (reader, &model);
  check_samples (reader, &model);
  check_cross_process (reader, &model, seed);
  sp_spool_reader_free (reader);

  bytes = read_bytes (path);
  expect_same_bytes ("bytes against the model",
                     g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                     model.bytes->data, model.bytes->len);

  /* The same operations write the same bytes. */
  run_ops (again_path, ops, seed, NULL);
  again = read_bytes (again_path);
  g_assert_true (g_bytes_equal (bytes, again));

  model_clear (&model);
  where.ops = NULL;
  g_unlink (path);
  g_unlink (again_path);
}

/* ---- Spools written out by hand --------------------------------------- */

static char *
temp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static SpModule
user_module (gint32 pid,
             guint64 start,
             guint64 end,
             const char *path,
             guint64 inode)
{
  SpModule m = { start, end, 0, inode, path, strlen (path), pid, FALSE };

  return m;
}

static SpFrame
user_frame (guint64 abs_ip)
{
  SpFrame frame = { abs_ip, abs_ip, SP_SPOOL_NO_ID, SP_FRAME_USER };

  return frame;
}

static void
expect_file (const char *path,
             const guint8 *want,
             gsize want_len)
{
  g_autoptr (GBytes) bytes = read_bytes (path);

  expect_same_bytes (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), want, want_len);
}

/* Header, one module through the table, one sample in it. */
static void
test_bytes_module_and_sample (void)
{
  static const guint8 want[] = {
    'S', 'P', 'U', 'L', 'S', 'E', '1', 0,
    0x7B,                     /* start_timestamp_us 123 */
    0x0A,                     /* sample_interval_us 10 */
    /* MODULE id 0, pid 7 (zigzag 14), [0x1000, 0x2000), offset 0, inode 1,
     * user, path "/a" */
    1, 0x00, 0x0E, 0x80, 0x20, 0x80, 0x40, 0x00, 0x01, 0x00, 0x02, '/', 'a',
    /* FRAME id 0, kind 0 (module 0 << 1), rel_ip 0x500 */
    2, 0x00, 0x00, 0x80, 0x0A,
    /* STACK id 0, prefix 0xFFFFFFFF (root), frame 0 */
    3, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00,
    /* THREAD id 0, pid 7, tid 11 */
    4, 0x00, 0x0E, 0x0B,
    /* SAMPLE delta 1000 (zigzag 2000 = 0x7D0), thread 0, stack 0 */
    5, 0xD0, 0x0F, 0x00, 0x00,
  };
  g_autofree char *path = temp_path ("bytes-1.spool");
  SpModule m = user_module (7, 0x1000, 0x2000, "/a", 1);
  SpSpoolWriter *writer;
  SpModuleTable *table = sp_module_table_new ();
  SpSpoolError err;
  SpFrame frame;
  guint32 id;

  writer = sp_spool_writer_create (path, 123, 10, &err);
  g_assert_true (sp_module_table_intern (table, writer, &m, &id, &err));
  g_assert_cmpuint (id, ==, 0);
  frame = sp_module_table_resolve_frame (table, 7, 0x1500, SP_FRAME_USER);
  g_assert_cmpuint (frame.module_id, ==, 0);
  g_assert_cmpuint (frame.rel_ip, ==, 0x500);
  g_assert_true (sp_spool_writer_write_sample (writer, 1000, 7, 11, &frame, 1, NULL, &err));
  g_assert_true (sp_spool_writer_close (writer, &err));
  sp_module_table_free (table);
  expect_file (path, want, sizeof want);
  g_unlink (path);
}

/* A kernel module, a sample mixing a kernel frame, a user frame in no
 * module and the marker, then a marker-only sample going back in time. */
static void
test_bytes_kernel_marker_backwards (void)
{
  static const guint8 want[] = {
    'S', 'P', 'U', 'L', 'S', 'E', '1', 0,
    0x00, 0x00,               /* start 0, interval 0 */
    /* MODULE id 0, pid -1 (zigzag 1), start 0xffffffff81000000,
     * end 0xffffffff81001000, offset 0, inode 0, kernel, "[kernel]" */
    1, 0x00, 0x01,
    0x80, 0x80, 0x80, 0x88, 0xF8, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
    0x80, 0xA0, 0x80, 0x88, 0xF8, 0xFF, 0xFF, 0xFF, 0xFF, 0x01,
    0x00, 0x00, 0x01, 0x08, '[', 'k', 'e', 'r', 'n', 'e', 'l', ']',
    /* Interned from the root: the marker (kind 5, address 0) ... */
    2, 0x00, 0x05, 0x00,
    3, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00,
    /* ... the user frame in no module (kind 1, abs 0x400000) ... */
    2, 0x01, 0x01, 0x80, 0x80, 0x80, 0x02,
    3, 0x01, 0x00, 0x01,
    /* ... the kernel frame in module 0 (kind 0, rel_ip 0x10). */
    2, 0x02, 0x00, 0x10,
    3, 0x02, 0x01, 0x02,
    /* THREAD id 0, pid -2 (zigzag 3), tid 2^32 */
    4, 0x00, 0x03, 0x80, 0x80, 0x80, 0x80, 0x10,
    /* SAMPLE delta 5 (zigzag 10), thread 0, stack 2 (the leaf) */
    5, 0x0A, 0x00, 0x02,
    /* SAMPLE delta -2 (zigzag 3), thread 0, stack 0: all interned */
    5, 0x03, 0x00, 0x00,
  };
  g_autofree char *path = temp_path ("bytes-2.spool");
  SpModule kernel = { G_GUINT64_CONSTANT (0xffffffff81000000), G_GUINT64_CONSTANT (0xffffffff81001000),
                      0, 0, "[kernel]", 8, -1, TRUE };
  SpModuleTable *table = sp_module_table_new ();
  SpSpoolWriter *writer;
  SpSpoolError err;
  SpFrame frames[3];
  guint32 id, stack;

  writer = sp_spool_writer_create (path, 0, 0, &err);
  g_assert_true (sp_module_table_intern (table, writer, &kernel, &id, &err));
  frames[0] = sp_module_table_resolve_frame (table, -2, G_GUINT64_CONSTANT (0xffffffff81000010), SP_FRAME_KERNEL);
  frames[1] = sp_module_table_resolve_frame (table, -2, 0x400000, SP_FRAME_USER);
  frames[2] = sp_frame_truncated_marker ();
  g_assert_true (sp_spool_writer_write_sample (writer, 5, -2, G_GUINT64_CONSTANT (1) << 32, frames, 3, &stack, &err));
  g_assert_cmpuint (stack, ==, 2);
  g_assert_true (sp_spool_writer_write_sample (writer, 3, -2, G_GUINT64_CONSTANT (1) << 32,
                                               &frames[2], 1, &stack, &err));
  g_assert_cmpuint (stack, ==, 0);
  g_assert_true (sp_spool_writer_close (writer, &err));
  sp_module_table_free (table);
  expect_file (path, want, sizeof want);
  g_unlink (path);
}

/* exec: the marker, the deactivation, and the same address interned anew
 * because the module context changed. */
static void
test_bytes_exec_reinterns (void)
{
  static const guint8 want[] = {
    'S', 'P', 'U', 'L', 'S', 'E', '1', 0, 0x7B, 0x0A,
    1, 0x00, 0x0E, 0x80, 0x20, 0x80, 0x40, 0x00, 0x01, 0x00, 0x02, '/', 'a',
    /* FRAME id 0: kind 1 (user, no module), abs 0x3000 */
    2, 0x00, 0x01, 0x80, 0x60,
    3, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x00,
    4, 0x00, 0x0E, 0x07,      /* THREAD pid 7, tid 7 */
    5, 0xD0, 0x0F, 0x00, 0x00,
    /* PROCESS_EXEC at 2000 ns, pid 7, python */
    6, 0xD0, 0x0F, 0x0E, 0x01,
    /* MODULE_DEACTIVATE pid 7 */
    7, 0x0E,
    /* FRAME id 1: the same frame in the new context; a new root node */
    2, 0x01, 0x01, 0x80, 0x60,
    3, 0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x01,
    /* SAMPLE delta 0, thread 0, stack 1 */
    5, 0x00, 0x00, 0x01,
  };
  g_autofree char *path = temp_path ("bytes-3.spool");
  SpModule m = user_module (7, 0x1000, 0x2000, "/a", 1);
  SpModuleTable *table = sp_module_table_new ();
  SpSpoolWriter *writer;
  SpSpoolError err;
  SpFrame frame;
  guint32 id;

  writer = sp_spool_writer_create (path, 123, 10, &err);
  g_assert_true (sp_module_table_intern (table, writer, &m, &id, &err));
  frame = sp_module_table_resolve_frame (table, 7, 0x3000, SP_FRAME_USER);
  g_assert_true (sp_spool_writer_write_sample (writer, 1000, 7, 7, &frame, 1, NULL, &err));
  g_assert_true (sp_spool_writer_write_process_exec (writer, 2000, 7, TRUE, &err));
  g_assert_true (sp_module_table_deactivate_process (table, writer, 7, &err));
  /* Nothing left to deactivate: no second record. */
  g_assert_true (sp_module_table_deactivate_process (table, writer, 7, &err));
  g_assert_true (sp_spool_writer_write_sample (writer, 1000, 7, 7, &frame, 1, NULL, &err));
  g_assert_true (sp_spool_writer_close (writer, &err));
  sp_module_table_free (table);
  expect_file (path, want, sizeof want);
  g_unlink (path);
}

/* ---- Many threads ---------------------------------------------------- */

static SpSpoolReader *
open_spool (const char *path)
{
  SpSpoolError err;
  SpSpoolReader *reader = sp_spool_reader_open (path, &err);

  if (reader == NULL)
    g_error ("%s: %s", path, err.message);
  return reader;
}

/* More threads than 16 bits count: the reader widens its thread column. */
/* A write that fails part way (here the file size limit, as a full disk
 * would) leaves the file at the last whole record: a valid spool with the
 * samples the writer says are in it. */
static void
test_write_fails_at_record_boundary (void)
{
  g_autofree char *path = temp_path ("cut.spool");
  struct rlimit saved, limit;
  SpModuleTable *table = sp_module_table_new ();
  SpSpoolWriter *writer = sp_spool_writer_create (path, 0, 0, NULL);
  SpSpoolReader *reader;
  SpSpoolError err;
  gboolean ok = TRUE;
  guint64 samples, size;
  GStatBuf st;

  g_assert_nonnull (writer);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  limit = saved;
  limit.rlim_cur = 100003;  /* inside some record */
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  for (guint i = 0; ok && i < 100000; i++)
    {
      g_autofree char *module_path = g_strdup_printf ("/usr/lib/%0200u.so", i);
      SpModule m = user_module (7, 0x1000 * (i + 1), 0x1000 * (i + 2), module_path, i + 1);
      SpFrame frame;
      guint32 id;

      ok = sp_module_table_intern (table, writer, &m, &id, &err);
      frame = sp_module_table_resolve_frame (table, 7, 0x1000 * (i + 1) + 8, SP_FRAME_USER);
      ok = ok && sp_spool_writer_write_sample (writer, 1000 * i, 7, 7, &frame, 1, NULL, &err);
    }
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  g_assert_false (ok);
  samples = sp_spool_writer_get_flushed_samples (writer);
  size = sp_spool_writer_get_flushed_size (writer);
  g_assert_false (sp_spool_writer_close (writer, NULL));
  sp_module_table_free (table);

  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpuint ((guint64) st.st_size, ==, size);
  g_assert_cmpuint (size, <, 100003);
  reader = sp_spool_reader_open (path, &err);
  if (reader == NULL)
    g_error ("%s: %s at byte %" G_GUINT64_FORMAT, path, err.message, (guint64) err.offset);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (reader), ==, samples);
  g_assert_cmpuint (samples, >, 0);
  sp_spool_reader_free (reader);
  g_unlink (path);
}

static void
test_many_threads (void)
{
  const guint n = 70000;
  g_autofree char *path = temp_path ("many-threads.spool");
  SpFrame frame = user_frame (0x1234);
  SpSpoolError err;
  SpSpoolWriter *writer = sp_spool_writer_create (path, 0, 0, &err);
  SpSpoolReader *reader;
  const SpThread *threads;

  for (guint i = 0; i < n; i++)
    g_assert_true (sp_spool_writer_write_sample (writer, i, -(gint32) (i % 3), (G_GUINT64_CONSTANT (1) << 32) + i,
                                                 &frame, 1, NULL, &err));
  g_assert_true (sp_spool_writer_close (writer, &err));
  reader = open_spool (path);
  threads = sp_spool_reader_get_threads (reader);
  g_assert_cmpuint (sp_spool_reader_get_n_threads (reader), ==, n);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (reader), ==, n);
  for (guint i = 0; i < n; i++)
    {
      SpSample sample;

      sp_spool_reader_get_sample (reader, i, &sample);
      g_assert_cmpuint (sample.thread, ==, i);
      g_assert_cmpuint (sample.timestamp_ns, ==, i);
      g_assert_cmpuint (sample.stack, ==, 0);
      g_assert_cmpint (threads[i].pid, ==, -(gint32) (i % 3));
      g_assert_cmpuint (threads[i].tid, ==, (G_GUINT64_CONSTANT (1) << 32) + i);
    }
  sp_spool_reader_free (reader);
  g_unlink (path);
}

int
main (int argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *fill = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("sp-roundtrip-XXXXXX", &error);
  g_assert_no_error (error);
  fill = g_strnfill (70000, 'x');
  long_path = g_strconcat ("/very/long/", fill, NULL);

  g_test_add_func ("/codec/roundtrip/bytes/module-and-sample", test_bytes_module_and_sample);
  g_test_add_func ("/codec/roundtrip/bytes/kernel-marker-backwards", test_bytes_kernel_marker_backwards);
  g_test_add_func ("/codec/roundtrip/bytes/exec-reinterns", test_bytes_exec_reinterns);
  g_test_add_func ("/codec/roundtrip/many-threads", test_many_threads);
  g_test_add_func ("/codec/roundtrip/write-fails-at-record-boundary", test_write_fails_at_record_boundary);
  for (guint seed = 1; seed <= N_SEEDS; seed++)
    {
      g_autofree char *name = g_strdup_printf ("/codec/roundtrip/random/seed-%u", seed);

      g_test_add_data_func (name, GUINT_TO_POINTER (seed), test_random);
    }

  status = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  g_free (long_path);
  return status;
}

