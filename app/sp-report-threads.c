/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report-threads.c: stackpulse-report threads, one row per thread.
 *
 * cpu_s is the thread's measured running time from the off-CPU companion;
 * without one, the samples times the sampling interval (an estimate), and
 * the off-CPU columns come from the side file's per-thread totals of a
 * recording made with --off-cpu (its companion missing or set aside; for
 * the whole recording only), or stay empty. */
#include "sp-report.h"

#include "sp-thread-rows.h"

gboolean
sp_report_threads_from_side_file (SpProfile *profile)
{
  g_autoptr (GArray) rows = sp_thread_rows_of_profile (profile, 0, G_MAXUINT64);

  return sp_thread_rows_from_side_file (rows);
}

char *
sp_report_field (const char *name)
{
  char *field = g_strdup (name != NULL ? name : "");

  g_strdelimit (field, "\t\n\r", ' ');
  return field;
}

static void
print_row (const SpThreadRow *row,
           gboolean tsv,
           FILE *out)
{
  g_autofree char *name = sp_report_field (row->name);
  double cpu_s = row->cpu_ns / 1e9, off_s = sp_thread_row_get_off_cpu_ns (row) / 1e9;

  if (tsv && row->has_states)
    fprintf (out, "%d\t%" G_GUINT64_FORMAT "\t%s\t%" G_GUINT64_FORMAT "\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%" G_GUINT64_FORMAT "\n",
             row->pid, row->tid, name, row->n_samples, cpu_s, off_s, cpu_s + off_s, row->blocked_ns / 1e9,
             row->runnable_ns / 1e9, row->switches);
  else if (tsv)
    fprintf (out, "%d\t%" G_GUINT64_FORMAT "\t%s\t%" G_GUINT64_FORMAT "\t%.6f\t\t\t\t\t\n", row->pid, row->tid, name,
             row->n_samples, cpu_s);
  else if (row->has_states)
    fprintf (out, "%8d %8" G_GUINT64_FORMAT " %-16s %8" G_GUINT64_FORMAT " %9.3f %9.3f %9.3f %9.3f %10.3f %8"
             G_GUINT64_FORMAT "\n", row->pid, row->tid, name, row->n_samples, cpu_s, off_s, cpu_s + off_s,
             row->blocked_ns / 1e9, row->runnable_ns / 1e9, row->switches);
  else
    fprintf (out, "%8d %8" G_GUINT64_FORMAT " %-16s %8" G_GUINT64_FORMAT " %9.3f %9s %9s %9s %10s %8s\n", row->pid,
             row->tid, name, row->n_samples, cpu_s, "-", "-", "-", "-", "-");
}

/* The rows are the window's Threads page's (data/sp-thread-rows.c). */
void
sp_report_threads (SpProfile *profile,
                   const SpFilter *filter,
                   gboolean tsv,
                   FILE *out)
{
  g_autoptr (GArray) rows = sp_thread_rows_of_profile (profile, filter->from_ns, filter->to_ns);

  if (tsv)
    fprintf (out, "pid\ttid\tname\tsamples\tcpu_s\toff_cpu_s\twall_s\tblocked_s\trunnable_s\tswitches\n");
  else
    fprintf (out, "%8s %8s %-16s %8s %9s %9s %9s %9s %10s %8s\n", "pid", "tid", "name", "samples", "cpu_s",
             "off_cpu_s", "wall_s", "blocked_s", "runnable_s", "switches");
  for (guint i = 0; i < rows->len; i++)
    {
      const SpThreadRow *row = &g_array_index (rows, SpThreadRow, i);

      if (!sp_filter_is_thread_hidden (filter, row->thread))
        print_row (row, tsv, out);
    }
}
