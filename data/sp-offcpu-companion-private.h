/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-offcpu-companion-private.h: a profile's off-CPU companion stream.
 *
 * PATH.offcpu (docs/OFF-CPU.md) read through the codec's follower, and the
 * thread states derived from it. A recording without one simply has
 * none; one that appears while a recording is followed is opened then.
 * Damage in it is kept here and never touches the main spool's. Owned by
 * the profile, used by its updating thread. */
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
/* Ends following: an incomplete tail becomes damage. */
void _sp_offcpu_companion_finish (SpOffCpuCompanion *companion);

gboolean _sp_offcpu_companion_exists (const SpOffCpuCompanion *companion);
const char *_sp_offcpu_companion_get_damage (const SpOffCpuCompanion *companion);

/* The states of the records whose ids the main spool (reader, as parsed)
 * defines, with the samples of index; re-derived when either grew. NULL
 * without a companion. */
SpThreadStates *_sp_offcpu_companion_get_states (SpOffCpuCompanion *companion,
                                                 const SpSpoolReader *reader,
                                                 SpSampleIndex *index);
