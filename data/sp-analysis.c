/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-analysis.c: the scheduler: one worker at a time, requests coalesced.
 *
 * `pending` collects what was asked since the last run started; a run
 * starts when none is running, takes all of it, and when it ends the
 * next starts with what was asked meanwhile. The profile's running counts
 * travel with the job (the worker owns them while it runs) and come back
 * with its result. A result made for a profile that was replaced or
 * dropped meanwhile (an older generation) is thrown away. */
#include "sp-analysis.h"

#include "sp-analysis-job-private.h"
#include "sp-analysis-private.h"

/* How often a followed spool is read for what was appended. */
#define LIVE_UPDATE_MS 250

struct _SpAnalysis
{
  GObject         parent_instance;

  SpProfile      *profile;
  SpStackCounts  *counts;          /* a followed spool's running counts; NULL while a job has them */
  SpFilter       *filter;
  guint32         focus;
  gboolean        callers_shown;
  gboolean        callers_stale;   /* the trees changed while the caller view was hidden */
  guint32         annotated;       /* the Source page's function, or SP_FUNCTION_LIST_ROOT */
  guint           place;
  gboolean        source_shown;
  gboolean        source_stale;    /* the trees changed while the Source page was hidden */
  SpSourceDirs   *source_dirs;     /* loaded when first needed */

  char           *open_path;       /* SP_WORK_OPEN pending */
  char           *opening_path;    /* the file the running SP_WORK_OPEN reads */
  char           *record_path;     /* the own recorder's spool, until it opens */
  gboolean        own_recording;   /* the spool followed is the own recorder's */
  gboolean        following;       /* live updates run */
  gboolean        ending;          /* the recorder ended: the next update finishes */
  guint           live_source;

  gboolean        busy;
  SpWork          pending;
  guint           start_source;    /* an idle that starts what was asked */
  guint           generation;
  gsize           n_indexed;
  GArray         *last_threads;
  SpThreadStates *last_states;     /* a reference: the pointer tells a new one */
  GHashTable     *last_blocking_names;
  GQueue          exclusive;       /* Exclusive *: runs that need the profile to themselves */
};

enum { SIGNAL_RESULT, SIGNAL_FAILED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpAnalysis, sp_analysis, G_TYPE_OBJECT)

static void start_next (SpAnalysis *self);

static void
stop_live (SpAnalysis *self)
{
  g_clear_handle_id (&self->live_source, g_source_remove);
}

/* Drops the profile and everything made from it; a job still running
 * keeps its own references and its result is dropped. */
static void
drop_profile (SpAnalysis *self)
{
  self->generation++;
  stop_live (self);
  g_clear_pointer (&self->opening_path, g_free);
  g_clear_pointer (&self->profile, sp_profile_unref);
  g_clear_pointer (&self->counts, sp_stack_counts_free);
  g_clear_pointer (&self->last_threads, g_array_unref);
  g_clear_pointer (&self->last_states, sp_thread_states_unref);
  g_clear_pointer (&self->last_blocking_names, g_hash_table_unref);
  g_clear_pointer (&self->record_path, g_free);
  self->pending = 0;
  self->following = self->ending = self->own_recording = FALSE;
  self->n_indexed = 0;
  self->focus = SP_FUNCTION_LIST_ROOT;
  self->callers_stale = TRUE;
  self->annotated = SP_FUNCTION_LIST_ROOT;
  self->source_stale = FALSE;
  sp_filter_set_time_range (self->filter, 0, G_MAXUINT64);
  sp_filter_set_metric (self->filter, SP_METRIC_CPU);
}

/* ---- Live updates -------------------------------------------------------- */

/* The own recorder's spool, once the recorder has created it. */
static gboolean
open_recording (SpAnalysis *self)
{
  if (!g_file_test (self->record_path, G_FILE_TEST_EXISTS))
    return FALSE;
  self->profile = sp_profile_open_follow (self->record_path, NULL);
  if (self->profile == NULL)
    return FALSE;
  sp_profile_set_recorded_here (self->profile);
  self->counts = sp_stack_counts_new (self->profile, NULL);
  g_clear_pointer (&self->record_path, g_free);
  return TRUE;
}

static gboolean
live_tick (gpointer data)
{
  SpAnalysis *self = data;
  gboolean finish = self->ending;

  if (self->busy)
    return G_SOURCE_CONTINUE;
  if (self->profile == NULL && !open_recording (self))
    {
      if (!finish)
        return G_SOURCE_CONTINUE;
      self->live_source = 0;
      return G_SOURCE_REMOVE;
    }
  self->pending |= SP_WORK_PARSE | SP_WORK_TREES | (finish ? SP_WORK_FINISH : 0);
  start_next (self);
  if (!finish)
    return G_SOURCE_CONTINUE;
  self->live_source = 0;
  return G_SOURCE_REMOVE;
}

static void
start_live (SpAnalysis *self)
{
  if (self->live_source == 0)
    self->live_source = g_timeout_add (LIVE_UPDATE_MS, live_tick, self);
}

/* ---- Jobs ---------------------------------------------------------------- */

static void
job_in_thread (GTask *task,
               gpointer source_object,
               gpointer task_data,
               GCancellable *cancellable)
{
  GError *error = NULL;
  SpAnalysisResult *result = sp_analysis_job_run (task_data, &error);

  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) sp_analysis_result_free);
}

/* The state a result brings: a new profile, its counts back, whether a
 * followed recording goes on. */
static void
take_result (SpAnalysis *self,
             SpAnalysisJob *job,
             SpAnalysisResult *result)
{
  if (job->work & SP_WORK_OPEN)
    {
      self->profile = sp_profile_ref (job->profile);
      self->following = job->follow;
      self->pending |= SP_WORK_BOTTOM_UP;
    }
  self->counts = g_steal_pointer (&job->counts);
  if (result->index != NULL)
    self->n_indexed = sp_sample_index_get_n_samples (result->index);
  if (result->threads != NULL)
    {
      g_clear_pointer (&self->last_threads, g_array_unref);
      self->last_threads = g_array_ref (result->threads);
    }
  if (result->states != NULL)
    {
      g_clear_pointer (&self->last_states, sp_thread_states_unref);
      self->last_states = sp_thread_states_ref (result->states);
      g_clear_pointer (&self->last_blocking_names, g_hash_table_unref);
      self->last_blocking_names = g_hash_table_ref (result->blocking_names);
    }
  /* Another recorder's recording ended (finished or died): read the rest.
   * The own recorder says so through sp_analysis_recording_ended. */
  if ((job->work & SP_WORK_PARSE) && job->recording_ended && self->following && !self->own_recording)
    self->ending = TRUE;
  /* Nothing chosen yet: the hottest function is the one shown. */
  if (self->focus == SP_FUNCTION_LIST_ROOT && result->callers != NULL)
    self->focus = result->focus.function;
  if (result->finished)
    {
      self->following = self->ending = FALSE;
      stop_live (self);
    }
  if (self->following)
    start_live (self);
}

static void
job_done (GObject *source,
          GAsyncResult *res,
          gpointer user_data)
{
  g_autoptr (SpAnalysis) self = user_data;
  SpAnalysisJob *job = g_task_get_task_data (G_TASK (res));
  g_autoptr (GError) error = NULL;
  SpAnalysisResult *result = g_task_propagate_pointer (G_TASK (res), &error);

  self->busy = FALSE;
  if (job->generation == self->generation && (job->work & SP_WORK_OPEN))
    g_clear_pointer (&self->opening_path, g_free);
  if (job->generation != self->generation)
    g_clear_pointer (&result, sp_analysis_result_free);
  else if (result == NULL)
    g_signal_emit (self, signals[SIGNAL_FAILED], 0, error);
  else
    {
      take_result (self, job, result);
      g_signal_emit (self, signals[SIGNAL_RESULT], 0, result);
      sp_analysis_result_free (result);
    }
  start_next (self);
}

/* What the caller/callee view needs along with new trees. */
static SpWork
with_callers (SpAnalysis *self,
              SpWork work)
{
  if ((work & SP_WORK_TREES) && self->callers_shown)
    work |= SP_WORK_FUNCTIONS | SP_WORK_CALLERS;
  else if (work & (SP_WORK_TREES | SP_WORK_OPEN))
    self->callers_stale = TRUE;
  if (work & SP_WORK_FUNCTIONS)
    self->callers_stale = FALSE;
  return work;
}

/* What the Source page needs along with new trees. */
static SpWork
with_source (SpAnalysis *self,
             SpWork work)
{
  if (self->annotated == SP_FUNCTION_LIST_ROOT)
    return work & ~SP_WORK_ANNOTATE;
  if ((work & SP_WORK_TREES) && self->source_shown)
    work |= SP_WORK_ANNOTATE;
  else if (work & SP_WORK_TREES)
    self->source_stale = TRUE;
  if (work & SP_WORK_ANNOTATE)
    self->source_stale = FALSE;
  return work;
}

static gboolean start_exclusive (SpAnalysis *self);

static void
start_next (SpAnalysis *self)
{
  g_autoptr (GTask) task = NULL;
  SpAnalysisJob *job;
  SpWork work = self->pending;

  if (self->busy || start_exclusive (self) || work == 0)
    return;
  if (self->profile == NULL && !(work & SP_WORK_OPEN))
    return;
  /* A file to open goes first; what the new profile needs follows it. */
  if (work & SP_WORK_OPEN)
    work = SP_WORK_OPEN;
  work = with_source (self, with_callers (self, work));
  self->pending &= ~work;
  job = g_new0 (SpAnalysisJob, 1);
  job->work = work;
  job->generation = self->generation;
  job->path = (work & SP_WORK_OPEN) ? g_steal_pointer (&self->open_path) : NULL;
  if (job->path != NULL)
    {
      g_free (self->opening_path);
      self->opening_path = g_strdup (job->path);
    }
  job->profile = self->profile != NULL ? sp_profile_ref (self->profile) : NULL;
  job->counts = g_steal_pointer (&self->counts);
  job->filter = sp_filter_copy (self->filter);
  job->focus = self->focus;
  job->annotated = self->annotated;
  job->place = self->place;
  if (work & SP_WORK_ANNOTATE)
    job->source_dirs = sp_source_dirs_copy (self->source_dirs);
  job->n_indexed = self->n_indexed;
  job->last_threads = self->last_threads != NULL ? g_array_ref (self->last_threads) : NULL;
  job->last_states = self->last_states != NULL ? sp_thread_states_ref (self->last_states) : NULL;
  job->last_blocking_names = self->last_blocking_names != NULL ? g_hash_table_ref (self->last_blocking_names) : NULL;
  self->busy = TRUE;
  task = g_task_new (NULL, NULL, job_done, g_object_ref (self));
  g_task_set_task_data (task, job, (GDestroyNotify) sp_analysis_job_free);
  g_task_run_in_thread (task, job_in_thread);
}

/* ---- Exclusive runs (sp-analysis-private.h) ------------------------------ */

typedef struct {
  GTask              *task;      /* the asker's */
  SpAnalysisWorkFunc  func;
  gpointer            data;
  GDestroyNotify      destroy;
  SpProfile          *profile;
  SpFilter           *filter;
} Exclusive;

static void
exclusive_free (Exclusive *x)
{
  if (x->destroy != NULL)
    x->destroy (x->data);
  g_object_unref (x->task);
  sp_profile_unref (x->profile);
  sp_filter_free (x->filter);
  g_free (x);
}

static void
exclusive_in_thread (GTask *task,
                     gpointer source_object,
                     gpointer task_data,
                     GCancellable *cancellable)
{
  Exclusive *x = task_data;
  GError *error = NULL;

  if (x->func (x->profile, x->filter, x->data, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
exclusive_done (GObject *source,
                GAsyncResult *res,
                gpointer user_data)
{
  g_autoptr (SpAnalysis) self = user_data;
  Exclusive *x = g_task_get_task_data (G_TASK (res));
  GError *error = NULL;

  self->busy = FALSE;
  if (g_task_propagate_boolean (G_TASK (res), &error))
    g_task_return_boolean (x->task, TRUE);
  else
    g_task_return_error (x->task, error);
  start_next (self);
}

/* Whether an exclusive run started: they go before the next job. */
static gboolean
start_exclusive (SpAnalysis *self)
{
  g_autoptr (GTask) task = NULL;
  Exclusive *x = g_queue_pop_head (&self->exclusive);

  if (x == NULL)
    return FALSE;
  self->busy = TRUE;
  task = g_task_new (NULL, NULL, exclusive_done, g_object_ref (self));
  g_task_set_task_data (task, x, (GDestroyNotify) exclusive_free);
  g_task_run_in_thread (task, exclusive_in_thread);
  return TRUE;
}

static void request (SpAnalysis *self, SpWork work);

void
_sp_analysis_run_exclusive (SpAnalysis *self,
                            GTask *task,
                            SpAnalysisWorkFunc func,
                            gpointer data,
                            GDestroyNotify destroy)
{
  Exclusive *x;

  if (self->profile == NULL)
    {
      if (destroy != NULL)
        destroy (data);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "No recording is open");
      return;
    }
  x = g_new0 (Exclusive, 1);
  x->task = g_object_ref (task);
  x->func = func;
  x->data = data;
  x->destroy = destroy;
  x->profile = sp_profile_ref (self->profile);
  x->filter = sp_filter_copy (self->filter);
  g_queue_push_tail (&self->exclusive, x);
  request (self, 0);
}

static gboolean
start_idle (gpointer data)
{
  SpAnalysis *self = data;

  self->start_source = 0;
  start_next (self);
  return G_SOURCE_REMOVE;
}

/* Asks for work: what is asked in one turn of the main loop runs as one
 * job (a view change that sets the focus and shows the callers, say). At
 * the default priority, so a job starts before the next frame is drawn. */
static void
request (SpAnalysis *self,
         SpWork work)
{
  self->pending |= work;
  if (!self->busy && self->start_source == 0)
    self->start_source = g_idle_add_full (G_PRIORITY_DEFAULT, start_idle, self, NULL);
}

/* New trees for a changed filter; while following, the next live update
 * brings them. */
static void
request_trees (SpAnalysis *self)
{
  if (self->profile == NULL || self->following)
    return;
  request (self, SP_WORK_TREES);
}

/* ---- Public -------------------------------------------------------------- */

SpAnalysis *
sp_analysis_new (void)
{
  return g_object_new (SP_TYPE_ANALYSIS, NULL);
}

void
sp_analysis_open (SpAnalysis *self,
                  const char *path)
{
  g_return_if_fail (SP_IS_ANALYSIS (self));
  /* Already on its way (sp_analysis_open_now, before the window came). */
  if (self->opening_path != NULL && g_str_equal (self->opening_path, path) && self->pending == 0)
    return;
  drop_profile (self);
  g_free (self->open_path);
  self->open_path = g_strdup (path);
  request (self, SP_WORK_OPEN);
}

void
sp_analysis_open_now (SpAnalysis *self,
                      const char *path)
{
  g_return_if_fail (SP_IS_ANALYSIS (self));
  sp_analysis_open (self, path);
  g_clear_handle_id (&self->start_source, g_source_remove);
  start_next (self);
}

void
sp_analysis_follow_recording (SpAnalysis *self,
                              const char *path)
{
  g_return_if_fail (SP_IS_ANALYSIS (self));
  drop_profile (self);
  self->record_path = g_strdup (path);
  self->following = self->own_recording = TRUE;
  start_live (self);
}

void
sp_analysis_recording_ended (SpAnalysis *self)
{
  g_return_if_fail (SP_IS_ANALYSIS (self));
  if (!self->following)
    return;
  self->ending = TRUE;
  start_live (self);
}

void
sp_analysis_stop (SpAnalysis *self)
{
  g_return_if_fail (SP_IS_ANALYSIS (self));
  drop_profile (self);
}

void
sp_analysis_reload_symbols (SpAnalysis *self)
{
  g_return_if_fail (SP_IS_ANALYSIS (self));
  if (self->profile == NULL)
    return;
  /* The function shown may have been an address that now has a name (and
   * a new id): the hottest is shown again. */
  self->focus = SP_FUNCTION_LIST_ROOT;
  /* Also while following: the next live update would not resolve again. */
  request (self, SP_WORK_RELOAD_SYMBOLS | SP_WORK_TREES);
}

SpProfile *sp_analysis_get_profile (SpAnalysis *self) { return self->profile; }
gboolean sp_analysis_is_following (SpAnalysis *self) { return self->following; }
const SpFilter *sp_analysis_get_filter (SpAnalysis *self) { return self->filter; }
guint32 sp_analysis_get_focus (SpAnalysis *self) { return self->focus; }
gboolean sp_analysis_is_busy (SpAnalysis *self) { return self->busy || self->start_source != 0; }

void
sp_analysis_set_time_range (SpAnalysis *self,
                            guint64 from_ns,
                            guint64 to_ns)
{
  if (self->filter->from_ns == from_ns && self->filter->to_ns == to_ns)
    return;
  sp_filter_set_time_range (self->filter, from_ns, to_ns);
  request_trees (self);
}

void
sp_analysis_set_thread_hidden (SpAnalysis *self,
                               guint32 thread,
                               gboolean hidden)
{
  sp_filter_set_thread_hidden (self->filter, thread, hidden);
  request_trees (self);
}

void
sp_analysis_set_metric (SpAnalysis *self,
                        SpMetric metric)
{
  if (self->filter->metric == metric)
    return;
  sp_filter_set_metric (self->filter, metric);
  request_trees (self);
}

void
sp_analysis_add_function_transform (SpAnalysis *self,
                                    SpTransformKind kind,
                                    guint32 function)
{
  sp_filter_add_function_transform (self->filter, kind, function);
  request_trees (self);
}

void
sp_analysis_add_focus_subtree (SpAnalysis *self,
                               const guint32 *path,
                               guint n_path)
{
  sp_filter_add_focus_subtree (self->filter, path, n_path);
  request_trees (self);
}

void
sp_analysis_add_collapse_module (SpAnalysis *self,
                                 const char *module)
{
  sp_filter_add_collapse_module (self->filter, module);
  request_trees (self);
}

gboolean
sp_analysis_pop_transform (SpAnalysis *self,
                           gboolean all)
{
  gboolean popped = sp_filter_pop_transform (self->filter);

  while (all && sp_filter_pop_transform (self->filter))
    ;
  if (popped)
    request_trees (self);
  return popped;
}

void
sp_analysis_set_callers_shown (SpAnalysis *self,
                               gboolean shown)
{
  self->callers_shown = shown;
  if (shown && self->callers_stale && self->profile != NULL)
    request (self, SP_WORK_FUNCTIONS | SP_WORK_CALLERS);
}

void
sp_analysis_set_focus (SpAnalysis *self,
                       guint32 function)
{
  if (function == self->focus && !self->callers_stale)
    return;
  self->focus = function;
  if (self->profile == NULL)
    return;
  request (self, SP_WORK_CALLERS | (self->callers_stale || function == SP_FUNCTION_LIST_ROOT ? SP_WORK_FUNCTIONS : 0));
}

void
sp_analysis_annotate (SpAnalysis *self,
                      guint32 function,
                      guint place)
{
  g_return_if_fail (SP_IS_ANALYSIS (self));
  self->annotated = function;
  self->place = place;
  if (self->source_dirs == NULL)
    self->source_dirs = sp_source_dirs_load (NULL);
  if (self->profile != NULL && function != SP_FUNCTION_LIST_ROOT)
    request (self, SP_WORK_ANNOTATE);
}

guint32 sp_analysis_get_annotated (SpAnalysis *self) { return self->annotated; }

void
sp_analysis_set_source_shown (SpAnalysis *self,
                              gboolean shown)
{
  self->source_shown = shown;
  if (shown && self->source_stale && self->profile != NULL)
    request (self, SP_WORK_ANNOTATE);
}

gboolean
sp_analysis_add_source_dir (SpAnalysis *self,
                            const char *wanted,
                            const char *folder,
                            GError **error)
{
  gboolean saved;

  if (self->source_dirs == NULL)
    self->source_dirs = sp_source_dirs_load (NULL);
  saved = sp_source_dirs_remember (self->source_dirs, wanted, folder, NULL, error);
  if (self->profile != NULL && self->annotated != SP_FUNCTION_LIST_ROOT)
    request (self, SP_WORK_ANNOTATE);
  return saved;
}

/* ---- GObject ------------------------------------------------------------- */

static void
sp_analysis_dispose (GObject *object)
{
  SpAnalysis *self = SP_ANALYSIS (object);

  drop_profile (self);
  g_clear_handle_id (&self->start_source, g_source_remove);
  /* Not reached while the askers' tasks hold the analysis; for a forced
   * dispose. */
  for (Exclusive *x; (x = g_queue_pop_head (&self->exclusive)) != NULL; exclusive_free (x))
    g_task_return_new_error (x->task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The recording was closed");
  G_OBJECT_CLASS (sp_analysis_parent_class)->dispose (object);
}

static void
sp_analysis_finalize (GObject *object)
{
  SpAnalysis *self = SP_ANALYSIS (object);

  sp_filter_free (self->filter);
  sp_source_dirs_free (self->source_dirs);
  g_free (self->open_path);
  g_free (self->opening_path);
  G_OBJECT_CLASS (sp_analysis_parent_class)->finalize (object);
}

static void
sp_analysis_class_init (SpAnalysisClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sp_analysis_dispose;
  object_class->finalize = sp_analysis_finalize;
  /* A run ended (SpAnalysisResult *: handlers may steal its parts). */
  signals[SIGNAL_RESULT] = g_signal_new ("result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* The file could not be opened (GError *). */
  signals[SIGNAL_FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
sp_analysis_init (SpAnalysis *self)
{
  self->filter = sp_filter_new ();
  self->focus = SP_FUNCTION_LIST_ROOT;
  self->callers_stale = TRUE;
  self->annotated = SP_FUNCTION_LIST_ROOT;
}
