/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-flame-graph.c: a top-down SpCallTree drawn as a flame graph.
 *
 * The last step of data/'s aggregation: each node is a rectangle whose
 * width is its total within the zoomed node's total; children sit side by
 * side under (or, as an icicle, over) their parent, the largest total
 * first. The zoomed node spans the whole width with its ancestors stacked
 * full width beside it, as a breadcrumb.
 *
 * From tree to pixels: the layout (one SpFlameFrame per drawn rectangle,
 * sp-flame-layout.h) depends on the tree, the zoom and the width; the
 * render node also on the height, the search and the orientation. Both
 * are cached and rebuilt only when one of those changes; snapshot()
 * replays the cached node. Hit-testing (clicks, tooltips,
 * sp_flame_graph_node_at) uses the same layout as the drawing.
 *
 * The graph scrolls itself (GtkScrollable): a deep tree is many times
 * taller than its view, and drawing only the rows in view (with a margin,
 * so a small scroll replays the cached node) keeps a zoom's frame short.
 * It also keeps the roots in view as its height changes (a zoom, a new
 * tree, a resize) in the same frame, by keeping the distance between the
 * roots' end of the content and the view. */
#include "sp-flame-graph.h"

#include "sp-cells-private.h"
#include "sp-context-menu-private.h"
#include "sp-function-search.h"
#include "sp-heaviest-private.h"
#include "sp-flame-labels.h"
#include "sp-flame-layout.h"
#include "sp-metric-format.h"

#include <math.h>

#define ROW_HEIGHT        18
#define MIN_LABEL_WIDTH   28.0  /* narrower frames get no label */
#define LABEL_PADDING     3.0

typedef struct {
  double top;
  double bottom;
} Band;

struct _SpFlameGraph
{
  GtkWidget      parent_instance;

  /* Owned references */
  SpCallTree    *tree;
  char          *search;
  gboolean      *search_matches;  /* search's, a gboolean per function of tree; NULL until drawn */
  char          *last_search;     /* casefolded; Enter again goes to its next match */
  GArray        *frames;          /* SpFlameFrame, laid out for layout_width */
  GskRenderNode *render_node;     /* for render_width x render_height, rows in render_band */
  SpFlameLabels *labels;          /* names shaped in the widget's font; NULL until drawn */
  GtkAdjustment *hadjustment;
  GtkAdjustment *vadjustment;
  SpProfile     *profile;
  SpFlameColourFunc painter_colour; /* NULL: by module */
  SpFlameTooltipFunc painter_tooltip;
  gpointer       painter_data;

  guint32        zoom;
  guint32        selected;        /* the frame last clicked (zoomed) or right-clicked; 0: none */
  guint          n_rows;
  int            layout_width;    /* -1: frames must be laid out again */
  int            render_width;
  int            render_height;   /* of the content, which may be taller than the widget */
  Band           render_band;     /* content y range the render node covers */
  double         from_roots;      /* between the roots' end of the content and the view */
  guint          icicle : 1;
  guint          hscroll_policy : 1;
  guint          vscroll_policy : 1;
};

enum {
  PROP_0,
  PROP_ICICLE,
  N_PROPS,

  /* GtkScrollable's */
  PROP_HADJUSTMENT = N_PROPS,
  PROP_VADJUSTMENT,
  PROP_HSCROLL_POLICY,
  PROP_VSCROLL_POLICY,
};

enum {
  ZOOM_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE_WITH_CODE (SpFlameGraph, sp_flame_graph, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (GTK_TYPE_SCROLLABLE, NULL))

static void
invalidate_render (SpFlameGraph *self)
{
  g_clear_pointer (&self->render_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
invalidate_layout (SpFlameGraph *self)
{
  self->layout_width = -1;
  g_array_set_size (self->frames, 0);
  invalidate_render (self);
}

/* The content: every row, and at least the widget's height (the roots
 * sit at its bottom unless icicle). */
static int
content_height (SpFlameGraph *self)
{
  return MAX ((int) self->n_rows * ROW_HEIGHT, gtk_widget_get_height (GTK_WIDGET (self)));
}

static double
scroll_offset (SpFlameGraph *self)
{
  return self->vadjustment != NULL ? gtk_adjustment_get_value (self->vadjustment) : 0;
}

/* The adjustments after a change of size, rows or orientation: the view
 * keeps its distance from the roots' end. */
static void
configure_adjustments (SpFlameGraph *self)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double upper = content_height (self);
  double last = MAX (upper - height, 0);
  double value = self->icicle ? self->from_roots : last - self->from_roots;
  double from_roots = self->from_roots;

  if (self->hadjustment != NULL)
    gtk_adjustment_configure (self->hadjustment, 0, 0, width, width * 0.1, width * 0.9, width);
  if (self->vadjustment != NULL)
    gtk_adjustment_configure (self->vadjustment, CLAMP (value, 0, last), 0, upper,
                              3 * ROW_HEIGHT, height * 0.9, height);
  /* A view clamped at the far end keeps its wish for a taller graph. */
  self->from_roots = from_roots;
}

static void
vadjustment_value_changed (GtkAdjustment *adjustment,
                           SpFlameGraph *self)
{
  double last = MAX (gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment), 0);
  double value = gtk_adjustment_get_value (adjustment);

  self->from_roots = self->icicle ? value : last - value;
  /* snapshot() replays the cached node while it covers the view. */
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
set_adjustment (SpFlameGraph *self,
                GtkAdjustment **slot,
                GtkAdjustment *adjustment,
                gboolean vertical)
{
  if (adjustment != NULL && adjustment == *slot)
    return;
  if (*slot != NULL)
    g_signal_handlers_disconnect_by_func (*slot, vadjustment_value_changed, self);
  if (adjustment == NULL)
    adjustment = gtk_adjustment_new (0, 0, 0, 0, 0, 0);
  g_object_ref_sink (adjustment);
  g_clear_object (slot);
  *slot = adjustment;
  if (vertical)
    g_signal_connect (adjustment, "value-changed", G_CALLBACK (vadjustment_value_changed), self);
  configure_adjustments (self);
  g_object_notify (G_OBJECT (self), vertical ? "vadjustment" : "hadjustment");
}

/* The rows shown: the zoomed node's ancestors, itself and its subtree. */
static void
update_rows (SpFlameGraph *self)
{
  guint n_rows = 0;

  if (self->tree != NULL)
    n_rows = sp_flame_layout_depth (self->tree, self->zoom) + sp_call_tree_ensure_heights (self->tree)[self->zoom];
  if (n_rows != self->n_rows)
    {
      self->n_rows = n_rows;
      configure_adjustments (self);
      gtk_widget_queue_resize (GTK_WIDGET (self));
    }
}

static void
ensure_layout (SpFlameGraph *self,
               int width)
{
  if (self->layout_width == width)
    return;
  self->layout_width = width;
  if (self->tree != NULL)
    sp_flame_layout_frames (self->tree, self->zoom, width, self->frames);
  else
    g_array_set_size (self->frames, 0);
}

static double
row_y (SpFlameGraph *self,
       guint row,
       int height)
{
  if (self->icicle)
    return row * ROW_HEIGHT;
  return height - (double) (row + 1) * ROW_HEIGHT;
}

/* (x, y) in the widget's coordinates. */
static const SpFlameFrame *
frame_at (SpFlameGraph *self,
          double x,
          double y)
{
  int width = gtk_widget_get_width (GTK_WIDGET (self));
  double content_y = y + scroll_offset (self);
  double from_root = self->icicle ? content_y : content_height (self) - content_y;
  guint row;

  if (self->tree == NULL || x < 0 || x >= width || y < 0 || y >= gtk_widget_get_height (GTK_WIDGET (self))
      || from_root < 0)
    return NULL;
  row = (guint) (from_root / ROW_HEIGHT);
  ensure_layout (self, width);
  return sp_flame_layout_frame_at (self->frames, row, x);
}

static const char *
node_name (SpFlameGraph *self,
           guint32 node)
{
  if (node == 0)
    return self->tree->metric == SP_METRIC_OFF_CPU ? "all off-CPU time"
           : self->tree->metric == SP_METRIC_WALL  ? "all wall-clock time"
                                                   : "all samples";
  return sp_profile_get_function (self->profile, self->tree->nodes[node].function)->name;
}

/* What the labels' cache knows node's name by: its function, or for the
 * root, whose name says what the tree counts, one key per metric (below
 * every function id), so a tree of another metric is not drawn with the
 * last one's root name. */
static guint32
label_key (SpFlameGraph *self,
           guint32 node)
{
  if (node == 0)
    return SP_CALL_TREE_NONE - (guint32) self->tree->metric;
  return self->tree->nodes[node].function;
}

static double
hash_fraction (const char *text,
               guint salt)
{
  return ((g_str_hash (text) ^ salt) % 1009) / 1009.0;
}

/* Program and library code in warm hues, one hue per module (so libraries
 * differ) with the shade varied by function; kernel code blue; frames
 * without a symbol grey. */
static void
kind_colour (SpFlameGraph *self,
             guint32 node,
             GdkRGBA *colour)
{
  /* Hue and saturation per module: distinct steps rather than a
   * continuous range, so two libraries rarely look alike. */
  static const float warm[][2] = {
    { 0.00f, 0.60f }, { 0.06f, 0.72f }, { 0.11f, 0.78f },
    { 0.15f, 0.62f }, { 0.03f, 0.42f }, { 0.09f, 0.45f },
  };
  const SpFunction *function;
  guint step;
  float h, s, v;

  colour->alpha = 1;
  if (node == 0)
    {
      colour->red = colour->green = colour->blue = 0.80f;
      return;
    }
  function = sp_profile_get_function (self->profile, self->tree->nodes[node].function);
  switch (function->kind)
    {
    case SP_FUNCTION_USER:
      step = ((g_str_hash (function->module) * 2654435761u) >> 24) % G_N_ELEMENTS (warm);
      h = warm[step][0];
      s = warm[step][1] + 0.12 * (hash_fraction (function->name, 0) - 0.5);
      v = 0.92 + 0.07 * hash_fraction (function->name, 0x5bd1e995);
      break;
    case SP_FUNCTION_KERNEL:
      h = 0.53 + 0.07 * hash_fraction (function->name, 0);
      s = 0.30 + 0.20 * hash_fraction (function->name, 0x5bd1e995);
      v = 0.93;
      break;
    case SP_FUNCTION_SYNTHETIC:
      h = 0.30;
      s = 0.35;
      v = 0.85;
      break;
    case SP_FUNCTION_UNRESOLVED:
    case SP_FUNCTION_TRUNCATED:
    default:
      colour->red = colour->green = colour->blue = function->kind == SP_FUNCTION_TRUNCATED ? 0.62f : 0.72f;
      return;
    }
  gtk_hsv_to_rgb (h, s, v, &colour->red, &colour->green, &colour->blue);
}

/* With a search, matches turn magenta and the rest fade. */
static void
frame_colours (SpFlameGraph *self,
               guint32 node,
               GdkRGBA *fill,
               GdkRGBA *text,
               gboolean *marked)
{
  static const GdkRGBA match = { 0.88f, 0.28f, 0.88f, 1 };

  *text = (GdkRGBA) { 0.1f, 0.1f, 0.1f, 1 };
  *marked = FALSE;
  if (self->search != NULL && node != 0 && self->search_matches[self->tree->nodes[node].function])
    {
      *fill = match;
      return;
    }
  if (self->painter_colour != NULL)
    self->painter_colour (node, fill, marked, self->painter_data);
  else
    kind_colour (self, node, fill);
  if (self->search != NULL)
    {
      float grey = (fill->red + fill->green + fill->blue) / 3;

      fill->red = 0.25f * fill->red + 0.75f * (0.45f * grey + 0.5f);
      fill->green = 0.25f * fill->green + 0.75f * (0.45f * grey + 0.5f);
      fill->blue = 0.25f * fill->blue + 0.75f * (0.45f * grey + 0.5f);
      text->alpha = 0.5f;
    }
}

/* The frames whose rows meet band, in content coordinates (height is the
 * content's). */
static GskRenderNode *
render (SpFlameGraph *self,
        int width,
        int height,
        const Band *band)
{
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();

  if (self->labels != NULL && !sp_flame_labels_is_current (self->labels, GTK_WIDGET (self)))
    g_clear_pointer (&self->labels, sp_flame_labels_free);
  if (self->labels == NULL)
    self->labels = sp_flame_labels_new (GTK_WIDGET (self));
  if (self->search != NULL && self->tree != NULL && self->search_matches == NULL)
    self->search_matches = sp_function_search_match (self->profile, self->tree->n_functions, self->search);
  ensure_layout (self, width);
  for (guint i = 0; i < self->frames->len; i++)
    {
      const SpFlameFrame *frame = &g_array_index (self->frames, SpFlameFrame, i);
      double y = row_y (self, frame->row, height);
      double x0 = round (frame->x);
      double x1 = round (frame->x + frame->width);
      /* A one-pixel gap between neighbours and rows, when there is room. */
      double gap = x1 - x0 >= 3 ? 1 : 0;
      graphene_rect_t rect = GRAPHENE_RECT_INIT (x0, y, MAX (x1 - x0 - gap, 1), ROW_HEIGHT - 1);
      GdkRGBA fill, text;
      gboolean marked;

      if (y + ROW_HEIGHT <= band->top || y >= band->bottom)
        continue;
      frame_colours (self, frame->node, &fill, &text, &marked);
      if (marked && rect.size.width >= 5)
        {
          /* A painter's mark: a dark edge around the fill. */
          gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 0.15f, 0.15f, 0.15f, 1 }, &rect);
          graphene_rect_inset (&rect, 2, 2);
        }
      gtk_snapshot_append_color (snapshot, &fill, &rect);
      if (rect.size.width >= MIN_LABEL_WIDTH)
        sp_flame_labels_append (self->labels, snapshot, label_key (self, frame->node),
                                node_name (self, frame->node), &rect, LABEL_PADDING, &text);
    }
  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

static void
append_escaped_line (GString *markup,
                     const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  g_string_append_printf (markup, "%s\n", escaped);
}

/* "456 samples", or a time ("1.23 s") for a time metric. */
static char *
cost_text (SpMetric metric,
           guint64 value)
{
  if (sp_metric_is_time (metric))
    return sp_format_duration (value);
  return g_strdup_printf ("%" G_GUINT64_FORMAT " samples", value);
}

/* Each line of the tooltip that is known: function, module, source. */
static char *
tooltip_markup (SpFlameGraph *self,
                guint32 node)
{
  const SpCallTreeNode *n = &self->tree->nodes[node];
  double all = MAX (self->tree->nodes[0].total, 1);
  g_autoptr (GString) markup = g_string_new (NULL);
  g_autofree char *name = g_markup_escape_text (node_name (self, node), -1);
  g_autofree char *self_text = NULL;
  g_autofree char *total_text = NULL;
  char *painted = self->painter_tooltip != NULL ? self->painter_tooltip (node, self->painter_data) : NULL;

  if (painted != NULL)
    return painted;
  g_string_append_printf (markup, "<b>%s</b>\n", name);
  if (node != 0)
    {
      const SpFunction *function = sp_profile_get_function (self->profile, n->function);
      g_autofree char *location = sp_function_get_location (function);

      if (function->module != NULL && function->module[0] != '\0')
        append_escaped_line (markup, function->module);
      if (location != NULL)
        append_escaped_line (markup, location);
    }
  self_text = cost_text (self->tree->metric, n->self);
  total_text = cost_text (self->tree->metric, n->total);
  g_string_append_printf (markup, "Self: %s (%.1f%%)\nTotal: %s (%.1f%%)",
                          self_text, 100.0 * n->self / all, total_text, 100.0 * n->total / all);
  return g_string_free (g_steal_pointer (&markup), FALSE);
}

static gboolean
sp_flame_graph_query_tooltip (GtkWidget *widget,
                              int x,
                              int y,
                              gboolean keyboard_mode,
                              GtkTooltip *tooltip)
{
  SpFlameGraph *self = SP_FLAME_GRAPH (widget);
  const SpFlameFrame *frame = frame_at (self, x, y);
  g_autofree char *markup = NULL;
  GdkRectangle area;

  if (_sp_context_menu_is_open (widget))
    return FALSE;

  if (frame == NULL)
    return FALSE;
  markup = tooltip_markup (self, frame->node);
  _sp_cells_set_tooltip_markup (tooltip, markup);
  /* The tooltip follows the pointer from frame to frame. */
  area.x = (int) floor (frame->x);
  area.y = (int) (row_y (self, frame->row, content_height (self)) - scroll_offset (self));
  area.width = MAX ((int) ceil (frame->width), 1);
  area.height = ROW_HEIGHT;
  gtk_tooltip_set_tip_area (tooltip, &area);
  return TRUE;
}

static void
on_pressed (GtkGestureClick *gesture,
            int n_press,
            double x,
            double y,
            SpFlameGraph *self)
{
  guint32 node;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (n_press >= 2)
    {
      sp_flame_graph_zoom_to (self, 0);
      return;
    }
  node = sp_flame_graph_node_at (self, x, y);
  if (node != SP_CALL_TREE_NONE)
    sp_flame_graph_zoom_to (self, node);
}

static gboolean
zoom_out (GtkWidget *widget,
          GVariant *args,
          gpointer user_data)
{
  SpFlameGraph *self = SP_FLAME_GRAPH (widget);

  if (self->zoom == 0)
    return FALSE;
  sp_flame_graph_zoom_to (self, 0);
  return TRUE;
}

/* The part of the content in view, and around it the part to draw: a
 * quarter of a view (at least a few rows) each side, so a small scroll
 * replays the cached node. */
static void
view_band (SpFlameGraph *self,
           int content,
           Band *view,
           Band *draw)
{
  double offset = scroll_offset (self);
  int height = gtk_widget_get_height (GTK_WIDGET (self));
  double margin = MAX (height / 4.0, 4.0 * ROW_HEIGHT);

  view->top = offset;
  view->bottom = offset + height;
  draw->top = MAX (view->top - margin, 0);
  draw->bottom = MIN (view->bottom + margin, content);
}

static void
sp_flame_graph_snapshot (GtkWidget *widget,
                         GtkSnapshot *snapshot)
{
  SpFlameGraph *self = SP_FLAME_GRAPH (widget);
  int width = gtk_widget_get_width (widget);
  int content = content_height (self);
  Band view, draw;

  view_band (self, content, &view, &draw);
  if (self->render_node != NULL
      && (width != self->render_width || content != self->render_height
          || view.top < self->render_band.top || view.bottom > self->render_band.bottom))
    g_clear_pointer (&self->render_node, gsk_render_node_unref);
  if (self->render_node == NULL)
    {
      self->render_node = render (self, width, content, &draw);
      self->render_width = width;
      self->render_height = content;
      self->render_band = draw;
    }
  if (self->render_node == NULL)
    return;
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (0, -round (view.top)));
  gtk_snapshot_append_node (snapshot, self->render_node);
  gtk_snapshot_restore (snapshot);
}

static void
sp_flame_graph_measure (GtkWidget *widget,
                        GtkOrientation orientation,
                        int for_size,
                        int *minimum,
                        int *natural,
                        int *minimum_baseline,
                        int *natural_baseline)
{
  SpFlameGraph *self = SP_FLAME_GRAPH (widget);

  /* Scrolled, any height will do; alone, the graph wants all its rows. */
  if (orientation == GTK_ORIENTATION_VERTICAL)
    *minimum = *natural = self->n_rows * ROW_HEIGHT;
  else
    {
      *minimum = 0;
      *natural = 400;
    }
}

static void
sp_flame_graph_size_allocate (GtkWidget *widget,
                              int width,
                              int height,
                              int baseline)
{
  SpFlameGraph *self = SP_FLAME_GRAPH (widget);

  if (width != self->layout_width)
    invalidate_layout (self);
  configure_adjustments (self);
}

/* Fonts may have changed (the labels find out when drawn). */
static void
sp_flame_graph_css_changed (GtkWidget *widget,
                            GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (sp_flame_graph_parent_class)->css_changed (widget, change);
  invalidate_render (SP_FLAME_GRAPH (widget));
}

static void
sp_flame_graph_finalize (GObject *object)
{
  SpFlameGraph *self = SP_FLAME_GRAPH (object);

  g_clear_pointer (&self->tree, sp_call_tree_free);
  g_clear_pointer (&self->profile, sp_profile_unref);
  g_clear_pointer (&self->search, g_free);
  g_clear_pointer (&self->search_matches, g_free);
  g_clear_pointer (&self->last_search, g_free);
  g_clear_pointer (&self->frames, g_array_unref);
  g_clear_pointer (&self->render_node, gsk_render_node_unref);
  g_clear_pointer (&self->labels, sp_flame_labels_free);

  G_OBJECT_CLASS (sp_flame_graph_parent_class)->finalize (object);
}

static void
sp_flame_graph_dispose (GObject *object)
{
  SpFlameGraph *self = SP_FLAME_GRAPH (object);

  if (self->vadjustment != NULL)
    g_signal_handlers_disconnect_by_func (self->vadjustment, vadjustment_value_changed, self);
  _sp_context_menu_clear (GTK_WIDGET (self));
  g_clear_object (&self->hadjustment);
  g_clear_object (&self->vadjustment);

  G_OBJECT_CLASS (sp_flame_graph_parent_class)->dispose (object);
}

static void
sp_flame_graph_get_property (GObject *object,
                             guint prop_id,
                             GValue *value,
                             GParamSpec *pspec)
{
  SpFlameGraph *self = SP_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_ICICLE:
      g_value_set_boolean (value, self->icicle);
      break;
    case PROP_HADJUSTMENT:
      g_value_set_object (value, self->hadjustment);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    case PROP_HSCROLL_POLICY:
      g_value_set_enum (value, self->hscroll_policy);
      break;
    case PROP_VSCROLL_POLICY:
      g_value_set_enum (value, self->vscroll_policy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sp_flame_graph_set_property (GObject *object,
                             guint prop_id,
                             const GValue *value,
                             GParamSpec *pspec)
{
  SpFlameGraph *self = SP_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_ICICLE:
      sp_flame_graph_set_icicle (self, g_value_get_boolean (value));
      break;
    case PROP_HADJUSTMENT:
      set_adjustment (self, &self->hadjustment, g_value_get_object (value), FALSE);
      break;
    case PROP_VADJUSTMENT:
      set_adjustment (self, &self->vadjustment, g_value_get_object (value), TRUE);
      break;
    case PROP_HSCROLL_POLICY:
      self->hscroll_policy = g_value_get_enum (value);
      break;
    case PROP_VSCROLL_POLICY:
      self->vscroll_policy = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
sp_flame_graph_class_init (SpFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_flame_graph_dispose;
  object_class->finalize = sp_flame_graph_finalize;
  object_class->get_property = sp_flame_graph_get_property;
  object_class->set_property = sp_flame_graph_set_property;

  widget_class->snapshot = sp_flame_graph_snapshot;
  widget_class->measure = sp_flame_graph_measure;
  widget_class->size_allocate = sp_flame_graph_size_allocate;
  widget_class->css_changed = sp_flame_graph_css_changed;
  widget_class->query_tooltip = sp_flame_graph_query_tooltip;

  properties[PROP_ICICLE] =
    g_param_spec_boolean ("icicle", NULL, NULL,
                          FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
  g_object_class_override_property (object_class, PROP_HADJUSTMENT, "hadjustment");
  g_object_class_override_property (object_class, PROP_VADJUSTMENT, "vadjustment");
  g_object_class_override_property (object_class, PROP_HSCROLL_POLICY, "hscroll-policy");
  g_object_class_override_property (object_class, PROP_VSCROLL_POLICY, "vscroll-policy");

  /* The zoomed node changed (sp_flame_graph_get_zoom). */
  signals[ZOOM_CHANGED] =
    g_signal_new ("zoom-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, zoom_out, NULL);
  gtk_widget_class_set_css_name (widget_class, "flamegraph");
}

static void
sp_flame_graph_init (SpFlameGraph *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->frames = g_array_new (FALSE, FALSE, sizeof (SpFlameFrame));
  self->layout_width = -1;
  /* Alone, outside a scrolled window, the graph has adjustments of its own. */
  set_adjustment (self, &self->hadjustment, NULL, FALSE);
  set_adjustment (self, &self->vadjustment, NULL, TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

SpFlameGraph *
sp_flame_graph_new (void)
{
  return g_object_new (SP_TYPE_FLAME_GRAPH, NULL);
}

/* node's place in a new tree: the same function path, or as much of it
 * as the new tree has (a live update or a new filter gives another tree of
 * the same recording); *same says whether it was all there. */
static guint32
find_node (SpFlameGraph *self,
           guint32 node,
           const SpCallTree *tree,
           gboolean *same)
{
  g_autoptr (GArray) path = NULL;
  guint n_found;
  guint32 found;

  *same = node == 0;
  if (node == 0 || self->tree == NULL || tree == NULL)
    return 0;
  path = sp_call_tree_get_path (self->tree, node);
  found = sp_call_tree_find_path (tree, (const guint32 *) path->data, path->len, &n_found);
  *same = n_found == path->len;
  return found;
}

void
sp_flame_graph_set_tree (SpFlameGraph *self,
                         SpProfile *profile,
                         SpCallTree *tree)
{
  gboolean same, selected_same;
  guint32 zoom, selected;

  g_return_if_fail (SP_IS_FLAME_GRAPH (self));
  g_return_if_fail (tree == NULL || (profile != NULL && !tree->bottom_up && tree->n_nodes > 0));

  zoom = find_node (self, self->zoom, tree, &same);
  selected = find_node (self, self->selected, tree, &selected_same);
  self->selected = selected_same ? selected : 0;
  /* (A new tree's heights were made with it, sp-analysis-job.c.) */
  g_clear_pointer (&self->tree, sp_call_tree_free_in_background);
  g_clear_pointer (&self->search_matches, g_free);
  self->tree = tree;
  if (tree != NULL)
    sp_profile_ref (profile);
  g_clear_pointer (&self->profile, sp_profile_unref);
  self->profile = tree != NULL ? profile : NULL;
  self->zoom = zoom;
  update_rows (self);
  invalidate_layout (self);
  if (!same)
    g_signal_emit (self, signals[ZOOM_CHANGED], 0);
}

void
sp_flame_graph_set_icicle (SpFlameGraph *self,
                           gboolean icicle)
{
  g_return_if_fail (SP_IS_FLAME_GRAPH (self));

  icicle = !!icicle;
  if (self->icicle == (guint) icicle)
    return;
  self->icicle = icicle;
  /* The roots, now at the other end, in view. */
  self->from_roots = 0;
  configure_adjustments (self);
  invalidate_render (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ICICLE]);
}

gboolean
sp_flame_graph_get_icicle (SpFlameGraph *self)
{
  g_return_val_if_fail (SP_IS_FLAME_GRAPH (self), FALSE);

  return self->icicle;
}

void
sp_flame_graph_set_search (SpFlameGraph *self,
                           const char *text)
{
  g_return_if_fail (SP_IS_FLAME_GRAPH (self));

  if (text != NULL && text[0] == '\0')
    text = NULL;
  if (g_strcmp0 (text, self->search) == 0)
    return;
  g_free (self->search);
  self->search = g_strdup (text);
  g_clear_pointer (&self->search_matches, g_free);
  invalidate_render (self);
}

void
sp_flame_graph_zoom_to (SpFlameGraph *self,
                        guint32 node)
{
  g_return_if_fail (SP_IS_FLAME_GRAPH (self));
  g_return_if_fail (node == 0 || (self->tree != NULL && node < self->tree->n_nodes));

  self->selected = node;
  if (node == self->zoom)
    return;
  self->zoom = node;
  update_rows (self);
  invalidate_layout (self);
  g_signal_emit (self, signals[ZOOM_CHANGED], 0);
}

guint32
sp_flame_graph_get_zoom (SpFlameGraph *self)
{
  g_return_val_if_fail (SP_IS_FLAME_GRAPH (self), 0);

  return self->zoom;
}

guint32
sp_flame_graph_get_zoom_function (SpFlameGraph *self)
{
  g_return_val_if_fail (SP_IS_FLAME_GRAPH (self), SP_CALL_TREE_NONE);

  if (self->tree == NULL || self->zoom == 0)
    return SP_CALL_TREE_NONE;
  return self->tree->nodes[self->zoom].function;
}

char *
sp_flame_graph_describe (SpFlameGraph *self,
                         guint32 node)
{
  g_return_val_if_fail (SP_IS_FLAME_GRAPH (self), NULL);
  g_return_val_if_fail (self->tree != NULL && node < self->tree->n_nodes, NULL);

  return tooltip_markup (self, node);
}

guint32
sp_flame_graph_node_at (SpFlameGraph *self,
                        double x,
                        double y)
{
  const SpFlameFrame *frame;

  g_return_val_if_fail (SP_IS_FLAME_GRAPH (self), SP_CALL_TREE_NONE);

  frame = frame_at (self, x, y);
  return frame != NULL ? frame->node : SP_CALL_TREE_NONE;
}

/* A right-click picks the frame under the pointer, without zooming: the
 * menu's actions apply to it. */
static gboolean
select_at (GtkWidget *widget,
           double x,
           double y)
{
  SpFlameGraph *self = SP_FLAME_GRAPH (widget);
  guint32 node = sp_flame_graph_node_at (self, x, y);

  if (node == SP_CALL_TREE_NONE)
    return FALSE;
  self->selected = node;
  return TRUE;
}

void
sp_flame_graph_set_context_menu (SpFlameGraph *self,
                                 GMenuModel *menu)
{
  g_return_if_fail (SP_IS_FLAME_GRAPH (self));
  g_return_if_fail (menu == NULL || G_IS_MENU_MODEL (menu));

  _sp_context_menu_set_model (GTK_WIDGET (self), menu, select_at);
}

GArray *
sp_flame_graph_get_selected_path (SpFlameGraph *self)
{
  g_return_val_if_fail (SP_IS_FLAME_GRAPH (self), NULL);

  if (self->tree == NULL || self->selected == 0)
    return NULL;
  return sp_call_tree_get_path (self->tree, self->selected);
}

/* The nodes whose function's name contains text, heaviest first (ties in
 * the tree's order). */
static GArray *
matching_nodes (SpFlameGraph *self,
                const char *text)
{
  g_autofree gboolean *matches = sp_function_search_match (self->profile, self->tree->n_functions, text);

  return _sp_heaviest_nodes (self->tree, matches);
}

gboolean
sp_flame_graph_search_next (SpFlameGraph *self,
                            const char *text)
{
  g_autoptr (GArray) nodes = NULL;
  g_autofree char *folded = NULL;
  guint next = 0;

  g_return_val_if_fail (SP_IS_FLAME_GRAPH (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  if (self->tree == NULL || text[0] == '\0')
    return FALSE;
  sp_flame_graph_set_search (self, text);
  nodes = matching_nodes (self, text);
  if (nodes->len == 0)
    return FALSE;
  folded = g_utf8_casefold (text, -1);
  for (guint i = 0; g_strcmp0 (folded, self->last_search) == 0 && i < nodes->len; i++)
    if (g_array_index (nodes, guint32, i) == self->zoom)
      next = (i + 1) % nodes->len;
  g_free (self->last_search);
  self->last_search = g_steal_pointer (&folded);
  sp_flame_graph_zoom_to (self, g_array_index (nodes, guint32, next));
  return TRUE;
}

void
sp_flame_graph_set_painter (SpFlameGraph *self,
                            SpFlameColourFunc colour,
                            SpFlameTooltipFunc tooltip,
                            gpointer user_data)
{
  self->painter_colour = colour;
  self->painter_tooltip = tooltip;
  self->painter_data = user_data;
  invalidate_render (self);
}
