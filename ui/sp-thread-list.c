/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-thread-list.c: the Threads page, a sortable table with a row per
 * thread: a check (the thread counts in the views), its name, ids,
 * samples, and its times from the off-CPU companion.
 *
 * Rows are SpThreadItems in a GListStore (one per thread index, kept
 * across updates) under a GtkSortListModel that the column headers sort.
 * A live update (every 250 ms) copies the new rows into the items, which
 * notify what changed; each cell follows its item's property, so only the
 * labels whose numbers changed are written and GTK keeps every row's
 * widgets. Emits "thread-toggled" (guint thread, gboolean shown) when the
 * user ticks or unticks a row; the window passes it on to the analysis. */
#include "sp-thread-list.h"

#include "sp-cells-private.h"
#include "sp-thread-item-private.h"

struct _SpThreadList
{
  GtkWidget      parent_instance;

  GtkWidget     *scroller;      /* child widget */
  GtkColumnView *column_view;
  GListStore    *store;         /* SpThreadItem by thread index, owned */
  GArray        *rows;          /* SpThreadRow as last set, or NULL */

  /* Set while unmapped (the Threads page hidden): shown when mapped */
  gboolean       pending;
  GArray        *pending_rows;
  SpFilter      *pending_filter; /* set_rows' or, after, update_shown's */
  gboolean       pending_shown;  /* update_shown came after set_rows */
};

enum { SIGNAL_THREAD_TOGGLED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpThreadList, sp_thread_list, GTK_TYPE_WIDGET)

typedef enum {
  COLUMN_SHOWN,
  COLUMN_NAME,
  COLUMN_PID,
  COLUMN_TID,
  COLUMN_SAMPLES,
  COLUMN_CPU,
  COLUMN_OFF_CPU,
  COLUMN_WALL,
  COLUMN_BLOCKED,
  COLUMN_RUNNABLE,
  COLUMN_SWITCHES,
  N_COLUMNS
} Column;

/* How a column's cells write the item's property. */
typedef enum {
  KIND_CHECK,
  KIND_TEXT,
  KIND_COUNT,     /* always known */
  KIND_CPU,       /* seconds: measured with states, else estimated */
  KIND_TIME,      /* seconds, known only with states */
  KIND_SWITCHES,  /* a count, known only with states */
} Kind;

static const struct {
  const char *title;
  const char *property;
  Kind        kind;
} columns[N_COLUMNS] = {
  [COLUMN_SHOWN] = { "Shown", "shown", KIND_CHECK },
  [COLUMN_NAME] = { "Name", "name", KIND_TEXT },
  [COLUMN_PID] = { "PID", "pid", KIND_COUNT },
  [COLUMN_TID] = { "TID", "tid", KIND_COUNT },
  [COLUMN_SAMPLES] = { "Samples", "samples", KIND_COUNT },
  [COLUMN_CPU] = { "CPU (s)", "cpu", KIND_CPU },
  [COLUMN_OFF_CPU] = { "Off-CPU (s)", "off-cpu", KIND_TIME },
  [COLUMN_WALL] = { "Wall (s)", "wall", KIND_TIME },
  [COLUMN_BLOCKED] = { "Blocked (s)", "blocked", KIND_TIME },
  [COLUMN_RUNNABLE] = { "Runnable (s)", "runnable", KIND_TIME },
  [COLUMN_SWITCHES] = { "Switches", "switches", KIND_SWITCHES },
};

/* On a factory and on its cells: the column (plus one: 0 is none). */
#define COLUMN_KEY "sp-thread-list-column"
/* On a check button while the list (not the user) sets it. */
#define SETTING_KEY "sp-thread-list-setting"

#define ESTIMATE_TOOLTIP "Estimated: samples × the sampling interval (the recording has no off-CPU states)"

static Column
column_of (gpointer object)
{
  return (Column) (GPOINTER_TO_INT (g_object_get_data (G_OBJECT (object), COLUMN_KEY)) - 1);
}

/* ------------------------------------------------------------------ */
/* Cells */

static char *
seconds_text (guint64 ns)
{
  return g_strdup_printf ("%.3f", ns / 1e9);
}

/* What a cell of column shows for item. */
static char *
cell_text (Column column,
           SpThreadItem *item)
{
  const SpThreadRow *row = _sp_thread_item_get_row (item);
  g_auto (GValue) value = G_VALUE_INIT;

  if (column == COLUMN_NAME)
    return g_strdup (_sp_thread_item_get_name (item));
  if (column == COLUMN_PID)
    return g_strdup_printf ("%d", row->pid);
  if (!row->has_states && (columns[column].kind == KIND_TIME || columns[column].kind == KIND_SWITCHES))
    return g_strdup ("–");
  g_object_get_property (G_OBJECT (item), columns[column].property, g_value_init (&value, G_TYPE_UINT64));
  if (columns[column].kind == KIND_CPU || columns[column].kind == KIND_TIME)
    return seconds_text (g_value_get_uint64 (&value));
  return g_strdup_printf ("%" G_GUINT64_FORMAT, g_value_get_uint64 (&value));
}

/* The CPU time is an estimate without states: its tooltip says so. Set
 * only when it changes (a tooltip costs GTK 4.8 a pointer query). */
static void
update_cpu_tooltip (GtkWidget *label,
                    SpThreadItem *item)
{
  const char *tooltip = _sp_thread_item_get_row (item)->cpu_estimated ? ESTIMATE_TOOLTIP : NULL;
  const char *current = gtk_widget_get_tooltip_text (label);

  if (g_strcmp0 (current, tooltip) != 0)
    gtk_widget_set_tooltip_text (label, tooltip);
}

static void
update_check (GtkWidget *check,
              gpointer item)
{
  g_object_set_data (G_OBJECT (check), SETTING_KEY, GINT_TO_POINTER (TRUE));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (check), _sp_thread_item_get_shown (item));
  g_object_set_data (G_OBJECT (check), SETTING_KEY, NULL);
}

static void
update_label (GtkWidget *label,
              gpointer item)
{
  Column column = column_of (label);
  g_autofree char *text = cell_text (column, item);

  if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (label)), text) != 0)
    gtk_label_set_text (GTK_LABEL (label), text);
  if (column == COLUMN_CPU)
    update_cpu_tooltip (label, item);
}

static void
check_toggled (GtkCheckButton *check,
               SpThreadList *self)
{
  GtkListItem *list_item = g_object_get_data (G_OBJECT (check), "sp-list-item");
  SpThreadItem *item = gtk_list_item_get_item (list_item);
  gboolean shown = gtk_check_button_get_active (check);

  if (g_object_get_data (G_OBJECT (check), SETTING_KEY) != NULL || item == NULL)
    return;
  _sp_thread_item_set_shown (item, shown);
  g_signal_emit (self, signals[SIGNAL_THREAD_TOGGLED], 0, _sp_thread_item_get_row (item)->thread, shown);
}

static void
cell_setup (GtkSignalListItemFactory *factory,
            GtkListItem *list_item,
            SpThreadList *self)
{
  Column column = column_of (factory);
  GtkWidget *cell;

  if (columns[column].kind == KIND_CHECK)
    {
      cell = gtk_check_button_new ();
      gtk_widget_set_tooltip_text (cell, "Count the thread in the views");
      /* The list item outlives its child. */
      g_object_set_data (G_OBJECT (cell), "sp-list-item", list_item);
      g_signal_connect (cell, "toggled", G_CALLBACK (check_toggled), self);
    }
  else
    {
      cell = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (cell), column == COLUMN_NAME ? 0.0 : 1.0);
      if (column == COLUMN_NAME)
        gtk_label_set_ellipsize (GTK_LABEL (cell), PANGO_ELLIPSIZE_END);
      else
        gtk_widget_add_css_class (cell, "numeric");
    }
  g_object_set_data (G_OBJECT (cell), COLUMN_KEY, GINT_TO_POINTER (column + 1));
  gtk_list_item_set_child (list_item, cell);
}

static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem *list_item,
           SpThreadList *self)
{
  Column column = column_of (factory);
  GtkWidget *cell = gtk_list_item_get_child (list_item);
  SpThreadItem *item = gtk_list_item_get_item (list_item);
  void (*update) (GtkWidget *, gpointer) = columns[column].kind == KIND_CHECK ? update_check : update_label;

  if (item == NULL)
    return;
  update (cell, item);
  _sp_cells_follow (cell, item, columns[column].property, NULL, update);
}

static void
cell_unbind (GtkSignalListItemFactory *factory,
             GtkListItem *list_item,
             SpThreadList *self)
{
  _sp_cells_unfollow (gtk_list_item_get_child (list_item));
}

static void
add_column (SpThreadList *self,
            Column column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkSorter *sorter = NULL;

  g_object_set_data (G_OBJECT (factory), COLUMN_KEY, GINT_TO_POINTER (column + 1));
  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), self);
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), self);
  g_signal_connect (factory, "unbind", G_CALLBACK (cell_unbind), self);
  if (columns[column].kind != KIND_CHECK)
    sorter = _sp_cells_property_sorter (SP_TYPE_THREAD_ITEM, columns[column].property, column == COLUMN_NAME);
  _sp_cells_add_column (self->column_view, columns[column].title, factory, sorter, column == COLUMN_NAME);
}

/* ------------------------------------------------------------------ */
/* Rows */

/* The store holds an item for each of rows (by thread index): new threads
 * get one, ticked where filter shows them; the others are updated. */
static void
update_items (SpThreadList *self,
              GArray *rows,
              const SpFilter *filter)
{
  GListModel *items = G_LIST_MODEL (self->store);
  guint n_rows = rows != NULL ? rows->len : 0;
  guint n_items = g_list_model_get_n_items (items);
  g_autoptr (GPtrArray) added = g_ptr_array_new_with_free_func (g_object_unref);

  if (n_items > n_rows)
    g_list_store_splice (self->store, n_rows, n_items - n_rows, NULL, 0);
  for (guint t = 0; t < n_rows; t++)
    {
      const SpThreadRow *row = &g_array_index (rows, SpThreadRow, t);
      gboolean shown = filter == NULL || !sp_filter_is_thread_hidden (filter, t);

      if (t < n_items)
        {
          g_autoptr (SpThreadItem) item = g_list_model_get_item (items, t);

          _sp_thread_item_set_row (item, row);
          /* As the boxed list did: a list of another length takes the
           * filter's word for every thread. */
          if (n_items != n_rows)
            _sp_thread_item_set_shown (item, shown);
        }
      else
        g_ptr_array_add (added, _sp_thread_item_new (row, shown));
    }
  if (added->len > 0)
    g_list_store_splice (self->store, n_items, 0, added->pdata, added->len);
}

static void
apply_rows (SpThreadList *self,
            GArray *rows,
            const SpFilter *filter)
{
  GtkSorter *sorter;

  if (rows != NULL && self->rows != NULL && sp_thread_rows_equal (rows, self->rows))
    return;
  update_items (self, rows, filter);
  if (rows != NULL)
    g_array_ref (rows);
  g_clear_pointer (&self->rows, g_array_unref);
  self->rows = rows;
  /* The sort model does not see its items' numbers change: sorted by a
   * column, the rows take their new places. */
  sorter = gtk_column_view_get_sorter (self->column_view);
  if (gtk_sorter_get_order (sorter) != GTK_SORTER_ORDER_NONE)
    gtk_sorter_changed (sorter, GTK_SORTER_CHANGE_DIFFERENT);
}

static void
apply_shown (SpThreadList *self,
             const SpFilter *filter)
{
  GListModel *items = G_LIST_MODEL (self->store);

  for (guint t = 0; t < g_list_model_get_n_items (items); t++)
    {
      g_autoptr (SpThreadItem) item = g_list_model_get_item (items, t);

      _sp_thread_item_set_shown (item, !sp_filter_is_thread_hidden (filter, t));
    }
}

static void
clear_pending (SpThreadList *self)
{
  self->pending = self->pending_shown = FALSE;
  g_clear_pointer (&self->pending_rows, g_array_unref);
  g_clear_pointer (&self->pending_filter, sp_filter_free);
}

/* What was set while the list was hidden, now. */
static void
apply_pending (SpThreadList *self)
{
  if (!self->pending)
    return;
  apply_rows (self, self->pending_rows, self->pending_filter);
  if (self->pending_shown)
    apply_shown (self, self->pending_filter);
  clear_pending (self);
}

static void
keep_filter (SpThreadList *self,
             const SpFilter *filter)
{
  g_clear_pointer (&self->pending_filter, sp_filter_free);
  if (filter != NULL)
    self->pending_filter = sp_filter_copy (filter);
}

/* While hidden, the rows wait for the list to be shown: a recording's
 * first result would otherwise make a row widget per cell of every thread
 * in the frame that first shows the profile (issue 18). */
void
sp_thread_list_set_rows (SpThreadList *self,
                         GArray *rows,
                         const SpFilter *filter)
{
  g_return_if_fail (SP_IS_THREAD_LIST (self));

  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      apply_pending (self);
      apply_rows (self, rows, filter);
      return;
    }
  if (rows != NULL)
    g_array_ref (rows);
  g_clear_pointer (&self->pending_rows, g_array_unref);
  self->pending_rows = rows;
  keep_filter (self, filter);
  self->pending = TRUE;
  self->pending_shown = FALSE;
}

void
sp_thread_list_update_shown (SpThreadList *self,
                             const SpFilter *filter)
{
  g_return_if_fail (SP_IS_THREAD_LIST (self));

  if (!self->pending)
    {
      apply_shown (self, filter);
      return;
    }
  keep_filter (self, filter);
  self->pending_shown = TRUE;
}

static void
sp_thread_list_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (sp_thread_list_parent_class)->map (widget);
  apply_pending (SP_THREAD_LIST (widget));
}

static void
sp_thread_list_dispose (GObject *object)
{
  SpThreadList *self = SP_THREAD_LIST (object);

  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_object (&self->store);
  g_clear_pointer (&self->rows, g_array_unref);
  clear_pending (self);
  G_OBJECT_CLASS (sp_thread_list_parent_class)->dispose (object);
}

static void
sp_thread_list_class_init (SpThreadListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_thread_list_dispose;
  widget_class->map = sp_thread_list_map;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  signals[SIGNAL_THREAD_TOGGLED] = g_signal_new ("thread-toggled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                 NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_BOOLEAN);
}

static void
sp_thread_list_init (SpThreadList *self)
{
  self->store = g_list_store_new (SP_TYPE_THREAD_ITEM);
  self->column_view = _sp_cells_sorted_column_view (self->store);
  for (Column column = 0; column < N_COLUMNS; column++)
    add_column (self, column);
  /* Its own scrolling: a page narrower than the table scrolls it
   * sideways, and the headers stay in view. */
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), GTK_WIDGET (self->column_view));
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
}

SpThreadList *
sp_thread_list_new (void)
{
  return g_object_new (SP_TYPE_THREAD_LIST, NULL);
}
