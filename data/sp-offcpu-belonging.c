/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-belonging.c: a companion checked against its spool and side file. */
#include "sp-offcpu-belonging-private.h"

static guint64
meta_u64 (GKeyFile *meta,
          const char *key,
          gboolean *has)
{
  *has = meta != NULL && g_key_file_has_key (meta, "recording", key, NULL);
  return *has ? g_key_file_get_uint64 (meta, "recording", key, NULL) : 0;
}

guint64
_sp_offcpu_belonging_written_size (const SpOffCpuOwner *owner)
{
  gboolean has;
  guint64 written = meta_u64 (owner->meta, "off_cpu_bytes", &has);

  if (!owner->finished || !has || !g_key_file_get_boolean (owner->meta, "recording", "complete", NULL))
    return G_MAXUINT64;
  return written;
}

/* Longer than the recorder wrote: more than this recording. (Shorter is
 * a companion cut short, which the records themselves judge.) */
static char *
check_size (const SpOffCpuOwner *owner)
{
  guint64 written = _sp_offcpu_belonging_written_size (owner);

  if (written == G_MAXUINT64 || owner->companion_size <= written)
    return NULL;
  return g_strdup_printf ("it holds %" G_GUINT64_FORMAT " bytes where the recorder wrote %" G_GUINT64_FORMAT
                          " (the side file's off_cpu_bytes)", owner->companion_size, written);
}

static char *
check_ids (const SpOffCpuRecord *records,
           gsize n_records,
           gsize n_usable,
           const SpOffCpuOwner *owner)
{
  gsize n_threads = sp_spool_reader_get_n_threads (owner->spool);
  gsize n_stacks = sp_spool_reader_get_n_stack_nodes (owner->spool);

  for (gsize i = 0; i < n_records; i++)
    {
      const SpOffCpuRecord *r = &records[i];

      if (r->tag == SP_OFFCPU_SYNC && r->spool_bytes > owner->spool_size)
        return g_strdup_printf ("it says the spool has at least %" G_GUINT64_FORMAT " bytes, but the spool has %"
                                G_GUINT64_FORMAT, r->spool_bytes, owner->spool_size);
      if (i >= n_usable || r->tag == SP_OFFCPU_SYNC)
        continue;
      if (r->thread >= n_threads)
        return g_strdup_printf ("it names thread %u, which the spool does not define (it has %" G_GSIZE_FORMAT ")",
                                r->thread, n_threads);
      if (r->tag == SP_OFFCPU_SWITCH_OUT && r->stack != SP_SPOOL_NO_ID && r->stack >= n_stacks)
        return g_strdup_printf ("it names stack %u, which the spool does not define (it has %" G_GSIZE_FORMAT ")",
                                r->stack, n_stacks);
    }
  return NULL;
}

/* When the recording ran: the side file's clock readings; FALSE when it
 * has none. The samples tell neither end: a thread may sleep long before
 * its first sample and after its last (`sleep 1` has one, as it exits:
 * its blocked second came before it). */
static gboolean
recording_span (const SpOffCpuOwner *owner,
                guint64 *start_ns,
                guint64 *end_ns)
{
  gboolean has_start, has_end;

  *start_ns = meta_u64 (owner->meta, "start_monotonic_ns", &has_start);
  *end_ns = meta_u64 (owner->meta, "end_monotonic_ns", &has_end);
  if (!has_end || !g_key_file_get_boolean (owner->meta, "recording", "complete", NULL))
    *end_ns = G_MAXUINT64;
  if (!has_start)
    *start_ns = 0;
  return has_start || *end_ns != G_MAXUINT64;
}

static char *
check_times (const SpOffCpuRecord *records,
             gsize n_records,
             const SpOffCpuOwner *owner)
{
  guint64 start, end, first = G_MAXUINT64, last = 0;

  if (!recording_span (owner, &start, &end))
    return NULL;
  for (gsize i = 0; i < n_records; i++)
    if (records[i].tag != SP_OFFCPU_SYNC)
      {
        first = MIN (first, records[i].timestamp_ns);
        last = MAX (last, records[i].timestamp_ns);
      }
  if (first == G_MAXUINT64)
    return NULL;
  if (first + SP_OFFCPU_TIME_SLACK_NS < start)
    return g_strdup_printf ("its records begin %.1f s before the recording started", (start - first) / 1e9);
  if (end != G_MAXUINT64 && last > end + SP_OFFCPU_TIME_SLACK_NS)
    return g_strdup_printf ("its records go on %.1f s after the recording ended", (last - end) / 1e9);
  return NULL;
}

char *
_sp_offcpu_belonging_check (const SpOffCpuRecord *records,
                            gsize n_records,
                            gsize n_usable,
                            const SpOffCpuOwner *owner)
{
  /* While a recording is followed, its side file may still be an earlier
   * recording's of the same name (the recorder writes its own right after
   * placing the spool): only the spool is judged then. */
  SpOffCpuOwner judged = *owner;
  char *why;

  if (!owner->finished)
    judged.meta = NULL;
  if (judged.meta != NULL && !g_key_file_get_boolean (judged.meta, "recording", "off_cpu", NULL))
    return g_strdup ("its side file does not say it was recorded with --off-cpu (no off_cpu=true)");
  why = check_size (&judged);
  if (why == NULL)
    why = check_times (records, n_records, &judged);
  if (why == NULL)
    why = check_ids (records, n_records, n_usable, &judged);
  return why;
}
