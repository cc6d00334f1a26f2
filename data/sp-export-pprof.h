/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-export-pprof.h: a profile as pprof's profile.proto, gzip-compressed.
 *
 * Read by `go tool pprof` and by the systems that ingest pprof (Pyroscope,
 * Parca, Grafana). Sample types: samples/count and cpu/nanoseconds (the
 * samples times the sampling interval); with a time metric
 * (SpFilter.metric) one type, off-cpu or wall, in nanoseconds. One sample
 * per distinct (thread, stack), labelled with the thread ("thread": its
 * name, when it has one; "tid", "pid"). Without transforms each frame is a location with
 * its address, mapping (path, range, offset, and the build-id the
 * recorder read, or the file's while it is the one recorded) and its lines,
 * inlined functions first; transforms rewrite stacks function by
 * function, so with them each function is a location of its own, without
 * address. Symbolized already: mappings say they have functions, lines
 * and inline frames, so pprof does not look for the binaries. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "sp-filter.h"
#include "sp-profile.h"

G_BEGIN_DECLS

/* FALSE when out could not be written (errno says why). */
gboolean sp_export_pprof (SpProfile *profile,
                          const SpFilter *filter,
                          FILE *out);

G_END_DECLS
