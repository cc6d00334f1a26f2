/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-timeline.c: one pass over a range of the sample index per timeline. */
#include "sp-timeline.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The counting thread's nice value. */
#define COUNT_NICE 10

SpTimeline *
sp_timeline_new (const SpSampleIndex *index,
                 guint64 from_ns,
                 guint64 to_ns,
                 guint n_buckets)
{
  SpTimeline *timeline = g_new0 (SpTimeline, 1);
  guint64 span = to_ns > from_ns ? to_ns - from_ns : 1;
  gsize first, last;
  SpSampleRun run;

  g_return_val_if_fail (n_buckets > 0, timeline);
  timeline->from_ns = from_ns;
  timeline->to_ns = to_ns;
  timeline->n_buckets = n_buckets;
  timeline->n_threads = sp_sample_index_get_n_threads (index);
  timeline->counts = g_new0 (guint32, (gsize) MAX (timeline->n_threads, 1) * n_buckets);
  sp_sample_index_find_range (index, from_ns, to_ns, &first, &last);
  for (gsize pos = first; pos < last; pos += run.n)
    {
      sp_sample_index_get_run (index, pos, last, &run);
      for (gsize i = 0; i < run.n; i++)
        {
          guint bucket = (guint) ((double) (run.time[i] - from_ns) / (double) span * n_buckets);
          guint32 *count;

          bucket = MIN (bucket, n_buckets - 1);
          count = &timeline->counts[(gsize) run.thread[i] * n_buckets + bucket];
          (*count)++;
          timeline->max_count = MAX (timeline->max_count, *count);
        }
    }
  return timeline;
}

void
sp_timeline_free (SpTimeline *timeline)
{
  if (timeline == NULL)
    return;
  g_free (timeline->counts);
  g_free (timeline);
}

/* ---- Counting on another thread ----------------------------------------- */

typedef struct {
  SpSampleIndex *index;
  guint64        from_ns;
  guint64        to_ns;
  guint          n_buckets;
} CountJob;

static void
count_job_free (gpointer data)
{
  CountJob *job = data;

  sp_sample_index_unref (job->index);
  g_free (job);
}

/* Each count runs on a thread of its own at COUNT_NICE (Linux: nice is
 * per thread), not in GLib's shared pool, where a nice value would stay
 * with a thread other work reuses. Behind the main thread: at 50M samples
 * a count beside the analysis worker, both at nice 0 on two CPUs, left
 * the main thread two thirds of a CPU, and the frames of a window loading
 * the recording took up to 100 ms apart where they needed 60 (issue 18). */
static gpointer
count_in_thread (gpointer data)
{
  GTask *task = data;
  CountJob *job = g_task_get_task_data (task);

  setpriority (PRIO_PROCESS, (id_t) syscall (SYS_gettid), COUNT_NICE);
  /* A newer range may have made this one useless while it waited. */
  if (!g_task_return_error_if_cancelled (task))
    g_task_return_pointer (task, sp_timeline_new (job->index, job->from_ns, job->to_ns, job->n_buckets),
                           (GDestroyNotify) sp_timeline_free);
  g_object_unref (task);
  return NULL;
}

void
sp_timeline_new_async (gpointer source_object,
                       SpSampleIndex *index,
                       guint64 from_ns,
                       guint64 to_ns,
                       guint n_buckets,
                       GCancellable *cancellable,
                       GAsyncReadyCallback callback,
                       gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (source_object, cancellable, callback, user_data);
  CountJob *job = g_new (CountJob, 1);

  *job = (CountJob) { sp_sample_index_ref (index), from_ns, to_ns, n_buckets };
  g_task_set_source_tag (task, sp_timeline_new_async);
  g_task_set_task_data (task, job, count_job_free);
  g_thread_unref (g_thread_new ("stackpulse-count", count_in_thread, g_steal_pointer (&task)));
}

SpTimeline *
sp_timeline_new_finish (GAsyncResult *result,
                        GError **error)
{
  g_return_val_if_fail (G_IS_TASK (result), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
