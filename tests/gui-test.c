/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gui-test.c: display check, screenshot folder, widget to PNG. */
#include "gui-test.h"
#include "remove-tree.h"

#include "sp-name-label.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>

static char *screenshot_dir;
static char *xdg_dir;

static void
remove_xdg_dir (void)
{
  sp_test_remove_tree (xdg_dir);
}

/* The user's recently-used list, cache and configuration are no place for
 * a test's recordings and choices: each test program gets its own, removed
 * when it ends. */
static void
use_own_xdg_dirs (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *data = NULL;
  g_autofree char *cache = NULL;
  g_autofree char *config = NULL;

  xdg_dir = g_dir_make_tmp ("stackpulse-xdg-XXXXXX", &error);
  g_assert_no_error (error);
  data = g_build_filename (xdg_dir, "data", NULL);
  cache = g_build_filename (xdg_dir, "cache", NULL);
  g_setenv ("XDG_DATA_HOME", data, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  /* The source folders the Source page remembers, too. */
  config = g_build_filename (xdg_dir, "config", NULL);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  atexit (remove_xdg_dir);
}

gboolean
gui_test_init (int *argc,
               char ***argv)
{
  g_autoptr (GError) error = NULL;

  g_test_init (argc, argv, NULL);
  use_own_xdg_dirs ();
  /* A workload the window starts writes where the test does: into the
   * TAP stream meson parses (sp-workload.c). */
  g_setenv ("SP_WORK_QUIET", "1", TRUE);
  if (!gtk_init_check ())
    {
      if (g_getenv ("SP_REQUIRE_DISPLAY") != NULL)
        g_error ("no display, but SP_REQUIRE_DISPLAY is set: the GUI tests must run here");
      printf ("1..0 # SKIP no display\n");
      return FALSE;
    }
  screenshot_dir = g_strdup (g_getenv ("SP_SCREENSHOT_DIR"));
  if (screenshot_dir == NULL)
    screenshot_dir = g_dir_make_tmp ("stackpulse-shots-XXXXXX", &error);
  g_assert_no_error (error);
  g_mkdir_with_parents (screenshot_dir, 0755);
  return TRUE;
}

const char *
gui_test_screenshot_dir (void)
{
  return screenshot_dir;
}

GdkTexture *
gui_test_render (GtkWidget *widget)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GskRenderNode) node = NULL;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);

  g_assert_cmpint (width, >, 0);
  /* Right after a change (a live update swapping trees) the widget may have
   * no frame to give yet: let the main loop draw one. */
  while (node == NULL && g_get_monotonic_time () < deadline)
    {
      g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();

      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
      if (node == NULL)
        for (gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC / 20; g_get_monotonic_time () < until;)
          g_main_context_iteration (NULL, FALSE);
    }
  g_assert_nonnull (node);
  /* The whole widget, not only the bounds of what was drawn. */
  return gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                      &GRAPHENE_RECT_INIT (0, 0, width, height));
}

guint
gui_test_alpha_at (GtkWidget *widget,
                   int x,
                   int y)
{
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (GskRenderNode) node = NULL;
  g_autoptr (GdkTexture) texture = NULL;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autofree guint32 *pixels = NULL;

  g_assert_cmpint (x, <, width);
  g_assert_cmpint (y, <, height);
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  if (node == NULL)
    return 0;
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  pixels = g_new (guint32, (gsize) width * height);
  gdk_texture_download (texture, (guchar *) pixels, (gsize) width * 4);
  /* Cairo's ARGB32, in native order: alpha is the top byte. */
  return pixels[(gsize) y * width + x] >> 24;
}

/* The share of the texture's pixels that differ from its most common
 * colour (the background), and how many colours it has (up to 1024). */
static void
measure_pixels (GdkTexture *texture,
                double *share_drawn,
                guint *n_colours)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guint32 *pixels = g_new (guint32, (gsize) width * height);
  g_autoptr (GHashTable) counts = g_hash_table_new (NULL, NULL);
  guint background_count = 0;

  gdk_texture_download (texture, (guchar *) pixels, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    {
      gpointer key = GUINT_TO_POINTER (pixels[i]);
      guint count = GPOINTER_TO_UINT (g_hash_table_lookup (counts, key)) + 1;

      if (g_hash_table_size (counts) < 1024 || count > 1)
        g_hash_table_insert (counts, key, GUINT_TO_POINTER (count));
      background_count = MAX (background_count, count);
    }
  *share_drawn = 1.0 - (double) background_count / ((double) width * height);
  *n_colours = g_hash_table_size (counts);
}

void
gui_test_assert_drawn (GdkTexture *texture,
                       const char *what)
{
  double share_drawn;
  guint n_colours;

  measure_pixels (texture, &share_drawn, &n_colours);
  g_test_message ("%s: %.1f%% of the pixels drawn over the background, %u colours", what,
                  100 * share_drawn, n_colours);
  /* Text, borders and rows: anti-aliased text alone gives dozens of
   * colours; an empty or unrealised window gives one or two. */
  if (share_drawn < 0.005 || n_colours < 8)
    g_error ("%s shows next to nothing: %.2f%% of its pixels drawn, %u colours", what, 100 * share_drawn,
             n_colours);
}

void
gui_test_save_png (GtkWidget *widget,
                   const char *name)
{
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *path = g_build_filename (screenshot_dir, name, NULL);
  gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC / 2;

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
  texture = gui_test_render (widget);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
  gui_test_assert_drawn (texture, name);
}

GtkWidget *
gui_test_find (GtkWidget *widget,
               GuiTestMatch matches,
               gconstpointer data)
{
  if (matches (widget, data))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = gui_test_find (child, matches, data);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
collect_matches (GtkWidget *widget,
                 GuiTestMatch matches,
                 gconstpointer data,
                 GPtrArray *found)
{
  if (matches (widget, data))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_matches (child, matches, data, found);
}

GPtrArray *
gui_test_find_all (GtkWidget *widget,
                   GuiTestMatch matches,
                   gconstpointer data)
{
  GPtrArray *found = g_ptr_array_new ();

  collect_matches (widget, matches, data, found);
  return found;
}

static gboolean
is_column_view (GtkWidget *widget,
                gconstpointer data)
{
  (void) data;
  return GTK_IS_COLUMN_VIEW (widget);
}

GPtrArray *
gui_test_column_views (GtkWidget *widget)
{
  return gui_test_find_all (widget, is_column_view, NULL);
}

GtkColumnView *
gui_test_column_view (GtkWidget *widget,
                      guint index)
{
  g_autoptr (GPtrArray) found = gui_test_column_views (widget);

  g_assert_cmpuint (index, <, found->len);
  return g_ptr_array_index (found, index);
}

static GtkWidget *
list_view_of (GtkColumnView *column_view)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (column_view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      return child;
  g_assert_not_reached ();
}

GPtrArray *
gui_test_table_rows (GtkColumnView *column_view)
{
  GPtrArray *rows = g_ptr_array_new ();

  for (GtkWidget *row = gtk_widget_get_first_child (list_view_of (column_view)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    if (gtk_widget_get_child_visible (row))
      g_ptr_array_add (rows, row);
  return rows;
}

guint
gui_test_column_index (GtkColumnView *column_view,
                       const char *title)
{
  GListModel *columns = gtk_column_view_get_columns (column_view);

  for (guint i = 0; i < g_list_model_get_n_items (columns); i++)
    {
      g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_strcmp0 (gtk_column_view_column_get_title (column), title) == 0)
        return i;
    }
  g_assert_not_reached ();
}

/* A row's children are its cells (one per column, in order), each with
 * the widget the column's factory made. */
GtkWidget *
gui_test_row_cell (GtkWidget *row,
                   guint column)
{
  GtkWidget *cell = gtk_widget_get_first_child (row);

  for (guint i = 0; cell != NULL && i < column; i++)
    cell = gtk_widget_get_next_sibling (cell);
  return cell != NULL ? gtk_widget_get_first_child (cell) : NULL;
}

const char *
gui_test_cell_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return gtk_label_get_text (GTK_LABEL (widget));
  if (SP_IS_NAME_LABEL (widget))
    return sp_name_label_get_name (SP_NAME_LABEL (widget));
  return NULL;
}

static gboolean
is_shown_cell (GtkWidget *widget,
               gconstpointer data)
{
  GtkWidget *table = (GtkWidget *) data;
  const char *text = gui_test_cell_text (widget);
  graphene_rect_t bounds;

  return text != NULL && gtk_widget_get_mapped (widget) && text[0] != '\0'
         && gtk_widget_compute_bounds (widget, table, &bounds)
         && bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (table);
}

guint
gui_test_count_shown_cells (GtkWidget *table)
{
  g_autoptr (GPtrArray) shown = gui_test_find_all (table, is_shown_cell, table);

  return shown->len;
}
