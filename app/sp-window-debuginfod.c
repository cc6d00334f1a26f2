/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-debuginfod.c: "Fetching debug info for X… (Cancel)".
 *
 * The status line's part for debuginfod: a label and a Cancel button, made
 * here and placed after the status text, shown while the queue fetches
 * debug files or the Source page's missing file is fetched (one at a time:
 * the file of the function shown). A newly opened file starts a new queue
 * (the old one's fetch is cancelled and what it says is no longer heard)
 * and forgets what the servers answered about sources. */
#include "sp-window-debuginfod.h"

#include <string.h>

#include "sp-debuginfod.h"

/* The source file being fetched for the Source page. */
typedef struct _SpWindowSourceFetch {
  SpWindow     *window;      /* a reference: the fetch ends before the window */
  char         *key;         /* of the window's source_answers */
  char         *wanted;      /* the path DWARF names */
  char         *module;
  GCancellable *cancellable;
  gboolean      superseded;  /* cancelled for another file, not by the user */
} SourceFetch;

static void
source_fetch_free (SourceFetch *fetch)
{
  g_object_unref (fetch->window);
  g_free (fetch->key);
  g_free (fetch->wanted);
  g_free (fetch->module);
  g_object_unref (fetch->cancellable);
  g_free (fetch);
}

/* The bar stays while either the queue or a source fetch runs. */
static void
hide_bar_when_idle (SpWindow *self)
{
  gboolean queue_busy = self->debuginfod_queue != NULL
                        && sp_debuginfod_queue_get_current (self->debuginfod_queue) != NULL;

  if (self->debuginfod_bar != NULL && !queue_busy && self->source_fetch == NULL)
    gtk_widget_set_visible (self->debuginfod_bar, FALSE);
}

static void
show_bar_text (SpWindow *self,
               const char *text,
               const char *tooltip)
{
  gtk_label_set_text (self->debuginfod_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->debuginfod_label), tooltip);
  gtk_widget_set_visible (self->debuginfod_bar, TRUE);
}

static void
on_progress (SpDebuginfodQueue *queue,
             const char *module,
             guint64 received,
             guint64 total,
             SpWindow *self)
{
  g_autofree char *base = g_path_get_basename (module);
  g_autofree char *done = g_format_size (received);
  g_autofree char *size = g_format_size (total);
  guint waiting = sp_debuginfod_queue_get_n_waiting (queue);
  g_autofree char *more = waiting > 0 ? g_strdup_printf (" (%u more)", waiting) : g_strdup ("");
  g_autofree char *text = total > 0 ? g_strdup_printf ("Fetching debug info for %s… %s of %s%s", base, done, size,
                                                       more)
                                    : g_strdup_printf ("Fetching debug info for %s…%s", base, more);

  show_bar_text (self, text, module);
}

static void
on_finished (SpDebuginfodQueue *queue,
             guint n_fetched,
             SpWindow *self)
{
  hide_bar_when_idle (self);
  if (n_fetched > 0)
    sp_analysis_reload_symbols (self->analysis);
}

static void
on_cancel (GtkButton *button,
           SpWindow *self)
{
  if (self->debuginfod_queue != NULL)
    sp_debuginfod_queue_cancel (self->debuginfod_queue);
  if (self->source_fetch != NULL)
    g_cancellable_cancel (self->source_fetch->cancellable);
}

/* The label and the button, after the status text. */
static void
make_bar (SpWindow *self)
{
  GtkWidget *status_bar = gtk_widget_get_parent (GTK_WIDGET (self->status_label));
  GtkWidget *cancel = gtk_button_new_with_label ("Cancel");

  self->debuginfod_bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  self->debuginfod_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_ellipsize (self->debuginfod_label, PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_set_tooltip_text (cancel, "Stop fetching from debuginfod (DEBUGINFOD_URLS)");
  gtk_widget_set_valign (cancel, GTK_ALIGN_CENTER);
  g_signal_connect (cancel, "clicked", G_CALLBACK (on_cancel), self);
  gtk_box_append (GTK_BOX (self->debuginfod_bar), GTK_WIDGET (self->debuginfod_label));
  gtk_box_append (GTK_BOX (self->debuginfod_bar), cancel);
  gtk_widget_set_visible (self->debuginfod_bar, FALSE);
  gtk_box_insert_child_after (GTK_BOX (status_bar), self->debuginfod_bar, GTK_WIDGET (self->status_label));
}

static void
ensure_bar (SpWindow *self)
{
  if (self->debuginfod_bar == NULL)
    make_bar (self);
}

static void
drop_queue (SpWindow *self)
{
  if (self->debuginfod_queue == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->debuginfod_queue, self);
  sp_debuginfod_queue_cancel (self->debuginfod_queue);
  g_clear_object (&self->debuginfod_queue);
}

/* ---- The Source page's missing file -------------------------------------- */

/* What the servers are asked for: the module's build-id and the path. */
static char *
source_key (const SpSourceAnnotation *source)
{
  if (source == NULL || source->fetch_build_id == NULL || source->wanted == NULL)
    return NULL;
  return g_strconcat (source->fetch_build_id, " ", source->wanted, NULL);
}

/* The fetch under way is no longer wanted (another file comes, the window
 * goes): cancelled, and not remembered as an answer. */
static void
drop_source_fetch (SpWindow *self)
{
  if (self->source_fetch == NULL)
    return;
  self->source_fetch->superseded = TRUE;
  g_cancellable_cancel (self->source_fetch->cancellable);
  self->source_fetch = NULL;
}

static void
on_source_progress (guint64 received,
                    guint64 total,
                    gpointer user_data)
{
  SourceFetch *fetch = user_data;
  SpWindow *self = fetch->window;
  g_autofree char *base = g_path_get_basename (fetch->wanted);
  g_autofree char *module = g_path_get_basename (fetch->module);
  g_autofree char *done = g_format_size (received);
  g_autofree char *size = g_format_size (total);
  g_autofree char *text = NULL;

  if (self->source_fetch != fetch)
    return;
  text = total > 0 ? g_strdup_printf ("Fetching source file %s of %s… %s of %s", base, module, done, size)
                   : g_strdup_printf ("Fetching source file %s of %s…", base, module);
  show_bar_text (self, text, fetch->wanted);
}

/* Arrived: the analysis annotates again and finds it in the cache. Not:
 * the answer stays, for the missing file's message, and is not asked
 * again (a server with nothing is not asked in a loop). */
static void
on_source_fetched (GObject *object,
                   GAsyncResult *result,
                   gpointer user_data)
{
  SourceFetch *fetch = user_data;
  SpWindow *self = fetch->window;
  g_autoptr (GError) error = NULL;
  g_autofree char *path = sp_debuginfod_fetch_finish (result, &error);
  SpSourceAnnotation *shown;
  g_autofree char *shown_key = NULL;
  gboolean current = self->source_fetch == fetch;

  if (current)
    self->source_fetch = NULL;
  /* Not asked then: asked again when shown again (unless that began). */
  if (fetch->superseded || self->source_answers == NULL)
    {
      if (self->source_answers != NULL
          && (self->source_fetch == NULL || strcmp (self->source_fetch->key, fetch->key) != 0))
        g_hash_table_remove (self->source_answers, fetch->key);
      source_fetch_free (fetch);
      return;
    }
  shown = sp_source_view_get_source (self->source_view);
  shown_key = source_key (shown);
  g_hash_table_replace (self->source_answers, g_strdup (fetch->key),
                        path != NULL ? g_strdup_printf ("asked debuginfod: it sent %s", path)
                                     : g_strdup_printf ("asked debuginfod: %s", error->message));
  if (current)
    hide_bar_when_idle (self);
  if (g_strcmp0 (shown_key, fetch->key) == 0)
    {
      if (path != NULL)
        sp_analysis_annotate (self->analysis, shown->function, shown->place);
      else
        sp_source_view_set_fetch_note (self->source_view, g_hash_table_lookup (self->source_answers, fetch->key),
                                       FALSE);
    }
  source_fetch_free (fetch);
}

static void
start_source_fetch (SpWindow *self,
                    const SpSourceAnnotation *source,
                    const char *key)
{
  SourceFetch *fetch = g_new0 (SourceFetch, 1);

  drop_source_fetch (self);
  ensure_bar (self);
  fetch->window = g_object_ref (self);
  fetch->key = g_strdup (key);
  fetch->wanted = g_strdup (source->wanted);
  fetch->module = g_strdup (source->fetch_module);
  fetch->cancellable = g_cancellable_new ();
  self->source_fetch = fetch;
  /* "" while asking: asked once. */
  g_hash_table_replace (self->source_answers, g_strdup (key), g_strdup (""));
  on_source_progress (0, 0, fetch);
  sp_debuginfod_fetch_async (SP_DEBUGINFOD_SOURCE, source->fetch_build_id, source->wanted, fetch->cancellable,
                             on_source_progress, fetch, on_source_fetched, fetch);
}

void
_sp_window_debuginfod_fetch_source (SpWindow *self,
                                    const SpSourceAnnotation *source)
{
  g_autofree char *key = source_key (source);
  const char *answer;
  g_autofree char *asking = NULL;

  if (key == NULL || !sp_debuginfod_is_enabled ())
    {
      sp_source_view_set_fetch_note (self->source_view, NULL, FALSE);
      return;
    }
  if (self->source_answers == NULL)
    self->source_answers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!g_hash_table_contains (self->source_answers, key))
    start_source_fetch (self, source, key);
  answer = g_hash_table_lookup (self->source_answers, key);
  if (answer[0] != '\0')
    {
      sp_source_view_set_fetch_note (self->source_view, answer, FALSE);
      return;
    }
  asking = g_strdup_printf ("asking debuginfod (%s)…", g_getenv ("DEBUGINFOD_URLS"));
  sp_source_view_set_fetch_note (self->source_view, asking, TRUE);
}

void
_sp_window_debuginfod_take (SpWindow *self,
                            const SpAnalysisResult *result)
{
  if (!sp_debuginfod_is_enabled ())
    return;
  ensure_bar (self);
  if (result->opened || self->debuginfod_queue == NULL)
    {
      drop_queue (self);
      drop_source_fetch (self);
      if (self->source_answers != NULL)
        g_hash_table_remove_all (self->source_answers);
      gtk_widget_set_visible (self->debuginfod_bar, FALSE);
      self->debuginfod_queue = sp_debuginfod_queue_new ();
      g_signal_connect (self->debuginfod_queue, "progress", G_CALLBACK (on_progress), self);
      g_signal_connect (self->debuginfod_queue, "finished", G_CALLBACK (on_finished), self);
    }
  sp_debuginfod_queue_add (self->debuginfod_queue, result->missing_debug_info);
}

void
_sp_window_debuginfod_dispose (SpWindow *self)
{
  drop_queue (self);
  drop_source_fetch (self);
  g_clear_pointer (&self->source_answers, g_hash_table_unref);
}
