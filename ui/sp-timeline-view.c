/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline-view.c: data/'s SpTimeline drawn as one lane per thread.
 *
 * Sits beside the call tree and the flame graph: the range a person selects
 * here becomes the filter's time range there (the app wires the
 * "selection-changed" signal). Times are the spool's sample timestamps
 * (ns); the ruler counts seconds from the first sample.
 *
 * From data to pixels: the lanes (threads sorted by pid, then tid) come
 * from the reader's thread table; an SpTimeline with one bucket per
 * BUCKET_WIDTH pixels of the visible range is rebuilt when the width, the
 * visible range or the data change (on a worker when the range holds many
 * samples, the old one drawn meanwhile); the ruler, lanes and bars are one
 * cached render node. The selection overlay (cheap, and moving while a
 * drag goes on) is drawn over it on every snapshot.
 *
 * Input: primary-button drag selects, middle-button or shift+primary drag
 * pans, Ctrl+wheel zooms around the pointer, horizontal or shift+wheel
 * pans (a plain vertical wheel is left to a scrolled window around us),
 * Escape or a double click clears the selection. With an off-CPU
 * companion, each lane's bottom shows the thread's states
 * (sp-timeline-states.c). */
#include "sp-timeline-view.h"

#include "sp-thread-rows.h"

#include "sp-timeline-states-private.h"
#include "sp-timeline-view-private.h"

#include <math.h>

#define LABEL_PADDING   6
#define BAR_MARGIN      3      /* space above the tallest bar */
#define BUCKET_WIDTH    2      /* pixels per timeline bucket */
#define MIN_TICK_SPACE  80     /* pixels between ruler ticks, at least */
#define MIN_SPAN_NS     SP_TIMELINE_MIN_SPAN_NS
#define MIN_DRAG        3      /* a shorter primary drag is a click */
#define SCROLL_PAN      0.1    /* of the visible span per wheel step */
#define SCROLL_ZOOM     1.25   /* per wheel step */
/* Up to this many samples in the visible range, the buckets are counted
 * in the frame that needs them (about 8 ns a sample: 2 ms); more are
 * counted on a worker, as a frame must not take longer (issue 18: a 50M
 * recording took 390 ms on the main thread, every resize, zoom and live
 * update). */
#define SYNC_COUNT_MAX  250000

enum { SELECTION_CHANGED, N_SIGNALS };

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpTimelineView, sp_timeline_view, GTK_TYPE_WIDGET)

static void
invalidate_render (SpTimelineView *self)
{
  g_clear_pointer (&self->render_node, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The range, width or data changed: the timeline is kept, stale, to
 * draw until its successor is counted. */
static void
invalidate_timeline (SpTimelineView *self)
{
  self->timeline_stale = TRUE;
  invalidate_render (self);
}

static void
cancel_counting (SpTimelineView *self)
{
  if (self->counting == NULL)
    return;
  g_cancellable_cancel (self->counting);
  g_clear_object (&self->counting);
  self->counting_index = NULL;
}

static void
clear_lane (gpointer data)
{
  g_free (((Lane *) data)->label);
}

static gint
compare_lanes (gconstpointer a,
               gconstpointer b)
{
  const Lane *x = a, *y = b;

  if (x->pid != y->pid)
    return x->pid < y->pid ? -1 : 1;
  if (x->tid != y->tid)
    return x->tid < y->tid ? -1 : 1;
  return 0;
}


/* The ruler and the lanes: grid lines and the selection stop there. */
static int
content_height (SpTimelineView *self,
                int height)
{
  return MIN (height, RULER_HEIGHT + (int) self->lanes->len * LANE_HEIGHT);
}





/* A time at x, held inside the recording. */
static guint64
clamped_time_at (SpTimelineView *self,
                 double x)
{
  SpTimelineViewport vp = viewport (self);

  return sp_timeline_viewport_clamped_time_at (&vp, x - LABEL_WIDTH);
}

/* Moves the visible range, held inside the recording. */
static void
set_view (SpTimelineView *self,
          double from_ns,
          guint64 span_ns)
{
  SpTimelineViewport vp = viewport (self);
  gboolean changed = sp_timeline_viewport_set_view (&vp, from_ns, span_ns);

  self->whole_range = sp_timeline_viewport_shows_all (&vp);
  if (!changed)
    return;
  self->view_from_ns = vp.view_from_ns;
  self->view_span_ns = vp.view_span_ns;
  invalidate_timeline (self);
}

/* Scales the span by factor around widget x (the middle when x is not over
 * the plot). */
static void
zoom_at (SpTimelineView *self,
         double factor,
         double x)
{
  SpTimelineViewport vp = viewport (self);
  double from_ns;
  guint64 span_ns;

  if (!has_data (self))
    return;
  sp_timeline_viewport_zoomed (&vp, factor, x - LABEL_WIDTH, &from_ns, &span_ns);
  set_view (self, from_ns, span_ns);
}

static void
pan_by (SpTimelineView *self,
        double delta_ns)
{
  if (has_data (self))
    set_view (self, self->view_from_ns + delta_ns, self->view_span_ns);
}

/* A lane per thread, named as the thread rows name them. */
static void
update_lanes (SpTimelineView *self)
{
  if (self->processes != NULL)
    {
      _sp_timeline_groups_build_lanes (self);
      return;
    }
  g_array_set_size (self->lanes, 0);
  for (guint i = 0; i < self->threads->len; i++)
    {
      const SpThreadRow *row = &g_array_index (self->threads, SpThreadRow, i);
      Lane lane = { row->thread, row->pid, row->tid, NULL };

      if (row->name != NULL)
        lane.label = g_strdup_printf ("%s (%" G_GUINT64_FORMAT ")", row->name, lane.tid);
      else
        lane.label = g_strdup_printf ("%" G_GUINT64_FORMAT, lane.tid);
      g_array_append_val (self->lanes, lane);
    }
  g_array_sort (self->lanes, compare_lanes);
}

/* The recording's range: from the first sample or thread state to just
 * past the last (a program that mostly waits has few samples: `sleep 1`
 * has one, as it exits, a second after it blocked). Times count from
 * there, as in the report. */
static void
update_range (SpTimelineView *self)
{
  guint64 first = 0, last = 0, states_first, states_last;
  gboolean any = self->index != NULL && sp_sample_index_get_time_span (self->index, &first, &last);

  if (self->states != NULL && sp_thread_states_get_span (self->states, &states_first, &states_last))
    {
      first = any ? MIN (first, states_first) : states_first;
      last = MAX (any ? last : 0, states_last > 0 ? states_last - 1 : 0);
      any = last >= first;
    }
  if (!any)
    {
      self->data_from_ns = self->data_span_ns = 0;
      self->view_from_ns = self->view_span_ns = 0;
      return;
    }
  self->data_from_ns = first;
  self->data_span_ns = MAX (last - first + 1, MIN_SPAN_NS);
  if (self->whole_range || self->view_span_ns == 0)
    set_view (self, self->data_from_ns, self->data_span_ns);
  else
    set_view (self, self->view_from_ns, self->view_span_ns);
}

static void
take_timeline (SpTimelineView *self,
               SpTimeline *timeline)
{
  g_clear_pointer (&self->timeline, sp_timeline_free);
  self->timeline = timeline;
  self->timeline_stale = FALSE;
  _sp_timeline_groups_measure (self);
}

static void
counted (GObject *source,
         GAsyncResult *result,
         gpointer user_data)
{
  SpTimelineView *self = SP_TIMELINE_VIEW (source);
  SpTimeline *timeline = sp_timeline_new_finish (result, NULL);

  /* Cancelled: a newer count replaced it, or the data went away. */
  if (timeline == NULL)
    return;
  g_clear_object (&self->counting);
  self->counting_index = NULL;
  take_timeline (self, timeline);
  invalidate_render (self);
}

void
_sp_timeline_view_ensure_timeline (SpTimelineView *self)
{
  guint n_buckets = MAX (plot_width (self) / BUCKET_WIDTH, 1);
  guint64 from_ns = self->view_from_ns, to_ns = self->view_from_ns + self->view_span_ns;
  gsize first, last;

  if (self->timeline != NULL && !self->timeline_stale && self->timeline->n_buckets == n_buckets)
    return;
  if (!has_data (self))
    {
      cancel_counting (self);
      g_clear_pointer (&self->timeline, sp_timeline_free);
      self->timeline_stale = FALSE;
      return;
    }
  if (self->counting != NULL && self->counting_index == self->index && self->counting_from_ns == from_ns
      && self->counting_to_ns == to_ns && self->counting_buckets == n_buckets)
    return;
  cancel_counting (self);
  sp_sample_index_find_range (self->index, from_ns, to_ns, &first, &last);
  if (last - first <= SYNC_COUNT_MAX)
    {
      take_timeline (self, sp_timeline_new (self->index, from_ns, to_ns, n_buckets));
      return;
    }
  self->counting = g_cancellable_new ();
  self->counting_index = self->index;
  self->counting_from_ns = from_ns;
  self->counting_to_ns = to_ns;
  self->counting_buckets = n_buckets;
  sp_timeline_new_async (self, self->index, from_ns, to_ns, n_buckets, self->counting, counted, NULL);
}

static void
get_foreground (SpTimelineView *self,
                GdkRGBA *fg)
{
  gtk_style_context_get_color (gtk_widget_get_style_context (GTK_WIDGET (self)), fg);
}

static GdkRGBA
with_alpha (const GdkRGBA *colour,
            float alpha)
{
  GdkRGBA c = *colour;

  c.alpha *= alpha;
  return c;
}

static void
append_text (GtkSnapshot *snapshot,
             PangoLayout *layout,
             const char *text,
             double x,
             double y,
             const GdkRGBA *colour)
{
  pango_layout_set_text (layout, text, -1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, colour);
  gtk_snapshot_restore (snapshot);
}

/* Seconds from the first sample along the top, with faint grid lines
 * through the lanes. */
static void
render_ruler (SpTimelineView *self,
              GtkSnapshot *snapshot,
              PangoLayout *layout,
              int width,
              int height,
              const GdkRGBA *fg)
{
  GdkRGBA shade = with_alpha (fg, 0.05f), line = with_alpha (fg, 0.35f), grid = with_alpha (fg, 0.08f);
  SpTimelineViewport vp = viewport (self);
  int text_width, text_height;
  SpTimelineTicks ticks;

  gtk_snapshot_append_color (snapshot, &shade, &GRAPHENE_RECT_INIT (0, 0, width, RULER_HEIGHT));
  gtk_snapshot_append_color (snapshot, &line, &GRAPHENE_RECT_INIT (0, RULER_HEIGHT - 1, width, 1));
  vp.width = width - LABEL_WIDTH;
  if (!has_data (self) || vp.width <= 0)
    return;
  sp_timeline_viewport_ticks (&vp, MIN_TICK_SPACE, &ticks);
  pango_layout_set_width (layout, -1);
  for (guint64 k = ticks.first;; k++)
    {
      double x = round (LABEL_WIDTH + sp_timeline_viewport_x_of (&vp, (double) (self->data_from_ns + k * ticks.step_ns)));
      g_autofree char *text = NULL;

      if (x >= width)
        break;
      gtk_snapshot_append_color (snapshot, &line, &GRAPHENE_RECT_INIT (x, RULER_HEIGHT - 6, 1, 5));
      gtk_snapshot_append_color (snapshot, &grid, &GRAPHENE_RECT_INIT (x, RULER_HEIGHT, 1, height - RULER_HEIGHT));
      text = sp_timeline_ticks_label (&ticks, k);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &text_width, &text_height);
      /* The last tick's label may not fit: a tick alone is better than a cut number. */
      if (x + 3 + text_width <= width)
        append_text (snapshot, layout, text, x + 3, (RULER_HEIGHT - 6 - text_height) / 2.0 + 1, fg);
    }
}

/* The bars' baseline: above the state strip when there is one. */
static double
bars_bottom (SpTimelineView *self)
{
  return LANE_HEIGHT - 1 - (self->states != NULL ? SP_TIMELINE_STATE_HEIGHT + 1 : 0);
}

/* A lane's bars, grown from its bottom, scaled by the busiest bucket of
 * all lanes (so lanes compare). One cairo node per lane, its bars one
 * path: as colour nodes (hundreds a lane), every frame of a drag paid GTK
 * 4.8's cairo renderer for each bar again, on or off the damaged area. */
static void
render_bars (SpTimelineView *self,
             GtkSnapshot *snapshot,
             const Lane *lane,
             double y)
{
  /* A process's and the CPU's: its threads' summed, darker. */
  static const GdkRGBA bars[] = { [LANE_THREAD] = { 0.21f, 0.52f, 0.89f, 1 },
                                  [LANE_PROCESS] = { 0.10f, 0.37f, 0.71f, 1 },
                                  [LANE_CPU] = { 0.18f, 0.55f, 0.34f, 1 } };
  const SpTimeline *tl = self->timeline;
  guint32 max = _sp_timeline_lane_max (self, lane);
  double bucket_ns, bucket_w, scale;
  cairo_t *cr = NULL;

  if (tl == NULL || max == 0 || (lane->kind == LANE_THREAD && lane->thread >= tl->n_threads))
    return;
  /* At the timeline's own times: a stale one (another range) is drawn
   * where its samples were until its successor is counted. */
  bucket_ns = (double) (tl->to_ns - tl->from_ns) / tl->n_buckets;
  bucket_w = bucket_ns * plot_width (self) / (double) MAX (self->view_span_ns, 1);
  scale = (bars_bottom (self) - BAR_MARGIN) / (double) max;
  for (guint b = 0; b < tl->n_buckets; b++)
    {
      guint32 count = _sp_timeline_lane_count (self, lane, b);
      double h;

      if (count == 0)
        continue;
      if (cr == NULL)
        cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (LABEL_WIDTH, y, plot_width (self), LANE_HEIGHT));
      h = MAX (round (count * scale), 1);
      cairo_rectangle (cr, x_of (self, (double) tl->from_ns + b * bucket_ns), y + bars_bottom (self) - h, bucket_w, h);
    }
  if (cr == NULL)
    return;
  gdk_cairo_set_source_rgba (cr, &bars[lane->kind]);
  cairo_fill (cr);
  cairo_destroy (cr);
}

static void
render_lanes (SpTimelineView *self,
              GtkSnapshot *snapshot,
              PangoLayout *layout,
              int width,
              const GdkRGBA *fg)
{
  GdkRGBA stripe = with_alpha (fg, 0.03f), line = with_alpha (fg, 0.12f), process_line = with_alpha (fg, 0.4f);
  int text_height;

  pango_layout_set_width (layout, (LABEL_WIDTH - 2 * LABEL_PADDING) * PANGO_SCALE);
  for (guint i = 0; i < self->lanes->len; i++)
    {
      const Lane *lane = &g_array_index (self->lanes, Lane, i);
      double y = RULER_HEIGHT + (double) i * LANE_HEIGHT;
      /* A stronger line where the next process begins. */
      gboolean last_of_process = i + 1 == self->lanes->len
                                 || g_array_index (self->lanes, Lane, i + 1).pid != lane->pid;

      if (i % 2 == 1)
        gtk_snapshot_append_color (snapshot, &stripe, &GRAPHENE_RECT_INIT (0, y, width, LANE_HEIGHT));
      gtk_snapshot_append_color (snapshot, last_of_process ? &process_line : &line,
                                 &GRAPHENE_RECT_INIT (0, y + LANE_HEIGHT - 1, width, 1));
      pango_layout_set_text (layout, lane->label, -1);
      pango_layout_get_pixel_size (layout, NULL, &text_height);
      append_text (snapshot, layout, lane->label, LABEL_PADDING, y + floor ((LANE_HEIGHT - text_height) / 2.0), fg);
      render_bars (self, snapshot, lane, y);
      if (self->states != NULL && self->timeline != NULL && lane->kind == LANE_THREAD)
        _sp_timeline_states_render (self->states, snapshot, lane->thread, self->view_from_ns,
                                    self->view_from_ns + self->view_span_ns, self->timeline->n_buckets, LABEL_WIDTH,
                                    y + LANE_HEIGHT - 1 - SP_TIMELINE_STATE_HEIGHT, plot_width (self));
    }
}

static GskRenderNode *
render (SpTimelineView *self,
        int width,
        int height)
{
  g_autoptr (GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), NULL);
  GdkRGBA fg, border;

  get_foreground (self, &fg);
  border = with_alpha (&fg, 0.25f);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  _sp_timeline_view_ensure_timeline (self);
  render_ruler (self, snapshot, layout, width, content_height (self, height), &fg);
  render_lanes (self, snapshot, layout, width, &fg);
  if (self->states != NULL)
    _sp_timeline_states_render_key (snapshot, layout, LABEL_WIDTH, RULER_HEIGHT, &fg);
  gtk_snapshot_append_color (snapshot, &border, &GRAPHENE_RECT_INIT (LABEL_WIDTH - 1, 0, 1, content_height (self, height)));
  return gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
}

/* The selection, or the range being dragged out, over the plot. */
static void
render_selection (SpTimelineView *self,
                  GtkSnapshot *snapshot,
                  int width,
                  int height)
{
  static const GdkRGBA fill = { 0.21f, 0.52f, 0.89f, 0.22f };
  static const GdkRGBA edge = { 0.21f, 0.52f, 0.89f, 0.9f };
  static const GdkRGBA label_bg = { 0.21f, 0.52f, 0.89f, 1 };
  static const GdkRGBA label_fg = { 1, 1, 1, 1 };
  guint64 from = self->sel_from_ns, to = self->sel_to_ns;
  g_autoptr (PangoLayout) layout = NULL;
  g_autofree char *text = NULL;
  double x0, x1, tag_w, tag_x;
  int tw, th;

  if (self->drag_mode == DRAG_SELECT)
    {
      from = MIN (self->drag_anchor_ns, self->drag_to_ns);
      to = MAX (self->drag_anchor_ns, self->drag_to_ns);
    }
  else if (to == G_MAXUINT64)
    return;
  if (!has_data (self) || to <= from)
    return;
  x0 = MAX (round (x_of (self, (double) from)), LABEL_WIDTH);
  x1 = MIN (round (x_of (self, (double) to)), width);
  if (x1 < LABEL_WIDTH || x0 > width)
    return;
  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (LABEL_WIDTH, 0, width - LABEL_WIDTH, height));
  gtk_snapshot_append_color (snapshot, &fill, &GRAPHENE_RECT_INIT (x0, 0, MAX (x1 - x0, 1), height));
  gtk_snapshot_append_color (snapshot, &edge, &GRAPHENE_RECT_INIT (x0, 0, 1, height));
  gtk_snapshot_append_color (snapshot, &edge, &GRAPHENE_RECT_INIT (x1 - 1, 0, 1, height));
  /* The duration on a tag in the ruler, inside the range when it fits. */
  text = sp_timeline_format_duration (to - from);
  layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  pango_layout_get_pixel_size (layout, &tw, &th);
  tag_w = tw + 8;
  tag_x = MIN (x0 + MAX ((x1 - x0 - tag_w) / 2, 0), width - tag_w);
  gtk_snapshot_append_color (snapshot, &label_bg, &GRAPHENE_RECT_INIT (tag_x, 2, tag_w, RULER_HEIGHT - 4));
  append_text (snapshot, layout, text, tag_x + 4, 2 + (RULER_HEIGHT - 4 - th) / 2.0, &label_fg);
  gtk_snapshot_pop (snapshot);
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double x,
               double y,
               SpTimelineView *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  self->drag_mode = DRAG_NONE;
  if (!has_data (self))
    return;
  self->drag_start_x = x;
  if (button == GDK_BUTTON_MIDDLE || (button == GDK_BUTTON_PRIMARY && (state & GDK_SHIFT_MASK)))
    {
      self->drag_mode = DRAG_PAN;
      self->drag_anchor_ns = self->view_from_ns;
    }
  else if (button == GDK_BUTTON_PRIMARY && x >= LABEL_WIDTH)
    {
      self->drag_mode = DRAG_SELECT;
      self->drag_anchor_ns = self->drag_to_ns = clamped_time_at (self, x);
    }
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double dx,
                double dy,
                SpTimelineView *self)
{
  if (self->drag_mode == DRAG_PAN)
    {
      double ns_per_px = (double) self->view_span_ns / MAX (plot_width (self), 1);

      set_view (self, self->drag_anchor_ns - dx * ns_per_px, self->view_span_ns);
    }
  else if (self->drag_mode == DRAG_SELECT)
    {
      self->drag_to_ns = clamped_time_at (self, self->drag_start_x + dx);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double dx,
             double dy,
             SpTimelineView *self)
{
  DragMode mode = self->drag_mode;

  self->drag_mode = DRAG_NONE;
  if (mode == DRAG_SELECT && fabs (dx) >= MIN_DRAG)
    {
      guint64 to = clamped_time_at (self, self->drag_start_x + dx);

      sp_timeline_view_set_selection (self, MIN (self->drag_anchor_ns, to), MAX (self->drag_anchor_ns, to));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_pressed (GtkGestureClick *gesture,
            int n_press,
            double x,
            double y,
            SpTimelineView *self)
{
  int lane = y >= RULER_HEIGHT ? (int) ((y - RULER_HEIGHT) / LANE_HEIGHT) : -1;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (n_press == 1 && x < LABEL_WIDTH && lane >= 0 && lane < (int) self->lanes->len
      && _sp_timeline_groups_label_clicked (self, &g_array_index (self->lanes, Lane, lane)))
    return;
  if (n_press == 2)
    sp_timeline_view_set_selection (self, 0, G_MAXUINT64);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double dx,
           double dy,
           SpTimelineView *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (!has_data (self))
    return FALSE;
  if (state & GDK_CONTROL_MASK)
    {
      zoom_at (self, pow (SCROLL_ZOOM, dy), self->pointer_x);
      return TRUE;
    }
  if (state & GDK_SHIFT_MASK)
    dx = dx != 0 ? dx : dy;
  if (dx == 0)
    return FALSE;
  pan_by (self, dx * SCROLL_PAN * self->view_span_ns);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller,
           double x,
           double y,
           SpTimelineView *self)
{
  self->pointer_x = x;
}

static void
on_leave (GtkEventControllerMotion *controller,
          SpTimelineView *self)
{
  self->pointer_x = -1;
}

static gboolean
clear_selection (GtkWidget *widget,
                 GVariant *args,
                 gpointer user_data)
{
  SpTimelineView *self = SP_TIMELINE_VIEW (widget);

  if (self->sel_to_ns == G_MAXUINT64)
    return FALSE;
  sp_timeline_view_set_selection (self, 0, G_MAXUINT64);
  return TRUE;
}

static gboolean
zoom_in_binding (GtkWidget *widget,
                 GVariant *args,
                 gpointer user_data)
{
  sp_timeline_view_zoom_in (SP_TIMELINE_VIEW (widget));
  return TRUE;
}

static gboolean
zoom_out_binding (GtkWidget *widget,
                  GVariant *args,
                  gpointer user_data)
{
  sp_timeline_view_zoom_out (SP_TIMELINE_VIEW (widget));
  return TRUE;
}

static void
sp_timeline_view_snapshot (GtkWidget *widget,
                           GtkSnapshot *snapshot)
{
  SpTimelineView *self = SP_TIMELINE_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  guint n_buckets = MAX (plot_width (self) / BUCKET_WIDTH, 1);

  /* A new width needs new buckets, and so a new drawing (no queue_draw:
   * this is the drawing). */
  if (self->timeline != NULL && self->timeline->n_buckets != n_buckets
      && (self->counting == NULL || self->counting_buckets != n_buckets))
    {
      self->timeline_stale = TRUE;
      g_clear_pointer (&self->render_node, gsk_render_node_unref);
    }
  if (self->render_node != NULL && (width != self->render_width || height != self->render_height))
    g_clear_pointer (&self->render_node, gsk_render_node_unref);
  if (self->render_node == NULL)
    {
      self->render_node = render (self, width, height);
      self->render_width = width;
      self->render_height = height;
    }
  if (self->render_node != NULL)
    gtk_snapshot_append_node (snapshot, self->render_node);
  render_selection (self, snapshot, width, content_height (self, height));
}

static void
sp_timeline_view_measure (GtkWidget *widget,
                          GtkOrientation orientation,
                          int for_size,
                          int *minimum,
                          int *natural,
                          int *minimum_baseline,
                          int *natural_baseline)
{
  SpTimelineView *self = SP_TIMELINE_VIEW (widget);

  if (orientation == GTK_ORIENTATION_VERTICAL)
    *minimum = *natural = RULER_HEIGHT + (int) self->lanes->len * LANE_HEIGHT;
  else
    {
      *minimum = LABEL_WIDTH + 40;
      *natural = LABEL_WIDTH + 640;
    }
}

/* Fonts and colours may have changed. */
static void
sp_timeline_view_css_changed (GtkWidget *widget,
                              GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (sp_timeline_view_parent_class)->css_changed (widget, change);
  invalidate_render (SP_TIMELINE_VIEW (widget));
}

/* A count on its way holds the view (its task's source object): cancelled
 * here, it finishes without touching a view that is going away. */
static void
sp_timeline_view_dispose (GObject *object)
{
  cancel_counting (SP_TIMELINE_VIEW (object));

  G_OBJECT_CLASS (sp_timeline_view_parent_class)->dispose (object);
}

static void
sp_timeline_view_finalize (GObject *object)
{
  SpTimelineView *self = SP_TIMELINE_VIEW (object);

  g_clear_pointer (&self->lanes, g_array_unref);
  g_clear_pointer (&self->timeline, sp_timeline_free);
  g_clear_pointer (&self->render_node, gsk_render_node_unref);
  g_clear_pointer (&self->index, sp_sample_index_unref);
  g_clear_pointer (&self->threads, g_array_unref);
  g_clear_pointer (&self->states, sp_thread_states_unref);
  g_clear_pointer (&self->blocking_names, g_hash_table_unref);
  g_clear_pointer (&self->processes, g_array_unref);
  g_clear_pointer (&self->expanded, g_hash_table_unref);
  g_clear_pointer (&self->hidden, g_hash_table_unref);

  G_OBJECT_CLASS (sp_timeline_view_parent_class)->finalize (object);
}

static void
sp_timeline_view_class_init (SpTimelineViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_timeline_view_dispose;
  object_class->finalize = sp_timeline_view_finalize;

  widget_class->snapshot = sp_timeline_view_snapshot;
  widget_class->measure = sp_timeline_view_measure;
  widget_class->css_changed = sp_timeline_view_css_changed;
  widget_class->query_tooltip = _sp_timeline_view_query_tooltip;

  /* The selected range changed (sp_timeline_view_get_selection). */
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);

  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, clear_selection, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, zoom_in_binding, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, zoom_in_binding, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, zoom_out_binding, NULL);
  gtk_widget_class_set_css_name (widget_class, "timeline");
}

static void
add_gestures (SpTimelineView *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *motion = gtk_event_controller_motion_new ();

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), 0);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  g_signal_connect (motion, "enter", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
}

static void
sp_timeline_view_init (SpTimelineView *self)
{
  self->lanes = g_array_new (FALSE, FALSE, sizeof (Lane));
  g_array_set_clear_func (self->lanes, clear_lane);
  self->expanded = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->hidden = g_hash_table_new (g_direct_hash, g_direct_equal);
  self->sel_to_ns = G_MAXUINT64;
  self->pointer_x = -1;
  self->whole_range = TRUE;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  add_gestures (self);
}

SpTimelineView *
sp_timeline_view_new (void)
{
  return g_object_new (SP_TYPE_TIMELINE_VIEW, NULL);
}

void
sp_timeline_view_set_samples (SpTimelineView *self,
                              SpSampleIndex *index,
                              GArray *threads)
{
  guint n_lanes;

  g_return_if_fail (SP_IS_TIMELINE_VIEW (self));
  g_return_if_fail ((index == NULL) == (threads == NULL));

  n_lanes = self->lanes->len;
  if (index == NULL)
    {
      /* Another recording next: all of it, nothing selected. */
      g_clear_pointer (&self->index, sp_sample_index_unref);
      g_clear_pointer (&self->threads, g_array_unref);
      g_clear_pointer (&self->states, sp_thread_states_unref);
      g_clear_pointer (&self->blocking_names, g_hash_table_unref);
      self->whole_range = TRUE;
      self->view_span_ns = 0;
      self->drag_mode = DRAG_NONE;
      sp_timeline_view_set_selection (self, 0, G_MAXUINT64);
      g_array_set_size (self->lanes, 0);
      self->data_from_ns = self->data_span_ns = 0;
      self->view_from_ns = self->view_span_ns = 0;
    }
  else
    {
      sp_sample_index_ref (index);
      g_clear_pointer (&self->index, sp_sample_index_unref);
      self->index = index;
      g_array_ref (threads);
      g_clear_pointer (&self->threads, g_array_unref);
      self->threads = threads;
      update_lanes (self);
      update_range (self);
    }
  if (self->lanes->len != n_lanes)
    gtk_widget_queue_resize (GTK_WIDGET (self));
  /* The data grew even where the range did not move. */
  invalidate_timeline (self);
}

void
sp_timeline_view_get_selection (SpTimelineView *self,
                                guint64 *from_ns,
                                guint64 *to_ns)
{
  g_return_if_fail (SP_IS_TIMELINE_VIEW (self));

  if (from_ns != NULL)
    *from_ns = self->sel_from_ns;
  if (to_ns != NULL)
    *to_ns = self->sel_to_ns;
}

void
sp_timeline_view_set_selection (SpTimelineView *self,
                                guint64 from_ns,
                                guint64 to_ns)
{
  g_return_if_fail (SP_IS_TIMELINE_VIEW (self));

  /* An empty range selects nothing. */
  if (from_ns >= to_ns)
    {
      from_ns = 0;
      to_ns = G_MAXUINT64;
    }
  if (from_ns == self->sel_from_ns && to_ns == self->sel_to_ns)
    return;
  self->sel_from_ns = from_ns;
  self->sel_to_ns = to_ns;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
}

void
sp_timeline_view_zoom_in (SpTimelineView *self)
{
  g_return_if_fail (SP_IS_TIMELINE_VIEW (self));

  zoom_at (self, 0.5, self->pointer_x);
}

void
sp_timeline_view_zoom_out (SpTimelineView *self)
{
  g_return_if_fail (SP_IS_TIMELINE_VIEW (self));

  zoom_at (self, 2.0, self->pointer_x);
}

void
sp_timeline_view_get_visible_range (SpTimelineView *self,
                                    guint64 *from_ns,
                                    guint64 *to_ns)
{
  g_return_if_fail (SP_IS_TIMELINE_VIEW (self));

  *from_ns = self->view_from_ns;
  *to_ns = self->view_from_ns + self->view_span_ns;
}

gboolean
sp_timeline_view_is_counting (SpTimelineView *self)
{
  g_return_val_if_fail (SP_IS_TIMELINE_VIEW (self), FALSE);

  return self->counting != NULL;
}

guint
sp_timeline_view_get_n_lanes (SpTimelineView *self)
{
  g_return_val_if_fail (SP_IS_TIMELINE_VIEW (self), 0);

  return self->lanes->len;
}

const char *
sp_timeline_view_get_lane_label (SpTimelineView *self,
                                 guint lane)
{
  g_return_val_if_fail (SP_IS_TIMELINE_VIEW (self), NULL);
  g_return_val_if_fail (lane < self->lanes->len, NULL);

  return g_array_index (self->lanes, Lane, lane).label;
}

void
sp_timeline_view_set_thread_states (SpTimelineView *self,
                                    SpThreadStates *states,
                                    GHashTable *blocking_names)
{
  g_return_if_fail (SP_IS_TIMELINE_VIEW (self));

  /* Referenced before the old ones go: they may be the same. */
  states = states != NULL ? sp_thread_states_ref (states) : NULL;
  blocking_names = blocking_names != NULL ? g_hash_table_ref (blocking_names) : NULL;
  g_clear_pointer (&self->states, sp_thread_states_unref);
  g_clear_pointer (&self->blocking_names, g_hash_table_unref);
  self->states = states;
  self->blocking_names = blocking_names;
  if (self->index != NULL)
    update_range (self);
  invalidate_timeline (self);
}
