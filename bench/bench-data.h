/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-data.h: what bench-data's files share.
 *
 * bench-data.c runs the benchmark (generate, measure in children, print);
 * bench-real-modules.c points the synthetic recording's modules at real
 * files; bench-data-child.c is the child that opens the spool with data/
 * and times the queries. */
#pragma once

#include <stdbool.h>
#include <stdio.h>

#include "bench-synth.h"

/* ---- Real modules (bench-real-modules.c) ------------------------------ */

/* A BenchModuleMapFunc: the file itself when it exists, else a stand-in
 * of the same kind (an executable for an executable), else this program.
 * user_data is a FILE * to log the choices to, or NULL. */
bool bench_real_module (const char *path,
                        BenchModuleFile *file,
                        void *user_data);

/* ---- The child (bench-data-child.c) ----------------------------------- */

/* Opens path with sp_profile_open, builds the full tree (bottom_up or
 * not), then, on the open profile, re-aggregates time ranges of
 * range_samples samples top-down; prints "key value" lines, and
 * "timed_out 1" if it is still running after timeout_s. Returns the exit
 * status. */
int bench_data_child (const char *path,
                      bool bottom_up,
                      size_t range_samples,
                      unsigned timeout_s);
