/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline-view-private.h: the timeline view's state, shared by its
 * files (sp-timeline-view.c draws and takes input, sp-timeline-tooltip.c
 * says what is under the pointer). Private to ui/. */
#pragma once

#include "sp-thread-states.h"
#include "sp-timeline-view.h"
#include "sp-timeline-viewport.h"

G_BEGIN_DECLS

#define LABEL_WIDTH     160
#define RULER_HEIGHT    24
#define LANE_HEIGHT     28

/* A recording of the whole system groups its lanes (sp-timeline-groups.c):
 * the CPU-usage lane on top, then a lane per process that unfolds into
 * its threads' lanes. Any other recording has thread lanes only. */
typedef enum {
  LANE_THREAD,
  LANE_PROCESS,
  LANE_CPU,
} LaneKind;

typedef struct {
  guint32  thread;   /* index into the reader's thread table; G_MAXUINT32 for another kind */
  gint32   pid;
  guint64  tid;
  char    *label;
  LaneKind kind;
  const GArray *threads; /* PROCESS: its thread indexes (guint32), the process rows' */
} Lane;

typedef enum {
  DRAG_NONE,
  DRAG_SELECT,
  DRAG_PAN,
} DragMode;

struct _SpTimelineView
{
  GtkWidget      parent_instance;

  /* Owned references */
  GArray        *lanes;           /* Lane, top to bottom */
  SpTimeline    *timeline;        /* drawn: for the visible range, unless stale */
  GCancellable  *counting;        /* a timeline being counted on a worker, or NULL */
  SpSampleIndex *counting_index;  /* what it counts (not a reference: compared only) */
  guint64        counting_from_ns;
  guint64        counting_to_ns;
  guint          counting_buckets;
  GskRenderNode *render_node;     /* for render_width x render_height */

  SpSampleIndex *index;           /* a snapshot: immutable */
  GArray        *threads;         /* SpThreadRow: immutable */
  SpThreadStates *states;         /* or NULL: immutable */
  GHashTable    *blocking_names;  /* with states: immutable */
  GArray        *processes;       /* SpProcessRow, or NULL: lanes grouped by process when set */
  GHashTable    *expanded;        /* the pids whose process lanes are unfolded */
  GHashTable    *hidden;          /* with processes: thread indices unticked, left out of
                                   * the lanes and of the CPU-usage lane */
  guint32        process_max;     /* the busiest bucket of a process lane, of the CPU lane */
  guint32        cpu_max;
  guint          n_cpus;          /* with processes: 0 when unknown */
  guint64        interval_ns;

  guint64        data_from_ns;    /* the first sample */
  guint64        data_span_ns;    /* to just past the last one, >= MIN_SPAN_NS */
  guint64        view_from_ns;
  guint64        view_span_ns;
  guint64        sel_from_ns;     /* 0, G_MAXUINT64: none */
  guint64        sel_to_ns;

  DragMode       drag_mode;
  guint64        drag_anchor_ns;  /* SELECT: where it began; PAN: view_from_ns then */
  guint64        drag_to_ns;      /* SELECT: where the pointer is */
  double         drag_start_x;
  double         pointer_x;       /* -1 when the pointer is elsewhere */

  int            render_width;
  int            render_height;
  guint          whole_range : 1; /* the view shows all and follows growth */
  guint          timeline_stale : 1; /* range, width or data changed: drawn until its successor is counted */
};

static inline int
plot_width (SpTimelineView *self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)) - LABEL_WIDTH, 0);
}

static inline gboolean
has_data (SpTimelineView *self)
{
  return self->index != NULL && self->data_span_ns > 0;
}

/* The time axis as sp-timeline-viewport.h computes with it. */
static inline SpTimelineViewport
viewport (SpTimelineView *self)
{
  return (SpTimelineViewport) { self->data_from_ns, self->data_span_ns, self->view_from_ns, self->view_span_ns,
                                plot_width (self) };
}

/* The time at widget x (which may be outside the plot), as a double. */
static inline double
time_at (SpTimelineView *self,
         double x)
{
  SpTimelineViewport vp = viewport (self);

  return sp_timeline_viewport_time_at (&vp, x - LABEL_WIDTH);
}

static inline double
x_of (SpTimelineView *self,
      double t_ns)
{
  SpTimelineViewport vp = viewport (self);

  return LABEL_WIDTH + sp_timeline_viewport_x_of (&vp, t_ns);
}

/* Makes the buckets for the visible range and width, when they changed:
 * at once for a range of few samples, else on a worker, the stale
 * timeline drawn (at its own times) until the new one is counted. */
void _sp_timeline_view_ensure_timeline (SpTimelineView *self);

/* sp-timeline-groups.c: the lanes of a recording of the whole system. */
void _sp_timeline_groups_build_lanes (SpTimelineView *self);
/* With a new timeline: the busiest buckets of process and CPU lanes. */
void _sp_timeline_groups_measure (SpTimelineView *self);
/* A lane's samples in bucket b of the timeline, and the count its bars
 * are scaled to. */
guint32 _sp_timeline_lane_count (SpTimelineView *self,
                                 const Lane *lane,
                                 guint b);
guint32 _sp_timeline_lane_max (SpTimelineView *self,
                               const Lane *lane);
/* What count samples of the CPU lane's bucket are of all the CPUs could
 * give it (percent); G_MAXUINT when the CPUs are unknown. */
guint _sp_timeline_groups_busy_percent (SpTimelineView *self,
                                        guint32 count);
/* A click on a lane's label: a process lane unfolds or folds. */
gboolean _sp_timeline_groups_label_clicked (SpTimelineView *self,
                                            const Lane *lane);

gboolean _sp_timeline_view_query_tooltip (GtkWidget *widget,
                                          int x,
                                          int y,
                                          gboolean keyboard_mode,
                                          GtkTooltip *tooltip);

G_END_DECLS
