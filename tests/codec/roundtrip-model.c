/* SPDX-License-Identifier: GPL-3.0-or-later */
/* roundtrip-model.c: the seed's semantics as test-roundtrip.c expects them.
 *
 * Each function names the seed function it restates. Linear scans over
 * every module ever defined keep it close to the prose of
 * SPOOL-FORMAT.md; the codec's indexes are what is being tested. */
#include "roundtrip-model.h"

#include <string.h>

static void
model_put_byte (Model *model,
                guint8 b)
{
  g_byte_array_append (model->bytes, &b, 1);
}

/* LEB128: seven bits at a time, least significant first. */
static void
model_put_uvar (Model *model,
                guint64 v)
{
  while (v >= 0x80)
    {
      model_put_byte (model, (guint8) (0x80 | (v & 0x7F)));
      v >>= 7;
    }
  model_put_byte (model, (guint8) v);
}

/* Zigzag: 0, -1, 1, -2, … map to 0, 1, 2, 3, … */
static void
model_put_svar (Model *model,
                gint64 v)
{
  guint64 doubled = (guint64) v << 1;

  model_put_uvar (model, v < 0 ? ~doubled : doubled);
}

void
model_init (Model *model,
            guint64 start_us,
            guint64 interval_us)
{
  model->modules = g_array_new (FALSE, TRUE, sizeof (ModelModule));
  model->frames = g_array_new (FALSE, TRUE, sizeof (ModelFrame));
  model->nodes = g_array_new (FALSE, TRUE, sizeof (SpStackNode));
  model->threads = g_array_new (FALSE, TRUE, sizeof (SpThread));
  model->samples = g_array_new (FALSE, TRUE, sizeof (ModelSample));
  model->execs = g_array_new (FALSE, TRUE, sizeof (SpProcessExec));
  model->written = g_array_new (FALSE, TRUE, sizeof (SpFrame));
  model->frame_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  model->stack_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  model->thread_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  model->epoch = 0;
  model->last_timestamp_ns = 0;
  model->bytes = g_byte_array_new ();
  g_byte_array_append (model->bytes, (const guint8 *) "SPULSE1\0", 8);
  model_put_uvar (model, start_us);
  model_put_uvar (model, interval_us);
}

void
model_clear (Model *model)
{
  g_array_unref (model->modules);
  g_array_unref (model->frames);
  g_array_unref (model->nodes);
  g_array_unref (model->threads);
  g_array_unref (model->samples);
  g_array_unref (model->execs);
  g_array_unref (model->written);
  g_hash_table_unref (model->frame_ids);
  g_hash_table_unref (model->stack_ids);
  g_hash_table_unref (model->thread_ids);
  g_byte_array_unref (model->bytes);
}

/* Dense ids in first-seen order, like the seed's FxHashMap caches. */
static guint32
intern_key (GHashTable *ids,
            char *key,
            gboolean *added)
{
  gpointer value = g_hash_table_lookup (ids, key);
  guint32 id;

  *added = value == NULL;
  if (value != NULL)
    {
      g_free (key);
      return GPOINTER_TO_UINT (value) - 1;
    }
  id = g_hash_table_size (ids);
  g_hash_table_insert (ids, key, GUINT_TO_POINTER (id + 1));
  return id;
}

static gboolean
same_module (const SpModule *a,
             const SpModule *b)
{
  /* The seed compares everything but is_kernel. */
  return a->pid == b->pid && a->start == b->start && a->end == b->end
         && a->file_offset == b->file_offset && a->inode == b->inode
         && a->path_len == b->path_len && memcmp (a->path, b->path, a->path_len) == 0;
}

static void
model_write_module (Model *model,
                    guint32 id,
                    const SpModule *m)
{
  model_put_byte (model, SP_SPOOL_REC_MODULE);
  model_put_uvar (model, id);
  model_put_svar (model, m->pid);
  model_put_uvar (model, m->start);
  model_put_uvar (model, m->end);
  model_put_uvar (model, m->file_offset);
  model_put_uvar (model, m->inode);
  model_put_byte (model, m->is_kernel ? 1 : 0);
  model_put_uvar (model, m->path_len);
  g_byte_array_append (model->bytes, (const guint8 *) m->path, (guint) m->path_len);
  model->epoch++;
}

/* ModuleTable::intern_module. */
guint32
model_intern_module (Model *model,
                     const SpModule *module,
                     guint op)
{
  ModelModule entry = { *module, TRUE, MODEL_NEVER, op };

  if (module->end <= module->start)
    return SP_SPOOL_NO_ID;
  for (guint i = 0; i < model->modules->len; i++)
    {
      const ModelModule *m = &g_array_index (model->modules, ModelModule, i);

      if (m->active && same_module (&m->module, module))
        return i;
    }
  model_write_module (model, model->modules->len, module);
  g_array_append_val (model->modules, entry);
  return model->modules->len - 1;
}

/* ModuleTable::deactivate_process_modules, and what the reader makes of
 * the record: a module keeps its first deactivation point. */
void
model_deactivate (Model *model,
                  gint32 pid)
{
  gboolean changed = FALSE;

  for (guint i = 0; i < model->modules->len; i++)
    {
      ModelModule *m = &g_array_index (model->modules, ModelModule, i);

      if (m->module.pid == pid && !m->module.is_kernel)
        {
          changed |= m->active;
          m->active = FALSE;
        }
    }
  if (!changed)
    return;
  model_put_byte (model, SP_SPOOL_REC_MODULE_DEACTIVATE);
  model_put_svar (model, pid);
  model->epoch++;
  for (guint i = 0; i < model->modules->len; i++)
    {
      ModelModule *m = &g_array_index (model->modules, ModelModule, i);

      if (m->module.pid == pid && !m->module.is_kernel && m->deactivated_at == MODEL_NEVER)
        m->deactivated_at = model->frames->len;
    }
}

/* ModuleTable::clone_process_modules: a snapshot, then interned. */
void
model_clone (Model *model,
             gint32 parent,
             gint32 child,
             guint op)
{
  g_autoptr (GArray) inherited = g_array_new (FALSE, FALSE, sizeof (SpModule));

  for (guint i = 0; i < model->modules->len; i++)
    {
      const ModelModule *m = &g_array_index (model->modules, ModelModule, i);

      if (m->active && m->module.pid == parent && !m->module.is_kernel)
        {
          SpModule copy = m->module;

          copy.pid = child;
          g_array_append_val (inherited, copy);
        }
    }
  for (guint i = 0; i < inherited->len; i++)
    model_intern_module (model, &g_array_index (inherited, SpModule, i), op);
}

static gboolean
module_owns (const SpModule *m,
             gint32 pid,
             guint64 addr,
             SpFrameMode mode)
{
  gboolean owner = mode == SP_FRAME_KERNEL ? m->is_kernel : (!m->is_kernel && m->pid == pid);

  return owner && m->start <= addr && addr < m->end;
}

/* ModuleTable::resolve_frame: the newest active module containing addr. */
SpFrame
model_resolve (const Model *model,
               gint32 pid,
               guint64 addr,
               SpFrameMode mode)
{
  SpFrame frame = { addr, addr, SP_SPOOL_NO_ID, mode };

  for (guint i = model->modules->len; i-- > 0 && mode != SP_FRAME_TRUNCATED;)
    {
      const ModelModule *m = &g_array_index (model->modules, ModelModule, i);

      if (m->active && module_owns (&m->module, pid, addr, mode))
        {
          frame.module_id = i;
          frame.rel_ip = addr - m->module.start + m->module.file_offset;
          break;
        }
    }
  return frame;
}

/* How the reader sees a written frame: the marker carries no address, a
 * module frame gets its mode from the module. */
SpFrame
model_frame_as_read (const Model *model,
                     const SpFrame *frame)
{
  SpFrame read = *frame;

  if (frame->mode == SP_FRAME_TRUNCATED)
    return sp_frame_truncated_marker ();
  if (frame->module_id != SP_SPOOL_NO_ID)
    {
      const SpModule *m = &g_array_index (model->modules, ModelModule, frame->module_id).module;

      read.abs_ip = m->start + (frame->rel_ip - m->file_offset);
      read.mode = m->is_kernel ? SP_FRAME_KERNEL : SP_FRAME_USER;
    }
  return read;
}

/* PerfSpoolWriter::intern_frame: keyed by the whole frame and the epoch. */
static guint32
model_intern_frame (Model *model,
                    const SpFrame *frame,
                    guint op)
{
  char *key = g_strdup_printf ("%d/%u/%" G_GINT64_MODIFIER "x/%" G_GINT64_MODIFIER "x/%" G_GUINT64_FORMAT,
                               frame->mode, frame->module_id, frame->rel_ip, frame->abs_ip, model->epoch);
  gboolean added;
  guint32 id = intern_key (model->frame_ids, key, &added);
  ModelFrame record;

  if (!added)
    return id;
  record.frame = model_frame_as_read (model, frame);
  record.module_limit = model->modules->len;
  record.op = op;
  model_put_byte (model, SP_SPOOL_REC_FRAME);
  model_put_uvar (model, id);
  if (frame->mode == SP_FRAME_TRUNCATED)
    {
      model_put_uvar (model, 5);
      model_put_uvar (model, 0);
    }
  else if (frame->module_id != SP_SPOOL_NO_ID)
    {
      model_put_uvar (model, (guint64) frame->module_id * 2);
      model_put_uvar (model, frame->rel_ip);
    }
  else
    {
      model_put_uvar (model, frame->mode == SP_FRAME_KERNEL ? 3 : 1);
      model_put_uvar (model, frame->abs_ip);
    }
  g_array_append_val (model->frames, record);
  return id;
}

/* PerfSpoolWriter::intern_stack: from the root, one node per new prefix. */
static guint32
model_intern_stack (Model *model,
                    const SpFrame *frames,
                    gsize n_frames,
                    guint op)
{
  guint32 prefix = SP_SPOOL_NO_ID;

  for (gsize i = n_frames; i-- > 0;)
    {
      guint32 frame_id = model_intern_frame (model, &frames[i], op);
      char *key = g_strdup_printf ("%u/%u", prefix, frame_id);
      gboolean added;
      guint32 id = intern_key (model->stack_ids, key, &added);

      if (added)
        {
          SpStackNode node = { prefix, frame_id, 1 };

          if (prefix != SP_SPOOL_NO_ID)
            node.depth = g_array_index (model->nodes, SpStackNode, prefix).depth + 1;
          g_array_append_val (model->nodes, node);
          model_put_byte (model, SP_SPOOL_REC_STACK);
          model_put_uvar (model, id);
          model_put_uvar (model, prefix);
          model_put_uvar (model, frame_id);
        }
      prefix = id;
    }
  return prefix;
}

static guint32
model_intern_thread (Model *model,
                     gint32 pid,
                     guint64 tid)
{
  char *key = g_strdup_printf ("%d/%" G_GUINT64_FORMAT, pid, tid);
  gboolean added;
  guint32 id = intern_key (model->thread_ids, key, &added);
  SpThread thread = { pid, tid };

  if (!added)
    return id;
  g_array_append_val (model->threads, thread);
  model_put_byte (model, SP_SPOOL_REC_THREAD);
  model_put_uvar (model, id);
  model_put_svar (model, pid);
  model_put_uvar (model, tid);
  return id;
}

/* checked_sample_timestamp_delta: the i128 difference must fit an i64.
 * Returns NULL when it does, else the seed's message. */
char *
model_delta_error (guint64 last,
                   guint64 timestamp)
{
  if (timestamp >= last && timestamp - last <= (guint64) G_MAXINT64)
    return NULL;
  if (timestamp < last && last - timestamp <= (guint64) G_MAXINT64 + 1)
    return NULL;
  if (timestamp >= last)
    return g_strdup_printf ("sample timestamp delta %" G_GUINT64_FORMAT " out of range", timestamp - last);
  return g_strdup_printf ("sample timestamp delta -%" G_GUINT64_FORMAT " out of range", last - timestamp);
}

/* PerfSpoolWriter::write_sample_frames: the delta is checked first,
 * then the stack and the thread are interned, then the sample written. */
guint32
model_write_sample (Model *model,
                    guint64 timestamp_ns,
                    gint32 pid,
                    guint64 tid,
                    const SpFrame *frames,
                    gsize n_frames,
                    guint op,
                    char **error)
{
  ModelSample sample = { timestamp_ns, 0, 0, pid, tid, model->written->len, (guint) n_frames, op };
  gint64 delta;

  *error = NULL;
  if (n_frames == 0)
    return SP_SPOOL_NO_ID;
  *error = model_delta_error (model->last_timestamp_ns, timestamp_ns);
  if (*error != NULL)
    return SP_SPOOL_NO_ID;
  delta = (gint64) (timestamp_ns - model->last_timestamp_ns);   /* two's complement */

  sample.stack = model_intern_stack (model, frames, n_frames, op);
  sample.thread = model_intern_thread (model, pid, tid);
  model->last_timestamp_ns = timestamp_ns;
  model_put_byte (model, SP_SPOOL_REC_SAMPLE);
  model_put_svar (model, delta);
  model_put_uvar (model, sample.thread);
  model_put_uvar (model, sample.stack);
  g_array_append_vals (model->written, frames, (guint) n_frames);
  g_array_append_val (model->samples, sample);
  return sample.stack;
}

void
model_write_exec (Model *model,
                  guint64 timestamp_ns,
                  gint32 pid,
                  gboolean is_python)
{
  SpProcessExec exec = { timestamp_ns, pid, is_python };

  g_array_append_val (model->execs, exec);
  model_put_byte (model, SP_SPOOL_REC_PROCESS_EXEC);
  model_put_uvar (model, timestamp_ns);
  model_put_svar (model, pid);
  model_put_byte (model, is_python ? 1 : 0);
}

/* PerfSpoolReader::module_for_frame: the frame's own module, or the newest
 * module of the frame's context that owns its address. */
gboolean
model_reader_resolve (const Model *model,
                      gint32 pid,
                      guint32 frame_id,
                      guint32 *module_id,
                      guint64 *rel_ip)
{
  const ModelFrame *f = &g_array_index (model->frames, ModelFrame, frame_id);

  if (f->frame.module_id != SP_SPOOL_NO_ID)
    {
      *module_id = f->frame.module_id;
      *rel_ip = f->frame.rel_ip;
      return TRUE;
    }
  if (f->frame.mode == SP_FRAME_TRUNCATED)
    return FALSE;
  for (gsize i = f->module_limit; i-- > 0;)
    {
      const ModelModule *m = &g_array_index (model->modules, ModelModule, i);

      if (frame_id < m->deactivated_at && module_owns (&m->module, pid, f->frame.abs_ip, f->frame.mode))
        {
          *module_id = (guint32) i;
          *rel_ip = f->frame.abs_ip - m->module.start + m->module.file_offset;
          return TRUE;
        }
    }
  return FALSE;
}

