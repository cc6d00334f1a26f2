/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-callers-view.c: data/'s function list and callers/callees as three
 * flat tables.
 *
 * Each table is GListStore → GtkSortListModel → GtkSingleSelection under
 * a GtkColumnView whose column sorters order the rows; its items are
 * SpFunctionItems made from SpFunctionCost arrays. A new list (a live
 * update, a filter) replaces a table's rows; the user's choice of
 * function lives here, in `function`, and is selected again in each new
 * list. */
#include "sp-callers-view.h"


#include "sp-cells-private.h"
#include "sp-context-menu-private.h"
#include "sp-function-cells-private.h"
#include "sp-function-item-private.h"
#include "sp-function-search.h"
#include "sp-metric-format.h"

#define FUNCTION_LIST_WIDTH 380

/* The tables' headings, whose tooltips say what self and total count. */
typedef enum {
  HEADING_FUNCTIONS,
  HEADING_CALLERS,
  HEADING_CALLEES,
  N_HEADINGS
} Heading;

static const struct {
  const char *title;
  const char *samples;    /* the tooltip for samples */
  const char *time[4];    /* for a time metric: joined by what it counts */
} heading_texts[N_HEADINGS] = {
  [HEADING_FUNCTIONS] = { "Functions",
                          "Every function: self, the samples where it was running; total, those with it "
                          "anywhere on the stack.",
                          { "Every function: self, the ", " with it innermost on the stack; total, the ",
                            " with it anywhere on the stack.", NULL } },
  [HEADING_CALLERS] = { "Callers",
                        "Who calls the function (its outermost call on each stack). Total: samples through "
                        "that call; self: those where the function itself was running.",
                        { "Who calls the function (its outermost call on each stack). Total: the ",
                          " through that call; self: the ", " with the function itself innermost.", NULL } },
  [HEADING_CALLEES] = { "Callees",
                        "What the function calls. Total: samples in that call; self: those where the callee "
                        "itself was running.",
                        { "What the function calls. Total: the ", " in that call; self: the ",
                          " with the callee itself innermost.", NULL } },
};

/* One of the view's tables. */
typedef struct {
  GListStore         *store;       /* owned */
  GtkSingleSelection *selection;   /* owned */
  GtkColumnView      *column_view; /* a child widget */
} Table;

struct _SpCallersView
{
  GtkWidget parent_instance;

  /* Child widgets */
  GtkWidget *paned;
  GtkLabel  *name_label;
  GtkLabel  *figures_label;
  GtkWidget *headings[N_HEADINGS];

  /* Owned references */
  Table      functions;
  Table      callers;
  Table      callees;
  SpProfile *profile;

  guint32    function;   /* the chosen one, SP_FUNCTION_LIST_ROOT: none */
  guint32    picked;     /* the row right-clicked since, or SP_FUNCTION_LIST_ROOT */
  guint64    all;        /* the samples (or ns) percentages are of */
  SpMetric   metric;     /* what the costs count */
  SpFunctionCost focus;  /* the chosen function's, for its heading */
  gboolean   updating;   /* selection changes are the view's own */
  char      *last_search;   /* casefolded; Enter again goes to its next match */
};

enum {
  FUNCTION_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpCallersView, sp_callers_view, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------ */
/* Tables */

static GtkColumnViewColumn *
add_column (GtkColumnView *column_view,
            SpFunctionColumn column)
{
  GtkColumnViewColumn *view_column = _sp_function_cells_add_column (column_view, column, FALSE);

  if (column != SP_FUNCTION_COLUMN_NAME)
    gtk_column_view_column_set_fixed_width (view_column, column == SP_FUNCTION_COLUMN_MODULE ? 150 : 120);
  return view_column;
}

/* A table of functions in a scrolled window, sorted by sort_by (self or
 * total) descending; the module column only where there is room. */
static GtkWidget *
table_init (Table *table,
            gboolean with_module,
            SpFunctionColumn sort_by)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkColumnViewColumn *self_column, *total_column;
  GtkSortListModel *sorted;

  table->store = g_list_store_new (SP_TYPE_FUNCTION_ITEM);
  table->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (table->column_view, TRUE);
  add_column (table->column_view, SP_FUNCTION_COLUMN_NAME);
  if (with_module)
    add_column (table->column_view, SP_FUNCTION_COLUMN_MODULE);
  self_column = add_column (table->column_view, SP_FUNCTION_COLUMN_SELF);
  total_column = add_column (table->column_view, SP_FUNCTION_COLUMN_TOTAL);

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (table->store)),
                                    g_object_ref (gtk_column_view_get_sorter (table->column_view)));
  table->selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (table->selection, FALSE);
  gtk_single_selection_set_can_unselect (table->selection, TRUE);
  gtk_column_view_set_model (table->column_view, GTK_SELECTION_MODEL (table->selection));
  gtk_column_view_sort_by_column (table->column_view, sort_by == SP_FUNCTION_COLUMN_SELF ? self_column : total_column,
                                  GTK_SORT_DESCENDING);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (table->column_view));
  gtk_widget_set_vexpand (scroller, TRUE);
  return scroller;
}

static void
table_clear (Table *table)
{
  g_clear_object (&table->selection);
  g_clear_object (&table->store);
}

/* Replaces the table's rows with costs (NULL: none). */
static void
table_set (SpCallersView *self,
           Table *table,
           GArray *costs)
{
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; costs != NULL && i < costs->len; i++)
    {
      SpFunctionItem *item = sp_function_item_new (self->profile, &g_array_index (costs, SpFunctionCost, i), self->all);

      _sp_function_item_set_metric (item, self->metric);
      g_ptr_array_add (items, item);
    }
  g_list_store_splice (table->store, 0, g_list_model_get_n_items (G_LIST_MODEL (table->store)),
                       items->pdata, items->len);
}

/* The position of function's row as shown, or G_MAXUINT. */
static guint
table_find (Table *table,
            guint32 function)
{
  GListModel *rows = G_LIST_MODEL (table->selection);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (SpFunctionItem) item = g_list_model_get_item (rows, i);

      if (sp_function_item_get_function (item) == function)
        return i;
    }
  return G_MAXUINT;
}

/* ------------------------------------------------------------------ */
/* The chosen function */

static void
select_in_list (SpCallersView *self,
                gboolean scroll)
{
  guint position = table_find (&self->functions, self->function);

  self->updating = TRUE;
  gtk_single_selection_set_selected (self->functions.selection, position);
  self->updating = FALSE;
  if (scroll && position != G_MAXUINT)
    _sp_cells_scroll_to_selected (self->functions.column_view);
}

static void
show_heading (SpCallersView *self,
              const SpFunctionCost *cost)
{
  const SpFunction *function;
  g_autofree char *self_text = NULL;
  g_autofree char *total_text = NULL;
  g_autofree char *figures = NULL;
  double all = self->all > 0 ? (double) self->all : 1.0;

  if (cost == NULL)
    {
      gtk_label_set_text (self->name_label, "No function chosen");
      gtk_label_set_text (self->figures_label, "Pick one in the list, or select one in the call tree, the "
                                               "bottom-up tree or the flame graph.");
      return;
    }
  function = sp_profile_get_function (self->profile, cost->function);
  self_text = _sp_cells_format_share (100.0 * cost->self / all, cost->self, self->metric);
  total_text = _sp_cells_format_share (100.0 * cost->total / all, cost->total, self->metric);
  figures = g_strdup_printf ("%s%sself %s   ·   total %s", function->module,
                             function->module[0] != '\0' ? "   ·   " : "", self_text, total_text);
  gtk_label_set_text (self->name_label, function->name);
  gtk_label_set_text (self->figures_label, figures);
}

/* ------------------------------------------------------------------ */
/* What the user does */

static void
request_function (SpCallersView *self,
                  SpFunctionItem *item)
{
  guint32 function = item != NULL ? sp_function_item_get_function (item) : SP_FUNCTION_LIST_ROOT;

  if (function != SP_FUNCTION_LIST_ROOT)
    g_signal_emit (self, signals[FUNCTION_ACTIVATED], 0, function);
}

/* A click in the list chooses its function. */
static void
list_selection_changed (GtkSingleSelection *selection,
                        GParamSpec *pspec,
                        SpCallersView *self)
{
  if (!self->updating)
    request_function (self, gtk_single_selection_get_selected_item (selection));
}

/* A double click (or Enter) on a caller or callee chooses it. */
static void
neighbour_activated (GtkColumnView *column_view,
                     guint position,
                     SpCallersView *self)
{
  g_autoptr (SpFunctionItem) item = g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (column_view)),
                                                           position);

  request_function (self, item);
}

/* ------------------------------------------------------------------ */

static void
heading_set_tooltip (SpCallersView *self,
                     Heading heading)
{
  g_autofree char *tooltip = NULL;

  if (sp_metric_is_time (self->metric))
    tooltip = g_strjoinv (sp_metric_describe (self->metric), (char **) heading_texts[heading].time);
  gtk_widget_set_tooltip_text (self->headings[heading], tooltip != NULL ? tooltip : heading_texts[heading].samples);
}

static GtkWidget *
heading_new (SpCallersView *self,
             Heading heading)
{
  GtkWidget *label = gtk_label_new (heading_texts[heading].title);

  self->headings[heading] = label;
  heading_set_tooltip (self, heading);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_margin_start (label, 8);
  gtk_widget_set_margin_top (label, 6);
  gtk_widget_set_margin_bottom (label, 4);
  return label;
}

/* The function between its callers and callees: name, module, figures. */
static GtkWidget *
focus_box_new (SpCallersView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);

  self->name_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->name_label, 0);
  /* A C++ name is often wider than the view: on up to three lines
   * (broken inside a word if need be) most names show whole. */
  gtk_label_set_wrap (self->name_label, TRUE);
  gtk_label_set_wrap_mode (self->name_label, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_lines (self->name_label, 3);
  gtk_label_set_ellipsize (self->name_label, PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (self->name_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->name_label), "title-4");
  self->figures_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->figures_label, 0);
  gtk_label_set_wrap (self->figures_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->figures_label), "numeric");
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->name_label));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->figures_label));
  gtk_widget_set_margin_start (box, 8);
  gtk_widget_set_margin_end (box, 8);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  return box;
}

static GtkWidget *
butterfly_new (SpCallersView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_box_append (GTK_BOX (box), heading_new (self, HEADING_CALLERS));
  gtk_box_append (GTK_BOX (box), table_init (&self->callers, TRUE, SP_FUNCTION_COLUMN_TOTAL));
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (box), focus_box_new (self));
  gtk_box_append (GTK_BOX (box), gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_box_append (GTK_BOX (box), heading_new (self, HEADING_CALLEES));
  gtk_box_append (GTK_BOX (box), table_init (&self->callees, TRUE, SP_FUNCTION_COLUMN_TOTAL));
  g_signal_connect (self->callers.column_view, "activate", G_CALLBACK (neighbour_activated), self);
  g_signal_connect (self->callees.column_view, "activate", G_CALLBACK (neighbour_activated), self);
  return box;
}

static void
sp_callers_view_dispose (GObject *object)
{
  SpCallersView *self = SP_CALLERS_VIEW (object);

  _sp_context_menu_clear (GTK_WIDGET (self));
  g_clear_pointer (&self->paned, gtk_widget_unparent);
  table_clear (&self->functions);
  table_clear (&self->callers);
  table_clear (&self->callees);
  g_clear_pointer (&self->last_search, g_free);
  g_clear_pointer (&self->profile, sp_profile_unref);
  G_OBJECT_CLASS (sp_callers_view_parent_class)->dispose (object);
}

static void
sp_callers_view_class_init (SpCallersViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_callers_view_dispose;

  /* The user chose a function (in the list, or a caller or callee): its
   * id. The owner computes its callers and callees and calls
   * sp_callers_view_set_function. */
  signals[FUNCTION_ACTIVATED] = g_signal_new ("function-activated",
                                              G_TYPE_FROM_CLASS (klass),
                                              G_SIGNAL_RUN_LAST,
                                              0, NULL, NULL, NULL,
                                              G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sp-callers-view");
}

static void
sp_callers_view_init (SpCallersView *self)
{
  GtkWidget *list = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  self->function = SP_FUNCTION_LIST_ROOT;
  self->picked = SP_FUNCTION_LIST_ROOT;
  gtk_box_append (GTK_BOX (list), heading_new (self, HEADING_FUNCTIONS));
  gtk_box_append (GTK_BOX (list), table_init (&self->functions, FALSE, SP_FUNCTION_COLUMN_SELF));
  g_signal_connect (self->functions.selection, "notify::selected", G_CALLBACK (list_selection_changed), self);

  self->paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), list);
  gtk_paned_set_end_child (GTK_PANED (self->paned), butterfly_new (self));
  gtk_paned_set_resize_start_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_position (GTK_PANED (self->paned), FUNCTION_LIST_WIDTH);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));
  show_heading (self, NULL);
}

SpCallersView *
sp_callers_view_new (void)
{
  return g_object_new (SP_TYPE_CALLERS_VIEW, NULL);
}

void
sp_callers_view_set_functions (SpCallersView *self,
                               SpProfile *profile,
                               GArray *functions,
                               guint64 all)
{
  g_autoptr (GArray) owned G_GNUC_UNUSED = functions;

  g_return_if_fail (SP_IS_CALLERS_VIEW (self));
  g_return_if_fail ((profile == NULL) == (functions == NULL));

  self->updating = TRUE;
  if (profile == NULL || profile != self->profile)
    {
      /* Another profile: nothing of the old one stays. */
      table_set (self, &self->callers, NULL);
      table_set (self, &self->callees, NULL);
      self->function = SP_FUNCTION_LIST_ROOT;
      self->picked = SP_FUNCTION_LIST_ROOT;
    }
  if (profile != NULL)
    sp_profile_ref (profile);
  g_clear_pointer (&self->profile, sp_profile_unref);
  self->profile = profile;
  self->all = all;
  table_set (self, &self->functions, functions);
  self->updating = FALSE;
  if (profile == NULL || self->function == SP_FUNCTION_LIST_ROOT)
    show_heading (self, NULL);
  select_in_list (self, FALSE);
}

void
sp_callers_view_set_function (SpCallersView *self,
                              const SpFunctionCost *cost,
                              GArray *callers,
                              GArray *callees)
{
  g_autoptr (GArray) owned_callers G_GNUC_UNUSED = callers;
  g_autoptr (GArray) owned_callees G_GNUC_UNUSED = callees;
  gboolean changed;

  g_return_if_fail (SP_IS_CALLERS_VIEW (self));
  g_return_if_fail (self->profile != NULL);
  g_return_if_fail (cost != NULL && cost->function != SP_FUNCTION_LIST_ROOT);

  changed = cost->function != self->function;
  self->function = cost->function;
  if (changed)
    self->picked = SP_FUNCTION_LIST_ROOT;
  table_set (self, &self->callers, callers);
  table_set (self, &self->callees, callees);
  self->focus = *cost;
  show_heading (self, cost);
  select_in_list (self, changed);
}

/* Every item of table counts metric now. */
static void
table_set_metric (Table *table,
                  SpMetric metric)
{
  GListModel *items = G_LIST_MODEL (table->store);

  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr (SpFunctionItem) item = g_list_model_get_item (items, i);

      _sp_function_item_set_metric (item, metric);
    }
}

void
sp_callers_view_set_metric (SpCallersView *self,
                            SpMetric metric)
{
  g_return_if_fail (SP_IS_CALLERS_VIEW (self));

  if (metric == self->metric)
    return;
  self->metric = metric;
  table_set_metric (&self->functions, metric);
  table_set_metric (&self->callers, metric);
  table_set_metric (&self->callees, metric);
  for (Heading heading = 0; heading < N_HEADINGS; heading++)
    heading_set_tooltip (self, heading);
  show_heading (self, self->function != SP_FUNCTION_LIST_ROOT ? &self->focus : NULL);
}

SpMetric
sp_callers_view_get_metric (SpCallersView *self)
{
  g_return_val_if_fail (SP_IS_CALLERS_VIEW (self), SP_METRIC_CPU);

  return self->metric;
}

/* A right-click on a row selects it; in the list, that chooses its
 * function, as a click does. The menu's actions apply to it. */
static gboolean
select_at (GtkWidget *widget,
           double x,
           double y)
{
  SpCallersView *self = SP_CALLERS_VIEW (widget);
  GtkColumnView *column_view = NULL;
  guint position = _sp_context_menu_row_at (widget, x, y, &column_view);
  GtkSingleSelection *selection;
  g_autoptr (SpFunctionItem) item = NULL;

  if (position == GTK_INVALID_LIST_POSITION)
    return FALSE;
  selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (column_view));
  item = g_list_model_get_item (G_LIST_MODEL (selection), position);
  if (item == NULL)
    return FALSE;
  /* Before the selection: in the list, the chosen function follows only
   * when the owner has its callers and callees. */
  self->picked = sp_function_item_get_function (item);
  gtk_single_selection_set_selected (selection, position);
  return TRUE;
}

void
sp_callers_view_set_context_menu (SpCallersView *self,
                                  GMenuModel *menu)
{
  g_return_if_fail (SP_IS_CALLERS_VIEW (self));
  g_return_if_fail (menu == NULL || G_IS_MENU_MODEL (menu));

  _sp_context_menu_set_model (GTK_WIDGET (self), menu, select_at);
}

guint32
sp_callers_view_get_selected_function (SpCallersView *self)
{
  g_return_val_if_fail (SP_IS_CALLERS_VIEW (self), SP_FUNCTION_LIST_ROOT);

  return self->picked != SP_FUNCTION_LIST_ROOT ? self->picked : self->function;
}

typedef struct {
  guint   position;   /* in the list as shown */
  guint64 total;
} Match;

static int
compare_heavier (gconstpointer a,
                 gconstpointer b)
{
  const Match *ma = a, *mb = b;

  if (ma->total != mb->total)
    return ma->total > mb->total ? -1 : 1;
  return ma->position < mb->position ? -1 : ma->position > mb->position;
}

/* The list's rows whose name contains folded (casefolded), heaviest first. */
static GArray *
matching_rows (SpCallersView *self,
               const char *folded)
{
  GListModel *rows = G_LIST_MODEL (self->functions.selection);
  GArray *matches = g_array_new (FALSE, FALSE, sizeof (Match));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (SpFunctionItem) item = g_list_model_get_item (rows, i);
      Match match = { i, sp_function_item_get_total (item) };

      if (sp_function_search_name_matches (sp_function_item_get_name (item), folded))
        g_array_append_val (matches, match);
    }
  g_array_sort (matches, compare_heavier);
  return matches;
}

gboolean
sp_callers_view_search_next (SpCallersView *self,
                             const char *text)
{
  g_autofree char *folded = NULL;
  g_autoptr (GArray) matches = NULL;
  guint chosen, next = 0;

  g_return_val_if_fail (SP_IS_CALLERS_VIEW (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  if (text[0] == '\0')
    return FALSE;
  folded = g_utf8_casefold (text, -1);
  matches = matching_rows (self, folded);
  if (matches->len == 0)
    return FALSE;
  chosen = table_find (&self->functions, self->function);
  for (guint i = 0; g_strcmp0 (folded, self->last_search) == 0 && i < matches->len; i++)
    if (g_array_index (matches, Match, i).position == chosen)
      next = (i + 1) % matches->len;
  g_free (self->last_search);
  self->last_search = g_steal_pointer (&folded);
  /* Selecting the row chooses its function (list_selection_changed). */
  gtk_single_selection_set_selected (self->functions.selection, g_array_index (matches, Match, next).position);
  _sp_cells_scroll_to_selected (self->functions.column_view);
  return TRUE;
}

guint32
sp_callers_view_get_function (SpCallersView *self)
{
  g_return_val_if_fail (SP_IS_CALLERS_VIEW (self), SP_FUNCTION_LIST_ROOT);

  return self->function;
}

GListModel *
sp_callers_view_get_functions (SpCallersView *self)
{
  g_return_val_if_fail (SP_IS_CALLERS_VIEW (self), NULL);

  return G_LIST_MODEL (self->functions.selection);
}

GListModel *
sp_callers_view_get_callers (SpCallersView *self)
{
  g_return_val_if_fail (SP_IS_CALLERS_VIEW (self), NULL);

  return G_LIST_MODEL (self->callers.selection);
}

GListModel *
sp_callers_view_get_callees (SpCallersView *self)
{
  g_return_val_if_fail (SP_IS_CALLERS_VIEW (self), NULL);

  return G_LIST_MODEL (self->callees.selection);
}
