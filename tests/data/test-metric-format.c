/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-metric-format.c: costs as the views and the report write them:
 * samples as a count, times with three digits in the unit they fill. */
#include <glib.h>

#include "sp-metric-format.h"

static void
assert_duration (guint64 ns,
                 const char *expected)
{
  g_autofree char *text = sp_format_duration (ns);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_durations (void)
{
  assert_duration (0, "0 s");
  assert_duration (12, "12 ns");
  assert_duration (999, "999 ns");
  assert_duration (1000, "1.00 µs");
  assert_duration (789000, "789 µs");
  assert_duration (9995, "10.0 µs");
  assert_duration (45600000, "45.6 ms");
  assert_duration (999400000, "999 ms");
  /* Rounded up into the next unit, not "1000 ms". */
  assert_duration (999600000, "1.00 s");
  assert_duration (1230000000, "1.23 s");
  assert_duration (12345000000, "12.3 s");
  assert_duration (G_GUINT64_CONSTANT (3600000000000), "3600 s");
}

static void
test_values (void)
{
  g_autofree char *samples = sp_metric_format_value (SP_METRIC_CPU, 456);
  g_autofree char *off_cpu = sp_metric_format_value (SP_METRIC_OFF_CPU, 1230000000);
  g_autofree char *wall = sp_metric_format_value (SP_METRIC_WALL, 45600000);

  g_assert_cmpstr (samples, ==, "456");
  g_assert_cmpstr (off_cpu, ==, "1.23 s");
  g_assert_cmpstr (wall, ==, "45.6 ms");
  g_assert_false (sp_metric_is_time (SP_METRIC_CPU));
  g_assert_true (sp_metric_is_time (SP_METRIC_OFF_CPU));
  g_assert_true (sp_metric_is_time (SP_METRIC_WALL));
  g_assert_cmpstr (sp_metric_describe (SP_METRIC_CPU), ==, "samples");
  g_assert_cmpstr (sp_metric_describe (SP_METRIC_OFF_CPU), ==, "off-CPU time");
  g_assert_cmpstr (sp_metric_describe (SP_METRIC_WALL), ==, "wall-clock time");
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/metric-format/durations", test_durations);
  g_test_add_func ("/metric-format/values", test_values);
  return g_test_run ();
}
