/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-export.h: a profile in other tools' formats.
 *
 * Collapsed ("folded") stacks: one line per distinct stack, functions root
 * first joined by ';', a space, the sample count (with a time metric,
 * SpFilter.metric, the time in µs); read by flamegraph.pl, speedscope and
 * inferno. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "sp-filter.h"
#include "sp-profile.h"

G_BEGIN_DECLS

/* Stacks that end up identical after the transforms are merged; lines come
 * sorted, so the output is stable. */
gboolean sp_export_collapsed (SpProfile *profile,
                              const SpFilter *filter,
                              FILE *out);

G_END_DECLS
