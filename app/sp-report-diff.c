/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report-diff.c: stackpulse-report diff A B, the text of a comparison
 * (the comparison itself is data/sp-diff.c). */
#include "sp-report.h"

#include <string.h>

#include "sp-diff.h"

/* The change with its sign, but a change that rounds to zero as "0.00"
 * (not "+0.00" or "-0.00", which would say there was one). */
static char *
change_text (double delta,
             int decimals)
{
  char *text = g_strdup_printf ("%+.*f", decimals, delta);

  if (strspn (text + 1, "0.") == strlen (text + 1))
    memmove (text, text + 1, strlen (text));
  return text;
}

/* Which recordings have the function: both, or only a or b. */
static const char *
side_of (const SpDiffRow *row)
{
  if (row->function_a == SP_DIFF_NONE)
    return "b";
  return row->function_b == SP_DIFF_NONE ? "a" : "both";
}

static void
print_tsv (const SpDiff *diff,
           guint limit,
           FILE *out)
{
  fputs ("function\tmodule\tself_a\tself_b\ttotal_a\ttotal_b\tdelta\tside\n", out);
  for (guint i = 0; i < diff->rows->len && (limit == 0 || i < limit); i++)
    {
      const SpDiffRow *row = &g_array_index (diff->rows, SpDiffRow, i);
      g_autofree char *change = change_text (row->delta, 4);

      fprintf (out, "%s\t%s\t%.4f\t%.4f\t%.4f\t%.4f\t%s\t%s\n", row->name, row->module, row->self_value_a,
               row->self_value_b, row->total_value_a, row->total_value_b, change, side_of (row));
    }
}

/* "  4.20%" or "     - " for a side that does not have the function. */
static void
print_value (FILE *out,
             double value,
             gboolean present)
{
  if (present)
    fprintf (out, " %7.2f%%", value);
  else
    fprintf (out, " %8s", "-");
}

static void
print_text (const SpDiff *diff,
            guint limit,
            FILE *out)
{
  const char *unit = diff->normalize == SP_DIFF_NORMALIZE_SHARE ? "% of each recording's total"
                                                                 : "% of a CPU: time per second of each recording";

  fprintf (out, "A: %" G_GUINT64_FORMAT " counted, %.3f s; B: %" G_GUINT64_FORMAT " counted, %.3f s; values in %s; "
           "change = self B - self A (points)\n\n", diff->total_a, diff->span_s_a, diff->total_b, diff->span_s_b,
           unit);
  fprintf (out, "%9s %9s %9s %9s %9s  %s\n", "self A", "self B", "change", "total A", "total B", "function");
  for (guint i = 0; i < diff->rows->len && (limit == 0 || i < limit); i++)
    {
      const SpDiffRow *row = &g_array_index (diff->rows, SpDiffRow, i);
      gboolean in_a = row->function_a != SP_DIFF_NONE, in_b = row->function_b != SP_DIFF_NONE;
      g_autofree char *change = change_text (row->delta, 2);

      print_value (out, row->self_value_a, in_a);
      print_value (out, row->self_value_b, in_b);
      fprintf (out, " %9s", change);
      print_value (out, row->total_value_a, in_a);
      print_value (out, row->total_value_b, in_b);
      fprintf (out, "  %s%s%s%s%s\n", row->name, row->module[0] != '\0' ? "  " : "", row->module,
               in_a ? "" : "  [B only]", in_b ? "" : "  [A only]");
    }
}

void
sp_report_diff (SpProfile *a,
                const SpFilter *filter_a,
                SpProfile *b,
                const SpFilter *filter_b,
                const SpReportDiffOptions *options,
                FILE *out)
{
  g_autoptr (SpDiff) diff = sp_diff_new (a, filter_a, b, filter_b, options->normalize);

  if (options->tsv)
    print_tsv (diff, options->limit, out);
  else
    print_text (diff, options->limit, out);
}
