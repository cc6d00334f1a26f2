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
#include "sp-function-item.h"
#include "sp-tree-item.h"
#include "sp-window-testing.h"
#include "window-test.h"


static char *
vector_path (const char *name)
{
  return g_build_filename (g_getenv ("SP_TEST_VECTORS"), name, NULL);
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
  SpWindow *window = window_test_open_path (path);
  g_autofree char *samples = NULL;
  g_autofree char *threads = NULL;

  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  samples = window_test_figure_text (GTK_WIDGET (window), "Samples");
  threads = window_test_figure_text (GTK_WIDGET (window), "Threads");
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
  SpWindow *window = window_test_open_path (path);
  g_autofree char *samples = NULL;

  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  samples = window_test_figure_text (GTK_WIDGET (window), "Samples");
  g_assert_cmpstr (samples, ==, "119");
  sp_window_show_view (window, "summary");
  gui_test_save_png (GTK_WIDGET (window), "window-damaged.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Samples under the call tree's top-level rows. */
static guint64
call_tree_total (SpWindow *window)
{
  return window_test_top_level_total (sp_window_get_call_tree_model (window));
}

/* What `stackpulse-report callers FUNC --from --to` counts through func
 * in that range of the file: the window must show the same. */
static guint64
report_range_total (const char *spool,
                    const char *func,
                    const char *from_s,
                    const char *to_s)
{
  const char *argv[] = { g_getenv ("SP_REPORT"), "callers", func, "--from", from_s, "--to", to_s, spool, NULL };
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  const char *count;
  int status = 0;

  g_assert_nonnull (argv[0]);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_test_message ("report callers %s from %s to %s:\n%s", func, from_s, to_s, out);
  count = strstr (out, "% (");
  g_assert_nonnull (count);
  return g_ascii_strtoull (count + 3, NULL, 10);
}

/* "samples:   136 (of 388 in the file)": the samples that
 * `stackpulse-report [OPTIONS] FILE` counts, with options such as
 * --from/--to (NULL-terminated). How many samples a thread or a range
 * gets depends on how the kernel shared the CPUs out; the window must show
 * what the file holds, so its figures are compared with the report's. */
static guint64
report_samples (const char *spool,
                ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  const char *line;
  const char *option;
  int status = 0;
  va_list ap;

  g_ptr_array_add (argv, (char *) g_getenv ("SP_REPORT"));
  g_assert_nonnull (argv->pdata[0]);
  va_start (ap, spool);
  while ((option = va_arg (ap, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) option);
  va_end (ap);
  g_ptr_array_add (argv, (char *) spool);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status,
                &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  line = strstr (out, "\nsamples:");
  g_assert_nonnull (line);
  return g_ascii_strtoull (line + strlen ("\nsamples:"), NULL, 10);
}

/* The side file's sample count for the thread named name. */
static guint64
meta_thread_samples (const char *spool,
                     const char *name)
{
  g_autofree char *path = g_strconcat (spool, ".meta", NULL);
  g_autoptr (GKeyFile) meta = g_key_file_new ();
  g_auto (GStrv) groups = NULL;

  g_assert_true (g_key_file_load_from_file (meta, path, G_KEY_FILE_NONE, NULL));
  groups = g_key_file_get_groups (meta, NULL);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      g_autofree char *thread = g_key_file_get_string (meta, groups[i], "name", NULL);

      if (g_str_has_prefix (groups[i], "thread ") && g_strcmp0 (thread, name) == 0)
        return g_key_file_get_uint64 (meta, groups[i], "samples", NULL);
    }
  g_assert_not_reached ();
}

static gboolean
alpha_check_shown (gpointer window)
{
  return window_test_find_thread_check (window, "sp-alpha") != NULL;
}

/* A real recording of a workload with known call paths, through the real
 * recorder: the views show its functions by name. */
static void
test_open_recording (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-window-XXXXXX", &error);
  g_autofree char *spool = g_build_filename (dir, "threads.spool", NULL);
  SpWindow *window;
  g_autofree char *samples = NULL;

  if (!window_test_record (spool, "2000", g_getenv ("SP_WORK_THREADS"), "0.6", NULL))
    {
      window_test_remove_dir (dir);
      return;
    }
  window = window_test_open_path (spool);
  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  samples = window_test_figure_text (GTK_WIDGET (window), "Samples");
  g_assert_nonnull (samples);
  g_assert_cmpint (atoi (samples), >, 0);
  g_assert_cmpuint (atoi (samples), ==, report_samples (spool, NULL));
  g_assert_true (sp_window_search_function (window, "alpha_leaf"));
  gui_test_save_png (GTK_WIDGET (window), "recording-call-tree.png");

  /* A time range on the timeline: the call tree counts only its samples,
   * as many as the report counts in the same range. */
  {
    guint64 all = call_tree_total (window);
    guint64 part = all;
    guint64 expected = report_samples (spool, "--from", "0.1", "--to", "0.3", NULL);
    gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

    sp_window_select_time (window, 0.1, 0.3);
    while (part != expected && g_get_monotonic_time () < deadline)
      {
        g_main_context_iteration (NULL, FALSE);
        part = call_tree_total (window);
      }
    g_test_message ("all %" G_GUINT64_FORMAT ", selected %" G_GUINT64_FORMAT, all, part);
    g_assert_cmpuint (part, ==, expected);
    g_assert_cmpuint (part, >, 0);
    g_assert_cmpuint (part, <, all);
    gui_test_save_png (GTK_WIDGET (window), "recording-selection.png");
  }

  /* Drop the samples in alpha_leaf (as many as the report counts through
   * it), then undo. */
  {
    guint64 all, dropped, restored, through;
    gint64 deadline;

    sp_window_select_time (window, 0, 1000);
    for (deadline = g_get_monotonic_time () + G_USEC_PER_SEC; g_get_monotonic_time () < deadline;)
      g_main_context_iteration (NULL, FALSE);
    all = call_tree_total (window);
    through = report_range_total (spool, "alpha_leaf", "0", "1000");
    g_assert_cmpuint (through, >, 0);
    g_assert_true (sp_window_search_function (window, "alpha_leaf"));
    g_assert_true (sp_window_apply_transform (window, SP_TRANSFORM_DROP_FUNCTION));
    dropped = all;
    for (deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
         dropped != all - through && g_get_monotonic_time () < deadline;)
      {
        g_main_context_iteration (NULL, FALSE);
        dropped = call_tree_total (window);
      }
    g_test_message ("all %" G_GUINT64_FORMAT ", without alpha_leaf %" G_GUINT64_FORMAT, all, dropped);
    g_assert_cmpuint (dropped, ==, all - through);
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
    guint64 alphas = meta_thread_samples (spool, "sp-alpha");
    guint64 shown = all;
    gint64 deadline;

    /* The table makes its rows when the page is first laid out, in a
     * frame of its own: wait for it. */
    sp_window_show_view (window, "threads");
    g_assert_true (window_test_wait (alpha_check_shown, window, 10));
    alpha = window_test_find_thread_check (GTK_WIDGET (window), "sp-alpha");
    g_assert_nonnull (alpha);
    g_assert_true (gtk_check_button_get_active (alpha));
    gui_test_save_png (GTK_WIDGET (window), "recording-threads.png");
    gtk_check_button_set_active (alpha, FALSE);
    for (deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
         shown != all - alphas && g_get_monotonic_time () < deadline;)
      {
        g_main_context_iteration (NULL, FALSE);
        shown = call_tree_total (window);
      }
    g_test_message ("all %" G_GUINT64_FORMAT ", without sp-alpha %" G_GUINT64_FORMAT, all, shown);
    g_assert_cmpuint (alphas, >, 0);
    g_assert_cmpuint (shown, ==, all - alphas);
    sp_window_show_view (window, "bottom-up");
    gui_test_save_png (GTK_WIDGET (window), "recording-bottom-up.png");

    /* Shown again, and no search: every thread in the flame graph. */
    gtk_check_button_set_active (alpha, TRUE);
    for (deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
         shown != all && g_get_monotonic_time () < deadline;)
      {
        g_main_context_iteration (NULL, FALSE);
        shown = call_tree_total (window);
      }
    g_assert_cmpuint (shown, ==, all);
  }
  sp_window_search_function (window, "");
  sp_window_show_view (window, "flame-graph");
  gui_test_save_png (GTK_WIDGET (window), "recording-flame-graph.png");
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_remove_dir (dir);
}

static gboolean
call_tree_has_rows (gpointer window)
{
  return g_list_model_get_n_items (sp_window_get_call_tree_model (window)) > 0;
}

static gboolean
not_recording (gpointer window)
{
  return !sp_window_is_recording (window);
}

/* The flame graph's row height (sp-flame-graph.c). */
#define FLAME_ROW_HEIGHT 18

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
  g_autofree char *main_markup = NULL;
  const char *location;
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
  window = window_test_open_path (spool);
  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  sp_window_show_view (window, "flame-graph");
  graph = window_test_find_widget (GTK_WIDGET (window), SP_TYPE_FLAME_GRAPH);
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
  /* The window's focus widget (what moves the viewport); has_focus would
   * also need X's input focus, which other test programs' windows on the
   * same Xvfb can take. */
  g_assert_true (gtk_widget_is_focus (graph));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, roots);

  /* Hovering main tells where it is defined (the workload has DWARF). */
  for (guint row = 1; row < 8 && main_markup == NULL; row++)
    {
      guint32 node = sp_flame_graph_node_at (SP_FLAME_GRAPH (graph), 1,
                                             gtk_widget_get_height (graph) - (row + 0.5) * FLAME_ROW_HEIGHT);
      g_autofree char *markup = node != SP_CALL_TREE_NONE ? sp_flame_graph_describe (SP_FLAME_GRAPH (graph), node) : NULL;

      if (markup != NULL && g_str_has_prefix (markup, "<b>main</b>\n"))
        main_markup = g_steal_pointer (&markup);
    }
  g_assert_nonnull (main_markup);
  g_test_message ("main's tooltip: %s", main_markup);
  location = strstr (main_markup, "\nsp-work-deep.c:");
  g_assert_nonnull (location);
  g_assert_cmpuint (g_ascii_strtoull (location + strlen ("\nsp-work-deep.c:"), NULL, 10), >, 0);
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
  GtkStack *stack = window_test_stack_with_page (GTK_WIDGET (window), page);

  return sp_call_tree_view_get_model (SP_CALL_TREE_VIEW (window_test_find_widget (gtk_stack_get_child_by_name (stack, page),
                                                                                  SP_TYPE_CALL_TREE_VIEW)));
}

/* The bottom-up tree is built after the first frame: it fills in shortly
 * after the call tree, with every sample. */
static void
test_open_bottom_up (void)
{
  g_autofree char *path = vector_path ("valid-03.spool");
  SpWindow *window = window_test_open_path (path);
  guint64 all, bottom_up = 0;

  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  all = window_test_top_level_total (view_model (window, "call-tree"));
  g_assert_cmpuint (all, >, 0);
  sp_window_show_view (window, "bottom-up");
  for (gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
       bottom_up == 0 && g_get_monotonic_time () < deadline;)
    {
      g_main_context_iteration (NULL, FALSE);
      bottom_up = window_test_top_level_total (view_model (window, "bottom-up"));
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
  SpWindow *window = window_test_open_path (path);
  guint64 all, part, bottom_up = 0;

  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  all = window_test_top_level_total (view_model (window, "call-tree"));
  sp_window_select_time (window, 0.01, 0.03);
  part = all;
  for (gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
       part == all && g_get_monotonic_time () < deadline;)
    {
      g_main_context_iteration (NULL, FALSE);
      part = window_test_top_level_total (view_model (window, "call-tree"));
    }
  g_assert_cmpuint (part, <, all);

  sp_window_open_file (window, file);
  g_assert_cmpstr (sp_window_get_page (window), ==, "loading");
  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  g_assert_cmpuint (window_test_top_level_total (view_model (window, "call-tree")), ==, all);
  sp_window_show_view (window, "bottom-up");
  for (gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
       bottom_up == 0 && g_get_monotonic_time () < deadline;)
    {
      g_main_context_iteration (NULL, FALSE);
      bottom_up = window_test_top_level_total (view_model (window, "bottom-up"));
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
  g_autofree char *duration = NULL;
  g_autofree char *unwinding = NULL;

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
  g_assert_true (window_test_wait (call_tree_has_rows, window, 20));
  g_assert_true (sp_window_is_recording (window));
  g_test_message ("first rows after %.2f s", (g_get_monotonic_time () - started) / 1e6);
  gui_test_save_png (GTK_WIDGET (window), "live-call-tree.png");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL);
  g_assert_true (window_test_wait (not_recording, window, 20));
  /* The last update reads the finished file and fills the summary. */
  for (gint64 until = g_get_monotonic_time () + 2 * G_USEC_PER_SEC; g_get_monotonic_time () < until;)
    g_main_context_iteration (NULL, FALSE);
  samples = window_test_figure_text (GTK_WIDGET (window), "Samples");
  g_assert_nonnull (samples);
  g_assert_cmpint (atoi (samples), >, 100);
  /* Stop ended the recording: the file spans less than the 8 s the
   * workload would have run (its own timestamps, not the test's clock). */
  duration = window_test_figure_text (GTK_WIDGET (window), "Duration");
  g_assert_nonnull (duration);
  g_test_message ("Duration: %s", duration);
  g_assert_cmpfloat (g_ascii_strtod (duration, NULL), <, 7.5);
  /* Recorded in the default mode: the summary says how stacks were unwound. */
  unwinding = window_test_figure_text (GTK_WIDGET (window), "Unwinding");
  g_assert_nonnull (unwinding);
  g_test_message ("Unwinding: %s", unwinding);
  g_assert_true (g_str_has_prefix (unwinding, "--call-graph auto, 16384-byte stack copies: "));
  g_assert_nonnull (strstr (unwinding, "% of "));
  g_assert_true (call_tree_has_rows (window));
  gui_test_save_png (GTK_WIDGET (window), "live-finished.png");
  gtk_window_destroy (GTK_WINDOW (window));
  sp_record_options_clear (&options);
}

/* A file opened in the window that recorded: its bottom-up tree, built by
 * the window's worker once the file shows, counts the file's samples, not
 * the finished recording's running counts. */
static void
test_open_after_recording (void)
{
  SpRecordOptions options = { 0 };
  g_autoptr (GError) error = NULL;
  g_autofree char *path = vector_path ("valid-03.spool");
  g_autoptr (GFile) file = g_file_new_for_path (path);
  SpWindow *window = sp_window_new (NULL);
  guint64 all, bottom_up = 0;

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  options.argv = g_strsplit ("WORKLOAD 1", " ", -1);
  g_free (options.argv[0]);
  options.argv[0] = g_strdup (g_getenv ("SP_WORK_THREADS"));
  options.frequency_hz = 1000;
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (sp_window_record (window, &options, &error));
  g_assert_no_error (error);
  g_assert_true (window_test_wait (not_recording, window, 20));
  /* The last update reads the finished file. */
  for (gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC; g_get_monotonic_time () < until;)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (call_tree_has_rows (window));

  sp_window_open_file (window, file);
  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  all = window_test_top_level_total (view_model (window, "call-tree"));
  g_assert_cmpuint (all, >, 0);
  sp_window_show_view (window, "bottom-up");
  for (gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
       bottom_up == 0 && g_get_monotonic_time () < deadline;)
    {
      g_main_context_iteration (NULL, FALSE);
      bottom_up = window_test_top_level_total (view_model (window, "bottom-up"));
    }
  g_test_message ("%" G_GUINT64_FORMAT " samples in the file, %" G_GUINT64_FORMAT " bottom-up", all, bottom_up);
  g_assert_cmpuint (bottom_up, ==, all);
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
  g_assert_true (window_test_wait (call_tree_has_rows, window, 20));
  g_assert_true (sp_window_search_function (window, "deflate_block"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL);
  g_assert_true (window_test_wait (not_recording, window, 20));
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
  g_assert_true (window_test_wait_for_page (window, "error", 20));
  gui_test_save_png (GTK_WIDGET (window), "record-missing-command.png");
  /* It is not recording any more, and the next recording takes this
   * window, not a new one beside it. */
  g_assert_null (strstr (gtk_window_get_title (GTK_WINDOW (window)), "recording"));
  g_setenv ("STACKPULSE_DEMO", g_getenv ("SP_DEMO"), TRUE);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.record-demo", NULL);
  g_assert_true (sp_window_is_recording (window));
  g_assert_cmpstr (sp_window_get_page (window), ==, "profile");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL);
  g_assert_true (window_test_wait (not_recording, window, 20));
  gtk_window_destroy (GTK_WINDOW (window));
  sp_record_options_clear (&options);
}

/* ---- Callers and callees, live state, status ------------------------- */

/* A mapped label whose text contains text. */
static gboolean
is_mapped_label_with (GtkWidget *widget,
                      gconstpointer text)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget)
         && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL;
}

/* Waits for it up to 10 s: a label in a list's row, or on a page just
 * shown, is mapped only in a later frame, which a loaded machine may be
 * slow to draw. */
static GtkLabel *
wait_for_label (GtkWidget *widget,
                const char *text)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  GtkWidget *label;

  while ((label = gui_test_find (widget, is_mapped_label_with, text)) == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  return label != NULL ? GTK_LABEL (label) : NULL;
}

/* The position of the function named name in a callers view table, or
 * -1. */
static int
function_position (GListModel *rows,
                   const char *name)
{
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (SpFunctionItem) item = g_list_model_get_item (rows, i);

      if (g_str_equal (sp_function_item_get_name (item), name))
        return (int) i;
    }
  return -1;
}

static SpFunctionItem *
function_row (GListModel *rows,
              const char *name)
{
  int position = function_position (rows, name);

  return position >= 0 ? g_list_model_get_item (rows, position) : NULL;
}

static gboolean
wait_for_chosen (SpCallersView *view,
                 const char *name)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline)
    {
      g_autofree char *chosen = window_test_chosen_name (view);

      if (g_strcmp0 (chosen, name) == 0)
        return TRUE;
      g_main_context_iteration (NULL, FALSE);
    }
  return FALSE;
}

/* The caller/callee view of a real recording: the function selected in
 * the call tree, its caller and callee with the samples through them; a
 * double click moves to a callee; a time range changes the figures. */
static void
test_callers (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-window-XXXXXX", &error);
  g_autofree char *spool = g_build_filename (dir, "threads.spool", NULL);
  g_autoptr (SpFunctionItem) beta = NULL;
  g_autoptr (SpFunctionItem) caller = NULL;
  g_autoptr (SpFunctionItem) leaf = NULL;
  g_autoptr (SpFunctionItem) leaf_in_range = NULL;
  guint64 in_range;
  SpCallersView *view;
  SpWindow *window;
  gint64 deadline;

  if (!window_test_record (spool, "2000", g_getenv ("SP_WORK_THREADS"), "0.6", NULL))
    {
      window_test_remove_dir (dir);
      return;
    }
  window = window_test_open_path (spool);
  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  view = sp_window_get_callers_view (window);

  /* From the call tree's menu to the view: compute_beta, called from
   * worker_main only, calling beta_leaf (and the clock). */
  g_assert_true (sp_window_search_function (window, "compute_beta"));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.show-callers", NULL);
  g_assert_true (wait_for_chosen (view, "compute_beta"));
  beta = function_row (sp_callers_view_get_functions (view), "compute_beta");
  caller = function_row (sp_callers_view_get_callers (view), "worker_main");
  leaf = function_row (sp_callers_view_get_callees (view), "beta_leaf");
  g_assert_nonnull (beta);
  g_assert_nonnull (caller);
  g_assert_nonnull (leaf);
  g_assert_cmpuint (g_list_model_get_n_items (sp_callers_view_get_callers (view)), ==, 1);
  g_assert_cmpuint (sp_function_item_get_total (caller), ==, sp_function_item_get_total (beta));
  g_assert_cmpuint (sp_function_item_get_total (leaf), >, sp_function_item_get_total (beta) / 2);
  g_assert_cmpuint (sp_function_item_get_total (leaf), <=, sp_function_item_get_total (beta));
  g_assert_nonnull (wait_for_label (GTK_WIDGET (view), "compute_beta"));
  gui_test_save_png (GTK_WIDGET (window), "recording-callers.png");

  /* A double click on beta_leaf among the callees: now it is shown,
   * called from compute_beta. */
  g_signal_emit_by_name (gui_test_column_view (GTK_WIDGET (view), 2), "activate",
                         function_position (sp_callers_view_get_callees (view), "beta_leaf"));
  g_assert_true (wait_for_chosen (view, "beta_leaf"));
  g_assert_cmpint (function_position (sp_callers_view_get_callers (view), "compute_beta"), >=, 0);
  g_assert_cmpint (function_position (sp_callers_view_get_callees (view), "beta_leaf"), <, 0);

  /* A third of the time: beta_leaf's samples in that range, as the
   * report counts them in the same range of the file. How many that is
   * depends on how the kernel shared the CPUs out, so the figure is taken
   * from the file, not assumed. */
  in_range = report_range_total (spool, "beta_leaf", "0.1", "0.3");
  sp_window_select_time (window, 0.1, 0.3);
  for (deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC; g_get_monotonic_time () < deadline;)
    {
      g_clear_object (&leaf_in_range);
      leaf_in_range = function_row (sp_callers_view_get_functions (view), "beta_leaf");
      if (leaf_in_range != NULL && sp_function_item_get_total (leaf_in_range) == in_range)
        break;
      g_main_context_iteration (NULL, FALSE);
    }
  g_assert_nonnull (leaf_in_range);
  g_test_message ("beta_leaf: %" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT " in the range",
                  sp_function_item_get_total (leaf), sp_function_item_get_total (leaf_in_range));
  g_assert_cmpuint (sp_function_item_get_total (leaf_in_range), ==, in_range);
  g_assert_cmpuint (in_range, <, sp_function_item_get_total (leaf));
  g_assert_cmpuint (sp_callers_view_get_function (view), ==, sp_function_item_get_function (leaf_in_range));
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_remove_dir (dir);
}

/* "clone3;start_thread;worker_main": the names from the top row down. */
static char *
row_path (GtkTreeListRow *row)
{
  g_autoptr (GString) text = g_string_new (NULL);
  g_autoptr (GtkTreeListRow) at = g_object_ref (row);

  while (at != NULL)
    {
      g_autoptr (SpTreeItem) item = gtk_tree_list_row_get_item (at);
      GtkTreeListRow *parent = gtk_tree_list_row_get_parent (at);

      g_string_prepend (text, sp_function_item_get_name (SP_FUNCTION_ITEM (item)));
      if (parent != NULL)
        g_string_prepend_c (text, ';');
      g_object_unref (at);
      at = parent;
    }
  return g_strdup (text->str);
}

/* The row shown at path ("a;b;c"), or NULL. */
static GtkTreeListRow *
row_at_path (SpWindow *window,
             const char *path)
{
  GListModel *rows = sp_window_get_call_tree_model (window);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autofree char *text = row_path (row);

      if (g_str_equal (text, path))
        return g_steal_pointer (&row);
    }
  return NULL;
}

static char *
selected_path (SpWindow *window)
{
  GtkSelectionModel *selection = gtk_column_view_get_model (gui_test_column_view (
    GTK_WIDGET (sp_window_get_call_tree_view (window)), 0));
  GtkTreeListRow *row = gtk_single_selection_get_selected_item (GTK_SINGLE_SELECTION (selection));

  return row != NULL ? row_path (row) : NULL;
}

/* A collapsed compute_* row (the hot path opened one of the three). */
static GtkTreeListRow *
collapsed_compute_row (SpWindow *window)
{
  GListModel *rows = sp_window_get_call_tree_model (window);
  guint n_compute = 0;
  GtkTreeListRow *found = NULL;

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (SpTreeItem) item = gtk_tree_list_row_get_item (row);

      if (!g_str_has_prefix (sp_function_item_get_name (SP_FUNCTION_ITEM (item)), "compute_")
          || g_str_equal (sp_function_item_get_name (SP_FUNCTION_ITEM (item)), "compute_main"))
        continue;
      n_compute++;
      if (found == NULL && !gtk_tree_list_row_get_expanded (row) && sp_tree_item_get_n_children (item) > 0)
        found = g_object_ref (row);
    }
  if (n_compute < 3)
    g_clear_object (&found);
  return found;
}

/* While recording, the window takes in new samples a few times a second:
 * a row the user opened and the row selected stay so, and the caller/
 * callee view's figures grow with the recording. */
static void
test_live_keeps_state (void)
{
  SpRecordOptions options = { 0 };
  g_autoptr (GError) error = NULL;
  SpWindow *window = sp_window_new (NULL);
  g_autoptr (GtkTreeListRow) opened = NULL;
  g_autoptr (GtkTreeListRow) child = NULL;
  g_autofree char *opened_path = NULL;
  g_autofree char *chosen_path = NULL;
  g_autofree char *leaf_name = NULL;
  SpCallersView *callers = sp_window_get_callers_view (window);
  guint64 total, leaf_total;
  guint updates = 0;
  gint64 deadline;

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  options.argv = g_new0 (char *, 3);
  options.argv[0] = g_strdup (g_getenv ("SP_WORK_THREADS"));
  options.argv[1] = g_strdup ("8");
  options.frequency_hz = 1000;
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (sp_window_record (window, &options, &error));
  g_assert_no_error (error);

  /* Open a compute_* row off the hot path and select its first child. */
  for (deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;
       opened == NULL && g_get_monotonic_time () < deadline;)
    {
      g_main_context_iteration (NULL, FALSE);
      opened = collapsed_compute_row (window);
    }
  g_assert_nonnull (opened);
  g_assert_true (sp_window_is_recording (window));
  gtk_tree_list_row_set_expanded (opened, TRUE);
  child = gtk_tree_list_row_get_child_row (opened, 0);
  g_assert_nonnull (child);
  for (guint i = 0; i < g_list_model_get_n_items (sp_window_get_call_tree_model (window)); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (sp_window_get_call_tree_model (window), i);

      if (row == child)
        gtk_selection_model_select_item (gtk_column_view_get_model (gui_test_column_view (
          GTK_WIDGET (sp_window_get_call_tree_view (window)), 0)), i, TRUE);
    }
  opened_path = row_path (opened);
  chosen_path = selected_path (window);
  g_assert_nonnull (chosen_path);
  g_test_message ("opened %s, selected %s", opened_path, chosen_path);

  /* Three live updates later (the total grew three times). */
  total = call_tree_total (window);
  for (deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
       updates < 3 && g_get_monotonic_time () < deadline;)
    {
      g_main_context_iteration (NULL, FALSE);
      if (call_tree_total (window) != total)
        {
          total = call_tree_total (window);
          updates++;
        }
    }
  g_assert_cmpuint (updates, ==, 3);
  g_assert_true (sp_window_is_recording (window));
  g_clear_object (&opened);
  opened = row_at_path (window, opened_path);
  g_assert_nonnull (opened);
  g_assert_true (gtk_tree_list_row_get_expanded (opened));
  {
    g_autofree char *still = selected_path (window);

    g_assert_cmpstr (still, ==, chosen_path);
  }
  gui_test_save_png (GTK_WIDGET (window), "live-kept-state.png");

  /* The caller/callee view shows the selected function, and follows. */
  leaf_name = g_strdup (strrchr (chosen_path, ';') + 1);
  sp_window_show_view (window, "callers");
  g_assert_true (wait_for_chosen (callers, leaf_name));
  {
    g_autoptr (SpFunctionItem) first = function_row (sp_callers_view_get_functions (callers), leaf_name);

    leaf_total = sp_function_item_get_total (first);
  }
  for (deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC; g_get_monotonic_time () < deadline;)
    {
      g_autoptr (SpFunctionItem) now = function_row (sp_callers_view_get_functions (callers), leaf_name);

      if (sp_function_item_get_total (now) > leaf_total)
        break;
      g_main_context_iteration (NULL, FALSE);
    }
  {
    g_autoptr (SpFunctionItem) now = function_row (sp_callers_view_get_functions (callers), leaf_name);

    g_assert_cmpuint (sp_function_item_get_total (now), >, leaf_total);
  }
  g_assert_true (wait_for_chosen (callers, leaf_name));
  gui_test_save_png (GTK_WIDGET (window), "live-callers.png");

  gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL);
  g_assert_true (window_test_wait (not_recording, window, 20));
  gtk_window_destroy (GTK_WINDOW (window));
  sp_record_options_clear (&options);
}

/* Symbol problems of a real recording, said in the status bar (the
 * serious kind only) and in full on the Summary page. */
static void
assert_problem_shown (SpWindow *window,
                      const char *headline,
                      const char *summary_line,
                      const char *png)
{
  g_autofree char *symbols = NULL;
  g_autofree char *lost = NULL;

  g_assert_nonnull (wait_for_label (GTK_WIDGET (window), "samples over"));
  g_assert_nonnull (wait_for_label (GTK_WIDGET (window), headline));
  symbols = window_test_figure_text (GTK_WIDGET (window), "Symbols");
  lost = window_test_figure_text (GTK_WIDGET (window), "Lost samples");
  g_test_message ("symbols: %s; lost: %s", symbols, lost);
  g_assert_nonnull (strstr (symbols, summary_line));
  g_assert_false (g_str_has_prefix (lost, "unknown"));
  sp_window_show_view (window, "summary");
  gui_test_save_png (GTK_WIDGET (window), png);
}

static void
test_symbol_problems (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-window-XXXXXX", &error);
  g_autofree char *program = g_build_filename (dir, "sp-work-threads", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.spool", NULL);
  g_autofree char *stripped = g_build_filename (dir, "stripped.spool", NULL);
  g_autofree char *not_found = g_strdup_printf ("%s: file not found", program);
  g_autoptr (GFile) source = g_file_new_for_path (g_getenv ("SP_WORK_THREADS"));
  g_autoptr (GFile) copy = g_file_new_for_path (program);
  SpWindow *window;

  /* A copy of the program, recorded, then deleted. */
  g_assert_true (g_file_copy (source, copy, G_FILE_COPY_ALL_METADATA, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  if (!window_test_record (missing, "2000", program, "0.6", NULL))
    {
      window_test_remove_dir (dir);
      return;
    }
  g_assert_cmpint (g_unlink (program), ==, 0);
  window = window_test_open_path (missing);
  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  assert_problem_shown (window, "sp-work-threads was not found", not_found, "symbols-missing.png");
  gtk_window_destroy (GTK_WINDOW (window));

  /* A stripped program: its frames are addresses, and the status says
   * why. */
  g_assert_true (window_test_record (stripped, "2000", g_getenv ("SP_WORK_THREADS_STRIPPED"), "0.6", NULL));
  window = window_test_open_path (stripped);
  g_assert_true (window_test_wait_for_page (window, "profile", 20));
  assert_problem_shown (window, "sp-work-threads-stripped has no symbols", "sp-work-threads-stripped: no symbols",
                        "symbols-stripped.png");
  g_assert_false (sp_window_search_function (window, "worker_main"));
  g_assert_true (sp_window_search_function (window, "sp-work-threads-stripped+0x"));
  gui_test_save_png (GTK_WIDGET (window), "symbols-stripped-call-tree.png");
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_remove_dir (dir);
}

static void
test_open_missing (void)
{
  SpWindow *window = window_test_open_path ("/nonexistent/recording.spool");

  g_assert_true (window_test_wait_for_page (window, "error", 20));
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
  g_test_add_func ("/app/window/callers", test_callers);
  g_test_add_func ("/app/window/symbol-problems", test_symbol_problems);
  g_test_add_func ("/app/window/live-keeps-state", test_live_keeps_state);
  g_test_add_func ("/app/window/flame-graph-focus", test_flame_graph_focus);
  g_test_add_func ("/app/window/open-bottom-up", test_open_bottom_up);
  g_test_add_func ("/app/window/open-again", test_open_again);
  g_test_add_func ("/app/window/record-live", test_record_live);
  g_test_add_func ("/app/window/open-after-recording", test_open_after_recording);
  g_test_add_func ("/app/window/record-missing-command", test_record_missing_command);
  g_test_add_func ("/app/window/profile-demo", test_profile_demo);
  return g_test_run ();
}
