/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-summary.c: from the samples counted per stack, and one pass
 * over the stack tree. */
#include "sp-spool-summary.h"

#include "sp-offcpu-stacks.h"
#include "sp-spool-errors.h"
#include "sp-profile.h"
#include "sp-spool-reader.h"

/* Marks the stack nodes at or below a truncated-stack marker. Nodes come
 * after their prefix, so one forward pass sees every prefix first. */
static guint8 *
mark_truncated_nodes (const SpSpoolReader *reader)
{
  const SpStackNode *nodes = sp_spool_reader_get_stack_nodes (reader);
  const SpFrame *frames = sp_spool_reader_get_frames (reader);
  gsize n = sp_spool_reader_get_n_stack_nodes (reader);
  guint8 *truncated = g_new0 (guint8, MAX (n, 1));

  for (gsize i = 0; i < n; i++)
    truncated[i] = frames[nodes[i].frame_id].mode == SP_FRAME_TRUNCATED
                   || (nodes[i].prefix != SP_SPOOL_NO_ID && truncated[nodes[i].prefix]);
  return truncated;
}

static guint
count_processes (const SpSpoolReader *reader)
{
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  g_autoptr (GHashTable) pids = g_hash_table_new (NULL, NULL);

  for (gsize i = 0; i < sp_spool_reader_get_n_threads (reader); i++)
    g_hash_table_add (pids, GINT_TO_POINTER (threads[i].pid));
  return g_hash_table_size (pids);
}

/* Per distinct stack, not per sample: at 50M samples a pass over them
 * all was a tenth of the window's time to its first result. */
static void
summarize_samples (const SpSpoolReader *reader,
                   const SpStackCounts *counts,
                   SpSpoolSummary *summary)
{
  const SpStackNode *nodes = sp_spool_reader_get_stack_nodes (reader);
  gsize n_nodes = sp_spool_reader_get_n_stack_nodes (reader);
  gsize n = sp_spool_reader_get_n_samples (reader);
  g_autofree guint8 *truncated = mark_truncated_nodes (reader);
  guint64 first = n > 0 ? sp_spool_reader_get_sample_timestamp (reader, 0) : 0;
  guint64 earliest, last = first;

  /* From the file's first sample to the latest one. */
  sp_spool_reader_get_sample_time_span (reader, &earliest, &last);
  for (guint i = 0; i < counts->stacks->len; i++)
    {
      const SpStackCount *c = &g_array_index (counts->stacks, SpStackCount, i);

      if (c->stack >= n_nodes)
        continue;
      summary->n_truncated_samples += truncated[c->stack] ? c->count : 0;
      summary->max_depth = MAX (summary->max_depth, nodes[c->stack].depth);
    }
  summary->duration_ns = last - first;
  summary->start_us = n > 0 ? sp_spool_reader_get_sample_time_us (reader, 0)
                            : sp_spool_reader_get_start_timestamp_us (reader);
}

static void
summarize_reader (const SpSpoolReader *reader,
                  const SpStackCounts *counts,
                  SpSpoolSummary *summary)
{
  summary->file_size = sp_spool_reader_get_parsed_size (reader);
  summary->sample_interval_us = sp_spool_reader_get_sample_interval_us (reader);
  summary->n_samples = sp_spool_reader_get_n_samples (reader);
  summary->n_threads = sp_spool_reader_get_n_threads (reader);
  summary->n_processes = count_processes (reader);
  summary->n_modules = sp_spool_reader_get_n_modules (reader);
  summary->n_frames = sp_spool_reader_get_n_frames (reader);
  summary->n_stack_nodes = sp_spool_reader_get_n_stack_nodes (reader);
  summary->n_process_execs = sp_spool_reader_get_n_process_execs (reader);
  summarize_samples (reader, counts, summary);
}

static guint64
meta_u64 (GKeyFile *meta,
          const char *key)
{
  return meta != NULL ? g_key_file_get_uint64 (meta, "recording", key, NULL) : 0;
}

/* The side file's off-CPU keys and the companion as read. With thread
 * states the recording lasts as long as samples and switch records
 * together: a program that sleeps has few samples but a long wait. */
static void
summarize_off_cpu (SpProfile *profile,
                   GKeyFile *meta,
                   SpSpoolSummary *summary)
{
  guint64 first, last;

  summary->off_cpu_recorded = meta != NULL && g_key_file_get_boolean (meta, "recording", "off_cpu", NULL);
  summary->off_cpu_read = sp_profile_has_off_cpu (profile);
  summary->off_cpu_problem = g_strdup (sp_profile_get_off_cpu_problem (profile));
  summary->off_cpu_stacks_reason = sp_offcpu_stacks_missing_reason (meta);
  summary->off_cpu_switches = meta_u64 (meta, "off_cpu_switches");
  summary->off_cpu_lost = meta_u64 (meta, "off_cpu_lost");
  summary->off_cpu_dropped = meta_u64 (meta, "off_cpu_dropped");
  if (!summary->off_cpu_read || !sp_profile_get_off_cpu_span (profile, &first, &last))
    return;
  summary->off_cpu_span_ns = last - first;
  if (summary->n_samples > 0)
    {
      /* As summarize_samples takes them: the first sample, the latest. */
      guint64 sample_first = sp_spool_reader_get_sample_timestamp (sp_profile_get_reader (profile), 0);

      last = MAX (last, sample_first + summary->duration_ns);
      first = MIN (first, sample_first);
    }
  summary->duration_ns = last - first;
}

void
sp_spool_summary_from_profile (SpProfile *profile,
                               SpSpoolSummary *summary)
{
  g_autoptr (SpStackCounts) counts = sp_stack_counts_new (profile, NULL);

  sp_spool_summary_from_counts (profile, counts, summary);
}

void
sp_spool_summary_from_counts (SpProfile *profile,
                              const SpStackCounts *counts,
                              SpSpoolSummary *summary)
{
  GKeyFile *meta = sp_profile_get_meta (profile);

  memset (summary, 0, sizeof *summary);
  summary->damage = g_strdup (sp_profile_get_damage (profile));
  summarize_reader (sp_profile_get_reader (profile), counts, summary);
  summary->side_file_problem = g_strdup (sp_profile_get_meta_problem (profile));
  summary->lost_known = meta != NULL && g_key_file_has_key (meta, "recording", "lost_samples", NULL);
  if (summary->lost_known)
    summary->lost_samples = g_key_file_get_uint64 (meta, "recording", "lost_samples", NULL);
  if (meta != NULL)
    summary->dropped_samples = g_key_file_get_uint64 (meta, "recording", "dropped_samples", NULL);
  /* Before the problems are copied: it resolves the stacks' outer ends. */
  sp_stack_roots_count (profile, counts, &summary->roots);
  summary->roots_known = TRUE;
  summary->symbol_problems = sp_symbol_problems_copy (sp_profile_get_symbol_problem_details (profile));
  summary->unwinding = sp_unwind_report_new (meta);
  summary->recording_state = sp_recording_state_get (sp_profile_get_path (profile), meta);
  summary->perf_input = sp_perf_input_new (meta);
  summarize_off_cpu (profile, meta, summary);
}

void
sp_spool_summary_clear (SpSpoolSummary *summary)
{
  g_clear_pointer (&summary->damage, g_free);
  g_clear_pointer (&summary->side_file_problem, g_free);
  g_clear_pointer (&summary->symbol_problems, g_array_unref);
  g_clear_pointer (&summary->unwinding, sp_unwind_report_free);
  g_clear_pointer (&summary->perf_input, sp_perf_input_free);
  g_clear_pointer (&summary->off_cpu_problem, g_free);
  g_clear_pointer (&summary->off_cpu_stacks_reason, g_free);
}
