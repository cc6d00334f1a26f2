/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-process-list.c: the Processes page, a sortable table with a row per
 * process of a recording of the whole system.
 *
 * Rows are small items (SpProcessListItem, below) in a GListStore under a
 * GtkSortListModel that the column headers sort; an update replaces them
 * all (a system has some hundred processes, and the rows change only when
 * the thread rows do). Emits "process-toggled" (int pid, gboolean shown)
 * when the user ticks or unticks a row. */
#include "sp-process-list.h"

#include "sp-cells-private.h"
#include "sp-process-rows.h"

/* ------------------------------------------------------------------ */
/* One row as a GObject, for the sorters' property expressions */

#define SP_TYPE_PROCESS_LIST_ITEM (sp_process_list_item_get_type ())
G_DECLARE_FINAL_TYPE (SpProcessListItem, sp_process_list_item, SP, PROCESS_LIST_ITEM, GObject)

struct _SpProcessListItem
{
  GObject   parent_instance;
  int       pid;
  char     *name;           /* as shown: "[kworker/0:1]" for a kernel thread */
  char     *command_line;
  guint64   samples;
  double    share;          /* percent of the processes' samples */
  gboolean  kernel_thread;
  gboolean  shown;
};

enum { ITEM_PROP_0, ITEM_PROP_PID, ITEM_PROP_NAME, ITEM_PROP_COMMAND_LINE, ITEM_PROP_SAMPLES, ITEM_PROP_SHARE,
       N_ITEM_PROPS };

G_DEFINE_FINAL_TYPE (SpProcessListItem, sp_process_list_item, G_TYPE_OBJECT)

static void
sp_process_list_item_get_property (GObject *object,
                                   guint id,
                                   GValue *value,
                                   GParamSpec *pspec)
{
  SpProcessListItem *self = SP_PROCESS_LIST_ITEM (object);

  switch (id)
    {
    case ITEM_PROP_PID: g_value_set_int (value, self->pid); break;
    case ITEM_PROP_NAME: g_value_set_string (value, self->name); break;
    case ITEM_PROP_COMMAND_LINE: g_value_set_string (value, self->command_line); break;
    case ITEM_PROP_SAMPLES: g_value_set_uint64 (value, self->samples); break;
    case ITEM_PROP_SHARE: g_value_set_double (value, self->share); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
sp_process_list_item_finalize (GObject *object)
{
  SpProcessListItem *self = SP_PROCESS_LIST_ITEM (object);

  g_free (self->name);
  g_free (self->command_line);
  G_OBJECT_CLASS (sp_process_list_item_parent_class)->finalize (object);
}

static void
sp_process_list_item_class_init (SpProcessListItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->get_property = sp_process_list_item_get_property;
  object_class->finalize = sp_process_list_item_finalize;
  g_object_class_install_property (object_class, ITEM_PROP_PID,
                                   g_param_spec_int ("pid", NULL, NULL, G_MININT, G_MAXINT, 0, flags));
  g_object_class_install_property (object_class, ITEM_PROP_NAME, g_param_spec_string ("name", NULL, NULL, NULL, flags));
  g_object_class_install_property (object_class, ITEM_PROP_COMMAND_LINE,
                                   g_param_spec_string ("command-line", NULL, NULL, NULL, flags));
  g_object_class_install_property (object_class, ITEM_PROP_SAMPLES,
                                   g_param_spec_uint64 ("samples", NULL, NULL, 0, G_MAXUINT64, 0, flags));
  g_object_class_install_property (object_class, ITEM_PROP_SHARE,
                                   g_param_spec_double ("share", NULL, NULL, 0, 100, 0, flags));
}

static void
sp_process_list_item_init (SpProcessListItem *self)
{
}

static SpProcessListItem *
item_new (const SpProcessRow *row,
          guint64 total,
          gboolean shown)
{
  SpProcessListItem *item = g_object_new (SP_TYPE_PROCESS_LIST_ITEM, NULL);
  const char *name = row->name != NULL ? row->name : "(unnamed)";

  item->pid = row->pid;
  item->name = row->kernel_thread ? g_strdup_printf ("[%s]", name) : g_strdup (name);
  item->command_line = g_strdup (row->command_line != NULL ? row->command_line : "");
  item->samples = row->n_samples;
  item->share = total > 0 ? 100.0 * row->n_samples / total : 0.0;
  item->kernel_thread = row->kernel_thread;
  item->shown = shown;
  return item;
}

/* ------------------------------------------------------------------ */
/* The list */

struct _SpProcessList
{
  GtkWidget      parent_instance;

  GtkWidget     *box;           /* child widget: the table, the idle line */
  GtkColumnView *column_view;
  GtkLabel      *idle_label;
  GListStore    *store;         /* SpProcessListItem, owned */
  GArray        *rows;          /* SpProcessRow as last set, or NULL */
  guint64        idle_samples;
};

enum { SIGNAL_PROCESS_TOGGLED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpProcessList, sp_process_list, GTK_TYPE_WIDGET)

typedef enum { COLUMN_SHOWN, COLUMN_PID, COLUMN_NAME, COLUMN_COMMAND_LINE, COLUMN_SAMPLES, COLUMN_SHARE,
               N_COLUMNS } Column;

static const struct {
  const char *title;
  const char *property;
} columns[N_COLUMNS] = {
  [COLUMN_SHOWN] = { "Shown", NULL },
  [COLUMN_PID] = { "PID", "pid" },
  [COLUMN_NAME] = { "Name", "name" },
  [COLUMN_COMMAND_LINE] = { "Command Line", "command-line" },
  [COLUMN_SAMPLES] = { "Samples", "samples" },
  [COLUMN_SHARE] = { "CPU Share", "share" },
};

#define COLUMN_KEY "sp-process-list-column"
/* On a check button while the list (not the user) sets it. */
#define SETTING_KEY "sp-process-list-setting"

static Column
column_of (gpointer object)
{
  return (Column) (GPOINTER_TO_INT (g_object_get_data (G_OBJECT (object), COLUMN_KEY)) - 1);
}

static char *
cell_text (Column column,
           SpProcessListItem *item)
{
  switch (column)
    {
    case COLUMN_PID: return g_strdup_printf ("%d", item->pid);
    case COLUMN_NAME: return g_strdup (item->name);
    case COLUMN_COMMAND_LINE: return g_strdup (item->command_line);
    case COLUMN_SAMPLES: return g_strdup_printf ("%" G_GUINT64_FORMAT, item->samples);
    case COLUMN_SHARE: return g_strdup_printf ("%.1f%%", item->share);
    default: return NULL;
    }
}

static void
check_toggled (GtkCheckButton *check,
               SpProcessList *self)
{
  GtkListItem *list_item = g_object_get_data (G_OBJECT (check), "sp-list-item");
  SpProcessListItem *item = gtk_list_item_get_item (list_item);

  if (g_object_get_data (G_OBJECT (check), SETTING_KEY) != NULL || item == NULL)
    return;
  item->shown = gtk_check_button_get_active (check);
  g_signal_emit (self, signals[SIGNAL_PROCESS_TOGGLED], 0, item->pid, item->shown);
}

static void
cell_setup (GtkSignalListItemFactory *factory,
            GtkListItem *list_item,
            SpProcessList *self)
{
  Column column = column_of (factory);
  GtkWidget *cell;

  if (column == COLUMN_SHOWN)
    {
      cell = gtk_check_button_new ();
      gtk_widget_set_tooltip_text (cell, "Count the process's threads in the views");
      g_object_set_data (G_OBJECT (cell), "sp-list-item", list_item);
      g_signal_connect (cell, "toggled", G_CALLBACK (check_toggled), self);
    }
  else
    {
      cell = gtk_label_new (NULL);
      gtk_label_set_xalign (GTK_LABEL (cell), column == COLUMN_NAME || column == COLUMN_COMMAND_LINE ? 0.0 : 1.0);
      if (column == COLUMN_NAME || column == COLUMN_COMMAND_LINE)
        gtk_label_set_ellipsize (GTK_LABEL (cell), PANGO_ELLIPSIZE_END);
      else
        gtk_widget_add_css_class (cell, "numeric");
    }
  gtk_list_item_set_child (list_item, cell);
}

static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem *list_item,
           SpProcessList *self)
{
  Column column = column_of (factory);
  GtkWidget *cell = gtk_list_item_get_child (list_item);
  SpProcessListItem *item = gtk_list_item_get_item (list_item);
  g_autofree char *text = NULL;

  if (item == NULL)
    return;
  /* Tests find a process's check by its pid. */
  g_object_set_data (G_OBJECT (cell), "sp-process-pid", GINT_TO_POINTER (item->pid));
  if (column == COLUMN_SHOWN)
    {
      g_object_set_data (G_OBJECT (cell), SETTING_KEY, GINT_TO_POINTER (TRUE));
      gtk_check_button_set_active (GTK_CHECK_BUTTON (cell), item->shown);
      g_object_set_data (G_OBJECT (cell), SETTING_KEY, NULL);
      return;
    }
  text = cell_text (column, item);
  gtk_label_set_text (GTK_LABEL (cell), text);
  if (column == COLUMN_NAME)
    gtk_widget_set_tooltip_text (cell, item->kernel_thread ? "A kernel thread" : NULL);
  if (column == COLUMN_COMMAND_LINE)
    gtk_widget_set_tooltip_text (cell, item->command_line[0] != '\0' ? item->command_line : NULL);
}

static void
add_column (SpProcessList *self,
            Column column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  gboolean text = column == COLUMN_NAME || column == COLUMN_COMMAND_LINE;
  GtkSorter *sorter = NULL;

  g_object_set_data (G_OBJECT (factory), COLUMN_KEY, GINT_TO_POINTER (column + 1));
  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), self);
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), self);
  if (columns[column].property != NULL)
    sorter = _sp_cells_property_sorter (SP_TYPE_PROCESS_LIST_ITEM, columns[column].property, text);
  _sp_cells_add_column (self->column_view, columns[column].title, factory, sorter, column == COLUMN_COMMAND_LINE);
}

/* Ticked unless the filter hides every one of its threads. */
static gboolean
process_shown (const SpProcessRow *row,
               const SpFilter *filter)
{
  if (filter == NULL)
    return TRUE;
  for (guint i = 0; i < row->threads->len; i++)
    if (!sp_filter_is_thread_hidden (filter, g_array_index (row->threads, guint32, i)))
      return TRUE;
  return row->threads->len == 0;
}

static void
show_idle (SpProcessList *self,
           GArray *rows,
           guint64 idle_samples)
{
  g_autofree char *text = NULL;

  gtk_widget_set_visible (GTK_WIDGET (self->idle_label), rows != NULL);
  if (rows == NULL)
    return;
  /* The recorder writes it as the recording ends: 0 until then. */
  text = g_strdup_printf ("Idle: %" G_GUINT64_FORMAT " sample%s of the idle task (idle time, not a process)",
                          idle_samples, idle_samples == 1 ? "" : "s");
  gtk_label_set_text (self->idle_label, text);
}

void
sp_process_list_set_rows (SpProcessList *self,
                          GArray *rows,
                          guint64 idle_samples,
                          const SpFilter *filter)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  guint64 total = 0;

  g_return_if_fail (SP_IS_PROCESS_LIST (self));

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    total += g_array_index (rows, SpProcessRow, i).n_samples;
  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      const SpProcessRow *row = &g_array_index (rows, SpProcessRow, i);

      g_ptr_array_add (items, item_new (row, total, process_shown (row, filter)));
    }
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)), items->pdata,
                       items->len);
  show_idle (self, rows, idle_samples);
  self->idle_samples = idle_samples;
  if (rows != NULL)
    g_array_ref (rows);
  g_clear_pointer (&self->rows, g_array_unref);
  self->rows = rows;
}

GArray *
sp_process_list_get_rows (SpProcessList *self)
{
  g_return_val_if_fail (SP_IS_PROCESS_LIST (self), NULL);
  return self->rows;
}

guint64
sp_process_list_get_idle_samples (SpProcessList *self)
{
  g_return_val_if_fail (SP_IS_PROCESS_LIST (self), 0);
  return self->idle_samples;
}

static void
sp_process_list_dispose (GObject *object)
{
  SpProcessList *self = SP_PROCESS_LIST (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->store);
  g_clear_pointer (&self->rows, g_array_unref);
  G_OBJECT_CLASS (sp_process_list_parent_class)->dispose (object);
}

static void
sp_process_list_class_init (SpProcessListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_process_list_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  signals[SIGNAL_PROCESS_TOGGLED] = g_signal_new ("process-toggled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_BOOLEAN);
}

static void
sp_process_list_init (SpProcessList *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->store = g_list_store_new (SP_TYPE_PROCESS_LIST_ITEM);
  /* Unsorted, the rows are busiest first (sp-process-rows.c). */
  self->column_view = _sp_cells_sorted_column_view (self->store);
  for (Column column = 0; column < N_COLUMNS; column++)
    add_column (self, column);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->column_view));
  gtk_widget_set_vexpand (scroller, TRUE);
  self->idle_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->idle_label, 0.0);
  gtk_widget_add_css_class (GTK_WIDGET (self->idle_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->idle_label), FALSE);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_box_append (GTK_BOX (self->box), scroller);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->idle_label));
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
}

SpProcessList *
sp_process_list_new (void)
{
  return g_object_new (SP_TYPE_PROCESS_LIST, NULL);
}
