/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report-threads.c: stackpulse-report threads, one row per thread.
 *
 * cpu_s is the thread's measured running time from the off-CPU companion;
 * without one, the samples times the sampling interval (an estimate), and
 * the off-CPU columns come from the side file's per-thread totals of a
 * recording made with --off-cpu (its companion missing or set aside), or
 * stay empty. */
#include "sp-report.h"

#include "sp-offcpu-stacks.h"

#include "sp-thread-states.h"

typedef struct {
  gint32       pid;
  guint64      tid;
  const char  *name;
  guint64      samples;
  gboolean     known;       /* the companion gave its states */
  double       cpu_s;
  SpThreadTotals totals;
} ThreadRow;

static guint64 *
samples_per_thread (const SpSpoolReader *reader,
                    const SpFilter *filter)
{
  gsize n = sp_spool_reader_get_n_samples (reader);
  const uint64_t *ts = sp_spool_reader_get_sample_timestamps (reader);
  guint64 *count = g_new0 (guint64, MAX (sp_spool_reader_get_n_threads (reader), 1));

  for (gsize i = 0; i < n; i++)
    if (ts[i] >= filter->from_ns && ts[i] < filter->to_ns)
      count[sp_spool_reader_get_sample_thread (reader, i)]++;
  return count;
}

gboolean
sp_report_threads_from_side_file (SpProfile *profile)
{
  GKeyFile *meta = sp_profile_get_meta (profile);
  SpThreadTotals totals;

  if (sp_profile_get_thread_states (profile) != NULL || meta == NULL
      || !g_key_file_get_boolean (meta, "recording", "off_cpu", NULL))
    return FALSE;
  for (guint t = 0; t < sp_profile_get_n_threads (profile); t++)
    {
      gint32 pid;
      guint64 tid;

      sp_profile_get_thread (profile, t, &pid, &tid);
      if (sp_offcpu_side_file_totals (meta, tid, &totals))
        return TRUE;
    }
  return FALSE;
}

/* A name as one field: no tabs or line breaks. */
static char *
field_of (const char *name)
{
  char *field = g_strdup (name != NULL ? name : "");

  g_strdelimit (field, "\t\n\r", ' ');
  return field;
}

static void
print_row (const ThreadRow *row,
           gboolean tsv,
           FILE *out)
{
  g_autofree char *name = field_of (row->name);
  const SpThreadTotals *t = &row->totals;
  double off_s = (t->blocked_ns + t->runnable_ns) / 1e9;

  if (tsv && row->known)
    fprintf (out, "%d\t%" G_GUINT64_FORMAT "\t%s\t%" G_GUINT64_FORMAT "\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%" G_GUINT64_FORMAT "\n",
             row->pid, row->tid, name, row->samples, row->cpu_s, off_s, row->cpu_s + off_s, t->blocked_ns / 1e9,
             t->runnable_ns / 1e9, t->switches);
  else if (tsv)
    fprintf (out, "%d\t%" G_GUINT64_FORMAT "\t%s\t%" G_GUINT64_FORMAT "\t%.6f\t\t\t\t\t\n", row->pid, row->tid, name,
             row->samples, row->cpu_s);
  else if (row->known)
    fprintf (out, "%8d %8" G_GUINT64_FORMAT " %-16s %8" G_GUINT64_FORMAT " %9.3f %9.3f %9.3f %9.3f %10.3f %8"
             G_GUINT64_FORMAT "\n", row->pid, row->tid, name, row->samples, row->cpu_s, off_s, row->cpu_s + off_s,
             t->blocked_ns / 1e9, t->runnable_ns / 1e9, t->switches);
  else
    fprintf (out, "%8d %8" G_GUINT64_FORMAT " %-16s %8" G_GUINT64_FORMAT " %9.3f %9s %9s %9s %10s %8s\n", row->pid,
             row->tid, name, row->samples, row->cpu_s, "-", "-", "-", "-", "-");
}

void
sp_report_threads (SpProfile *profile,
                   const SpFilter *filter,
                   gboolean tsv,
                   FILE *out)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  const SpThreadStates *states = sp_profile_get_thread_states (profile);
  double interval_s = sp_spool_reader_get_sample_interval_us (reader) / 1e6;
  g_autofree guint64 *samples = samples_per_thread (reader, filter);
  gboolean from_side_file = sp_report_threads_from_side_file (profile);

  if (tsv)
    fprintf (out, "pid\ttid\tname\tsamples\tcpu_s\toff_cpu_s\twall_s\tblocked_s\trunnable_s\tswitches\n");
  else
    fprintf (out, "%8s %8s %-16s %8s %9s %9s %9s %9s %10s %8s\n", "pid", "tid", "name", "samples", "cpu_s",
             "off_cpu_s", "wall_s", "blocked_s", "runnable_s", "switches");
  for (guint t = 0; t < sp_profile_get_n_threads (profile); t++)
    {
      ThreadRow row = { 0 };

      if (sp_filter_is_thread_hidden (filter, t))
        continue;
      sp_profile_get_thread (profile, t, &row.pid, &row.tid);
      row.name = sp_profile_get_thread_name (profile, row.tid);
      row.samples = samples[t];
      row.known = states != NULL;
      if (row.known)
        {
          sp_thread_states_sum_range (states, t, filter->from_ns, filter->to_ns, &row.totals);
          row.cpu_s = row.totals.running_ns / 1e9;
        }
      else
        {
          /* The companion is missing or set aside: the side file's totals. */
          row.known = from_side_file && sp_offcpu_side_file_totals (sp_profile_get_meta (profile), row.tid, &row.totals);
          row.cpu_s = row.samples * interval_s;
        }
      print_row (&row, tsv, out);
    }
}
