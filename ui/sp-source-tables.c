/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-tables.c: the Source page's tables (sp-source-tables-private.h):
 * columns, cells and rows. */
#include "sp-source-tables-private.h"

#include <string.h>

#include "sp-cells-private.h"
#include "sp-heat-cell-private.h"
#include "sp-metric-format.h"
#include "sp-source-row-private.h"

typedef enum {
  COLUMN_SELF,
  COLUMN_TOTAL,
  COLUMN_LINE,
  COLUMN_TEXT,
  COLUMN_ADDRESS,
} Column;

#define COLUMN_KEY "sp-source-column"
/* On a cost cell: its table (metric and function total, for the text). */
#define TABLE_KEY "sp-source-table"
/* On a cell: its list item, to find the row widget of a position. */
#define LIST_ITEM_KEY "sp-source-list-item"

static Column
column_of (GObject *object)
{
  return (Column) GPOINTER_TO_INT (g_object_get_data (object, COLUMN_KEY));
}

static void
cell_setup (GtkSignalListItemFactory *factory,
            GtkListItem *list_item,
            gpointer user_data)
{
  Column column = column_of (G_OBJECT (factory));
  GtkWidget *cell;

  if (column == COLUMN_SELF || column == COLUMN_TOTAL)
    {
      cell = _sp_heat_cell_new ();
      g_object_set_data (G_OBJECT (cell), TABLE_KEY, user_data);
      g_object_set_data (G_OBJECT (cell), COLUMN_KEY, GINT_TO_POINTER (column));
    }
  else
    {
      cell = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (cell), column == COLUMN_TEXT ? 0.0 : 1.0);
      if (column != COLUMN_TEXT)
        gtk_widget_add_css_class (cell, "dim-label");
    }
  g_object_set_data (G_OBJECT (cell), LIST_ITEM_KEY, list_item);
  gtk_list_item_set_child (list_item, cell);
}

/* "61.5%", a time metric's "61.5%  1.23 s"; empty for no cost. The share
 * is of the function's total: the lines and instructions of a function
 * add up to its cost, as in perf annotate. */
static char *
cost_text (SpSourceTable *table,
           guint64 cost)
{
  double percent = 100.0 * (double) cost / (double) MAX (table->function_total, 1);
  g_autofree char *time = NULL;

  if (cost == 0)
    return NULL;
  if (!sp_metric_is_time (table->metric))
    return g_strdup_printf ("%.1f%%", percent);
  time = sp_format_duration (cost);
  return g_strdup_printf ("%.1f%%  %s", percent, time);
}

static char *
cost_tooltip (SpSourceTable *table,
              guint64 cost,
              const char *what)
{
  g_autofree char *value = sp_metric_format_value (table->metric, cost);

  return g_strdup_printf ("%s: %s %s, %.1f%% of the function's", what, value,
                          sp_metric_is_time (table->metric) ? "" : "samples",
                          100.0 * (double) cost / (double) MAX (table->function_total, 1));
}

/* A Self or Total cell, as its row's costs are now (it follows them:
 * _sp_cells_follow). */
static void
update_heat (GtkWidget *cell,
             gpointer item)
{
  SpSourceTable *table = g_object_get_data (G_OBJECT (cell), TABLE_KEY);
  SpSourceRow *row = item;
  gboolean self = column_of (G_OBJECT (cell)) == COLUMN_SELF;
  guint64 cost = self ? row->self : row->total;
  g_autofree char *text = cost_text (table, cost);
  g_autofree char *tooltip = cost > 0 ? cost_tooltip (table, cost, self ? "Self" : "Total") : NULL;

  _sp_heat_cell_set (SP_HEAT_CELL (cell), text, self ? row->self_heat : row->total_heat);
  gtk_widget_set_tooltip_text (cell, tooltip);
}

static void
cell_unbind (GtkSignalListItemFactory *factory,
             GtkListItem *list_item,
             gpointer user_data)
{
  _sp_cells_unfollow (gtk_list_item_get_child (list_item));
}

static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem *list_item,
           gpointer user_data)
{
  SpSourceRow *row = gtk_list_item_get_item (list_item);
  GtkWidget *cell = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;

  switch (column_of (G_OBJECT (factory)))
    {
    case COLUMN_SELF:
    case COLUMN_TOTAL:
      update_heat (cell, row);
      _sp_cells_follow (cell, row, "costs", NULL, update_heat);
      return;
    case COLUMN_LINE:
      text = row->line > 0 ? g_strdup_printf ("%u", row->line) : NULL;
      break;
    case COLUMN_ADDRESS:
      text = g_strdup_printf ("%" G_GINT64_MODIFIER "x", row->vaddr);
      break;
    case COLUMN_TEXT:
      gtk_label_set_text (GTK_LABEL (cell), row->text);
      gtk_widget_set_tooltip_text (cell, row->callee != G_MAXUINT32
                                             ? "A call: double-click or Enter shows the callee's source"
                                             : NULL);
      return;
    }
  gtk_label_set_text (GTK_LABEL (cell), text != NULL ? text : "");
}

static GtkColumnViewColumn *
add_column (SpSourceTable *table,
            const char *title,
            Column column,
            int width)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *view_column;

  g_object_set_data (G_OBJECT (factory), COLUMN_KEY, GINT_TO_POINTER (column));
  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), table);
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), table);
  if (column == COLUMN_SELF || column == COLUMN_TOTAL)
    g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind), table);
  view_column = gtk_column_view_column_new (title, factory);
  if (width > 0)
    gtk_column_view_column_set_fixed_width (view_column, width);
  else
    gtk_column_view_column_set_expand (view_column, TRUE);
  gtk_column_view_append_column (table->column_view, view_column);
  g_object_unref (view_column);
  return view_column;
}

static void
add_cost_columns (SpSourceTable *table,
                  int width)
{
  table->cost_width = width;
  table->cost_columns[0] = add_column (table, "Self", COLUMN_SELF, width);
  table->cost_columns[1] = add_column (table, "Total", COLUMN_TOTAL, width);
}

static GtkWidget *
table_init (SpSourceTable *table,
            GtkSelectionModel *selection)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  table->selection = selection;
  table->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (g_object_ref (selection)));
  gtk_column_view_set_show_column_separators (table->column_view, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (table->column_view), "monospace");
  gtk_widget_add_css_class (GTK_WIDGET (table->column_view), "sp-source-table");
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (table->column_view));
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_widget_set_hexpand (scroller, TRUE);
  return scroller;
}

GtkWidget *
_sp_source_table_init_lines (SpSourceTable *table)
{
  GtkSingleSelection *selection;
  GtkWidget *scroller;

  table->store = g_list_store_new (SP_TYPE_SOURCE_ROW);
  selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (table->store)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  scroller = table_init (table, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  add_cost_columns (table, 110);
  add_column (table, "Line", COLUMN_LINE, 60);
  add_column (table, "Source", COLUMN_TEXT, 0);
  return scroller;
}

GtkWidget *
_sp_source_table_init_instructions (SpSourceTable *table)
{
  GtkMultiSelection *selection;
  GtkWidget *scroller;

  table->store = g_list_store_new (SP_TYPE_SOURCE_ROW);
  selection = gtk_multi_selection_new (G_LIST_MODEL (g_object_ref (table->store)));
  scroller = table_init (table, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  /* The line before the instruction: a long operand is what is cut off
   * when the pane is narrow. */
  add_cost_columns (table, 90);
  add_column (table, "Address", COLUMN_ADDRESS, 80);
  add_column (table, "Line", COLUMN_LINE, 50);
  add_column (table, "Instruction", COLUMN_TEXT, 0);
  return scroller;
}

static gboolean
focus_inside (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

/* The first cell under widget that belongs to the row at position. */
static GtkWidget *
cell_of (GtkWidget *widget,
         guint position)
{
  GtkListItem *list_item = g_object_get_data (G_OBJECT (widget), LIST_ITEM_KEY);

  if (list_item != NULL && gtk_list_item_get_position (list_item) == position)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *cell = cell_of (child, position);

      if (cell != NULL)
        return cell;
    }
  return NULL;
}

/* The keyboard's place in a list is the row that has the focus: moved
 * there, Up and Down go on from the row shown, not from the first. */
gboolean
_sp_source_table_focus_row (SpSourceTable *table,
                            guint position)
{
  GtkWidget *cell = cell_of (GTK_WIDGET (table->column_view), position);

  /* The row widget: the list view's child that holds the cell. */
  for (GtkWidget *at = cell; at != NULL; at = gtk_widget_get_parent (at))
    if (gtk_widget_get_parent (at) != NULL && GTK_IS_LIST_VIEW (gtk_widget_get_parent (at)))
      return gtk_widget_grab_focus (at);
  return FALSE;
}

/* Frames the centring is repeated on: the list view measures rows it had
 * not laid out yet over the first frames, and its height estimate moves. */
#define CENTER_FRAMES 4

/* GTK 4.8's "list.scroll-to-item" only brings a row into view (at the
 * bottom, coming from above): the middle is set through the adjustment,
 * from the rows' height the list's upper bound gives (every row is one
 * line of the same font). */
static gboolean
center_when_sized (GtkWidget *widget,
                   GdkFrameClock *clock,
                   gpointer user_data)
{
  SpSourceTable *table = user_data;
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (widget));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (table->store));
  double upper = adjustment != NULL ? gtk_adjustment_get_upper (adjustment) : 0;
  double page = adjustment != NULL ? gtk_adjustment_get_page_size (adjustment) : 0;
  double row;

  /* Ticks come before the frame's layout: on the first after the rows
   * changed the list has not measured them, and a value past what it
   * knows makes it warn that it "failed to scroll". */
  if (!gtk_widget_get_mapped (widget) || page <= 0 || n == 0 || table->center_frames++ == 0)
    return G_SOURCE_CONTINUE;
  row = upper / n;
  gtk_adjustment_set_value (adjustment, CLAMP (table->center * row - (page - row) / 2, 0, MAX (upper - page, 0)));
  if (table->center_frames < CENTER_FRAMES)
    return G_SOURCE_CONTINUE;
  table->center_tick = 0;
  if (focus_inside (widget))
    _sp_source_table_focus_row (table, table->center);
  return G_SOURCE_REMOVE;
}

void
_sp_source_table_center (SpSourceTable *table,
                         guint position)
{
  table->center = position;
  table->center_frames = 0;
  if (table->center_tick == 0)
    table->center_tick = gtk_widget_add_tick_callback (GTK_WIDGET (table->column_view), center_when_sized, table,
                                                       NULL);
}

void
_sp_source_table_clear (SpSourceTable *table)
{
  if (table->center_tick != 0 && table->column_view != NULL)
    gtk_widget_remove_tick_callback (GTK_WIDGET (table->column_view), table->center_tick);
  table->center_tick = 0;
  table->column_view = NULL;
  g_clear_object (&table->store);
  table->selection = NULL;
}

static void
set_costs (SpSourceTable *table,
           SpSourceRow *row,
           guint64 self,
           guint64 total)
{
  double whole = (double) MAX (table->function_total, 1);

  _sp_source_row_set_costs (row, self, total, (double) self / whole, (double) total / whole);
}

SpSourceRow *
_sp_source_table_row_at (SpSourceTable *table,
                         guint position)
{
  g_autoptr (SpSourceRow) row = g_list_model_get_item (G_LIST_MODEL (table->store), position);

  return row; /* the store keeps it */
}

/* All rows at once: one items-changed. */
static void
replace_rows (SpSourceTable *table,
              GPtrArray *rows)
{
  g_list_store_splice (table->store, 0, g_list_model_get_n_items (G_LIST_MODEL (table->store)), rows->pdata,
                       rows->len);
}

/* The cost columns as wide as their longest text ("100.0%  1.21 s" with
 * a time metric), so that none is clipped; the text is monospace, so the
 * longest by characters is the widest. */
static void
fit_cost_columns (SpSourceTable *table)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (table->store));
  g_autofree char *longest = NULL;
  glong longest_length = 0;
  g_autoptr (PangoLayout) layout = NULL;
  int width = 0;

  for (guint i = 0; i < n; i++)
    {
      SpSourceRow *row = _sp_source_table_row_at (table, i);

      for (guint column = 0; column < 2; column++)
        {
          g_autofree char *text = cost_text (table, column == 0 ? row->self : row->total);
          glong length = text != NULL ? g_utf8_strlen (text, -1) : 0;

          if (length > longest_length)
            {
              g_free (longest);
              longest = g_steal_pointer (&text);
              longest_length = length;
            }
        }
    }
  if (longest != NULL)
    {
      layout = gtk_widget_create_pango_layout (GTK_WIDGET (table->column_view), longest);
      pango_layout_get_pixel_size (layout, &width, NULL);
    }
  /* The heat cell's label margins and the column view's cell padding. */
  width = MAX (table->cost_width, width + 28);
  for (guint column = 0; column < 2; column++)
    gtk_column_view_column_set_fixed_width (table->cost_columns[column], width);
}

static void
take_source (SpSourceTable *table,
             const SpSourceAnnotation *source)
{
  table->metric = source != NULL ? source->metric : SP_METRIC_CPU;
  table->function_total = source != NULL ? source->total : 0;
}

void
_sp_source_table_set_lines (SpSourceTable *table,
                            const SpSourceAnnotation *source,
                            gboolean same)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  guint n_lines = source != NULL && source->text != NULL ? g_strv_length (source->text) : 0;
  gboolean in_place = same && n_lines == g_list_model_get_n_items (G_LIST_MODEL (table->store));

  take_source (table, source);
  for (guint i = 0; i < n_lines; i++)
    {
      SpSourceRow *row = in_place ? _sp_source_table_row_at (table, i) : _sp_source_row_new (g_strdup (source->text[i]), i + 1);
      guint64 self, total;

      sp_source_annotation_get_line_cost (source, i + 1, &self, &total);
      set_costs (table, row, self, total);
      if (!in_place)
        g_ptr_array_add (rows, row);
    }
  if (!in_place)
    replace_rows (table, rows);
  fit_cost_columns (table);
}

/* "call   401136 <compute_alpha>": a call names its callee, once (the
 * disassembler's text names it already). */
static char *
instruction_text (const SpSourceInstruction *instruction)
{
  g_autofree char *named = NULL;

  if (instruction->text[0] == '\0')
    return g_strdup ("(not disassembled)");
  if (instruction->callee_name != NULL
      && strstr (instruction->text, named = g_strdup_printf ("<%s>", instruction->callee_name)) == NULL)
    return g_strdup_printf ("%s <%s>", instruction->text, instruction->callee_name);
  return g_strdup (instruction->text);
}

/* Whether the rows are source's instructions already (a live update of
 * the same place): the same addresses. */
static gboolean
same_instructions (SpSourceTable *table,
                   const SpSourceAnnotation *source)
{
  guint n = source != NULL ? source->instructions->len : 0;

  if (n != g_list_model_get_n_items (G_LIST_MODEL (table->store)))
    return FALSE;
  for (guint i = 0; i < n; i++)
    if (_sp_source_table_row_at (table, i)->vaddr != g_array_index (source->instructions, SpSourceInstruction, i).vaddr)
      return FALSE;
  return TRUE;
}

void
_sp_source_table_set_instructions (SpSourceTable *table,
                                   const SpSourceAnnotation *source,
                                   gboolean same)
{
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean in_place = same && same_instructions (table, source);

  take_source (table, source);
  for (guint i = 0; source != NULL && i < source->instructions->len; i++)
    {
      const SpSourceInstruction *instruction = &g_array_index (source->instructions, SpSourceInstruction, i);
      SpSourceRow *row = in_place ? _sp_source_table_row_at (table, i) : _sp_source_row_new (instruction_text (instruction),
                                                                            instruction->line);

      row->vaddr = instruction->vaddr;
      row->callee = instruction->callee;
      set_costs (table, row, instruction->self, instruction->total);
      if (!in_place)
        g_ptr_array_add (rows, row);
    }
  if (!in_place)
    replace_rows (table, rows);
  fit_cost_columns (table);
}

guint
_sp_source_table_line_position (SpSourceTable *table,
                                guint line)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (table->store));

  return line > 0 && line <= n ? line - 1 : GTK_INVALID_LIST_POSITION;
}
