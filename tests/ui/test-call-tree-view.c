/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-call-tree-view.c: the call tree view over trees written as text.
 *
 * Like GTK's treelistmodel tests, the view's rows are printed as short
 * strings ("  parse 15": depth as indentation, name, total) so each check
 * reads like the tree it expects. Also saves a PNG of the view for review
 * (SP_SCREENSHOT_DIR, or a temporary folder). */
#include <gtk/gtk.h>

#include "gui-test.h"
#include "profile-builder.h"
#include "sp-call-tree-view.h"
#include "sp-filter.h"
#include "sp-name-label.h"
#include "sp-tree-item.h"


static const char *const three_calls[] = {
  "main;parse;lex 10",
  "main;parse 5",
  "main;eval 5",
  NULL
};

/* parse has the larger total, eval the larger self. */
static const char *const self_differs[] = {
  "main;parse;lex 10",
  "main;parse 2",
  "main;eval 6",
  "main 1",
  NULL
};

static char *
row_text (GtkTreeListRow *row)
{
  g_autoptr (SpTreeItem) item = gtk_tree_list_row_get_item (row);

  return g_strdup_printf ("%*s%s %" G_GUINT64_FORMAT,
                          2 * (int) gtk_tree_list_row_get_depth (row), "",
                          sp_function_item_get_name (SP_FUNCTION_ITEM (item)), sp_function_item_get_total (SP_FUNCTION_ITEM (item)));
}

/* The rows shown, one per line. */
static char *
rows_of (SpCallTreeView *view)
{
  GListModel *model = sp_call_tree_view_get_model (view);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (model, i);
      g_autofree char *line = row_text (row);

      g_string_append_printf (text, "%s\n", line);
    }
  return g_string_free (text, FALSE);
}

#define assert_rows(view, ...)                                          \
  G_STMT_START {                                                        \
    const char *expected_[] = { __VA_ARGS__, NULL };                    \
    g_autofree char *joined_ = g_strjoinv ("\n", (char **) expected_);  \
    g_autofree char *want_ = g_strconcat (joined_, "\n", NULL);         \
    g_autofree char *got_ = rows_of (view);                             \
    g_assert_cmpstr (got_, ==, want_);                                  \
  } G_STMT_END

static const char *
selected_name (SpCallTreeView *view,
               SpProfile *profile,
               SpCallTree *tree)
{
  guint32 node = sp_call_tree_view_get_selected_node (view);

  if (node == SP_CALL_TREE_NONE)
    return NULL;
  return sp_profile_get_function (profile, tree->nodes[node].function)->name;
}

static GtkColumnView *
column_view_of (SpCallTreeView *view)
{
  GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view));

  g_assert_true (GTK_IS_COLUMN_VIEW (child));
  return GTK_COLUMN_VIEW (child);
}

static void
sort_by (SpCallTreeView *view,
         const char *title,
         GtkSortType order)
{
  GtkColumnView *column_view = column_view_of (view);
  GListModel *columns = gtk_column_view_get_columns (column_view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_str_equal (gtk_column_view_column_get_title (column), title))
        {
          gtk_column_view_sort_by_column (column_view, column, order);
          return;
        }
    }
  g_assert_not_reached ();
}

static SpCallTreeView *
new_view (void)
{
  return g_object_ref_sink (sp_call_tree_view_new ());
}

static void
test_top_down (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (three_calls);
  SpCallTree *tree = sp_call_tree_new (profile, NULL, NULL, FALSE);
  g_autoptr (SpCallTreeView) view = new_view ();

  g_assert_cmpuint (g_list_model_get_n_items (sp_call_tree_view_get_model (view)), ==, 0);
  g_assert_cmpuint (sp_call_tree_view_get_selected_node (view), ==, SP_CALL_TREE_NONE);

  sp_call_tree_view_set_tree (view, profile, tree);
  /* The hot path main -> parse -> lex is open, and its end selected. */
  assert_rows (view, "main 20", "  parse 15", "    lex 10", "  eval 5");
  g_assert_cmpstr (selected_name (view, profile, tree), ==, "lex");

  sp_call_tree_view_set_tree (view, NULL, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (sp_call_tree_view_get_model (view)), ==, 0);
  g_assert_cmpuint (sp_call_tree_view_get_selected_node (view), ==, SP_CALL_TREE_NONE);
}

static void
test_sort (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (self_differs);
  SpCallTree *tree = sp_call_tree_new (profile, NULL, NULL, FALSE);
  g_autoptr (SpCallTreeView) view = new_view ();

  sp_call_tree_view_set_tree (view, profile, tree);
  assert_rows (view, "main 19", "  parse 12", "    lex 10", "  eval 6");

  /* Sorting orders siblings; children stay under their parent. */
  sort_by (view, "Self", GTK_SORT_DESCENDING);
  assert_rows (view, "main 19", "  eval 6", "  parse 12", "    lex 10");
  sort_by (view, "Function", GTK_SORT_ASCENDING);
  assert_rows (view, "main 19", "  eval 6", "  parse 12", "    lex 10");
  sort_by (view, "Function", GTK_SORT_DESCENDING);
  assert_rows (view, "main 19", "  parse 12", "    lex 10", "  eval 6");
  sort_by (view, "Total", GTK_SORT_DESCENDING);
  assert_rows (view, "main 19", "  parse 12", "    lex 10", "  eval 6");
  /* The selection follows its row. */
  g_assert_cmpstr (selected_name (view, profile, tree), ==, "lex");
}

static void
test_search (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (three_calls);
  SpCallTree *tree = sp_call_tree_new (profile, NULL, NULL, FALSE);
  g_autoptr (SpCallTreeView) view = new_view ();
  g_autoptr (GtkTreeListRow) main_row = NULL;

  sp_call_tree_view_set_tree (view, profile, tree);
  main_row = g_list_model_get_item (sp_call_tree_view_get_model (view), 0);
  gtk_tree_list_row_set_expanded (main_row, FALSE);
  assert_rows (view, "main 20");

  /* lex (still selected, though hidden): its ancestors open again. */
  g_assert_true (sp_call_tree_view_search_next (view, "lex"));
  assert_rows (view, "main 20", "  parse 15", "    lex 10", "  eval 5");
  g_assert_cmpstr (selected_name (view, profile, tree), ==, "lex");

  /* A new text: the heaviest match; the same again (ignoring case): the
   * next heaviest, wrapping around. */
  g_assert_true (sp_call_tree_view_search_next (view, "E"));
  g_assert_cmpstr (selected_name (view, profile, tree), ==, "parse");
  g_assert_true (sp_call_tree_view_search_next (view, "e"));
  g_assert_cmpstr (selected_name (view, profile, tree), ==, "lex");
  g_assert_true (sp_call_tree_view_search_next (view, "e"));
  g_assert_cmpstr (selected_name (view, profile, tree), ==, "eval");
  g_assert_true (sp_call_tree_view_search_next (view, "e"));
  g_assert_cmpstr (selected_name (view, profile, tree), ==, "parse");
  g_assert_true (sp_call_tree_view_search_next (view, "e"));
  g_assert_cmpstr (selected_name (view, profile, tree), ==, "lex");

  g_assert_false (sp_call_tree_view_search_next (view, "nothing"));
  g_assert_cmpstr (selected_name (view, profile, tree), ==, "lex");
  g_assert_false (sp_call_tree_view_search_next (view, ""));
}

static void
test_bottom_up (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (three_calls);
  SpCallTree *tree = sp_call_tree_new (profile, NULL, NULL, TRUE);
  g_autoptr (SpCallTreeView) view = new_view ();
  g_autoptr (GtkTreeListRow) eval_row = NULL;

  sp_call_tree_view_set_tree (view, profile, tree);
  /* Leaves at the top, their callers below. */
  assert_rows (view, "lex 10", "  parse 10", "    main 10", "parse 5", "eval 5");
  g_assert_cmpstr (selected_name (view, profile, tree), ==, "main");

  /* A collapsed node's callers come on demand. */
  eval_row = g_list_model_get_item (sp_call_tree_view_get_model (view), 4);
  gtk_tree_list_row_set_expanded (eval_row, TRUE);
  assert_rows (view, "lex 10", "  parse 10", "    main 10", "parse 5", "eval 5", "  main 5");
}

static void
node_activated (SpCallTreeView *view,
                guint node,
                gpointer user_data)
{
  *(guint *) user_data = node;
}

static void
test_activate (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (three_calls);
  SpCallTree *tree = sp_call_tree_new (profile, NULL, NULL, FALSE);
  g_autoptr (SpCallTreeView) view = new_view ();
  guint activated = SP_CALL_TREE_NONE;

  sp_call_tree_view_set_tree (view, profile, tree);
  g_signal_connect (view, "node-activated", G_CALLBACK (node_activated), &activated);
  g_signal_emit_by_name (column_view_of (view), "activate", 3);
  g_assert_cmpuint (activated, !=, SP_CALL_TREE_NONE);
  g_assert_cmpstr (sp_profile_get_function (profile, tree->nodes[activated].function)->name, ==, "eval");
}

/* Thread 1 is the recording so far, thread 2 what a live update adds. */
static const char *const growing[] = {
  "@1 main;parse;lex 10",
  "@1 main;parse 5",
  "@1 main;eval;lookup 4",
  "@1 main;eval 1",
  "@2 main;parse;lex 20",
  "@2 main;eval;lookup 6",
  "@2 main;eval 1",
  "@2 main;write 3",
  NULL
};

/* The tree of thread 1 only (the first update), or of both. */
static SpCallTree *
growing_tree (SpProfile *profile,
              gboolean grown)
{
  g_autoptr (SpFilter) filter = sp_filter_new ();

  if (!grown)
    sp_filter_hide_thread (filter, 1);
  return sp_call_tree_new (profile, filter, NULL, FALSE);
}

/* The row shown as text (as rows_of prints it); -1 if there is none. */
static int
row_position (SpCallTreeView *view,
              const char *text)
{
  GListModel *model = sp_call_tree_view_get_model (view);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (model, i);
      g_autofree char *line = row_text (row);

      if (g_str_equal (line, text))
        return (int) i;
    }
  return -1;
}

static void
set_expanded (SpCallTreeView *view,
              const char *text,
              gboolean expanded)
{
  int position = row_position (view, text);
  g_autoptr (GtkTreeListRow) row = NULL;

  g_assert_cmpint (position, >=, 0);
  row = g_list_model_get_item (sp_call_tree_view_get_model (view), position);
  gtk_tree_list_row_set_expanded (row, expanded);
}

/* As a click does: through the column view's selection model. */
static void
select_row_text (SpCallTreeView *view,
                 const char *text)
{
  int position = row_position (view, text);

  g_assert_cmpint (position, >=, 0);
  gtk_selection_model_select_item (gtk_column_view_get_model (column_view_of (view)), position, TRUE);
}

/* A live update hands the view a new tree: what the user opened, closed
 * and selected is still so, found by function path in the new tree. */
static void
test_keep_state (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (growing);
  SpCallTree *first = growing_tree (profile, FALSE);
  SpCallTree *grown = growing_tree (profile, TRUE);
  g_autoptr (SpCallTreeView) view = new_view ();

  sp_call_tree_view_set_tree (view, profile, first);
  assert_rows (view, "main 20", "  parse 15", "    lex 10", "  eval 5");
  set_expanded (view, "  eval 5", TRUE);
  set_expanded (view, "  parse 15", FALSE);
  select_row_text (view, "    lookup 4");
  assert_rows (view, "main 20", "  parse 15", "  eval 5", "    lookup 4");

  sp_call_tree_view_set_tree (view, profile, grown);
  assert_rows (view, "main 50", "  parse 35", "  eval 12", "    lookup 10", "  write 3");
  g_assert_cmpstr (selected_name (view, profile, grown), ==, "lookup");

  /* Another profile starts afresh, from its hot path. */
  sp_call_tree_view_set_tree (view, NULL, NULL);
  first = growing_tree (profile, FALSE);
  sp_call_tree_view_set_tree (view, profile, first);
  assert_rows (view, "main 20", "  parse 15", "    lex 10", "  eval 5");
}

/* Until the user touches the tree, each new tree opens its own hot path
 * (here the same one, now heavier). */
static void
test_follow_hot_path (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (growing);
  SpCallTree *grown = growing_tree (profile, TRUE);
  g_autoptr (SpCallTreeView) view = new_view ();

  sp_call_tree_view_set_tree (view, profile, growing_tree (profile, FALSE));
  sp_call_tree_view_set_tree (view, profile, grown);
  assert_rows (view, "main 50", "  parse 35", "    lex 30", "  eval 12", "  write 3");
  g_assert_cmpstr (selected_name (view, profile, grown), ==, "lex");
}

/* Waits for the window to lay out and draw. */
static void
settle (void)
{
  for (gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC / 3; g_get_monotonic_time () < until;)
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
is_text_cell (GtkWidget *widget,
              gconstpointer data)
{
  (void) data;
  return GTK_IS_LABEL (widget) || SP_IS_NAME_LABEL (widget);
}

/* The first label or name cell under widget (depth first). */
static GtkWidget *
first_label (GtkWidget *widget)
{
  return gui_test_find (widget, is_text_cell, NULL);
}

/* The text of the first column in the row drawn at y in the scroller: the
 * row widget under the point, and its first label. */
static char *
function_drawn_at (GtkWidget *scroller,
                   double y)
{
  GtkWidget *picked = gtk_widget_pick (scroller, 40, y, GTK_PICK_DEFAULT);
  GtkWidget *label;

  while (picked != NULL && !GTK_IS_LIST_VIEW (gtk_widget_get_parent (picked)))
    picked = gtk_widget_get_parent (picked);
  label = picked != NULL ? first_label (picked) : NULL;
  return label != NULL ? g_strdup (gui_test_cell_text (label)) : NULL;
}

/* Scrolled down a long list below an opened row, a new tree keeps the
 * view where it was. */
static void
test_keep_scroll (void)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (SpProfile) profile = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  SpCallTreeView *view = sp_call_tree_view_new ();
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  double upper;

  /* A hot function with 60 callees and 120 others, in thread 1; thread 2
   * doubles them. */
  for (guint t = 1; t <= 2; t++)
    {
      for (guint i = 0; i < 60; i++)
        g_ptr_array_add (lines, g_strdup_printf ("@%u hot;c%02u 5", t, i));
      for (guint i = 0; i < 120; i++)
        g_ptr_array_add (lines, g_strdup_printf ("@%u f%03u;leaf 1", t, i));
    }
  g_ptr_array_add (lines, NULL);
  profile = profile_from_text ((const char *const *) lines->pdata);

  gtk_window_set_default_size (GTK_WINDOW (window), 600, 300);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (view));
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  sp_call_tree_view_set_tree (view, profile, growing_tree (profile, FALSE));
  gtk_window_present (GTK_WINDOW (window));
  set_expanded (view, "hot 300", TRUE);
  settle ();
  upper = gtk_adjustment_get_upper (adjustment);
  g_assert_cmpfloat (upper, >, 3 * gtk_adjustment_get_page_size (adjustment));
  gtk_adjustment_set_value (adjustment, upper / 2);
  settle ();
  g_assert_cmpfloat_with_epsilon (gtk_adjustment_get_value (adjustment), upper / 2, 1);
  before = function_drawn_at (scroller, 100);
  g_assert_nonnull (before);

  /* Updated while another page is shown (unmapped), then shown again. */
  gtk_widget_set_visible (scroller, FALSE);
  settle ();
  sp_call_tree_view_set_tree (view, profile, growing_tree (profile, TRUE));
  settle ();
  gtk_widget_set_visible (scroller, TRUE);
  settle ();
  after = function_drawn_at (scroller, 100);
  g_test_message ("%s drawn before, %s after", before, after);
  g_assert_cmpstr (after, ==, before);
  g_test_message ("scrolled to %.0f of %.0f, after the update at %.0f of %.0f", upper / 2, upper,
                  gtk_adjustment_get_value (adjustment), gtk_adjustment_get_upper (adjustment));
  g_assert_cmpint (row_position (view, "  c00 10"), ==, 1);
  g_assert_cmpfloat_with_epsilon (gtk_adjustment_get_value (adjustment), upper / 2, 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
count_changes (GListModel *model,
               guint position,
               guint removed,
               guint added,
               guint *changes)
{
  (*changes)++;
}

static void
wait_a_little (void)
{
  for (gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC / 5; g_get_monotonic_time () < until;)
    g_main_context_iteration (NULL, FALSE);
}

/* On a page not shown, the view keeps the last tree it was given and
 * builds its rows when the page is shown (or its rows are asked for):
 * replacing the trees of every view on each new time range held the main
 * thread for hidden views too. */
static void
test_hidden (void)
{
  static const char *const other[] = { "start;work 7", NULL };
  g_autoptr (SpProfile) profile = profile_from_text (three_calls);
  g_autoptr (SpProfile) second = profile_from_text (other);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *stack = gtk_stack_new ();
  SpCallTreeView *view = sp_call_tree_view_new ();
  GListModel *rows = sp_call_tree_view_get_model (view);
  guint changes = 0;

  gtk_stack_add_named (GTK_STACK (stack), gtk_label_new ("another page"), "other");
  gtk_stack_add_named (GTK_STACK (stack), GTK_WIDGET (view), "tree");
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "other");
  gtk_window_set_child (GTK_WINDOW (window), stack);
  gtk_window_present (GTK_WINDOW (window));
  wait_a_little ();
  g_signal_connect (rows, "items-changed", G_CALLBACK (count_changes), &changes);

  sp_call_tree_view_set_tree (view, profile, sp_call_tree_new (profile, NULL, NULL, FALSE));
  sp_call_tree_view_set_tree (view, second, sp_call_tree_new (second, NULL, NULL, FALSE));
  wait_a_little ();
  g_assert_cmpuint (changes, ==, 0);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 0);

  /* Shown: the last tree, with its hottest path open. */
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "tree");
  g_assert_cmpuint (changes, >, 0);
  assert_rows (view, "start 7", "  work 7");

  /* Hidden again, asked for its rows: they are built then. */
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "other");
  sp_call_tree_view_set_tree (view, profile, sp_call_tree_new (profile, NULL, NULL, FALSE));
  assert_rows (view, "main 20", "  parse 15", "    lex 10", "  eval 5");

  /* Visible: at once. */
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "tree");
  changes = 0;
  sp_call_tree_view_set_tree (view, second, sp_call_tree_new (second, NULL, NULL, FALSE));
  g_assert_cmpuint (changes, >, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* "main;fN T" lines: main with n callees, f0 the hot path's end (half
 * the samples). */
static SpProfile *
wide_profile (guint n)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (lines, g_strdup_printf ("main;f%u %u", i, i == 0 ? 100000 : 1000 - i));
  g_ptr_array_add (lines, NULL);
  return profile_from_text ((const char *const *) lines->pdata);
}

/* Shown, a first tree's rows reach the column view a few dozen a frame
 * (all at once, GTK built and measured every row widget in one frame),
 * each after the ones before: once all are there, the rows and the hot
 * row selected are those of a tree handed over at once. Asked for its
 * rows meanwhile, the view hands them all over then. */
static void
test_reveal_by_frames (void)
{
  g_autoptr (SpProfile) profile = wide_profile (100);
  GtkWidget *window = gtk_window_new ();
  SpCallTreeView *view = sp_call_tree_view_new ();
  GListModel *shown = G_LIST_MODEL (gtk_column_view_get_model (column_view_of (view)));
  SpCallTree *tree = sp_call_tree_new (profile, NULL, NULL, FALSE);
  guint last = 0;
  gint64 give_up = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  wait_a_little ();

  sp_call_tree_view_set_tree (view, profile, tree);
  g_assert_true (sp_call_tree_view_is_revealing (view));
  /* The first rows in the next frame: this one lays out the rest of the
   * window (the window's other views got their parts of the result). */
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 0);
  while (sp_call_tree_view_is_revealing (view) && g_get_monotonic_time () < give_up)
    {
      guint n = g_list_model_get_n_items (shown);
      g_autoptr (GtkTreeListRow) first = g_list_model_get_item (shown, 0);

      g_assert_cmpuint (n, >=, last);
      g_assert_cmpuint (n, <, 101);
      last = n;
      /* The first row stays first: main, open on its hottest callee. */
      g_assert_true (n == 0 || gtk_tree_list_row_get_expanded (first));
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_false (sp_call_tree_view_is_revealing (view));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 101);
  g_assert_cmpstr (selected_name (view, profile, tree), ==, "f0");

  /* Asked for its rows while they come: all of them, the hot row selected. */
  tree = sp_call_tree_new (profile, NULL, NULL, FALSE);
  sp_call_tree_view_set_tree (view, NULL, NULL);
  sp_call_tree_view_set_tree (view, profile, tree);
  g_assert_true (sp_call_tree_view_is_revealing (view));
  g_assert_cmpuint (g_list_model_get_n_items (sp_call_tree_view_get_model (view)), ==, 101);
  g_assert_false (sp_call_tree_view_is_revealing (view));
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 101);
  g_assert_cmpstr (selected_name (view, profile, tree), ==, "f0");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* What the user opened and selected survives trees that arrive while the
 * page is hidden: they wait (no rows built), and the last one, built as
 * the page shows, gets the state of the rows shown before. A tree of
 * another profile starts afresh from its hot path. */
static void
test_keep_state_hidden (void)
{
  static const char *const other[] = { "start;work 7", NULL };
  g_autoptr (SpProfile) profile = profile_from_text (growing);
  g_autoptr (SpProfile) second = profile_from_text (other);
  SpCallTree *grown = growing_tree (profile, TRUE);
  SpCallTree *second_tree = sp_call_tree_new (second, NULL, NULL, FALSE);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *stack = gtk_stack_new ();
  SpCallTreeView *view = sp_call_tree_view_new ();
  GListModel *rows = sp_call_tree_view_get_model (view);
  guint changes = 0;

  gtk_stack_add_named (GTK_STACK (stack), gtk_label_new ("another page"), "other");
  gtk_stack_add_named (GTK_STACK (stack), GTK_WIDGET (view), "tree");
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "tree");
  gtk_window_set_child (GTK_WINDOW (window), stack);
  gtk_window_present (GTK_WINDOW (window));
  wait_a_little ();
  sp_call_tree_view_set_tree (view, profile, growing_tree (profile, FALSE));
  set_expanded (view, "  eval 5", TRUE);
  set_expanded (view, "  parse 15", FALSE);
  select_row_text (view, "    lookup 4");

  gtk_stack_set_visible_child_name (GTK_STACK (stack), "other");
  g_signal_connect (rows, "items-changed", G_CALLBACK (count_changes), &changes);
  sp_call_tree_view_set_tree (view, profile, growing_tree (profile, FALSE));
  sp_call_tree_view_set_tree (view, profile, grown);
  wait_a_little ();
  g_assert_cmpuint (changes, ==, 0);

  gtk_stack_set_visible_child_name (GTK_STACK (stack), "tree");
  g_assert_cmpuint (changes, >, 0);
  assert_rows (view, "main 50", "  parse 35", "  eval 12", "    lookup 10", "  write 3");
  g_assert_cmpstr (selected_name (view, profile, grown), ==, "lookup");

  sp_call_tree_view_set_tree (view, second, second_tree);
  assert_rows (view, "start 7", "  work 7");
  g_assert_cmpstr (selected_name (view, second, second_tree), ==, "work");
  g_signal_handlers_disconnect_by_func (rows, count_changes, &changes);
  gtk_window_destroy (GTK_WINDOW (window));
}

static guint32
function_named (SpProfile *profile,
                const char *name)
{
  for (guint32 f = 0; f < sp_profile_get_n_functions (profile); f++)
    if (g_str_equal (sp_profile_get_function (profile, f)->name, name))
      return f;
  g_assert_not_reached ();
}

/* Collapsing recursion leaves fib without callees, a row that cannot be
 * open: it is not a row the user closed, so undoing the transform opens
 * the recursive rows again. */
static void
test_keep_state_collapse_recursion (void)
{
  static const char *const recursive[] = { "main;fib;fib;fib;fib 10", "main;work 2", NULL };
  g_autoptr (SpProfile) profile = profile_from_text (recursive);
  g_autoptr (SpFilter) collapse = sp_filter_new ();
  GtkWidget *window = gtk_window_new ();
  SpCallTreeView *view = sp_call_tree_view_new ();

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  wait_a_little ();
  sp_call_tree_view_set_tree (view, profile, sp_call_tree_new (profile, NULL, NULL, FALSE));
  assert_rows (view, "main 12", "  fib 10", "    fib 10", "      fib 10", "        fib 10", "  work 2");
  select_row_text (view, "      fib 10");

  sp_filter_add_function_transform (collapse, SP_TRANSFORM_COLLAPSE_RECURSION, function_named (profile, "fib"));
  sp_call_tree_view_set_tree (view, profile, sp_call_tree_new (profile, collapse, NULL, FALSE));
  assert_rows (view, "main 12", "  fib 10", "  work 2");

  sp_call_tree_view_set_tree (view, profile, sp_call_tree_new (profile, NULL, NULL, FALSE));
  assert_rows (view, "main 12", "  fib 10", "    fib 10", "      fib 10", "        fib 10", "  work 2");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Rows of the column view's list drawn inside it; *selected_in_view
 * says whether the selected row is one of them. */
static guint
rows_in_view (SpCallTreeView *view,
              gboolean *selected_in_view)
{
  GtkWidget *list = NULL;
  guint n = 0;

  for (GtkWidget *c = gtk_widget_get_first_child (gtk_widget_get_first_child (GTK_WIDGET (view)));
       c != NULL; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_VIEW (c))
      list = c;
  g_assert_nonnull (list);
  *selected_in_view = FALSE;
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      graphene_rect_t b;

      if (!gtk_widget_get_child_visible (row) || !gtk_widget_compute_bounds (row, list, &b)
          || b.origin.y < 0 || b.origin.y + b.size.height > gtk_widget_get_height (list))
        continue;
      n++;
      *selected_in_view |= (gtk_widget_get_state_flags (row) & GTK_STATE_FLAG_SELECTED) != 0;
    }
  return n;
}

/* A hottest path deeper than the view, given while the page is hidden:
 * once shown, the view is full of rows and the path's end in sight (GTK
 * 4.8's list, scrolled before it had a size, left a single row). */
static void
test_deep_path (void)
{
  g_autoptr (GString) stack = g_string_new (NULL);
  const char *lines[] = { NULL, "other 1", NULL };
  g_autoptr (SpProfile) profile = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *stack_widget = gtk_stack_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  SpCallTreeView *view = sp_call_tree_view_new ();
  gboolean selected_in_view = FALSE;
  guint n = 0;

  for (guint i = 0; i < 40; i++)
    g_string_append_printf (stack, "%sframe_%u", i > 0 ? ";" : "", i);
  g_string_append (stack, " 10");
  lines[0] = stack->str;
  profile = profile_from_text (lines);
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 300);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (view));
  gtk_stack_add_named (GTK_STACK (stack_widget), gtk_label_new ("loading"), "other");
  gtk_stack_add_named (GTK_STACK (stack_widget), scroller, "tree");
  gtk_window_set_child (GTK_WINDOW (window), stack_widget);
  gtk_window_present (GTK_WINDOW (window));
  wait_a_little ();

  sp_call_tree_view_set_tree (view, profile, sp_call_tree_new (profile, NULL, NULL, FALSE));
  gtk_stack_set_visible_child_name (GTK_STACK (stack_widget), "tree");
  for (gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
       g_get_monotonic_time () < deadline && !selected_in_view;)
    {
      wait_a_little ();
      n = rows_in_view (view, &selected_in_view);
    }
  g_test_message ("%u rows in view", n);
  gui_test_save_png (window, "call-tree-deep-path.png");
  g_assert_true (selected_in_view);
  g_assert_cmpuint (n, >, 4);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Thread 1's samples, then thread 2's: from one tree to the other, eval
 * overtakes parse, old goes and new comes. */
static const char *const changing[] = {
  "@1 main;parse;lex 10",
  "@1 main;parse 5",
  "@1 main;eval;lookup 4",
  "@1 main;eval 1",
  "@1 main;old 2",
  "@2 main;parse;lex 3",
  "@2 main;eval;lookup 20",
  "@2 main;new 6",
  NULL
};

/* The tree of one thread's samples (thread index 0 or 1). */
static SpCallTree *
thread_tree (SpProfile *profile,
             guint thread)
{
  g_autoptr (SpFilter) filter = sp_filter_new ();

  sp_filter_hide_thread (filter, 1 - thread);
  return sp_call_tree_new (profile, filter, NULL, FALSE);
}

static GtkWidget *
list_of (SpCallTreeView *view)
{
  for (GtkWidget *c = gtk_widget_get_first_child (GTK_WIDGET (column_view_of (view)));
       c != NULL; c = gtk_widget_get_next_sibling (c))
    if (GTK_IS_LIST_VIEW (c))
      return c;
  g_assert_not_reached ();
}

/* The row widget the column view shows for function name (NULL if none),
 * and its cells' labels (Function, Module, Self, Total). */
static GtkWidget *
row_widget (SpCallTreeView *view,
            const char *name,
            GPtrArray *labels)
{
  for (GtkWidget *row = gtk_widget_get_first_child (list_of (view)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      g_autoptr (GPtrArray) found = NULL;

      if (!gtk_widget_get_child_visible (row))
        continue;
      found = gui_test_find_all (row, is_text_cell, NULL);
      if (found->len == 4 && g_str_equal (gui_test_cell_text (found->pdata[0]), name))
        {
          if (labels != NULL)
            g_ptr_array_extend (labels, found, NULL, NULL);
          return row;
        }
    }
  return NULL;
}

/* The Total cell drawn for name. */
static const char *
total_drawn (SpCallTreeView *view,
             const char *name)
{
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();

  g_assert_nonnull (row_widget (view, name, labels));
  return gtk_label_get_text (labels->pdata[3]);
}

static void
assert_total_drawn (SpCallTreeView *view,
                    const char *name,
                    guint64 total,
                    guint64 all)
{
  g_autofree char *want = g_strdup_printf ("%.1f%%  (%" G_GUINT64_FORMAT ")", 100.0 * total / all, total);

  g_assert_cmpstr (total_drawn (view, name), ==, want);
}

static SpCallTreeView *
view_in_window (GtkWidget **window)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();
  SpCallTreeView *view = sp_call_tree_view_new ();

  *window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (*window), 600, 400);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (view));
  gtk_window_set_child (GTK_WINDOW (*window), scroller);
  gtk_window_present (GTK_WINDOW (*window));
  return view;
}

/* A new tree of the same profile updates the rows in place: GTK keeps the
 * widgets of the rows whose functions are still there (swapping in a new
 * model rebuilt them all, ~150 ms on a large tree), and they show the new
 * counts, in the new order; the user's open rows and selection stay. */
static void
test_update_in_place (void)
{
  static const char *const kept[] = { "main", "parse", "lex", "eval", "lookup" };
  g_autoptr (SpProfile) profile = profile_from_text (changing);
  SpCallTree *second = thread_tree (profile, 1);
  GtkWidget *window;
  SpCallTreeView *view = view_in_window (&window);
  GtkWidget *before[G_N_ELEMENTS (kept)];
  guint changes = 0;

  sp_call_tree_view_set_tree (view, profile, thread_tree (profile, 0));
  set_expanded (view, "  eval 5", TRUE);
  select_row_text (view, "    lookup 4");
  settle ();
  assert_rows (view, "main 22", "  parse 15", "    lex 10", "  eval 5", "    lookup 4", "  old 2");
  assert_total_drawn (view, "parse", 15, 22);
  for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
    {
      before[i] = row_widget (view, kept[i], NULL);
      g_assert_nonnull (before[i]);
    }
  g_assert_nonnull (row_widget (view, "old", NULL));
  g_signal_connect (sp_call_tree_view_get_model (view), "items-changed", G_CALLBACK (count_changes), &changes);

  /* One items-changed for the whole update (GTK rebinds the rows in the
   * range of each). */
  sp_call_tree_view_set_tree (view, profile, second);
  g_assert_cmpuint (changes, ==, 1);
  g_signal_handlers_disconnect_by_func (sp_call_tree_view_get_model (view), count_changes, &changes);
  settle ();
  assert_rows (view, "main 29", "  eval 20", "    lookup 20", "  new 6", "  parse 3", "    lex 3");
  g_assert_cmpstr (selected_name (view, profile, second), ==, "lookup");
  for (guint i = 0; i < G_N_ELEMENTS (kept); i++)
    g_assert_true (row_widget (view, kept[i], NULL) == before[i]);
  assert_total_drawn (view, "main", 29, 29);
  assert_total_drawn (view, "eval", 20, 29);
  assert_total_drawn (view, "parse", 3, 29);
  assert_total_drawn (view, "lex", 3, 29);
  assert_total_drawn (view, "new", 6, 29);
  g_assert_null (row_widget (view, "old", NULL));
  gui_test_save_png (window, "call-tree-updated.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Untouched, the rows follow each new tree's hottest path, in place: the
 * old path closes, the new one opens, the rows kept keep their widgets. */
static void
test_follow_hot_path_in_place (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (changing);
  SpCallTree *second = thread_tree (profile, 1);
  GtkWidget *window;
  SpCallTreeView *view = view_in_window (&window);
  GtkWidget *main_row, *parse_row;

  sp_call_tree_view_set_tree (view, profile, thread_tree (profile, 0));
  settle ();
  assert_rows (view, "main 22", "  parse 15", "    lex 10", "  eval 5", "  old 2");
  main_row = row_widget (view, "main", NULL);
  parse_row = row_widget (view, "parse", NULL);

  sp_call_tree_view_set_tree (view, profile, second);
  settle ();
  assert_rows (view, "main 29", "  eval 20", "    lookup 20", "  new 6", "  parse 3");
  g_assert_cmpstr (selected_name (view, profile, second), ==, "lookup");
  g_assert_true (row_widget (view, "main", NULL) == main_row);
  g_assert_true (row_widget (view, "parse", NULL) == parse_row);
  assert_total_drawn (view, "parse", 3, 29);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A live recording's first tree: a few samples, at once; the next: a hot
 * path 40 calls deep with a callee beside each call. Updated in place, its
 * 80 new rows came in one frame; untouched, they come as a first tree's,
 * a few a frame, and end with the hot path open and its end selected.
 * Touched, the same update is in place (what the user opened stays). */
static SpProfile *
shallow_then_deep (void)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GString) stack = g_string_new ("main");

  g_ptr_array_add (lines, g_strdup ("@1 main;start 3"));
  g_ptr_array_add (lines, g_strdup ("@1 main 1"));
  for (guint depth = 0; depth < 40; depth++)
    {
      g_ptr_array_add (lines, g_strdup_printf ("@2 %s;side%u 1", stack->str, depth));
      g_string_append_printf (stack, ";level%u", depth);
    }
  g_ptr_array_add (lines, g_strdup_printf ("@2 %s 1000", stack->str));
  g_ptr_array_add (lines, NULL);
  return profile_from_text ((const char *const *) lines->pdata);
}

static void
test_update_grows_like_first (void)
{
  g_autoptr (SpProfile) profile = shallow_then_deep ();
  GtkWidget *window;
  SpCallTreeView *view = view_in_window (&window);
  GListModel *shown = G_LIST_MODEL (gtk_column_view_get_model (column_view_of (view)));
  gint64 give_up = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  SpCallTree *deep = thread_tree (profile, 1);
  guint most = 0;

  sp_call_tree_view_set_tree (view, profile, thread_tree (profile, 0));
  settle ();
  assert_rows (view, "main 4", "  start 3");
  sp_call_tree_view_set_tree (view, profile, deep);
  g_assert_true (sp_call_tree_view_is_revealing (view));
  while (sp_call_tree_view_is_revealing (view) && g_get_monotonic_time () < give_up)
    {
      guint n = g_list_model_get_n_items (shown);

      /* Never all at once. */
      g_assert_cmpuint (n, <, 82);
      most = MAX (most, n);
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_false (sp_call_tree_view_is_revealing (view));
  g_assert_cmpuint (most, >, 0);
  /* The hot path goes 30 calls down (HOT_PATH_MAX_DEPTH): main and
   * level0..level28, its end; main and level0..level27 open, two
   * callees each. */
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1 + 2 * 29);
  g_assert_cmpstr (selected_name (view, profile, deep), ==, "level28");

  /* Touched (the user closed main), the next such update is in place. */
  sp_call_tree_view_set_tree (view, profile, thread_tree (profile, 0));
  settle ();
  set_expanded (view, "main 4", FALSE);
  settle ();
  sp_call_tree_view_set_tree (view, profile, thread_tree (profile, 1));
  g_assert_false (sp_call_tree_view_is_revealing (view));
  assert_rows (view, "main 1040");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A cell follows its item: moved to another tree's node, the item's row
 * shows the new counts without GTK binding it again. */
static void
test_cells_follow_item (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (changing);
  SpCallTree *first = thread_tree (profile, 0);
  SpCallTree *second = thread_tree (profile, 1);
  g_autoptr (SpTreeSource) source = sp_tree_source_new (profile, second);
  GtkWidget *window;
  SpCallTreeView *view = view_in_window (&window);
  g_autoptr (GtkTreeListRow) row = NULL;
  g_autoptr (SpTreeItem) item = NULL;
  g_autoptr (GArray) path = NULL;
  guint32 node;

  sp_call_tree_view_set_tree (view, profile, first);
  settle ();
  g_assert_cmpint (row_position (view, "  parse 15"), ==, 1);
  row = g_list_model_get_item (sp_call_tree_view_get_model (view), 1);
  item = gtk_tree_list_row_get_item (row);
  path = sp_call_tree_get_path (first, sp_tree_item_get_node (item));
  node = sp_call_tree_find_path (second, (const guint32 *) path->data, path->len, NULL);
  assert_total_drawn (view, "parse", 15, 22);

  sp_tree_item_move_to (item, source, node);
  g_assert_cmpuint (sp_function_item_get_total (SP_FUNCTION_ITEM (item)), ==, 3);
  assert_total_drawn (view, "parse", 3, 29);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The tree of one thread's samples, or of both (thread 2). */
static SpCallTree *
threads_tree (SpProfile *profile,
              guint threads,
              gboolean bottom_up)
{
  g_autoptr (SpFilter) filter = sp_filter_new ();

  if (threads < 2)
    sp_filter_hide_thread (filter, 1 - threads);
  return sp_call_tree_new (profile, filter, NULL, bottom_up);
}

/* Untouched, a view updated in place shows what a new view given the same
 * tree shows (the hot path open and selected), top-down and bottom-up,
 * through trees that drop, add and reorder functions. */
static void
test_update_like_new (void)
{
  static const guint steps[] = { 0, 1, 2, 0, 2, 1 };
  g_autoptr (SpProfile) profile = profile_from_text (changing);

  for (guint bottom_up = 0; bottom_up < 2; bottom_up++)
    {
      g_autoptr (SpCallTreeView) updated = new_view ();

      for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
        {
          g_autoptr (SpCallTreeView) fresh = new_view ();
          SpCallTree *tree = threads_tree (profile, steps[i], bottom_up);
          g_autofree char *want = NULL;
          g_autofree char *got = NULL;

          sp_call_tree_view_set_tree (fresh, profile, threads_tree (profile, steps[i], bottom_up));
          sp_call_tree_view_set_tree (updated, profile, tree);
          want = rows_of (fresh);
          got = rows_of (updated);
          g_test_message ("%s, threads %u:\n%s", bottom_up ? "bottom-up" : "top-down", steps[i], got);
          g_assert_cmpstr (got, ==, want);
          g_assert_cmpstr (selected_name (updated, profile, tree), ==,
                           selected_name (fresh, profile, tree));
        }
    }
}

/* a and b tie when both threads count: 6 samples each. */
static const char *const ties[] = {
  "@1 main;a 5",
  "@1 main;b 3",
  "@2 main;a 1",
  "@2 main;b 3",
  NULL
};

/* Rows that tie go in the tree's order, whichever order the tree before
 * left them in (a before b, or b before a): as a new view shows them. */
static void
test_update_ties (void)
{
  static const guint firsts[] = { 0, 1 };
  g_autoptr (SpProfile) profile = profile_from_text (ties);

  for (guint bottom_up = 0; bottom_up < 2; bottom_up++)
    for (guint i = 0; i < G_N_ELEMENTS (firsts); i++)
      {
        g_autoptr (SpCallTreeView) updated = new_view ();
        g_autoptr (SpCallTreeView) fresh = new_view ();
        g_autofree char *want = NULL;
        g_autofree char *got = NULL;

        sp_call_tree_view_set_tree (updated, profile, threads_tree (profile, firsts[i], bottom_up));
        sp_call_tree_view_set_tree (updated, profile, threads_tree (profile, 2, bottom_up));
        sp_call_tree_view_set_tree (fresh, profile, threads_tree (profile, 2, bottom_up));
        want = rows_of (fresh);
        got = rows_of (updated);
        g_test_message ("%s, from thread %u:\n%s", bottom_up ? "bottom-up" : "top-down", firsts[i], got);
        g_assert_cmpstr (got, ==, want);
      }
}

/* b is a leaf in one tree, has a callee in the other. */
static const char *const leaf_grows[] = {
  "@1 main;a 5",
  "@1 main;b 3",
  "@2 main;a 5",
  "@2 main;b;c 3",
  NULL
};

static GtkTreeListRow *
row_of (SpCallTreeView *view,
        const char *text)
{
  int position = row_position (view, text);

  g_assert_cmpint (position, >=, 0);
  return g_list_model_get_item (sp_call_tree_view_get_model (view), position);
}

/* A row that gains callees can open (GtkTreeListModel remembers a row
 * found to have nothing to open); an open row that loses them closes. */
static void
test_update_children_come_and_go (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (leaf_grows);
  g_autoptr (SpCallTreeView) view = new_view ();
  g_autoptr (GtkTreeListRow) leaf = NULL;
  g_autoptr (GtkTreeListRow) grown = NULL;
  g_autoptr (GtkTreeListRow) shrunk = NULL;

  sp_call_tree_view_set_tree (view, profile, thread_tree (profile, 0));
  assert_rows (view, "main 8", "  a 5", "  b 3");
  leaf = row_of (view, "  b 3");
  g_assert_false (gtk_tree_list_row_is_expandable (leaf));

  sp_call_tree_view_set_tree (view, profile, thread_tree (profile, 1));
  assert_rows (view, "main 8", "  a 5", "  b 3");
  grown = row_of (view, "  b 3");
  g_assert_true (gtk_tree_list_row_is_expandable (grown));
  gtk_tree_list_row_set_expanded (grown, TRUE);
  assert_rows (view, "main 8", "  a 5", "  b 3", "    c 3");

  sp_call_tree_view_set_tree (view, profile, thread_tree (profile, 0));
  assert_rows (view, "main 8", "  a 5", "  b 3");
  shrunk = row_of (view, "  b 3");
  g_assert_false (gtk_tree_list_row_get_expanded (shrunk));
  g_assert_false (gtk_tree_list_row_is_expandable (shrunk));
}

/* The tree of offcpu_example under metric. */
static SpCallTree *
metric_tree (SpProfile *profile,
             SpMetric metric,
             gboolean bottom_up)
{
  g_autoptr (SpFilter) filter = sp_filter_new ();

  sp_filter_set_metric (filter, metric);
  return sp_call_tree_new (profile, filter, NULL, bottom_up);
}

/* The Self and Total cells drawn for name. */
static void
assert_costs_drawn (SpCallTreeView *view,
                    const char *name,
                    const char *self_text,
                    const char *total_text)
{
  g_autoptr (GPtrArray) labels = g_ptr_array_new ();

  g_assert_nonnull (row_widget (view, name, labels));
  g_assert_cmpstr (gtk_label_get_text (labels->pdata[2]), ==, self_text);
  g_assert_cmpstr (gtk_label_get_text (labels->pdata[3]), ==, total_text);
}

/* With a time metric the cells show the share and the time; a tree of
 * another metric of the same profile (updated in place) writes the same
 * rows in its unit. Thread 2 of offcpu_example is off the CPU 30 ms in
 * pipe_wait, 5 ms preempted in work and 10 ms without a stack. */
static void
test_time_metric (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (offcpu_example);
  GtkWidget *window;
  SpCallTreeView *view = view_in_window (&window);

  sp_call_tree_view_set_tree (view, profile, metric_tree (profile, SP_METRIC_OFF_CPU, FALSE));
  settle ();
  assert_costs_drawn (view, "main", "0.0%  (0 s)", "77.8%  (35.0 ms)");
  assert_costs_drawn (view, "pipe_wait", "66.7%  (30.0 ms)", "66.7%  (30.0 ms)");
  gui_test_save_png (window, "call-tree-off-cpu.png");

  sp_call_tree_view_set_tree (view, profile, metric_tree (profile, SP_METRIC_CPU, FALSE));
  settle ();
  assert_costs_drawn (view, "main", "0.0%  (0)", "100.0%  (10)");
  gtk_window_destroy (GTK_WINDOW (window));

  /* Bottom-up wall-clock time: the blocking function is a root with its
   * time, a quarter of the 120 ms (both threads from 1000 to 1060 ms). */
  view = view_in_window (&window);
  sp_call_tree_view_set_tree (view, profile, metric_tree (profile, SP_METRIC_WALL, TRUE));
  settle ();
  assert_costs_drawn (view, "pipe_wait", "25.0%  (30.0 ms)", "25.0%  (30.0 ms)");
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_screenshot (void)
{
  static const char *const lines[] = {
    "main;parse_file;tokenize;next_char 420",
    "main;parse_file;tokenize 130",
    "main;parse_file;build_ast 250",
    "main;evaluate;eval_expr;lookup_symbol 300",
    "main;evaluate;eval_expr 90",
    "main;write_output 60",
    "main 10",
    NULL
  };
  g_autoptr (SpProfile) profile = profile_from_text (lines);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  SpCallTreeView *view = sp_call_tree_view_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 360);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (view));
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  sp_call_tree_view_set_tree (view, profile, sp_call_tree_new (profile, NULL, NULL, FALSE));
  gtk_window_present (GTK_WINDOW (window));
  gui_test_save_png (window, "call-tree.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/ui/call-tree-view/top-down", test_top_down);
  g_test_add_func ("/ui/call-tree-view/sort", test_sort);
  g_test_add_func ("/ui/call-tree-view/search", test_search);
  g_test_add_func ("/ui/call-tree-view/bottom-up", test_bottom_up);
  g_test_add_func ("/ui/call-tree-view/activate", test_activate);
  g_test_add_func ("/ui/call-tree-view/keep-state", test_keep_state);
  g_test_add_func ("/ui/call-tree-view/follow-hot-path", test_follow_hot_path);
  g_test_add_func ("/ui/call-tree-view/keep-scroll", test_keep_scroll);
  g_test_add_func ("/ui/call-tree-view/hidden", test_hidden);
  g_test_add_func ("/ui/call-tree-view/reveal-by-frames", test_reveal_by_frames);
  g_test_add_func ("/ui/call-tree-view/deep-path", test_deep_path);
  g_test_add_func ("/ui/call-tree-view/keep-state-hidden", test_keep_state_hidden);
  g_test_add_func ("/ui/call-tree-view/keep-state-collapse-recursion", test_keep_state_collapse_recursion);
  g_test_add_func ("/ui/call-tree-view/update-in-place", test_update_in_place);
  g_test_add_func ("/ui/call-tree-view/follow-hot-path-in-place", test_follow_hot_path_in_place);
  g_test_add_func ("/ui/call-tree-view/cells-follow-item", test_cells_follow_item);
  g_test_add_func ("/ui/call-tree-view/update-grows-like-first", test_update_grows_like_first);
  g_test_add_func ("/ui/call-tree-view/update-like-new", test_update_like_new);
  g_test_add_func ("/ui/call-tree-view/update-ties", test_update_ties);
  g_test_add_func ("/ui/call-tree-view/children-come-and-go", test_update_children_come_and_go);
  g_test_add_func ("/ui/call-tree-view/time-metric", test_time_metric);
  g_test_add_func ("/ui/call-tree-view/screenshot", test_screenshot);
  return g_test_run ();
}
