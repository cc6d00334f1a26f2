/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-window.c: the real window, under a real (X) display.
 *
 * Opens good, damaged and missing recordings the way a user does, waits for
 * the worker thread, and checks what the window shows; it also saves a PNG
 * of each state for review (SP_SCREENSHOT_DIR, or a temporary folder). */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

#include "gui-test.h"
#include "sp-call-tree-view.h"
#include "sp-flame-graph.h"
#include "sp-tree-item.h"
#include "sp-window.h"


static char *
vector_path (const char *name)
{
  return g_build_filename (g_getenv ("SP_TEST_VECTORS"), name, NULL);
}

static gboolean
wait_for_page (SpWindow *window,
               const char *page)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline)
    {
      if (g_strcmp0 (sp_window_get_page (window), page) == 0)
        return TRUE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  return FALSE;
}


/* The text of the value label next to the name label in the figures grid. */
static char *
figure_text (SpWindow *window,
             const char *name)
{
  GtkWidget *grid = NULL;
  GtkWidget *child;

  /* The grid is the only GtkGrid in the window. */
  for (child = gtk_widget_get_first_child (GTK_WIDGET (window)); child != NULL;)
    {
      if (GTK_IS_GRID (child))
        {
          grid = child;
          break;
        }
      if (gtk_widget_get_first_child (child) != NULL)
        child = gtk_widget_get_first_child (child);
      else
        {
          while (child != NULL && gtk_widget_get_next_sibling (child) == NULL)
            child = gtk_widget_get_parent (child);
          child = child ? gtk_widget_get_next_sibling (child) : NULL;
        }
    }
  g_assert_nonnull (grid);
  for (int row = 0; gtk_grid_get_child_at (GTK_GRID (grid), 0, row) != NULL; row++)
    {
      GtkWidget *label = gtk_grid_get_child_at (GTK_GRID (grid), 0, row);

      if (g_str_equal (gtk_label_get_text (GTK_LABEL (label)), name))
        return g_strdup (gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), 1, row))));
    }
  return NULL;
}

static SpWindow *
open_window (const char *path)
{
  SpWindow *window = sp_window_new (NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, file);
  return window;
}

static void
test_start_page (void)
{
  SpWindow *window = sp_window_new (NULL);

  gtk_window_present (GTK_WINDOW (window));
  g_assert_cmpstr (sp_window_get_page (window), ==, "start");
  gui_test_save_png (GTK_WIDGET (window), "window-start.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_open_valid (void)
{
  g_autofree char *path = vector_path ("valid-03.spool");
  SpWindow *window = open_window (path);
  g_autofree char *samples = NULL;
  g_autofree char *threads = NULL;

  g_assert_true (wait_for_page (window, "profile"));
  samples = figure_text (window, "Samples");
  threads = figure_text (window, "Threads");
  g_assert_cmpstr (samples, ==, "120");
  g_assert_nonnull (threads);
  g_assert_true (g_str_has_suffix (threads, "processes"));
  gui_test_save_png (GTK_WIDGET (window), "window-call-tree.png");
  sp_window_show_view (window, "flame-graph");
  gui_test_save_png (GTK_WIDGET (window), "window-flame-graph.png");
  sp_window_show_view (window, "summary");
  gui_test_save_png (GTK_WIDGET (window), "window-summary.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* valid-03 without its last byte: the summary of the good part, and the
 * damage said in words. */
static void
test_open_damaged (void)
{
  g_autofree char *path = vector_path ("bad-06.spool");
  SpWindow *window = open_window (path);
  g_autofree char *samples = NULL;

  g_assert_true (wait_for_page (window, "profile"));
  samples = figure_text (window, "Samples");
  g_assert_cmpstr (samples, ==, "119");
  sp_window_show_view (window, "summary");
  gui_test_save_png (GTK_WIDGET (window), "window-damaged.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The first check button under widget whose label contains text. */
static GtkCheckButton *
find_check_button (GtkWidget *widget,
                   const char *text)
{
  if (GTK_IS_CHECK_BUTTON (widget))
    {
      const char *label = gtk_check_button_get_label (GTK_CHECK_BUTTON (widget));

      if (label != NULL && strstr (label, text) != NULL)
        return GTK_CHECK_BUTTON (widget);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkCheckButton *found = find_check_button (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Samples under the call tree's top-level rows. */
static guint64
call_tree_total (SpWindow *window)
{
  GListModel *rows = sp_window_get_call_tree_model (window);
  guint64 total = 0;

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (SpTreeItem) item = gtk_tree_list_row_get_item (row);

      if (gtk_tree_list_row_get_depth (row) == 0)
        total += sp_tree_item_get_total (item);
    }
  return total;
}

/* A real recording of a workload with known call paths, through the real
 * recorder: the views show its functions by name. */
static void
test_open_recording (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-window-XXXXXX", &error);
  g_autofree char *spool = g_build_filename (dir, "threads.spool", NULL);
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);
  const char *argv[] = { g_getenv ("SP_RECORD"), "-F", "2000", "-o", spool, "--",
                         g_getenv ("SP_WORK_THREADS"), "0.6", NULL };
  int status = 0;
  SpWindow *window;
  g_autofree char *samples = NULL;

  g_assert_nonnull (argv[0]);
  g_assert_nonnull (argv[6]);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    {
      if (g_getenv ("CI") != NULL)
        g_error ("stackpulse-record failed here (status %d): CI must be able to record", status);
      g_test_skip ("stackpulse-record cannot record here (perf_event refused?)");
      return;
    }
  window = open_window (spool);
  g_assert_true (wait_for_page (window, "profile"));
  samples = figure_text (window, "Samples");
  g_assert_nonnull (samples);
  g_assert_cmpint (atoi (samples), >, 500);
  g_assert_true (sp_window_search_function (window, "alpha_leaf"));
  gui_test_save_png (GTK_WIDGET (window), "recording-call-tree.png");

  /* A time range on the timeline: the call tree counts only its samples
   * (four busy threads over 0.6 s: a third of the time, about a third). */
  {
    guint64 all = call_tree_total (window);
    guint64 part = all;
    gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

    sp_window_select_time (window, 0.1, 0.3);
    while (part == all && g_get_monotonic_time () < deadline)
      {
        g_main_context_iteration (NULL, FALSE);
        part = call_tree_total (window);
      }
    g_test_message ("all %" G_GUINT64_FORMAT ", selected %" G_GUINT64_FORMAT, all, part);
    g_assert_cmpuint (part, >, all / 6);
    g_assert_cmpuint (part, <, all / 2);
    gui_test_save_png (GTK_WIDGET (window), "recording-selection.png");
  }

  /* Drop the samples in alpha_leaf (about a quarter), then undo. */
  {
    guint64 all, dropped, restored;
    gint64 deadline;

    sp_window_select_time (window, 0, 1000);
    for (deadline = g_get_monotonic_time () + G_USEC_PER_SEC; g_get_monotonic_time () < deadline;)
      g_main_context_iteration (NULL, FALSE);
    all = call_tree_total (window);
    g_assert_true (sp_window_search_function (window, "alpha_leaf"));
    g_assert_true (sp_window_apply_transform (window, SP_TRANSFORM_DROP_FUNCTION));
    dropped = all;
    for (deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
         dropped == all && g_get_monotonic_time () < deadline;)
      {
        g_main_context_iteration (NULL, FALSE);
        dropped = call_tree_total (window);
      }
    g_test_message ("all %" G_GUINT64_FORMAT ", without alpha_leaf %" G_GUINT64_FORMAT, all, dropped);
    g_assert_cmpuint (dropped, <, all * 9 / 10);
    g_assert_cmpuint (dropped, >, all / 2);
    gui_test_save_png (GTK_WIDGET (window), "recording-transform.png");

    gtk_widget_activate_action (GTK_WIDGET (window), "win.transform-undo", NULL);
    restored = dropped;
    for (deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
         restored != all && g_get_monotonic_time () < deadline;)
      {
        g_main_context_iteration (NULL, FALSE);
        restored = call_tree_total (window);
      }
    g_assert_cmpuint (restored, ==, all);
  }

  /* The thread list: hiding sp-alpha leaves the others' samples. */
  {
    GtkCheckButton *alpha;
    guint64 all = call_tree_total (window);
    guint64 shown = all;
    gint64 deadline;

    sp_window_show_view (window, "threads");
    alpha = find_check_button (GTK_WIDGET (window), "sp-alpha");
    g_assert_nonnull (alpha);
    g_assert_true (gtk_check_button_get_active (alpha));
    gui_test_save_png (GTK_WIDGET (window), "recording-threads.png");
    gtk_check_button_set_active (alpha, FALSE);
    for (deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
         shown == all && g_get_monotonic_time () < deadline;)
      {
        g_main_context_iteration (NULL, FALSE);
        shown = call_tree_total (window);
      }
    g_test_message ("all %" G_GUINT64_FORMAT ", without sp-alpha %" G_GUINT64_FORMAT, all, shown);
    g_assert_cmpuint (shown, <, all * 9 / 10);
    g_assert_cmpuint (shown, >, all / 2);
  }
  sp_window_show_view (window, "bottom-up");
  gui_test_save_png (GTK_WIDGET (window), "recording-bottom-up.png");
  sp_window_show_view (window, "flame-graph");
  gui_test_save_png (GTK_WIDGET (window), "recording-flame-graph.png");
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (meta);
  g_unlink (spool);
  g_rmdir (dir);
}

static gboolean
call_tree_has_rows (SpWindow *window)
{
  return g_list_model_get_n_items (sp_window_get_call_tree_model (window)) > 0;
}

/* Waits until cond holds, running the main loop; FALSE after 20 s. */
static gboolean
wait_until (gboolean (*cond) (SpWindow *),
            SpWindow *window)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline)
    {
      if (cond (window))
        return TRUE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  return FALSE;
}

static gboolean
not_recording (SpWindow *window)
{
  return !sp_window_is_recording (window);
}

/* The first widget of type under widget, depth first. */
static GtkWidget *
find_widget (GtkWidget *widget,
             GType type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A flame graph taller than its view shows its roots, and a click (which
 * focuses the graph) leaves the view where it is: it once jumped to the
 * top, away from the frame clicked. A real recording of a deep recursion. */
static void
test_flame_graph_focus (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-window-XXXXXX", &error);
  g_autofree char *spool = g_build_filename (dir, "deep.spool", NULL);
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);
  const char *argv[] = { g_getenv ("SP_RECORD"), "-F", "1000", "-o", spool, "--",
                         g_getenv ("SP_WORK_DEEP"), "0.3", "80", NULL };
  int status = 0;
  SpWindow *window;
  GtkWidget *graph;
  GtkAdjustment *adjustment;
  double roots;

  g_assert_nonnull (argv[0]);
  g_assert_nonnull (argv[6]);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    {
      if (g_getenv ("CI") != NULL)
        g_error ("stackpulse-record failed here (status %d): CI must be able to record", status);
      g_test_skip ("stackpulse-record cannot record here (perf_event refused?)");
      return;
    }
  window = open_window (spool);
  g_assert_true (wait_for_page (window, "profile"));
  sp_window_show_view (window, "flame-graph");
  graph = find_widget (GTK_WIDGET (window), SP_TYPE_FLAME_GRAPH);
  g_assert_nonnull (graph);
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (graph,
                                                                          GTK_TYPE_SCROLLED_WINDOW)));
  gui_test_save_png (GTK_WIDGET (window), "window-flame-graph-deep.png");
  roots = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);
  g_assert_cmpfloat (roots, >, 0);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, roots);

  gtk_widget_grab_focus (graph);
  for (gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC / 3; g_get_monotonic_time () < until;)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (gtk_widget_has_focus (graph));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, roots);
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (spool);
  g_unlink (meta);
  g_rmdir (dir);
}

/* The model of the call tree view on the views' page named page. */
static GListModel *
view_model (SpWindow *window,
            const char *page)
{
  GtkWidget *stack = find_widget (GTK_WIDGET (window), GTK_TYPE_STACK);

  /* The pages' stack holds the views' stack. */
  while (stack != NULL && gtk_stack_get_child_by_name (GTK_STACK (stack), page) == NULL)
    stack = find_widget (gtk_stack_get_visible_child (GTK_STACK (stack)), GTK_TYPE_STACK);
  g_assert_nonnull (stack);
  return sp_call_tree_view_get_model (SP_CALL_TREE_VIEW (find_widget (gtk_stack_get_child_by_name (GTK_STACK (stack),
                                                                                                    page),
                                                                      SP_TYPE_CALL_TREE_VIEW)));
}

static guint64
top_level_total (GListModel *rows)
{
  guint64 total = 0;

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (SpTreeItem) item = gtk_tree_list_row_get_item (row);

      if (gtk_tree_list_row_get_depth (row) == 0)
        total += sp_tree_item_get_total (item);
    }
  return total;
}

/* The bottom-up tree is built after the first frame: it fills in shortly
 * after the call tree, with every sample. */
static void
test_open_bottom_up (void)
{
  g_autofree char *path = vector_path ("valid-03.spool");
  SpWindow *window = open_window (path);
  guint64 all, bottom_up = 0;

  g_assert_true (wait_for_page (window, "profile"));
  all = top_level_total (view_model (window, "call-tree"));
  g_assert_cmpuint (all, >, 0);
  sp_window_show_view (window, "bottom-up");
  for (gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
       bottom_up == 0 && g_get_monotonic_time () < deadline;)
    {
      g_main_context_iteration (NULL, FALSE);
      bottom_up = top_level_total (view_model (window, "bottom-up"));
    }
  g_assert_cmpuint (bottom_up, ==, all);
  gui_test_save_png (GTK_WIDGET (window), "window-bottom-up.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A second file opened in a window with a time range selected: it shows
 * every sample of the new file, in the call tree and bottom-up (the range
 * went with the old file, and no rebuild ran on the old profile as it was
 * freed). */
static void
test_open_again (void)
{
  g_autofree char *path = vector_path ("valid-03.spool");
  g_autoptr (GFile) file = g_file_new_for_path (path);
  SpWindow *window = open_window (path);
  guint64 all, part, bottom_up = 0;

  g_assert_true (wait_for_page (window, "profile"));
  all = top_level_total (view_model (window, "call-tree"));
  sp_window_select_time (window, 0.01, 0.03);
  part = all;
  for (gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
       part == all && g_get_monotonic_time () < deadline;)
    {
      g_main_context_iteration (NULL, FALSE);
      part = top_level_total (view_model (window, "call-tree"));
    }
  g_assert_cmpuint (part, <, all);

  sp_window_open_file (window, file);
  g_assert_cmpstr (sp_window_get_page (window), ==, "loading");
  g_assert_true (wait_for_page (window, "profile"));
  g_assert_cmpuint (top_level_total (view_model (window, "call-tree")), ==, all);
  sp_window_show_view (window, "bottom-up");
  for (gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
       bottom_up == 0 && g_get_monotonic_time () < deadline;)
    {
      g_main_context_iteration (NULL, FALSE);
      bottom_up = top_level_total (view_model (window, "bottom-up"));
    }
  g_assert_cmpuint (bottom_up, ==, all);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Record from the window: the views fill in while the workload still runs,
 * Stop ends it early, and the finished recording keeps its views. */
static void
test_record_live (void)
{
  SpRecordOptions options = { 0 };
  g_autoptr (GError) error = NULL;
  SpWindow *window = sp_window_new (NULL);
  gint64 started;
  g_autofree char *samples = NULL;

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  options.argv = g_strsplit ("WORKLOAD 8", " ", -1);
  g_free (options.argv[0]);
  options.argv[0] = g_strdup (g_getenv ("SP_WORK_THREADS"));
  options.frequency_hz = 1000;
  options.kernel_stacks = TRUE;
  gtk_window_present (GTK_WINDOW (window));
  started = g_get_monotonic_time ();
  g_assert_true (sp_window_record (window, &options, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (sp_window_get_page (window), ==, "profile");

  /* Live: rows appear well before the 8 s workload ends. */
  g_assert_true (wait_until (call_tree_has_rows, window));
  g_assert_true (sp_window_is_recording (window));
  g_test_message ("first rows after %.2f s", (g_get_monotonic_time () - started) / 1e6);
  gui_test_save_png (GTK_WIDGET (window), "live-call-tree.png");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL);
  g_assert_true (wait_until (not_recording, window));
  g_assert_cmpfloat ((g_get_monotonic_time () - started) / 1e6, <, 7.0);
  /* The last update reads the finished file and fills the summary. */
  for (gint64 until = g_get_monotonic_time () + 2 * G_USEC_PER_SEC; g_get_monotonic_time () < until;)
    g_main_context_iteration (NULL, FALSE);
  samples = figure_text (window, "Samples");
  g_assert_nonnull (samples);
  g_assert_cmpint (atoi (samples), >, 100);
  g_assert_true (call_tree_has_rows (window));
  gui_test_save_png (GTK_WIDGET (window), "live-finished.png");
  gtk_window_destroy (GTK_WINDOW (window));
  sp_record_options_clear (&options);
}

/* One click: the demo records, and its functions show while it runs. */
static void
test_profile_demo (void)
{
  SpWindow *window = sp_window_new (NULL);

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  g_setenv ("STACKPULSE_DEMO", g_getenv ("SP_DEMO"), TRUE);
  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.record-demo", NULL);
  g_assert_true (sp_window_is_recording (window));
  g_assert_true (wait_until (call_tree_has_rows, window));
  g_assert_true (sp_window_search_function (window, "deflate_block"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL);
  g_assert_true (wait_until (not_recording, window));
  gui_test_save_png (GTK_WIDGET (window), "demo.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A command that does not exist: the window says so. */
static void
test_record_missing_command (void)
{
  SpRecordOptions options = { 0 };
  g_autoptr (GError) error = NULL;
  SpWindow *window = sp_window_new (NULL);

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  options.argv = g_strsplit ("/nonexistent/program", " ", -1);
  options.frequency_hz = 1000;
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (sp_window_record (window, &options, &error));
  g_assert_true (wait_for_page (window, "error"));
  gui_test_save_png (GTK_WIDGET (window), "record-missing-command.png");
  gtk_window_destroy (GTK_WINDOW (window));
  sp_record_options_clear (&options);
}

static void
test_open_missing (void)
{
  SpWindow *window = open_window ("/nonexistent/recording.spool");

  g_assert_true (wait_for_page (window, "error"));
  gui_test_save_png (GTK_WIDGET (window), "window-missing.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/app/window/start-page", test_start_page);
  g_test_add_func ("/app/window/open-valid", test_open_valid);
  g_test_add_func ("/app/window/open-damaged", test_open_damaged);
  g_test_add_func ("/app/window/open-missing", test_open_missing);
  g_test_add_func ("/app/window/open-recording", test_open_recording);
  g_test_add_func ("/app/window/flame-graph-focus", test_flame_graph_focus);
  g_test_add_func ("/app/window/open-bottom-up", test_open_bottom_up);
  g_test_add_func ("/app/window/open-again", test_open_again);
  g_test_add_func ("/app/window/record-live", test_record_live);
  g_test_add_func ("/app/window/record-missing-command", test_record_missing_command);
  g_test_add_func ("/app/window/profile-demo", test_profile_demo);
  return g_test_run ();
}
