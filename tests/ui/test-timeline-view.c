/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-timeline-view.c: SpTimelineView in a real window, under a real (X)
 * display.
 *
 * Two threads: 1 ("main-thread" in the side file) busy in the first 10 ms,
 * 2 (no name) in the next 20 ms. Checks the lanes' order and labels, where
 * bars are drawn (on the rendered pixels), the selection and its signal,
 * and zoom; saves timeline.png for review (SP_SCREENSHOT_DIR, or a
 * temporary folder). Grouped by process (a recording of the whole
 * system): the CPU lane, the process lane that a click on its label
 * unfolds (timeline-grouped.png). */
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test.h"
#include "profile-builder.h"
#include "sp-process-rows.h"
#include "sp-thread-rows.h"
#include "sp-timeline-view.h"

#define WIDTH         800
#define HEIGHT        120
#define LABEL_WIDTH   160
#define RULER_HEIGHT  24
#define LANE_HEIGHT   28
#define PLOT_WIDTH    (WIDTH - LABEL_WIDTH)
#define MS            G_GUINT64_CONSTANT (1000000)
#define FIRST_NS      G_GUINT64_CONSTANT (1000000000)   /* profile-builder's first sample */


static const char *const two_threads[] = {
  "@1 main;a 10 +1",
  "@2 main;b 20 +1",
  NULL,
};

typedef struct {
  SpProfile      *profile;
  SpSampleIndex  *index;
  GArray         *threads;
  GtkWindow      *window;
  SpTimelineView *view;
  guint           selection_changes;
} Fixture;

static void
on_selection_changed (SpTimelineView *view,
                      Fixture *f)
{
  f->selection_changes++;
}

/* Lets the window map, lay out and draw. */
static void
wait_for_draw (Fixture *f)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  gint64 settle = 0;

  while (g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, FALSE);
      if (gtk_widget_get_mapped (GTK_WIDGET (f->view)) && gtk_widget_get_width (GTK_WIDGET (f->view)) == WIDTH)
        {
          if (settle == 0)
            settle = g_get_monotonic_time () + G_USEC_PER_SEC / 5;
          else if (g_get_monotonic_time () > settle)
            return;
        }
      g_usleep (1000);
    }
  g_assert_not_reached ();
}

static void
fixture_setup (Fixture *f,
               const char *const *lines)
{
  f->profile = profile_from_text (lines);
  f->index = sp_sample_index_new ();
  sp_sample_index_update (f->index, sp_profile_get_reader (f->profile));
  f->threads = sp_thread_rows_new (f->profile, f->index, NULL, 0, G_MAXUINT64);
  f->window = GTK_WINDOW (gtk_window_new ());
  f->view = sp_timeline_view_new ();
  gtk_window_set_default_size (f->window, WIDTH, HEIGHT);
  gtk_window_set_child (f->window, GTK_WIDGET (f->view));
  sp_timeline_view_set_samples (f->view, f->index, f->threads);
  g_signal_connect (f->view, "selection-changed", G_CALLBACK (on_selection_changed), f);
  gtk_window_present (f->window);
  wait_for_draw (f);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->view)), ==, WIDTH);
}

static void
fixture_teardown (Fixture *f)
{
  sp_timeline_view_set_samples (f->view, NULL, NULL);
  gtk_window_destroy (f->window);
  g_clear_pointer (&f->index, sp_sample_index_unref);
  g_clear_pointer (&f->threads, g_array_unref);
  g_clear_pointer (&f->profile, sp_profile_unref);
}

static GdkTexture *
render_view (Fixture *f)
{
  wait_for_draw (f);
  return gui_test_render (GTK_WIDGET (f->view));
}

/* Saves what the window shows (background included). */
static void
save_screenshot (Fixture *f,
                 const char *name)
{
  wait_for_draw (f);
  gui_test_save_png (GTK_WIDGET (f->window), name);
}

/* Pixels of row y, from x0 to x1, in the bars' blue (GDK_MEMORY_DEFAULT is
 * B, G, R, A premultiplied: the bars are opaque, the rest faint grey or
 * transparent). */
static guint
count_bar_pixels (GdkTexture *texture,
                  int y,
                  int x0,
                  int x1)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guchar *data = g_malloc ((gsize) width * height * 4);
  guint n = 0;

  g_assert_cmpint (y, <, height);
  g_assert_cmpint (x1, <=, width);
  gdk_texture_download (texture, data, (gsize) width * 4);
  for (int x = x0; x < x1; x++)
    {
      const guchar *p = data + (gsize) y * width * 4 + (gsize) x * 4;

      if (p[3] == 255 && p[0] > p[2] + 80 && p[0] > p[1] + 30)
        n++;
    }
  return n;
}

/* Sorted by pid, then tid; "name (tid)" where the side file names the
 * thread, else the tid; as tall as the ruler and the lanes. */
static void
test_lanes (void)
{
  const char *const reversed[] = { "@7 main;a 2", "@3 main;b 2", "@1 main;c 2", NULL };
  Fixture f = { 0 };
  int min, nat;

  fixture_setup (&f, two_threads);
  g_assert_cmpuint (sp_timeline_view_get_n_lanes (f.view), ==, 2);
  g_assert_cmpstr (sp_timeline_view_get_lane_label (f.view, 0), ==, "main-thread (1)");
  g_assert_cmpstr (sp_timeline_view_get_lane_label (f.view, 1), ==, "2");
  gtk_widget_measure (GTK_WIDGET (f.view), GTK_ORIENTATION_VERTICAL, WIDTH, &min, &nat, NULL, NULL);
  g_assert_cmpint (min, ==, RULER_HEIGHT + 2 * LANE_HEIGHT);
  g_assert_cmpint (nat, ==, RULER_HEIGHT + 2 * LANE_HEIGHT);
  fixture_teardown (&f);

  fixture_setup (&f, reversed);
  g_assert_cmpuint (sp_timeline_view_get_n_lanes (f.view), ==, 3);
  g_assert_cmpstr (sp_timeline_view_get_lane_label (f.view, 0), ==, "main-thread (1)");
  g_assert_cmpstr (sp_timeline_view_get_lane_label (f.view, 1), ==, "3");
  g_assert_cmpstr (sp_timeline_view_get_lane_label (f.view, 2), ==, "7");

  /* Cleared: no lanes, only the ruler. */
  sp_timeline_view_set_samples (f.view, NULL, NULL);
  g_assert_cmpuint (sp_timeline_view_get_n_lanes (f.view), ==, 0);
  gtk_widget_measure (GTK_WIDGET (f.view), GTK_ORIENTATION_VERTICAL, WIDTH, &min, &nat, NULL, NULL);
  g_assert_cmpint (nat, ==, RULER_HEIGHT);
  fixture_teardown (&f);
}

/* Thread 1's bars in the first third of its lane (10 of 29 ms), thread
 * 2's after it; nothing blue in the label column. */
static void
test_drawing (void)
{
  Fixture f = { 0 };
  g_autoptr (GdkTexture) texture = NULL;
  int lane1_y = RULER_HEIGHT + LANE_HEIGHT - 2;      /* bars grow from a lane's bottom */
  int lane2_y = RULER_HEIGHT + 2 * LANE_HEIGHT - 2;
  int third = LABEL_WIDTH + PLOT_WIDTH * 3 / 10;
  int past_third = LABEL_WIDTH + PLOT_WIDTH * 4 / 10;
  guint64 from, to;

  fixture_setup (&f, two_threads);
  sp_timeline_view_get_visible_range (f.view, &from, &to);
  g_assert_cmpuint (from, ==, FIRST_NS);
  g_assert_cmpuint (to, ==, FIRST_NS + 29 * MS + 1);   /* just past the last sample */
  texture = render_view (&f);
  g_test_message ("lane 1: %u left, %u right; lane 2: %u left, %u right",
                  count_bar_pixels (texture, lane1_y, LABEL_WIDTH, third),
                  count_bar_pixels (texture, lane1_y, past_third, WIDTH),
                  count_bar_pixels (texture, lane2_y, LABEL_WIDTH, third),
                  count_bar_pixels (texture, lane2_y, past_third, WIDTH));
  /* One sample per ms, 2 px per bucket: ten bars, each two pixels wide. */
  g_assert_cmpuint (count_bar_pixels (texture, lane1_y, LABEL_WIDTH, third), >=, 10);
  g_assert_cmpuint (count_bar_pixels (texture, lane1_y, past_third, WIDTH), ==, 0);
  g_assert_cmpuint (count_bar_pixels (texture, lane2_y, LABEL_WIDTH, third), ==, 0);
  g_assert_cmpuint (count_bar_pixels (texture, lane2_y, past_third, WIDTH), >=, 20);
  g_assert_cmpuint (count_bar_pixels (texture, lane1_y, 0, LABEL_WIDTH), ==, 0);
  /* Nothing in the ruler but the ruler. */
  g_assert_cmpuint (count_bar_pixels (texture, RULER_HEIGHT / 2, 0, WIDTH), ==, 0);

  /* A selection over thread 2's first 5 ms, for the screenshot. */
  sp_timeline_view_set_selection (f.view, FIRST_NS + 10 * MS, FIRST_NS + 15 * MS);
  save_screenshot (&f, "timeline.png");
  fixture_teardown (&f);
}

/* More than 250,000 samples in view are counted on a worker: the view
 * says so until the count is back, then draws each thread's bars where
 * its samples are (thread 1 the first half, thread 2 the second). */
static void
test_counted_on_worker (void)
{
  const char *const many[] = { "@1 main;a 150000 +1", "@2 main;b 150000 +1", NULL };
  Fixture f = { 0 };
  g_autoptr (GdkTexture) texture = NULL;
  int lane1_y = RULER_HEIGHT + LANE_HEIGHT - 2;
  int lane2_y = RULER_HEIGHT + 2 * LANE_HEIGHT - 2;
  int left = LABEL_WIDTH + PLOT_WIDTH * 45 / 100;
  int right = LABEL_WIDTH + PLOT_WIDTH * 55 / 100;
  gint64 deadline;
  g_autofree char *text = NULL;

  fixture_setup (&f, many);
  /* The data again: a new count, started by the next look at the bars. */
  sp_timeline_view_set_samples (f.view, f.index, f.threads);
  text = sp_timeline_view_describe (f.view, 0, 1.0);
  g_assert_true (sp_timeline_view_is_counting (f.view));
  deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  while (sp_timeline_view_is_counting (f.view) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (sp_timeline_view_is_counting (f.view));
  texture = render_view (&f);
  g_assert_cmpuint (count_bar_pixels (texture, lane1_y, LABEL_WIDTH, left), >=, (guint) (left - LABEL_WIDTH) - 2);
  g_assert_cmpuint (count_bar_pixels (texture, lane1_y, right, WIDTH), ==, 0);
  g_assert_cmpuint (count_bar_pixels (texture, lane2_y, LABEL_WIDTH, left), ==, 0);
  g_assert_cmpuint (count_bar_pixels (texture, lane2_y, right, WIDTH), >=, (guint) (WIDTH - right) - 2);
  fixture_teardown (&f);
}

/* set_selection emits once per change; an empty range or (0, MAX) clears;
 * the profile given again (live) keeps it, another profile clears it. */
static void
test_selection (void)
{
  Fixture f = { 0 };
  g_autoptr (GdkTexture) before = NULL;
  g_autoptr (GdkTexture) after = NULL;
  guint64 from, to;

  fixture_setup (&f, two_threads);
  sp_timeline_view_get_selection (f.view, &from, &to);
  g_assert_cmpuint (from, ==, 0);
  g_assert_cmpuint (to, ==, G_MAXUINT64);
  before = render_view (&f);

  sp_timeline_view_set_selection (f.view, FIRST_NS + 2 * MS, FIRST_NS + 12 * MS);
  g_assert_cmpuint (f.selection_changes, ==, 1);
  sp_timeline_view_get_selection (f.view, &from, &to);
  g_assert_cmpuint (from, ==, FIRST_NS + 2 * MS);
  g_assert_cmpuint (to, ==, FIRST_NS + 12 * MS);
  sp_timeline_view_set_selection (f.view, FIRST_NS + 2 * MS, FIRST_NS + 12 * MS);
  g_assert_cmpuint (f.selection_changes, ==, 1);

  /* The ruler shows the selection's duration on a blue tag. */
  after = render_view (&f);
  g_assert_cmpuint (count_bar_pixels (before, 3, LABEL_WIDTH, WIDTH), ==, 0);
  g_assert_cmpuint (count_bar_pixels (after, 3, LABEL_WIDTH, WIDTH), >, 0);

  sp_timeline_view_set_samples (f.view, f.index, f.threads);
  sp_timeline_view_get_selection (f.view, &from, &to);
  g_assert_cmpuint (from, ==, FIRST_NS + 2 * MS);
  g_assert_cmpuint (f.selection_changes, ==, 1);

  sp_timeline_view_set_selection (f.view, FIRST_NS + 5 * MS, FIRST_NS + 5 * MS);
  g_assert_cmpuint (f.selection_changes, ==, 2);
  sp_timeline_view_get_selection (f.view, &from, &to);
  g_assert_cmpuint (from, ==, 0);
  g_assert_cmpuint (to, ==, G_MAXUINT64);

  sp_timeline_view_set_selection (f.view, FIRST_NS, FIRST_NS + MS);
  g_assert_cmpuint (f.selection_changes, ==, 3);
  sp_timeline_view_set_selection (f.view, 0, G_MAXUINT64);
  g_assert_cmpuint (f.selection_changes, ==, 4);

  sp_timeline_view_set_selection (f.view, FIRST_NS, FIRST_NS + MS);
  sp_timeline_view_set_samples (f.view, NULL, NULL);
  g_assert_cmpuint (f.selection_changes, ==, 6);
  sp_timeline_view_get_selection (f.view, &from, &to);
  g_assert_cmpuint (to, ==, G_MAXUINT64);
  fixture_teardown (&f);
}

/* zoom_in halves the visible span inside the recording (around the
 * pointer, wherever Xvfb left it, or the middle), zoom_out doubles it back
 * and never goes past the whole recording; the bars follow. */
static void
test_zoom (void)
{
  Fixture f = { 0 };
  g_autoptr (GdkTexture) texture = NULL;
  guint64 from, to, full_from, full_to, span;

  fixture_setup (&f, two_threads);
  sp_timeline_view_get_visible_range (f.view, &full_from, &full_to);
  span = full_to - full_from;

  sp_timeline_view_zoom_in (f.view);
  sp_timeline_view_get_visible_range (f.view, &from, &to);
  g_test_message ("zoomed in: %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT, from, to);
  g_assert_cmpuint (to - from, >=, span / 2);
  g_assert_cmpuint (to - from, <=, span / 2 + 1);
  g_assert_cmpuint (from, >=, full_from);
  g_assert_cmpuint (to, <=, full_to);
  sp_timeline_view_zoom_in (f.view);
  sp_timeline_view_get_visible_range (f.view, &from, &to);
  g_assert_cmpuint (to - from, >=, span / 4);
  g_assert_cmpuint (to - from, <=, span / 4 + 1);

  /* The same profile again (as when it grew) keeps the zoom. */
  sp_timeline_view_set_samples (f.view, f.index, f.threads);
  sp_timeline_view_get_visible_range (f.view, &from, &to);
  g_assert_cmpuint (to - from, <=, span / 4 + 1);

  /* The bars follow: a quarter of 29 ms holds at least 7 samples, each a
   * bar of its own at this zoom. */
  texture = render_view (&f);
  g_assert_cmpuint (count_bar_pixels (texture, RULER_HEIGHT + LANE_HEIGHT - 2, LABEL_WIDTH, WIDTH)
                    + count_bar_pixels (texture, RULER_HEIGHT + 2 * LANE_HEIGHT - 2, LABEL_WIDTH, WIDTH), >=, 2 * 7);
  save_screenshot (&f, "timeline-zoomed.png");

  sp_timeline_view_zoom_out (f.view);
  sp_timeline_view_zoom_out (f.view);
  sp_timeline_view_zoom_out (f.view);
  sp_timeline_view_get_visible_range (f.view, &from, &to);
  g_assert_cmpuint (from, ==, full_from);
  g_assert_cmpuint (to, ==, full_to);
  fixture_teardown (&f);
}

/* A click at (x, y) as the view's click gesture reports it. */
static void
click_at (SpTimelineView *view,
          double x,
          double y)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (view));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        g_signal_emit_by_name (controller, "pressed", 1, x, y);
    }
}

/* Both threads as one process (pid 1): the CPU lane on top, the
 * process's lane folded; a click on its label unfolds it into its
 * threads, busiest first (thread 2's 20 samples, then thread 1's 10);
 * another folds it. The CPU lane says the CPUs, its tooltip their share. */
static void
test_grouped (void)
{
  Fixture f = { 0 };
  g_autoptr (GArray) processes = g_array_new (FALSE, TRUE, sizeof (SpProcessRow));
  SpProcessRow row = { .pid = 1, .name = (char *) "proc", .n_samples = 30,
                       .threads = g_array_new (FALSE, FALSE, sizeof (guint32)) };
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *tooltip = NULL;
  int min, nat;

  g_array_append_vals (row.threads, (guint32[]) { 0, 1 }, 2);
  g_array_append_val (processes, row);
  fixture_setup (&f, two_threads);
  sp_timeline_view_set_processes (f.view, processes, 2, MS);
  sp_timeline_view_set_samples (f.view, f.index, f.threads);
  g_assert_cmpuint (sp_timeline_view_get_n_lanes (f.view), ==, 2);
  g_assert_cmpstr (sp_timeline_view_get_lane_label (f.view, 0), ==, "CPU usage (2 CPUs)");
  g_assert_cmpstr (sp_timeline_view_get_lane_label (f.view, 1), ==, "▸ proc (1)");
  click_at (f.view, 20, RULER_HEIGHT + LANE_HEIGHT + LANE_HEIGHT / 2);
  g_assert_cmpuint (sp_timeline_view_get_n_lanes (f.view), ==, 4);
  g_assert_cmpstr (sp_timeline_view_get_lane_label (f.view, 1), ==, "▾ proc (1)");
  g_assert_cmpstr (sp_timeline_view_get_lane_label (f.view, 2), ==, "    2");
  g_assert_cmpstr (sp_timeline_view_get_lane_label (f.view, 3), ==, "    main-thread (1)");
  gtk_widget_measure (GTK_WIDGET (f.view), GTK_ORIENTATION_VERTICAL, WIDTH, &min, &nat, NULL, NULL);
  g_assert_cmpint (nat, ==, RULER_HEIGHT + 4 * LANE_HEIGHT);
  /* The process's bars all along (its two threads one after the other). */
  gtk_window_set_default_size (f.window, WIDTH, RULER_HEIGHT + 4 * LANE_HEIGHT);
  texture = render_view (&f);
  g_assert_cmpuint (count_bar_pixels (texture, RULER_HEIGHT + 2 * LANE_HEIGHT - 2, LABEL_WIDTH, WIDTH), >=, 30);
  tooltip = sp_timeline_view_describe (f.view, 0, 0.005);
  g_assert_nonnull (strstr (tooltip, "of the CPUs"));
  save_screenshot (&f, "timeline-grouped.png");
  click_at (f.view, 20, RULER_HEIGHT + LANE_HEIGHT + LANE_HEIGHT / 2);
  g_assert_cmpuint (sp_timeline_view_get_n_lanes (f.view), ==, 2);
  /* No processes: a lane per thread again. */
  sp_timeline_view_set_processes (f.view, NULL, 0, 0);
  sp_timeline_view_set_samples (f.view, f.index, f.threads);
  g_assert_cmpstr (sp_timeline_view_get_lane_label (f.view, 0), ==, "main-thread (1)");
  fixture_teardown (&f);
  g_array_unref (row.threads);
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/ui/timeline-view/lanes", test_lanes);
  g_test_add_func ("/ui/timeline-view/drawing", test_drawing);
  g_test_add_func ("/ui/timeline-view/counted-on-worker", test_counted_on_worker);
  g_test_add_func ("/ui/timeline-view/selection", test_selection);
  g_test_add_func ("/ui/timeline-view/zoom", test_zoom);
  g_test_add_func ("/ui/timeline-view/grouped", test_grouped);
  return g_test_run ();
}
