/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-symbolizer-debuginfod.c: debug files from debuginfod, for the symbolizer.
 *
 * The last place sp-debug-file.c looks for a module's debug file, once
 * the build-id folders and the .gnu_debuglink names gave nothing. The
 * resolving thread is the analysis worker, which must not wait for the
 * network (live updates would stall): by default only what an earlier
 * fetch left in libdebuginfod's cache is used, and the modules it lacks
 * are listed for a fetcher to download in the background (then the
 * profile resolves again). stackpulse-report, which has nothing else to
 * do meanwhile, fetches in place and shows progress. */
#include "sp-symbolizer-private.h"

#include <string.h>

#include "sp-debuginfod.h"
#include "sp-file-private.h"

static void
missing_clear (gpointer data)
{
  SpMissingDebugInfo *missing = data;

  g_clear_pointer (&missing->module, g_free);
  g_clear_pointer (&missing->build_id, g_free);
}

GArray *
sp_missing_debug_info_copy (const GArray *missing)
{
  GArray *copy = g_array_new (FALSE, FALSE, sizeof (SpMissingDebugInfo));

  g_array_set_clear_func (copy, missing_clear);
  for (guint i = 0; missing != NULL && i < missing->len; i++)
    {
      const SpMissingDebugInfo *m = &g_array_index (missing, SpMissingDebugInfo, i);
      SpMissingDebugInfo own = { g_strdup (m->module), g_strdup (m->build_id) };

      g_array_append_val (copy, own);
    }
  return copy;
}

void
_sp_symbolizer_debuginfod_init (SpSymbolizer *self)
{
  self->debuginfod = SP_SYMBOLIZER_DEBUGINFOD_CACHED;
  self->fetched = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->missing = sp_missing_debug_info_copy (NULL);
}

void
_sp_symbolizer_debuginfod_clear (SpSymbolizer *self)
{
  g_clear_pointer (&self->fetched, g_hash_table_unref);
  g_clear_pointer (&self->missing, g_array_unref);
}

void
sp_symbolizer_set_debuginfod (SpSymbolizer *self,
                              SpSymbolizerDebuginfod mode,
                              SpSymbolizerFetchProgress progress,
                              gpointer user_data)
{
  g_return_if_fail (self != NULL);

  self->debuginfod = mode;
  self->fetch_progress = progress;
  self->fetch_data = user_data;
}

const GArray *
sp_symbolizer_get_missing_debug_info (SpSymbolizer *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->missing;
}

typedef struct {
  SpSymbolizer *self;
  const char   *module;
  const char   *build_id;
} FetchProgress;

static gboolean
on_progress (guint64 received,
             guint64 total,
             gpointer user_data)
{
  FetchProgress *fetch = user_data;

  return fetch->self->fetch_progress (fetch->module, fetch->build_id, received, total, fetch->self->fetch_data);
}

/* The fetch, in place; a failure other than "the servers have none" is
 * a problem worth saying (a server down, a cancel). */
static char *
fetch_now (SpSymbolizer *self,
           const char *file_name,
           const char *build_id)
{
  FetchProgress fetch = { self, file_name, build_id };
  g_autoptr (GError) error = NULL;
  char *path = sp_debuginfod_find_debuginfo (build_id, self->fetch_progress != NULL ? on_progress : NULL, &fetch,
                                             NULL, &error);

  if (path == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_NO_DEBUG_INFO, file_name, "%s: %s", file_name,
                                error->message);
  if (path == NULL && self->fetch_progress != NULL)
    self->fetch_progress (file_name, build_id, SP_SYMBOLIZER_FETCH_FAILED, 0, self->fetch_data);
  return path;
}

static void
add_missing (SpSymbolizer *self,
             const char *file_name,
             const char *build_id)
{
  SpMissingDebugInfo missing = { g_strdup (file_name), g_strdup (build_id) };

  for (guint i = 0; i < self->missing->len; i++)
    if (g_str_equal (g_array_index (self->missing, SpMissingDebugInfo, i).build_id, build_id))
      {
        missing_clear (&missing);
        return;
      }
  g_array_append_val (self->missing, missing);
}

/* The debug file's path, asked once per build-id (libdwfl asks again when
 * it wants DWARF after the symbol table). */
static const char *
lookup (SpSymbolizer *self,
        const char *file_name,
        const char *build_id)
{
  char *path = g_hash_table_lookup (self->fetched, build_id);

  if (path != NULL)
    return path[0] != '\0' ? path : NULL;
  path = sp_debuginfod_find_cached_debuginfo (build_id);
  if (path == NULL && self->debuginfod == SP_SYMBOLIZER_DEBUGINFOD_FETCH)
    path = fetch_now (self, file_name, build_id);
  if (path == NULL && self->debuginfod == SP_SYMBOLIZER_DEBUGINFOD_CACHED)
    add_missing (self, file_name, build_id);
  g_hash_table_insert (self->fetched, g_strdup (build_id), path != NULL ? path : g_strdup (""));
  return path;
}

int
_sp_symbolizer_debuginfod_find (SpSymbolizer *self,
                                const char *file_name,
                                const char *build_id,
                                char **debuginfo_file_name)
{
  g_autoptr (GError) error = NULL;
  const char *path;
  int fd;

  /* [vdso] and the like: no file a server would know by that name. */
  if (self == NULL || self->debuginfod == SP_SYMBOLIZER_DEBUGINFOD_OFF || file_name == NULL || file_name[0] != '/'
      || !sp_debuginfod_is_enabled ())
    return -1;
  path = lookup (self, file_name, build_id);
  if (path == NULL)
    return -1;
  fd = _sp_file_open_regular (path, &error);
  if (fd < 0)
    {
      _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_NO_DEBUG_INFO, file_name, "%s: %s", file_name,
                                  error->message);
      return -1;
    }
  *debuginfo_file_name = strdup (path);
  return fd;
}
