/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-flame-labels.c: the flame graph's names, shortened to fit a frame.
 *
 * A long C++ name drawn in frames of several widths: the form chosen
 * (whole, without template arguments, without parameter lists too) and
 * the glyphs of the text nodes actually drawn. */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "gui-test.h"
#include "sp-flame-labels.h"
#include "sp-name-elide.h"

#define PADDING 4.0

static const char name[] =
  "std::map<std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >, "
  "std::vector<std::pair<int, double>, std::allocator<std::pair<int, double> > > >::operator[]"
  "(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >&&)";

/* The width of text in widget's font, in pixels (fractional). */
static double
text_width (GtkWidget *widget,
            const char *text)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int width;

  pango_layout_get_size (layout, &width, NULL);
  return (double) width / PANGO_SCALE;
}

static int
glyph_count (GtkWidget *widget,
             const char *text)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  PangoLayoutLine *line = pango_layout_get_line_readonly (layout, 0);
  int n = 0;

  for (GSList *run = line->runs; run != NULL; run = run->next)
    n += ((PangoGlyphItem *) run->data)->glyphs->num_glyphs;
  return n;
}

/* The glyphs of every text node under node. */
static int
drawn_glyphs (GskRenderNode *node)
{
  int n = 0;

  switch (gsk_render_node_get_node_type (node))
    {
    case GSK_TEXT_NODE:
      return (int) gsk_text_node_get_num_glyphs (node);
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        n += drawn_glyphs (gsk_container_node_get_child (node, i));
      return n;
    case GSK_CLIP_NODE:
      return drawn_glyphs (gsk_clip_node_get_child (node));
    case GSK_TRANSFORM_NODE:
      return drawn_glyphs (gsk_transform_node_get_child (node));
    default:
      return 0;
    }
}

/* Draws name in a frame width pixels wide (padding included); the glyphs
 * drawn. */
static int
draw (SpFlameLabels *labels,
      double width)
{
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  graphene_rect_t rect = GRAPHENE_RECT_INIT (0, 0, width, 18);
  GdkRGBA black = { 0, 0, 0, 1 };
  g_autoptr (GskRenderNode) node = NULL;

  sp_flame_labels_append (labels, snapshot, 7, name, &rect, PADDING, &black);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  return node != NULL ? drawn_glyphs (node) : 0;
}

static void
test_forms (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *widget = gtk_label_new ("flame");
  g_autoptr (SpFlameLabels) labels = NULL;
  g_autofree char *no_templates = sp_name_elide (name, SP_NAME_NO_TEMPLATE_ARGUMENTS);
  g_autofree char *no_parameters = sp_name_elide (name, SP_NAME_NO_PARAMETERS);
  double full_width, no_templates_width, no_parameters_width;

  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_present (GTK_WINDOW (window));
  labels = sp_flame_labels_new (widget);
  full_width = ceil (text_width (widget, name));
  no_templates_width = ceil (text_width (widget, no_templates));
  no_parameters_width = ceil (text_width (widget, no_parameters));
  g_assert_cmpstr (no_parameters, ==, "std::map<…>::operator[](…)");

  g_assert_cmpstr (sp_flame_labels_text_for (labels, 7, name, full_width), ==, name);
  g_assert_cmpstr (sp_flame_labels_text_for (labels, 7, name, full_width - 1), ==, no_templates);
  g_assert_cmpstr (sp_flame_labels_text_for (labels, 7, name, no_templates_width), ==, no_templates);
  g_assert_cmpstr (sp_flame_labels_text_for (labels, 7, name, no_templates_width - 1), ==, no_parameters);
  g_assert_cmpstr (sp_flame_labels_text_for (labels, 7, name, no_parameters_width / 2), ==, no_parameters);

  /* What is drawn: every glyph of the form that fits; in a frame too
   * narrow for the shortest, part of it and an ellipsis. */
  g_assert_cmpint (draw (labels, full_width + 2 * PADDING), ==, glyph_count (widget, name));
  g_assert_cmpint (draw (labels, no_templates_width + 2 * PADDING), ==, glyph_count (widget, no_templates));
  g_assert_cmpint (draw (labels, no_parameters_width + 2 * PADDING), ==, glyph_count (widget, no_parameters));
  g_assert_cmpint (draw (labels, no_parameters_width / 2 + 2 * PADDING), <, glyph_count (widget, no_parameters));
  g_assert_cmpint (draw (labels, no_parameters_width / 2 + 2 * PADDING), >, 1);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/ui/flame-labels/forms", test_forms);
  return g_test_run ();
}
