/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-compare-transforms.c: transforms and search, on both sides alike.
 *
 * A transform names a function, which each profile knows by its own id:
 * the comparison's rows carry both (function_a, function_b), so each
 * analysis gets its own. A side without the function gets a transform of
 * an id no stack has: focusing on it keeps nothing (the function is not
 * there), merging or dropping it changes nothing, and Undo takes back one
 * transform on each side, in step. The breadcrumbs above the views name
 * the transforms in their order, as the main window's do. */
#include "sp-compare-window-private.h"

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

/* The name of the comparison's function with these ids (its row's). */
static const char *
function_name (SpCompareWindow *self,
               guint32 function_a,
               guint32 function_b)
{
  for (guint i = 0; self->tree != NULL && i < self->tree->functions->len; i++)
    {
      const SpDiffRow *row = &g_array_index (self->tree->functions, SpDiffRow, i);

      if (row->function_a == function_a && row->function_b == function_b)
        return row->name;
    }
  return "?";
}

/* ---- Breadcrumbs ------------------------------------------------------------ */

/* "Merge: mix  ›  Drop: light": the transforms in the order they apply;
 * Undo takes back the last, Clear all. */
static void
update_breadcrumbs (SpCompareWindow *self)
{
  g_autofree char *text = NULL;

  g_ptr_array_add (self->crumbs, NULL);
  text = g_strjoinv ("  ›  ", (char **) self->crumbs->pdata);
  g_ptr_array_set_size (self->crumbs, self->crumbs->len - 1);
  gtk_label_set_text (self->breadcrumb_label, text);
  gtk_widget_set_visible (self->breadcrumbs, self->crumbs->len > 0);
}

void
_sp_compare_add_crumb (SpCompareWindow *self,
                       SpTransformKind kind,
                       const char *subject)
{
  g_ptr_array_add (self->crumbs, g_strdup_printf ("%s: %s", sp_transform_kind_label (kind), subject));
  update_breadcrumbs (self);
  _sp_compare_update_actions (self);
}

GtkWidget *
_sp_compare_breadcrumbs_new (SpCompareWindow *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

  self->crumbs = g_ptr_array_new_with_free_func (g_free);
  self->breadcrumb_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_set_hexpand (GTK_WIDGET (self->breadcrumb_label), TRUE);
  gtk_label_set_xalign (self->breadcrumb_label, 0);
  gtk_label_set_ellipsize (self->breadcrumb_label, PANGO_ELLIPSIZE_END);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->breadcrumb_label), "Transforms applied to both recordings");
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->breadcrumb_label));
  gtk_box_append (GTK_BOX (bar), g_object_new (GTK_TYPE_BUTTON, "label", "Undo", "action-name", "compare.undo", NULL));
  gtk_box_append (GTK_BOX (bar), g_object_new (GTK_TYPE_BUTTON, "label", "Clear", "action-name", "compare.clear", NULL));
  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 12);
  gtk_widget_set_margin_top (bar, 4);
  gtk_widget_set_margin_bottom (bar, 4);
  gtk_widget_set_visible (bar, FALSE);
  self->breadcrumbs = bar;
  return bar;
}

const char *
sp_compare_window_get_breadcrumbs (SpCompareWindow *self)
{
  return gtk_widget_get_visible (self->breadcrumbs) ? gtk_label_get_text (self->breadcrumb_label) : "";
}

/* ---- Transforms ------------------------------------------------------------- */

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
                                        ids[i] != SP_DIFF_NONE ? ids[i] : SP_COMPARE_NO_SUCH_FUNCTION);
  _sp_compare_add_crumb (self, kind, function_name (self, ids[0], ids[1]));
  return TRUE;
}

/* Takes back the last transform, or all of them, on both sides. */
static void
pop_transforms (SpCompareWindow *self,
                gboolean all)
{
  if (self->crumbs->len == 0)
    return;
  for (guint i = 0; i < 2; i++)
    sp_analysis_pop_transform (self->sides[i].analysis, all);
  g_ptr_array_set_size (self->crumbs, all ? 0 : self->crumbs->len - 1);
  update_breadcrumbs (self);
  _sp_compare_update_actions (self);
}

void
sp_compare_window_undo_transform (SpCompareWindow *self)
{
  pop_transforms (self, FALSE);
}

static void
transform_activated (GtkWidget *widget,
                     const char *action_name,
                     GVariant *parameter)
{
  SpCompareWindow *self = SP_COMPARE_WINDOW (widget);

  if (g_str_equal (action_name, "compare.undo") || g_str_equal (action_name, "compare.clear"))
    pop_transforms (self, g_str_equal (action_name, "compare.clear"));
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
  gtk_widget_action_set_enabled (widget, "compare.undo", both && self->crumbs->len > 0);
  gtk_widget_action_set_enabled (widget, "compare.clear", both && self->crumbs->len > 0);
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
  static const char *const names[] = { "compare.focus", "compare.merge", "compare.drop", "compare.undo",
                                       "compare.clear" };

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
