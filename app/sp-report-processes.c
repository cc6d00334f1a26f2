/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report-processes.c: stackpulse-report processes, one row per process,
 * busiest first: the threads' rows summed by pid (data/sp-process-rows.c,
 * which the window's Processes view shows too), the name of its main
 * thread and its command line from the side file (a recording of the
 * whole system, -a, has one for every process). The
 * share is of the samples listed; the idle task is not a process, and a
 * recording of the whole system says its samples below the table. */
#include "sp-report.h"

#include "sp-process-rows.h"
#include "sp-thread-rows.h"

#define MAX_COMMAND_CHARS 100

/* -a: the idle task's samples, which are no process's. */
static void
print_idle (GKeyFile *meta,
            FILE *out)
{
  if (!sp_process_rows_system_wide (meta))
    return;
  fprintf (out, "idle: %" G_GUINT64_FORMAT " samples of the idle task (the whole recording; not a process)\n",
           sp_process_rows_idle_samples (meta));
}

void
sp_report_processes (SpProfile *profile,
                     const SpFilter *filter,
                     gboolean tsv,
                     FILE *out)
{
  g_autoptr (GArray) threads = sp_thread_rows_of_profile (profile, filter->from_ns, filter->to_ns);
  GKeyFile *meta = sp_profile_get_meta (profile);
  guint64 total;
  g_autoptr (GArray) rows = sp_process_rows_new (threads, meta, filter, &total);

  if (tsv)
    fprintf (out, "pid\tname\tcommand_line\tsamples\tcpu_s\tshare_percent\n");
  else
    fprintf (out, "%8s %-16s %8s %9s %7s  %s\n", "pid", "name", "samples", "cpu_s", "share", "command line");
  for (guint i = 0; i < rows->len; i++)
    {
      const SpProcessRow *row = &g_array_index (rows, SpProcessRow, i);
      g_autofree char *name = sp_report_field (row->name);
      g_autofree char *command_line = sp_report_field (row->command_line);
      double share = total > 0 ? 100.0 * row->n_samples / total : 0.0;

      if (tsv)
        fprintf (out, "%d\t%s\t%s\t%" G_GUINT64_FORMAT "\t%.6f\t%.3f\n", row->pid, name, command_line, row->n_samples,
                 row->cpu_ns / 1e9, share);
      else
        {
          /* A line a terminal shows whole: a command line can be pages
           * (an environment passed as JSON); --tsv has it all. */
          if (g_utf8_strlen (command_line, -1) > MAX_COMMAND_CHARS)
            {
              char *cut = g_strdup_printf ("%.*s…", (int) (g_utf8_offset_to_pointer (command_line, MAX_COMMAND_CHARS)
                                                           - command_line), command_line);

              g_free (command_line);
              command_line = cut;
            }
          fprintf (out, "%8d %-16s %8" G_GUINT64_FORMAT " %9.3f %6.1f%%  %s\n", row->pid, name, row->n_samples,
                   row->cpu_ns / 1e9, share, command_line);
        }
    }
  if (!tsv)
    print_idle (meta, out);
}
