/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-function-cells.c: the cells and sorters of a table of functions
 * (sp-function-cells-private.h). */
#include "sp-function-cells-private.h"

#include "sp-cells-private.h"
#include "sp-context-menu-private.h"
#include "sp-function-item.h"
#include "sp-name-label.h"
#include "sp-tree-expander.h"

static const struct {
  const char *title;
  const char *property;   /* the sorter's */
  gboolean    numeric;
} columns[] = {
  [SP_FUNCTION_COLUMN_NAME] = { "Function", "name", FALSE },
  [SP_FUNCTION_COLUMN_MODULE] = { "Module", "module", FALSE },
  [SP_FUNCTION_COLUMN_SELF] = { "Self", "self", TRUE },
  [SP_FUNCTION_COLUMN_TOTAL] = { "Total", "total", TRUE },
};

/* A factory's user data: the column, and whether rows are a tree's. */
#define IN_TREE 0x100
#define COLUMN_OF(data) ((SpFunctionColumn) (GPOINTER_TO_INT (data) & ~IN_TREE))

/* Set on the labels of the Self column (the others show total). */
#define SELF_CELL "sp-function-cells-self"

/* The row's item (a new reference), or NULL while unbound. */
static SpFunctionItem *
item_of (GtkListItem *list_item)
{
  gpointer row = gtk_list_item_get_item (list_item);

  if (row == NULL)
    return NULL;
  if (GTK_IS_TREE_LIST_ROW (row))
    return gtk_tree_list_row_get_item (row);
  return g_object_ref (row);
}

/* The tooltip: the function's name in full (the label may shorten it),
 * its module and where it is defined. Asked for only when shown:
 * gtk_widget_set_tooltip_text in bind costs an X round trip per row under
 * GTK 4.8 (it re-queries the pointer), and expanding the hottest path
 * rebinds the visible rows once per level. */
static gboolean
name_query_tooltip (GtkWidget *label,
                    int x,
                    int y,
                    gboolean keyboard_mode,
                    GtkTooltip *tooltip,
                    gpointer user_data)
{
  g_autoptr (SpFunctionItem) item = item_of (GTK_LIST_ITEM (user_data));
  g_autofree char *location = NULL;
  g_autofree char *text = NULL;

  if (item == NULL || _sp_context_menu_is_open (label))
    return FALSE;
  location = sp_function_item_get_location (item);
  text = _sp_cells_function_tooltip (sp_function_item_get_name (item), sp_function_item_get_module (item),
                                     location);
  _sp_cells_set_tooltip_text (tooltip, text);
  return TRUE;
}

static GtkWidget *
name_cell_new (GtkListItem *list_item,
               gboolean in_tree)
{
  GtkWidget *label = sp_name_label_new ();
  GtkWidget *expander;

  gtk_widget_set_has_tooltip (label, TRUE);
  /* The list item outlives its child label. */
  g_signal_connect (label, "query-tooltip", G_CALLBACK (name_query_tooltip), list_item);
  if (!in_tree)
    return label;
  expander = sp_tree_expander_new ();
  sp_tree_expander_set_child (SP_TREE_EXPANDER (expander), label);
  return expander;
}

static GtkWidget *
text_cell_new (SpFunctionColumn column)
{
  GtkWidget *label = gtk_label_new (NULL);

  if (column == SP_FUNCTION_COLUMN_MODULE)
    {
      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_widget_add_css_class (label, "dim-label");
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), 1.0);
      gtk_widget_add_css_class (label, "numeric");
    }
  if (column == SP_FUNCTION_COLUMN_SELF)
    g_object_set_data (G_OBJECT (label), SELF_CELL, GINT_TO_POINTER (TRUE));
  return label;
}

static void
cell_setup (GtkSignalListItemFactory *factory,
            GtkListItem *list_item,
            gpointer user_data)
{
  SpFunctionColumn column = COLUMN_OF (user_data);
  gboolean in_tree = (GPOINTER_TO_INT (user_data) & IN_TREE) != 0;
  GtkWidget *cell = column == SP_FUNCTION_COLUMN_NAME ? name_cell_new (list_item, in_tree)
                                                      : text_cell_new (column);

  gtk_list_item_set_child (list_item, cell);
  _sp_context_menu_remember_item (cell, list_item);
}

/* No unbind that clears the expander's row: a row that GTK rebinds in
 * place after an update (the same row object) would be set twice; set to
 * the same row, the expander does nothing. */
static void
bind_name (GtkListItem *list_item,
           SpFunctionItem *item)
{
  GtkWidget *cell = gtk_list_item_get_child (list_item);
  GtkWidget *label = cell;

  if (SP_IS_TREE_EXPANDER (cell))
    {
      sp_tree_expander_set_list_row (SP_TREE_EXPANDER (cell), gtk_list_item_get_item (list_item));
      label = sp_tree_expander_get_child (SP_TREE_EXPANDER (cell));
    }
  if (item == NULL)
    return;
  sp_name_label_set_name (SP_NAME_LABEL (label), sp_function_item_get_name (item));
  _sp_cells_style_function_label (label, sp_function_item_get_kind (item));
}

/* A Self or a Total cell (as its label was made for: SELF_CELL). */
static void
update_count_cell (GtkWidget *label,
                   gpointer item)
{
  g_autofree char *text = NULL;

  if (g_object_get_data (G_OBJECT (label), SELF_CELL) != NULL)
    text = _sp_cells_format_share (sp_function_item_get_self_percent (item), sp_function_item_get_self (item),
                                   sp_function_item_get_metric (item));
  else
    text = _sp_cells_format_share (sp_function_item_get_total_percent (item), sp_function_item_get_total (item),
                                   sp_function_item_get_metric (item));
  gtk_label_set_text (GTK_LABEL (label), text);
}

/* The numbers follow the item: a call tree view updating its rows in
 * place moves the items shown to a new tree's nodes, and rows GTK does
 * not rebind must still show the new counts. */
static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem *list_item,
           gpointer user_data)
{
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autoptr (SpFunctionItem) item = item_of (list_item);

  if (COLUMN_OF (user_data) == SP_FUNCTION_COLUMN_NAME)
    {
      bind_name (list_item, item);
      return;
    }
  if (item == NULL)
    return;
  switch (COLUMN_OF (user_data))
    {
    case SP_FUNCTION_COLUMN_MODULE:
      gtk_label_set_text (GTK_LABEL (label), sp_function_item_get_module (item));
      break;
    case SP_FUNCTION_COLUMN_SELF:
      update_count_cell (label, item);
      _sp_cells_follow (label, item, "self", "self-percent", update_count_cell);
      break;
    case SP_FUNCTION_COLUMN_TOTAL:
      update_count_cell (label, item);
      _sp_cells_follow (label, item, "total", "total-percent", update_count_cell);
      break;
    case SP_FUNCTION_COLUMN_NAME:
    default:
      g_assert_not_reached ();
    }
}

static void
cell_unbind (GtkSignalListItemFactory *factory,
             GtkListItem *list_item,
             gpointer user_data)
{
  if (COLUMN_OF (user_data) != SP_FUNCTION_COLUMN_NAME)
    _sp_cells_unfollow (gtk_list_item_get_child (list_item));
}

GtkColumnViewColumn *
_sp_function_cells_add_column (GtkColumnView *column_view,
                               SpFunctionColumn column,
                               gboolean in_tree)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkExpression *expression = gtk_property_expression_new (SP_TYPE_FUNCTION_ITEM, NULL, columns[column].property);
  GtkSorter *sorter = columns[column].numeric ? GTK_SORTER (gtk_numeric_sorter_new (expression))
                                              : GTK_SORTER (gtk_string_sorter_new (expression));
  gpointer data = GINT_TO_POINTER (column | (in_tree ? IN_TREE : 0));
  GtkColumnViewColumn *view_column;

  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), data);
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), data);
  g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind), data);
  view_column = gtk_column_view_column_new (columns[column].title, factory);
  gtk_column_view_column_set_sorter (view_column, sorter);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_column_set_expand (view_column, column == SP_FUNCTION_COLUMN_NAME);
  gtk_column_view_append_column (column_view, view_column);
  g_object_unref (sorter);
  g_object_unref (view_column);
  return view_column;   /* the column view holds it */
}
