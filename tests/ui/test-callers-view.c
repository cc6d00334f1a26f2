/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-callers-view.c: the caller/callee view over profiles written as
 * text, fed by data/'s function list and callers/callees as the window's
 * worker feeds it.
 *
 * Each table's rows are printed as "name self/total" lines, so a check
 * reads like the table it expects. Also saves a PNG for review
 * (SP_SCREENSHOT_DIR, or a temporary folder). */
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test.h"
#include "profile-builder.h"
#include "sp-callers-view.h"
#include "sp-filter.h"
#include "sp-function-item.h"
#include "sp-function-list.h"
#include "sp-name-label.h"

static const char *const basic[] = {
  "main;parse;lex 10",
  "main;parse 5",
  "main;eval;lex 3",
  "main;eval;eval;eval 2",
  "main 1",
  NULL,
};

static char *
rows_of (GListModel *model)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (SpFunctionItem) item = g_list_model_get_item (model, i);

      g_string_append_printf (text, "%s%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, i > 0 ? ", " : "",
                              sp_function_item_get_name (item), sp_function_item_get_self (item),
                              sp_function_item_get_total (item));
    }
  return g_string_free (text, FALSE);
}

#define assert_rows(model, expected)              \
  G_STMT_START {                                  \
    g_autofree char *got_ = rows_of (model);      \
    g_assert_cmpstr (got_, ==, expected);         \
  } G_STMT_END

static guint32
function_named (SpProfile *profile,
                const char *name)
{
  g_autoptr (GArray) found = sp_profile_find_functions (profile, name);

  g_assert_cmpuint (found->len, ==, 1);
  return g_array_index (found, guint32, 0);
}

/* What the window's worker does for a function. */
static void
choose (SpCallersView *view,
        SpProfile *profile,
        guint32 function)
{
  SpFunctionCost cost;
  GArray *callers, *callees;

  sp_function_list_callers_callees (profile, NULL, NULL, function, &cost, &callers, &callees);
  sp_callers_view_set_function (view, &cost, callers, callees);
}

/* The samples the list covers (each has one innermost function). */
static guint64
all_samples (GArray *functions)
{
  guint64 all = 0;

  for (guint i = 0; i < functions->len; i++)
    all += g_array_index (functions, SpFunctionCost, i).self;
  return all;
}

static void
set_functions (SpCallersView *view,
               SpProfile *profile)
{
  GArray *functions = sp_function_list_new (profile, NULL, NULL);

  sp_callers_view_set_functions (view, profile, functions, all_samples (functions));
}

/* The view's column views, in the order they are in the widget tree:
 * functions, callers, callees. */
static GtkColumnView *
table_of (SpCallersView *view,
          guint index)
{
  g_autoptr (GPtrArray) found = gui_test_column_views (GTK_WIDGET (view));

  g_assert_cmpuint (found->len, ==, 3);
  return g_ptr_array_index (found, index);
}

static const char *
selected_in_list (SpCallersView *view)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (table_of (view, 0));
  SpFunctionItem *item = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));

  return item != NULL ? sp_function_item_get_name (item) : NULL;
}

static void
on_function_activated (SpCallersView *view,
                       guint function,
                       gpointer user_data)
{
  *(guint *) user_data = function;
}

/* The list by self; a function's callers above and callees below, by
 * total; recursion counted once. */
static void
test_tables (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autoptr (SpCallersView) view = g_object_ref_sink (sp_callers_view_new ());

  g_assert_cmpuint (sp_callers_view_get_function (view), ==, SP_FUNCTION_LIST_ROOT);
  set_functions (view, profile);
  assert_rows (sp_callers_view_get_functions (view), "lex 13/13, parse 5/15, eval 2/5, main 1/21");
  assert_rows (sp_callers_view_get_callers (view), "");
  g_assert_null (selected_in_list (view));

  choose (view, profile, function_named (profile, "lex"));
  g_assert_cmpuint (sp_callers_view_get_function (view), ==, function_named (profile, "lex"));
  assert_rows (sp_callers_view_get_callers (view), "parse 10/10, eval 3/3");
  assert_rows (sp_callers_view_get_callees (view), "");
  g_assert_cmpstr (selected_in_list (view), ==, "lex");

  choose (view, profile, function_named (profile, "eval"));
  assert_rows (sp_callers_view_get_callers (view), "main 2/5");
  assert_rows (sp_callers_view_get_callees (view), "lex 3/3, eval 0/2");

  /* main starts its stacks: its caller is the stack root. */
  choose (view, profile, function_named (profile, "main"));
  assert_rows (sp_callers_view_get_callers (view), "[stack root] 1/21");
  assert_rows (sp_callers_view_get_callees (view), "parse 5/15, eval 0/5");

  /* A new list (a live update): the choice stays, selected. */
  set_functions (view, profile);
  g_assert_cmpstr (selected_in_list (view), ==, "main");
  g_assert_cmpuint (sp_callers_view_get_function (view), ==, function_named (profile, "main"));

  /* No profile: nothing chosen, nothing shown. */
  sp_callers_view_set_functions (view, NULL, NULL, 0);
  g_assert_cmpuint (sp_callers_view_get_function (view), ==, SP_FUNCTION_LIST_ROOT);
  assert_rows (sp_callers_view_get_functions (view), "");
  assert_rows (sp_callers_view_get_callers (view), "");
}

/* Double click on a caller or callee, or a click in the list: the view
 * asks for that function; the stack root is no function to ask for. */
static void
test_activate (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autoptr (SpCallersView) view = g_object_ref_sink (sp_callers_view_new ());
  guint requested = SP_FUNCTION_LIST_ROOT;

  g_signal_connect (view, "function-activated", G_CALLBACK (on_function_activated), &requested);
  set_functions (view, profile);
  choose (view, profile, function_named (profile, "eval"));
  g_assert_cmpuint (requested, ==, SP_FUNCTION_LIST_ROOT);   /* the view's own doing */

  g_signal_emit_by_name (table_of (view, 1), "activate", 0);
  g_assert_cmpuint (requested, ==, function_named (profile, "main"));
  g_signal_emit_by_name (table_of (view, 2), "activate", 1);
  g_assert_cmpuint (requested, ==, function_named (profile, "eval"));

  gtk_selection_model_select_item (gtk_column_view_get_model (table_of (view, 0)), 1, TRUE);
  g_assert_cmpuint (requested, ==, function_named (profile, "parse"));

  choose (view, profile, function_named (profile, "main"));
  requested = SP_FUNCTION_LIST_ROOT;
  g_signal_emit_by_name (table_of (view, 1), "activate", 0);
  g_assert_cmpuint (requested, ==, SP_FUNCTION_LIST_ROOT);
}

/* The first label under widget showing text, or NULL. */
static gboolean
is_label_showing (GtkWidget *widget,
                  gconstpointer text)
{
  return GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_text (GTK_LABEL (widget)), text);
}

static GtkWidget *
find_label (GtkWidget *widget,
            const char *text)
{
  return gui_test_find (widget, is_label_showing, text);
}

/* The window as the user sees it, for review: a parser's profile with
 * tokenize chosen, its name and figures between callers and callees. */
static void
test_screenshot (void)
{
  static const char *const lines[] = {
    "main;parse_file;tokenize;next_char 420",
    "main;parse_file;tokenize 130",
    "main;parse_file;build_ast;tokenize;next_char 80",
    "main;parse_file;build_ast 250",
    "main;evaluate;eval_expr;lookup_symbol 300",
    "main;evaluate;eval_expr 90",
    "main;evaluate;eval_expr;tokenize 40",
    "main;write_output 60",
    "main 10",
    NULL
  };
  g_autoptr (SpProfile) profile = profile_from_text (lines);
  GtkWidget *window = gtk_window_new ();
  SpCallersView *view = sp_callers_view_new ();
  GtkWidget *figures;

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 560);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  set_functions (view, profile);
  choose (view, profile, function_named (profile, "tokenize"));
  assert_rows (sp_callers_view_get_callers (view), "parse_file 130/550, build_ast 0/80, eval_expr 40/40");
  assert_rows (sp_callers_view_get_callees (view), "next_char 500/500");
  gtk_window_present (GTK_WINDOW (window));
  gui_test_save_png (window, "callers-view.png");
  figures = find_label (window, "[kernel.kallsyms]   ·   self 12.3%  (170)   ·   total 48.6%  (670)");
  g_assert_nonnull (figures);
  g_assert_true (gtk_widget_get_mapped (figures));
  g_assert_true (gtk_widget_has_css_class (gtk_widget_get_prev_sibling (figures), "title-4"));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_widget_get_prev_sibling (figures))), ==, "tokenize");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The cell showing text, mapped, or NULL. */
static gboolean
is_mapped_cell_showing (GtkWidget *widget,
                        gconstpointer text)
{
  return gtk_widget_get_mapped (widget) && g_strcmp0 (gui_test_cell_text (widget), text) == 0;
}

static GtkWidget *
find_cell (GtkWidget *widget,
           const char *text)
{
  return gui_test_find (widget, is_mapped_cell_showing, text);
}

static void
run_frames (double seconds)
{
  gint64 until = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
}

/* A function chosen while the view is on a page not shown (the window's
 * worker may finish before the page has a size): once shown, the list
 * shows its rows, the chosen one among them. It showed one row, until
 * clicked. */
static void
test_chosen_while_hidden (void)
{
  g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (SpProfile) profile = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *stack = gtk_stack_new ();
  SpCallersView *view = sp_callers_view_new ();
  GtkWidget *chosen;
  graphene_rect_t bounds;
  guint shown;

  /* 40 functions, f39 the lightest: last in the list. */
  for (guint i = 0; i < 40; i++)
    g_ptr_array_add (lines, g_strdup_printf ("main;f%02u %u", i, 100 - i));
  g_ptr_array_add (lines, NULL);
  profile = profile_from_text ((const char *const *) lines->pdata);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 500);
  gtk_stack_add_named (GTK_STACK (stack), gtk_label_new ("another page"), "other");
  gtk_stack_add_named (GTK_STACK (stack), GTK_WIDGET (view), "callers");
  gtk_window_set_child (GTK_WINDOW (window), stack);
  gtk_window_present (GTK_WINDOW (window));
  run_frames (0.3);

  set_functions (view, profile);
  choose (view, profile, function_named (profile, "f39"));
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "callers");
  run_frames (0.5);
  gui_test_save_png (window, "callers-view-chosen-while-hidden.png");

  shown = gui_test_count_shown_cells (GTK_WIDGET (table_of (view, 0)));
  g_test_message ("%u labels shown", shown);
  /* Three a row: ten rows at least. */
  g_assert_cmpuint (shown, >=, 30);
  chosen = find_cell (GTK_WIDGET (table_of (view, 0)), "f39");
  g_assert_nonnull (chosen);
  g_assert_true (gtk_widget_get_mapped (chosen));
  g_assert_cmpint (gtk_widget_get_height (chosen), >, 0);
  g_assert_true (gtk_widget_compute_bounds (chosen, GTK_WIDGET (table_of (view, 0)), &bounds));
  g_assert_cmpfloat (bounds.origin.y, >=, 0);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (GTK_WIDGET (table_of (view, 0))));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The tooltip of the heading titled title. */
static const char *
heading_tooltip (GtkWidget *view,
                 const char *title)
{
  GtkWidget *heading = find_label (view, title);

  g_assert_nonnull (heading);
  return gtk_widget_get_tooltip_text (heading);
}

/* With a time metric the figures, cells and headings speak of time:
 * offcpu_example's thread 2 waits 30 ms in pipe_wait, of 45 ms off the
 * CPU. Set back to samples, the same rows are written as counts. */
static void
test_time_metric (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (offcpu_example);
  g_autoptr (SpFilter) filter = sp_filter_new ();
  GtkWidget *window = gtk_window_new ();
  SpCallersView *view = sp_callers_view_new ();
  GArray *functions, *callers, *callees;
  SpFunctionCost cost;

  sp_filter_set_metric (filter, SP_METRIC_OFF_CPU);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 560);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  g_assert_cmpint (sp_callers_view_get_metric (view), ==, SP_METRIC_CPU);
  g_assert_null (strstr (heading_tooltip (GTK_WIDGET (view), "Functions"), "time"));
  sp_callers_view_set_metric (view, SP_METRIC_OFF_CPU);
  functions = sp_function_list_new (profile, filter, NULL);
  sp_callers_view_set_functions (view, profile, functions, all_samples (functions));
  sp_function_list_callers_callees (profile, filter, NULL, function_named (profile, "pipe_wait"), &cost, &callers,
                                    &callees);
  sp_callers_view_set_function (view, &cost, callers, callees);
  assert_rows (sp_callers_view_get_callers (view), "main 30000000/30000000");
  gtk_window_present (GTK_WINDOW (window));
  run_frames (0.3);
  gui_test_save_png (window, "callers-view-off-cpu.png");
  g_assert_nonnull (find_label (window, "[kernel.kallsyms]   ·   self 66.7%  (30.0 ms)   ·   total 66.7%  (30.0 ms)"));
  g_assert_nonnull (find_cell (GTK_WIDGET (table_of (view, 0)), "22.2%  (10.0 ms)"));
  g_assert_nonnull (find_cell (GTK_WIDGET (table_of (view, 1)), "66.7%  (30.0 ms)"));
  g_assert_nonnull (strstr (heading_tooltip (GTK_WIDGET (view), "Functions"), "off-CPU time"));
  g_assert_nonnull (strstr (heading_tooltip (GTK_WIDGET (view), "Callers"), "off-CPU time"));
  g_assert_nonnull (strstr (heading_tooltip (GTK_WIDGET (view), "Callees"), "off-CPU time"));

  sp_callers_view_set_metric (view, SP_METRIC_CPU);
  run_frames (0.2);
  g_assert_nonnull (find_label (window, "[kernel.kallsyms]   ·   self 66.7%  (30000000)   ·   total 66.7%  (30000000)"));
  g_assert_nonnull (find_cell (GTK_WIDGET (table_of (view, 0)), "22.2%  (10000000)"));
  g_assert_null (strstr (heading_tooltip (GTK_WIDGET (view), "Functions"), "time"));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/ui/callers-view/tables", test_tables);
  g_test_add_func ("/ui/callers-view/activate", test_activate);
  g_test_add_func ("/ui/callers-view/screenshot", test_screenshot);
  g_test_add_func ("/ui/callers-view/chosen-while-hidden", test_chosen_while_hidden);
  g_test_add_func ("/ui/callers-view/time-metric", test_time_metric);
  return g_test_run ();
}
