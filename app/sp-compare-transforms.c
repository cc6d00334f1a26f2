/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-compare-transforms.c: transforms and search, on both sides alike.
 *
 * A transform names a function, which each profile knows by its own id:
 * the comparison's rows carry both (function_a, function_b), so each
 * analysis gets its own. A side without the function gets a transform of
 * an id no stack has: focusing on it keeps nothing (the function is not
 * there), merging or dropping it changes nothing, and Undo takes back one
 * transform on each side, in step. */
#include "sp-compare-window-private.h"

/* No function of any profile has it: interned ids count up from 0. */
#define NO_SUCH_FUNCTION (G_MAXUINT32 - 1)

/* The selected function, on the view shown. */
static gboolean
selected_functions (SpCompareWindow *self,
                    guint32 *function_a,
                    guint32 *function_b)
{
  const char *view = gtk_stack_get_visible_child_name (self->views);
  guint32 node;

  if (g_strcmp0 (view, "functions") == 0)
    return sp_diff_table_get_selected (self->functions, function_a, function_b);
  if (g_strcmp0 (view, "call-tree") == 0)
    return sp_diff_table_get_selected (self->call_tree, function_a, function_b);
  node = sp_diff_flame_get_selected_node (self->flame);
  if (self->tree == NULL || node == SP_DIFF_TREE_NONE || node == 0)
    return FALSE;
  *function_a = self->tree->nodes[node].function_a;
  *function_b = self->tree->nodes[node].function_b;
  return TRUE;
}

gboolean
sp_compare_window_apply_transform (SpCompareWindow *self,
                                   SpTransformKind kind)
{
  guint32 ids[2];

  g_return_val_if_fail (kind == SP_TRANSFORM_FOCUS_FUNCTION || kind == SP_TRANSFORM_MERGE_FUNCTION
                        || kind == SP_TRANSFORM_DROP_FUNCTION, FALSE);

  if (!selected_functions (self, &ids[0], &ids[1]))
    return FALSE;
  for (guint i = 0; i < 2; i++)
    sp_analysis_add_function_transform (self->sides[i].analysis, kind,
                                        ids[i] != SP_DIFF_NONE ? ids[i] : NO_SUCH_FUNCTION);
  self->n_transforms++;
  _sp_compare_update_actions (self);
  return TRUE;
}

void
sp_compare_window_undo_transform (SpCompareWindow *self)
{
  if (self->n_transforms == 0)
    return;
  for (guint i = 0; i < 2; i++)
    sp_analysis_pop_transform (self->sides[i].analysis, FALSE);
  self->n_transforms--;
  _sp_compare_update_actions (self);
}

static void
transform_activated (GtkWidget *widget,
                     const char *action_name,
                     GVariant *parameter)
{
  SpCompareWindow *self = SP_COMPARE_WINDOW (widget);

  if (g_str_equal (action_name, "compare.undo"))
    sp_compare_window_undo_transform (self);
  else
    sp_compare_window_apply_transform (self, g_str_equal (action_name, "compare.focus") ? SP_TRANSFORM_FOCUS_FUNCTION
                                             : g_str_equal (action_name, "compare.merge")
                                                 ? SP_TRANSFORM_MERGE_FUNCTION
                                                 : SP_TRANSFORM_DROP_FUNCTION);
}

void
_sp_compare_update_actions (SpCompareWindow *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  gboolean both = self->sides[0].profile != NULL && self->sides[1].profile != NULL;

  gtk_widget_action_set_enabled (widget, "compare.focus", both);
  gtk_widget_action_set_enabled (widget, "compare.merge", both);
  gtk_widget_action_set_enabled (widget, "compare.drop", both);
  gtk_widget_action_set_enabled (widget, "compare.undo", both && self->n_transforms > 0);
}

GMenuModel *
_sp_compare_transforms_menu (void)
{
  GMenu *menu = g_menu_new ();
  g_autoptr (GMenu) transforms = g_menu_new ();
  g_autoptr (GMenu) undo = g_menu_new ();

  g_menu_append (transforms, "Focus on Function (both)", "compare.focus");
  g_menu_append (transforms, "Merge Function into Callers (both)", "compare.merge");
  g_menu_append (transforms, "Drop Samples with Function (both)", "compare.drop");
  g_menu_append (undo, "Undo Transform", "compare.undo");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (transforms));
  g_menu_append_section (menu, NULL, G_MENU_MODEL (undo));
  return G_MENU_MODEL (menu);
}

void
_sp_compare_transforms_class_init (GtkWidgetClass *widget_class)
{
  static const char *const names[] = { "compare.focus", "compare.merge", "compare.drop", "compare.undo" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    gtk_widget_class_install_action (widget_class, names[i], NULL, transform_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_z, GDK_CONTROL_MASK, "compare.undo", NULL);
}

/* ---- Search ----------------------------------------------------------------- */

/* As you type: the flame graph highlights, the function list narrows. */
void
_sp_compare_search_changed (GtkSearchEntry *entry,
                            SpCompareWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));

  sp_flame_graph_set_search (sp_diff_flame_get_graph (self->flame), text[0] ? text : NULL);
  sp_diff_table_set_filter (self->functions, text);
}

/* Enter: the next match on the view shown. */
void
_sp_compare_search_activated (GtkSearchEntry *entry,
                              SpCompareWindow *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  const char *view = gtk_stack_get_visible_child_name (self->views);

  if (text[0] == '\0')
    return;
  if (g_strcmp0 (view, "functions") == 0)
    sp_diff_table_search_next (self->functions, text);
  else if (g_strcmp0 (view, "call-tree") == 0)
    sp_diff_table_search_next (self->call_tree, text);
  else
    sp_flame_graph_search_next (sp_diff_flame_get_graph (self->flame), text);
}
