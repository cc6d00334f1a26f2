/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-diff-flame.c: a flame graph of B painted by the change from A.
 *
 * The graph draws tree->after (B's shape); after_to_diff leads each of its
 * nodes to the merged node whose before and after the colour and tooltip
 * tell. Colours are by the change of the path's total share: a frame as
 * wide as before is neutral however wide it is, so the eye goes to what
 * moved. The scale is the largest change (at least 2 points), and the
 * legend says it. */
#include "sp-diff-flame.h"

#include <math.h>

#include "sp-diff-table.h"

#define MIN_SCALE 2.0

struct _SpDiffFlame
{
  GtkWidget     parent_instance;

  GtkWidget    *box;
  GtkWidget    *legend;       /* shown with a comparison only */
  GtkLabel     *shrank_label;
  GtkLabel     *grew_label;
  SpFlameGraph *graph;
  SpDiffTree   *tree;
  double        scale;
};

G_DEFINE_FINAL_TYPE (SpDiffFlame, sp_diff_flame, GTK_TYPE_WIDGET)

static const GdkRGBA neutral = { 0.92f, 0.91f, 0.89f, 1 };
static const GdkRGBA grown = { 0.90f, 0.22f, 0.18f, 1 };
static const GdkRGBA shrunk = { 0.22f, 0.45f, 0.90f, 1 };

static float
mix (float from,
     float to,
     double t)
{
  return (float) (from + (to - from) * t);
}

double
sp_diff_flame_scale (const SpDiffTree *tree)
{
  return MAX (tree->max_change, MIN_SCALE);
}

void
sp_diff_flame_colour (const SpDiffTree *tree,
                      guint32 node,
                      double scale,
                      GdkRGBA *fill,
                      gboolean *marked)
{
  const SpDiffTreeNode *n = &tree->nodes[node];
  const GdkRGBA *towards = n->delta > 0 ? &grown : &shrunk;
  /* A power below 1: small changes still show, large ones saturate. */
  double t = pow (MIN (fabs (n->delta) / scale, 1.0), 0.7);

  *marked = node != 0 && n->total_a == 0 && n->total_b > 0;
  if (node == 0)
    {
      *fill = (GdkRGBA) { 0.80f, 0.80f, 0.80f, 1 };
      return;
    }
  fill->red = mix (neutral.red, towards->red, t);
  fill->green = mix (neutral.green, towards->green, t);
  fill->blue = mix (neutral.blue, towards->blue, t);
  fill->alpha = 1;
}

static guint32
diff_node_of (SpDiffFlame *self,
              guint32 flame_node)
{
  return self->tree->after_to_diff[flame_node];
}

static void
paint (guint32 node,
       GdkRGBA *fill,
       gboolean *marked,
       gpointer user_data)
{
  SpDiffFlame *self = user_data;

  sp_diff_flame_colour (self->tree, diff_node_of (self, node), self->scale, fill, marked);
}

static char *
describe_node (SpDiffFlame *self,
               guint32 diff_node)
{
  const SpDiffTreeNode *n = &self->tree->nodes[diff_node];
  g_autofree char *name = g_markup_escape_text (diff_node == 0 ? "all samples" : n->name, -1);
  g_autofree char *module = g_markup_escape_text (n->module, -1);
  g_autofree char *change = sp_diff_format_change (n->delta);
  g_autofree char *self_change = sp_diff_format_change (n->self_value_b - n->self_value_a);
  const char *side = n->total_a == 0 ? "\n<i>Only in B</i>" : "";

  return g_strdup_printf ("<b>%s</b>%s%s\nTotal before: %.1f%%  (%" G_GUINT64_FORMAT ")\n"
                          "Total after: %.1f%%  (%" G_GUINT64_FORMAT ")\nTotal change: %s\n"
                          "Self: %.1f%% → %.1f%%  (%s)%s",
                          name, module[0] != '\0' ? "\n" : "", module, n->total_value_a, n->total_a,
                          n->total_value_b, n->total_b, change, n->self_value_a, n->self_value_b, self_change, side);
}

static char *
tooltip (guint32 node,
         gpointer user_data)
{
  SpDiffFlame *self = user_data;

  return describe_node (self, diff_node_of (self, node));
}

static void
update_legend (SpDiffFlame *self)
{
  g_autofree char *shrank = g_strdup_printf ("shrank −%.1f pp", self->scale);
  g_autofree char *grew = g_strdup_printf ("+%.1f pp grew", self->scale);

  gtk_label_set_text (self->shrank_label, shrank);
  gtk_label_set_text (self->grew_label, grew);
}

void
sp_diff_flame_set_tree (SpDiffFlame *self,
                        SpProfile *b_profile,
                        SpDiffTree *tree)
{
  g_return_if_fail (SP_IS_DIFF_FLAME (self));
  g_return_if_fail (tree == NULL || tree->after != NULL);

  if (tree != NULL)
    sp_diff_tree_ref (tree);
  /* The graph's tree first: its painter reads self->tree. */
  sp_flame_graph_set_painter (self->graph, NULL, NULL, NULL);
  g_clear_pointer (&self->tree, sp_diff_tree_unref);
  self->tree = tree;
  /* A scale with nothing to colour would only puzzle. */
  gtk_widget_set_visible (self->legend, tree != NULL);
  if (tree == NULL)
    {
      sp_flame_graph_set_tree (self->graph, NULL, NULL);
      return;
    }
  self->scale = sp_diff_flame_scale (tree);
  sp_flame_graph_set_tree (self->graph, b_profile, sp_call_tree_copy (tree->after));
  sp_flame_graph_set_painter (self->graph, paint, tooltip, self);
  update_legend (self);
}

SpFlameGraph *
sp_diff_flame_get_graph (SpDiffFlame *self)
{
  return self->graph;
}

/* The heaviest frame (in B) whose function is named name, or 0. */
static guint32
frame_named (SpDiffFlame *self,
             const char *name)
{
  guint32 best = 0;

  for (guint i = 1; self->tree != NULL && i < self->tree->after->n_nodes; i++)
    if (g_str_equal (self->tree->nodes[diff_node_of (self, i)].name, name)
        && (best == 0 || self->tree->after->nodes[i].total > self->tree->after->nodes[best].total))
      best = i;
  return best;
}

gboolean
sp_diff_flame_get_frame_colour (SpDiffFlame *self,
                                const char *name,
                                GdkRGBA *fill,
                                gboolean *marked)
{
  guint32 frame = frame_named (self, name);

  if (frame == 0)
    return FALSE;
  paint (frame, fill, marked, self);
  return TRUE;
}

const char *
sp_diff_flame_name_at (SpDiffFlame *self,
                       double x,
                       double y)
{
  guint32 node = sp_flame_graph_node_at (self->graph, x, y);

  if (self->tree == NULL || node == SP_CALL_TREE_NONE)
    return NULL;
  return self->tree->nodes[diff_node_of (self, node)].name;
}

guint32
sp_diff_flame_get_selected_node (SpDiffFlame *self)
{
  g_autoptr (GArray) path = sp_flame_graph_get_selected_path (self->graph);
  guint n_found = 0;
  guint32 node;

  if (self->tree == NULL || path == NULL || path->len == 0)
    return SP_DIFF_TREE_NONE;
  node = sp_call_tree_find_path (self->tree->after, (const guint32 *) path->data, path->len, &n_found);
  return n_found == path->len ? diff_node_of (self, node) : SP_DIFF_TREE_NONE;
}

/* ---- The legend ---------------------------------------------------------- */

static void
draw_scale (GtkDrawingArea *area,
            cairo_t *cr,
            int width,
            int height,
            gpointer data)
{
  cairo_pattern_t *gradient = cairo_pattern_create_linear (0, 0, width, 0);

  cairo_pattern_add_color_stop_rgb (gradient, 0, shrunk.red, shrunk.green, shrunk.blue);
  cairo_pattern_add_color_stop_rgb (gradient, 0.5, neutral.red, neutral.green, neutral.blue);
  cairo_pattern_add_color_stop_rgb (gradient, 1, grown.red, grown.green, grown.blue);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_set_source (cr, gradient);
  cairo_fill (cr);
  cairo_pattern_destroy (gradient);
}

/* A frame only in B, as the graph marks it. */
static void
draw_mark (GtkDrawingArea *area,
           cairo_t *cr,
           int width,
           int height,
           gpointer data)
{
  cairo_set_source_rgb (cr, 0.15, 0.15, 0.15);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, grown.red, grown.green, grown.blue);
  cairo_rectangle (cr, 2, 2, width - 4, height - 4);
  cairo_fill (cr);
}

static GtkWidget *
drawing (int width,
         GtkDrawingAreaDrawFunc draw)
{
  GtkWidget *area = gtk_drawing_area_new ();

  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), width);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), 14);
  gtk_widget_set_valign (area, GTK_ALIGN_CENTER);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw, NULL, NULL);
  return area;
}

static GtkWidget *
legend_new (SpDiffFlame *self)
{
  GtkWidget *legend = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *note = gtk_label_new ("Width: B (after). Colour: change of each path's total share from A to B.");

  gtk_widget_set_margin_start (legend, 6);
  gtk_widget_set_margin_end (legend, 6);
  gtk_widget_set_margin_top (legend, 4);
  gtk_widget_set_margin_bottom (legend, 4);
  self->shrank_label = GTK_LABEL (gtk_label_new (NULL));
  self->grew_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_box_append (GTK_BOX (legend), GTK_WIDGET (self->shrank_label));
  gtk_box_append (GTK_BOX (legend), drawing (160, draw_scale));
  gtk_box_append (GTK_BOX (legend), GTK_WIDGET (self->grew_label));
  gtk_box_append (GTK_BOX (legend), drawing (28, draw_mark));
  gtk_box_append (GTK_BOX (legend), gtk_label_new ("only in B"));
  gtk_label_set_ellipsize (GTK_LABEL (note), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (note, TRUE);
  gtk_label_set_xalign (GTK_LABEL (note), 1);
  gtk_widget_add_css_class (note, "dim-label");
  gtk_box_append (GTK_BOX (legend), note);
  return legend;
}

/* ---- The widget ------------------------------------------------------------ */

static void
sp_diff_flame_dispose (GObject *object)
{
  SpDiffFlame *self = SP_DIFF_FLAME (object);

  if (self->graph != NULL)
    sp_flame_graph_set_painter (self->graph, NULL, NULL, NULL);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  self->graph = NULL;
  g_clear_pointer (&self->tree, sp_diff_tree_unref);
  G_OBJECT_CLASS (sp_diff_flame_parent_class)->dispose (object);
}

static void
sp_diff_flame_class_init (SpDiffFlameClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = sp_diff_flame_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
sp_diff_flame_init (SpDiffFlame *self)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  self->scale = MIN_SCALE;
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  self->legend = legend_new (self);
  gtk_widget_set_visible (self->legend, FALSE);
  gtk_box_append (GTK_BOX (self->box), self->legend);
  self->graph = sp_flame_graph_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->graph));
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (self->box), scroller);
  update_legend (self);
}

SpDiffFlame *
sp_diff_flame_new (void)
{
  return g_object_new (SP_TYPE_DIFF_FLAME, NULL);
}

gboolean
sp_diff_flame_get_legend_shown (SpDiffFlame *self)
{
  return gtk_widget_get_visible (self->legend);
}
