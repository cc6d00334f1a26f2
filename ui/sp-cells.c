/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-cells.c: the cell styling the tables share (sp-cells-private.h). */
#include "sp-cells-private.h"

#include "sp-metric-format.h"
#include "sp-name-label.h"

/* The kind a label was last styled for, plus one (0: not styled yet).
 * Rebinding a row to the same function (the call tree's rows after an
 * update, sp-call-tree-view.c) leaves its label alone: setting italic
 * attributes again made GTK lay the label out again. */
#define STYLED_KIND "sp-cells-styled-kind"

void
_sp_cells_style_function_label (GtkWidget *label,
                                SpFunctionKind kind)
{
  g_autoptr (PangoAttrList) attrs = NULL;
  gboolean dim = kind == SP_FUNCTION_UNRESOLVED || kind == SP_FUNCTION_TRUNCATED;

  if (GPOINTER_TO_INT (g_object_get_data (G_OBJECT (label), STYLED_KIND)) == (int) kind + 1)
    return;
  g_object_set_data (G_OBJECT (label), STYLED_KIND, GINT_TO_POINTER ((int) kind + 1));

  if (dim)
    gtk_widget_add_css_class (label, "dim-label");
  else
    gtk_widget_remove_css_class (label, "dim-label");
  if (kind == SP_FUNCTION_KERNEL || kind == SP_FUNCTION_SYNTHETIC)
    {
      attrs = pango_attr_list_new ();
      pango_attr_list_insert (attrs, pango_attr_style_new (PANGO_STYLE_ITALIC));
    }
  if (SP_IS_NAME_LABEL (label))
    sp_name_label_set_attributes (SP_NAME_LABEL (label), attrs);
  else
    gtk_label_set_attributes (GTK_LABEL (label), attrs);
}

/* What a cell follows: the item and its notify handlers. */
typedef struct {
  GObject *item;
  gulong   handlers[2];
} Follow;

typedef void (*UpdateFunc) (GtkWidget *cell,
                            gpointer item);

static void
follow_free (gpointer data)
{
  Follow *follow = data;

  for (guint i = 0; i < G_N_ELEMENTS (follow->handlers); i++)
    if (follow->handlers[i] != 0)
      g_signal_handler_disconnect (follow->item, follow->handlers[i]);
  g_object_unref (follow->item);
  g_free (follow);
}

static void
follow_notify (GObject *item,
               GParamSpec *pspec,
               GtkWidget *cell)
{
  UpdateFunc update = g_object_get_data (G_OBJECT (cell), "sp-cells-update");

  update (cell, item);
}

static gulong
connect_notify (GObject *item,
                const char *property,
                GtkWidget *cell)
{
  g_autofree char *signal = NULL;

  if (property == NULL)
    return 0;
  signal = g_strconcat ("notify::", property, NULL);
  return g_signal_connect (item, signal, G_CALLBACK (follow_notify), cell);
}

void
_sp_cells_follow (GtkWidget *cell,
                  gpointer item,
                  const char *property1,
                  const char *property2,
                  void (*update) (GtkWidget *cell,
                                  gpointer item))
{
  Follow *follow = g_new0 (Follow, 1);

  follow->item = g_object_ref (item);
  follow->handlers[0] = connect_notify (follow->item, property1, cell);
  follow->handlers[1] = connect_notify (follow->item, property2, cell);
  g_object_set_data (G_OBJECT (cell), "sp-cells-update", update);
  g_object_set_data_full (G_OBJECT (cell), "sp-cells-follow", follow, follow_free);
}

void
_sp_cells_unfollow (GtkWidget *cell)
{
  g_object_set_data (G_OBJECT (cell), "sp-cells-follow", NULL);
}

char *
_sp_cells_function_tooltip (const char *name,
                            const char *module,
                            const char *location)
{
  GString *text = g_string_new (name);

  if (module != NULL && module[0] != '\0')
    g_string_append_printf (text, "\n%s", module);
  if (location != NULL)
    g_string_append_printf (text, "\n%s", location);
  return g_string_free (text, FALSE);
}

/* GTK's own tooltip label does not wrap a long name (a C++ name is often
 * one "word" wider than the screen), so the tooltip went off the screen's
 * edge however GTK placed it. A label of limited width that wraps, if need
 * be inside a word, keeps every tooltip narrower than the screen, and GTK
 * then slides or flips it to stay on screen. */
#define TOOLTIP_MAX_WIDTH_CHARS 80

void
_sp_cells_set_tooltip_markup (GtkTooltip *tooltip,
                              const char *markup)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_markup (GTK_LABEL (label), markup);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), TOOLTIP_MAX_WIDTH_CHARS);
  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_tooltip_set_custom (tooltip, label);
}

void
_sp_cells_set_tooltip_text (GtkTooltip *tooltip,
                            const char *text)
{
  g_autofree char *markup = g_markup_escape_text (text, -1);

  _sp_cells_set_tooltip_markup (tooltip, markup);
}

char *
_sp_cells_format_share (double percent,
                        guint64 value,
                        SpMetric metric)
{
  g_autofree char *amount = sp_metric_format_value (metric, value);

  return g_strdup_printf ("%.1f%%  (%s)", percent, amount);
}

/* A scroll waits for the list view's size (see _sp_cells_scroll_to_selected). */
#define PENDING_SCROLL "sp-cells-pending-scroll"
/* Set: the pending scroll goes to the first row, not the selected one. */
#define SCROLL_TO_TOP "sp-cells-scroll-to-top"

static GtkWidget *
list_view_of (GtkColumnView *column_view)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (column_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  return NULL;
}

static gboolean
has_size (GtkWidget *list)
{
  return gtk_widget_get_mapped (list) && gtk_widget_get_height (list) > 0;
}

static void
scroll_now (GtkColumnView *column_view,
            GtkWidget *list)
{
  GtkSelectionModel *model = gtk_column_view_get_model (column_view);
  g_autoptr (GtkBitset) selected = model != NULL ? gtk_selection_model_get_selection (model) : NULL;

  if (g_object_get_data (G_OBJECT (list), SCROLL_TO_TOP) != NULL)
    {
      if (model != NULL && g_list_model_get_n_items (G_LIST_MODEL (model)) > 0)
        gtk_widget_activate_action (list, "list.scroll-to-item", "u", 0);
      return;
    }
  /* The first selected row: a multiple selection's (the Source page's
   * instructions of a line) too. */
  if (selected != NULL && !gtk_bitset_is_empty (selected))
    gtk_widget_activate_action (list, "list.scroll-to-item", "u", gtk_bitset_get_minimum (selected));
}

/* Frames a scroll is repeated on: on the first, the rows of a model set
 * just before are not measured yet and the scroll falls short. */
#define SCROLL_FRAMES 3

static gboolean
scroll_when_sized (GtkWidget *list,
                   GdkFrameClock *clock,
                   gpointer user_data)
{
  guint frames = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (list), PENDING_SCROLL));

  if (!has_size (list))
    return G_SOURCE_CONTINUE;
  scroll_now (GTK_COLUMN_VIEW (gtk_widget_get_parent (list)), list);
  if (frames < SCROLL_FRAMES)
    {
      g_object_set_data (G_OBJECT (list), PENDING_SCROLL, GUINT_TO_POINTER (frames + 1));
      return G_SOURCE_CONTINUE;
    }
  g_object_set_data (G_OBJECT (list), PENDING_SCROLL, NULL);
  g_object_set_data (G_OBJECT (list), SCROLL_TO_TOP, NULL);
  return G_SOURCE_REMOVE;
}

/* Asks for a scroll (to the selected row or the first) on the next frames
 * where the list has a size; a scroll asked meanwhile replaces it. */
static void
scroll_later (GtkColumnView *column_view,
              gboolean to_top)
{
  GtkWidget *list = list_view_of (column_view);

  if (list == NULL)
    return;
  g_object_set_data (G_OBJECT (list), SCROLL_TO_TOP, to_top ? GUINT_TO_POINTER (1) : NULL);
  if (g_object_get_data (G_OBJECT (list), PENDING_SCROLL) != NULL)
    return;
  g_object_set_data (G_OBJECT (list), PENDING_SCROLL, GUINT_TO_POINTER (1));
  gtk_widget_add_tick_callback (list, scroll_when_sized, NULL, NULL);
}

/* GTK 4.8 has no gtk_column_view_scroll_to (4.12); the list view inside
 * the column view has had "list.scroll-to-item" since 4.0. Asked before
 * the list view has a size (its page just shown), it scrolled the rows
 * out of view and left one until the list was clicked; asked right after
 * its model changed, it fell short (the new rows not measured yet). So
 * the scroll waits for frames where the list has a size, and is repeated
 * on the first few. The row is the one selected then, not when asked: a
 * live update may have sorted it elsewhere meanwhile. */
void
_sp_cells_scroll_to_selected (GtkColumnView *column_view)
{
  scroll_later (column_view, FALSE);
}

void
_sp_cells_scroll_to_top (GtkColumnView *column_view)
{
  scroll_later (column_view, TRUE);
}

GtkColumnView *
_sp_cells_sorted_column_view (GListStore *store)
{
  GtkColumnView *column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  GtkSortListModel *sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (store)),
                                                      g_object_ref (gtk_column_view_get_sorter (column_view)));

  gtk_column_view_set_show_column_separators (column_view, TRUE);
  gtk_column_view_set_reorderable (column_view, FALSE);
  gtk_column_view_set_model (column_view, GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (sorted))));
  return column_view;
}

GtkSorter *
_sp_cells_property_sorter (GType item_type,
                           const char *property,
                           gboolean text)
{
  GtkExpression *expression = gtk_property_expression_new (item_type, NULL, property);

  if (text)
    return GTK_SORTER (gtk_string_sorter_new (expression));
  return GTK_SORTER (gtk_numeric_sorter_new (expression));
}

void
_sp_cells_add_column (GtkColumnView *column_view,
                      const char *title,
                      GtkListItemFactory *factory,
                      GtkSorter *sorter,
                      gboolean expand)
{
  GtkColumnViewColumn *view_column = gtk_column_view_column_new (title, factory);

  if (sorter != NULL)
    {
      gtk_column_view_column_set_sorter (view_column, sorter);
      gtk_column_view_column_set_resizable (view_column, TRUE);
      g_object_unref (sorter);
    }
  gtk_column_view_column_set_expand (view_column, expand);
  gtk_column_view_append_column (column_view, view_column);
  g_object_unref (view_column);
}
