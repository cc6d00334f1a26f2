/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-transforms.c: Focus, Merge, Drop, Collapse, and Undo.
 *
 * A transform applies to what is selected on the page shown; the
 * analysis keeps the transforms and re-aggregates every view, and the
 * breadcrumbs above the views say which apply, in their order. */
#include "sp-window-private.h"

#include "sp-window-testing.h"

/* "Focus: compute_alpha › Drop: read": the transforms in the order they
 * apply; Undo takes back the last. The functions named came from the
 * views' trees, so they are whole. */
void
_sp_window_update_breadcrumbs (SpWindow *self)
{
  const SpFilter *filter = sp_analysis_get_filter (self->analysis);
  SpProfile *profile = sp_analysis_get_profile (self->analysis);
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; profile != NULL && i < filter->transforms->len; i++)
    {
      const SpTransform *t = g_ptr_array_index (filter->transforms, i);
      const char *subject = t->module;

      if (subject == NULL && t->kind == SP_TRANSFORM_FOCUS_SUBTREE)
        subject = sp_profile_get_function (profile, g_array_index (t->path, guint32, t->path->len - 1))->name;
      else if (subject == NULL)
        subject = sp_profile_get_function (profile, t->function)->name;
      g_string_append_printf (text, "%s%s: %s", i > 0 ? "  ›  " : "", sp_transform_kind_label (t->kind), subject);
    }
  gtk_label_set_text (self->breadcrumb_label, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->breadcrumbs), text->len > 0);
  _sp_window_update_actions (self);
}

/* What a transform applies to on the page shown: the function path of
 * the row or frame selected there, root first (*top_down), or a function
 * alone (bottom-up, callers and callees); NULL for nothing. Elsewhere,
 * and in a flame graph nobody clicked yet, the call tree's selection. */
GArray *
_sp_window_selected_path (SpWindow *self,
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
  SpProfile *profile = sp_analysis_get_profile (self->analysis);
  gboolean top_down;
  g_autoptr (GArray) path = profile != NULL ? _sp_window_selected_path (self, &top_down) : NULL;
  guint32 function;

  if (path == NULL || path->len == 0)
    return FALSE;
  function = g_array_index (path, guint32, path->len - 1);
  if (kind == SP_TRANSFORM_FOCUS_SUBTREE && top_down)
    sp_analysis_add_focus_subtree (self->analysis, (const guint32 *) path->data, path->len);
  else if (kind == SP_TRANSFORM_FOCUS_SUBTREE)
    sp_analysis_add_function_transform (self->analysis, SP_TRANSFORM_FOCUS_FUNCTION, function);
  else if (kind == SP_TRANSFORM_COLLAPSE_MODULE)
    {
      const char *module = sp_profile_get_function (profile, function)->module;

      if (module[0] == '\0')
        return FALSE;
      sp_analysis_add_collapse_module (self->analysis, module);
    }
  else
    sp_analysis_add_function_transform (self->analysis, kind, function);
  _sp_window_update_breadcrumbs (self);
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

  sp_analysis_pop_transform (self->analysis, g_str_equal (action_name, "win.transform-clear"));
  _sp_window_update_breadcrumbs (self);
}

void
_sp_window_transforms_class_init (GtkWidgetClass *widget_class)
{
  static const char *const actions[] = {
    "win.transform-focus", "win.transform-focus-subtree", "win.transform-merge", "win.transform-drop",
    "win.transform-collapse-module", "win.transform-collapse-recursion",
  };

  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    gtk_widget_class_install_action (widget_class, actions[i], NULL, transform_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-undo", NULL, transform_undo_activated);
  gtk_widget_class_install_action (widget_class, "win.transform-clear", NULL, transform_undo_activated);
}
