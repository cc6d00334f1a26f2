/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-analysis-job.c: one worker run: parse, aggregate, package.
 *
 * Everything here runs on the worker thread, the only thread that updates
 * the profile while the job runs; what it returns is immutable from then
 * on (trees, lists, copies of names and problems, an index snapshot). */
#include "sp-analysis-job-private.h"

#include "sp-blocking-names.h"
#include "sp-file-private.h"
#include "sp-process-rows.h"
#include "sp-profile-private.h"
#include "sp-symbolizer.h"
#include "sp-thread-rows.h"

void
sp_analysis_job_free (SpAnalysisJob *job)
{
  if (job == NULL)
    return;
  g_free (job->path);
  g_clear_pointer (&job->profile, sp_profile_unref);
  g_clear_pointer (&job->counts, sp_stack_counts_free);
  g_clear_pointer (&job->whole_counts, sp_stack_counts_free);
  g_clear_pointer (&job->filter, sp_filter_free);
  g_clear_pointer (&job->last_threads, g_array_unref);
  g_clear_pointer (&job->last_states, sp_thread_states_unref);
  g_clear_pointer (&job->last_blocking_names, g_hash_table_unref);
  g_clear_pointer (&job->source_dirs, sp_source_dirs_free);
  g_free (job);
}

void
sp_analysis_result_free (SpAnalysisResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->profile, sp_profile_unref);
  sp_call_tree_free (result->call_tree);
  sp_call_tree_free (result->flame_tree);
  sp_call_tree_free (result->bottom_up);
  g_clear_pointer (&result->functions, g_array_unref);
  g_clear_pointer (&result->callers, g_array_unref);
  g_clear_pointer (&result->callees, g_array_unref);
  g_clear_pointer (&result->problems, g_array_unref);
  g_clear_pointer (&result->missing_debug_info, g_array_unref);
  g_clear_pointer (&result->index, sp_sample_index_unref);
  g_clear_pointer (&result->threads, g_array_unref);
  g_clear_pointer (&result->processes, g_array_unref);
  g_clear_pointer (&result->states, sp_thread_states_unref);
  g_clear_pointer (&result->blocking_names, g_hash_table_unref);
  g_clear_pointer (&result->source, sp_source_annotation_unref);
  sp_spool_summary_clear (&result->summary);
  g_free (result);
}

/* A recording another recorder still writes is followed as the window
 * follows its own; any other file is read to its end. */
static gboolean
open_profile (SpAnalysisJob *job,
              GError **error)
{
  const char *path = job->path;
  GKeyFile *meta;

  job->profile = sp_profile_open_follow (path, error);
  if (job->profile == NULL)
    return FALSE;
  /* The side file, read at the open, says whether it is still written. */
  meta = sp_profile_get_meta (job->profile);
  job->follow = sp_recording_state_get (path, meta) == SP_RECORDING_STATE_IN_PROGRESS;
  if (job->follow)
    {
      sp_profile_update (job->profile);
      if (sp_recording_state_is_local (sp_profile_get_meta (job->profile)))
        sp_profile_set_recorded_here (job->profile);
      job->counts = sp_stack_counts_new (job->profile, NULL);
    }
  /* Not being written: empty, it is no recording (as the report says),
   * not one damaged at its first byte. */
  else if (!_sp_file_check_spool (path, FALSE, error))
    {
      g_clear_pointer (&job->profile, sp_profile_unref);
      return FALSE;
    }
  else
    sp_profile_finish_resolving_ahead (job->profile);
  return TRUE;
}

static void
parse (SpAnalysisJob *job)
{
  SpRecordingState state;

  sp_profile_update (job->profile);
  if (job->work & SP_WORK_FINISH)
    sp_profile_finish (job->profile);
  if (job->counts != NULL)
    sp_stack_counts_update (job->counts, job->profile, NULL);
  state = sp_recording_state_get (sp_profile_get_path (job->profile), sp_profile_get_meta (job->profile));
  job->recording_ended = state != SP_RECORDING_STATE_IN_PROGRESS;
}

/* The function list, and the chosen function's callers and callees (the
 * hottest function's when none is chosen yet: the list is asked for then). */
static void
find_callers (SpAnalysisJob *job,
              SpStackCounts *counts,
              SpAnalysisResult *result)
{
  guint32 focus = job->focus;

  if (job->work & SP_WORK_FUNCTIONS)
    {
      result->functions = sp_function_list_new (job->profile, job->filter, counts);
      /* Each sample has one innermost function: the selves add up to the
       * samples the transforms kept, as the trees' roots do. */
      for (guint i = 0; i < result->functions->len; i++)
        result->n_kept += g_array_index (result->functions, SpFunctionCost, i).self;
      if (focus == SP_FUNCTION_LIST_ROOT && result->functions->len > 0)
        focus = g_array_index (result->functions, SpFunctionCost, 0).function;
    }
  if ((job->work & SP_WORK_CALLERS) && focus != SP_FUNCTION_LIST_ROOT)
    sp_function_list_callers_callees (job->profile, job->filter, counts, focus, &result->focus, &result->callers,
                                      &result->callees);
}

/* All the samples, counted by CPU samples, no thread hidden. */
static gboolean
filter_is_whole (const SpFilter *filter)
{
  return filter->from_ns == 0 && filter->to_ns == G_MAXUINT64 && filter->metric == SP_METRIC_CPU
         && (filter->hidden_threads == NULL || filter->hidden_threads->len == 0);
}

/* The trees for the filter: from the running (sample) counts for the
 * whole recording, from a fresh count for a time range, hidden threads or
 * a time metric (the counts hold the time range and the metric; the
 * filter adds its transforms). */
static void
aggregate (SpAnalysisJob *job,
           SpAnalysisResult *result)
{
  const SpFilter *filter = job->filter;
  gboolean whole = filter_is_whole (filter);
  g_autoptr (SpStackCounts) selected = NULL;
  SpStackCounts *counts = whole && job->counts != NULL ? job->counts
                                                       : (selected = sp_stack_counts_new (job->profile, filter));

  /* Kept for the summary, which counts all the samples too. */
  if (whole && selected != NULL)
    job->whole_counts = g_steal_pointer (&selected);

  if (job->work & (SP_WORK_TREES | SP_WORK_OPEN))
    {
      result->call_tree = sp_call_tree_new (job->profile, filter, counts, FALSE);
      result->flame_tree = sp_call_tree_copy (result->call_tree);
      /* Here rather than on the window's main thread, which shows it. */
      sp_call_tree_ensure_heights (result->flame_tree);
    }
  /* An opened file's first frame comes without it (it took a third of
   * the time to it): SP_WORK_BOTTOM_UP follows. */
  if (job->work & (SP_WORK_TREES | SP_WORK_BOTTOM_UP))
    result->bottom_up = sp_call_tree_new (job->profile, filter, counts, TRUE);
  find_callers (job, counts, result);
  /* An id the profile has (one of another profile's, asked before it was
   * replaced, is dropped with its generation anyway). */
  if ((job->work & SP_WORK_ANNOTATE) && job->annotated < sp_profile_get_n_functions (job->profile))
    result->source = sp_source_annotation_new (job->profile, filter, counts, job->annotated, job->place,
                                               job->source_dirs);
}

/* What the timeline and the thread list need, when it changed. */
static void
index_samples (SpAnalysisJob *job,
               SpAnalysisResult *result)
{
  SpSampleIndex *index = _sp_profile_get_sample_index (job->profile);
  SpThreadStates *states = sp_profile_get_thread_states (job->profile);
  GArray *threads;

  if (sp_sample_index_get_n_samples (index) != job->n_indexed || (job->work & SP_WORK_OPEN))
    result->index = sp_sample_index_snapshot (index);
  if (states != NULL && (states != job->last_states || (job->work & SP_WORK_OPEN)))
    {
      result->states = sp_thread_states_ref (states);
      result->blocking_names = sp_blocking_names_new (job->profile, states, job->last_blocking_names);
    }
  threads = sp_thread_rows_new (job->profile, index, states, job->filter->from_ns, job->filter->to_ns);
  /* The processes with their threads, and at the end, when the side file
   * has the idle task's samples (the threads may be as they were). */
  if (sp_process_rows_system_wide (sp_profile_get_meta (job->profile))
      && (!sp_thread_rows_equal (threads, job->last_threads) || (job->work & (SP_WORK_OPEN | SP_WORK_FINISH))))
    {
      result->processes = sp_process_rows_new (threads, sp_profile_get_meta (job->profile), NULL, NULL);
      result->idle_samples = sp_process_rows_idle_samples (sp_profile_get_meta (job->profile));
      result->n_cpus = sp_process_rows_n_cpus (sp_profile_get_meta (job->profile));
      result->interval_ns = sp_spool_reader_get_sample_interval_us (sp_profile_get_reader (job->profile)) * 1000;
    }
  if (sp_thread_rows_equal (threads, job->last_threads) && !(job->work & SP_WORK_OPEN))
    g_array_unref (threads);
  else
    result->threads = threads;
  result->n_samples = sp_spool_reader_get_n_samples (sp_profile_get_reader (job->profile));
}

static gpointer
index_in_thread (gpointer profile)
{
  _sp_profile_get_sample_index (profile);
  return NULL;
}

/* An opened file's sample index is built on a thread of its own while
 * this one counts the stacks and makes the trees and the summary (issue
 * 18: at 50M samples the index took 0.6 s of the 3.5 s to the first
 * result, with the second CPU idle). Both only read the reader, which no
 * longer changes, and the counts of all the samples do not use the index
 * (a time range, hidden threads or a time metric do: not then). */
static GThread *
start_indexing (SpAnalysisJob *job)
{
  if (!(job->work & SP_WORK_OPEN) || (job->work & SP_WORK_ANNOTATE) || !filter_is_whole (job->filter))
    return NULL;
  return g_thread_new ("stackpulse-index", index_in_thread, job->profile);
}

SpAnalysisResult *
sp_analysis_job_run (SpAnalysisJob *job,
                     GError **error)
{
  SpAnalysisResult *result;
  GThread *indexing;

  if ((job->work & SP_WORK_OPEN) && !open_profile (job, error))
    return NULL;
  result = g_new0 (SpAnalysisResult, 1);
  result->opened = (job->work & SP_WORK_OPEN) != 0;
  if (job->work & SP_WORK_PARSE)
    parse (job);
  if (job->work & SP_WORK_RELOAD_SYMBOLS)
    sp_profile_reload_symbols (job->profile);
  indexing = start_indexing (job);
  if (indexing == NULL)
    index_samples (job, result);
  aggregate (job, result);
  result->problems = sp_symbol_problems_copy (sp_profile_get_symbol_problem_details (job->profile));
  result->missing_debug_info = sp_missing_debug_info_copy (sp_profile_get_missing_debug_info (job->profile));
  /* A file read whole and resolved again (debug files came): its
   * Summary lists the symbol problems that are left. */
  if ((job->work & (SP_WORK_OPEN | SP_WORK_FINISH))
      || ((job->work & SP_WORK_RELOAD_SYMBOLS) && job->counts == NULL))
    {
      SpStackCounts *counts = job->counts != NULL ? job->counts : job->whole_counts;

      /* The symbol problems are known now: later trees have the same frames. */
      if (counts != NULL)
        sp_spool_summary_from_counts (job->profile, counts, &result->summary);
      else
        sp_spool_summary_from_profile (job->profile, &result->summary);
      result->have_summary = TRUE;
      /* Here, in the worker, rather than when the window lets the
       * recording go: the next open of it reads no DWARF. */
      sp_profile_save_symbol_cache (job->profile);
    }
  if (indexing != NULL)
    {
      g_thread_join (indexing);
      index_samples (job, result);
    }
  result->finished = (job->work & SP_WORK_FINISH) != 0;
  result->metric = job->filter->metric;
  result->profile = sp_profile_ref (job->profile);
  return result;
}
