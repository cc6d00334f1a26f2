/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window.c: the start page, and one recording: call tree, flame graph,
 * callers and callees, headline figures and status.
 *
 * Reading a spool, resolving its symbols and building the trees run in a
 * GTask thread (data/ does the work); the window only shows the result, so
 * it never freezes on a large file. The profile then belongs to the main
 * thread. */
#include "sp-window.h"

#include "sp-call-tree-view.h"
#include "sp-callers-view.h"
#include "sp-flame-graph.h"
#include "sp-process.h"
#include "sp-process-picker.h"
#include "sp-function-list.h"
#include "sp-profile.h"
#include "sp-recent-list.h"
#include "sp-record-dialog.h"
#include "sp-recording-session.h"
#include "sp-recording-state.h"
#include "sp-spool-summary.h"
#include "sp-stack-counts.h"
#include "sp-status-text.h"
#include "sp-summary-page.h"
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
  GtkWidget           *elevate_button;
  SpRecentList        *recent_list;
  GtkStack            *views;
  GtkStackSwitcher    *view_switcher;
  GtkSearchEntry      *search_entry;
  GtkToggleButton     *icicle_button;
  GtkMenuButton       *transform_button;
  GMenuModel          *transform_menu;
  GtkBox              *breadcrumbs;
  GtkListBox          *thread_list;
  GtkLabel            *breadcrumb_label;
  GtkWidget           *record_button;   /* Record and its menu */
  GtkButton           *stop_button;
  GtkLabel            *status_label;
  GtkButton           *problems_button;
  GtkLabel            *problems_label;
  SpCallersView       *callers_view;
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

  /* Live recording: the session, the followed profile's counts (used by
   * the update worker only), and whether an update is under way. */
  SpRecordingSession  *session;
  SpStackCounts       *live_counts;
  guint                live_source;
  gboolean             live_busy;
  gboolean             live_final;    /* the recorder ended: finish after this update */
  gboolean             following;     /* an opened file another recorder is still writing */
  SpRecordOptions      record_options; /* what it records, to run it again elevated */
  const char          *exit_note;     /* said in the status once the recording ended, or NULL */

  /* The caller/callee view: its function, and what it waits for. */
  guint32              focus_function;  /* SP_FUNCTION_LIST_ROOT: the hottest, once known */
  const char          *shown_view;      /* the page shown (interned), to know where the user came from */
  gboolean             callers_stale;   /* the trees changed while the view was hidden */
  gboolean             callers_pending; /* another function waits for the worker */
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
  SpStackCounts  *live_counts;   /* a recording in progress: its running counts, to follow it */
} Loaded;

/* What one worker run does; a run may do several. */
typedef enum {
  WORK_PARSE     = 1 << 0,   /* take in what the recorder appended */
  WORK_FINISH    = 1 << 1,   /* the recorder is done: read the tail, summarize */
  WORK_TREES     = 1 << 2,   /* the three trees for the filter */
  WORK_FUNCTIONS = 1 << 3,   /* the function list, for the caller/callee view */
  WORK_CALLERS   = 1 << 4,   /* the chosen function's callers and callees */
  WORK_BOTTOM_UP = 1 << 5,   /* only the bottom-up tree: a file just shown has the others */
} Work;

static void update_thread_list (SpWindow *self);
static void run_worker (SpWindow *self,
                        Work work);
static void live_schedule (SpWindow *self);

G_DEFINE_FINAL_TYPE (SpWindow, sp_window, GTK_TYPE_APPLICATION_WINDOW)

static void
loaded_free (gpointer data)
{
  Loaded *loaded = data;

  sp_call_tree_free (loaded->call_tree);
  sp_call_tree_free (loaded->flame_tree);
  g_clear_pointer (&loaded->index, sp_sample_index_unref);
  g_clear_pointer (&loaded->live_counts, sp_stack_counts_free);
  sp_profile_unref (loaded->profile);
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
  loaded->profile = sp_profile_open_follow (path, &error);
  if (loaded->profile == NULL)
    {
      loaded_free (loaded);
      g_task_return_error (task, error);
      return;
    }
  /* A recording another recorder still writes is followed as the window
   * follows its own; any other file is read to its end. */
  sp_profile_update (loaded->profile);
  if (sp_recording_state_get (path, sp_profile_get_meta (loaded->profile)) == SP_RECORDING_STATE_IN_PROGRESS)
    {
      if (sp_recording_state_is_local (sp_profile_get_meta (loaded->profile)))
        sp_profile_set_recorded_here (loaded->profile);
      loaded->live_counts = sp_stack_counts_new (loaded->profile, NULL);
    }
  else
    sp_profile_finish (loaded->profile);
  /* Symbols are resolved here, off the main thread, as the trees need them. */
  loaded->call_tree = sp_call_tree_new (loaded->profile, NULL, loaded->live_counts, FALSE);
  loaded->flame_tree = sp_call_tree_copy (loaded->call_tree);
  /* The bottom-up tree comes after the first frame (show_profile). The
   * symbol problems are known now: the bottom-up tree has the same frames. */
  sp_spool_summary_from_profile (loaded->profile, &loaded->summary);
  loaded->index = sp_sample_index_new ();
  sp_sample_index_update (loaded->index, sp_profile_get_reader (loaded->profile));
  g_task_return_pointer (task, loaded, loaded_free);
}

/* The status bar's warning: symbol problems that leave frames as
 * addresses, the first named; the rest in its tooltip and on the Summary
 * page it opens. Missing debug info is too common to warn about here. */
static void
show_problems (SpWindow *self,
               const GArray *problems)
{
  g_autofree char *headline = sp_status_text_headline (problems);
  g_autofree char *serious = NULL;
  g_autofree char *tooltip = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->problems_button), headline != NULL);
  if (headline == NULL)
    return;
  serious = sp_status_text_serious (problems);
  tooltip = g_strdup_printf ("%s\n\nFrames in these files show as addresses. Click for the summary.", serious);
  gtk_label_set_text (self->problems_label, headline);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->problems_button), tooltip);
}

/* The status line once the figures are known (a file opened, a
 * recording finished): what was recorded and what was lost. */
static void
show_status (SpWindow *self,
             const SpSpoolSummary *s)
{
  g_autofree char *figures = sp_status_text_figures (s);
  g_autofree char *text = NULL;

  if (self->exit_note != NULL)
    text = g_strdup_printf ("%s  ·  %s", figures, self->exit_note);
  gtk_label_set_text (self->status_label, text != NULL ? text : figures);
  show_problems (self, s->symbol_problems);
}

/* The Summary page, the status line, and the damage (if any). */
static void
show_summary (SpWindow *self,
              const SpSpoolSummary *s)
{
  g_autofree char *path = g_file_get_path (self->file);

  sp_summary_page_fill (self->figures, path, s);
  show_status (self, s);
  gtk_widget_set_visible (GTK_WIDGET (self->damage_label), s->damage != NULL);
  if (s->damage != NULL)
    {
      g_autofree char *text = g_strdup_printf ("This recording is damaged; everything before the damage is shown.\n%s",
                                               s->damage);
      gtk_label_set_text (self->damage_label, text);
    }
}

/* What only a profile (or a recording) has: its views and their tools. */
static void
show_profile_controls (SpWindow *self,
                       gboolean visible)
{
  gtk_widget_set_visible (GTK_WIDGET (self->view_switcher), visible);
  gtk_widget_set_visible (GTK_WIDGET (self->search_entry), visible);
  gtk_widget_set_visible (GTK_WIDGET (self->icicle_button), visible);
  gtk_widget_set_visible (GTK_WIDGET (self->transform_button), visible);
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
  sp_callers_view_set_functions (self->callers_view, NULL, NULL, 0);
  self->focus_function = SP_FUNCTION_LIST_ROOT;
  self->callers_stale = TRUE;
  /* What the old profile waited for goes with it, and so do a followed
   * spool's running counts (the worker would take them for the new
   * profile's: no worker runs here, see load_done). */
  self->rebuild_pending = FALSE;
  self->callers_pending = FALSE;
  g_clear_pointer (&self->live_counts, sp_stack_counts_free);
  self->live_counts = g_steal_pointer (&loaded->live_counts);
  self->following = self->live_counts != NULL;
  self->live_final = FALSE;
  sp_flame_graph_set_tree (self->flame_graph, NULL, NULL);
  sp_timeline_view_set_profile (self->timeline_view, NULL, NULL);
  sp_filter_set_time_range (self->filter, 0, G_MAXUINT64);
  g_clear_pointer (&self->index, sp_sample_index_unref);
  g_clear_pointer (&old, sp_profile_unref);
  self->profile = g_steal_pointer (&loaded->profile);
  self->index = g_steal_pointer (&loaded->index);
  sp_timeline_view_set_profile (self->timeline_view, self->profile, self->index);
  self->n_listed_threads = G_MAXSIZE;
  update_thread_list (self);
  sp_call_tree_view_set_tree (self->call_tree_view, self->profile, g_steal_pointer (&loaded->call_tree));
  sp_flame_graph_set_tree (self->flame_graph, self->profile, g_steal_pointer (&loaded->flame_tree));
  show_summary (self, &loaded->summary);
  show_profile_controls (self, TRUE);
  gtk_stack_set_visible_child_name (self->pages, "profile");
  /* Not needed for the first frame (it took a third of the time to it);
   * a worker already running rebuilds every tree after it. */
  if (self->live_busy)
    self->rebuild_pending = TRUE;
  else
    run_worker (self, WORK_BOTTOM_UP);
  if (self->following)
    live_schedule (self);
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
  sp_recent_list_add_file (self->file);
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

/* The flame graph keeps its roots in view itself (it is scrollable). */
static void
icicle_toggled (GtkToggleButton *button,
                SpWindow *self)
{
  sp_flame_graph_set_icicle (self->flame_graph, gtk_toggle_button_get_active (button));
}

/* The flame graph highlights every match as you type; Enter goes to the
 * heaviest match on the page shown, then to the next (the call tree from
 * pages with nothing to search). */
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
  const char *page = gtk_stack_get_visible_child_name (self->views);

  if (text[0] == '\0')
    return;
  if (g_strcmp0 (page, "flame-graph") == 0)
    sp_flame_graph_search_next (self->flame_graph, text);
  else if (g_strcmp0 (page, "bottom-up") == 0)
    sp_call_tree_view_search_next (self->bottom_up_view, text);
  else if (g_strcmp0 (page, "callers") == 0)
    sp_callers_view_search_next (self->callers_view, text);
  else
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

/* "name.spool — stackpulse" */
static void
set_file_title (SpWindow *self,
                GFile *file)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *title = g_strdup_printf ("%s — stackpulse", name);

  gtk_window_set_title (GTK_WINDOW (self), title);
}

void
sp_window_open_file (SpWindow *self,
                     GFile *file)
{
  g_autoptr (GTask) task = NULL;

  /* The recording would go on under another file's name: see sp_window_open. */
  g_return_if_fail (!sp_window_is_recording (self));
  g_set_object (&self->file, file);
  /* A recording followed until now is left to its recorder. */
  g_clear_handle_id (&self->live_source, g_source_remove);
  self->following = FALSE;
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  set_file_title (self, file);
  gtk_spinner_start (self->spinner);
  gtk_stack_set_visible_child_name (self->pages, "loading");

  task = g_task_new (NULL, self->cancellable, load_done, g_object_ref (self));
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_in_thread);
}

/* Whether the window keeps what it has: a recording (running, finished,
 * or refused with its offer to retry), a profile, or a file on its way.
 * The start page, or a file that could not be read, gives way. */
static gboolean
is_taken (SpWindow *self)
{
  return self->session != NULL || self->profile != NULL
         || g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "loading") == 0;
}

SpWindow *
sp_window_open (SpWindow *self,
                GFile *file)
{
  if (is_taken (self))
    {
      self = sp_window_new (SP_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))));
      gtk_window_present (GTK_WINDOW (self));
    }
  sp_window_open_file (self, file);
  return self;
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

      sp_window_open (self, file);
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
  sp_window_open (SP_WINDOW (user_data), files->data);
  return TRUE;
}

/* ---- Recording and the live view -------------------------------------- */

typedef struct {
  SpProfile     *profile;     /* borrowed from the window for the update */
  SpStackCounts *counts;      /* likewise: a followed spool's running counts, or NULL */
  SpFilter      *filter;      /* a copy of the window's */
  Work           work;
  guint32        focus;       /* for WORK_CALLERS; SP_FUNCTION_LIST_ROOT: the hottest */
} LiveUpdate;

typedef struct {
  SpCallTree     *call_tree;     /* WORK_TREES */
  SpCallTree     *flame_tree;
  SpCallTree     *bottom_up;
  GArray         *functions;     /* WORK_FUNCTIONS: SpFunctionCost */
  guint64         n_kept;        /* the samples in functions */
  SpFunctionCost  focus;         /* WORK_CALLERS (when there is a function): its own */
  GArray         *callers;
  GArray         *callees;
  GArray         *problems;      /* the symbol problems so far (a copy) */
  SpSpoolSummary  summary;       /* WORK_FINISH */
  gboolean        have_summary;
  SpRecordingState state;        /* WORK_PARSE: whether the recorder goes on */
} LiveTrees;

static void
live_trees_free (gpointer data)
{
  LiveTrees *trees = data;

  sp_call_tree_free (trees->call_tree);
  sp_call_tree_free (trees->flame_tree);
  sp_call_tree_free (trees->bottom_up);
  g_clear_pointer (&trees->functions, g_array_unref);
  g_clear_pointer (&trees->callers, g_array_unref);
  g_clear_pointer (&trees->callees, g_array_unref);
  g_clear_pointer (&trees->problems, g_array_unref);
  sp_spool_summary_clear (&trees->summary);
  g_free (trees);
}

/* In the worker: the function list, and the chosen function's callers
 * and callees (the hottest function's when none is chosen yet; the
 * window asks for the list then). */
static void
find_callers (LiveUpdate *update,
              SpStackCounts *counts,
              LiveTrees *trees)
{
  guint32 focus = update->focus;

  if (update->work & WORK_FUNCTIONS)
    {
      trees->functions = sp_function_list_new (update->profile, update->filter, counts);
      /* Each sample has one innermost function: the selves add up to
       * the samples the transforms kept, as the trees' roots do. */
      for (guint i = 0; i < trees->functions->len; i++)
        trees->n_kept += g_array_index (trees->functions, SpFunctionCost, i).self;
      if (focus == SP_FUNCTION_LIST_ROOT && trees->functions->len > 0)
        focus = g_array_index (trees->functions, SpFunctionCost, 0).function;
    }
  if ((update->work & WORK_CALLERS) && focus != SP_FUNCTION_LIST_ROOT)
    sp_function_list_callers_callees (update->profile, update->filter, counts, focus,
                                      &trees->focus, &trees->callers, &trees->callees);
}

/* In a worker: parse what was appended, count only the new samples, fold
 * the distinct stacks into fresh trees (and lists, for the caller/callee
 * view). */
static void
live_update_in_thread (GTask *task,
                       gpointer source_object,
                       gpointer task_data,
                       GCancellable *cancellable)
{
  LiveUpdate *update = task_data;
  LiveTrees *trees = g_new0 (LiveTrees, 1);
  const SpFilter *filter = update->filter;
  gboolean whole = filter->from_ns == 0 && filter->to_ns == G_MAXUINT64
                   && (filter->hidden_threads == NULL || filter->hidden_threads->len == 0);
  SpStackCounts *counts = NULL;
  g_autoptr (SpStackCounts) selected = NULL;

  if (update->work & WORK_PARSE)
    {
      sp_profile_update (update->profile);
      if (update->work & WORK_FINISH)
        sp_profile_finish (update->profile);
      sp_stack_counts_update (update->counts, update->profile, NULL);
      trees->state = sp_recording_state_get (sp_profile_get_path (update->profile),
                                             sp_profile_get_meta (update->profile));
    }
  /* The whole recording: the running counts. A time range or hidden
   * threads: count them. */
  counts = whole && update->counts != NULL ? update->counts
                                           : (selected = sp_stack_counts_new (update->profile, update->filter));
  /* The counts hold the time range already; the filter adds its transforms. */
  if (update->work & WORK_TREES)
    {
      trees->call_tree = sp_call_tree_new (update->profile, update->filter, counts, FALSE);
      trees->flame_tree = sp_call_tree_copy (trees->call_tree);
      trees->bottom_up = sp_call_tree_new (update->profile, update->filter, counts, TRUE);
    }
  else if (update->work & WORK_BOTTOM_UP)
    trees->bottom_up = sp_call_tree_new (update->profile, update->filter, counts, TRUE);
  find_callers (update, counts, trees);
  trees->problems = sp_symbol_problems_copy (sp_profile_get_symbol_problem_details (update->profile));
  if (update->work & WORK_FINISH)
    {
      sp_spool_summary_from_profile (update->profile, &trees->summary);
      trees->have_summary = TRUE;
    }
  g_task_return_pointer (task, trees, live_trees_free);
}

static void live_schedule (SpWindow *self);
static void start_rebuild (SpWindow *self);
static void start_callers (SpWindow *self);

/* The list, and the chosen function when it is still the one asked for
 * (the user may have chosen another meanwhile: that one is on its way). */
static void
show_callers (SpWindow *self,
              LiveTrees *trees)
{
  if (trees->functions != NULL)
    sp_callers_view_set_functions (self->callers_view, self->profile, g_steal_pointer (&trees->functions),
                                   trees->n_kept);
  if (trees->callers == NULL)
    return;
  if (self->focus_function == SP_FUNCTION_LIST_ROOT)
    self->focus_function = trees->focus.function;
  if (trees->focus.function == self->focus_function)
    sp_callers_view_set_function (self->callers_view, &trees->focus, g_steal_pointer (&trees->callers),
                                  g_steal_pointer (&trees->callees));
}

/* The counters when the recorder cannot send them (under pkexec): what
 * the followed spool holds so far. */
static void
show_spool_progress (SpWindow *self)
{
  g_autoptr (GFileInfo) info = g_file_query_info (self->file, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);
  g_autofree char *size = g_format_size (info != NULL ? (guint64) g_file_info_get_size (info) : 0);
  g_autofree char *text = NULL;
  gsize samples;

  sp_profile_lock_reading (self->profile);
  samples = sp_spool_reader_get_n_samples (sp_profile_get_reader (self->profile));
  sp_profile_unlock_reading (self->profile);
  text = g_strdup_printf ("Recording with administrator rights: %" G_GSIZE_FORMAT " samples, %s", samples, size);
  gtk_label_set_text (self->status_label, text);
}

/* A followed recording's figures as it grows. */
static void
show_follow_progress (SpWindow *self)
{
  g_autofree char *text = NULL;
  guint64 first = 0, last = 0;
  gsize samples;

  sp_profile_lock_reading (self->profile);
  samples = sp_spool_reader_get_n_samples (sp_profile_get_reader (self->profile));
  sp_profile_unlock_reading (self->profile);
  sp_sample_index_get_time_span (self->index, &first, &last);
  text = g_strdup_printf ("Recording in progress (another stackpulse-record): %" G_GSIZE_FORMAT
                          " samples over %.2f s so far", samples, (last - first) / 1e9);
  gtk_label_set_text (self->status_label, text);
}

/* Whether the views follow a recording: this window's, or another
 * recorder's. Live updates then build the trees. */
static gboolean
is_live (SpWindow *self)
{
  return sp_window_is_recording (self) || self->following;
}

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
  if (update->work & WORK_PARSE)
    {
      sp_profile_lock_reading (self->profile);
      sp_sample_index_update (self->index, sp_profile_get_reader (self->profile));
      sp_profile_unlock_reading (self->profile);
      sp_timeline_view_set_profile (self->timeline_view, self->profile, self->index);
      update_thread_list (self);
      if (sp_window_is_recording (self) && !sp_recording_session_has_progress (self->session))
        show_spool_progress (self);
      if (self->following && !(update->work & WORK_FINISH))
        show_follow_progress (self);
      /* Its recorder finished or died: read the rest, and say which. */
      if (self->following && trees->state != SP_RECORDING_STATE_IN_PROGRESS)
        self->live_final = TRUE;
    }
  if (update->work & WORK_TREES)
    {
      sp_call_tree_view_set_tree (self->call_tree_view, self->profile, g_steal_pointer (&trees->call_tree));
      sp_flame_graph_set_tree (self->flame_graph, self->profile, g_steal_pointer (&trees->flame_tree));
    }
  if (update->work & (WORK_TREES | WORK_BOTTOM_UP))
    sp_call_tree_view_set_tree (self->bottom_up_view, self->profile, g_steal_pointer (&trees->bottom_up));
  show_callers (self, trees);
  show_problems (self, trees->problems);
  if (trees->have_summary)
    {
      self->following = FALSE;
      /* The recorder, not the program, ended it: the figures say so
       * (the side file knows it when the window does not). */
      if (trees->summary.recording_state == SP_RECORDING_STATE_INTERRUPTED)
        self->exit_note = NULL;
      show_summary (self, &trees->summary);
    }
  live_trees_free (trees);
  if (!(update->work & WORK_FINISH) && self->live_final && (update->work & WORK_PARSE))
    live_schedule (self);  /* the recorder ended meanwhile: one last update */
  if (self->rebuild_pending)
    start_rebuild (self);
  if (self->callers_pending && !self->live_busy)
    start_callers (self);
}

static void
live_update_free (gpointer data)
{
  LiveUpdate *update = data;

  sp_filter_free (update->filter);
  g_free (update);
}

static gboolean
callers_shown (SpWindow *self)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->views), "callers") == 0;
}

/* Runs one worker over the profile: parsing what was appended and/or
 * aggregating for the current filter. One at a time: the profile's
 * symbolizer and memos belong to one thread. New trees bring the
 * caller/callee view up to date too when it is shown; when it is not,
 * it catches up once it is. */
static void
run_worker (SpWindow *self,
            Work work)
{
  g_autoptr (GTask) task = NULL;
  LiveUpdate *update = g_new0 (LiveUpdate, 1);

  if ((work & WORK_TREES) && callers_shown (self))
    work |= WORK_FUNCTIONS | WORK_CALLERS;
  else if (work & WORK_TREES)
    self->callers_stale = TRUE;
  if (work & WORK_FUNCTIONS)
    self->callers_stale = FALSE;
  if (work & WORK_CALLERS)
    self->callers_pending = FALSE;
  if (work & WORK_TREES)
    self->rebuild_pending = FALSE;
  update->profile = self->profile;
  update->counts = self->live_counts;
  update->filter = sp_filter_copy (self->filter);
  update->work = work;
  update->focus = self->focus_function;
  self->live_busy = TRUE;
  task = g_task_new (NULL, NULL, live_update_done, g_object_ref (self));
  g_task_set_task_data (task, update, live_update_free);
  g_task_run_in_thread (task, live_update_in_thread);
}

/* The selection changed: new trees for it (while recording, the next
 * live update takes care of it). */
static void
start_rebuild (SpWindow *self)
{
  if (self->profile == NULL || is_live (self))
    return;
  if (self->live_busy)
    {
      self->rebuild_pending = TRUE;
      return;
    }
  run_worker (self, WORK_TREES);
}

/* The caller/callee view needs another function's callers and callees
 * (and the function list, when the trees changed while it was hidden). */
static void
start_callers (SpWindow *self)
{
  Work work = WORK_CALLERS;

  if (self->profile == NULL)
    return;
  if (self->live_busy)
    {
      self->callers_pending = TRUE;
      return;
    }
  if (self->callers_stale || self->focus_function == SP_FUNCTION_LIST_ROOT)
    work |= WORK_FUNCTIONS;
  run_worker (self, work);
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
  gboolean finish = self->live_final;

  if (self->live_busy)
    return G_SOURCE_CONTINUE;
  /* Only this window's recording starts without a profile. */
  if (self->profile == NULL)
    {
      const char *path = sp_recording_session_get_output (self->session);

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        return finish ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
      self->profile = sp_profile_open_follow (path, NULL);
      if (self->profile == NULL)
        return G_SOURCE_CONTINUE;
      sp_profile_set_recorded_here (self->profile);
      self->live_counts = sp_stack_counts_new (self->profile, NULL);
      self->index = sp_sample_index_new ();
    }
  run_worker (self, WORK_PARSE | WORK_TREES | (finish ? WORK_FINISH : 0));
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
      /* The recorder refused before writing anything: say why, and when
       * the kernel was in the way, offer to ask for the rights it wants. */
      g_autofree char *text = g_strdup_printf ("The recording could not start.\n%s",
                                               sp_recording_session_get_errors (session));
      g_autofree char *pkexec = sp_recording_session_find_pkexec ();

      g_clear_handle_id (&self->live_source, g_source_remove);
      show_profile_controls (self, FALSE);
      gtk_label_set_text (self->error_label, g_strstrip (text));
      gtk_widget_set_visible (self->elevate_button, pkexec != NULL && !self->record_options.elevated
                                                    && sp_recording_session_was_refused (session));
      gtk_stack_set_visible_child_name (self->pages, "error");
      /* Not the explanation: a focused selectable label selects all. */
      gtk_window_set_focus (GTK_WINDOW (self), gtk_widget_get_visible (self->elevate_button) ? self->elevate_button
                                                                                              : NULL);
      gtk_label_select_region (self->error_label, 0, 0);
      return;
    }
  sp_recent_list_add_file (self->file);
  /* Named as the file it now is, as when opened: "recording" no longer. */
  set_file_title (self, self->file);
  /* The last update shows the figures in the status line, with this. */
  if (sp_recording_session_was_killed (session))
    {
      self->exit_note = "interrupted: the recorder was killed";
      gtk_label_set_text (self->status_label, "Recording interrupted: the recorder was killed.");
    }
  else
    {
      self->exit_note = status == 0 ? NULL : "the program failed or was stopped";
      gtk_label_set_text (self->status_label, status == 0 ? "Recording finished." : "Recording finished (the "
                                                                                    "program failed or was stopped).");
    }
  g_clear_handle_id (&self->live_source, g_source_remove);
  live_schedule (self);
}

/* The program's name: the command's, or the attached process's. */
static char *
program_name (const SpRecordOptions *options)
{
  g_autoptr (SpProcess) process = NULL;

  if (options->argv != NULL)
    return g_path_get_basename (options->argv[0]);
  process = sp_process_new_for_pid (NULL, options->pid);
  return process != NULL ? g_strdup (sp_process_get_name (process)) : g_strdup_printf ("pid-%d", options->pid);
}

static char *
recording_path (const char *program)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "stackpulse", "recordings", NULL);
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
  g_autofree char *program = program_name (options);
  g_autofree char *path = recording_path (program);
  g_autofree char *title = NULL;

  g_return_val_if_fail (self->session == NULL && self->profile == NULL && options != &self->record_options, FALSE);
  self->session = sp_recording_session_start (options, path, error);
  if (self->session == NULL)
    return FALSE;
  sp_record_options_clear (&self->record_options);
  sp_record_options_copy (&self->record_options, options);
  g_clear_object (&self->file);  /* a file that could not be opened */
  self->file = g_file_new_for_path (path);
  g_signal_connect (self->session, "progress", G_CALLBACK (session_progress), self);
  g_signal_connect (self->session, "finished", G_CALLBACK (session_finished), self);

  if (options->argv != NULL)
    title = g_strdup_printf ("%s — recording — stackpulse", options->argv[0]);
  else
    title = g_strdup_printf ("%s (pid %d) — recording — stackpulse", program, options->pid);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (self->status_label, "Recording: starting…");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->record_button), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), TRUE);
  show_profile_controls (self, TRUE);
  gtk_stack_set_visible_child_name (self->pages, "profile");
  live_schedule (self);
  return TRUE;
}

gboolean
sp_window_is_recording (SpWindow *self)
{
  return self->session != NULL && sp_recording_session_is_running (self->session);
}

/* Records in this window, or in a new one when this one shows a profile
 * (one window per profile); a failure to start shows on the error page. */
static void
record_in_window (SpWindow *self,
                  const SpRecordOptions *options)
{
  g_autoptr (GError) error = NULL;

  if (self->session != NULL || self->profile != NULL || self->file != NULL)
    {
      self = sp_window_new (SP_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))));
      gtk_window_present (GTK_WINDOW (self));
    }
  if (!sp_window_record (self, options, &error))
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_widget_set_visible (self->elevate_button, FALSE);
      gtk_stack_set_visible_child_name (self->pages, "error");
    }
}

static void
record_requested (SpRecordDialog *dialog,
                  SpWindow *self)
{
  SpRecordOptions options;

  if (!sp_record_dialog_get_options (dialog, &options, NULL))
    return;
  record_in_window (self, &options);
  sp_record_options_clear (&options);
}

static void
record_activated (GtkWidget *widget,
                  const char *action_name,
                  GVariant *parameter)
{
  SpRecordDialog *dialog = sp_record_dialog_new (GTK_WINDOW (widget));

  /* The dialog may outlive the window. */
  g_signal_connect_object (dialog, "record", G_CALLBACK (record_requested), widget, 0);
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

  if (demo == NULL)
    {
      gtk_label_set_text (self->error_label, "stackpulse-demo was not found next to stackpulse or on PATH.");
      gtk_stack_set_visible_child_name (self->pages, "error");
      return;
    }
  options.argv = g_new0 (char *, 2);
  options.argv[0] = g_steal_pointer (&demo);
  record_in_window (self, &options);
  sp_record_options_clear (&options);
}

/* ---- Attaching, and recording with raised privileges ---------------------- */

static void
attach_requested (SpProcessPicker *picker,
                  int pid,
                  const char *name,
                  SpWindow *self)
{
  SpRecordOptions options = { .frequency_hz = 1000, .kernel_stacks = TRUE, .pid = pid };

  record_in_window (self, &options);
}

static void
attach_activated (GtkWidget *widget,
                  const char *action_name,
                  GVariant *parameter)
{
  SpProcessPicker *picker = sp_process_picker_new (GTK_WINDOW (widget));

  g_signal_connect_object (picker, "attach", G_CALLBACK (attach_requested), widget, 0);
  gtk_window_present (GTK_WINDOW (picker));
}

/* The kernel refused: the same recording again, the recorder run through
 * pkexec (which asks for the password). */
static void
record_elevated_activated (GtkWidget *widget,
                           const char *action_name,
                           GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);
  SpRecordOptions options;

  if (self->session == NULL || sp_window_is_recording (self) || self->profile != NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_object (&self->file);
  self->live_final = FALSE;
  sp_record_options_copy (&options, &self->record_options);
  options.elevated = TRUE;
  record_in_window (self, &options);
  sp_record_options_clear (&options);
}

static void
recent_open (SpRecentList *list,
             GFile *file,
             SpWindow *self)
{
  sp_window_open (self, file);
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

/* "sp-alpha   thread 4242, process 4240   —   961 samples" */
static char *
thread_label (SpWindow *self,
              const SpThread *thread,
              guint32 index)
{
  const char *name = sp_profile_get_thread_name (self->profile, thread->tid);

  return g_strdup_printf ("%s   thread %" G_GUINT64_FORMAT ", process %d   —   %" G_GUINT64_FORMAT " samples",
                          name != NULL ? name : "(unnamed)", thread->tid, thread->pid,
                          sp_sample_index_get_thread_samples (self->index, index));
}

/* A row per thread: whether the views count it. */
static void
add_thread_rows (SpWindow *self,
                 gsize n_threads)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->thread_list))) != NULL)
    gtk_list_box_remove (self->thread_list, child);
  for (gsize t = 0; t < n_threads; t++)
    {
      GtkWidget *check = gtk_check_button_new ();

      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), !sp_filter_is_thread_hidden (self->filter, (guint32) t));
      g_object_set_data (G_OBJECT (check), "sp-thread", GUINT_TO_POINTER ((guint) t));
      g_signal_connect (check, "toggled", G_CALLBACK (thread_toggled), self);
      gtk_list_box_append (self->thread_list, check);
    }
  self->n_listed_threads = n_threads;
}

/* The rows' names and counts as the profile has them now: a live
 * recording's grow, and its threads get their names from the side file a
 * little after they appear in the spool. */
static void
update_thread_list (SpWindow *self)
{
  const SpSpoolReader *reader = sp_profile_get_reader (self->profile);
  const SpThread *threads;
  gsize n_threads;

  sp_profile_lock_reading (self->profile);
  n_threads = sp_spool_reader_get_n_threads (reader);
  threads = sp_spool_reader_get_threads (reader);
  if (n_threads != self->n_listed_threads)
    add_thread_rows (self, n_threads);
  for (gsize t = 0; t < n_threads; t++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->thread_list, (int) t);
      GtkCheckButton *check = GTK_CHECK_BUTTON (gtk_list_box_row_get_child (row));
      g_autofree char *label = thread_label (self, &threads[t], (guint32) t);

      if (g_strcmp0 (gtk_check_button_get_label (check), label) != 0)
        gtk_check_button_set_label (check, label);
    }
  sp_profile_unlock_reading (self->profile);
}

/* ---- Callers and callees ---------------------------------------------- */

/* The function the user chose in a tree view: the selected row's, or the
 * flame graph's frame last clicked or right-clicked; SP_FUNCTION_LIST_ROOT
 * for none. */
static guint32
chosen_in (SpWindow *self,
           const char *view)
{
  g_autoptr (GArray) path = NULL;

  if (g_strcmp0 (view, "flame-graph") == 0)
    path = sp_flame_graph_get_selected_path (self->flame_graph);
  else if (g_strcmp0 (view, "call-tree") == 0)
    path = sp_call_tree_view_get_selected_path (self->call_tree_view);
  else if (g_strcmp0 (view, "bottom-up") == 0)
    path = sp_call_tree_view_get_selected_path (self->bottom_up_view);
  if (path == NULL || path->len == 0)
    return SP_FUNCTION_LIST_ROOT;
  return g_array_index (path, guint32, path->len - 1);
}

/* Coming to the caller/callee view from a tree view shows the function
 * selected there; from elsewhere, the one it showed last. */
static void
view_changed (GtkStack *views,
              GParamSpec *pspec,
              SpWindow *self)
{
  const char *came_from = self->shown_view;
  guint32 chosen;

  if (self->disposed)
    return;
  self->shown_view = g_intern_string (gtk_stack_get_visible_child_name (views));
  if (!callers_shown (self) || self->profile == NULL)
    return;
  chosen = chosen_in (self, came_from);
  if (chosen != SP_FUNCTION_LIST_ROOT && chosen != self->focus_function)
    {
      self->focus_function = chosen;
      start_callers (self);
    }
  else if (self->callers_stale)
    start_callers (self);
}

/* A caller or callee activated, or a function picked in the list. */
static void
callers_function_activated (SpCallersView *view,
                            guint function,
                            SpWindow *self)
{
  if (function == self->focus_function)
    return;
  self->focus_function = function;
  start_callers (self);
}

static void
show_page_activated (GtkWidget *widget,
                     const char *action_name,
                     GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);

  gtk_stack_set_visible_child_name (self->views, g_str_equal (action_name, "win.show-callers") ? "callers"
                                                                                               : "summary");
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

/* What a transform applies to on the page shown: the function path of
 * the row or frame selected there, root first (*top_down), or a function
 * alone (bottom-up, callers and callees); NULL for nothing. Elsewhere,
 * and in a flame graph nobody clicked yet, the call tree's selection. */
static GArray *
transform_subject (SpWindow *self,
                   gboolean *top_down)
{
  const char *page = gtk_stack_get_visible_child_name (self->views);
  GArray *path = NULL;
  guint32 function;

  *top_down = FALSE;
  if (g_strcmp0 (page, "bottom-up") == 0)
    return sp_call_tree_view_get_selected_path (self->bottom_up_view);
  if (g_strcmp0 (page, "callers") == 0)
    {
      function = sp_callers_view_get_selected_function (self->callers_view);
      if (function == SP_FUNCTION_LIST_ROOT)
        return NULL;
      path = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_array_append_val (path, function);
      return path;
    }
  *top_down = TRUE;
  if (g_strcmp0 (page, "flame-graph") == 0)
    path = sp_flame_graph_get_selected_path (self->flame_graph);
  return path != NULL ? path : sp_call_tree_view_get_selected_path (self->call_tree_view);
}

gboolean
sp_window_apply_transform (SpWindow *self,
                           SpTransformKind kind)
{
  gboolean top_down;
  g_autoptr (GArray) path = self->profile != NULL ? transform_subject (self, &top_down) : NULL;
  guint32 function;

  if (path == NULL || path->len == 0)
    return FALSE;
  function = g_array_index (path, guint32, path->len - 1);
  if (kind == SP_TRANSFORM_FOCUS_SUBTREE && top_down)
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
  if (self->callers_view != NULL)
    sp_callers_view_set_functions (self->callers_view, NULL, NULL, 0);
  if (self->timeline_view != NULL)
    sp_timeline_view_set_profile (self->timeline_view, NULL, NULL);
  if (self->flame_graph != NULL)
    sp_flame_graph_set_tree (self->flame_graph, NULL, NULL);
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
  g_clear_pointer (&self->index, sp_sample_index_unref);
  g_clear_pointer (&self->filter, sp_filter_free);
  g_clear_pointer (&self->profile, sp_profile_unref);
  sp_record_options_clear (&self->record_options);
  G_OBJECT_CLASS (sp_window_parent_class)->finalize (object);
}

static void
sp_window_class_init (SpWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_window_dispose;
  object_class->finalize = sp_window_finalize;

  g_type_ensure (SP_TYPE_RECENT_LIST);
  g_type_ensure (SP_TYPE_CALLERS_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/stackpulse/Stackpulse/sp-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SpWindow, pages);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, damage_label);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, figures);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, error_label);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, elevate_button);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, recent_list);
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
  gtk_widget_class_bind_template_child (widget_class, SpWindow, problems_button);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, problems_label);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, callers_view);
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
  gtk_widget_class_install_action (widget_class, "win.attach", NULL, attach_activated);
  gtk_widget_class_install_action (widget_class, "win.record-elevated", NULL, record_elevated_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-focus", NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-focus-subtree", NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-merge", NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-drop", NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-collapse-module", NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-collapse-recursion", NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.show-callers", NULL, show_page_activated);
  gtk_widget_class_install_action (widget_class, "win.show-summary", NULL, show_page_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-undo", NULL, transform_undo_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-clear", NULL, transform_undo_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.stop", NULL);
}

/* The window's style sheet, once per display (the tests' windows have
 * no application to load it). */
static void
add_style (SpWindow *self)
{
  GdkDisplay *display = gtk_widget_get_display (GTK_WIDGET (self));
  GtkCssProvider *provider;

  if (g_object_get_data (G_OBJECT (display), "sp-window-css") != NULL)
    return;
  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (provider, "/io/github/stackpulse/Stackpulse/sp-window.css");
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_data_full (G_OBJECT (display), "sp-window-css", provider, g_object_unref);
}

static void
sp_window_init (SpWindow *self)
{
  GtkDropTarget *target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  gtk_widget_init_template (GTK_WIDGET (self));
  add_style (self);
  /* Each page's button as wide as its title, not as the widest one's:
   * the switcher sets the window's narrowest width. */
  gtk_box_layout_set_homogeneous (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self->view_switcher))),
                                  FALSE);
  self->focus_function = SP_FUNCTION_LIST_ROOT;
  self->shown_view = g_intern_string (gtk_stack_get_visible_child_name (self->views));
  g_signal_connect (self->views, "notify::visible-child-name", G_CALLBACK (view_changed), self);
  g_signal_connect (self->callers_view, "function-activated", G_CALLBACK (callers_function_activated), self);
  self->call_tree_view = sp_call_tree_view_new ();
  gtk_scrolled_window_set_child (self->call_tree_scroller, GTK_WIDGET (self->call_tree_view));
  self->filter = sp_filter_new ();
  self->timeline_view = sp_timeline_view_new ();
  gtk_scrolled_window_set_child (self->timeline_scroller, GTK_WIDGET (self->timeline_view));
  g_signal_connect (self->timeline_view, "selection-changed", G_CALLBACK (timeline_selection_changed), self);
  self->bottom_up_view = sp_call_tree_view_new ();
  gtk_scrolled_window_set_child (self->bottom_up_scroller, GTK_WIDGET (self->bottom_up_view));
  sp_call_tree_view_set_context_menu (self->call_tree_view, self->transform_menu);
  sp_call_tree_view_set_context_menu (self->bottom_up_view, self->transform_menu);
  self->flame_graph = sp_flame_graph_new ();
  gtk_scrolled_window_set_child (self->flame_graph_scroller, GTK_WIDGET (self->flame_graph));
  sp_flame_graph_set_context_menu (self->flame_graph, self->transform_menu);
  sp_callers_view_set_context_menu (self->callers_view, self->transform_menu);
  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (search_changed), self);
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (search_activated), self);
  g_signal_connect (self->icicle_button, "toggled", G_CALLBACK (icicle_toggled), self);
  g_signal_connect (self->recent_list, "open", G_CALLBACK (recent_open), self);
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

SpCallTreeView *
sp_window_get_call_tree_view (SpWindow *self)
{
  return self->call_tree_view;
}

SpCallersView *
sp_window_get_callers_view (SpWindow *self)
{
  return self->callers_view;
}

void
sp_window_select_time (SpWindow *self,
                       double from_s,
                       double to_s)
{
  guint64 start, end;

  if (self->index == NULL || !sp_sample_index_get_time_span (self->index, &start, &end))
    return;
  /* Within the recording: the range's label says how long it is. */
  sp_timeline_view_set_selection (self->timeline_view, MIN (start + (guint64) (from_s * 1e9), end),
                                  MIN (start + (guint64) (to_s * 1e9), end + 1));
}
