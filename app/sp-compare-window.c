/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-compare-window.c: A and B side by side in time, compared in the views.
 *
 * Each side is an SpAnalysis as in the main window (one worker each, its
 * own filter and timeline). The window keeps each side's last top-down
 * tree; when either brings a new one, a worker merges copies of both
 * (sp_diff_tree_build_async) and the views get the result. At most one
 * merge runs: what comes meanwhile is merged once after it, so a live B
 * (a new tree every 250 ms) never queues work. */
#include "sp-compare-window-private.h"

G_DEFINE_FINAL_TYPE (SpCompareWindow, sp_compare_window, GTK_TYPE_APPLICATION_WINDOW)

/* ---- Status -------------------------------------------------------------- */

/* Each side's problem, one line each; while a side is read, "Reading…".
 * A side that cannot be opened leaves nothing to compare: the problems
 * then take the views' place, large, instead of a line above them. */
static void
update_status (SpCompareWindow *self)
{
  g_autoptr (GString) text = g_string_new (NULL);
  gboolean failed = self->sides[0].failed || self->sides[1].failed;

  if (self->same_file)
    g_string_append (text, "A and B are the same file: every change is 0.");
  for (guint i = 0; i < 2; i++)
    {
      SpCompareSide *side = &self->sides[i];

      if (side->problem != NULL)
        g_string_append_printf (text, "%s%s", text->len > 0 ? "\n" : "", side->problem);
    }
  gtk_label_set_text (self->message, failed ? text->str : "");
  gtk_stack_set_visible_child_name (self->content, failed ? "message" : "views");
  if (text->len == 0 && self->tree == NULL && !failed)
    g_string_append (text, "Reading both recordings…");
  else if (self->sides[1].following && self->tree != NULL)
    g_string_append_printf (text, "%sB is being recorded: the comparison follows it.", text->len > 0 ? "\n" : "");
  gtk_label_set_text (self->status, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->status), text->len > 0 && !failed);
}

/* "A (before): base.spool" */
static void
update_title (SpCompareSide *side)
{
  g_autofree char *name = g_file_get_basename (side->file);
  g_autofree char *escaped = g_markup_escape_text (name, -1);
  g_autofree char *text = g_strdup_printf ("<b>%s</b> (%s): %s%s", side->letter,
                                           side->letter[0] == 'A' ? "before" : "after", escaped,
                                           side->following ? " — recording" : "");

  gtk_label_set_markup (side->title, text);
}

/* ---- Building the comparison ------------------------------------------------ */

/* The seconds the side's kept samples span (time normalization): the
 * recording's span, cut to the selected range. */
static double
span_seconds (SpCompareSide *side)
{
  const SpFilter *filter = sp_analysis_get_filter (side->analysis);
  guint64 first, last;

  if (side->index == NULL || !sp_sample_index_get_time_span (side->index, &first, &last))
    return 0;
  /* A sample stands for the interval it ends. */
  last += side->interval_us * 1000;
  first = MAX (first, filter->from_ns);
  last = MIN (last, filter->to_ns);
  return last > first ? (double) (last - first) / 1e9 : 0;
}

static void
side_for_build (SpCompareSide *side,
                SpDiffTreeSide *out)
{
  const SpFilter *filter = sp_analysis_get_filter (side->analysis);

  out->profile = side->profile;
  out->tree = sp_call_tree_copy (side->tree);
  out->span_s = span_seconds (side);
  out->count_s = filter->metric == SP_METRIC_CPU ? (double) side->interval_us / 1e6 : 1e-9;
}

static void
show_tree (SpCompareWindow *self,
           SpDiffTree *tree)
{
  g_clear_pointer (&self->tree, sp_diff_tree_unref);
  self->tree = tree;
  sp_diff_flame_set_tree (self->flame, self->sides[1].profile, tree);
  sp_diff_table_set_tree (self->functions, tree);
  sp_diff_table_set_tree (self->call_tree, tree);
  self->n_shown++;
  update_status (self);
}

static void
built (GObject *source,
       GAsyncResult *result,
       gpointer user_data)
{
  /* The window's reference, taken when the build started. */
  g_autoptr (SpCompareWindow) self = user_data;
  SpDiffTree *tree = sp_diff_tree_build_finish (result, NULL);

  self->building = FALSE;
  if (self->sides[0].analysis == NULL)
    {
      /* Closed meanwhile. */
      sp_diff_tree_unref (tree);
      return;
    }
  if (_sp_compare_apply_carried (self, tree))
    {
      /* Made without the main window's transforms: never shown. */
      sp_diff_tree_unref (tree);
      self->dirty = FALSE;
      return;
    }
  show_tree (self, tree);
  if (self->dirty)
    _sp_compare_window_rebuild (self);
}

void
_sp_compare_window_rebuild (SpCompareWindow *self)
{
  SpDiffTreeSide a, b;
  gboolean finished;

  if (self->sides[0].tree == NULL || self->sides[1].tree == NULL)
    return;
  if (self->building)
    {
      self->dirty = TRUE;
      return;
    }
  self->building = TRUE;
  self->dirty = FALSE;
  side_for_build (&self->sides[0], &a);
  side_for_build (&self->sides[1], &b);
  /* Renamed modules are found by build-id only in recordings that no
   * longer grow (the module tables are read on the merge's worker). */
  finished = !self->sides[0].following && !self->sides[1].following;
  sp_diff_tree_build_async (&a, &b, self->normalize, finished, NULL, built, g_object_ref (self));
}

/* ---- Each side's analysis ----------------------------------------------------- */

static SpCompareSide *
side_of (SpCompareWindow *self,
         SpAnalysis *analysis)
{
  return analysis == self->sides[0].analysis ? &self->sides[0] : &self->sides[1];
}

static void
show_samples (SpCompareSide *side,
              SpAnalysisResult *result)
{
  gboolean changed = result->index != NULL || result->threads != NULL;

  if (result->index != NULL)
    {
      g_clear_pointer (&side->index, sp_sample_index_unref);
      side->index = g_steal_pointer (&result->index);
    }
  if (result->threads != NULL)
    {
      g_clear_pointer (&side->threads, g_array_unref);
      side->threads = g_steal_pointer (&result->threads);
    }
  if (changed && side->index != NULL && side->threads != NULL)
    sp_timeline_view_set_samples (side->timeline, side->index, side->threads);
}

/* A damaged file is compared as far as it was read, and says so. */
static void
take_summary (SpCompareSide *side,
              const SpSpoolSummary *summary)
{
  side->interval_us = summary->sample_interval_us;
  g_clear_pointer (&side->problem, g_free);
  if (summary->damage != NULL)
    side->problem = g_strdup_printf ("%s is damaged (%s): compared as far as it could be read.", side->letter,
                                     summary->damage);
  else if (summary->n_samples == 0)
    side->problem = g_strdup_printf ("%s has no samples.", side->letter);
}

static void
analysis_result (SpAnalysis *analysis,
                 SpAnalysisResult *result,
                 SpCompareWindow *self)
{
  SpCompareSide *side = side_of (self, analysis);

  if (result->opened)
    {
      side->following = sp_analysis_is_following (analysis);
      update_title (side);
    }
  show_samples (side, result);
  if (result->have_summary)
    take_summary (side, &result->summary);
  if (result->finished)
    {
      side->following = FALSE;
      update_title (side);
    }
  if (result->call_tree != NULL)
    {
      g_clear_pointer (&side->tree, sp_call_tree_free);
      sp_profile_ref (result->profile);
      g_clear_pointer (&side->profile, sp_profile_unref);
      side->profile = result->profile;
      side->tree = g_steal_pointer (&result->call_tree);
      _sp_compare_window_rebuild (self);
    }
  update_status (self);
  _sp_compare_update_actions (self);
}

static void
analysis_failed (SpAnalysis *analysis,
                 const GError *error,
                 SpCompareWindow *self)
{
  SpCompareSide *side = side_of (self, analysis);
  g_autofree char *name = g_file_get_basename (side->file);

  side->failed = TRUE;
  g_free (side->problem);
  side->problem = g_strdup_printf ("Cannot compare: %s (%s) cannot be opened. %s", side->letter, name,
                                   error->message);
  update_status (self);
}

static void
timeline_selection_changed (SpTimelineView *timeline,
                            SpCompareWindow *self)
{
  SpCompareSide *side = timeline == self->sides[0].timeline ? &self->sides[0] : &self->sides[1];
  guint64 from, to;

  sp_timeline_view_get_selection (timeline, &from, &to);
  sp_analysis_set_time_range (side->analysis, from, to);
}

static void
normalize_changed (GtkDropDown *choice,
                   GParamSpec *pspec,
                   SpCompareWindow *self)
{
  self->normalize = gtk_drop_down_get_selected (choice) == 1 ? SP_DIFF_NORMALIZE_TIME : SP_DIFF_NORMALIZE_SHARE;
  _sp_compare_window_rebuild (self);
}

/* ---- Layout ----------------------------------------------------------------- */

/* A side's title and timeline, the timeline in a scroller of its own. */
static GtkWidget *
side_box (SpCompareWindow *self,
          SpCompareSide *side)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  side->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (side->title, 0);
  gtk_widget_set_margin_start (GTK_WIDGET (side->title), 6);
  update_title (side);
  side->timeline = sp_timeline_view_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (side->timeline));
  gtk_viewport_set_scroll_to_focus (GTK_VIEWPORT (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller))),
                                    FALSE);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  /* As tall as its lanes, up to a few: the views below get the rest. */
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (scroller), 160);
  g_signal_connect (side->timeline, "selection-changed", G_CALLBACK (timeline_selection_changed), self);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (side->title));
  gtk_box_append (GTK_BOX (box), scroller);
  return box;
}

static GtkWidget *
scrolled (GtkWidget *child)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), child);
  return scroller;
}

static GtkWidget *
header_bar (SpCompareWindow *self)
{
  GtkWidget *bar = gtk_header_bar_new ();
  GtkWidget *switcher = gtk_stack_switcher_new ();
  const char *const choices[] = { "Shares", "Time per second", NULL };

  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (switcher), self->views);
  gtk_header_bar_set_title_widget (GTK_HEADER_BAR (bar), switcher);
  self->search = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->search), "Find a function in both recordings (Enter: next)");
  g_signal_connect (self->search, "search-changed", G_CALLBACK (_sp_compare_search_changed), self);
  g_signal_connect (self->search, "activate", G_CALLBACK (_sp_compare_search_activated), self);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (bar), GTK_WIDGET (self->search));
  self->normalize_choice = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (choices));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->normalize_choice),
                               "Compare shares of each recording's samples, or time per second of each "
                               "recording (for runs of different lengths)");
  g_signal_connect (self->normalize_choice, "notify::selected", G_CALLBACK (normalize_changed), self);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (bar), GTK_WIDGET (self->normalize_choice));
  return bar;
}

static void
add_views (SpCompareWindow *self)
{
  self->views = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->views), TRUE);
  self->flame = sp_diff_flame_new ();
  self->functions = sp_diff_table_new (SP_DIFF_TABLE_FUNCTIONS);
  self->call_tree = sp_diff_table_new (SP_DIFF_TABLE_CALL_TREE);
  gtk_stack_add_titled (self->views, GTK_WIDGET (self->flame), "flame-graph", "Flame Graph");
  gtk_stack_add_titled (self->views, scrolled (GTK_WIDGET (self->functions)), "functions", "Functions");
  gtk_stack_add_titled (self->views, scrolled (GTK_WIDGET (self->call_tree)), "call-tree", "Call Tree");
  self->menu = _sp_compare_transforms_menu ();
  sp_flame_graph_set_context_menu (sp_diff_flame_get_graph (self->flame), self->menu);
  sp_diff_table_set_context_menu (self->functions, self->menu);
  sp_diff_table_set_context_menu (self->call_tree, self->menu);
}

/* The views, or in their place (nothing to compare) why not: a title and
 * the problems, centred and large enough to be seen. */
static void
add_content (SpCompareWindow *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *title = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (title), "<span size=\"x-large\" weight=\"bold\">Nothing to compare</span>");
  self->message = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->message, TRUE);
  gtk_label_set_justify (self->message, GTK_JUSTIFY_CENTER);
  gtk_label_set_max_width_chars (self->message, 80);
  gtk_label_set_selectable (self->message, TRUE);
  gtk_widget_set_valign (page, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_start (page, 24);
  gtk_widget_set_margin_end (page, 24);
  gtk_box_append (GTK_BOX (page), title);
  gtk_box_append (GTK_BOX (page), GTK_WIDGET (self->message));
  self->content = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->content), TRUE);
  gtk_stack_add_named (self->content, GTK_WIDGET (self->views), "views");
  gtk_stack_add_named (self->content, page, "message");
}

static void
sp_compare_window_dispose (GObject *object)
{
  SpCompareWindow *self = SP_COMPARE_WINDOW (object);

  for (guint i = 0; i < 2; i++)
    {
      SpCompareSide *side = &self->sides[i];

      /* A worker may still run: the analysis finishes on its own. */
      if (side->analysis != NULL)
        g_signal_handlers_disconnect_by_data (side->analysis, self);
      g_clear_object (&side->analysis);
      g_clear_object (&side->file);
      g_clear_pointer (&side->tree, sp_call_tree_free);
      g_clear_pointer (&side->profile, sp_profile_unref);
      g_clear_pointer (&side->index, sp_sample_index_unref);
      g_clear_pointer (&side->threads, g_array_unref);
      g_clear_pointer (&side->problem, g_free);
    }
  g_clear_pointer (&self->tree, sp_diff_tree_unref);
  g_clear_pointer (&self->crumbs, g_ptr_array_unref);
  g_clear_pointer (&self->carried, g_ptr_array_unref);
  g_clear_object (&self->menu);
  G_OBJECT_CLASS (sp_compare_window_parent_class)->dispose (object);
}

static void
sp_compare_window_class_init (SpCompareWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sp_compare_window_dispose;
  _sp_compare_transforms_class_init (GTK_WIDGET_CLASS (klass));
}

static void
sp_compare_window_init (SpCompareWindow *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);

  self->sides[0].letter = "A";
  self->sides[1].letter = "B";
  gtk_window_set_default_size (GTK_WINDOW (self), 1120, 760);
  add_views (self);
  gtk_window_set_titlebar (GTK_WINDOW (self), header_bar (self));
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_xalign (self->status, 0);
  gtk_widget_set_margin_start (GTK_WIDGET (self->status), 6);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->status));
  add_content (self);
  gtk_window_set_child (GTK_WINDOW (self), box);
}

/* The side's widgets and analysis, once its file is known. */
static void
open_side (SpCompareWindow *self,
           SpCompareSide *side,
           GtkBox *box,
           GFile *file)
{
  g_autofree char *path = g_file_get_path (file);

  side->file = g_object_ref (file);
  gtk_box_append (box, side_box (self, side));
  side->analysis = sp_analysis_new ();
  g_signal_connect (side->analysis, "result", G_CALLBACK (analysis_result), self);
  g_signal_connect (side->analysis, "failed", G_CALLBACK (analysis_failed), self);
  if (path == NULL)
    {
      g_autoptr (GError) error = g_error_new (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, "Only local files can be compared.");

      analysis_failed (side->analysis, error, self);
      return;
    }
  sp_analysis_open (side->analysis, path);
}

SpCompareWindow *
sp_compare_window_new (SpApplication *app,
                       GFile *a,
                       GFile *b)
{
  SpCompareWindow *self = g_object_new (SP_TYPE_COMPARE_WINDOW, "application", app, NULL);
  GtkBox *box = GTK_BOX (gtk_window_get_child (GTK_WINDOW (self)));
  g_autofree char *name_a = g_file_get_basename (a);
  g_autofree char *name_b = g_file_get_basename (b);
  g_autofree char *title = g_strdup_printf ("%s → %s — stackpulse", name_a, name_b);

  gtk_window_set_title (GTK_WINDOW (self), title);
  self->same_file = g_file_equal (a, b);
  open_side (self, &self->sides[0], box, a);
  open_side (self, &self->sides[1], box, b);
  gtk_box_append (box, gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (box, _sp_compare_breadcrumbs_new (self));
  gtk_box_append (box, GTK_WIDGET (self->content));
  update_status (self);
  _sp_compare_update_actions (self);
  return self;
}

/* ---- For tests ------------------------------------------------------------------ */

gboolean
sp_compare_window_is_settled (SpCompareWindow *self)
{
  return self->tree != NULL && !self->building && !self->dirty && !sp_analysis_is_busy (self->sides[0].analysis)
         && !sp_analysis_is_busy (self->sides[1].analysis);
}

guint
sp_compare_window_get_n_shown (SpCompareWindow *self)
{
  return self->n_shown;
}

const char *
sp_compare_window_get_status (SpCompareWindow *self)
{
  return gtk_label_get_text (self->status);
}

const char *
sp_compare_window_get_message (SpCompareWindow *self)
{
  return g_strcmp0 (gtk_stack_get_visible_child_name (self->content), "message") == 0
           ? gtk_label_get_text (self->message) : "";
}

SpDiffFlame *
sp_compare_window_get_flame (SpCompareWindow *self)
{
  return self->flame;
}

SpDiffTable *
sp_compare_window_get_functions (SpCompareWindow *self)
{
  return self->functions;
}

SpDiffTable *
sp_compare_window_get_call_tree (SpCompareWindow *self)
{
  return self->call_tree;
}

SpTimelineView *
sp_compare_window_get_timeline (SpCompareWindow *self,
                                guint side)
{
  return self->sides[side].timeline;
}

void
sp_compare_window_show_view (SpCompareWindow *self,
                             const char *view)
{
  gtk_stack_set_visible_child_name (self->views, view);
}

void
sp_compare_window_set_normalize (SpCompareWindow *self,
                                 SpDiffNormalize normalize)
{
  gtk_drop_down_set_selected (self->normalize_choice, normalize == SP_DIFF_NORMALIZE_TIME ? 1 : 0);
}
