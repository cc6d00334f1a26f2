/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-compare-window.c: the compare window on real recordings.
 *
 * sp-work-diff is recorded with the real recorder twice: FACTOR 1 (A,
 * before) and FACTOR 3 (B, after: diff_changed's work tripled). The window
 * must lead its function list with diff_changed, paint its flame graph
 * frame as grown (red) and diff_steady's as shrunk (blue), as drawn (the
 * rendered pixels) and as said (the tooltip: before, after, change), keep
 * both timelines, and apply a transform to both sides. Screenshots of the
 * three views go to SP_SCREENSHOT_DIR; where XTEST is, a real pointer
 * hovers diff_changed's frame for its tooltip. Then bad input (a text file, a
 * program, an empty file, a damaged spool, the same file twice), the
 * command line, and a live B followed as it grows. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>
#include <sys/wait.h>

#include "gui-test.h"
#ifdef SP_TEST_XTEST
#include "pointer-test.h"
#endif
#include "sp-compare-window.h"
#include "sp-window-compare.h"
#include "sp-window-testing.h"
#include "window-test.h"

static char *dir;
static char *a_path;
static char *b_path;
static gboolean recorded;

/* A and B, recorded once for every test. */
static gboolean
have_recordings (void)
{
  static gboolean tried;
  const char *work = g_getenv ("SP_WORK_DIFF");

  if (tried)
    {
      if (!recorded)
        g_test_skip ("no recordings");
      return recorded;
    }
  tried = TRUE;
  g_assert_nonnull (work);
  dir = g_dir_make_tmp ("stackpulse-compare-XXXXXX", NULL);
  a_path = g_build_filename (dir, "before.spool", NULL);
  b_path = g_build_filename (dir, "after.spool", NULL);
  recorded = window_test_record (a_path, "1000", work, "2", "1", NULL)
             && window_test_record (b_path, "1000", work, "2", "3", NULL);
  return recorded;
}

static gboolean
is_settled (gpointer window)
{
  return sp_compare_window_is_settled (window);
}

static SpCompareWindow *
compare (const char *a,
         const char *b)
{
  g_autoptr (GFile) file_a = g_file_new_for_path (a);
  g_autoptr (GFile) file_b = g_file_new_for_path (b);
  SpCompareWindow *window = sp_compare_window_new (NULL, file_a, file_b);

  gtk_window_present (GTK_WINDOW (window));
  return window;
}

/* A and B compared, settled, with the function list shown (the window
 * `height` tall, or its default with 0). */
static SpDiffTable *
compare_functions (SpCompareWindow **window,
                   int height)
{
  *window = compare (a_path, b_path);
  if (height > 0)
    gtk_window_set_default_size (GTK_WINDOW (*window), 900, height);
  g_assert_true (window_test_wait (is_settled, *window, 60));
  sp_compare_window_show_view (*window, "functions");
  return sp_compare_window_get_functions (*window);
}

static gboolean
redder (const GdkRGBA *c)
{
  return c->red > c->blue + 0.2;
}

static gboolean
bluer (const GdkRGBA *c)
{
  return c->blue > c->red + 0.2;
}

/* Where the graph draws name's frame: a point inside it, halfway across
 * (its label is at its left end: a point there may be a glyph's). */
static gboolean
find_frame (SpDiffFlame *flame,
            const char *name,
            int *x,
            int *y)
{
  GtkWidget *graph = GTK_WIDGET (sp_diff_flame_get_graph (flame));

  for (int py = gtk_widget_get_height (graph) - 9; py > 0; py -= 18)
    for (int px = 2; px < gtk_widget_get_width (graph); px += 4)
      if (g_strcmp0 (sp_diff_flame_name_at (flame, px, py), name) == 0
          && g_strcmp0 (sp_diff_flame_name_at (flame, px + 8, py), name) == 0)
        {
          int end = px + 8;

          while (end + 4 < gtk_widget_get_width (graph)
                 && g_strcmp0 (sp_diff_flame_name_at (flame, end + 4, py), name) == 0)
            end += 4;
          *x = (px + end) / 2;
          *y = py;
          return TRUE;
        }
  return FALSE;
}

/* The colour the graph drew at (x, y). */
static void
drawn_colour (GtkWidget *widget,
              int x,
              int y,
              GdkRGBA *colour)
{
  g_autoptr (GdkTexture) texture = gui_test_render (widget);
  int width = gdk_texture_get_width (texture);
  g_autofree guchar *pixels = g_malloc ((gsize) width * 4 * gdk_texture_get_height (texture));
  const guchar *p;

  gdk_texture_download (texture, pixels, (gsize) width * 4);
  /* Cairo's ARGB32, premultiplied, opaque here: B, G, R, A in memory. */
  p = pixels + ((gsize) y * width + x) * 4;
  *colour = (GdkRGBA) { p[2] / 255.0f, p[1] / 255.0f, p[0] / 255.0f, 1 };
}

static void
assert_frame_drawn (SpDiffFlame *flame,
                    const char *name,
                    gboolean (*looks) (const GdkRGBA *))
{
  GdkRGBA painted, drawn;
  gboolean marked;
  int x = 0, y = 0;

  g_assert_true (sp_diff_flame_get_frame_colour (flame, name, &painted, &marked));
  g_assert_true (looks (&painted));
  g_assert_false (marked);
  g_assert_true (find_frame (flame, name, &x, &y));
  drawn_colour (GTK_WIDGET (sp_diff_flame_get_graph (flame)), x, y, &drawn);
  g_test_message ("%s: painted %.2f %.2f %.2f, drawn at %d,%d %.2f %.2f %.2f", name, painted.red, painted.green,
                  painted.blue, x, y, drawn.red, drawn.green, drawn.blue);
  g_assert_true (looks (&drawn));
}

static void
test_compare (void)
{
  SpCompareWindow *window;
  SpDiffTable *functions;
  SpFlameGraph *graph;
  g_autofree char *change = NULL;
  g_autofree char *tooltip = NULL;
  int x = 0, y = 0;

  if (!have_recordings ())
    return;
  window = compare (a_path, b_path);
  g_assert_true (window_test_wait (is_settled, window, 60));
  functions = sp_compare_window_get_functions (window);
  g_assert_cmpuint (sp_diff_table_get_n_rows (functions), >, 3);
  g_assert_cmpstr (sp_diff_table_get_row_name (functions, 0), ==, "diff_changed");
  change = sp_diff_table_get_row_text (functions, 0, "Self Change");
  g_test_message ("diff_changed: %s", change);
  /* About +27 points: 1/3 -> 3/5 of the samples. */
  g_assert_true (g_str_has_prefix (change, "+"));
  g_assert_cmpfloat (g_ascii_strtod (change + 1, NULL), >, 15);

  /* Laid out and drawn first: the frames are where the graph drew them. */
  gui_test_save_png (GTK_WIDGET (window), "compare-flame-graph.png");
  assert_frame_drawn (sp_compare_window_get_flame (window), "diff_changed", redder);
  assert_frame_drawn (sp_compare_window_get_flame (window), "diff_steady", bluer);
  /* What the graph's tooltip says where diff_changed is drawn (the
   * pointer's query goes through the same describe). */
  g_assert_true (find_frame (sp_compare_window_get_flame (window), "diff_changed", &x, &y));
  graph = sp_diff_flame_get_graph (sp_compare_window_get_flame (window));
  tooltip = sp_flame_graph_describe (graph, sp_flame_graph_node_at (graph, x, y));
  g_test_message ("tooltip: %s", tooltip);
  g_assert_true (g_str_has_prefix (tooltip, "<b>diff_changed</b>"));
  g_assert_nonnull (strstr (tooltip, "Total before:"));
  g_assert_nonnull (strstr (tooltip, "Total after:"));
  g_assert_nonnull (strstr (tooltip, "Total change: +"));

  /* Both timelines, each with its lane. */
  g_assert_cmpuint (sp_timeline_view_get_n_lanes (sp_compare_window_get_timeline (window, 0)), >=, 1);
  g_assert_cmpuint (sp_timeline_view_get_n_lanes (sp_compare_window_get_timeline (window, 1)), >=, 1);

  sp_compare_window_show_view (window, "functions");
  gui_test_save_png (GTK_WIDGET (window), "compare-functions.png");
  sp_compare_window_show_view (window, "call-tree");
  g_assert_cmpuint (sp_diff_table_get_n_rows (sp_compare_window_get_call_tree (window)), >, 3);
  /* Both tabs name self and total for what they are, and show both. */
  {
    const char *const titles[] = { "Self Before", "Self After", "Self Change",
                                   "Total Before", "Total After", "Total Change" };
    SpDiffTable *tables[] = { functions, sp_compare_window_get_call_tree (window) };

    for (guint t = 0; t < G_N_ELEMENTS (tables); t++)
      {
        g_autofree char *bare = sp_diff_table_get_row_text (tables[t], 0, "Before");

        g_assert_null (bare);
        for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
          {
            g_autofree char *text = sp_diff_table_get_row_text (tables[t], 0, titles[i]);

            g_assert_nonnull (text);
          }
      }
  }
  gui_test_save_png (GTK_WIDGET (window), "compare-call-tree.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
table_has (SpDiffTable *table,
           const char *name)
{
  for (guint i = 0; i < sp_diff_table_get_n_rows (table); i++)
    if (g_strcmp0 (sp_diff_table_get_row_name (table, i), name) == 0)
      return TRUE;
  return FALSE;
}

/* The number in name's row under title ("12.5%" -> 12.5). */
static double
value_of (SpDiffTable *table,
          const char *name,
          const char *title)
{
  for (guint i = 0; i < sp_diff_table_get_n_rows (table); i++)
    if (g_strcmp0 (sp_diff_table_get_row_name (table, i), name) == 0)
      {
        g_autofree char *text = sp_diff_table_get_row_text (table, i, title);

        g_test_message ("%s %s: %s", name, title, text);
        return g_ascii_strtod (text, NULL);
      }
  g_assert_not_reached ();
}

typedef struct {
  SpCompareWindow *window;
  guint            shown;
} Shown;

/* A new comparison came, and nothing more is on its way. */
static gboolean
shown_again (gpointer data)
{
  Shown *s = data;

  return sp_compare_window_get_n_shown (s->window) > s->shown && sp_compare_window_is_settled (s->window);
}

static void
wait_for_new (SpCompareWindow *window)
{
  Shown s = { window, sp_compare_window_get_n_shown (window) };

  /* The analyses' requests run on the next turn of the main loop. */
  window_test_run (0.1);
  g_assert_true (window_test_wait (shown_again, &s, 60));
}

/* Dropping diff_changed drops it from both sides; Undo brings it back.
 * A range on B's timeline is B's alone. */
static void
test_transform_and_range (void)
{
  SpCompareWindow *window;
  SpDiffTable *functions;
  guint64 from, to;

  if (!have_recordings ())
    return;
  functions = compare_functions (&window, 0);
  g_assert_true (sp_diff_table_search_next (functions, "diff_changed"));
  g_assert_cmpstr (sp_compare_window_get_breadcrumbs (window), ==, "");
  g_assert_true (sp_compare_window_apply_transform (window, SP_TRANSFORM_DROP_FUNCTION));
  /* The window says which transforms apply, as the main window does. */
  g_assert_cmpstr (sp_compare_window_get_breadcrumbs (window), ==, "Drop: diff_changed");
  wait_for_new (window);
  while (!sp_compare_window_is_settled (window) || table_has (functions, "diff_changed"))
    wait_for_new (window);
  g_assert_false (table_has (functions, "diff_changed"));
  g_assert_true (table_has (functions, "diff_steady"));
  gui_test_save_png (GTK_WIDGET (window), "compare-transformed.png");
  sp_compare_window_undo_transform (window);
  g_assert_cmpstr (sp_compare_window_get_breadcrumbs (window), ==, "");
  wait_for_new (window);
  while (!table_has (functions, "diff_changed"))
    wait_for_new (window);

  /* The first half of B only: still compared. */
  sp_timeline_view_get_visible_range (sp_compare_window_get_timeline (window, 1), &from, &to);
  sp_timeline_view_set_selection (sp_compare_window_get_timeline (window, 1), from, from + (to - from) / 2);
  wait_for_new (window);
  g_assert_cmpstr (sp_diff_table_get_row_name (functions, 0), ==, "diff_changed");

  /* Time per second: values follow each run's samples per second (which
   * load changes), but within a run diff_changed is still three times
   * diff_steady in B and as much in A. */
  sp_compare_window_set_normalize (window, SP_DIFF_NORMALIZE_TIME);
  wait_for_new (window);
  g_assert_cmpfloat (value_of (functions, "diff_changed", "Self After"), >, 2 * value_of (functions, "diff_steady", "Self After"));
  g_assert_cmpfloat (value_of (functions, "diff_changed", "Self Before"), <, 1.6 * value_of (functions, "diff_steady", "Self Before"));
  g_assert_cmpfloat (value_of (functions, "diff_changed", "Self Before"), >, 0.6 * value_of (functions, "diff_steady", "Self Before"));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
window_has_function (gpointer window)
{
  return !sp_window_is_busy (window) && sp_window_search_function (window, "diff_changed");
}

/* A transform of the main window applies to both sides of Compare With…,
 * by function name and module, and the compare window says so. */
static void
test_carried_transforms (void)
{
  g_autoptr (GFile) file_a = NULL;
  g_autoptr (GFile) file_b = NULL;
  SpCompareWindow *compared;
  SpDiffTable *functions;
  SpWindow *window;

  if (!have_recordings ())
    return;
  file_a = g_file_new_for_path (a_path);
  file_b = g_file_new_for_path (b_path);
  window = sp_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, file_a);
  g_assert_true (window_test_wait (window_has_function, window, 60));
  g_assert_true (sp_window_apply_transform (window, SP_TRANSFORM_DROP_FUNCTION));
  compared = sp_window_compare_with (window, file_b);
  g_assert_nonnull (compared);
  g_assert_true (window_test_wait (is_settled, compared, 60));
  g_assert_cmpstr (sp_compare_window_get_breadcrumbs (compared), ==, "Drop: diff_changed");
  functions = sp_compare_window_get_functions (compared);
  g_assert_false (table_has (functions, "diff_changed"));
  g_assert_true (table_has (functions, "diff_steady"));
  gui_test_save_png (GTK_WIDGET (compared), "compare-carried.png");
  /* Undo takes it back on both sides. */
  sp_compare_window_undo_transform (compared);
  wait_for_new (compared);
  while (!table_has (functions, "diff_changed"))
    wait_for_new (compared);
  gtk_window_destroy (GTK_WINDOW (compared));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A label whose text starts with prefix, on a selected row. */
static gboolean
is_selected_label (GtkWidget *widget,
                   gconstpointer prefix)
{
  if (!GTK_IS_LABEL (widget) || !g_str_has_prefix (gtk_label_get_text (GTK_LABEL (widget)), prefix))
    return FALSE;
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    if ((gtk_widget_get_state_flags (widget) & GTK_STATE_FLAG_SELECTED) != 0)
      return TRUE;
  return FALSE;
}

/* A shrinking row, selected: its change reads in the row's own colour,
 * not blue on the selection's blue. */
static void
test_selected_change (void)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  SpCompareWindow *window;
  SpDiffTable *functions;
  GtkWidget *label;
  GdkRGBA colour, row_colour;

  if (!have_recordings ())
    return;
  functions = compare_functions (&window, 0);
  g_assert_true (sp_diff_table_search_next (functions, "diff_steady"));
  window_test_run (0.3);
  label = gui_test_find (GTK_WIDGET (functions), is_selected_label, "−");
  g_assert_nonnull (label);
  gtk_style_context_get_color (gtk_widget_get_style_context (label), &colour);
  gtk_style_context_get_color (gtk_widget_get_style_context (gtk_widget_get_parent (label)), &row_colour);
  g_test_message ("selected change %s: %.2f %.2f %.2f (its cell's %.2f %.2f %.2f)", gtk_label_get_text (GTK_LABEL (label)),
                  colour.red, colour.green, colour.blue, row_colour.red, row_colour.green, row_colour.blue);
  g_assert_true (gdk_rgba_equal (&colour, &row_colour));
  gui_test_save_png (GTK_WIDGET (window), "compare-selected-change.png");
  gtk_window_destroy (GTK_WINDOW (window));
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static gboolean
at_top (gpointer adjustment)
{
  return gtk_adjustment_get_value (adjustment) == 0;
}

/* Scrolled down the function list, then sorted by another column (or
 * filtered): the list starts at its first row again. */
static void
assert_back_at_top (SpDiffTable *functions,
                    const char *what)
{
  GtkAdjustment *adjustment = gtk_scrollable_get_vadjustment (GTK_SCROLLABLE (functions));

  g_assert_true (sp_diff_table_search_next (functions, "diff_changed"));
  window_test_run (0.3);
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
  window_test_run (0.2);
  g_test_message ("%s: scrolled to %.0f of %.0f", what, gtk_adjustment_get_value (adjustment),
                  gtk_adjustment_get_upper (adjustment));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), >, 0);
  if (g_str_equal (what, "sort"))
    sp_diff_table_sort_by (functions, "Function", FALSE);
  else
    sp_diff_table_set_filter (functions, "diff");
  g_assert_true (window_test_wait (at_top, adjustment, 5));
}

static void
test_scroll_to_top (void)
{
  SpCompareWindow *window;
  SpDiffTable *functions;

  if (!have_recordings ())
    return;
  /* Short enough that the function list scrolls. */
  functions = compare_functions (&window, 420);
  assert_back_at_top (functions, "sort");
  assert_back_at_top (functions, "filter");
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct {
  SpCompareWindow *window;
  const char      *text;
} Says;

static gboolean
status_says (gpointer data)
{
  Says *says = data;

  return strstr (sp_compare_window_get_status (says->window), says->text) != NULL;
}

/* What the status says with b as B (a clear message, no crash). */
static void
assert_b_says (const char *b,
               const char *text)
{
  Says says = { compare (a_path, b), text };

  if (!window_test_wait (status_says, &says, 30))
    g_error ("status \"%s\" does not say \"%s\"", sp_compare_window_get_status (says.window), text);
  g_test_message ("%s: %s", b, sp_compare_window_get_status (says.window));
  /* Nothing compared: the message takes the views' place, and no legend
   * of an empty flame graph shows. */
  if (g_str_has_prefix (text, "Cannot compare"))
    g_assert_nonnull (strstr (sp_compare_window_get_message (says.window), text));
  g_assert_false (sp_diff_flame_get_legend_shown (sp_compare_window_get_flame (says.window)));
  if (strstr (b, "notes.txt") != NULL)
    gui_test_save_png (GTK_WIDGET (says.window), "compare-bad-input.png");
  gtk_window_destroy (GTK_WINDOW (says.window));
}

static void
test_bad_input (void)
{
  g_autofree char *text = NULL;
  g_autofree char *empty = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *perf_data = NULL;
  g_autofree char *damaged = NULL;
  g_autofree char *contents = NULL;
  SpCompareWindow *window;
  gsize length;

  if (!have_recordings ())
    return;
  text = g_build_filename (dir, "notes.txt", NULL);
  g_assert_true (g_file_set_contents (text, "not a recording\n", -1, NULL));
  assert_b_says (text, "Cannot compare: B (notes.txt) cannot be opened.");
  assert_b_says (g_getenv ("SP_WORK_DIFF"), "Cannot compare: B");
  /* A perf.data's header (perf record's own is tested on the main
   * window): named for what it is. */
  perf_data = g_build_filename (dir, "perf.data", NULL);
  g_assert_true (g_file_set_contents (perf_data, "PERFILE2\x68\0\0\0\0\0\0\0", 16, NULL));
  assert_b_says (perf_data, "perf.data");
  empty = g_build_filename (dir, "empty.spool", NULL);
  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  assert_b_says (empty, "B");
  missing = g_build_filename (dir, "missing.spool", NULL);
  assert_b_says (missing, "Cannot compare: B (missing.spool)");

  /* Garbage after its records (a cut could end on a record's boundary,
   * which is no damage): compared as far as it goes. */
  damaged = g_build_filename (dir, "damaged.spool", NULL);
  g_assert_true (g_file_get_contents (b_path, &contents, &length, NULL));
  contents = g_realloc (contents, length + 9);
  memcpy (contents + length, "\xee garbage", 9);
  g_assert_true (g_file_set_contents (damaged, contents, (gssize) (length + 9), NULL));
  window = compare (a_path, damaged);
  g_assert_true (window_test_wait (is_settled, window, 60));
  g_assert_nonnull (strstr (sp_compare_window_get_status (window), "B is damaged"));
  g_assert_cmpuint (sp_diff_table_get_n_rows (sp_compare_window_get_functions (window)), >, 0);
  gtk_window_destroy (GTK_WINDOW (window));

  /* The same file twice: nothing changed. */
  window = compare (a_path, a_path);
  g_assert_true (window_test_wait (is_settled, window, 60));
  g_assert_nonnull (strstr (sp_compare_window_get_status (window), "A and B are the same file"));
  g_assert_cmpstr (sp_compare_window_get_message (window), ==, "");
  g_assert_true (sp_diff_flame_get_legend_shown (sp_compare_window_get_flame (window)));
  gui_test_save_png (GTK_WIDGET (window), "compare-same-file.png");
  {
    g_autofree char *change = sp_diff_table_get_row_text (sp_compare_window_get_functions (window), 0, "Self Change");

    g_assert_cmpstr (change, ==, "0.0 pp");
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* --compare needs one recording to compare with, and says so. */
static void
test_command_line (void)
{
  const char *stackpulse = g_getenv ("SP_STACKPULSE");
  const char *argv[] = { stackpulse, "--compare", "b.spool", NULL };
  const char *argv2[] = { stackpulse, "a.spool", "c.spool", "--compare", "b.spool", NULL };
  g_autofree char *err = NULL;
  g_autofree char *err2 = NULL;
  int status = 0;

  g_assert_nonnull (stackpulse);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err,
                               &status, NULL));
  g_assert_false (g_spawn_check_wait_status (status, NULL));
  g_assert_nonnull (strstr (err, "stackpulse A.spool --compare B.spool"));
  g_assert_true (g_spawn_sync (NULL, (char **) argv2, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &err2,
                               &status, NULL));
  g_assert_false (g_spawn_check_wait_status (status, NULL));
}

static gboolean
shows_profile (gpointer window)
{
  return g_strcmp0 (sp_window_get_page (window), "profile") == 0;
}

static gboolean
shown_twice_live (gpointer window)
{
  return sp_compare_window_get_n_shown (window) >= 2
         && strstr (sp_compare_window_get_status (window), "B is being recorded") != NULL;
}

static gboolean
b_finished (gpointer window)
{
  return sp_compare_window_is_settled (window)
         && strstr (sp_compare_window_get_status (window), "being recorded") == NULL;
}

/* A window following a recording in progress compares it, as B, with the
 * chosen baseline, and the comparison follows it to its end. */
static void
test_live (void)
{
  g_autofree char *live = NULL;
  g_autoptr (GFile) live_file = NULL;
  g_autoptr (GFile) baseline = NULL;
  const char *argv[8];
  SpCompareWindow *compared;
  SpWindow *window;
  GPid pid;

  if (!have_recordings ())
    return;
  live = g_build_filename (dir, "live.spool", NULL);
  argv[0] = g_getenv ("SP_RECORD");
  argv[1] = "-o";
  argv[2] = live;
  argv[3] = "--";
  argv[4] = g_getenv ("SP_WORK_DIFF");
  argv[5] = "4";
  argv[6] = "3";
  argv[7] = NULL;
  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                                NULL, NULL, &pid, NULL));
  /* The recording has begun (its side file says so) before it is opened. */
  for (int i = 0; i < 100 && !g_file_test (live, G_FILE_TEST_EXISTS); i++)
    g_usleep (20000);
  g_usleep (500000);
  live_file = g_file_new_for_path (live);
  baseline = g_file_new_for_path (a_path);
  window = sp_window_new (NULL);
  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, live_file);
  g_assert_true (window_test_wait (shows_profile, window, 30));
  compared = sp_window_compare_with (window, baseline);
  g_assert_nonnull (compared);
  g_assert_true (window_test_wait (shown_twice_live, compared, 30));
  g_assert_true (window_test_wait (b_finished, compared, 60));
  g_assert_cmpstr (sp_diff_table_get_row_name (sp_compare_window_get_functions (compared), 0), ==, "diff_changed");
  gtk_window_destroy (GTK_WINDOW (compared));
  gtk_window_destroy (GTK_WINDOW (window));
  waitpid (pid, NULL, 0);
  g_spawn_close_pid (pid);
}

#ifdef SP_TEST_XTEST
typedef struct {
  GtkWidget  *window;
  const char *needle;
  GtkLabel   *found;
} TooltipSearch;

static gboolean
tooltip_shown (gpointer data)
{
  TooltipSearch *search = data;

  search->found = window_test_find_popup_label (search->window, search->needle);
  return search->found != NULL;
}

/* A real pointer (XTEST) rests on diff_changed's frame: its tooltip says
 * before, after and the change. */
static void
test_hover (void)
{
  TooltipSearch search = { NULL, "Total change: +", NULL };
  SpCompareWindow *window;
  SpDiffFlame *flame;
  int x = 0, y = 0;

  if (!have_recordings ())
    return;
  window = compare (a_path, b_path);
  if (!pointer_test_available (GTK_WIDGET (window)))
    {
      gtk_window_destroy (GTK_WINDOW (window));
      g_test_skip ("no XTEST on this display");
      return;
    }
  pointer_test_raise (GTK_WINDOW (window));
  g_assert_true (window_test_wait (is_settled, window, 60));
  flame = sp_compare_window_get_flame (window);
  window_test_run (0.3);
  g_assert_true (find_frame (flame, "diff_changed", &x, &y));
  search.window = GTK_WIDGET (window);
  pointer_test_move (GTK_WIDGET (sp_diff_flame_get_graph (flame)), x - 4, y);
  pointer_test_move (GTK_WIDGET (sp_diff_flame_get_graph (flame)), x, y);
  g_assert_true (window_test_wait (tooltip_shown, &search, 10));
  g_test_message ("hover: %s", gtk_label_get_text (search.found));
  g_assert_nonnull (strstr (gtk_label_get_text (search.found), "diff_changed"));
  g_assert_nonnull (strstr (gtk_label_get_text (search.found), "Total before: "));
  g_assert_nonnull (strstr (gtk_label_get_text (search.found), "Total after: "));
  gui_test_save_png (GTK_WIDGET (window), "compare-hover.png");
  gtk_window_destroy (GTK_WINDOW (window));
}
#endif

int
main (int argc,
      char **argv)
{
  int status;

  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/app/compare/window", test_compare);
  g_test_add_func ("/app/compare/transform-and-range", test_transform_and_range);
  g_test_add_func ("/app/compare/carried-transforms", test_carried_transforms);
  g_test_add_func ("/app/compare/scroll-to-top", test_scroll_to_top);
  g_test_add_func ("/app/compare/selected-change", test_selected_change);
  g_test_add_func ("/app/compare/bad-input", test_bad_input);
  g_test_add_func ("/app/compare/command-line", test_command_line);
  g_test_add_func ("/app/compare/live", test_live);
#ifdef SP_TEST_XTEST
  g_test_add_func ("/app/compare/hover", test_hover);
#endif
  status = g_test_run ();
  if (dir != NULL)
    window_test_remove_dir (dir);
  return status;
}
