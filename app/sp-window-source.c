/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-source.c: the Source page's wiring.
 *
 * "Show Source" (the views' menu, Ctrl+U, a double-click in the call
 * trees) asks the Source page (ui/sp-source-view.c) for the function
 * selected on the page shown, and shows the page; the page's requests (a
 * callee, Back, another place, a folder for a missing file) go to the
 * analysis, whose results bring the annotation back. */
#include "sp-window-private.h"

/* The function selected on the page shown (its path's last), or
 * SP_FUNCTION_LIST_ROOT. */
static guint32
selected_function (SpWindow *self)
{
  gboolean top_down;
  g_autoptr (GArray) path = _sp_window_selected_path (self, &top_down);

  if (path == NULL || path->len == 0)
    return SP_FUNCTION_LIST_ROOT;
  return g_array_index (path, guint32, path->len - 1);
}

/* Shows the Source page with function (none: as it was). */
static void
show_source_of (SpWindow *self,
                guint32 function)
{
  if (function != SP_FUNCTION_LIST_ROOT)
    sp_source_view_show_function (self->source_view, function);
  gtk_stack_set_visible_child_name (self->views, "source");
  gtk_widget_grab_focus (GTK_WIDGET (self->source_view));
}

static void
show_source_activated (GtkWidget *widget,
                       const char *action_name,
                       GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);

  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->views), "source") == 0)
    return;
  show_source_of (self, selected_function (self));
}

/* A double-click (or Enter) on a row of the call tree or the bottom-up
 * tree selects it first: the selection is the function. */
static void
tree_node_activated (SpCallTreeView *view,
                     guint node,
                     SpWindow *self)
{
  show_source_of (self, selected_function (self));
}

static void
source_annotate (SpSourceView *view,
                 guint function,
                 guint place,
                 SpWindow *self)
{
  sp_analysis_annotate (self->analysis, function, place);
}

static void
source_folder_chosen (SpSourceView *view,
                      const char *wanted,
                      const char *folder,
                      SpWindow *self)
{
  g_autoptr (GError) error = NULL;

  if (!sp_analysis_add_source_dir (self->analysis, wanted, folder, &error))
    g_warning ("The source folder is used, but not remembered: %s", error->message);
}

void
_sp_window_show_source (SpWindow *self,
                        SpAnalysisResult *result)
{
  if (result->source != NULL && result->source->function == sp_analysis_get_annotated (self->analysis))
    sp_source_view_set_source (self->source_view, result->source);
}

void
_sp_window_source_class_init (GtkWidgetClass *widget_class)
{
  g_type_ensure (SP_TYPE_SOURCE_VIEW);
  gtk_widget_class_bind_template_child (widget_class, SpWindow, source_view);
  gtk_widget_class_install_action (widget_class, "win.show-source", NULL, show_source_activated);
}

void
_sp_window_source_init (SpWindow *self)
{
  g_signal_connect (self->call_tree_view, "node-activated", G_CALLBACK (tree_node_activated), self);
  g_signal_connect (self->bottom_up_view, "node-activated", G_CALLBACK (tree_node_activated), self);
  g_signal_connect (self->source_view, "annotate", G_CALLBACK (source_annotate), self);
  g_signal_connect (self->source_view, "folder-chosen", G_CALLBACK (source_folder_chosen), self);
}
