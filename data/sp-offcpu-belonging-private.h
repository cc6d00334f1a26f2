/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-belonging-private.h: whether PATH.offcpu is this recording's.
 *
 * The SPOFF1 file names nothing of its spool: a companion copied from
 * another recording, or left beside a spool recorded again, reads as well
 * as the right one and gives invented numbers. What ties them is in the
 * files already: the side file says --off-cpu (off_cpu=true) and, once the
 * recording is complete, how long the companion is (off_cpu_bytes) and
 * when the recording ran (start_monotonic_ns, end_monotonic_ns); the
 * companion's SYNC records name offsets of the spool, and its records the
 * spool's thread and stack ids. A companion that breaks one of these is
 * not read. */
#pragma once

#include <glib.h>

#include "sp-offcpu.h"
#include "sp-spool-reader.h"

/* The recorder reads its start before it enables the events and its end
 * before it disables them, so every switch falls between, give or take
 * the last drain; a second's room. Another recording's are further away
 * unless it ran right after this one (then the ids usually tell). */
#define SP_OFFCPU_TIME_SLACK_NS (G_GUINT64_CONSTANT (1) * 1000000000)

typedef struct {
  GKeyFile            *meta;           /* the side file, or NULL without one */
  const SpSpoolReader *spool;          /* as parsed */
  guint64              spool_size;     /* the spool file's size now */
  guint64              companion_size; /* the companion file's size now */
  gboolean             finished;       /* both files are read to their end; before,
                                        * the side file is not judged by */
} SpOffCpuOwner;

/* The companion's length the complete recording's side file gives
 * (off_cpu_bytes); G_MAXUINT64 when it gives none. */
guint64 _sp_offcpu_belonging_written_size (const SpOffCpuOwner *owner);

/* Why records (the first n_usable of them have ids the parsed spool
 * defines) cannot be owner's companion, as a clause ("its side file does
 * not say …"); NULL when nothing says they are not. */
char *_sp_offcpu_belonging_check (const SpOffCpuRecord *records,
                                  gsize n_records,
                                  gsize n_usable,
                                  const SpOffCpuOwner *owner);
