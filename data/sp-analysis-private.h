/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-analysis-private.h: work that needs the profile to itself, run by
 * the analysis's scheduler (private to data/: sp-analysis.c schedules,
 * sp-analysis-export.c asks). */
#pragma once

#include "sp-analysis.h"

G_BEGIN_DECLS

/* In the worker thread, with no job running: the profile is the worker's
 * alone. FALSE with error when it failed. */
typedef gboolean (*SpAnalysisWorkFunc) (SpProfile *profile,
                                        const SpFilter *filter,
                                        gpointer data,
                                        GError **error);

/* Runs func on the worker thread between jobs, with the profile and a
 * copy of the filter as they are now (a filter changed meanwhile does not
 * change what it works on), then completes task (a boolean, or the
 * error) on the main thread. Without a profile, task fails at once. data
 * is freed with destroy once func ran (or will not run: the analysis went
 * away, task then fails with G_IO_ERROR_CANCELLED). */
void _sp_analysis_run_exclusive (SpAnalysis *self,
                                 GTask *task,
                                 SpAnalysisWorkFunc func,
                                 gpointer data,
                                 GDestroyNotify destroy);

G_END_DECLS
