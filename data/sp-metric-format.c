/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-metric-format.c: costs as text (see the header). */
#include "sp-metric-format.h"

/* The units from the largest down, with what a value must reach (once
 * rounded to three digits) to be written in it: 999.6 ms is "1.00 s",
 * not "1000 ms". */
static const struct {
  const char *name;
  double      ns;
} units[] = {
  { "s", 1e9 },
  { "ms", 1e6 },
  { "µs", 1e3 },
};

/* v (>= 1, < 1000 once rounded) with three significant digits. */
static char *
three_digits (double v,
              const char *unit)
{
  if (v < 9.995)
    return g_strdup_printf ("%.2f %s", v, unit);
  if (v < 99.95)
    return g_strdup_printf ("%.1f %s", v, unit);
  return g_strdup_printf ("%.0f %s", v, unit);
}

char *
sp_format_duration (guint64 ns)
{
  if (ns == 0)
    return g_strdup ("0 s");
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if ((double) ns >= 0.9995 * units[i].ns)
      return three_digits ((double) ns / units[i].ns, units[i].name);
  return g_strdup_printf ("%" G_GUINT64_FORMAT " ns", ns);
}

gboolean
sp_metric_is_time (SpMetric metric)
{
  return metric != SP_METRIC_CPU;
}

char *
sp_metric_format_value (SpMetric metric,
                        guint64 value)
{
  if (sp_metric_is_time (metric))
    return sp_format_duration (value);
  return g_strdup_printf ("%" G_GUINT64_FORMAT, value);
}

const char *
sp_metric_describe (SpMetric metric)
{
  switch (metric)
    {
    case SP_METRIC_OFF_CPU:
      return "off-CPU time";
    case SP_METRIC_WALL:
      return "wall-clock time";
    case SP_METRIC_CPU:
    default:
      return "samples";
    }
}
