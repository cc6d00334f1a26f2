/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report-processes.c: stackpulse-report processes, one row per process,
 * busiest first: the threads' rows (data/sp-thread-rows.c) summed by pid,
 * the name of its main thread and its command line from the side file
 * (a recording of the whole system, -a, has one for every process). The
 * share is of the samples listed; the idle task is not a process, and a
 * recording of the whole system says its samples below the table. */
#include "sp-report.h"

#include "sp-thread-rows.h"

typedef struct {
  gint32      pid;
  const char *name;      /* the rows' */
  guint64     n_samples;
  guint64     cpu_ns;
} ProcessRow;

static gint
by_samples (gconstpointer a,
            gconstpointer b)
{
  const ProcessRow *x = a, *y = b;

  if (x->n_samples != y->n_samples)
    return x->n_samples > y->n_samples ? -1 : 1;
  return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The threads' rows shown by the filter, summed by pid; *total: their samples. */
static GArray *
process_rows (const GArray *threads,
              const SpFilter *filter,
              guint64 *total)
{
  g_autoptr (GHashTable) index = g_hash_table_new (g_direct_hash, g_direct_equal);
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (ProcessRow));

  *total = 0;
  for (guint i = 0; i < threads->len; i++)
    {
      const SpThreadRow *thread = &g_array_index (threads, SpThreadRow, i);
      gpointer at;
      ProcessRow *row;

      if (sp_filter_is_thread_hidden (filter, thread->thread))
        continue;
      if (!g_hash_table_lookup_extended (index, GINT_TO_POINTER (thread->pid), NULL, &at))
        {
          g_array_append_val (rows, ((ProcessRow) { thread->pid, NULL, 0, 0 }));
          at = GUINT_TO_POINTER (rows->len - 1);
          g_hash_table_insert (index, GINT_TO_POINTER (thread->pid), at);
        }
      row = &g_array_index (rows, ProcessRow, GPOINTER_TO_UINT (at));
      /* The main thread's name is the process's; another's until then. */
      if (row->name == NULL || (guint64) thread->pid == thread->tid)
        row->name = thread->name != NULL ? thread->name : row->name;
      row->n_samples += thread->n_samples;
      row->cpu_ns += thread->cpu_ns;
      *total += thread->n_samples;
    }
  g_array_sort (rows, by_samples);
  return rows;
}

static char *
command_line_of (GKeyFile *meta,
                 gint32 pid)
{
  g_autofree char *group = g_strdup_printf ("process %d", (int) pid);
  g_autofree char *line = meta != NULL ? g_key_file_get_string (meta, group, "command_line", NULL) : NULL;

  return sp_report_field (line);
}

/* -a: the idle task's samples, which are no process's. */
static void
print_idle (GKeyFile *meta,
            FILE *out)
{
  if (meta == NULL || !g_key_file_get_boolean (meta, "recording", "system_wide", NULL))
    return;
  fprintf (out, "idle: %" G_GUINT64_FORMAT " samples of the idle task (the whole recording; not a process)\n",
           g_key_file_get_uint64 (meta, "recording", "idle_samples", NULL));
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
  g_autoptr (GArray) rows = process_rows (threads, filter, &total);

  if (tsv)
    fprintf (out, "pid\tname\tcommand_line\tsamples\tcpu_s\tshare_percent\n");
  else
    fprintf (out, "%8s %-16s %8s %9s %7s  %s\n", "pid", "name", "samples", "cpu_s", "share", "command line");
  for (guint i = 0; i < rows->len; i++)
    {
      const ProcessRow *row = &g_array_index (rows, ProcessRow, i);
      g_autofree char *name = sp_report_field (row->name);
      g_autofree char *command_line = command_line_of (meta, row->pid);
      double share = total > 0 ? 100.0 * row->n_samples / total : 0.0;

      if (tsv)
        fprintf (out, "%d\t%s\t%s\t%" G_GUINT64_FORMAT "\t%.6f\t%.3f\n", row->pid, name, command_line, row->n_samples,
                 row->cpu_ns / 1e9, share);
      else
        fprintf (out, "%8d %-16s %8" G_GUINT64_FORMAT " %9.3f %6.1f%%  %s\n", row->pid, name, row->n_samples,
                 row->cpu_ns / 1e9, share, command_line);
    }
  if (!tsv)
    print_idle (meta, out);
}
