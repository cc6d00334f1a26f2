/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-debuginfod-queue.c: the missing debug files, fetched one at a time.
 *
 * One at a time: a server sends one file about as fast as several, and
 * the status line can then say which one is coming. */
#include "sp-debuginfod-queue.h"

#include "sp-debuginfod.h"
#include "sp-symbolizer.h"

struct _SpDebuginfodQueue
{
  GObject       parent_instance;

  /* Owned */
  GHashTable   *asked;        /* build-ids queued once: never again */
  GQueue        waiting;      /* SpMissingDebugInfo * */
  SpMissingDebugInfo *current;
  GCancellable *cancellable;  /* the current fetch's */
  guint         n_fetched;    /* since the queue last ran dry */
};

enum { SIGNAL_PROGRESS, SIGNAL_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpDebuginfodQueue, sp_debuginfod_queue, G_TYPE_OBJECT)

static void start_next (SpDebuginfodQueue *self);

static void
missing_free (SpMissingDebugInfo *missing)
{
  if (missing == NULL)
    return;
  g_free (missing->module);
  g_free (missing->build_id);
  g_free (missing);
}

static void
on_progress (guint64 received,
             guint64 total,
             gpointer user_data)
{
  SpDebuginfodQueue *self = user_data;

  if (self->current != NULL)
    g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, self->current->module, received, total);
}

/* The queue is kept alive by the fetch (a reference in user_data), so
 * progress_data stays valid until here. */
static void
on_fetched (GObject *source,
            GAsyncResult *result,
            gpointer user_data)
{
  g_autoptr (SpDebuginfodQueue) self = user_data;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = sp_debuginfod_fetch_finish (result, &error);

  if (path != NULL)
    self->n_fetched++;
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
           && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    g_message ("%s: %s", self->current->module, error->message);
  g_clear_pointer (&self->current, missing_free);
  g_clear_object (&self->cancellable);
  start_next (self);
}

static void
start_next (SpDebuginfodQueue *self)
{
  guint n_fetched;

  if (self->current != NULL)
    return;
  self->current = g_queue_pop_head (&self->waiting);
  if (self->current == NULL)
    {
      n_fetched = self->n_fetched;
      self->n_fetched = 0;
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0, n_fetched);
      return;
    }
  self->cancellable = g_cancellable_new ();
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0, self->current->module, (guint64) 0, (guint64) 0);
  sp_debuginfod_fetch_async (SP_DEBUGINFOD_DEBUGINFO, self->current->build_id, NULL, self->cancellable, on_progress,
                             self, on_fetched, g_object_ref (self));
}

SpDebuginfodQueue *
sp_debuginfod_queue_new (void)
{
  return g_object_new (SP_TYPE_DEBUGINFOD_QUEUE, NULL);
}

void
sp_debuginfod_queue_add (SpDebuginfodQueue *self,
                         const GArray *missing)
{
  gboolean added = FALSE;

  g_return_if_fail (SP_IS_DEBUGINFOD_QUEUE (self));
  if (missing == NULL || !sp_debuginfod_is_enabled ())
    return;
  for (guint i = 0; i < missing->len; i++)
    {
      const SpMissingDebugInfo *m = &g_array_index (missing, SpMissingDebugInfo, i);
      SpMissingDebugInfo *copy;

      if (g_hash_table_contains (self->asked, m->build_id))
        continue;
      g_hash_table_add (self->asked, g_strdup (m->build_id));
      copy = g_new (SpMissingDebugInfo, 1);
      *copy = (SpMissingDebugInfo) { g_strdup (m->module), g_strdup (m->build_id) };
      g_queue_push_tail (&self->waiting, copy);
      added = TRUE;
    }
  if (added)
    start_next (self);
}

void
sp_debuginfod_queue_cancel (SpDebuginfodQueue *self)
{
  g_return_if_fail (SP_IS_DEBUGINFOD_QUEUE (self));
  g_queue_clear_full (&self->waiting, (GDestroyNotify) missing_free);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

const char *
sp_debuginfod_queue_get_current (SpDebuginfodQueue *self)
{
  return self->current != NULL ? self->current->module : NULL;
}

guint
sp_debuginfod_queue_get_n_waiting (SpDebuginfodQueue *self)
{
  return self->waiting.length;
}

static void
sp_debuginfod_queue_dispose (GObject *object)
{
  SpDebuginfodQueue *self = SP_DEBUGINFOD_QUEUE (object);

  g_queue_clear_full (&self->waiting, (GDestroyNotify) missing_free);
  G_OBJECT_CLASS (sp_debuginfod_queue_parent_class)->dispose (object);
}

static void
sp_debuginfod_queue_finalize (GObject *object)
{
  SpDebuginfodQueue *self = SP_DEBUGINFOD_QUEUE (object);

  g_hash_table_unref (self->asked);
  missing_free (self->current);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (sp_debuginfod_queue_parent_class)->finalize (object);
}

static void
sp_debuginfod_queue_class_init (SpDebuginfodQueueClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sp_debuginfod_queue_dispose;
  object_class->finalize = sp_debuginfod_queue_finalize;
  signals[SIGNAL_PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                           NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_UINT64, G_TYPE_UINT64);
  signals[SIGNAL_FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                           NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
sp_debuginfod_queue_init (SpDebuginfodQueue *self)
{
  self->asked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_queue_init (&self->waiting);
}
