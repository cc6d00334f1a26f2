/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-analysis-export.h: an export of what a window shows, made by its
 * analysis's worker (the profile is the worker's: ARCHITECTURE.md, "What
 * the main thread may read"). */
#pragma once

#include "sp-analysis.h"
#include "sp-export-file.h"

G_BEGIN_DECLS

/* Writes the export of the current filter (time range, threads,
 * transforms, metric) to path, whole or not at all (sp-export-file.h),
 * between the worker's jobs; callback runs on the main thread. */
void sp_analysis_export_async (SpAnalysis *self,
                               SpExportFormat format,
                               const char *path,
                               GCancellable *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer user_data);

/* FALSE with the error that names the file and why. */
gboolean sp_analysis_export_finish (SpAnalysis *self,
                                    GAsyncResult *result,
                                    GError **error);

G_END_DECLS
