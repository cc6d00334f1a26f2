/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-profile-private.h: what data/'s aggregations keep in a profile.
 *
 * The top-down tree's shape (every (parent, function) node met so far, and
 * which node each stack node folds into) is the same for every time range
 * and thread set, so it is built once per profile and only re-weighted per
 * query. A time range is counted from a time-sorted sample index. Both are
 * the worker's: used by one thread at a time, like the rest of a profile. */
#pragma once

#include "sp-profile.h"
#include "sp-sample-index.h"
#include "sp-symbolizer.h"

typedef struct _SpTreeSkeleton SpTreeSkeleton;

/* Defined in sp-call-tree.c. */
void _sp_tree_skeleton_free (SpTreeSkeleton *skeleton);

/* The profile's skeleton slot (NULL until the first top-down tree). */
SpTreeSkeleton **_sp_profile_get_skeleton_slot (SpProfile *self);

/* The profile's own time-sorted index, brought up to date. */
SpSampleIndex *_sp_profile_get_sample_index (SpProfile *self);

/* The profile's symbolizer, for the file and line of each inline level
 * (sp-annotation.c): the worker's, like the rest. */
SpSymbolizer *_sp_profile_get_symbolizer (SpProfile *self);
