/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-analysis-export.c: an export as one exclusive run of the worker. */
#include "sp-analysis-export.h"

#include "sp-analysis-private.h"

typedef struct {
  SpExportFormat format;
  char          *path;
} Export;

static void
export_free (gpointer data)
{
  Export *e = data;

  g_free (e->path);
  g_free (e);
}

static gboolean
run_export (SpProfile *profile,
            const SpFilter *filter,
            gpointer data,
            GError **error)
{
  Export *e = data;

  return sp_export_to_file (profile, filter, e->format, e->path, error);
}

void
sp_analysis_export_async (SpAnalysis *self,
                          SpExportFormat format,
                          const char *path,
                          GCancellable *cancellable,
                          GAsyncReadyCallback callback,
                          gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  Export *e = g_new0 (Export, 1);

  g_return_if_fail (SP_IS_ANALYSIS (self));
  g_task_set_source_tag (task, sp_analysis_export_async);
  e->format = format;
  e->path = g_strdup (path);
  _sp_analysis_run_exclusive (self, task, run_export, e, export_free);
}

gboolean
sp_analysis_export_finish (SpAnalysis *self,
                           GAsyncResult *result,
                           GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  return g_task_propagate_boolean (G_TASK (result), error);
}
