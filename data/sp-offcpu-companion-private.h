/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-companion-private.h: a profile's off-CPU companion stream.
 *
 * PATH.offcpu (docs/OFF-CPU.md) read through the codec's follower, and the
 * thread states derived from it. A recording without one simply has
 * none; one that appears while a recording is followed is opened then.
 * What is wrong with it is kept here as one sentence (what, and what is
 * used) and never touches the main spool's damage. A file that is no
 * companion (no SPOFF1 header, empty) or not this recording's
 * (sp-offcpu-belonging-private.h) is not read at all: no states, as
 * without one. Owned by the profile, used by its updating thread. */
#pragma once

#include <glib.h>

#include "sp-sample-index.h"
#include "sp-spool-reader.h"
#include "sp-thread-states.h"

typedef struct _SpOffCpuCompanion SpOffCpuCompanion;

/* Nothing is opened before the first update. */
SpOffCpuCompanion *_sp_offcpu_companion_new (const char *spool_path);
void _sp_offcpu_companion_free (SpOffCpuCompanion *companion);

/* Opens the companion once it exists, then parses what was appended. */
void _sp_offcpu_companion_update (SpOffCpuCompanion *companion);
/* Ends following: an incomplete tail becomes damage, an empty file or
 * one cut inside its header is set aside. */
void _sp_offcpu_companion_finish (SpOffCpuCompanion *companion);
/* After the spool and the side file (meta, may be NULL) were read as far
 * as the companion: sets the companion aside when it is not theirs, and,
 * once finished, says it is missing when the side file says
 * off_cpu=true. */
void _sp_offcpu_companion_check (SpOffCpuCompanion *companion,
                                 const SpSpoolReader *reader,
                                 GKeyFile *meta,
                                 gboolean finished);

/* Whether a companion is read (it has its header and was not set aside). */
gboolean _sp_offcpu_companion_exists (const SpOffCpuCompanion *companion);
/* What is wrong with it (missing, damaged, not this recording's), or NULL. */
const char *_sp_offcpu_companion_get_problem (const SpOffCpuCompanion *companion);
/* The first and last time of its records the parsed spool resolves;
 * FALSE without any. */
gboolean _sp_offcpu_companion_get_span (const SpOffCpuCompanion *companion,
                                        const SpSpoolReader *reader,
                                        guint64 *first_ns,
                                        guint64 *last_ns);

/* The states of the records whose ids the main spool (reader, as parsed)
 * defines, with the samples of index; re-derived when either grew. NULL
 * without a companion. */
SpThreadStates *_sp_offcpu_companion_get_states (SpOffCpuCompanion *companion,
                                                 const SpSpoolReader *reader,
                                                 SpSampleIndex *index);
