/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-testing.c: the calls of sp-window-testing.h, for tests and
 * benchmarks: what a user does, and the views to read. */
#include "sp-window-testing.h"

#include "sp-window-private.h"

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

SpTimelineView *
sp_window_get_timeline_view (SpWindow *self)
{
  return self->timeline_view;
}

SpCallersView *
sp_window_get_callers_view (SpWindow *self)
{
  return self->callers_view;
}

SpSourceView *
sp_window_get_source_view (SpWindow *self)
{
  return self->source_view;
}

gboolean
sp_window_is_busy (SpWindow *self)
{
  return sp_analysis_is_busy (self->analysis);
}

SpAnalysis *
sp_window_get_analysis (SpWindow *self)
{
  return self->analysis;
}

GtkFileChooser *
sp_window_get_open_chooser (SpWindow *self)
{
  return self->chooser != NULL ? GTK_FILE_CHOOSER (self->chooser) : NULL;
}
