/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-call-tree-view.c: data/'s call tree shown as a tree table.
 *
 * The last step from aggregation to pixels: the tree's nodes become
 * SpTreeItems only when a row needs them (the root's children, then the
 * children of each row the first time it is expanded), in
 *   GListStore → GtkTreeListModel → SpBatchListModel → GtkSortListModel
 *   → GtkSingleSelection
 * under a GtkColumnView whose column sorters, wrapped in a
 * GtkTreeListRowSorter, sort each node's children among themselves.
 *
 * A live recording or a new filter hands the view a new tree a few times a
 * second: the rows are updated in place, matched by function path (node
 * numbers change from tree to tree), so what the user opened, selected and
 * scrolled to stays, and GTK keeps the row widgets (sp-tree-rows-private.h;
 * the cells follow their items' counts). Until the user touches the tree,
 * the rows follow each new tree's hot path instead. A view that is not
 * shown only keeps the last tree it was given, and updates its rows when
 * shown. */
#include "sp-call-tree-view.h"

#include <string.h>

#include "sp-batch-list-model.h"
#include "sp-cells-private.h"
#include "sp-context-menu-private.h"
#include "sp-function-cells-private.h"
#include "sp-function-search.h"
#include "sp-heaviest-private.h"
#include "sp-tree-item.h"
#include "sp-tree-rows-private.h"

#define HOT_PATH_MAX_DEPTH 30
/* A hot path goes on to a child with more than 1/20 (5%) of its parent. */
#define HOT_PATH_MIN_SHARE 20
/* A first tree's rows handed to the column view per frame: all at once,
 * GTK 4.8 makes and measures up to 200 row widgets in one frame (110 ms
 * of the main thread on deep stacks, with GTK's expander). As many as a
 * frame of REVEAL_FRAME_US (a 60 Hz frame) allows: a first frame takes
 * FIRST_ROWS_PER_FRAME, and each frame's time sets the next one's rows.
 * On a loaded machine (recording a program that keeps every CPU busy) the
 * main thread gets half a CPU, a frame takes twice as long, and fewer
 * rows go per frame. */
#define FIRST_ROWS_PER_FRAME 12
#define MIN_ROWS_PER_FRAME   4
#define MAX_ROWS_PER_FRAME   60
#define REVEAL_FRAME_US      16000

struct _SpCallTreeView
{
  GtkWidget parent_instance;

  /* Child widgets */
  GtkColumnView       *column_view;
  GtkColumnViewColumn *total_column;

  /* Owned references */
  SpTreeSource        *source;
  SpBatchListModel    *batch;            /* the tree list model, its updates passed on as one */
  GtkSortListModel    *sorted;
  GtkSingleSelection  *selection;
  SpCallTree          *pending_tree;     /* given while hidden: shown when mapped or asked about */
  SpProfile           *pending_profile;  /* pending_tree's */

  char                *last_search; /* casefolded; Enter again goes to its next match */
  GHashTable          *remembered;  /* function paths ("12,7,") of the rows the user had open */
  gboolean             touched;     /* the user expanded, collapsed or selected rows */
  gboolean             restoring;   /* the changes under way are the view's own */

  /* A first tree's rows, handed over a few dozen a frame (reveal_rows_tick) */
  guint                reveal_tick;   /* 0 when all are handed over */
  GtkTreeListRow      *reveal_hot;    /* the hot path's end, selected once all are */
  gboolean             reveal_waited; /* the frame the tree came in handed over none */
  guint                rows_per_frame;
  gint64               reveal_frame_us;  /* when this frame's rows_per_frame went (0: none) */
  GdkFrameClock       *reveal_clock;     /* whose after-paint times the frame */
  gulong               after_paint_id;
};

enum {
  PROP_0,
  /* GtkScrollable, passed on to the column view */
  PROP_HADJUSTMENT,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
  N_PROPS
};

enum {
  NODE_ACTIVATED,
  N_SIGNALS
};

G_DEFINE_FINAL_TYPE_WITH_CODE (SpCallTreeView, sp_call_tree_view, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

static guint signals[N_SIGNALS];

/* ------------------------------------------------------------------ */
/* Columns and models */

static void
add_columns (SpCallTreeView *self)
{
  GtkColumnViewColumn *column;

  _sp_function_cells_add_column (self->column_view, SP_FUNCTION_COLUMN_NAME, TRUE);
  column = _sp_function_cells_add_column (self->column_view, SP_FUNCTION_COLUMN_MODULE, TRUE);
  gtk_column_view_column_set_fixed_width (column, 160);
  column = _sp_function_cells_add_column (self->column_view, SP_FUNCTION_COLUMN_SELF, TRUE);
  gtk_column_view_column_set_fixed_width (column, 130);
  self->total_column = _sp_function_cells_add_column (self->column_view, SP_FUNCTION_COLUMN_TOTAL, TRUE);
  gtk_column_view_column_set_fixed_width (self->total_column, 130);
}

static GListModel *
create_children_model (gpointer item,
                       gpointer user_data)
{
  return sp_tree_item_create_children (SP_TREE_ITEM (item));
}

static GtkTreeListModel *
get_tree_model (SpCallTreeView *self)
{
  return GTK_TREE_LIST_MODEL (sp_batch_list_model_get_model (self->batch));
}

/* ------------------------------------------------------------------ */
/* Revealing and selecting nodes */

/* The row of node among parent's children (the top level for NULL);
 * parent must be expanded. */
static GtkTreeListRow *
find_child_row (GtkTreeListModel *model,
                GtkTreeListRow *parent,
                guint32 node)
{
  GListModel *children = parent != NULL ? gtk_tree_list_row_get_children (parent)
                                        : gtk_tree_list_model_get_model (model);
  guint n = children != NULL ? g_list_model_get_n_items (children) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (SpTreeItem) item = g_list_model_get_item (children, i);

      if (sp_tree_item_get_node (item) == node)
        return parent != NULL ? gtk_tree_list_row_get_child_row (parent, i)
                              : gtk_tree_list_model_get_child_row (model, i);
    }
  return NULL;
}

/* Expands node's ancestors in model (tree's); returns node's row. */
static GtkTreeListRow *
reveal_node (GtkTreeListModel *model,
             const SpCallTree *tree,
             guint32 node)
{
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  GtkTreeListRow *row = NULL;

  for (guint32 n = node; n != 0; n = tree->nodes[n].parent)
    g_array_prepend_val (path, n);
  for (guint i = 0; i < path->len; i++)
    {
      GtkTreeListRow *child = find_child_row (model, row, g_array_index (path, guint32, i));

      g_clear_object (&row);
      if (child == NULL)
        return NULL;
      row = child;
      if (i + 1 < path->len)
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
  return row;
}

static void
select_row (SpCallTreeView *self,
            GtkTreeListRow *row,
            gboolean scroll)
{
  GListModel *rows = G_LIST_MODEL (self->sorted);
  guint n = g_list_model_get_n_items (rows);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr (GtkTreeListRow) candidate = g_list_model_get_item (rows, i);

      if (candidate == row)
        {
          gtk_single_selection_set_selected (self->selection, i);
          if (scroll)
            _sp_cells_scroll_to_selected (self->column_view);
          return;
        }
    }
}

static void
select_node (SpCallTreeView *self,
             guint32 node,
             gboolean scroll)
{
  g_autoptr (GtkTreeListRow) row = reveal_node (get_tree_model (self), sp_tree_source_get_tree (self->source), node);

  if (row != NULL)
    select_row (self, row, scroll);
}

/* Follows the hottest child while it holds more than 5% of its parent. */
static guint32
find_hot_path_end (const SpCallTree *tree)
{
  guint32 node = 0;

  for (guint depth = 0; depth < HOT_PATH_MAX_DEPTH; depth++)
    {
      guint32 hottest = SP_CALL_TREE_NONE;

      for (guint32 c = tree->nodes[node].first_child; c != SP_CALL_TREE_NONE; c = tree->nodes[c].next_sibling)
        if (hottest == SP_CALL_TREE_NONE || tree->nodes[c].total > tree->nodes[hottest].total)
          hottest = c;
      if (hottest == SP_CALL_TREE_NONE)
        break;
      if (node != 0 && tree->nodes[hottest].total * HOT_PATH_MIN_SHARE <= tree->nodes[node].total)
        break;
      node = hottest;
    }
  return node;
}

/* ------------------------------------------------------------------ */
/* Keeping the user's state across trees */

/* The selected row's node in the model the view has (not a pending
 * tree's), or SP_CALL_TREE_NONE. */
static guint32
shown_selected_node (SpCallTreeView *self)
{
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (self->selection);
  g_autoptr (SpTreeItem) item = NULL;

  if (row == NULL)
    return SP_CALL_TREE_NONE;
  item = gtk_tree_list_row_get_item (row);
  return sp_tree_item_get_node (item);
}

static void
rows_changed (GListModel *model,
              guint position,
              guint removed,
              guint added,
              SpCallTreeView *self)
{
  if (!self->restoring)
    self->touched = TRUE;
}

static void
selection_changed (GtkSingleSelection *selection,
                   GParamSpec *pspec,
                   SpCallTreeView *self)
{
  if (!self->restoring)
    self->touched = TRUE;
}

/* ------------------------------------------------------------------ */
/* Rows open across trees that lack them */

/* "12,7,": path's first n functions, as a key. */
static char *
path_key (const GArray *path,
          guint n)
{
  GString *key = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (key, "%u,", g_array_index (path, guint32, i));
  return g_string_free (key, FALSE);
}

/* The paths of the rows open in the model shown (tree's). */
static GHashTable *
open_paths (SpCallTreeView *self,
            const SpCallTree *tree)
{
  GListModel *rows = G_LIST_MODEL (get_tree_model (self));
  GHashTable *open = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (SpTreeItem) item = NULL;
      g_autoptr (GArray) path = NULL;

      if (!gtk_tree_list_row_get_expanded (row))
        continue;
      item = gtk_tree_list_row_get_item (row);
      path = sp_call_tree_get_path (tree, sp_tree_item_get_node (item));
      g_hash_table_add (open, path_key (path, path->len));
    }
  return open;
}

/* Whether tree has key's row with callees: a row that could be open
 * there. (A row without callees, as a recursive function's after
 * Collapse Recursion, says nothing of what the user closed.) */
static gboolean
key_can_open_in_tree (const SpCallTree *tree,
                      const char *key)
{
  g_auto (GStrv) ids = g_strsplit (key, ",", -1);
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint n_found;
  guint32 node;

  for (guint i = 0; ids[i] != NULL && ids[i][0] != '\0'; i++)
    {
      guint32 id = (guint32) g_ascii_strtoull (ids[i], NULL, 10);

      g_array_append_val (path, id);
    }
  node = sp_call_tree_find_path (tree, (const guint32 *) path->data, path->len, &n_found);
  return path->len > 0 && n_found == path->len && tree->nodes[node].first_child != SP_CALL_TREE_NONE;
}

/* Before a new tree: what the user has open now is remembered, and what
 * the tree shown has but no longer open (closed by the user) forgotten;
 * rows the tree shown lacks, or has without callees (gone with a
 * transform), stay remembered.
 * Returns the rows open now. */
static GHashTable *
remember_open (SpCallTreeView *self,
               const SpCallTree *old_tree)
{
  GHashTable *open = open_paths (self, old_tree);
  GHashTableIter iter;
  const char *key;

  g_hash_table_iter_init (&iter, self->remembered);
  while (g_hash_table_iter_next (&iter, (gpointer *) &key, NULL))
    if (!g_hash_table_contains (open, key) && key_can_open_in_tree (old_tree, key))
      g_hash_table_iter_remove (&iter);
  g_hash_table_iter_init (&iter, open);
  while (g_hash_table_iter_next (&iter, (gpointer *) &key, NULL))
    g_hash_table_add (self->remembered, g_strdup (key));
  return open;
}

static int
compare_key_length (gconstpointer a,
                    gconstpointer b)
{
  size_t la = strlen (*(const char *const *) a), lb = strlen (*(const char *const *) b);

  return la < lb ? -1 : la > lb;
}

/* After a new tree: the rows remembered that were not open (the tree
 * shown lacked them) open again where the new tree has them, parents
 * first, each under parents that were open too. Clearing a transform
 * so gets back the rows open before it. */
static void
reopen_remembered (SpCallTreeView *self,
                   const SpCallTree *tree,
                   GHashTable *was_open)
{
  g_autoptr (GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter iter;
  const char *key;

  g_hash_table_iter_init (&iter, self->remembered);
  while (g_hash_table_iter_next (&iter, (gpointer *) &key, NULL))
    if (!g_hash_table_contains (was_open, key))
      g_ptr_array_add (keys, (gpointer) key);
  g_ptr_array_sort (keys, compare_key_length);
  for (guint i = 0; i < keys->len; i++)
    {
      const char *k = g_ptr_array_index (keys, i);
      g_auto (GStrv) ids = g_strsplit (k, ",", -1);
      g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_autoptr (GtkTreeListRow) row = NULL;
      gboolean parents_open = TRUE;
      guint n_found;
      guint32 node;

      for (guint j = 0; ids[j] != NULL && ids[j][0] != '\0'; j++)
        {
          guint32 id = (guint32) g_ascii_strtoull (ids[j], NULL, 10);
          g_autofree char *prefix = path_key (path, path->len);

          if (path->len > 0 && !g_hash_table_contains (self->remembered, prefix))
            parents_open = FALSE;
          g_array_append_val (path, id);
        }
      node = sp_call_tree_find_path (tree, (const guint32 *) path->data, path->len, &n_found);
      if (!parents_open || n_found != path->len)
        continue;
      row = reveal_node (get_tree_model (self), tree, node);
      if (row != NULL)
        gtk_tree_list_row_set_expanded (row, TRUE);
    }
}

/* ------------------------------------------------------------------ */
/* Showing a tree */

/* The top level of the source's tree, as a tree list model whose rows open
 * on demand. */
static GtkTreeListModel *
tree_model_new (SpCallTreeView *self)
{
  g_autoptr (SpTreeItem) root = sp_tree_item_new (self->source, 0);
  GListModel *top_level = sp_tree_item_create_children (root);

  if (top_level == NULL)
    top_level = G_LIST_MODEL (g_list_store_new (SP_TYPE_TREE_ITEM));
  return gtk_tree_list_model_new (top_level, FALSE, FALSE, create_children_model, NULL, NULL);
}

/* ------------------------------------------------------------------ */
/* Handing a first tree's rows over, a few dozen a frame */

static void reveal_frame_painted (GdkFrameClock *clock,
                                  SpCallTreeView *self);

/* The frame clock whose after-paint times the frames that hand rows over. */
static void
follow_frame_clock (SpCallTreeView *self,
                    GdkFrameClock *clock)
{
  /* A surface destroyed disposes its clock, and disposing drops every
   * handler: ours may be gone already. */
  if (self->reveal_clock != NULL && self->after_paint_id != 0
      && g_signal_handler_is_connected (self->reveal_clock, self->after_paint_id))
    g_signal_handler_disconnect (self->reveal_clock, self->after_paint_id);
  self->after_paint_id = 0;
  g_set_object (&self->reveal_clock, clock);
  if (clock != NULL)
    self->after_paint_id = g_signal_connect (clock, "after-paint", G_CALLBACK (reveal_frame_painted), self);
}

/* No more rows handed over by frames: the caller passes the rest on. */
static void
stop_revealing (SpCallTreeView *self)
{
  if (self->reveal_tick != 0)
    gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->reveal_tick);
  self->reveal_tick = 0;
  g_clear_object (&self->reveal_hot);
  follow_frame_clock (self, NULL);
  self->reveal_frame_us = 0;
}

/* The rows not handed over yet go now (unless held: with the release),
 * and the hot row is selected and scrolled to, as when a first tree came
 * at once, unless the user touched the rows meanwhile. */
static void
finish_revealing (SpCallTreeView *self)
{
  g_autoptr (GtkTreeListRow) hot = g_steal_pointer (&self->reveal_hot);
  gboolean restoring = self->restoring;

  stop_revealing (self);
  self->restoring = TRUE;
  sp_batch_list_model_set_limit (self->batch, G_MAXUINT);
  if (hot != NULL && !self->touched)
    select_row (self, hot, TRUE);
  self->restoring = restoring;
}

/* The next rows, in the order of the tree list model: each row's parent
 * comes before it, and the sort model above puts the siblings (already
 * in the column's order) after the rows already shown, which keep their
 * positions and widgets. */
static gboolean
reveal_rows_tick (GtkWidget *widget,
                  GdkFrameClock *frame_clock,
                  gpointer user_data)
{
  SpCallTreeView *self = SP_CALL_TREE_VIEW (widget);
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->batch));

  /* The frame the tree came in lays out the rest of the window (the
   * timeline, the thread list, a recording's whole page): none there. */
  if (!self->reveal_waited && !self->touched)
    {
      self->reveal_waited = TRUE;
      return G_SOURCE_CONTINUE;
    }
  /* The frame's time from here: handing rows over makes their widgets. */
  self->reveal_frame_us = g_get_monotonic_time ();
  /* Moved to another window, the view ticks on that one's clock. */
  if (frame_clock != self->reveal_clock)
    follow_frame_clock (self, frame_clock);
  self->restoring = TRUE;
  sp_batch_list_model_set_limit (self->batch, shown + self->rows_per_frame);
  self->restoring = FALSE;
  if (sp_batch_list_model_is_limited (self->batch) && !self->touched)
    return G_SOURCE_CONTINUE;
  /* finish_revealing must not remove the callback that is returning. */
  self->reveal_tick = 0;
  finish_revealing (self);
  return G_SOURCE_REMOVE;
}

/* The frame that took rows is drawn: its time sets the next one's rows,
 * in proportion, by at most half or half again a frame. */
static void
reveal_frame_painted (GdkFrameClock *clock,
                      SpCallTreeView *self)
{
  gint64 took;
  double rows;

  if (self->reveal_frame_us == 0)
    return;
  took = MAX (g_get_monotonic_time () - self->reveal_frame_us, 1);
  self->reveal_frame_us = 0;
  rows = CLAMP ((double) self->rows_per_frame * REVEAL_FRAME_US / (double) took, self->rows_per_frame * 0.5,
                self->rows_per_frame * 1.5);
  self->rows_per_frame = CLAMP ((guint) rows, MIN_ROWS_PER_FRAME, MAX_ROWS_PER_FRAME);
}

/* After a first tree's model was set with the limit: the rest of its rows
 * come from the next frame on, as many a frame as fit
 * (reveal_frame_painted), then hot (may be NULL) is selected. */
static void
start_revealing (SpCallTreeView *self,
                 GtkTreeListRow *hot,
                 gboolean wait_a_frame)
{
  stop_revealing (self);
  self->reveal_hot = hot != NULL ? g_object_ref (hot) : NULL;
  if (sp_batch_list_model_is_limited (self->batch) && gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->reveal_waited = !wait_a_frame;
      /* Each tree starts low: the last one's pace may not be this one's
       * (a recording started since keeps the CPUs busy). */
      self->rows_per_frame = FIRST_ROWS_PER_FRAME;
      self->reveal_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self), reveal_rows_tick, NULL, NULL);
      follow_frame_clock (self, gtk_widget_get_frame_clock (GTK_WIDGET (self)));
    }
  else
    finish_revealing (self);
}

/* A first tree, or one of another profile: a model of its own, with the
 * hottest path open, selected and scrolled to. The rows are opened before
 * the view sees the model (each expansion under the view would rebind its
 * visible rows), the old model goes in the same swap, and the rows reach
 * the view a few dozen a frame (start_revealing): from the frame after
 * this one when wait_a_frame (that one lays out the rest of the window). */
static void
show_first_tree (SpCallTreeView *self,
                 SpProfile *profile,
                 SpCallTree *tree,
                 gboolean wait_a_frame)
{
  g_autoptr (GtkTreeListModel) tree_model = NULL;
  g_autoptr (GtkTreeListRow) selected_row = NULL;
  SpTreeSource *old_source;
  guint32 hot = find_hot_path_end (tree);

  self->touched = FALSE;
  self->restoring = TRUE;
  g_hash_table_remove_all (self->remembered);
  if (self->source != NULL)
    g_signal_handlers_disconnect_by_func (get_tree_model (self), rows_changed, self);
  old_source = g_steal_pointer (&self->source);
  self->source = sp_tree_source_new (profile, tree);
  tree_model = tree_model_new (self);
  selected_row = hot != 0 ? reveal_node (tree_model, tree, hot) : NULL;
  /* A tree of a few rows comes at once; a larger one from the next frame
   * on: the frame that shows a recording's first result has the rest of
   * the window to lay out (the thread list, the timeline). */
  sp_batch_list_model_set_limit (self->batch, g_list_model_get_n_items (G_LIST_MODEL (tree_model)) <= FIRST_ROWS_PER_FRAME
                                                ? G_MAXUINT : 0);
  sp_batch_list_model_set_model (self->batch, G_LIST_MODEL (tree_model));
  g_signal_connect (tree_model, "items-changed", G_CALLBACK (rows_changed), self);
  g_clear_pointer (&old_source, sp_tree_source_unref);
  start_revealing (self, selected_row, wait_a_frame);
  self->restoring = FALSE;
}

/* The nodes from the top level down to node's parent: the rows to open
 * to show node. */
static GArray *
ancestors_of (const SpCallTree *tree,
              guint32 node)
{
  GArray *ancestors = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint32 n = tree->nodes[node].parent; node != 0 && n != 0; n = tree->nodes[n].parent)
    g_array_prepend_val (ancestors, n);
  return ancestors;
}

/* A new tree of the profile shown (a live update, a new time range or
 * filter): the rows are updated in place (sp-tree-rows-private.h), so the
 * column view keeps its row widgets and scroll offset. Once the user has
 * touched the rows, what was open stays open and the selection stays on
 * its function path (or as much of it as the new tree has); until then,
 * the rows follow the new tree's hottest path. */
static void
update_tree (SpCallTreeView *self,
             SpCallTree *tree)
{
  g_autoptr (GArray) selected_path = NULL;
  g_autoptr (GArray) open = NULL;
  g_autoptr (GHashTable) was_open = NULL;
  g_autoptr (GtkTreeListRow) row = NULL;
  SpTreeSource *old_source = self->source;
  guint32 selected = shown_selected_node (self);
  guint32 hot = self->touched ? 0 : find_hot_path_end (tree);
  guint32 target;

  self->restoring = TRUE;
  self->source = sp_tree_source_new (sp_tree_source_get_profile (old_source), tree);
  if (self->touched && selected != SP_CALL_TREE_NONE)
    selected_path = sp_call_tree_get_path (sp_tree_source_get_tree (old_source), selected);
  if (!self->touched)
    open = ancestors_of (tree, hot);
  else
    was_open = remember_open (self, sp_tree_source_get_tree (old_source));
  /* The sort model keeps each row's sort key (its total) from when the row
   * came: passed on as one change of all rows, the update gives it new
   * keys for all, and the column view rebinds each row shown once. */
  sp_batch_list_model_hold (self->batch);
  /* A first tree's rows still on their way come with this change; this
   * tree's hot path (untouched) or the user's row is selected below. */
  stop_revealing (self);
  sp_batch_list_model_set_limit (self->batch, G_MAXUINT);
  _sp_tree_rows_update (get_tree_model (self), self->source, open);
  if (was_open != NULL)
    reopen_remembered (self, tree, was_open);
  sp_batch_list_model_release (self->batch);
  sp_tree_source_unref (old_source);

  if (selected_path != NULL)
    target = sp_call_tree_find_path (tree, (const guint32 *) selected_path->data, selected_path->len, NULL);
  else
    target = hot;
  if (target != 0 && target != shown_selected_node (self))
    row = reveal_node (get_tree_model (self), tree, target);
  /* Following the hottest path (untouched), the view follows it too: the
   * rows opened before may have closed above it. */
  if (row != NULL)
    select_row (self, row, !self->touched);
  else if (target == 0 && !self->touched)
    gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->restoring = FALSE;
}

/* The rows tree has with its hot path open: the top level and the
 * children of each node on the path. */
static guint
rows_with_hot_path (const SpCallTree *tree)
{
  g_autoptr (GArray) open = ancestors_of (tree, find_hot_path_end (tree));
  guint rows = tree->nodes[0].n_children;

  for (guint i = 0; i < open->len; i++)
    rows += tree->nodes[g_array_index (open, guint32, i)].n_children;
  return rows;
}

/* A live recording's first trees are small (a few stacks) and come at
 * once; the next may open a hot path dozens of levels deeper. Updated in
 * place, its new rows would all come in one frame; the user has not
 * touched the few rows shown, so the tree comes as a first one instead,
 * a few rows a frame. */
static gboolean
grows_like_a_first_tree (SpCallTreeView *self,
                         const SpCallTree *tree)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->batch));

  /* Not while a first tree's rows still come: started again at each
   * update, they would never all come. */
  return !self->touched && self->reveal_tick == 0 && shown <= FIRST_ROWS_PER_FRAME
         && rows_with_hot_path (tree) > shown + FIRST_ROWS_PER_FRAME;
}

static void
show_tree (SpCallTreeView *self,
           SpProfile *profile,
           SpCallTree *tree)
{
  gboolean same = self->source != NULL && sp_tree_source_get_profile (self->source) == profile
                  && sp_tree_source_get_tree (self->source)->bottom_up == tree->bottom_up;

  if (same && !grows_like_a_first_tree (self, tree))
    update_tree (self, tree);
  else
    /* The rest of the window is laid out already for a tree that grows. */
    show_first_tree (self, profile, tree, !same);
}

/* A tree given while the view was hidden, now shown. */
static void
show_pending (SpCallTreeView *self)
{
  g_autoptr (SpProfile) profile = NULL;

  if (self->pending_tree == NULL)
    return;
  profile = g_steal_pointer (&self->pending_profile);
  show_tree (self, profile, g_steal_pointer (&self->pending_tree));
}

/* The rows as they will be, now needed: a pending tree shown, all its
 * rows handed over. */
static void
ensure_shown (SpCallTreeView *self)
{
  show_pending (self);
  finish_revealing (self);
}

static void
sp_call_tree_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (sp_call_tree_view_parent_class)->map (widget);
  show_pending (SP_CALL_TREE_VIEW (widget));
}

/* ------------------------------------------------------------------ */

static void
on_activate (GtkColumnView *column_view,
             guint position,
             gpointer user_data)
{
  SpCallTreeView *self = user_data;
  g_autoptr (GtkTreeListRow) row = NULL;
  g_autoptr (SpTreeItem) item = NULL;

  ensure_shown (self);
  row = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);
  item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;

  if (item != NULL)
    g_signal_emit (self, signals[NODE_ACTIVATED], 0, sp_tree_item_get_node (item));
}

static void
sp_call_tree_view_dispose (GObject *object)
{
  SpCallTreeView *self = SP_CALL_TREE_VIEW (object);

  stop_revealing (self);
  if (self->source != NULL)
    g_signal_handlers_disconnect_by_func (get_tree_model (self), rows_changed, self);
  _sp_context_menu_clear (GTK_WIDGET (self));
  g_clear_pointer ((GtkWidget **) &self->column_view, gtk_widget_unparent);
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->batch);
  g_clear_pointer (&self->source, sp_tree_source_unref);
  g_clear_pointer (&self->pending_tree, sp_call_tree_free);
  g_clear_pointer (&self->last_search, g_free);
  g_clear_pointer (&self->remembered, g_hash_table_unref);
  g_clear_pointer (&self->pending_profile, sp_profile_unref);
  G_OBJECT_CLASS (sp_call_tree_view_parent_class)->dispose (object);
}

static void
sp_call_tree_view_get_property (GObject *object,
                                guint prop_id,
                                GValue *value,
                                GParamSpec *pspec)
{
  SpCallTreeView *self = SP_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_HADJUSTMENT:
    case PROP_VADJUSTMENT:
    case PROP_HSCROLL_POLICY:
    case PROP_VSCROLL_POLICY:
      g_object_get_property (G_OBJECT (self->column_view), pspec->name, value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sp_call_tree_view_set_property (GObject *object,
                                guint prop_id,
                                const GValue *value,
                                GParamSpec *pspec)
{
  SpCallTreeView *self = SP_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_HADJUSTMENT:
    case PROP_VADJUSTMENT:
    case PROP_HSCROLL_POLICY:
    case PROP_VSCROLL_POLICY:
      if (self->column_view != NULL)
        g_object_set_property (G_OBJECT (self->column_view), pspec->name, value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sp_call_tree_view_class_init (SpCallTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_call_tree_view_dispose;
  object_class->get_property = sp_call_tree_view_get_property;
  object_class->set_property = sp_call_tree_view_set_property;

  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  /* A row was activated (double click, Enter): the node's index. */
  signals[NODE_ACTIVATED] = g_signal_new ("node-activated",
                                          G_TYPE_FROM_CLASS (klass),
                                          G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 1, G_TYPE_UINT);

  widget_class->map = sp_call_tree_view_map;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "sp-call-tree-view");
}

static void
sp_call_tree_view_init (SpCallTreeView *self)
{
  GtkSorter *row_sorter;

  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->column_view, TRUE);
  gtk_widget_set_parent (GTK_WIDGET (self->column_view), GTK_WIDGET (self));
  add_columns (self);

  row_sorter = GTK_SORTER (gtk_tree_list_row_sorter_new (g_object_ref (gtk_column_view_get_sorter (self->column_view))));
  self->remembered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->batch = sp_batch_list_model_new (NULL);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->batch)), row_sorter);
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_sort_by_column (self->column_view, self->total_column, GTK_SORT_DESCENDING);

  g_signal_connect (self->column_view, "activate", G_CALLBACK (on_activate), self);
  g_signal_connect (self->selection, "notify::selected", G_CALLBACK (selection_changed), self);
}

SpCallTreeView *
sp_call_tree_view_new (void)
{
  return g_object_new (SP_TYPE_CALL_TREE_VIEW, NULL);
}

/* A tree that waited and was never shown goes on a worker thread: giving
 * a large tree's memory back (tens of MB for a long recording's bottom-up
 * tree) held the main thread ~3 ms on each update of a hidden view. */
static void
drop_pending_tree (SpCallTreeView *self)
{
  g_clear_pointer (&self->pending_profile, sp_profile_unref);
  g_clear_pointer (&self->pending_tree, sp_call_tree_free_in_background);
}

/* While the view is hidden (another page), the tree waits: a live
 * recording or a new time range replaces the trees of every view, and
 * building rows nobody sees held the main thread. Only the last tree given
 * is built, when the view is shown or asked about (show_tree). */
void
sp_call_tree_view_set_tree (SpCallTreeView *self,
                            SpProfile *profile,
                            SpCallTree *tree)
{
  g_return_if_fail (SP_IS_CALL_TREE_VIEW (self));
  g_return_if_fail ((profile == NULL) == (tree == NULL));

  drop_pending_tree (self);
  if (tree == NULL)
    {
      stop_revealing (self);
      self->restoring = TRUE;
      if (self->source != NULL)
        g_signal_handlers_disconnect_by_func (get_tree_model (self), rows_changed, self);
      sp_batch_list_model_set_model (self->batch, NULL);
      sp_batch_list_model_set_limit (self->batch, G_MAXUINT);
      g_clear_pointer (&self->source, sp_tree_source_unref);
      /* Another profile may come next: its tree starts afresh. */
      self->touched = FALSE;
      if (self->remembered != NULL)
        g_hash_table_remove_all (self->remembered);
      self->restoring = FALSE;
      return;
    }
  if (!gtk_widget_get_mapped (GTK_WIDGET (self)))
    {
      self->pending_tree = tree;
      self->pending_profile = sp_profile_ref (profile);
      return;
    }
  show_tree (self, profile, tree);
}

gboolean
sp_call_tree_view_search_next (SpCallTreeView *self,
                               const char *text)
{
  g_autofree gboolean *matches = NULL;
  g_autoptr (GArray) nodes = NULL;
  g_autofree char *folded = NULL;
  const SpCallTree *tree;
  guint32 selected;
  guint next = 0;

  g_return_val_if_fail (SP_IS_CALL_TREE_VIEW (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  ensure_shown (self);
  if (self->source == NULL || text[0] == '\0')
    return FALSE;
  tree = sp_tree_source_get_tree (self->source);
  /* The tree's count: functions a live worker adds meanwhile are not read. */
  matches = sp_function_search_match (sp_tree_source_get_profile (self->source), tree->n_functions, text);
  nodes = _sp_heaviest_nodes (tree, matches);
  if (nodes->len == 0)
    return FALSE;
  /* The same search again goes on from the match selected. */
  folded = g_utf8_casefold (text, -1);
  selected = sp_call_tree_view_get_selected_node (self);
  for (guint i = 0; g_strcmp0 (folded, self->last_search) == 0 && i < nodes->len; i++)
    if (g_array_index (nodes, guint32, i) == selected)
      next = (i + 1) % nodes->len;
  g_free (self->last_search);
  self->last_search = g_steal_pointer (&folded);
  select_node (self, g_array_index (nodes, guint32, next), TRUE);
  return TRUE;
}

/* A right-click selects the row under the pointer: the menu's actions
 * apply to the selection. */
static gboolean
select_at (GtkWidget *widget,
           double x,
           double y)
{
  SpCallTreeView *self = SP_CALL_TREE_VIEW (widget);

  ensure_shown (self);
  return _sp_context_menu_select_row_at (widget, self->selection, x, y);
}

void
sp_call_tree_view_set_context_menu (SpCallTreeView *self,
                                    GMenuModel *menu)
{
  g_return_if_fail (SP_IS_CALL_TREE_VIEW (self));
  g_return_if_fail (menu == NULL || G_IS_MENU_MODEL (menu));

  _sp_context_menu_set_model (GTK_WIDGET (self), menu, select_at);
}

guint32
sp_call_tree_view_get_selected_node (SpCallTreeView *self)
{
  g_return_val_if_fail (SP_IS_CALL_TREE_VIEW (self), SP_CALL_TREE_NONE);

  ensure_shown (self);
  return shown_selected_node (self);
}

GListModel *
sp_call_tree_view_get_model (SpCallTreeView *self)
{
  g_return_val_if_fail (SP_IS_CALL_TREE_VIEW (self), NULL);

  ensure_shown (self);
  return G_LIST_MODEL (self->sorted);
}

GListModel *
sp_call_tree_view_get_shown_rows (SpCallTreeView *self)
{
  g_return_val_if_fail (SP_IS_CALL_TREE_VIEW (self), NULL);
  return G_LIST_MODEL (self->sorted);
}

/* The functions from the root to the selected row (the selected one last);
 * for a bottom-up tree, from the innermost function outwards. NULL when no
 * row is selected. */
GArray *
sp_call_tree_view_get_selected_path (SpCallTreeView *self)
{
  guint32 node;

  g_return_val_if_fail (SP_IS_CALL_TREE_VIEW (self), NULL);

  node = sp_call_tree_view_get_selected_node (self);
  if (node == SP_CALL_TREE_NONE || self->source == NULL)
    return NULL;
  return sp_call_tree_get_path (sp_tree_source_get_tree (self->source), node);
}

gboolean
sp_call_tree_view_is_revealing (SpCallTreeView *self)
{
  g_return_val_if_fail (SP_IS_CALL_TREE_VIEW (self), FALSE);

  return self->reveal_tick != 0;
}
