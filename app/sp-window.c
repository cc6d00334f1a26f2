/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window.c: the start page, and one recording: call tree, flame graph,
 * callers and callees, threads, headline figures and status.
 *
 * The window places the views and wires them to its SpAnalysis
 * (data/sp-analysis.h), which reads, resolves and aggregates on its worker
 * thread; each "result" brings finished trees, lists and snapshots that
 * the window hands to its views. So the window never freezes on a large
 * file and never touches a table the worker grows. Recording is in
 * sp-window-recording.c, transforms in sp-window-transforms.c, the
 * Source page's wiring in sp-window-source.c, Open… and perf.data files
 * in sp-window-open.c. */
#include "sp-window-private.h"

#include "sp-window-compare.h"
#include "sp-window-debuginfod.h"


G_DEFINE_FINAL_TYPE (SpWindow, sp_window, GTK_TYPE_APPLICATION_WINDOW)

/* What only a profile (or a recording) has: its views and their tools. */
void
_sp_window_show_profile_controls (SpWindow *self,
                                  gboolean visible)
{
  gtk_widget_set_visible (GTK_WIDGET (self->view_switcher), visible);
  gtk_widget_set_visible (GTK_WIDGET (self->metric_selector), visible);
  gtk_widget_set_visible (GTK_WIDGET (self->search_entry), visible);
  gtk_widget_set_visible (GTK_WIDGET (self->icicle_button), visible);
  gtk_widget_set_visible (GTK_WIDGET (self->transform_button), visible);
  _sp_window_update_actions (self);
}

/* "name.spool — stackpulse", "perf.data (converted) — stackpulse" */
void
_sp_window_set_file_title (SpWindow *self,
                           GFile *file)
{
  g_autofree char *name = g_file_get_basename (self->converted_from != NULL ? self->converted_from : file);
  g_autofree char *title = g_strdup_printf ("%s%s — stackpulse", name,
                                            self->converted_from != NULL ? " (converted)" : "");

  gtk_window_set_title (GTK_WINDOW (self), title);
}

void
_sp_window_update_actions (SpWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean profile = sp_analysis_get_profile (self->analysis) != NULL;
  gboolean transforms = sp_analysis_get_filter (self->analysis)->transforms->len > 0;
  static const char *const on_profile[] = {
    "win.transform-focus", "win.transform-focus-subtree", "win.transform-merge", "win.transform-drop",
    "win.transform-collapse-module", "win.transform-collapse-recursion", "win.show-callers", "win.show-summary",
    "win.show-source",
    "win.export",
  };

  for (guint i = 0; i < G_N_ELEMENTS (on_profile); i++)
    gtk_widget_action_set_enabled (widget, on_profile[i], profile);
  gtk_widget_action_set_enabled (widget, "win.transform-undo", profile && transforms);
  gtk_widget_action_set_enabled (widget, "win.transform-clear", profile && transforms);
  gtk_widget_action_set_enabled (widget, "win.find", gtk_widget_get_visible (GTK_WIDGET (self->search_entry)));
  gtk_widget_action_set_enabled (widget, "win.stop", sp_window_is_recording (self));
  gtk_widget_action_set_enabled (widget, "win.compare", self->file != NULL && (profile || sp_window_is_recording (self)));
  gtk_widget_action_set_enabled (widget, "win.record-elevated", self->session != NULL && !sp_window_is_recording (self)
                                                                && !profile);
}

/* ---- Results ----------------------------------------------------------- */

/* A file opened: its views replace what was shown (the start page). */
static void
show_opened (SpWindow *self,
             const SpAnalysisResult *result)
{
  gtk_spinner_stop (self->spinner);
  /* Not a file that holds nothing but its damage (empty, cut in its
   * header): it is no recording to come back to. */
  if (result->summary.n_samples > 0 || result->summary.damage == NULL)
    sp_recent_list_add_file (_sp_window_get_opened_file (self));
  self->following = sp_analysis_is_following (self->analysis);
  _sp_window_show_profile_controls (self, TRUE);
  gtk_stack_set_visible_child_name (self->pages, "profile");
}

/* The samples, for the timeline and the thread list. */
static void
show_samples (SpWindow *self,
              SpAnalysisResult *result)
{
  if (result->threads != NULL || result->processes != NULL)
    _sp_window_show_processes (self, result->processes, result->idle_samples, result->n_cpus,
                               result->interval_ns);
  if (result->index == NULL && result->threads == NULL)
    return;
  if (result->index != NULL)
    {
      g_clear_pointer (&self->index, sp_sample_index_unref);
      self->index = g_steal_pointer (&result->index);
    }
  if (result->threads != NULL)
    {
      g_clear_pointer (&self->threads, g_array_unref);
      self->threads = g_steal_pointer (&result->threads);
      sp_thread_list_set_rows (self->thread_list, self->threads, sp_analysis_get_filter (self->analysis));
    }
  if (self->index != NULL && self->threads != NULL)
    sp_timeline_view_set_samples (self->timeline_view, self->index, self->threads);
  /* After the samples: setting them anew keeps the states. */
  if (result->states != NULL)
    {
      sp_timeline_view_set_thread_states (self->timeline_view, result->states, result->blocking_names);
      sp_metric_selector_set_times_available (self->metric_selector, TRUE);
      /* A finished recording without a CPU sample (`sleep 1` may have
       * none) has only its waits to show: the views count those. */
      if (result->opened && result->n_samples == 0 && !sp_analysis_is_following (self->analysis))
        {
          sp_metric_selector_set_metric (self->metric_selector, SP_METRIC_OFF_CPU);
          sp_analysis_set_metric (self->analysis, SP_METRIC_OFF_CPU);
        }
    }
}

/* The list, and the chosen function when it is still the one asked for
 * (the user may have chosen another meanwhile: that one is on its way). */
static void
show_callers (SpWindow *self,
              SpAnalysisResult *result)
{
  if (result->functions != NULL || result->callers != NULL)
    sp_callers_view_set_metric (self->callers_view, result->metric);
  if (result->functions != NULL)
    sp_callers_view_set_functions (self->callers_view, result->profile, g_steal_pointer (&result->functions),
                                   result->n_kept);
  if (result->callers != NULL && result->focus.function == sp_analysis_get_focus (self->analysis))
    sp_callers_view_set_function (self->callers_view, &result->focus, g_steal_pointer (&result->callers),
                                  g_steal_pointer (&result->callees));
}

static void
analysis_result (SpAnalysis *analysis,
                 SpAnalysisResult *result,
                 SpWindow *self)
{
  if (result->opened)
    show_opened (self, result);
  show_samples (self, result);
  _sp_window_show_progress (self, result);
  if (result->call_tree != NULL)
    sp_call_tree_view_set_tree (self->call_tree_view, result->profile, g_steal_pointer (&result->call_tree));
  if (result->flame_tree != NULL)
    sp_flame_graph_set_tree (self->flame_graph, result->profile, g_steal_pointer (&result->flame_tree));
  if (result->bottom_up != NULL)
    sp_call_tree_view_set_tree (self->bottom_up_view, result->profile, g_steal_pointer (&result->bottom_up));
  show_callers (self, result);
  _sp_window_show_source (self, result);
  _sp_window_show_problems (self, result->problems);
  _sp_window_debuginfod_take (self, result);
  if (result->finished)
    {
      self->following = FALSE;
      /* The recorder, not the program, ended it: the figures say so (the
       * side file knows it when the window does not). */
      if (result->summary.recording_state == SP_RECORDING_STATE_INTERRUPTED)
        self->exit_note = NULL;
    }
  if (result->have_summary)
    _sp_window_show_summary (self, &result->summary);
  _sp_window_update_actions (self);
}

static void
analysis_failed (SpAnalysis *analysis,
                 const GError *error,
                 SpWindow *self)
{
  g_autofree char *text = g_strdup_printf ("Cannot open this recording.\n%s", error->message);

  gtk_spinner_stop (self->spinner);
  gtk_label_set_text (self->error_label, text);
  gtk_stack_set_visible_child_name (self->pages, "error");
}

/* ---- Opening files ------------------------------------------------------ */

/* Another profile comes: nothing of the old one stays in the views. */
static void
clear_views (SpWindow *self)
{
  sp_call_tree_view_set_tree (self->call_tree_view, NULL, NULL);
  sp_call_tree_view_set_tree (self->bottom_up_view, NULL, NULL);
  sp_callers_view_set_functions (self->callers_view, NULL, NULL, 0);
  sp_flame_graph_set_tree (self->flame_graph, NULL, NULL);
  sp_timeline_view_set_samples (self->timeline_view, NULL, NULL);
  sp_thread_list_set_rows (self->thread_list, NULL, NULL);
  _sp_window_show_processes (self, NULL, 0, 0, 0);
  sp_source_view_set_source (self->source_view, NULL);
  /* The analysis counts samples again for the next profile. */
  sp_metric_selector_set_times_available (self->metric_selector, FALSE);
  sp_metric_selector_set_recorded_by (self->metric_selector, SP_RECORDED_BY_STACKPULSE);
  g_clear_pointer (&self->index, sp_sample_index_unref);
  g_clear_pointer (&self->threads, g_array_unref);
}

void
sp_window_open_file (SpWindow *self,
                     GFile *file)
{
  /* The recording would go on under another file's name: see sp_window_open. */
  g_return_if_fail (!sp_window_is_recording (self));
  if (!_sp_window_open_perf_data (self, file))
    _sp_window_open_spool (self, file);
}

void
_sp_window_open_spool (SpWindow *self,
                       GFile *file)
{
  g_autofree char *path = g_file_get_path (file);

  _sp_window_recording_forget (self);
  g_set_object (&self->file, file);
  _sp_window_set_file_title (self, file);
  if (path == NULL)
    {
      g_autoptr (GError) error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "Only local files can be opened");

      analysis_failed (self->analysis, error, self);
      return;
    }
  gtk_spinner_start (self->spinner);
  gtk_stack_set_visible_child_name (self->pages, "loading");
  /* A recording followed until now is left to its recorder. */
  self->following = FALSE;
  clear_views (self);
  sp_analysis_open (self->analysis, path);
}

/* Whether the window keeps what it has: a recording running, a profile,
 * or a file on its way. The start page, a file that could not be read,
 * and a recording that could not start give way. */
gboolean
_sp_window_is_taken (SpWindow *self)
{
  return sp_window_is_recording (self) || sp_analysis_get_profile (self->analysis) != NULL
         || g_strcmp0 (gtk_stack_get_visible_child_name (self->pages), "loading") == 0;
}

SpWindow *
sp_window_open (SpWindow *self,
                GFile *file)
{
  if (_sp_window_is_taken (self))
    {
      self = sp_window_new (SP_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))));
      gtk_window_present (GTK_WINDOW (self));
    }
  sp_window_open_file (self, file);
  return self;
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

static void
recent_open (SpRecentList *list,
             GFile *file,
             SpWindow *self)
{
  sp_window_open (self, file);
}

/* ---- Search ------------------------------------------------------------- */

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

/* The flame graph keeps its roots in view itself (it is scrollable). */
static void
icicle_toggled (GtkToggleButton *button,
                SpWindow *self)
{
  sp_flame_graph_set_icicle (self->flame_graph, gtk_toggle_button_get_active (button));
}

/* ---- Views, threads and the time range ---------------------------------- */

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
  gboolean callers = g_strcmp0 (gtk_stack_get_visible_child_name (views), "callers") == 0;
  guint32 chosen;

  self->shown_view = g_intern_string (gtk_stack_get_visible_child_name (views));
  chosen = callers ? chosen_in (self, came_from) : SP_FUNCTION_LIST_ROOT;
  if (chosen != SP_FUNCTION_LIST_ROOT)
    sp_analysis_set_focus (self->analysis, chosen);
  sp_analysis_set_callers_shown (self->analysis, callers);
  sp_analysis_set_source_shown (self->analysis, self->shown_view == g_intern_static_string ("source"));
}

/* A caller or callee activated, or a function picked in the list. */
static void
callers_function_activated (SpCallersView *view,
                            guint function,
                            SpWindow *self)
{
  sp_analysis_set_focus (self->analysis, function);
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

static void
thread_toggled (SpThreadList *list,
                guint thread,
                gboolean shown,
                SpWindow *self)
{
  sp_analysis_set_thread_hidden (self->analysis, thread, !shown);
}

static void
metric_changed (SpMetricSelector *selector,
                SpWindow *self)
{
  sp_analysis_set_metric (self->analysis, sp_metric_selector_get_metric (selector));
}

static void
timeline_selection_changed (SpTimelineView *timeline,
                            SpWindow *self)
{
  guint64 from, to;

  sp_timeline_view_get_selection (timeline, &from, &to);
  sp_analysis_set_time_range (self->analysis, from, to);
}

/* ---- The window ---------------------------------------------------------- */

static void
sp_window_dispose (GObject *object)
{
  SpWindow *self = SP_WINDOW (object);

  /* A worker may still run: the analysis outlives the window until it is
   * done, and says nothing more to it. */
  if (self->timeline_view != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->timeline_view, self);
      clear_views (self);
    }
  if (self->analysis != NULL)
    g_signal_handlers_disconnect_by_data (self->analysis, self);
  _sp_window_debuginfod_dispose (self);
  _sp_window_export_dispose (self);
  _sp_window_open_dispose (self);
  g_clear_object (&self->analysis);
  g_clear_object (&self->file);
  g_clear_pointer (&self->index, sp_sample_index_unref);
  g_clear_pointer (&self->threads, g_array_unref);
  _sp_window_recording_dispose (self);
  G_OBJECT_CLASS (sp_window_parent_class)->dispose (object);
}

static void
bind_template (GtkWidgetClass *widget_class)
{
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
  gtk_widget_class_bind_template_child (widget_class, SpWindow, metric_selector);
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
  gtk_widget_class_bind_template_child (widget_class, SpWindow, offcpu_bar);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, offcpu_label);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, offcpu_button);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, problems_button);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, problems_label);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, callers_view);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, call_tree_scroller);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, flame_graph_scroller);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, bottom_up_scroller);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, timeline_scroller);
}

static void
sp_window_class_init (SpWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_window_dispose;
  g_type_ensure (SP_TYPE_RECENT_LIST);
  g_type_ensure (SP_TYPE_CALLERS_VIEW);
  g_type_ensure (SP_TYPE_THREAD_LIST);
  g_type_ensure (SP_TYPE_METRIC_SELECTOR);
  bind_template (widget_class);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_activated);
  gtk_widget_class_install_action (widget_class, "win.find", NULL, find_activated);
  gtk_widget_class_install_action (widget_class, "win.show-callers", NULL, show_page_activated);
  gtk_widget_class_install_action (widget_class, "win.show-summary", NULL, show_page_activated);
  _sp_window_open_class_init (widget_class);
  _sp_window_recording_class_init (widget_class);
  _sp_window_transforms_class_init (widget_class);
  _sp_window_source_class_init (widget_class);
  _sp_window_compare_class_init (widget_class);
  _sp_window_export_class_init (widget_class);
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

/* The views made in code, in their scrollers, with the transform menu. */
static void
add_views (SpWindow *self)
{
  self->call_tree_view = sp_call_tree_view_new ();
  gtk_scrolled_window_set_child (self->call_tree_scroller, GTK_WIDGET (self->call_tree_view));
  self->bottom_up_view = sp_call_tree_view_new ();
  gtk_scrolled_window_set_child (self->bottom_up_scroller, GTK_WIDGET (self->bottom_up_view));
  self->timeline_view = sp_timeline_view_new ();
  gtk_scrolled_window_set_child (self->timeline_scroller, GTK_WIDGET (self->timeline_view));
  /* A click gives the timeline the focus: its viewport must not scroll
   * the whole widget "into view" (to its last lanes). */
  gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (gtk_scrolled_window_get_child (self->timeline_scroller)), FALSE);
  self->flame_graph = sp_flame_graph_new ();
  gtk_scrolled_window_set_child (self->flame_graph_scroller, GTK_WIDGET (self->flame_graph));
  sp_call_tree_view_set_context_menu (self->call_tree_view, self->transform_menu);
  sp_call_tree_view_set_context_menu (self->bottom_up_view, self->transform_menu);
  sp_flame_graph_set_context_menu (self->flame_graph, self->transform_menu);
  sp_callers_view_set_context_menu (self->callers_view, self->transform_menu);
}

/* The window's analysis (taking the reference): its results reach the
 * views through the window. */
static void
set_analysis (SpWindow *self,
              SpAnalysis *analysis)
{
  if (self->analysis != NULL)
    g_signal_handlers_disconnect_by_data (self->analysis, self);
  g_clear_object (&self->analysis);
  self->analysis = analysis;
  g_signal_connect (self->analysis, "result", G_CALLBACK (analysis_result), self);
  g_signal_connect (self->analysis, "failed", G_CALLBACK (analysis_failed), self);
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
  set_analysis (self, sp_analysis_new ());
  add_views (self);
  _sp_window_source_init (self);
  _sp_window_system_init (self);
  self->shown_view = g_intern_string (gtk_stack_get_visible_child_name (self->views));
  g_signal_connect (self->views, "notify::visible-child-name", G_CALLBACK (view_changed), self);
  g_signal_connect (self->callers_view, "function-activated", G_CALLBACK (callers_function_activated), self);
  g_signal_connect (self->timeline_view, "selection-changed", G_CALLBACK (timeline_selection_changed), self);
  g_signal_connect (self->thread_list, "thread-toggled", G_CALLBACK (thread_toggled), self);
  g_signal_connect (self->metric_selector, "changed", G_CALLBACK (metric_changed), self);
  g_signal_connect (self->search_entry, "search-changed", G_CALLBACK (search_changed), self);
  g_signal_connect (self->search_entry, "activate", G_CALLBACK (search_activated), self);
  g_signal_connect (self->icicle_button, "toggled", G_CALLBACK (icicle_toggled), self);
  g_signal_connect (self->recent_list, "open", G_CALLBACK (recent_open), self);
  g_signal_connect (target, "drop", G_CALLBACK (drop_file), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
  _sp_window_update_actions (self);
}

SpWindow *
sp_window_new (SpApplication *app)
{
  return g_object_new (SP_TYPE_WINDOW, "application", app, NULL);
}

SpWindow *
sp_window_new_reading (SpApplication *app,
                       SpAnalysis *analysis)
{
  SpWindow *self = sp_window_new (app);

  set_analysis (self, g_object_ref (analysis));
  return self;
}
