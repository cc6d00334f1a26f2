/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-thread-list.c: the Threads page's table over thread rows made by
 * hand: its columns and what they show with and without the off-CPU
 * companion's states, the checks, live updates and sorting. Also saves a
 * PNG for review (SP_SCREENSHOT_DIR, or a temporary folder). */
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test.h"
#include "sp-thread-list.h"
#include "sp-thread-rows.h"

static const char *const titles[] = {
  "Shown", "Name", "PID", "TID", "Samples", "CPU (s)", "Off-CPU (s)", "Wall (s)", "Blocked (s)", "Runnable (s)",
  "Switches",
};

/* "worker" with states (1.5 s running, 0.25 s blocked, 5 ms runnable, 42
 * switches); an unnamed thread without (12 samples at 1 ms: 12 ms, an
 * estimate). samples: the first thread's. */
static GArray *
two_rows (guint64 samples)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (SpThreadRow));
  SpThreadRow worker = { .thread = 0, .pid = 100, .tid = 100, .name = "worker", .n_samples = samples,
                         .has_states = TRUE, .cpu_ns = 1500000000, .blocked_ns = 250000000,
                         .runnable_ns = 5000000, .switches = 42 };
  SpThreadRow unnamed = { .thread = 1, .pid = 100, .tid = 101, .name = NULL, .n_samples = 12,
                          .has_states = FALSE, .cpu_estimated = TRUE, .cpu_ns = 12000000 };

  g_array_append_val (rows, worker);
  g_array_append_val (rows, unnamed);
  return rows;
}

static void
run_frames (double seconds)
{
  gint64 until = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
}

static GtkColumnView *
table_of (SpThreadList *list)
{
  return gui_test_column_view (GTK_WIDGET (list), 0);
}

/* The row whose TID cell shows tid. */
static GtkWidget *
row_of (SpThreadList *list,
        const char *tid)
{
  g_autoptr (GPtrArray) rows = gui_test_table_rows (table_of (list));
  guint column = gui_test_column_index (table_of (list), "TID");

  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (gui_test_cell_text (gui_test_row_cell (rows->pdata[i], column)), tid) == 0)
      return rows->pdata[i];
  return NULL;
}

/* What row shows, its cells' texts joined by "|" (the check: "on"/"off"). */
static char *
row_text (GtkWidget *row)
{
  GString *text = g_string_new (NULL);

  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    {
      GtkWidget *cell = gui_test_row_cell (row, c);

      if (c > 0)
        g_string_append_c (text, '|');
      if (GTK_IS_CHECK_BUTTON (cell))
        g_string_append (text, gtk_check_button_get_active (GTK_CHECK_BUTTON (cell)) ? "on" : "off");
      else
        g_string_append (text, gui_test_cell_text (cell));
    }
  return g_string_free (text, FALSE);
}

#define assert_row(list, tid, expected)                   \
  G_STMT_START {                                          \
    GtkWidget *row_ = row_of ((list), (tid));             \
    g_autofree char *got_ = NULL;                         \
                                                          \
    g_assert_nonnull (row_);                              \
    got_ = row_text (row_);                               \
    g_assert_cmpstr (got_, ==, (expected));               \
  } G_STMT_END

static SpThreadList *
list_in_window (GtkWidget **window)
{
  SpThreadList *list = sp_thread_list_new ();

  *window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (*window), 1000, 300);
  gtk_window_set_child (GTK_WINDOW (*window), GTK_WIDGET (list));
  gtk_window_present (GTK_WINDOW (*window));
  return list;
}

typedef struct {
  guint    n;
  guint    thread;
  gboolean shown;
} Toggled;

static void
on_thread_toggled (SpThreadList *list,
                   guint thread,
                   gboolean shown,
                   Toggled *toggled)
{
  toggled->n++;
  toggled->thread = thread;
  toggled->shown = shown;
}

/* The columns, in order; times in seconds, "–" where the row has no
 * states, and the estimated CPU time says so in its tooltip. */
static void
test_columns (void)
{
  GtkWidget *window;
  SpThreadList *list = list_in_window (&window);
  g_autoptr (GArray) rows = two_rows (961);
  GtkColumnView *table = table_of (list);
  GtkWidget *cpu;

  g_assert_cmpuint (g_list_model_get_n_items (gtk_column_view_get_columns (table)), ==, G_N_ELEMENTS (titles));
  for (guint c = 0; c < G_N_ELEMENTS (titles); c++)
    g_assert_cmpuint (gui_test_column_index (table, titles[c]), ==, c);
  sp_thread_list_set_rows (list, rows, NULL);
  run_frames (0.3);
  gui_test_save_png (window, "thread-list.png");
  assert_row (list, "100", "on|worker|100|100|961|1.500|0.255|1.755|0.250|0.005|42");
  assert_row (list, "101", "on|(unnamed)|100|101|12|0.012|–|–|–|–|–");
  cpu = gui_test_row_cell (row_of (list, "100"), 5);
  g_assert_null (gtk_widget_get_tooltip_text (cpu));
  cpu = gui_test_row_cell (row_of (list, "101"), 5);
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (cpu), "Estimated"));

  sp_thread_list_set_rows (list, NULL, NULL);
  run_frames (0.1);
  g_assert_null (row_of (list, "100"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The user's tick emits "thread-toggled"; the list's own (a filter that
 * hides a thread) does not. */
static void
test_toggle (void)
{
  GtkWidget *window;
  SpThreadList *list = list_in_window (&window);
  g_autoptr (GArray) rows = two_rows (961);
  g_autoptr (SpFilter) filter = sp_filter_new ();
  Toggled toggled = { 0 };
  GtkCheckButton *check;

  g_signal_connect (list, "thread-toggled", G_CALLBACK (on_thread_toggled), &toggled);
  sp_filter_hide_thread (filter, 0);
  sp_thread_list_set_rows (list, rows, filter);
  run_frames (0.2);
  g_assert_cmpuint (toggled.n, ==, 0);
  assert_row (list, "100", "off|worker|100|100|961|1.500|0.255|1.755|0.250|0.005|42");

  check = GTK_CHECK_BUTTON (gui_test_row_cell (row_of (list, "101"), 0));
  gtk_check_button_set_active (check, FALSE);
  g_assert_cmpuint (toggled.n, ==, 1);
  g_assert_cmpuint (toggled.thread, ==, 1);
  g_assert_false (toggled.shown);
  check = GTK_CHECK_BUTTON (gui_test_row_cell (row_of (list, "100"), 0));
  gtk_check_button_set_active (check, TRUE);
  g_assert_cmpuint (toggled.n, ==, 2);
  g_assert_cmpuint (toggled.thread, ==, 0);
  g_assert_true (toggled.shown);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The name in the first row as sorted. */
static void
assert_top_name (GListModel *shown,
                 const char *expected)
{
  g_autoptr (GObject) top = g_list_model_get_item (shown, 0);
  g_autofree char *name = NULL;

  g_object_get (top, "name", &name, NULL);
  g_assert_cmpstr (name, ==, expected);
}

/* A live update changes the numbers in the same widgets; sorted by a
 * column, the rows take their new places. */
static void
test_update (void)
{
  GtkWidget *window;
  SpThreadList *list = list_in_window (&window);
  g_autoptr (GArray) first = two_rows (961);
  g_autoptr (GArray) second = two_rows (5);
  GtkColumnView *table = table_of (list);
  g_autoptr (GListModel) columns = g_object_ref (gtk_column_view_get_columns (table));
  g_autoptr (GtkColumnViewColumn) samples = g_list_model_get_item (columns, gui_test_column_index (table, "Samples"));
  GListModel *shown = G_LIST_MODEL (gtk_column_view_get_model (table));
  GtkWidget *label;
  Toggled toggled = { 0 };

  g_signal_connect (list, "thread-toggled", G_CALLBACK (on_thread_toggled), &toggled);
  sp_thread_list_set_rows (list, first, NULL);
  gtk_column_view_sort_by_column (table, samples, GTK_SORT_DESCENDING);
  run_frames (0.2);
  label = gui_test_row_cell (row_of (list, "100"), 4);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "961");
  assert_top_name (shown, "worker");

  sp_thread_list_set_rows (list, second, NULL);
  run_frames (0.2);
  g_assert_true (gui_test_row_cell (row_of (list, "100"), 4) == label);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "5");
  assert_top_name (shown, "(unnamed)");
  g_assert_cmpuint (toggled.n, ==, 0);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Hidden (another page of a stack shown), the list takes rows and ticks
 * without making their widgets: they come when it is shown, as last set. */
static void
test_hidden (void)
{
  g_autoptr (GArray) rows = two_rows (961);
  g_autoptr (GArray) more = two_rows (1500);
  g_autoptr (SpFilter) filter = sp_filter_new ();
  SpThreadList *list = sp_thread_list_new ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *stack = gtk_stack_new ();
  GtkColumnView *table = table_of (list);

  gtk_stack_add_named (GTK_STACK (stack), gtk_label_new ("another page"), "other");
  gtk_stack_add_named (GTK_STACK (stack), GTK_WIDGET (list), "threads");
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "other");
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 300);
  gtk_window_set_child (GTK_WINDOW (window), stack);
  gtk_window_present (GTK_WINDOW (window));
  run_frames (0.1);

  sp_thread_list_set_rows (list, rows, NULL);
  sp_thread_list_set_rows (list, more, NULL);
  sp_filter_hide_thread (filter, 1);
  sp_thread_list_update_shown (list, filter);
  run_frames (0.1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (table))), ==, 0);

  gtk_stack_set_visible_child_name (GTK_STACK (stack), "threads");
  run_frames (0.2);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (table))), ==, 2);
  assert_row (list, "100", "on|worker|100|100|1500|1.500|0.255|1.755|0.250|0.005|42");
  assert_row (list, "101", "off|(unnamed)|100|101|12|0.012|–|–|–|–|–");

  /* Shown, it follows at once. */
  sp_thread_list_set_rows (list, rows, NULL);
  run_frames (0.1);
  assert_row (list, "100", "on|worker|100|100|961|1.500|0.255|1.755|0.250|0.005|42");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/ui/thread-list/columns", test_columns);
  g_test_add_func ("/ui/thread-list/toggle", test_toggle);
  g_test_add_func ("/ui/thread-list/update", test_update);
  g_test_add_func ("/ui/thread-list/hidden", test_hidden);
  return g_test_run ();
}
