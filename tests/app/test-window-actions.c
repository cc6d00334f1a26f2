/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-window-actions.c: what the user does to a recording's views, done
 * with real pointer events (XTEST, pointer-test.h) on a real recording of
 * a recursion (the deep workload): the right-click menu's transforms in
 * each view, the menu's size and the tooltips under it. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test.h"
#include "pointer-test.h"
#include "sp-call-tree-view.h"
#include "sp-callers-view.h"
#include "sp-flame-graph.h"
#include "sp-function-item.h"
#include "sp-name-label.h"
#include "sp-tree-item.h"
#include "sp-window-testing.h"
#include "view-test.h"
#include "window-test.h"

/* The recursion's depth: main → descend × (DEPTH + 1) → deep_work → deep_leaf. */
#define DEPTH "6"

static char *recording_dir;

/* The workloads recorded, once each for all tests: the deep recursion,
 * and the threads workload (its function list is longer than the window). */
typedef enum {
  RECORDING_DEEP,
  RECORDING_THREADS,
  N_RECORDINGS
} Recording;

static char *recordings[N_RECORDINGS];

static void
remove_recordings (void)
{
  for (guint i = 0; i < N_RECORDINGS; i++)
    if (recordings[i] != NULL)
      {
        g_autofree char *meta = g_strconcat (recordings[i], ".meta", NULL);

        g_unlink (recordings[i]);
        g_unlink (meta);
        g_clear_pointer (&recordings[i], g_free);
      }
  if (recording_dir != NULL)
    g_rmdir (recording_dir);
}

/* which, recorded; NULL (the test skipped) where perf_event is refused,
 * except in CI. */
static const char *
get_recording (Recording which)
{
  static const char *const names[] = { "deep.spool", "threads.spool" };
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;

  if (recordings[which] != NULL)
    return recordings[which];
  if (recording_dir == NULL)
    recording_dir = g_dir_make_tmp ("stackpulse-actions-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (recording_dir, names[which], NULL);
  if (!window_test_record (path, "1000", g_getenv (which == RECORDING_DEEP ? "SP_WORK_DEEP" : "SP_WORK_THREADS"),
                           "0.5", which == RECORDING_DEEP ? DEPTH : NULL, NULL))
    return NULL;
  return recordings[which] = g_steal_pointer (&path);
}

/* ---- Tests --------------------------------------------------------------- */

typedef struct {
  SpCallTreeView *view;
  const char     *path;   /* a path suffix */
  const char     *children;   /* what that row's children must be */
} Expect;

static gboolean
children_are (gpointer data)
{
  Expect *expect = data;
  g_autoptr (GtkTreeListRow) row = view_test_find_row (expect->view, expect->path);
  g_autofree char *names = row != NULL ? view_test_child_names (row) : NULL;

  return g_strcmp0 (names, expect->children) == 0;
}

/* In the call tree, with the row's tooltip shown, a right-click on a
 * recursion's outermost call and
 * Collapse Recursion (the menu's last item): the calls within it fold
 * into it. The right-click selects the row it was on (not the hot path's
 * end, selected when the recording opened). */
static void
test_call_tree_menu (void)
{
  const char *path = get_recording (RECORDING_DEEP);
  SpWindow *window;
  SpCallTreeView *view;
  g_autoptr (GtkTreeListRow) outer = NULL;
  g_autoptr (GtkTreeListRow) above = NULL;
  g_autofree char *before = NULL;
  g_autofree char *chosen = NULL;
  GtkPopover *menu;
  GtkWidget *label;
  Expect expect;

  if (path == NULL)
    return;
  window = view_test_open_recording (path);
  view = sp_window_get_call_tree_view (window);
  outer = view_test_find_row (view, "main;descend");
  g_assert_nonnull (outer);
  before = view_test_child_names (outer);
  g_assert_cmpstr (before, ==, "descend");

  /* The pointer rests on the row until its tooltip shows. */
  label = view_test_row_label (view, outer);
  pointer_test_move (label, 5, gtk_widget_get_height (label) / 2.0);
  g_assert_true (window_test_wait (view_test_popup_shown, window, 5));
  g_assert_cmpuint (pointer_test_count_popups (GTK_WIDGET (window)), ==, 1);

  /* The menu opens: the tooltip goes, and no row's tooltip shows while
   * the menu is open, here or on the row above (where GTK, having just
   * shown a tooltip, would show the next at once). */
  menu = view_test_open_menu_on (GTK_WIDGET (view), label);
  window_test_run (1.5);
  g_assert_cmpuint (pointer_test_count_popups (GTK_WIDGET (window)), ==, 1);
  above = view_test_find_row (view, "__libc_start_call_main;main");
  g_assert_nonnull (above);
  pointer_test_move (view_test_row_label (view, above), 5, 5);
  pointer_test_move (view_test_row_label (view, above), 10, 8);
  window_test_run (1.5);
  g_assert_cmpuint (pointer_test_count_popups (GTK_WIDGET (window)), ==, 1);
  chosen = view_test_selected_path (view);
  g_assert_true (g_str_has_suffix (chosen, ";main;descend"));
  gui_test_save_png (GTK_WIDGET (menu), "actions-call-tree-menu.png");
  view_test_pick (menu, "Collapse Recursion");

  expect = (Expect) { view, "main;descend", "deep_work" };
  g_assert_true (window_test_wait (children_are, &expect, 20));
  gui_test_save_png (GTK_WIDGET (window), "actions-collapsed-recursion.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct {
  SpCallTreeView *view;
  const char     *name;
} Absent;

static gboolean
top_level_lacks (gpointer data)
{
  Absent *absent = data;
  g_autofree char *names = view_test_top_level_names (absent->view);
  g_auto (GStrv) split = g_strsplit (names, ";", -1);

  return !g_strv_contains ((const char *const *) split, absent->name);
}

/* In the bottom-up tree, Drop Samples with Function on the hottest leaf:
 * its row goes, the others stay. */
static void
test_bottom_up_menu (void)
{
  const char *path = get_recording (RECORDING_DEEP);
  SpWindow *window;
  SpCallTreeView *view;
  g_autoptr (GtkTreeListRow) leaf = NULL;
  GtkPopover *menu;
  Absent absent;

  if (path == NULL)
    return;
  window = view_test_open_recording (path);
  sp_window_show_view (window, "bottom-up");
  view = view_test_view_on_page (window, "bottom-up");
  for (gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
       leaf == NULL && g_get_monotonic_time () < deadline;)
    {
      window_test_run (0.05);
      leaf = view_test_find_row (view, "deep_leaf");
    }
  g_assert_nonnull (leaf);
  g_assert_cmpuint (gtk_tree_list_row_get_depth (leaf), ==, 0);

  menu = view_test_open_menu_on (GTK_WIDGET (view), view_test_row_label (view, leaf));
  g_assert_cmpstr (view_test_selected_path (view), ==, "deep_leaf");
  view_test_pick (menu, "Drop Samples with Function");

  absent = (Absent) { view, "deep_leaf" };
  if (!window_test_wait (top_level_lacks, &absent, 20))
    {
      g_autofree char *names = view_test_top_level_names (view);

      gui_test_save_png (GTK_WIDGET (window), "actions-bottom-up-failed.png");
      g_error ("the bottom-up tree's top level still has deep_leaf: %s", names);
    }
  gui_test_save_png (GTK_WIDGET (window), "actions-bottom-up-dropped.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- The flame graph ------------------------------------------------------ */

/* The flame graph's row height (sp-flame-graph.c). */
#define FLAME_ROW_HEIGHT 18

/* The middle of the flame graph's row (0: the root's, at the bottom). */
static double
flame_row_y (GtkWidget *graph,
             guint row)
{
  return gtk_widget_get_height (graph) - (row + 0.5) * FLAME_ROW_HEIGHT;
}

/* The name of the function drawn in the middle of row. */
static char *
flame_name_at (GtkWidget *graph,
               guint row)
{
  guint32 node = sp_flame_graph_node_at (SP_FLAME_GRAPH (graph), gtk_widget_get_width (graph) / 2.0,
                                         flame_row_y (graph, row));
  g_autofree char *markup = node != SP_CALL_TREE_NONE ? sp_flame_graph_describe (SP_FLAME_GRAPH (graph), node) : NULL;
  const char *end = markup != NULL ? strstr (markup, "</b>") : NULL;

  if (end == NULL || !g_str_has_prefix (markup, "<b>"))
    return NULL;
  return g_strndup (markup + 3, end - markup - 3);
}

/* The row of the flame graph whose middle frame is name, above main; 0
 * when none is. */
static guint
flame_row_of (GtkWidget *graph,
              const char *name)
{
  gboolean above_main = FALSE;

  for (guint row = 1; row < 40; row++)
    {
      g_autofree char *shown = flame_name_at (graph, row);

      if (above_main && g_strcmp0 (shown, name) == 0)
        return row;
      above_main = above_main || g_strcmp0 (shown, "main") == 0;
    }
  return 0;
}

typedef struct {
  GtkWidget *graph;
  guint      row;
  const char *name;
} FlameExpect;

static gboolean
flame_shows (gpointer data)
{
  FlameExpect *expect = data;
  g_autofree char *shown = flame_name_at (expect->graph, expect->row);

  return g_strcmp0 (shown, expect->name) == 0;
}

static gboolean
label_shown (gpointer data)
{
  gpointer *args = data;
  GtkLabel *label = window_test_find_label (args[0], args[1]);

  return label != NULL && window_test_is_shown (GTK_WIDGET (label));
}

/* In the flame graph, a right-click on the recursion's outermost frame
 * and Collapse Recursion: deep_work sits right on it. Then a right-click
 * on _start, at the bottom of the window: the menu opens whole (above),
 * and Focus on Subtree names _start in the breadcrumbs. */
static void
test_flame_graph_menu (void)
{
  const char *path = get_recording (RECORDING_DEEP);
  SpWindow *window;
  GtkWidget *graph;
  GtkPopover *menu;
  FlameExpect expect;
  gpointer breadcrumb[2];
  guint outer;

  if (path == NULL)
    return;
  window = view_test_open_recording (path);
  sp_window_show_view (window, "flame-graph");
  graph = window_test_find_widget (GTK_WIDGET (window), SP_TYPE_FLAME_GRAPH);
  g_assert_nonnull (graph);
  window_test_run (0.3);
  outer = flame_row_of (graph, "descend");
  g_assert_cmpuint (outer, >, 0);
  expect = (FlameExpect) { graph, outer + 1, "descend" };
  g_assert_true (flame_shows (&expect));

  pointer_test_click (graph, gtk_widget_get_width (graph) / 2.0, flame_row_y (graph, outer), GDK_BUTTON_SECONDARY);
  menu = GTK_POPOVER (window_test_find_widget (graph, GTK_TYPE_POPOVER_MENU));
  g_assert_nonnull (menu);
  g_assert_true (window_test_wait (view_test_popover_shown, menu, 5));
  view_test_assert_menu_whole (menu, GTK_WIDGET (menu));
  view_test_pick (menu, "Collapse Recursion");
  expect = (FlameExpect) { graph, outer + 1, "deep_work" };
  g_assert_true (window_test_wait (flame_shows, &expect, 20));
  gui_test_save_png (GTK_WIDGET (window), "actions-flame-graph-collapsed.png");

  pointer_test_click (graph, gtk_widget_get_width (graph) / 2.0, flame_row_y (graph, 1), GDK_BUTTON_SECONDARY);
  g_assert_true (window_test_wait (view_test_popover_shown, menu, 5));
  view_test_assert_menu_whole (menu, GTK_WIDGET (menu));
  view_test_pick (menu, "Focus on Subtree");
  breadcrumb[0] = window;
  breadcrumb[1] = "Subtree: _start";
  g_assert_true (window_test_wait (label_shown, breadcrumb, 20));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- Callers and callees -------------------------------------------------- */

/* The tables of the view: 0 the function list, 1 callers, 2 callees. */
static GtkWidget *
table_of (SpCallersView *view,
          guint index)
{
  return GTK_WIDGET (gui_test_column_view (GTK_WIDGET (view), index));
}

/* The cell showing exactly text, mapped and with a size, or NULL. */
static gboolean
is_shown_cell_showing (GtkWidget *widget,
                       gconstpointer text)
{
  return gtk_widget_get_mapped (widget) && gtk_widget_get_height (widget) > 0
         && g_strcmp0 (gui_test_cell_text (widget), text) == 0;
}

static GtkWidget *
find_shown_label (GtkWidget *widget,
                  const char *text)
{
  return gui_test_find (widget, is_shown_cell_showing, text);
}

static gboolean
chosen_is (gpointer data)
{
  gpointer *args = data;
  g_autofree char *chosen = window_test_chosen_name (args[0]);

  return g_strcmp0 (chosen, args[1]) == 0;
}

static gboolean
lists_no (gpointer data)
{
  gpointer *args = data;
  GListModel *rows = sp_callers_view_get_functions (args[0]);

  if (g_list_model_get_n_items (rows) == 0)
    return FALSE;
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (SpFunctionItem) item = g_list_model_get_item (rows, i);

      if (g_str_equal (sp_function_item_get_name (item), args[1]))
        return FALSE;
    }
  return TRUE;
}

/* From the call tree's right-click menu on compute_beta, Callers and
 * Callees: the page opens on it, far down the list of the threads
 * workload's functions (which scrolls to it), the list shown in full (it
 * once showed one row until clicked); a right-click on its callee,
 * beta_leaf, and Merge Function into Callers: beta_leaf is no more. */
static void
test_callers_menu (void)
{
  const char *path = get_recording (RECORDING_THREADS);
  SpWindow *window;
  SpCallersView *view;
  GtkWidget *callee;
  GtkWidget *chosen;
  graphene_rect_t bounds;
  GtkPopover *menu;
  gpointer args[2];
  guint listed, shown;

  if (path == NULL)
    return;
  window = view_test_open_recording (path);
  view = sp_window_get_callers_view (window);
  /* The call tree's menu on compute_beta: Callers and Callees. */
  {
    SpCallTreeView *tree = sp_window_get_call_tree_view (window);
    g_autoptr (GtkTreeListRow) row = view_test_find_row (tree, "worker_main;compute_beta");

    g_assert_nonnull (row);
    view_test_pick (view_test_open_menu_on (GTK_WIDGET (tree), view_test_row_label (tree, row)), "Callers and Callees");
  }
  args[0] = view;
  args[1] = "compute_beta";
  g_assert_true (window_test_wait (chosen_is, args, 10));
  window_test_run (0.5);
  gui_test_save_png (GTK_WIDGET (window), "actions-callers-opened.png");
  listed = g_list_model_get_n_items (sp_callers_view_get_functions (view));
  shown = gui_test_count_shown_cells (table_of (view, 0));
  g_test_message ("%u functions, %u labels shown", listed, shown);
  g_assert_cmpuint (listed, >=, 4);
  /* Three labels a row (the list has no module column), for the first
   * rows at least (all of a short list). */
  g_assert_cmpuint (shown, >=, 3 * MIN (listed, 8));
  /* The chosen function's row among them, selected. */
  chosen = find_shown_label (table_of (view, 0), "compute_beta");
  g_assert_nonnull (chosen);
  g_assert_true (gtk_widget_compute_bounds (GTK_WIDGET (chosen), table_of (view, 0), &bounds));
  g_test_message ("compute_beta at %g..%g of %d", bounds.origin.y, bounds.origin.y + bounds.size.height, gtk_widget_get_height (table_of (view, 0)));
  g_assert_cmpfloat (bounds.origin.y, >=, 0);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (table_of (view, 0)));
  g_assert_true (gtk_widget_get_state_flags (gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (chosen))))
                 & GTK_STATE_FLAG_SELECTED);

  callee = find_shown_label (table_of (view, 2), "beta_leaf");
  g_assert_nonnull (callee);
  menu = view_test_open_menu_on (GTK_WIDGET (view), callee);
  view_test_pick (menu, "Merge Function into Callers");
  args[1] = "beta_leaf";
  g_assert_true (window_test_wait (lists_no, args, 20));
  gui_test_save_png (GTK_WIDGET (window), "actions-callers-merged.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- Clear ------------------------------------------------------------------ */

typedef struct {
  SpCallTreeView *view;
  const char     *names;
} TopLevel;

static gboolean
top_level_is (gpointer data)
{
  TopLevel *expect = data;
  g_autofree char *names = view_test_top_level_names (expect->view);

  return g_str_equal (names, expect->names);
}

/* The top level's first row (the busiest) is expect->names. */
static gboolean
first_top_level_is (gpointer data)
{
  TopLevel *expect = data;
  g_autofree char *names = view_test_top_level_names (expect->view);
  g_auto (GStrv) rows = g_strsplit (names, ";", 2);

  return rows[0] != NULL && g_str_equal (rows[0], expect->names);
}

/* The hot path open down to deep_leaf; Focus on Function deep_work from
 * its row's menu, then the Clear button: the rows open before are open
 * again (Clear showed _start closed). */
static void
test_clear_keeps_open (void)
{
  const char *path = get_recording (RECORDING_DEEP);
  SpWindow *window;
  SpCallTreeView *view;
  g_autoptr (GtkTreeListRow) work = NULL;
  g_autoptr (GtkTreeListRow) leaf = NULL;
  g_autofree char *leaf_path = NULL;
  GtkButton *clear;
  TopLevel expect;

  if (path == NULL)
    return;
  window = view_test_open_recording (path);
  view = sp_window_get_call_tree_view (window);
  leaf = view_test_find_row (view, "descend;deep_work;deep_leaf");
  g_assert_nonnull (leaf);
  leaf_path = view_test_row_path (leaf);
  g_clear_object (&leaf);
  work = view_test_find_row (view, "descend;deep_work");
  g_assert_nonnull (work);

  view_test_pick (view_test_open_menu_on (GTK_WIDGET (view), view_test_row_label (view, work)), "Focus on Function");
  expect = (TopLevel) { view, "deep_work" };
  g_assert_true (window_test_wait (top_level_is, &expect, 20));

  clear = window_test_find_button (GTK_WIDGET (window), "Clear");
  g_assert_nonnull (clear);
  pointer_test_click_widget (GTK_WIDGET (clear), GDK_BUTTON_PRIMARY);
  /* _start first: a machine slow to start a program has a sample or two
   * in the dynamic linker before it, beside it at the top level. */
  expect = (TopLevel) { view, "_start" };
  if (!window_test_wait (first_top_level_is, &expect, 20))
    {
      g_autofree char *names = view_test_top_level_names (view);

      gui_test_save_png (GTK_WIDGET (window), "actions-not-cleared.png");
      g_test_message ("after Clear, the top level is \"%s\"", names);
      g_assert_not_reached ();
    }
  window_test_run (0.3);
  gui_test_save_png (GTK_WIDGET (window), "actions-cleared.png");
  leaf = view_test_find_row (view, "descend;deep_work;deep_leaf");
  g_assert_nonnull (leaf);
  {
    g_autofree char *now = view_test_row_path (leaf);

    g_assert_cmpstr (now, ==, leaf_path);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- Search --------------------------------------------------------------- */

static GtkStack *
views_of (SpWindow *window)
{
  return window_test_stack_with_page (GTK_WIDGET (window), "flame-graph");
}

/* The window's search entry: not one in a drop-down's popover. */
static gboolean
is_window_search (GtkWidget *widget,
                  gconstpointer data)
{
  return GTK_IS_SEARCH_ENTRY (widget) && gtk_widget_get_ancestor (widget, GTK_TYPE_POPOVER) == NULL;
}

/* Enter in the search entry, with text in it. */
static void
search (SpWindow *window,
        const char *text)
{
  GtkWidget *entry = gui_test_find (GTK_WIDGET (window), is_window_search, NULL);

  g_assert_nonnull (entry);
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  g_signal_emit_by_name (entry, "activate");
  window_test_run (0.2);
}

static gboolean
same_path (GArray *a,
           GArray *b)
{
  return a->len == b->len && memcmp (a->data, b->data, a->len * sizeof (guint32)) == 0;
}

/* The zoomed frame's name, from its tooltip's first line. */
static char *
zoomed_name (SpFlameGraph *graph)
{
  g_autofree char *markup = sp_flame_graph_describe (graph, sp_flame_graph_get_zoom (graph));
  const char *end = strstr (markup, "</b>");

  g_assert_true (g_str_has_prefix (markup, "<b>") && end != NULL);
  return g_strndup (markup + 3, end - markup - 3);
}

/* Enter on the flame graph stays there and zooms to the heaviest "leaf"
 * frame, then to the next (no heavier); on the call tree it selects the
 * same heaviest path first. It used to jump to the call tree and select
 * the first match in the order shown. */
static void
test_search_enter (void)
{
  const char *path = get_recording (RECORDING_THREADS);
  SpWindow *window;
  SpFlameGraph *graph;
  g_autoptr (GArray) first = NULL;
  g_autoptr (GArray) second = NULL;
  g_autoptr (GArray) selected = NULL;
  g_autofree char *first_name = NULL;
  g_autofree char *second_name = NULL;

  if (path == NULL)
    return;
  window = view_test_open_recording (path);
  sp_window_show_view (window, "flame-graph");
  graph = SP_FLAME_GRAPH (window_test_find_widget (GTK_WIDGET (window), SP_TYPE_FLAME_GRAPH));
  window_test_run (0.2);

  search (window, "leaf");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (views_of (window)), ==, "flame-graph");
  first = sp_flame_graph_get_selected_path (graph);
  g_assert_nonnull (first);
  first_name = zoomed_name (graph);
  gui_test_save_png (GTK_WIDGET (window), "actions-search-flame-graph.png");
  search (window, "leaf");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (views_of (window)), ==, "flame-graph");
  second = sp_flame_graph_get_selected_path (graph);
  g_assert_nonnull (second);
  second_name = zoomed_name (graph);
  g_test_message ("first %s, then %s", first_name, second_name);
  g_assert_true (g_str_has_suffix (first_name, "_leaf"));
  g_assert_true (g_str_has_suffix (second_name, "_leaf"));
  g_assert_false (same_path (first, second));

  sp_window_show_view (window, "call-tree");
  search (window, "leaf");
  g_assert_cmpstr (gtk_stack_get_visible_child_name (views_of (window)), ==, "call-tree");
  selected = sp_call_tree_view_get_selected_path (sp_window_get_call_tree_view (window));
  g_assert_nonnull (selected);
  g_assert_true (same_path (selected, first));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* ---- The metric ----------------------------------------------------------- */

static gboolean
is_drop_down (GtkWidget *widget,
              gconstpointer data)
{
  return GTK_IS_DROP_DOWN (widget);
}

static gboolean
sensitive (gpointer widget)
{
  return gtk_widget_is_sensitive (widget);
}

static gboolean
idle (gpointer window)
{
  return !sp_window_is_busy (window);
}

static gboolean
metric_is_off_cpu (gpointer drop_down)
{
  return gtk_drop_down_get_selected (drop_down) == SP_METRIC_OFF_CPU;
}

static gboolean
shown_label (gpointer data)
{
  GtkWidget **found = data;

  *found = GTK_WIDGET (window_test_find_label (found[1], "Off-CPU time"));
  return *found != NULL && window_test_is_shown (*found);
}

/* A recording with off-CPU time: the metric drop-down clicked open and
 * "Off-CPU time" clicked, with the pointer, turns the call tree into
 * off-CPU time (six threads waiting about all of 0.5 s: seconds, where
 * the samples were hundreds). */
static void
test_metric_drop_down (void)
{
  g_autofree char *path = NULL;
  g_autofree char *companion = NULL;
  g_autofree char *meta = NULL;
  g_autoptr (GError) error = NULL;
  GtkWidget *found[2] = { NULL, NULL };
  GtkWidget *drop_down;
  SpWindow *window;
  guint64 samples;

  if (recording_dir == NULL)
    recording_dir = g_dir_make_tmp ("stackpulse-actions-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (recording_dir, "offcpu.spool", NULL);
  companion = g_strconcat (path, ".offcpu", NULL);
  meta = g_strconcat (path, ".meta", NULL);
  if (!window_test_record_off_cpu (path, g_getenv ("SP_WORK_OFFCPU"), "0.5", NULL))
    return;
  window = view_test_open_recording (path);
  drop_down = gui_test_find (GTK_WIDGET (window), is_drop_down, NULL);
  g_assert_nonnull (drop_down);
  g_assert_true (window_test_wait (sensitive, drop_down, 20));
  samples = window_test_top_level_total (sp_window_get_call_tree_model (window));

  pointer_test_click_widget (drop_down, GDK_BUTTON_PRIMARY);
  found[1] = drop_down;
  g_assert_true (window_test_wait (shown_label, found, 10));
  gui_test_save_png (GTK_WIDGET (window), "actions-metric-open.png");
  pointer_test_click_widget (found[0], GDK_BUTTON_PRIMARY);
  g_assert_true (window_test_wait (metric_is_off_cpu, drop_down, 10));
  window_test_run (0.2);
  g_assert_true (window_test_wait (idle, window, 20));
  window_test_run (0.2);
  g_test_message ("call tree: %" G_GUINT64_FORMAT " samples, then %" G_GUINT64_FORMAT " ns off the CPU", samples,
                  window_test_top_level_total (sp_window_get_call_tree_model (window)));
  g_assert_cmpuint (window_test_top_level_total (sp_window_get_call_tree_model (window)), >, 2000000000);
  gui_test_save_png (GTK_WIDGET (window), "actions-metric-off-cpu.png");
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_unlink (companion);
  g_unlink (meta);
}

int
main (int argc,
      char **argv)
{
  int status;

  if (!gui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/app/window-actions/call-tree-menu", test_call_tree_menu);
  g_test_add_func ("/app/window-actions/bottom-up-menu", test_bottom_up_menu);
  g_test_add_func ("/app/window-actions/flame-graph-menu", test_flame_graph_menu);
  g_test_add_func ("/app/window-actions/callers-menu", test_callers_menu);
  g_test_add_func ("/app/window-actions/search-enter", test_search_enter);
  g_test_add_func ("/app/window-actions/clear-keeps-open", test_clear_keeps_open);
  g_test_add_func ("/app/window-actions/metric-drop-down", test_metric_drop_down);
  status = g_test_run ();
  remove_recordings ();
  return status;
}
