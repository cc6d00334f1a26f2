/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-metric-selector.c: a drop-down of the three metrics. */
#include "sp-metric-selector.h"

struct _SpMetricSelector
{
  GtkWidget    parent_instance;

  GtkDropDown *drop_down;
  gboolean     quiet;       /* set_metric: no "changed" */
  gboolean     times_available;
  SpRecordedBy recorded_by; /* what the tooltip advises without times */
};

enum { SIGNAL_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpMetricSelector, sp_metric_selector, GTK_TYPE_WIDGET)

/* In SpMetric's order. */
static const char *const metric_labels[] = { "CPU samples", "Off-CPU time", "Wall-clock time", NULL };

static const char *times_tooltip =
  "What the call tree, flame graph and function lists count: CPU samples (where the program ran), off-CPU time "
  "(where its threads waited: blocked or runnable, on the stack they switched out with) or wall-clock time (both).";
static const char *no_times_tooltip =
  "This recording counts CPU samples only. Record with \"Record off-CPU time\" (stackpulse-record --off-cpu) to see "
  "where threads wait: off-CPU and wall-clock time.";
/* perf's switch events are not converted: no recording option to offer. */
static const char *converted_tooltip =
  "This recording, converted from a perf.data, counts CPU samples only: " SP_RECORD_ADVICE_NO_OFF_CPU_FROM_PERF ".";

static void
selected_changed (GtkDropDown *drop_down,
                  GParamSpec *pspec,
                  SpMetricSelector *self)
{
  if (!self->quiet)
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

SpMetric
sp_metric_selector_get_metric (SpMetricSelector *self)
{
  g_return_val_if_fail (SP_IS_METRIC_SELECTOR (self), SP_METRIC_CPU);

  return (SpMetric) gtk_drop_down_get_selected (self->drop_down);
}

void
sp_metric_selector_set_metric (SpMetricSelector *self,
                               SpMetric metric)
{
  g_return_if_fail (SP_IS_METRIC_SELECTOR (self));

  self->quiet = TRUE;
  gtk_drop_down_set_selected (self->drop_down, metric);
  self->quiet = FALSE;
}

static void
update_tooltip (SpMetricSelector *self)
{
  const char *text = times_tooltip;

  if (!self->times_available)
    text = self->recorded_by == SP_RECORDED_BY_PERF ? converted_tooltip : no_times_tooltip;
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), text);
}

void
sp_metric_selector_set_times_available (SpMetricSelector *self,
                                        gboolean available)
{
  g_return_if_fail (SP_IS_METRIC_SELECTOR (self));

  if (!available)
    sp_metric_selector_set_metric (self, SP_METRIC_CPU);
  self->times_available = available;
  gtk_widget_set_sensitive (GTK_WIDGET (self->drop_down), available);
  update_tooltip (self);
}

void
sp_metric_selector_set_recorded_by (SpMetricSelector *self,
                                    SpRecordedBy recorded_by)
{
  g_return_if_fail (SP_IS_METRIC_SELECTOR (self));

  self->recorded_by = recorded_by;
  update_tooltip (self);
}

static void
sp_metric_selector_dispose (GObject *object)
{
  SpMetricSelector *self = SP_METRIC_SELECTOR (object);

  g_clear_pointer ((GtkWidget **) &self->drop_down, gtk_widget_unparent);
  G_OBJECT_CLASS (sp_metric_selector_parent_class)->dispose (object);
}

static void
sp_metric_selector_class_init (SpMetricSelectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_metric_selector_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 0);
}

static void
sp_metric_selector_init (SpMetricSelector *self)
{
  self->drop_down = GTK_DROP_DOWN (gtk_drop_down_new_from_strings (metric_labels));
  gtk_widget_set_parent (GTK_WIDGET (self->drop_down), GTK_WIDGET (self));
  g_signal_connect (self->drop_down, "notify::selected", G_CALLBACK (selected_changed), self);
  sp_metric_selector_set_times_available (self, FALSE);
}

SpMetricSelector *
sp_metric_selector_new (void)
{
  return g_object_new (SP_TYPE_METRIC_SELECTOR, NULL);
}
