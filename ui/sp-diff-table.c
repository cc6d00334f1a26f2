/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-diff-table.c: a comparison's functions or call tree as a table.
 *
 * Rows are items that name a row (function) or node of an SpDiffTree and
 * hold a reference to it, so the table needs no profile: the tree copied
 * every name it shows. Models: a store (the tree's functions, or a node's
 * children through a GtkTreeListModel), the list's search filter, the
 * column view's sorter, a single selection. */
#include "sp-diff-table.h"

#include <math.h>
#include <string.h>

#include "sp-cells-private.h"
#include "sp-context-menu-private.h"
#include "sp-tree-expander.h"

/* ---- Items ----------------------------------------------------------------- */

#define SP_TYPE_DIFF_ITEM (sp_diff_item_get_type ())
G_DECLARE_FINAL_TYPE (SpDiffItem, sp_diff_item, SP, DIFF_ITEM, GObject)

struct _SpDiffItem
{
  GObject     parent_instance;
  SpDiffTree *tree;
  guint32     index;    /* a node of tree, or a row of its functions */
  gboolean    is_node;
};

G_DEFINE_FINAL_TYPE (SpDiffItem, sp_diff_item, G_TYPE_OBJECT)

static void
sp_diff_item_finalize (GObject *object)
{
  sp_diff_tree_unref (SP_DIFF_ITEM (object)->tree);
  G_OBJECT_CLASS (sp_diff_item_parent_class)->finalize (object);
}

static void
sp_diff_item_class_init (SpDiffItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sp_diff_item_finalize;
}

static void
sp_diff_item_init (SpDiffItem *self)
{
}

static SpDiffItem *
diff_item_new (SpDiffTree *tree,
               guint32 index,
               gboolean is_node)
{
  SpDiffItem *item = g_object_new (SP_TYPE_DIFF_ITEM, NULL);

  item->tree = sp_diff_tree_ref (tree);
  item->index = index;
  item->is_node = is_node;
  return item;
}

/* What a column shows of an item. */
typedef enum {
  VALUE_NAME,
  VALUE_MODULE,
  VALUE_SELF_A,
  VALUE_SELF_B,
  VALUE_SELF_CHANGE,
  VALUE_TOTAL_A,
  VALUE_TOTAL_B,
  VALUE_TOTAL_CHANGE,
} Value;

static const SpDiffRow *
item_row (SpDiffItem *item)
{
  guint32 row = item->is_node ? item->tree->nodes[item->index].row : item->index;

  return &g_array_index (item->tree->functions, SpDiffRow, row);
}

static double
item_value (SpDiffItem *item,
            Value value)
{
  const SpDiffTreeNode *n = item->is_node ? &item->tree->nodes[item->index] : NULL;
  const SpDiffRow *r = item->is_node ? NULL : item_row (item);

  switch (value)
    {
    case VALUE_SELF_A: return n != NULL ? n->self_value_a : r->self_value_a;
    case VALUE_SELF_B: return n != NULL ? n->self_value_b : r->self_value_b;
    case VALUE_SELF_CHANGE: return n != NULL ? n->self_value_b - n->self_value_a : r->delta;
    case VALUE_TOTAL_A: return n != NULL ? n->total_value_a : r->total_value_a;
    case VALUE_TOTAL_B: return n != NULL ? n->total_value_b : r->total_value_b;
    case VALUE_TOTAL_CHANGE: return n != NULL ? n->delta : r->total_value_b - r->total_value_a;
    case VALUE_NAME:
    case VALUE_MODULE:
    default: return 0;
    }
}

static const char *
item_name (SpDiffItem *item)
{
  return item->is_node ? item->tree->nodes[item->index].name : item_row (item)->name;
}

/* Which side lacks the item: 'A', 'B' or 0. */
static char
item_missing_side (SpDiffItem *item)
{
  guint64 a = item->is_node ? item->tree->nodes[item->index].total_a : item_row (item)->total_a;
  guint64 b = item->is_node ? item->tree->nodes[item->index].total_b : item_row (item)->total_b;

  return a == 0 ? 'A' : b == 0 ? 'B' : 0;
}

/* ---- Columns ----------------------------------------------------------------- */

typedef struct {
  const char *title;
  Value       value;
} Column;

/* Each column says whether it is self (the function's own code) or total
 * (with all it calls): a bare "Before" was self in one tab and total in
 * the other. The functions lead with self, sorted by its change (the
 * report's delta); the call tree with total (the path's width in the
 * flame graph). */
static const Column function_columns[] = {
  { "Function", VALUE_NAME },
  { "Module", VALUE_MODULE },
  { "Self Before", VALUE_SELF_A },
  { "Self After", VALUE_SELF_B },
  { "Self Change", VALUE_SELF_CHANGE },
  { "Total Before", VALUE_TOTAL_A },
  { "Total After", VALUE_TOTAL_B },
  { "Total Change", VALUE_TOTAL_CHANGE },
};

static const Column tree_columns[] = {
  { "Function", VALUE_NAME },
  { "Total Before", VALUE_TOTAL_A },
  { "Total After", VALUE_TOTAL_B },
  { "Total Change", VALUE_TOTAL_CHANGE },
  { "Self Before", VALUE_SELF_A },
  { "Self After", VALUE_SELF_B },
  { "Self Change", VALUE_SELF_CHANGE },
};

struct _SpDiffTable
{
  GtkWidget           parent_instance;

  SpDiffTableKind     kind;
  GtkColumnView      *column_view;
  GListStore         *store;        /* the functions, or the root's children */
  GtkTreeListModel   *tree_model;   /* the call tree's; NULL for functions */
  GtkCustomFilter    *filter;
  GtkSingleSelection *selection;
  SpDiffTree         *tree;
  char               *filter_text;  /* casefolded; NULL: all */
};

G_DEFINE_FINAL_TYPE_WITH_CODE (SpDiffTable, sp_diff_table, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

enum {
  PROP_0,
  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

static const Column *
columns_of (SpDiffTable *self,
            guint *n)
{
  *n = self->kind == SP_DIFF_TABLE_FUNCTIONS ? G_N_ELEMENTS (function_columns) : G_N_ELEMENTS (tree_columns);
  return self->kind == SP_DIFF_TABLE_FUNCTIONS ? function_columns : tree_columns;
}

/* The row's item, whether a list's or a tree row's (a new reference). */
static SpDiffItem *
item_of (gpointer row)
{
  if (row == NULL)
    return NULL;
  if (GTK_IS_TREE_LIST_ROW (row))
    return gtk_tree_list_row_get_item (row);
  return g_object_ref (row);
}

char *
sp_diff_format_change (double delta)
{
  if (fabs (delta) < 0.05)
    return g_strdup ("0.0 pp");
  return g_strdup_printf ("%s%.1f pp", delta > 0 ? "+" : "−", fabs (delta));
}

/* What a cell says (for the name: without the side marker). */
static char *
cell_text (SpDiffItem *item,
           Value value)
{
  if (value == VALUE_NAME)
    return g_strdup (item_name (item));
  if (value == VALUE_MODULE)
    return g_strdup (item_row (item)->module);
  if (value == VALUE_SELF_CHANGE || value == VALUE_TOTAL_CHANGE)
    return sp_diff_format_change (item_value (item, value));
  return g_strdup_printf ("%.1f%%", item_value (item, value));
}

/* One side's rows say which side they are on (the change's colour is
 * change_class's). */
static char *
cell_markup (SpDiffItem *item,
             Value value)
{
  g_autofree char *text = cell_text (item, value);
  g_autofree char *escaped = g_markup_escape_text (text, -1);
  char missing = item_missing_side (item);

  if (value == VALUE_NAME && missing != 0)
    return g_strdup_printf ("%s  <span alpha=\"60%%\">(only in %c)</span>", escaped, missing == 'A' ? 'B' : 'A');
  return g_steal_pointer (&escaped);
}

/* A change's colour class: growth red, shrinking blue, as in the flame
 * graph; NULL for none. */
static const char *
change_class (SpDiffItem *item,
              Value value)
{
  if ((value != VALUE_SELF_CHANGE && value != VALUE_TOTAL_CHANGE) || fabs (item_value (item, value)) < 0.05)
    return NULL;
  return item_value (item, value) > 0 ? "sp-diff-grew" : "sp-diff-shrank";
}

/* The change colours, by style class rather than markup: on a selected
 * row (the theme's blue) the text takes the row's own colour, which
 * reads there; the sign still says which way. Once per display. */
static const char change_css[] =
  "columnview row label.sp-diff-grew { color: #c01c28; }\n"
  "columnview row label.sp-diff-shrank { color: #1c5fc0; }\n"
  "columnview row:selected label.sp-diff-grew, columnview row:selected label.sp-diff-shrank"
  " { color: inherit; font-weight: bold; }\n";

static void
add_change_style (GtkWidget *widget)
{
  GdkDisplay *display = gtk_widget_get_display (widget);
  GtkCssProvider *provider;

  if (g_object_get_data (G_OBJECT (display), "sp-diff-table-css") != NULL)
    return;
  provider = gtk_css_provider_new ();
  gtk_css_provider_load_from_data (provider, change_css, -1);
  gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (provider),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_object_set_data_full (G_OBJECT (display), "sp-diff-table-css", provider, g_object_unref);
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem *list_item,
            gpointer data)
{
  Value value = GPOINTER_TO_INT (data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), value == VALUE_NAME || value == VALUE_MODULE ? 0 : 1);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (value == VALUE_NAME && g_object_get_data (G_OBJECT (factory), "tree") != NULL)
    {
      GtkWidget *expander = sp_tree_expander_new ();

      sp_tree_expander_set_child (SP_TREE_EXPANDER (expander), label);
      gtk_list_item_set_child (list_item, expander);
    }
  else
    gtk_list_item_set_child (list_item, label);
  _sp_context_menu_remember_item (gtk_list_item_get_child (list_item), list_item);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem *list_item,
           gpointer data)
{
  Value value = GPOINTER_TO_INT (data);
  gpointer row = gtk_list_item_get_item (list_item);
  g_autoptr (SpDiffItem) item = item_of (row);
  GtkWidget *child = gtk_list_item_get_child (list_item);
  g_autofree char *markup = NULL;

  if (item == NULL)
    return;
  if (SP_IS_TREE_EXPANDER (child))
    {
      sp_tree_expander_set_list_row (SP_TREE_EXPANDER (child), row);
      child = sp_tree_expander_get_child (SP_TREE_EXPANDER (child));
    }
  markup = cell_markup (item, value);
  gtk_label_set_markup (GTK_LABEL (child), markup);
  gtk_widget_remove_css_class (child, "sp-diff-grew");
  gtk_widget_remove_css_class (child, "sp-diff-shrank");
  if (change_class (item, value) != NULL)
    gtk_widget_add_css_class (child, change_class (item, value));
  if (value == VALUE_NAME)
    gtk_widget_set_tooltip_text (child, item_name (item));
}

/* Numbers descending by default; a change by its size, then its sign. */
static int
compare_items (gconstpointer x,
               gconstpointer y,
               gpointer data)
{
  Value value = GPOINTER_TO_INT (data);
  g_autoptr (SpDiffItem) a = item_of ((gpointer) x);
  g_autoptr (SpDiffItem) b = item_of ((gpointer) y);
  double va, vb;

  if (value == VALUE_NAME)
    return g_strcmp0 (item_name (a), item_name (b));
  if (value == VALUE_MODULE)
    return g_strcmp0 (item_row (a)->module, item_row (b)->module);
  va = item_value (a, value);
  vb = item_value (b, value);
  if (value == VALUE_SELF_CHANGE || value == VALUE_TOTAL_CHANGE)
    {
      if (fabs (va) != fabs (vb))
        return fabs (va) < fabs (vb) ? -1 : 1;
    }
  return va < vb ? -1 : va > vb ? 1 : 0;
}

static GtkColumnViewColumn *
add_column (SpDiffTable *self,
            const Column *column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *view_column;
  GtkCustomSorter *sorter = gtk_custom_sorter_new (compare_items, GINT_TO_POINTER (column->value), NULL);

  if (self->kind == SP_DIFF_TABLE_CALL_TREE)
    g_object_set_data (G_OBJECT (factory), "tree", GINT_TO_POINTER (1));
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (column->value));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (column->value));
  view_column = gtk_column_view_column_new (column->title, factory);
  gtk_column_view_column_set_sorter (view_column, GTK_SORTER (sorter));
  g_object_unref (sorter);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  if (column->value == VALUE_NAME)
    gtk_column_view_column_set_expand (view_column, TRUE);
  else
    gtk_column_view_column_set_fixed_width (view_column, column->value == VALUE_MODULE ? 150 : 105);
  gtk_column_view_append_column (self->column_view, view_column);
  g_object_unref (view_column);
  return view_column;
}

static GtkColumnViewColumn *
column_titled (SpDiffTable *self,
               const char *title)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return column;
    }
  return NULL;
}

/* ---- Models ------------------------------------------------------------------ */

static GListModel *
node_children (gpointer row_item,
               gpointer data)
{
  SpDiffItem *item = row_item;
  GListStore *store;

  if (item->tree->nodes[item->index].first_child == SP_DIFF_TREE_NONE)
    return NULL;
  store = g_list_store_new (SP_TYPE_DIFF_ITEM);
  for (guint32 c = item->tree->nodes[item->index].first_child; c != SP_DIFF_TREE_NONE;
       c = item->tree->nodes[c].next_sibling)
    {
      g_autoptr (SpDiffItem) child = diff_item_new (item->tree, c, TRUE);

      g_list_store_append (store, child);
    }
  return G_LIST_MODEL (store);
}

static gboolean
matches_filter (gpointer row,
                gpointer data)
{
  SpDiffTable *self = data;
  g_autoptr (SpDiffItem) item = item_of (row);
  g_autofree char *name = NULL;

  if (self->filter_text == NULL)
    return TRUE;
  name = g_utf8_casefold (item_name (item), -1);
  return strstr (name, self->filter_text) != NULL;
}

/* A new order: the list starts at its first row again. */
static void
sorted_again (GtkSorter *sorter,
              GtkSorterChange change,
              SpDiffTable *self)
{
  _sp_cells_scroll_to_top (self->column_view);
}

static void
make_models (SpDiffTable *self)
{
  GListModel *rows;
  GtkSorter *sorter = g_object_ref (gtk_column_view_get_sorter (self->column_view));
  GtkSortListModel *sorted;

  self->store = g_list_store_new (SP_TYPE_DIFF_ITEM);
  if (self->kind == SP_DIFF_TABLE_CALL_TREE)
    {
      self->tree_model = gtk_tree_list_model_new (G_LIST_MODEL (g_object_ref (self->store)), FALSE, FALSE,
                                                  node_children, NULL, NULL);
      rows = G_LIST_MODEL (g_object_ref (self->tree_model));
      sorter = GTK_SORTER (gtk_tree_list_row_sorter_new (sorter));
    }
  else
    {
      self->filter = gtk_custom_filter_new (matches_filter, self, NULL);
      rows = G_LIST_MODEL (gtk_filter_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                                      GTK_FILTER (g_object_ref (self->filter))));
    }
  sorted = gtk_sort_list_model_new (rows, sorter);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  /* After the sort model's own handler: the rows are in their new order. */
  g_signal_connect_object (gtk_column_view_get_sorter (self->column_view), "changed", G_CALLBACK (sorted_again),
                           self, 0);
}

/* ---- The call tree's open rows ------------------------------------------------- */

/* The names from the root to node, as one string. */
static char *
node_path_key (const SpDiffTree *tree,
               guint32 node)
{
  GString *key = g_string_new (NULL);

  for (; node != 0 && node != SP_DIFF_TREE_NONE; node = tree->nodes[node].parent)
    {
      g_autofree char *step = g_strdup_printf ("%s\x1e%s\x1f", tree->nodes[node].module, tree->nodes[node].name);

      g_string_prepend (key, step);
    }
  return g_string_free (key, FALSE);
}

/* The open rows' paths. */
static GHashTable *
open_paths (SpDiffTable *self)
{
  GHashTable *open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GListModel *rows = G_LIST_MODEL (self->tree_model);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (SpDiffItem) item = gtk_tree_list_row_get_item (row);

      if (gtk_tree_list_row_get_expanded (row))
        g_hash_table_add (open, node_path_key (item->tree, item->index));
    }
  return open;
}

static void
reopen (SpDiffTable *self,
        GHashTable *open)
{
  GListModel *rows = G_LIST_MODEL (self->tree_model);

  /* Opening a row adds its children after it: the loop meets them. */
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (SpDiffItem) item = gtk_tree_list_row_get_item (row);
      g_autofree char *key = node_path_key (item->tree, item->index);

      if (g_hash_table_contains (open, key))
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
}

/* The position as shown of row (an item of the tree or list model). */
static guint
shown_position (SpDiffTable *self,
                gpointer row)
{
  GListModel *shown = G_LIST_MODEL (self->selection);

  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (shown, i);

      if (item == row)
        return i;
    }
  return GTK_INVALID_LIST_POSITION;
}

/* Opens node's ancestors and selects it. */
static void
reveal_node (SpDiffTable *self,
             guint32 node)
{
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  GListModel *rows = G_LIST_MODEL (self->tree_model);
  g_autoptr (GtkTreeListRow) found = NULL;
  guint from = 0;

  for (guint32 n = node; n != 0; n = self->tree->nodes[n].parent)
    g_array_prepend_val (path, n);
  for (guint depth = 0; depth < path->len; depth++)
    for (guint i = from; i < g_list_model_get_n_items (rows); i++)
      {
        g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
        g_autoptr (SpDiffItem) item = gtk_tree_list_row_get_item (row);

        if (gtk_tree_list_row_get_depth (row) == depth && item->index == g_array_index (path, guint32, depth))
          {
            if (depth + 1 < path->len)
              gtk_tree_list_row_set_expanded (row, TRUE);
            else
              found = g_object_ref (row);
            from = i + 1;
            break;
          }
      }
  if (found != NULL)
    {
      gtk_single_selection_set_selected (self->selection, shown_position (self, found));
      _sp_cells_scroll_to_selected (self->column_view);
    }
}

/* The node that changed most, to open the tree at. */
static guint32
biggest_change (const SpDiffTree *tree)
{
  guint32 best = 0;

  for (guint i = 1; i < tree->n_nodes; i++)
    if (best == 0 || fabs (tree->nodes[i].delta) > fabs (tree->nodes[best].delta))
      best = i;
  return best;
}

void
sp_diff_table_set_tree (SpDiffTable *self,
                        SpDiffTree *tree)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr (GHashTable) open = NULL;
  gboolean first;

  g_return_if_fail (SP_IS_DIFF_TABLE (self));

  first = self->tree == NULL;
  if (self->tree_model != NULL && !first)
    open = open_paths (self);
  if (tree != NULL)
    sp_diff_tree_ref (tree);
  g_clear_pointer (&self->tree, sp_diff_tree_unref);
  self->tree = tree;
  if (tree != NULL && self->kind == SP_DIFF_TABLE_FUNCTIONS)
    for (guint i = 0; i < tree->functions->len; i++)
      g_ptr_array_add (items, diff_item_new (tree, i, FALSE));
  else if (tree != NULL)
    for (guint32 c = tree->nodes[0].first_child; c != SP_DIFF_TREE_NONE; c = tree->nodes[c].next_sibling)
      g_ptr_array_add (items, diff_item_new (tree, c, TRUE));
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)), items->pdata,
                       items->len);
  if (open != NULL)
    reopen (self, open);
  else if (tree != NULL && tree->n_nodes > 1 && self->tree_model != NULL)
    reveal_node (self, biggest_change (tree));
}

void
sp_diff_table_set_filter (SpDiffTable *self,
                          const char *text)
{
  g_return_if_fail (SP_IS_DIFF_TABLE (self));

  g_clear_pointer (&self->filter_text, g_free);
  if (text != NULL && text[0] != '\0')
    self->filter_text = g_utf8_casefold (text, -1);
  if (self->filter != NULL)
    {
      gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
      _sp_cells_scroll_to_top (self->column_view);
    }
}

static gboolean
name_matches (const char *name,
              const char *folded)
{
  g_autofree char *name_folded = g_utf8_casefold (name, -1);

  return strstr (name_folded, folded) != NULL;
}

/* The call tree: the next node in the tree's order (parents first). */
static gboolean
search_tree (SpDiffTable *self,
             const char *folded)
{
  g_autoptr (SpDiffItem) selected = item_of (gtk_single_selection_get_selected_item (self->selection));
  guint32 start = selected != NULL ? selected->index : 0;

  for (guint step = 1; step < self->tree->n_nodes; step++)
    {
      guint32 node = (start + step) % self->tree->n_nodes;

      if (node != 0 && name_matches (self->tree->nodes[node].name, folded))
        {
          reveal_node (self, node);
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
sp_diff_table_search_next (SpDiffTable *self,
                           const char *text)
{
  g_autofree char *folded = NULL;
  GListModel *shown;
  guint n, selected;

  g_return_val_if_fail (SP_IS_DIFF_TABLE (self), FALSE);

  if (self->tree == NULL || text == NULL || text[0] == '\0')
    return FALSE;
  folded = g_utf8_casefold (text, -1);
  if (self->kind == SP_DIFF_TABLE_CALL_TREE)
    return search_tree (self, folded);
  shown = G_LIST_MODEL (self->selection);
  n = g_list_model_get_n_items (shown);
  selected = gtk_single_selection_get_selected (self->selection);
  for (guint step = 1; step <= n; step++)
    {
      guint position = selected == GTK_INVALID_LIST_POSITION ? step - 1 : (selected + step) % n;
      g_autoptr (GObject) row = g_list_model_get_item (shown, position);
      g_autoptr (SpDiffItem) item = item_of (row);

      if (name_matches (item_name (item), folded))
        {
          gtk_single_selection_set_selected (self->selection, position);
          _sp_cells_scroll_to_selected (self->column_view);
          return TRUE;
        }
    }
  return FALSE;
}

static gboolean
select_at (GtkWidget *widget,
           double x,
           double y)
{
  return _sp_context_menu_select_row_at (widget, SP_DIFF_TABLE (widget)->selection, x, y);
}

void
sp_diff_table_set_context_menu (SpDiffTable *self,
                                GMenuModel *menu)
{
  g_return_if_fail (SP_IS_DIFF_TABLE (self));

  _sp_context_menu_set_model (GTK_WIDGET (self), menu, select_at);
}

gboolean
sp_diff_table_get_selected (SpDiffTable *self,
                            guint32 *function_a,
                            guint32 *function_b)
{
  g_autoptr (SpDiffItem) item = NULL;

  g_return_val_if_fail (SP_IS_DIFF_TABLE (self), FALSE);

  item = item_of (gtk_single_selection_get_selected_item (self->selection));
  if (item == NULL)
    return FALSE;
  *function_a = item->is_node ? item->tree->nodes[item->index].function_a : item_row (item)->function_a;
  *function_b = item->is_node ? item->tree->nodes[item->index].function_b : item_row (item)->function_b;
  return TRUE;
}

guint
sp_diff_table_get_n_rows (SpDiffTable *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->selection));
}

const char *
sp_diff_table_get_row_name (SpDiffTable *self,
                            guint position)
{
  g_autoptr (GObject) row = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  g_autoptr (SpDiffItem) item = item_of (row);

  /* The tree, which the table holds, owns the name. */
  return item != NULL ? item_name (item) : NULL;
}

char *
sp_diff_table_get_row_text (SpDiffTable *self,
                            guint position,
                            const char *title)
{
  g_autoptr (GObject) row = g_list_model_get_item (G_LIST_MODEL (self->selection), position);
  g_autoptr (SpDiffItem) item = item_of (row);
  const Column *columns;
  guint n;

  columns = columns_of (self, &n);
  for (guint i = 0; item != NULL && i < n; i++)
    if (g_str_equal (columns[i].title, title))
      return cell_text (item, columns[i].value);
  return NULL;
}

void
sp_diff_table_sort_by (SpDiffTable *self,
                       const char *title,
                       gboolean descending)
{
  gtk_column_view_sort_by_column (self->column_view, column_titled (self, title),
                                  descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
}

/* ---- The widget ------------------------------------------------------------------ */

static void
sp_diff_table_dispose (GObject *object)
{
  SpDiffTable *self = SP_DIFF_TABLE (object);

  _sp_context_menu_clear (GTK_WIDGET (self));
  /* The columns going change the sorter: no scroll of a view that goes. */
  if (self->column_view != NULL)
    g_signal_handlers_disconnect_by_func (gtk_column_view_get_sorter (self->column_view), sorted_again, self);
  g_clear_pointer ((GtkWidget **) &self->column_view, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->tree_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->store);
  g_clear_pointer (&self->tree, sp_diff_tree_unref);
  g_clear_pointer (&self->filter_text, g_free);
  G_OBJECT_CLASS (sp_diff_table_parent_class)->dispose (object);
}

/* The scrollable's properties go to the column view inside. */
static void
sp_diff_table_get_property (GObject *object,
                            guint prop_id,
                            GValue *value,
                            GParamSpec *pspec)
{
  g_object_get_property (G_OBJECT (SP_DIFF_TABLE (object)->column_view), pspec->name, value);
}

static void
sp_diff_table_set_property (GObject *object,
                            guint prop_id,
                            const GValue *value,
                            GParamSpec *pspec)
{
  g_object_set_property (G_OBJECT (SP_DIFF_TABLE (object)->column_view), pspec->name, value);
}

static void
sp_diff_table_class_init (SpDiffTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sp_diff_table_dispose;
  object_class->get_property = sp_diff_table_get_property;
  object_class->set_property = sp_diff_table_set_property;
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
sp_diff_table_init (SpDiffTable *self)
{
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->column_view, TRUE);
  gtk_widget_set_parent (GTK_WIDGET (self->column_view), GTK_WIDGET (self));
  add_change_style (GTK_WIDGET (self));
}

SpDiffTable *
sp_diff_table_new (SpDiffTableKind kind)
{
  SpDiffTable *self = g_object_new (SP_TYPE_DIFF_TABLE, NULL);
  const Column *columns;
  guint n;

  self->kind = kind;
  columns = columns_of (self, &n);
  for (guint i = 0; i < n; i++)
    add_column (self, &columns[i]);
  make_models (self);
  sp_diff_table_sort_by (self, kind == SP_DIFF_TABLE_FUNCTIONS ? "Self Change" : "Total After", TRUE);
  return self;
}
