/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline-states.c: thread states drawn along the timeline's lanes. */
#include "sp-timeline-states-private.h"

#include "sp-blocking-names.h"
#include "sp-timeline-viewport.h"

/* Green runs, amber waits for a CPU, red waits for something else: the
 * colours people know from Hotspot's and the kernel tools' state bars. */
static const GdkRGBA state_colours[3] = {
  [SP_THREAD_RUNNING] = { 0.30f, 0.69f, 0.31f, 1 },
  [SP_THREAD_BLOCKED] = { 0.86f, 0.30f, 0.27f, 0.85f },
  [SP_THREAD_RUNNABLE] = { 0.97f, 0.66f, 0.15f, 1 },
};

static const char *state_names[3] = {
  [SP_THREAD_RUNNING] = "Running",
  [SP_THREAD_BLOCKED] = "Blocked",
  [SP_THREAD_RUNNABLE] = "Runnable",
};

static int
dominant_state (const SpStateBucket *bucket)
{
  int best = -1;
  guint64 most = 0;

  for (int s = 0; s < 3; s++)
    if (bucket->ns[s] > most)
      {
        most = bucket->ns[s];
        best = s;
      }
  return best;
}

/* One cairo path per state (a lane has hundreds of buckets: see the
 * timeline's render_bars). */
void
_sp_timeline_states_render (const SpThreadStates *states,
                            GtkSnapshot *snapshot,
                            guint thread,
                            guint64 from_ns,
                            guint64 to_ns,
                            guint n_buckets,
                            double x,
                            double y,
                            double width)
{
  g_autofree SpStateBucket *buckets = g_new (SpStateBucket, MAX (n_buckets, 1));
  double bucket_w = width / MAX (n_buckets, 1);
  cairo_t *cr;

  if (n_buckets == 0 || to_ns <= from_ns)
    return;
  sp_thread_states_bucket (states, thread, from_ns, to_ns, n_buckets, buckets);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (x, y, width, SP_TIMELINE_STATE_HEIGHT));
  for (int s = 0; s < 3; s++)
    {
      gboolean any = FALSE;

      for (guint b = 0; b < n_buckets; b++)
        if (dominant_state (&buckets[b]) == s)
          {
            cairo_rectangle (cr, x + b * bucket_w, y, bucket_w, SP_TIMELINE_STATE_HEIGHT);
            any = TRUE;
          }
      if (!any)
        continue;
      gdk_cairo_set_source_rgba (cr, &state_colours[s]);
      cairo_fill (cr);
    }
  cairo_destroy (cr);
}

void
_sp_timeline_states_render_key (GtkSnapshot *snapshot,
                                PangoLayout *layout,
                                double width,
                                double height,
                                const GdkRGBA *fg)
{
  static const int order[3] = { SP_THREAD_RUNNING, SP_THREAD_RUNNABLE, SP_THREAD_BLOCKED };
  static const char *words[3] = { "running", "runnable", "blocked" };
  g_autoptr (PangoAttrList) small = pango_attr_list_new ();
  double x = 6, row_height = height / 2;

  /* Small, in two rows (running and runnable, then blocked): the words
   * the Threads page uses, in the label column's width. */
  pango_attr_list_insert (small, pango_attr_scale_new (0.7));
  pango_layout_set_attributes (layout, small);
  pango_layout_set_width (layout, -1);
  for (int i = 0; i < 3; i++)
    {
      double y = i < 2 ? 0 : row_height;
      int tw, th;

      if (i == 2)
        x = 6;
      pango_layout_set_text (layout, words[i], -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      if (x + 10 + tw > width)
        break;
      gtk_snapshot_append_color (snapshot, &state_colours[order[i]],
                                 &GRAPHENE_RECT_INIT (x, y + (row_height - 7) / 2, 7, 7));
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + 10, y + (row_height - th) / 2));
      gtk_snapshot_append_layout (snapshot, layout, fg);
      gtk_snapshot_restore (snapshot);
      x += 10 + tw + 8;
    }
  pango_layout_set_attributes (layout, NULL);
}

static char *
describe_stretch (const SpStateInterval *interval,
                  GHashTable *names,
                  guint64 data_from_ns)
{
  g_autofree char *duration = sp_timeline_format_duration (interval->end_ns - interval->start_ns);
  g_autofree char *where = NULL;
  gboolean new_thread = interval->stack == SP_THREAD_NOT_STARTED_STACK;
  const char *name;

  if (interval->state == SP_THREAD_BLOCKED || interval->state == SP_THREAD_RUNNABLE)
    {
      name = sp_blocking_names_lookup (names, interval->stack);
      if (name != NULL)
        {
          g_autofree char *escaped = g_markup_escape_text (name, -1);

          where = g_strdup_printf ("\nin <b>%s</b>", escaped);
        }
      else if (interval->state == SP_THREAD_BLOCKED)
        where = g_strdup ("\n(no stack recorded)");
    }
  return g_strdup_printf ("%s%s for %s%s (%.6f s to %.6f s)%s", state_names[interval->state],
                          new_thread                                ? " (new, waiting for its first CPU)"
                          : interval->state == SP_THREAD_RUNNABLE ? " (preempted, waiting for a CPU)"
                                                                  : "",
                          duration,
                          interval->open ? " so far" : "", ((gint64) interval->start_ns - (gint64) data_from_ns) / 1e9,
                          ((gint64) interval->end_ns - (gint64) data_from_ns) / 1e9, where != NULL ? where : "");
}

/* "In this column (2.1 ms): 12% running, 88% blocked". */
static char *
describe_bucket (const SpThreadStates *states,
                 guint thread,
                 guint64 from_ns,
                 guint64 to_ns)
{
  static const int order[3] = { SP_THREAD_RUNNING, SP_THREAD_RUNNABLE, SP_THREAD_BLOCKED };
  g_autofree char *span = sp_timeline_format_duration (to_ns - from_ns);
  GString *text = g_string_new (NULL);
  SpStateBucket bucket;

  sp_thread_states_bucket (states, thread, from_ns, to_ns, 1, &bucket);
  g_string_append_printf (text, "In this column (%s):", span);
  for (int i = 0; i < 3; i++)
    {
      double percent = 100.0 * bucket.ns[order[i]] / (to_ns - from_ns);

      if (bucket.ns[order[i]] == 0)
        continue;
      if (percent < 0.5)
        g_string_append (text, " <1%");
      else
        g_string_append_printf (text, " %.0f%%", percent);
      g_string_append (text, i == 0 ? " running" : i == 1 ? " runnable" : " blocked");
    }
  return g_string_free (text, FALSE);
}

char *
_sp_timeline_states_describe (const SpThreadStates *states,
                              GHashTable *names,
                              guint thread,
                              guint64 t_ns,
                              guint64 data_from_ns,
                              guint64 bucket_from_ns,
                              guint64 bucket_to_ns)
{
  const SpStateInterval *interval = sp_thread_states_find (states, thread, t_ns);
  g_autofree char *stretch = NULL;
  g_autofree char *bucket = NULL;

  if (interval == NULL)
    return NULL;
  stretch = describe_stretch (interval, names, data_from_ns);
  /* A column wider than the stretch holds others too. */
  if (bucket_to_ns > bucket_from_ns && (interval->start_ns > bucket_from_ns || interval->end_ns < bucket_to_ns))
    bucket = describe_bucket (states, thread, bucket_from_ns, bucket_to_ns);
  return bucket != NULL ? g_strconcat (stretch, "\n", bucket, NULL) : g_steal_pointer (&stretch);
}
