/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window.c: the start page, and one recording: call tree, flame graph,
 * headline figures.
 *
 * Reading a spool, resolving its symbols and building the trees run in a
 * GTask thread (data/ does the work); the window only shows the result, so
 * it never freezes on a large file. The profile then belongs to the main
 * thread. */
#include "sp-window.h"

#include "sp-call-tree-view.h"
#include "sp-flame-graph.h"
#include "sp-profile.h"
#include "sp-record-dialog.h"
#include "sp-recording-session.h"
#include "sp-spool-summary.h"
#include "sp-stack-counts.h"
#include "sp-timeline-view.h"
#include "sp-timeline.h"

/* How often the live view takes in what the recorder wrote. */
#define LIVE_UPDATE_MS 250

struct _SpWindow
{
  GtkApplicationWindow parent_instance;

  /* Template widgets */
  GtkStack            *pages;
  GtkSpinner          *spinner;
  GtkLabel            *damage_label;
  GtkGrid             *figures;
  GtkLabel            *error_label;
  GtkStack            *views;
  GtkStackSwitcher    *view_switcher;
  GtkSearchEntry      *search_entry;
  GtkToggleButton     *icicle_button;
  GtkMenuButton       *transform_button;
  GMenuModel          *transform_menu;
  GtkBox              *breadcrumbs;
  GtkListBox          *thread_list;
  GtkLabel            *breadcrumb_label;
  GtkButton           *record_button;
  GtkButton           *stop_button;
  GtkLabel            *status_label;
  GtkScrolledWindow   *call_tree_scroller;
  GtkScrolledWindow   *flame_graph_scroller;
  GtkScrolledWindow   *bottom_up_scroller;
  GtkScrolledWindow   *timeline_scroller;

  /* Owned references */
  GFile               *file;
  GCancellable        *cancellable;
  GtkFileChooserNative *chooser;
  SpProfile           *profile;
  SpSampleIndex       *index;        /* main thread only, for the timeline */
  SpFilter            *filter;       /* the timeline's selection */
  gboolean             rebuild_pending;
  gboolean             disposed;      /* workers may finish after the window closed */
  gsize                n_listed_threads;
  guint                scroll_source;

  /* Live recording: the session, the followed profile's counts (used by
   * the update worker only), and whether an update is under way. */
  SpRecordingSession  *session;
  SpStackCounts       *live_counts;
  guint                live_source;
  gboolean             live_busy;
  gboolean             live_final;    /* the recorder ended: finish after this update */
  gpointer             waiting;       /* Loaded: a file to show once the worker is done */

  /* Borrowed references */
  SpCallTreeView      *call_tree_view;
  SpCallTreeView      *bottom_up_view;
  SpTimelineView      *timeline_view;
  SpFlameGraph        *flame_graph;
};

/* What the worker hands back. */
typedef struct {
  SpProfile      *profile;
  SpCallTree     *call_tree;     /* for the call tree view */
  SpCallTree     *flame_tree;    /* for the flame graph (each view owns its tree) */
  SpSampleIndex  *index;         /* for the timeline */
  SpSpoolSummary  summary;
} Loaded;

static void update_thread_list (SpWindow *self);
static void run_worker (SpWindow *self,
                        SpStackCounts *counts,
                        gboolean finish,
                        gboolean only_bottom_up);

G_DEFINE_FINAL_TYPE (SpWindow, sp_window, GTK_TYPE_APPLICATION_WINDOW)

static void
loaded_free (gpointer data)
{
  Loaded *loaded = data;

  sp_call_tree_free (loaded->call_tree);
  sp_call_tree_free (loaded->flame_tree);
  g_clear_pointer (&loaded->index, sp_sample_index_free);
  sp_profile_free (loaded->profile);
  sp_spool_summary_clear (&loaded->summary);
  g_free (loaded);
}

static void
load_in_thread (GTask *task,
                gpointer source_object,
                gpointer task_data,
                GCancellable *cancellable)
{
  g_autofree char *path = g_file_get_path (task_data);
  Loaded *loaded;
  GError *error = NULL;

  if (path == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "Only local files can be opened");
      return;
    }
  loaded = g_new0 (Loaded, 1);
  loaded->profile = sp_profile_open (path, &error);
  if (loaded->profile == NULL)
    {
      loaded_free (loaded);
      g_task_return_error (task, error);
      return;
    }
  sp_spool_summary_from_profile (loaded->profile, &loaded->summary);
  /* Symbols are resolved here, off the main thread, as the trees need them. */
  loaded->call_tree = sp_call_tree_new (loaded->profile, NULL, NULL, FALSE);
  loaded->flame_tree = sp_call_tree_copy (loaded->call_tree);
  /* The bottom-up tree comes after the first frame (show_profile). */
  loaded->index = sp_sample_index_new ();
  sp_sample_index_update (loaded->index, sp_profile_get_reader (loaded->profile));
  g_task_return_pointer (task, loaded, loaded_free);
}

static void
add_figure (SpWindow *self,
            int row,
            const char *name,
            const char *value)
{
  GtkWidget *name_label = gtk_label_new (name);
  GtkWidget *value_label = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (name_label), 1);
  gtk_widget_add_css_class (name_label, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (value_label), 0);
  gtk_label_set_selectable (GTK_LABEL (value_label), TRUE);
  gtk_grid_attach (self->figures, name_label, 0, row, 1, 1);
  gtk_grid_attach (self->figures, value_label, 1, row, 1, 1);
}

static void
show_summary (SpWindow *self,
              const SpSpoolSummary *s)
{
  g_autofree char *path = g_file_get_path (self->file);
  g_autofree char *size = g_format_size (s->file_size);
  g_autofree char *samples = g_strdup_printf ("%u", s->n_samples);
  g_autofree char *threads = g_strdup_printf ("%u in %u processes", s->n_threads, s->n_processes);
  g_autofree char *duration = g_strdup_printf ("%.3f s", s->duration_ns / 1e9);
  g_autofree char *interval = g_strdup_printf ("%" G_GUINT64_FORMAT " µs", s->sample_interval_us);
  g_autofree char *stacks = g_strdup_printf ("%u nodes, deepest %u frames", s->n_stack_nodes, s->max_depth);
  g_autofree char *truncated = g_strdup_printf ("%u samples (%.1f%%)", s->n_truncated_samples,
                                                s->n_samples ? 100.0 * s->n_truncated_samples / s->n_samples : 0.0);
  g_autofree char *modules = g_strdup_printf ("%u", s->n_modules);
  g_autofree char *execs = g_strdup_printf ("%u", s->n_process_execs);
  GtkWidget *child;
  int row = 0;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->figures))) != NULL)
    gtk_grid_remove (self->figures, child);

  add_figure (self, row++, "File", path);
  add_figure (self, row++, "Size", size);
  add_figure (self, row++, "Samples", samples);
  add_figure (self, row++, "Threads", threads);
  add_figure (self, row++, "Duration", duration);
  add_figure (self, row++, "Sampling interval", interval);
  add_figure (self, row++, "Stacks", stacks);
  add_figure (self, row++, "Truncated stacks", truncated);
  add_figure (self, row++, "Mapped modules", modules);
  add_figure (self, row++, "Programs executed", execs);

  gtk_widget_set_visible (GTK_WIDGET (self->damage_label), s->damage != NULL);
  if (s->damage != NULL)
    {
      g_autofree char *text = g_strdup_printf ("This recording is damaged; everything before the damage is shown.\n%s",
                                               s->damage);
      gtk_label_set_text (self->damage_label, text);
    }
}

static void
show_profile (SpWindow *self,
              Loaded *loaded)
{
  SpProfile *old = g_steal_pointer (&self->profile);

  /* The views borrow the profile: clear them before it goes. With no
   * profile in the window, the timeline dropping its selection starts no
   * rebuild (one would run on the profile freed here); the range goes
   * with it. */
  sp_call_tree_view_set_tree (self->call_tree_view, NULL, NULL);
  sp_call_tree_view_set_tree (self->bottom_up_view, NULL, NULL);
  sp_flame_graph_set_tree (self->flame_graph, NULL, NULL);
  sp_timeline_view_set_profile (self->timeline_view, NULL, NULL);
  sp_filter_set_time_range (self->filter, 0, G_MAXUINT64);
  g_clear_pointer (&self->index, sp_sample_index_free);
  g_clear_pointer (&old, sp_profile_free);
  self->profile = g_steal_pointer (&loaded->profile);
  self->index = g_steal_pointer (&loaded->index);
  sp_timeline_view_set_profile (self->timeline_view, self->profile, self->index);
  self->n_listed_threads = G_MAXSIZE;
  update_thread_list (self);
  sp_call_tree_view_set_tree (self->call_tree_view, self->profile, g_steal_pointer (&loaded->call_tree));
  sp_flame_graph_set_tree (self->flame_graph, self->profile, g_steal_pointer (&loaded->flame_tree));
  show_summary (self, &loaded->summary);
  gtk_widget_set_visible (GTK_WIDGET (self->view_switcher), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->search_entry), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->icicle_button), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->transform_button), TRUE);
  gtk_stack_set_visible_child_name (self->pages, "profile");
  /* Not needed for the first frame (it took a third of the time to it);
   * a worker already running rebuilds every tree after it. */
  if (self->live_busy)
    self->rebuild_pending = TRUE;
  else
    run_worker (self, NULL, FALSE, TRUE);
}

static void
load_done (GObject *source,
           GAsyncResult *result,
           gpointer user_data)
{
  g_autoptr (SpWindow) self = user_data;
  g_autoptr (GError) error = NULL;
  Loaded *loaded = g_task_propagate_pointer (G_TASK (result), &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || self->disposed)
    {
      g_clear_pointer (&loaded, loaded_free);
      return;
    }
  gtk_spinner_stop (self->spinner);
  if (loaded == NULL)
    {
      g_autofree char *text = g_strdup_printf ("Cannot open this recording.\n%s", error->message);

      gtk_label_set_text (self->error_label, text);
      gtk_stack_set_visible_child_name (self->pages, "error");
      return;
    }
  /* A worker still uses the profile shown now: the new one waits for it. */
  if (self->live_busy)
    {
      g_clear_pointer (&self->waiting, loaded_free);
      self->waiting = loaded;
      return;
    }
  show_profile (self, loaded);
  loaded_free (loaded);
}

/* A flame graph grows upwards from its roots: keep them in view when its
 * height changes (a new tree, a zoom, a resize), unless it is an icicle.
 * The scroll waits for an idle moment: during the allocation that changed
 * the height, the viewport would not follow. */
static gboolean
scroll_flame_graph_to_roots (gpointer data)
{
  SpWindow *self = data;
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->flame_graph_scroller);

  self->scroll_source = 0;
  if (!gtk_toggle_button_get_active (self->icicle_button))
    gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment)
                                          - gtk_adjustment_get_page_size (adjustment));
  return G_SOURCE_REMOVE;
}

static void
flame_graph_height_changed (GtkAdjustment *adjustment,
                            SpWindow *self)
{
  if (self->scroll_source == 0)
    self->scroll_source = g_idle_add (scroll_flame_graph_to_roots, self);
}

static void
icicle_toggled (GtkToggleButton *button,
                SpWindow *self)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->flame_graph_scroller);

  sp_flame_graph_set_icicle (self->flame_graph, gtk_toggle_button_get_active (button));
  gtk_adjustment_set_value (adjustment, gtk_toggle_button_get_active (button)
                                        ? 0 : gtk_adjustment_get_upper (adjustment));
}

/* Enter finds the next match in the call tree; the flame graph highlights
 * every match as you type. */
static void
search_changed (GtkSearchEntry *entry,
                SpWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  sp_flame_graph_set_search (self->flame_graph, text[0] ? text : NULL);
}

static void
search_activated (GtkSearchEntry *entry,
                  SpWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  if (text[0] != '\0')
    {
      gtk_stack_set_visible_child_name (self->views, "call-tree");
      sp_call_tree_view_search_next (self->call_tree_view, text);
    }
}

static void
find_activated (GtkWidget *widget,
                const char *action_name,
                GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);

  if (gtk_widget_get_visible (GTK_WIDGET (self->search_entry)))
    gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

void
sp_window_open_file (SpWindow *self,
                     GFile *file)
{
  g_autoptr (GTask) task = NULL;
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *title = g_strdup_printf ("%s — stackpulse", name);

  g_set_object (&self->file, file);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_spinner_start (self->spinner);
  gtk_stack_set_visible_child_name (self->pages, "loading");

  task = g_task_new (NULL, self->cancellable, load_done, g_object_ref (self));
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_in_thread);
}

static void
chooser_response (GtkNativeDialog *dialog,
                  int response,
                  gpointer user_data)
{
  SpWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      sp_window_open_file (self, file);
    }
  g_clear_object (&self->chooser);
}

static void
open_activated (GtkWidget *widget,
                const char *action_name,
                GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    return;
  gtk_file_filter_set_name (filter, "stackpulse recordings");
  gtk_file_filter_add_pattern (filter, "*.spool");
  self->chooser = gtk_file_chooser_native_new ("Open a Recording", GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
close_activated (GtkWidget *widget,
                 const char *action_name,
                 GVariant *parameter)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static gboolean
drop_file (GtkDropTarget *target,
           const GValue *value,
           double x,
           double y,
           gpointer user_data)
{
  GSList *files = g_value_get_boxed (value);

  if (files == NULL)
    return FALSE;
  sp_window_open_file (SP_WINDOW (user_data), files->data);
  return TRUE;
}

/* ---- Recording and the live view -------------------------------------- */

typedef struct {
  SpProfile     *profile;     /* borrowed from the window for the update */
  SpStackCounts *counts;      /* likewise; NULL: no parsing, only a new filter */
  SpFilter      *filter;      /* a copy of the timeline's selection */
  gboolean       finish;
  gboolean       only_bottom_up;  /* a file just shown: its bottom-up tree */
} LiveUpdate;

typedef struct {
  SpCallTree     *call_tree;
  SpCallTree     *flame_tree;
  SpCallTree     *bottom_up;
  SpSpoolSummary  summary;
  gboolean        have_summary;
} LiveTrees;

static void
live_trees_free (gpointer data)
{
  LiveTrees *trees = data;

  sp_call_tree_free (trees->call_tree);
  sp_call_tree_free (trees->flame_tree);
  sp_call_tree_free (trees->bottom_up);
  sp_spool_summary_clear (&trees->summary);
  g_free (trees);
}

/* In a worker: parse what was appended, count only the new samples, fold
 * the distinct stacks into fresh trees. */
static void
live_update_in_thread (GTask *task,
                       gpointer source_object,
                       gpointer task_data,
                       GCancellable *cancellable)
{
  LiveUpdate *update = task_data;
  LiveTrees *trees = g_new0 (LiveTrees, 1);
  gboolean whole = update->filter->from_ns == 0 && update->filter->to_ns == G_MAXUINT64;
  SpStackCounts *counts = NULL;
  g_autoptr (SpStackCounts) selected = NULL;

  if (update->only_bottom_up)
    {
      trees->bottom_up = sp_call_tree_new (update->profile, update->filter, NULL, TRUE);
      g_task_return_pointer (task, trees, live_trees_free);
      return;
    }
  if (update->counts != NULL)
    {
      sp_profile_update (update->profile);
      if (update->finish)
        sp_profile_finish (update->profile);
      sp_stack_counts_update (update->counts, update->profile, NULL);
    }
  /* The whole recording: the running counts. A time range: count it. */
  counts = whole && update->counts != NULL ? update->counts
                                           : (selected = sp_stack_counts_new (update->profile, update->filter));
  /* The counts hold the time range already; the filter adds its transforms. */
  trees->call_tree = sp_call_tree_new (update->profile, update->filter, counts, FALSE);
  trees->flame_tree = sp_call_tree_copy (trees->call_tree);
  trees->bottom_up = sp_call_tree_new (update->profile, update->filter, counts, TRUE);
  if (update->finish)
    {
      sp_spool_summary_from_profile (update->profile, &trees->summary);
      trees->have_summary = TRUE;
    }
  g_task_return_pointer (task, trees, live_trees_free);
}

static void live_schedule (SpWindow *self);
static void start_rebuild (SpWindow *self);

static void
live_update_done (GObject *source,
                  GAsyncResult *result,
                  gpointer user_data)
{
  g_autoptr (SpWindow) self = user_data;
  LiveUpdate *update = g_task_get_task_data (G_TASK (result));
  LiveTrees *trees = g_task_propagate_pointer (G_TASK (result), NULL);

  self->live_busy = FALSE;
  if (trees == NULL || self->disposed || self->waiting != NULL)
    {
      g_clear_pointer (&trees, live_trees_free);
      if (self->waiting != NULL && !self->disposed)
        {
          Loaded *loaded = g_steal_pointer (&self->waiting);

          show_profile (self, loaded);
          loaded_free (loaded);
        }
      return;
    }
  /* The worker is idle now: the index can take in the new samples. */
  if (update->counts != NULL)
    {
      sp_profile_lock_reading (self->profile);
      sp_sample_index_update (self->index, sp_profile_get_reader (self->profile));
      sp_profile_unlock_reading (self->profile);
      sp_timeline_view_set_profile (self->timeline_view, self->profile, self->index);
      update_thread_list (self);
    }
  if (trees->call_tree != NULL)
    {
      sp_call_tree_view_set_tree (self->call_tree_view, self->profile, g_steal_pointer (&trees->call_tree));
      sp_flame_graph_set_tree (self->flame_graph, self->profile, g_steal_pointer (&trees->flame_tree));
    }
  sp_call_tree_view_set_tree (self->bottom_up_view, self->profile, g_steal_pointer (&trees->bottom_up));
  if (trees->have_summary)
    show_summary (self, &trees->summary);
  live_trees_free (trees);
  if (update->finish)
    gtk_widget_set_visible (GTK_WIDGET (self->status_label), sp_profile_get_damage (self->profile) != NULL);
  else if (self->live_final && update->counts != NULL)
    live_schedule (self);  /* the recorder ended meanwhile: one last update */
  if (self->rebuild_pending)
    start_rebuild (self);
}

static void
live_update_free (gpointer data)
{
  LiveUpdate *update = data;

  sp_filter_free (update->filter);
  g_free (update);
}

/* Runs one worker over the profile: parsing what was appended (counts
 * given) and/or aggregating for the current filter. One at a time: the
 * profile's symbolizer and memos belong to one thread. */
static void
run_worker (SpWindow *self,
            SpStackCounts *counts,
            gboolean finish,
            gboolean only_bottom_up)
{
  g_autoptr (GTask) task = NULL;
  LiveUpdate *update = g_new0 (LiveUpdate, 1);

  update->profile = self->profile;
  update->counts = counts;
  update->filter = sp_filter_copy (self->filter);
  update->finish = finish;
  update->only_bottom_up = only_bottom_up;
  self->live_busy = TRUE;
  self->rebuild_pending = FALSE;
  task = g_task_new (NULL, NULL, live_update_done, g_object_ref (self));
  g_task_set_task_data (task, update, live_update_free);
  g_task_run_in_thread (task, live_update_in_thread);
}

/* The selection changed: new trees for it (while recording, the next
 * live update takes care of it). */
static void
start_rebuild (SpWindow *self)
{
  if (self->profile == NULL || sp_window_is_recording (self))
    return;
  if (self->live_busy)
    {
      self->rebuild_pending = TRUE;
      return;
    }
  run_worker (self, NULL, FALSE, FALSE);
}

static void
timeline_selection_changed (SpTimelineView *timeline,
                            SpWindow *self)
{
  guint64 from, to;

  /* Clearing the timeline (a new profile, or closing) clears it too. */
  if (self->disposed || self->profile == NULL)
    return;
  sp_timeline_view_get_selection (timeline, &from, &to);
  sp_filter_set_time_range (self->filter, from, to);
  start_rebuild (self);
}

/* Starts an update unless one is running; opens the spool once the
 * recorder has created it. */
static gboolean
live_tick (gpointer data)
{
  SpWindow *self = data;
  const char *path = sp_recording_session_get_output (self->session);
  gboolean finish = self->live_final;

  if (self->live_busy)
    return G_SOURCE_CONTINUE;
  if (self->profile == NULL)
    {
      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        return finish ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
      self->profile = sp_profile_open_follow (path, NULL);
      if (self->profile == NULL)
        return G_SOURCE_CONTINUE;
      self->live_counts = sp_stack_counts_new (self->profile, NULL);
      self->index = sp_sample_index_new ();
    }
  run_worker (self, self->live_counts, finish, FALSE);
  if (finish)
    {
      self->live_source = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
live_schedule (SpWindow *self)
{
  if (self->live_source == 0)
    self->live_source = g_timeout_add (LIVE_UPDATE_MS, live_tick, self);
}

static void
session_progress (SpRecordingSession *session,
                  guint64 samples,
                  guint64 lost,
                  guint64 bytes,
                  SpWindow *self)
{
  g_autofree char *size = g_format_size (bytes);
  g_autofree char *text = g_strdup_printf ("Recording: %" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT
                                           " lost, %s", samples, lost, size);

  gtk_label_set_text (self->status_label, text);
}

static void
session_finished (SpRecordingSession *session,
                  int status,
                  SpWindow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->record_button), TRUE);
  self->live_final = TRUE;
  if (self->profile == NULL && !g_file_test (sp_recording_session_get_output (session), G_FILE_TEST_EXISTS))
    {
      /* The recorder refused before writing anything: say why. */
      g_autofree char *text = g_strdup_printf ("The recording could not start.\n%s",
                                               sp_recording_session_get_errors (session));

      g_clear_handle_id (&self->live_source, g_source_remove);
      gtk_widget_set_visible (GTK_WIDGET (self->view_switcher), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->search_entry), FALSE);
      gtk_widget_set_visible (GTK_WIDGET (self->icicle_button), FALSE);
      gtk_label_set_text (self->error_label, g_strstrip (text));
      gtk_stack_set_visible_child_name (self->pages, "error");
      return;
    }
  gtk_label_set_text (self->status_label, status == 0 ? "Recording finished." : "Recording finished (the program "
                                                                                "failed or was stopped).");
  g_clear_handle_id (&self->live_source, g_source_remove);
  live_schedule (self);
}

static char *
recording_path (const SpRecordOptions *options)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "stackpulse", "recordings", NULL);
  g_autofree char *program = g_path_get_basename (options->argv[0]);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *name = g_strdup_printf ("%s-%s.spool", program, stamp);

  g_mkdir_with_parents (dir, 0700);
  return g_build_filename (dir, name, NULL);
}

gboolean
sp_window_record (SpWindow *self,
                  const SpRecordOptions *options,
                  GError **error)
{
  g_autofree char *path = recording_path (options);
  g_autofree char *title = NULL;

  g_return_val_if_fail (self->session == NULL && self->profile == NULL, FALSE);
  self->session = sp_recording_session_start (options, path, error);
  if (self->session == NULL)
    return FALSE;
  self->file = g_file_new_for_path (path);
  g_signal_connect (self->session, "progress", G_CALLBACK (session_progress), self);
  g_signal_connect (self->session, "finished", G_CALLBACK (session_finished), self);

  title = g_strdup_printf ("%s — recording — stackpulse", options->argv[0]);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (self->status_label, "Recording: starting…");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->record_button), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->view_switcher), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->search_entry), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->icicle_button), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->transform_button), TRUE);
  gtk_stack_set_visible_child_name (self->pages, "profile");
  live_schedule (self);
  return TRUE;
}

gboolean
sp_window_is_recording (SpWindow *self)
{
  return self->session != NULL && sp_recording_session_is_running (self->session);
}

static void
record_requested (SpRecordDialog *dialog,
                  SpWindow *self)
{
  SpRecordOptions options;
  g_autoptr (GError) error = NULL;
  SpWindow *target = self;

  if (!sp_record_dialog_get_options (dialog, &options, NULL))
    return;
  /* One window per profile: a window that shows one records in a new one. */
  if (self->session != NULL || self->profile != NULL || self->file != NULL)
    {
      target = sp_window_new (SP_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))));
      gtk_window_present (GTK_WINDOW (target));
    }
  if (!sp_window_record (target, &options, &error))
    {
      gtk_label_set_text (target->error_label, error->message);
      gtk_stack_set_visible_child_name (target->pages, "error");
    }
  sp_record_options_clear (&options);
}

static void
record_activated (GtkWidget *widget,
                  const char *action_name,
                  GVariant *parameter)
{
  SpRecordDialog *dialog = sp_record_dialog_new (GTK_WINDOW (widget));

  g_signal_connect (dialog, "record", G_CALLBACK (record_requested), widget);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
record_demo_activated (GtkWidget *widget,
                       const char *action_name,
                       GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);
  g_autofree char *demo = sp_recording_session_find_demo ();
  SpRecordOptions options = { NULL, NULL, 1000, TRUE };
  g_autoptr (GError) error = NULL;

  if (demo == NULL)
    {
      gtk_label_set_text (self->error_label, "stackpulse-demo was not found next to stackpulse or on PATH.");
      gtk_stack_set_visible_child_name (self->pages, "error");
      return;
    }
  options.argv = g_new0 (char *, 2);
  options.argv[0] = g_steal_pointer (&demo);
  if (self->session != NULL || self->profile != NULL || self->file != NULL)
    {
      self = sp_window_new (SP_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))));
      gtk_window_present (GTK_WINDOW (self));
    }
  if (!sp_window_record (self, &options, &error))
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_stack_set_visible_child_name (self->pages, "error");
    }
  sp_record_options_clear (&options);
}

static void
stop_activated (GtkWidget *widget,
                const char *action_name,
                GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);

  if (sp_window_is_recording (self))
    {
      gtk_label_set_text (self->status_label, "Stopping…");
      sp_recording_session_stop (self->session);
    }
}

/* ---- Threads --------------------------------------------------------- */

static void
thread_toggled (GtkCheckButton *check,
                SpWindow *self)
{
  guint32 thread = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "sp-thread"));

  sp_filter_set_thread_hidden (self->filter, thread, !gtk_check_button_get_active (check));
  start_rebuild (self);
}

/* A row per thread: name, ids and samples, and whether the views count it.
 * Rebuilt when threads appear (a live recording); counts are as of then. */
static void
update_thread_list (SpWindow *self)
{
  const SpSpoolReader *reader = sp_profile_get_reader (self->profile);
  const SpThread *threads;
  g_autofree guint64 *samples = NULL;
  GtkWidget *child;
  gsize n_threads, n_samples;

  sp_profile_lock_reading (self->profile);
  n_threads = sp_spool_reader_get_n_threads (reader);
  if (n_threads == self->n_listed_threads)
    {
      sp_profile_unlock_reading (self->profile);
      return;
    }
  threads = sp_spool_reader_get_threads (reader);
  n_samples = sp_spool_reader_get_n_samples (reader);
  samples = g_new0 (guint64, MAX (n_threads, 1));
  for (gsize i = 0; i < n_samples; i++)
    samples[sp_spool_reader_get_sample_thread (reader, i)]++;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->thread_list))) != NULL)
    gtk_list_box_remove (self->thread_list, child);
  for (gsize t = 0; t < n_threads; t++)
    {
      const char *name = sp_profile_get_thread_name (self->profile, threads[t].tid);
      g_autofree char *label = g_strdup_printf ("%s   thread %" G_GUINT64_FORMAT ", process %d   —   %"
                                                G_GUINT64_FORMAT " samples", name != NULL ? name : "(unnamed)",
                                                threads[t].tid, threads[t].pid, samples[t]);
      GtkWidget *check = gtk_check_button_new_with_label (label);

      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), !sp_filter_is_thread_hidden (self->filter, (guint32) t));
      g_object_set_data (G_OBJECT (check), "sp-thread", GUINT_TO_POINTER ((guint) t));
      g_signal_connect (check, "toggled", G_CALLBACK (thread_toggled), self);
      gtk_list_box_append (self->thread_list, check);
    }
  self->n_listed_threads = n_threads;
  sp_profile_unlock_reading (self->profile);
}

/* ---- Transforms --------------------------------------------------------- */

static const char *
transform_label (SpTransformKind kind)
{
  switch (kind)
    {
    case SP_TRANSFORM_FOCUS_FUNCTION:    return "Focus";
    case SP_TRANSFORM_FOCUS_SUBTREE:     return "Subtree";
    case SP_TRANSFORM_MERGE_FUNCTION:    return "Merge";
    case SP_TRANSFORM_DROP_FUNCTION:     return "Drop";
    case SP_TRANSFORM_COLLAPSE_MODULE:   return "Collapse";
    case SP_TRANSFORM_COLLAPSE_RECURSION: return "Collapse recursion";
    default:                             return "?";
    }
}

/* "Focus: compute_alpha › Drop: read": the transforms in the order they
 * apply; Undo takes back the last. */
static void
update_breadcrumbs (SpWindow *self)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; i < self->filter->transforms->len; i++)
    {
      const SpTransform *t = g_ptr_array_index (self->filter->transforms, i);
      const char *subject = t->module;

      if (subject == NULL && t->kind == SP_TRANSFORM_FOCUS_SUBTREE)
        subject = sp_profile_get_function (self->profile, g_array_index (t->path, guint32, t->path->len - 1))->name;
      else if (subject == NULL)
        subject = sp_profile_get_function (self->profile, t->function)->name;
      g_string_append_printf (text, "%s%s: %s", i > 0 ? "  ›  " : "", transform_label (t->kind), subject);
    }
  gtk_label_set_text (self->breadcrumb_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->breadcrumbs), self->filter->transforms->len > 0);
}

/* The call tree the user looks at (bottom-up when that view is shown). */
static SpCallTreeView *
current_tree_view (SpWindow *self)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->views), "bottom-up") == 0 ? self->bottom_up_view
                                                                                      : self->call_tree_view;
}

gboolean
sp_window_apply_transform (SpWindow *self,
                           SpTransformKind kind)
{
  SpCallTreeView *view = current_tree_view (self);
  g_autoptr (GArray) path = self->profile != NULL ? sp_call_tree_view_get_selected_path (view) : NULL;
  guint32 function;

  if (path == NULL || path->len == 0)
    return FALSE;
  function = g_array_index (path, guint32, path->len - 1);
  if (kind == SP_TRANSFORM_FOCUS_SUBTREE && view == self->call_tree_view)
    sp_filter_add_focus_subtree (self->filter, (const guint32 *) path->data, path->len);
  else if (kind == SP_TRANSFORM_FOCUS_SUBTREE)
    sp_filter_add_function_transform (self->filter, SP_TRANSFORM_FOCUS_FUNCTION, function);
  else if (kind == SP_TRANSFORM_COLLAPSE_MODULE)
    {
      const char *module = sp_profile_get_function (self->profile, function)->module;

      if (module[0] == '\0')
        return FALSE;
      sp_filter_add_collapse_module (self->filter, module);
    }
  else
    sp_filter_add_function_transform (self->filter, kind, function);
  update_breadcrumbs (self);
  start_rebuild (self);
  return TRUE;
}

static void
transform_activated (GtkWidget *widget,
                     const char *action_name,
                     GVariant *parameter)
{
  static const struct { const char *action; SpTransformKind kind; } actions[] = {
    { "win.transform-focus", SP_TRANSFORM_FOCUS_FUNCTION },
    { "win.transform-focus-subtree", SP_TRANSFORM_FOCUS_SUBTREE },
    { "win.transform-merge", SP_TRANSFORM_MERGE_FUNCTION },
    { "win.transform-drop", SP_TRANSFORM_DROP_FUNCTION },
    { "win.transform-collapse-module", SP_TRANSFORM_COLLAPSE_MODULE },
    { "win.transform-collapse-recursion", SP_TRANSFORM_COLLAPSE_RECURSION },
  };

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    if (g_str_equal (action_name, actions[i].action))
      sp_window_apply_transform (SP_WINDOW (widget), actions[i].kind);
}

static void
transform_undo_activated (GtkWidget *widget,
                          const char *action_name,
                          GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);

  if (g_str_equal (action_name, "win.transform-clear"))
    while (sp_filter_pop_transform (self->filter))
      ;
  else
    sp_filter_pop_transform (self->filter);
  update_breadcrumbs (self);
  start_rebuild (self);
}

/* Right-click on a tree: the transform menu, at the pointer. */
static void
tree_right_clicked (GtkGestureClick *gesture,
                    int n_press,
                    double x,
                    double y,
                    SpWindow *self)
{
  GtkWidget *scroller = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (gesture));
  GtkWidget *menu = gtk_popover_menu_new_from_model (self->transform_menu);
  GdkRectangle at = { (int) x, (int) y, 1, 1 };

  gtk_widget_set_parent (menu, scroller);
  gtk_popover_set_pointing_to (GTK_POPOVER (menu), &at);
  gtk_popover_set_has_arrow (GTK_POPOVER (menu), FALSE);
  g_signal_connect (menu, "closed", G_CALLBACK (gtk_widget_unparent), NULL);
  gtk_popover_popup (GTK_POPOVER (menu));
}

static void
add_context_menu (SpWindow *self,
                  GtkWidget *scroller)
{
  GtkGesture *click = gtk_gesture_click_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_SECONDARY);
  g_signal_connect (click, "pressed", G_CALLBACK (tree_right_clicked), self);
  gtk_widget_add_controller (scroller, GTK_EVENT_CONTROLLER (click));
}

static void
sp_window_dispose (GObject *object)
{
  SpWindow *self = SP_WINDOW (object);

  self->disposed = TRUE;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->file);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->call_tree_view != NULL)
    sp_call_tree_view_set_tree (self->call_tree_view, NULL, NULL);
  if (self->bottom_up_view != NULL)
    sp_call_tree_view_set_tree (self->bottom_up_view, NULL, NULL);
  if (self->timeline_view != NULL)
    sp_timeline_view_set_profile (self->timeline_view, NULL, NULL);
  if (self->flame_graph != NULL)
    sp_flame_graph_set_tree (self->flame_graph, NULL, NULL);
  g_clear_handle_id (&self->scroll_source, g_source_remove);
  g_clear_handle_id (&self->live_source, g_source_remove);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (sp_window_parent_class)->dispose (object);
}

/* Not in dispose: a live update worker may still be using the profile, and
 * it holds a reference to the window until it is done. */
static void
sp_window_finalize (GObject *object)
{
  SpWindow *self = SP_WINDOW (object);

  g_clear_pointer (&self->waiting, loaded_free);
  g_clear_pointer (&self->live_counts, sp_stack_counts_free);
  g_clear_pointer (&self->index, sp_sample_index_free);
  g_clear_pointer (&self->filter, sp_filter_free);
  g_clear_pointer (&self->profile, sp_profile_free);
  G_OBJECT_CLASS (sp_window_parent_class)->finalize (object);
}

static void
sp_window_class_init (SpWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_window_dispose;
  object_class->finalize = sp_window_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stackpulse/Stackpulse/sp-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SpWindow, pages);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, damage_label);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, figures);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, views);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, view_switcher);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, icicle_button);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, transform_button);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, transform_menu);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, breadcrumbs);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, breadcrumb_label);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, thread_list);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, record_button);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, stop_button);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, status_label);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, call_tree_scroller);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, flame_graph_scroller);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, bottom_up_scroller);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, timeline_scroller);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_activated);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_activated);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_activated);
  gtk_widget_class_install_action (widget_class, "win.record", NULL, record_activated);
  gtk_widget_class_install_action (widget_class, "win.stop", NULL, stop_activated);
  gtk_widget_class_install_action (widget_class, "win.record-demo", NULL, record_demo_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-focus", NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-focus-subtree", NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-merge", NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-drop", NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-collapse-module", NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-collapse-recursion", NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-undo", NULL, transform_undo_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-clear", NULL, transform_undo_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.stop", NULL);
}

static void
sp_window_init (SpWindow *self)
{
  GtkDropTarget *target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  gtk_widget_init_template (GTK_WIDGET (self));
  self->call_tree_view = sp_call_tree_view_new ();
  gtk_scrolled_window_set_child (self->call_tree_scroller, GTK_WIDGET (self->call_tree_view));
  self->filter = sp_filter_new ();
  self->timeline_view = sp_timeline_view_new ();
  gtk_scrolled_window_set_child (self->timeline_scroller, GTK_WIDGET (self->timeline_view));
  g_signal_connect (self->timeline_view, "selection-changed", G_CALLBACK (timeline_selection_changed), self);
  self->bottom_up_view = sp_call_tree_view_new ();
  gtk_scrolled_window_set_child (self->bottom_up_scroller, GTK_WIDGET (self->bottom_up_view));
  add_context_menu (self, GTK_WIDGET (self->call_tree_scroller));
  add_context_menu (self, GTK_WIDGET (self->bottom_up_scroller));
  self->flame_graph = sp_flame_graph_new ();
  gtk_scrolled_window_set_child (self->flame_graph_scroller, GTK_WIDGET (self->flame_graph));
  /* A click focuses the graph: the viewport would then scroll to its top,
   * away from the roots and the frame just clicked. */
  gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (gtk_scrolled_window_get_child (self->flame_graph_scroller)), FALSE);
  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (search_changed), self);
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (search_activated), self);
  g_signal_connect (self->icicle_button, "toggled", G_CALLBACK (icicle_toggled), self);
  g_signal_connect (gtk_scrolled_window_get_vadjustment (self->flame_graph_scroller), "changed",
                    G_CALLBACK (flame_graph_height_changed), self);
  g_signal_connect (target, "drop", G_CALLBACK (drop_file), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
}

SpWindow *
sp_window_new (SpApplication *app)
{
  return g_object_new (SP_TYPE_WINDOW, "application", app, NULL);
}

const char *
sp_window_get_page (SpWindow *self)
{
  return gtk_stack_get_visible_child_name (self->pages);
}

void
sp_window_show_view (SpWindow *self,
                     const char *view)
{
  gtk_stack_set_visible_child_name (self->views, view);
}

gboolean
sp_window_search_function (SpWindow *self,
                           const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  sp_flame_graph_set_search (self->flame_graph, text);
  gtk_stack_set_visible_child_name (self->views, "call-tree");
  return sp_call_tree_view_search_next (self->call_tree_view, text);
}

GListModel *
sp_window_get_call_tree_model (SpWindow *self)
{
  return sp_call_tree_view_get_model (self->call_tree_view);
}

void
sp_window_select_time (SpWindow *self,
                       double from_s,
                       double to_s)
{
  guint64 first, last, start = G_MAXUINT64;

  for (guint32 t = 0; self->index != NULL && sp_sample_index_get_thread_span (self->index, t, &first, &last); t++)
    start = MIN (start, first);
  if (start == G_MAXUINT64)
    return;
  sp_timeline_view_set_selection (self->timeline_view, start + (guint64) (from_s * 1e9),
                                  start + (guint64) (to_s * 1e9));
}
