/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-companion.c: follow PATH.offcpu, derive the thread states. */
#include "sp-offcpu-companion-private.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "sp-spool-errors.h"

struct _SpOffCpuCompanion
{
  char           *path;
  SpOffCpuReader *reader;         /* NULL while there is no companion */
  char           *damage;
  SpThreadStates *states;
  gsize           states_records; /* usable records the states were made from */
  gsize           states_samples;
  gsize           states_threads;
};

SpOffCpuCompanion *
_sp_offcpu_companion_new (const char *spool_path)
{
  SpOffCpuCompanion *companion = g_new0 (SpOffCpuCompanion, 1);

  companion->path = g_strconcat (spool_path, ".offcpu", NULL);
  return companion;
}

void
_sp_offcpu_companion_free (SpOffCpuCompanion *companion)
{
  if (companion == NULL)
    return;
  sp_offcpu_reader_free (companion->reader);
  sp_thread_states_unref (companion->states);
  g_free (companion->damage);
  g_free (companion->path);
  g_free (companion);
}

static void
set_damage (SpOffCpuCompanion *companion,
            const SpSpoolError *err)
{
  g_autofree char *what = NULL;

  if (companion->damage != NULL)
    return;
  what = sp_spool_error_describe (err);
  companion->damage = g_strdup_printf ("the off-CPU companion %s: %s", companion->path, what);
}

/* Missing is the ordinary case (recorded without --off-cpu, or not
 * written yet); anything else that stops it from opening is said. */
static void
try_open (SpOffCpuCompanion *companion)
{
  SpSpoolError err;
  GStatBuf st;

  if (companion->damage != NULL || (g_lstat (companion->path, &st) != 0 && errno == ENOENT))
    return;
  companion->reader = sp_offcpu_reader_open_follow (companion->path, &err);
  if (companion->reader == NULL)
    set_damage (companion, &err);
}

void
_sp_offcpu_companion_update (SpOffCpuCompanion *companion)
{
  SpSpoolError err;

  if (companion->reader == NULL)
    try_open (companion);
  if (companion->reader != NULL && !sp_offcpu_reader_update (companion->reader, &err))
    set_damage (companion, &err);
}

void
_sp_offcpu_companion_finish (SpOffCpuCompanion *companion)
{
  SpSpoolError err;

  _sp_offcpu_companion_update (companion);
  if (companion->reader != NULL && !sp_offcpu_reader_finish (companion->reader, &err))
    set_damage (companion, &err);
}

gboolean _sp_offcpu_companion_exists (const SpOffCpuCompanion *companion) { return companion->reader != NULL; }
const char *_sp_offcpu_companion_get_damage (const SpOffCpuCompanion *companion) { return companion->damage; }

/* Records after a SYNC name ids the main spool defines only within its
 * first spool_bytes: those wait until the spool is read that far. */
static gsize
count_usable (const SpOffCpuRecord *records,
              gsize n_records,
              guint64 spool_parsed)
{
  for (gsize i = 0; i < n_records; i++)
    if (records[i].tag == SP_OFFCPU_SYNC && records[i].spool_bytes > spool_parsed)
      return i;
  return n_records;
}

static guint64
latest_time (const SpOffCpuRecord *records,
             gsize n_records,
             SpSampleIndex *index)
{
  guint64 first, last = 0;

  if (!sp_sample_index_get_time_span (index, &first, &last))
    last = 0;
  for (gsize i = 0; i < n_records; i++)
    if (records[i].tag != SP_OFFCPU_SYNC)
      last = MAX (last, records[i].timestamp_ns);
  return last;
}

SpThreadStates *
_sp_offcpu_companion_get_states (SpOffCpuCompanion *companion,
                                 const SpSpoolReader *reader,
                                 SpSampleIndex *index)
{
  const SpOffCpuRecord *records;
  gsize n_records, n_samples = sp_sample_index_get_n_samples (index);
  guint n_threads = (guint) sp_spool_reader_get_n_threads (reader);
  g_autofree guint64 *first_sample = NULL;

  if (companion->reader == NULL)
    return NULL;
  records = sp_offcpu_reader_get_records (companion->reader);
  n_records = count_usable (records, sp_offcpu_reader_get_n_records (companion->reader),
                            sp_spool_reader_get_parsed_size (reader));
  if (companion->states != NULL && companion->states_records == n_records && companion->states_samples == n_samples
      && companion->states_threads == n_threads)
    return companion->states;
  first_sample = g_new (guint64, MAX (n_threads, 1));
  for (guint t = 0; t < n_threads; t++)
    {
      guint64 last;

      if (!sp_sample_index_get_thread_span (index, t, &first_sample[t], &last))
        first_sample[t] = G_MAXUINT64;
    }
  /* Re-derived whole: switch records of several CPUs arrive out of order,
   * so a thread's last stretch may change with any update. */
  sp_thread_states_unref (companion->states);
  companion->states = sp_thread_states_new (records, n_records, n_threads, first_sample,
                                            latest_time (records, n_records, index));
  companion->states_records = n_records;
  companion->states_samples = n_samples;
  companion->states_threads = n_threads;
  return companion->states;
}
