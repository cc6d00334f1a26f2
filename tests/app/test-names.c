/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-names.c: long C++ names in the real window, on a real recording.
 *
 * sp-work-templates (long template names, an inlined lambda) is recorded
 * with the real recorder and opened. In a narrow column a name shows
 * shortened (its template arguments and parameter lists left out), in a
 * wide one in full; the tooltip, brought up by a real pointer (XTEST),
 * holds the full name and the lambda's source line, and stays on the
 * screen; the function column of Callers & Callees is widened by a real
 * drag on its header's edge. */
#include <X11/Xlib.h>
#include <gdk/x11/gdkx.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test.h"
#include "pointer-test.h"
#include "sp-call-tree-view.h"
#include "sp-callers-view.h"
#include "sp-flame-graph.h"
#include "sp-name-elide.h"
#include "sp-name-label.h"
#include "sp-window-testing.h"
#include "window-test.h"

#define LAMBDA "{lambda("

static char *tmp_dir;
static char *spool;

/* ---- The recording ----------------------------------------------------- */

/* The line where the workload writes its lambda. */
static guint
lambda_source_line (void)
{
  g_autofree char *source = g_build_filename (g_getenv ("SP_TEST_VECTORS"), "..", "workloads",
                                              "sp-work-templates.cc", NULL);
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;

  g_assert_true (g_file_get_contents (source, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strstr (lines[i], "auto score = [") != NULL)
      return i + 1;
  g_assert_not_reached ();
}

static SpWindow *
open_recording_sized (int width,
                      int height)
{
  SpWindow *window = sp_window_new (NULL);
  g_autoptr (GFile) file = g_file_new_for_path (spool);

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, file);
  g_assert_true (window_test_wait_for_page (window, "profile", 30));
  return window;
}

static SpWindow *
open_recording (void)
{
  return open_recording_sized (900, 700);
}

/* ---- Finding what is shown --------------------------------------------- */

/* The first mapped SpNameLabel under widget whose name contains needle. */
static gboolean
is_mapped_name_with (GtkWidget *widget,
                     gconstpointer needle)
{
  return SP_IS_NAME_LABEL (widget) && gtk_widget_get_mapped (widget)
         && strstr (sp_name_label_get_name (SP_NAME_LABEL (widget)), needle) != NULL;
}

static SpNameLabel *
find_name_label (GtkWidget *widget,
                 const char *needle)
{
  return SP_NAME_LABEL (gui_test_find (widget, is_mapped_name_with, needle));
}

typedef struct {
  GtkWidget  *under;
  const char *needle;
  GtkWidget  *found;
} Search;

static gboolean
name_label_shown (gpointer data)
{
  Search *search = data;

  search->found = GTK_WIDGET (find_name_label (search->under, search->needle));
  return search->found != NULL;
}

static SpNameLabel *
wait_for_name_label (GtkWidget *under,
                     const char *needle)
{
  Search search = { under, needle, NULL };

  g_assert_true (window_test_wait (name_label_shown, &search, 10));
  return SP_NAME_LABEL (search.found);
}

static gboolean
tooltip_shown (gpointer data)
{
  Search *search = data;

  search->found = GTK_WIDGET (window_test_find_popup_label (search->under, search->needle));
  return search->found != NULL;
}

/* The width text takes in widget's font. */
static int
text_width (GtkWidget *widget,
            const char *text)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static GtkColumnView *
first_column_view (GtkWidget *under)
{
  return GTK_COLUMN_VIEW (window_test_find_widget (under, GTK_TYPE_COLUMN_VIEW));
}

static GtkColumnViewColumn *
first_column (GtkColumnView *view)
{
  g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (gtk_column_view_get_columns (view), 0);

  return column;  /* the view holds it */
}

/* ---- The X server: real pointer events, real positions ------------------ */

/* The X display (widget's, or the default one for NULL). */
static Display *
x_display (GtkWidget *widget)
{
  return gdk_x11_display_get_xdisplay (widget != NULL ? gtk_widget_get_display (widget) : gdk_display_get_default ());
}

/* Hovers (x, y) of widget until a tooltip holding needle shows. */
static GtkLabel *
hover_for_tooltip (GtkWidget *window,
                   GtkWidget *widget,
                   double x,
                   double y,
                   const char *needle)
{
  Search search = { window, needle, NULL };

  pointer_test_move (widget, x - 4, y);
  pointer_test_move (widget, x, y);
  g_assert_true (window_test_wait (tooltip_shown, &search, 10));
  return GTK_LABEL (search.found);
}

/* The tooltip of label lies wholly on the screen. */
static void
assert_on_screen (GtkLabel *label)
{
  GtkNative *tooltip = gtk_widget_get_native (GTK_WIDGET (label));
  Display *display = x_display (GTK_WIDGET (label));
  Window xid, child;
  XWindowAttributes attributes;
  int x, y;

  window_test_run (0.3);  /* placed and sized */
  xid = gdk_x11_surface_get_xid (gtk_native_get_surface (tooltip));
  XSync (display, False);
  g_assert_true (XGetWindowAttributes (display, xid, &attributes));
  XTranslateCoordinates (display, xid, DefaultRootWindow (display), 0, 0, &x, &y, &child);
  g_test_message ("tooltip at %d,%d, %dx%d; screen %dx%d", x, y, attributes.width, attributes.height,
                  DisplayWidth (display, DefaultScreen (display)), DisplayHeight (display, DefaultScreen (display)));
  g_assert_cmpint (attributes.map_state, ==, IsViewable);
  g_assert_cmpint (x, >=, 0);
  g_assert_cmpint (y, >=, 0);
  g_assert_cmpint (x + attributes.width, <=, DisplayWidth (display, DefaultScreen (display)));
  g_assert_cmpint (y + attributes.height, <=, DisplayHeight (display, DefaultScreen (display)));
}

/* ---- The tests ---------------------------------------------------------- */

/* Gives column the width at which label (in one of its rows) gets width
 * pixels (or the name's, when less), and returns what label shows then. */
static const char *
shown_at (GtkColumnViewColumn *column,
          SpNameLabel *label,
          int width)
{
  GtkWidget *widget = GTK_WIDGET (label);
  int label_width;

  /* Narrower than the name: the label gets what its row's indent leaves. */
  gtk_column_view_column_set_fixed_width (column, 600);
  window_test_run (0.3);
  label_width = gtk_widget_get_width (widget);
  gtk_column_view_column_set_fixed_width (column, 600 - label_width + width);
  window_test_run (0.3);
  /* All of it: the name's tooltip and menu anywhere in the cell. */
  g_assert_cmpint (gtk_widget_get_width (widget), ==, width);
  return sp_name_label_get_text (label);
}

/* A point of the flame graph's frame whose function contains needle. */
static gboolean
find_frame (SpFlameGraph *flame,
            const char *needle,
            double *x,
            double *y)
{
  for (int row_y = gtk_widget_get_height (GTK_WIDGET (flame)) - 5; row_y > 0; row_y -= 6)
    for (int column_x = 10; column_x < gtk_widget_get_width (GTK_WIDGET (flame)); column_x += 20)
      {
        guint32 node = sp_flame_graph_node_at (flame, column_x, row_y);
        g_autofree char *description = NULL;

        if (node == SP_CALL_TREE_NONE)
          continue;
        description = sp_flame_graph_describe (flame, node);
        if (strstr (description, needle) != NULL)
          {
            *x = column_x;
            *y = row_y;
            return TRUE;
          }
      }
  return FALSE;
}

/* The call tree's lambda row: shortened as far as its column is narrow,
 * whole when the column is wide enough. */
static void
test_call_tree_elided (void)
{
  SpWindow *window = open_recording ();
  GtkWidget *view = GTK_WIDGET (sp_window_get_call_tree_view (window));
  GtkColumnViewColumn *column = first_column (first_column_view (view));
  SpNameLabel *label;
  const char *name;
  g_autofree char *no_templates = NULL;
  g_autofree char *no_parameters = NULL;
  int full_width, no_templates_width, no_parameters_width;

  g_assert_true (sp_window_search_function (window, LAMBDA));
  label = wait_for_name_label (view, LAMBDA);
  name = sp_name_label_get_name (label);
  no_templates = sp_name_elide (name, SP_NAME_NO_TEMPLATE_ARGUMENTS);
  no_parameters = sp_name_elide (name, SP_NAME_NO_PARAMETERS);
  g_test_message ("lambda: %s", name);
  g_assert_nonnull (strstr (name, "std::__cxx11::basic_string<char, std::char_traits<char>"));
  g_assert_cmpstr (no_parameters, ==, "sp_templates::Table<…>::weigh()::{lambda(…)#1}::operator()(…) const");
  full_width = text_width (GTK_WIDGET (label), name);
  no_templates_width = text_width (GTK_WIDGET (label), no_templates);
  no_parameters_width = text_width (GTK_WIDGET (label), no_parameters);

  g_assert_cmpstr (shown_at (column, label, full_width + 10), ==, name);
  g_assert_cmpstr (shown_at (column, label, full_width - 10), ==, no_templates);
  g_assert_cmpstr (shown_at (column, label, no_templates_width), ==, no_templates);
  g_assert_cmpstr (shown_at (column, label, no_templates_width - 1), ==, no_parameters);
  gui_test_save_png (GTK_WIDGET (window), "names-call-tree-narrow.png");
  /* Narrower than the shortest form: that, cut at its end. */
  gtk_column_view_column_set_fixed_width (column, 100);
  window_test_run (0.3);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (label)), <, no_parameters_width);
  g_assert_cmpstr (sp_name_label_get_text (label), ==, no_parameters);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Hovering the lambda's row (a real pointer): the tooltip has the whole
 * name and where the lambda is written, and stays on the screen though
 * the name is wider than the screen. The same in the flame graph, and
 * there in the screen's bottom right corner too (the window fills the
 * screen). */
static void
test_tooltips (void)
{
  SpWindow *window = open_recording_sized (DisplayWidth (x_display (NULL), 0), DisplayHeight (x_display (NULL), 0));
  GtkWidget *view = GTK_WIDGET (sp_window_get_call_tree_view (window));
  g_autofree char *where = g_strdup_printf ("sp-work-templates.cc:%u", lambda_source_line ());
  SpNameLabel *label;
  GtkLabel *tooltip;
  const char *name;
  GtkWidget *flame;
  double x = 0, y = 0;
  int corner_x, corner_y;

  g_assert_true (sp_window_search_function (window, LAMBDA));
  label = wait_for_name_label (view, LAMBDA);
  name = sp_name_label_get_name (label);
  g_assert_cmpint (text_width (GTK_WIDGET (label), name), >, DisplayWidth (x_display (view), 0));

  tooltip = hover_for_tooltip (GTK_WIDGET (window), GTK_WIDGET (label), 60, gtk_widget_get_height (GTK_WIDGET (label)) / 2.0, name);
  g_assert_nonnull (strstr (gtk_label_get_text (tooltip), where));
  assert_on_screen (tooltip);

  sp_window_show_view (window, "flame-graph");
  flame = window_test_find_widget (GTK_WIDGET (window), SP_TYPE_FLAME_GRAPH);
  window_test_run (0.5);
  g_assert_true (find_frame (SP_FLAME_GRAPH (flame), LAMBDA, &x, &y));
  tooltip = hover_for_tooltip (GTK_WIDGET (window), flame, x, y, "Self:");
  g_assert_nonnull (strstr (gtk_label_get_text (tooltip), name));
  g_assert_nonnull (strstr (gtk_label_get_text (tooltip), where));
  assert_on_screen (tooltip);

  x = gtk_widget_get_width (flame) - 4;
  y = gtk_widget_get_height (flame) - 4;
  g_assert_cmpuint (sp_flame_graph_node_at (SP_FLAME_GRAPH (flame), x, y), !=, SP_CALL_TREE_NONE);
  pointer_test_screen_point (flame, x, y, &corner_x, &corner_y);
  g_assert_cmpint (corner_x, >=, DisplayWidth (x_display (flame), 0) - 40);
  g_assert_cmpint (corner_y, >=, DisplayHeight (x_display (flame), 0) - 40);
  tooltip = hover_for_tooltip (GTK_WIDGET (window), flame, x, y, "Total:");
  assert_on_screen (tooltip);
  pointer_test_move (GTK_WIDGET (window), 1, 1);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A real drag on the right edge of the Functions list's Function header
 * widens the column, and the names in it show more. */
static void
test_callers_column_resize (void)
{
  SpWindow *window = open_recording ();
  GtkWidget *callers = GTK_WIDGET (sp_window_get_callers_view (window));
  GtkColumnView *list;
  GtkColumnViewColumn *column;
  GtkWidget *header, *title;
  SpNameLabel *label;
  g_autofree char *shortest = NULL;
  graphene_rect_t bounds;
  double width_before, edge_x, edge_y, drag;

  sp_window_show_view (window, "callers");
  list = first_column_view (callers);
  column = first_column (list);
  /* The lambda: the top row (it has most of the samples). */
  label = wait_for_name_label (GTK_WIDGET (list), LAMBDA);
  window_test_run (0.3);
  shortest = sp_name_elide (sp_name_label_get_name (label), SP_NAME_NO_PARAMETERS);
  /* Even shortened, the name is cut. */
  g_assert_cmpstr (sp_name_label_get_text (label), ==, shortest);
  g_assert_cmpint (text_width (GTK_WIDGET (label), shortest), >, gtk_widget_get_width (GTK_WIDGET (label)));

  /* The header row is the column view's first child, its first child the
   * Function column's title. Dragged wide enough for the shortened name. */
  header = gtk_widget_get_first_child (GTK_WIDGET (list));
  title = gtk_widget_get_first_child (header);
  g_assert_true (gtk_widget_compute_bounds (title, title, &bounds));
  width_before = bounds.size.width;
  drag = text_width (GTK_WIDGET (label), shortest) + 40 - gtk_widget_get_width (GTK_WIDGET (label));
  edge_x = bounds.size.width - 5;  /* GTK's grip lies just inside the edge */
  edge_y = bounds.size.height / 2;
  pointer_test_move (title, edge_x, edge_y);
  pointer_test_press (title, 1);
  for (int step = 1; step <= 10; step++)
    pointer_test_move (title, edge_x + drag * step / 10, edge_y);
  pointer_test_release (title, 1);
  window_test_run (0.5);

  g_assert_true (gtk_widget_compute_bounds (title, title, &bounds));
  g_test_message ("Function column: %.0f px, then %.0f px", width_before, bounds.size.width);
  g_assert_cmpfloat (bounds.size.width, >=, width_before + drag - 5);
  g_assert_cmpint (gtk_column_view_column_get_fixed_width (column), >=, (int) (width_before + drag - 5));
  /* Now the shortened name shows whole. */
  g_assert_cmpint (text_width (GTK_WIDGET (label), sp_name_label_get_text (label)), <=,
                   gtk_widget_get_width (GTK_WIDGET (label)));
  gui_test_save_png (GTK_WIDGET (window), "names-callers-resized.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  int status;

  if (!gui_test_init (&argc, &argv))
    return 0;
  if (!GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    {
      g_test_skip ("needs an X display (XTEST)");
      return g_test_run ();
    }
  tmp_dir = g_dir_make_tmp ("stackpulse-names-XXXXXX", &error);
  g_assert_no_error (error);
  spool = g_build_filename (tmp_dir, "templates.spool", NULL);
  if (!window_test_record (spool, "1000", g_getenv ("SP_WORK_TEMPLATES"), "1", NULL))
    {
      window_test_remove_dir (tmp_dir);
      return g_test_run ();
    }
  g_test_add_func ("/app/names/call-tree-elided", test_call_tree_elided);
  g_test_add_func ("/app/names/tooltips", test_tooltips);
  g_test_add_func ("/app/names/callers-column-resize", test_callers_column_resize);
  status = g_test_run ();
  window_test_remove_dir (tmp_dir);
  return status;
}
