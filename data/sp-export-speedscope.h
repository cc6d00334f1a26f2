/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-export-speedscope.h: a profile in speedscope's file format
 * (https://www.speedscope.app/file-format-schema.json).
 *
 * Frames are the profile's functions (name, source file and line where
 * known) in shared.frames; each thread with samples is one "sampled"
 * profile named "NAME (tid N)", its samples the distinct stacks (frame
 * indexes, root first, after the filter's transforms) weighed by their
 * samples (unit "none"), or by ns with a time metric (unit
 * "nanoseconds"). speedscope and the Firefox Profiler's importer read it. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "sp-filter.h"
#include "sp-profile.h"

G_BEGIN_DECLS

/* FALSE when out could not be written (errno says why). */
gboolean sp_export_speedscope (SpProfile *profile,
                               const SpFilter *filter,
                               FILE *out);

/* s as a JSON string, quotes included, appended to json: every control
 * character escaped, invalid UTF-8 replaced (JSON is UTF-8). */
void sp_json_append_string (GString *json,
                            const char *s);

G_END_DECLS
