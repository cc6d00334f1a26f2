/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-companion.c: follow PATH.offcpu, derive the thread states. */
#include "sp-offcpu-companion-private.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "sp-offcpu-belonging-private.h"

struct _SpOffCpuCompanion
{
  char           *spool_path;
  char           *path;
  SpOffCpuReader *reader;         /* NULL while there is no companion, or once set aside */
  gboolean        set_aside;      /* not a companion, or not this recording's: never read again */
  char           *problem;
  SpThreadStates *states;
  gsize           states_records; /* usable records the states were made from */
  gsize           states_samples;
  gsize           states_threads;
  gboolean        states_cut;     /* made as a cut or damaged companion's */
};

SpOffCpuCompanion *
_sp_offcpu_companion_new (const char *spool_path)
{
  SpOffCpuCompanion *companion = g_new0 (SpOffCpuCompanion, 1);

  companion->spool_path = g_strdup (spool_path);
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
  g_free (companion->problem);
  g_free (companion->path);
  g_free (companion->spool_path);
  g_free (companion);
}

static void
set_problem (SpOffCpuCompanion *companion,
             char *problem)
{
  g_free (companion->problem);
  companion->problem = problem;
}

/* No thread state comes from it: the records read so far are dropped. */
static void
set_aside (SpOffCpuCompanion *companion,
           char *problem)
{
  set_problem (companion, problem);
  companion->set_aside = TRUE;
  g_clear_pointer (&companion->reader, sp_offcpu_reader_free);
  g_clear_pointer (&companion->states, sp_thread_states_unref);
}

/* One sentence: what is wrong, and what is used. Damage before the
 * header leaves nothing that is known to be a companion. */
static void
set_damage (SpOffCpuCompanion *companion,
            const SpSpoolError *err)
{
  gboolean header = companion->reader != NULL && sp_offcpu_reader_has_header (companion->reader);
  const char *path = companion->path;

  if (companion->problem != NULL)
    return;
  if (err->code == SP_SPOOL_ERROR_TRUNCATED && header)
    set_problem (companion, g_strdup_printf ("%s is cut short at byte %" G_GUINT64_FORMAT
                                             ": off-CPU data up to there is used", path, err->record_offset));
  else if (err->code == SP_SPOOL_ERROR_INVALID && header)
    set_problem (companion, g_strdup_printf ("%s has %s at byte %" G_GUINT64_FORMAT
                                             ": off-CPU data before it is used", path, err->message,
                                             err->record_offset));
  else if (err->code == SP_SPOOL_ERROR_TRUNCATED)
    set_aside (companion, g_strdup_printf ("%s is cut short inside its header: off-CPU data is not read", path));
  else if (err->code == SP_SPOOL_ERROR_INVALID)
    set_aside (companion, g_strdup_printf ("%s is not an off-CPU companion (no SPOFF1 header): "
                                           "off-CPU data is not read", path));
  else if (header)
    set_problem (companion, g_strdup_printf ("%s: %s: off-CPU data read before it is used", path, err->message));
  else
    /* Opening messages name the file already ("… is a FIFO (named pipe), not a regular file"). */
    set_aside (companion, g_strdup_printf ("%s: off-CPU data is not read", err->message));
}

/* Missing is the ordinary case (recorded without --off-cpu, or not
 * written yet); anything else that stops it from opening is said. */
static void
try_open (SpOffCpuCompanion *companion)
{
  SpSpoolError err;
  GStatBuf st;

  if (companion->set_aside || (g_lstat (companion->path, &st) != 0 && errno == ENOENT))
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
  if (companion->reader == NULL)
    return;
  if (!sp_offcpu_reader_finish (companion->reader, &err))
    set_damage (companion, &err);
  else if (!sp_offcpu_reader_has_header (companion->reader))
    set_aside (companion, g_strdup_printf ("%s is empty: there is no off-CPU data to read", companion->path));
}

static guint64
file_size (const char *path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 ? (guint64) st.st_size : 0;
}

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

void
_sp_offcpu_companion_check (SpOffCpuCompanion *companion,
                            const SpSpoolReader *reader,
                            GKeyFile *meta,
                            gboolean finished)
{
  const SpOffCpuRecord *records;
  gsize n_records;
  g_autofree char *why = NULL;
  SpOffCpuOwner owner = { meta, reader, file_size (companion->spool_path), file_size (companion->path), finished };
  guint64 written = _sp_offcpu_belonging_written_size (&owner);

  if (companion->reader == NULL)
    {
      if (finished && companion->problem == NULL && meta != NULL
          && g_key_file_get_boolean (meta, "recording", "off_cpu", NULL))
        set_problem (companion, g_strdup_printf ("%s is missing, though the side file says the recording was made "
                                                 "with --off-cpu: only the side file's per-thread totals are known",
                                                 companion->path));
      return;
    }
  if (!sp_offcpu_reader_has_header (companion->reader))
    return;
  records = sp_offcpu_reader_get_records (companion->reader);
  n_records = sp_offcpu_reader_get_n_records (companion->reader);
  why = _sp_offcpu_belonging_check (records, n_records,
                                    count_usable (records, n_records, sp_spool_reader_get_parsed_size (reader)),
                                    &owner);
  if (why != NULL)
    set_aside (companion, g_strdup_printf ("%s does not belong to this recording: %s; off-CPU data is not read",
                                           companion->path, why));
  else if (companion->problem == NULL && written != G_MAXUINT64 && owner.companion_size < written)
    /* Cut on a record boundary: every record read is whole. */
    set_problem (companion, g_strdup_printf ("%s is cut short at byte %" G_GUINT64_FORMAT " of the %" G_GUINT64_FORMAT
                                             " the recorder wrote: off-CPU data up to there is used",
                                             companion->path, owner.companion_size, written));
}

gboolean
_sp_offcpu_companion_exists (const SpOffCpuCompanion *companion)
{
  return companion->reader != NULL && sp_offcpu_reader_has_header (companion->reader);
}

const char *_sp_offcpu_companion_get_problem (const SpOffCpuCompanion *companion) { return companion->problem; }

gboolean
_sp_offcpu_companion_get_span (const SpOffCpuCompanion *companion,
                               const SpSpoolReader *reader,
                               guint64 *first_ns,
                               guint64 *last_ns)
{
  const SpOffCpuRecord *records;
  gsize n_records;

  *first_ns = G_MAXUINT64;
  *last_ns = 0;
  if (!_sp_offcpu_companion_exists (companion))
    return FALSE;
  records = sp_offcpu_reader_get_records (companion->reader);
  n_records = count_usable (records, sp_offcpu_reader_get_n_records (companion->reader),
                            sp_spool_reader_get_parsed_size (reader));
  for (gsize i = 0; i < n_records; i++)
    if (records[i].tag != SP_OFFCPU_SYNC)
      {
        *first_ns = MIN (*first_ns, records[i].timestamp_ns);
        *last_ns = MAX (*last_ns, records[i].timestamp_ns);
      }
  return *first_ns != G_MAXUINT64;
}

/* Where open stretches end: the latest sample or record; for a
 * companion cut short or damaged, its last record (what came after the
 * cut is not known: it is no running time). */
static guint64
latest_time (const SpOffCpuRecord *records,
             gsize n_records,
             SpSampleIndex *index,
             gboolean cut)
{
  guint64 first, last = 0;

  if (cut || !sp_sample_index_get_time_span (index, &first, &last))
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

  if (!_sp_offcpu_companion_exists (companion))
    return NULL;
  records = sp_offcpu_reader_get_records (companion->reader);
  n_records = count_usable (records, sp_offcpu_reader_get_n_records (companion->reader),
                            sp_spool_reader_get_parsed_size (reader));
  if (companion->states != NULL && companion->states_records == n_records && companion->states_samples == n_samples
      && companion->states_threads == n_threads && companion->states_cut == (companion->problem != NULL))
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
  /* A companion read with a problem is one cut short or damaged (one
   * set aside is not read at all). */
  companion->states_cut = companion->problem != NULL;
  companion->states = sp_thread_states_new (records, n_records, n_threads, first_sample,
                                            latest_time (records, n_records, index, companion->states_cut));
  companion->states_records = n_records;
  companion->states_samples = n_samples;
  companion->states_threads = n_threads;
  return companion->states;
}
