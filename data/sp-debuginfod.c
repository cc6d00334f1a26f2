/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-debuginfod.c: libdebuginfod with progress, cancellation and errors.
 *
 * One debuginfod_client per call (a client is not to be shared between
 * threads). Cancelling is libdebuginfod's own way: the progress function
 * returns non-zero. elfutils 0.188 then files the cancelled file as "not
 * on the server" (an empty entry in its cache, trusted for ten minutes);
 * that entry is removed, so that the user can try again at once. */
#include "sp-debuginfod.h"

#include <dlfcn.h>
#include <elfutils/debuginfod.h>
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


gboolean
sp_debuginfod_is_enabled (void)
{
  const char *urls = g_getenv (DEBUGINFOD_URLS_ENV_VAR);

  return urls != NULL && urls[strspn (urls, " \t")] != '\0';
}

static gboolean
is_build_id (const char *build_id)
{
  gsize len = build_id != NULL ? strlen (build_id) : 0;

  if (len < 2 || len > 128 || len % 2 != 0)
    return FALSE;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isxdigit (build_id[i]) || g_ascii_isupper (build_id[i]))
      return FALSE;
  return TRUE;
}

/* ---- libdebuginfod, opened on the first fetch ---------------------------- */

/* Not linked: libdebuginfod brings libcurl, GnuTLS, Kerberos and LDAP
 * (some thirty libraries), whose loading and relocation took 12 ms of
 * every start of stackpulse-report, which mostly fetches nothing. libdw
 * opens it the same way. */
typedef struct {
  __typeof__ (debuginfod_begin)           *begin;
  __typeof__ (debuginfod_end)             *end;
  __typeof__ (debuginfod_set_user_data)   *set_user_data;
  __typeof__ (debuginfod_get_user_data)   *get_user_data;
  __typeof__ (debuginfod_set_progressfn)  *set_progressfn;
  __typeof__ (debuginfod_find_debuginfo)  *find_debuginfo;
  __typeof__ (debuginfod_find_source)     *find_source;
} Library;

static Library library;

static gpointer
open_library (gpointer unused)
{
  void *handle = dlopen ("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);

  (void) unused;
  if (handle == NULL)
    return NULL;
  library.begin = (__typeof__ (library.begin)) dlsym (handle, "debuginfod_begin");
  library.end = (__typeof__ (library.end)) dlsym (handle, "debuginfod_end");
  library.set_user_data = (__typeof__ (library.set_user_data)) dlsym (handle, "debuginfod_set_user_data");
  library.get_user_data = (__typeof__ (library.get_user_data)) dlsym (handle, "debuginfod_get_user_data");
  library.set_progressfn = (__typeof__ (library.set_progressfn)) dlsym (handle, "debuginfod_set_progressfn");
  library.find_debuginfo = (__typeof__ (library.find_debuginfo)) dlsym (handle, "debuginfod_find_debuginfo");
  library.find_source = (__typeof__ (library.find_source)) dlsym (handle, "debuginfod_find_source");
  if (library.begin == NULL || library.end == NULL || library.set_user_data == NULL
      || library.get_user_data == NULL || library.set_progressfn == NULL || library.find_debuginfo == NULL
      || library.find_source == NULL)
    return NULL;
  return &library;
}

/* NULL when libdebuginfod.so.1 cannot be opened. */
static const Library *
debuginfod_library (void)
{
  static GOnce once = G_ONCE_INIT;

  return g_once (&once, open_library, NULL);
}

/* ---- The cache, as libdebuginfod lays it out --------------------------- */

/* DEBUGINFOD_CACHE_PATH; else the old ~/.debuginfod_client_cache when it
 * exists; else $XDG_CACHE_HOME (or ~/.cache)/debuginfod_client. */
static char *
cache_dir (void)
{
  const char *env = g_getenv (DEBUGINFOD_CACHE_PATH_ENV_VAR);
  const char *home = g_getenv ("HOME") != NULL ? g_getenv ("HOME") : "/";
  const char *xdg = g_getenv ("XDG_CACHE_HOME");
  g_autofree char *legacy = g_build_filename (home, ".debuginfod_client_cache", NULL);

  if (env != NULL && env[0] != '\0')
    return g_strdup (env);
  if (g_file_test (legacy, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&legacy);
  if (xdg != NULL && xdg[0] != '\0')
    return g_build_filename (xdg, "debuginfod_client", NULL);
  return g_build_filename (home, ".cache", "debuginfod_client", NULL);
}

/* "debuginfo", or "source" + the path with '/' as "##" and '#' as "#_". */
static char *
cache_path (const char *build_id,
            const char *source_path)
{
  g_autofree char *dir = cache_dir ();
  g_autoptr (GString) name = g_string_new (source_path != NULL ? "source" : "debuginfo");

  for (const char *p = source_path; p != NULL && *p != '\0'; p++)
    if (*p == '/')
      g_string_append (name, "##");
    else if (*p == '#')
      g_string_append (name, "#_");
    else
      g_string_append_c (name, *p);
  return g_build_filename (dir, build_id, name->str, NULL);
}

/* source_path NULL: the debug file. */
static char *
find_cached (const char *build_id,
             const char *source_path)
{
  g_autofree char *path = NULL;
  struct stat st;

  if (!sp_debuginfod_is_enabled () || !is_build_id (build_id))
    return NULL;
  path = cache_path (build_id, source_path);
  /* An empty file is libdebuginfod's "the servers have none". */
  if (stat (path, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size == 0)
    return NULL;
  return g_steal_pointer (&path);
}

char *
sp_debuginfod_find_cached_debuginfo (const char *build_id)
{
  return find_cached (build_id, NULL);
}

char *
sp_debuginfod_find_cached_source (const char *build_id,
                                  const char *source_path)
{
  g_return_val_if_fail (source_path != NULL, NULL);
  if (!g_path_is_absolute (source_path))
    return NULL;
  return find_cached (build_id, source_path);
}

/* After a cancel: the empty "not found" entry 0.188 leaves. */
static void
forget_cancelled (const char *build_id,
                  const char *source_path)
{
  g_autofree char *path = cache_path (build_id, source_path);
  struct stat st;

  if (lstat (path, &st) == 0 && S_ISREG (st.st_mode) && st.st_size == 0)
    g_unlink (path);
}

/* ---- Fetching ---------------------------------------------------------- */

typedef struct {
  SpDebuginfodProgress  progress;
  gpointer              user_data;
  GCancellable         *cancellable;
  gboolean              cancelled;
} Transfer;

static int
on_progress (debuginfod_client *client,
             long received,
             long total)
{
  Transfer *transfer = debuginfod_library ()->get_user_data (client);

  /* Before the server answers, libdebuginfod counts loops in received. */
  if (total <= 0)
    received = 0;
  if (g_cancellable_is_cancelled (transfer->cancellable)
      || (transfer->progress != NULL
          && !transfer->progress ((guint64) MAX (received, 0), (guint64) MAX (total, 0), transfer->user_data)))
    transfer->cancelled = TRUE;
  return transfer->cancelled ? 1 : 0;
}

static void
set_fetch_error (GError **error,
                 int rc,
                 const char *what,
                 const char *build_id)
{
  const char *urls = g_getenv (DEBUGINFOD_URLS_ENV_VAR);

  if (rc == -ENOSYS)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                 "no debuginfod server is set (DEBUGINFOD_URLS is empty)");
  else if (rc == -ENOENT)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "the debuginfod servers (%s) have no %s for build-id %s",
                 urls, what, build_id);
  else
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (-rc), "cannot fetch the %s for build-id %s from %s: %s",
                 what, build_id, urls, g_strerror (-rc));
}

/* source_path NULL: the debug file. */
static char *
fetch (const char *build_id,
       const char *source_path,
       SpDebuginfodProgress progress,
       gpointer user_data,
       GCancellable *cancellable,
       GError **error)
{
  const char *what = source_path != NULL ? "source file" : "debug info";
  Transfer transfer = { progress, user_data, cancellable, FALSE };
  const Library *lib = debuginfod_library ();
  debuginfod_client *client;
  char *path = NULL;
  char *result;
  int rc;

  if (!is_build_id (build_id))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "'%s' is no build-id", build_id);
      return NULL;
    }
  if (source_path != NULL && !g_path_is_absolute (source_path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   "debuginfod knows sources by absolute path, not '%s'", source_path);
      return NULL;
    }
  if (!sp_debuginfod_is_enabled ())
    {
      set_fetch_error (error, -ENOSYS, what, build_id);
      return NULL;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  if (lib == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "cannot fetch the %s for build-id %s: libdebuginfod.so.1 cannot be loaded", what, build_id);
      return NULL;
    }
  client = lib->begin ();
  if (client == NULL)
    {
      set_fetch_error (error, -ENOMEM, what, build_id);
      return NULL;
    }
  lib->set_user_data (client, &transfer);
  lib->set_progressfn (client, on_progress);
  /* Length 0: the build-id is hexadecimal text. */
  rc = source_path != NULL
         ? lib->find_source (client, (const unsigned char *) build_id, 0, source_path, &path)
         : lib->find_debuginfo (client, (const unsigned char *) build_id, 0, &path);
  lib->end (client);
  if (rc >= 0)
    {
      close (rc);
      result = g_strdup (path);
      free (path);
      return result;
    }
  if (transfer.cancelled || rc == -ECANCELED)
    {
      forget_cancelled (build_id, source_path);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "fetching the %s for build-id %s was cancelled", what,
                   build_id);
      return NULL;
    }
  set_fetch_error (error, rc, what, build_id);
  return NULL;
}

char *
sp_debuginfod_find_debuginfo (const char *build_id,
                              SpDebuginfodProgress progress,
                              gpointer user_data,
                              GCancellable *cancellable,
                              GError **error)
{
  return fetch (build_id, NULL, progress, user_data, cancellable, error);
}

char *
sp_debuginfod_find_source (const char *build_id,
                           const char *source_path,
                           SpDebuginfodProgress progress,
                           gpointer user_data,
                           GCancellable *cancellable,
                           GError **error)
{
  g_return_val_if_fail (source_path != NULL, NULL);
  return fetch (build_id, source_path, progress, user_data, cancellable, error);
}

/* ---- In the background -------------------------------------------------- */

typedef struct {
  SpDebuginfodKind            kind;
  char                       *build_id;
  char                       *source_path;
  SpDebuginfodProgressNotify  progress;
  gpointer                    progress_data;
  GMainContext               *context;   /* the caller's */
  GMutex                      lock;
  guint64                     received;  /* the latest, under lock */
  guint64                     total;
  gboolean                    queued;    /* a notification waits to run */
} AsyncFetch;

static void
async_fetch_free (AsyncFetch *data)
{
  g_free (data->build_id);
  g_free (data->source_path);
  g_main_context_unref (data->context);
  g_mutex_clear (&data->lock);
  g_free (data);
}

/* On the caller's context: the latest numbers. */
static gboolean
notify_progress (gpointer user_data)
{
  GTask *task = user_data;
  AsyncFetch *data = g_task_get_task_data (task);
  guint64 received, total;

  g_mutex_lock (&data->lock);
  received = data->received;
  total = data->total;
  data->queued = FALSE;
  g_mutex_unlock (&data->lock);
  if (!g_task_get_completed (task))
    data->progress (received, total, data->progress_data);
  return G_SOURCE_REMOVE;
}

/* On the fetching thread. */
static gboolean
queue_progress (guint64 received,
                guint64 total,
                gpointer user_data)
{
  GTask *task = user_data;
  AsyncFetch *data = g_task_get_task_data (task);
  gboolean queue;

  g_mutex_lock (&data->lock);
  data->received = received;
  data->total = total;
  queue = !data->queued;
  data->queued = TRUE;
  g_mutex_unlock (&data->lock);
  if (queue)
    g_main_context_invoke_full (data->context, G_PRIORITY_DEFAULT, notify_progress, g_object_ref (task),
                                g_object_unref);
  return TRUE;
}

static void
fetch_in_thread (GTask *task,
                 gpointer source_object,
                 gpointer task_data,
                 GCancellable *cancellable)
{
  AsyncFetch *data = task_data;
  GError *error = NULL;
  char *path = fetch (data->build_id, data->kind == SP_DEBUGINFOD_SOURCE ? data->source_path : NULL,
                      data->progress != NULL ? queue_progress : NULL, task, cancellable, &error);

  if (path == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, path, g_free);
}

void
sp_debuginfod_fetch_async (SpDebuginfodKind kind,
                           const char *build_id,
                           const char *source_path,
                           GCancellable *cancellable,
                           SpDebuginfodProgressNotify progress,
                           gpointer progress_data,
                           GAsyncReadyCallback callback,
                           gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  AsyncFetch *data = g_new0 (AsyncFetch, 1);

  g_return_if_fail (kind != SP_DEBUGINFOD_SOURCE || source_path != NULL);
  data->kind = kind;
  data->build_id = g_strdup (build_id);
  data->source_path = g_strdup (source_path);
  data->progress = progress;
  data->progress_data = progress_data;
  data->context = g_main_context_ref_thread_default ();
  g_mutex_init (&data->lock);
  g_task_set_source_tag (task, sp_debuginfod_fetch_async);
  g_task_set_task_data (task, data, (GDestroyNotify) async_fetch_free);
  /* The cancel is the progress function's to notice (the transfer is in
   * libcurl): the task must not return before the fetch has ended. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, fetch_in_thread);
}

char *
sp_debuginfod_fetch_finish (GAsyncResult *result,
                            GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
