/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-import.c: stackpulse-record --input as a GSubprocess, its
 * progress on fd 3, its reasons on stderr, its result in the cache.
 *
 * The converter writes under a hidden name of its own beside the cached
 * name; only a conversion that succeeded is renamed to it (side file
 * first, spool last), so a cached spool is always a finished one, two
 * windows converting the same file do not write into each other's files,
 * and a cancelled or failed conversion leaves nothing behind. */
#include "sp-perf-data-import.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "sp-line-reader.h"
#include "sp-recording-session.h"
#include "sp-recording-state.h"

#define PROGRESS_FD 3
/* How long a cancelled converter has to clean up before it is killed. */
#define CANCEL_GRACE_SECONDS 5
/* The converter names itself in its messages; the window says who speaks. */
#define CONVERTER_PREFIX "stackpulse-record: "

struct _SpPerfDataImport
{
  GObject       parent_instance;

  /* Owned references */
  GSubprocess  *process;
  GCancellable *cancellable;
  GString      *errors;          /* everything the converter said on stderr */
  char         *output;          /* the cached name */
  char         *partial;         /* the hidden name the converter writes */
  char         *error;           /* after a failure: the reason */
  char         *warnings;        /* after a success: what it warned about, or NULL */
  guint         kill_source;     /* SIGKILL when SIGTERM was not enough */

  gboolean      running;
  gboolean      exited;          /* the process ended... */
  gboolean      errors_done;     /* ...and its stderr is read to the end */
  gboolean      cancelled;
  int           status;          /* its exit status, or 128 + the signal that ended it */
};

enum { PROGRESS, FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpPerfDataImport, sp_perf_data_import, G_TYPE_OBJECT)

/* ---- The cache ----------------------------------------------------------- */

/* The file's name as a cache file name: what a shell or a desktop shows
 * without surprise (letters, digits, '.', '-', '_'), at most 48 bytes. */
static char *
cache_name (const char *perf_data)
{
  g_autofree char *base = g_path_get_basename (perf_data);
  GString *name = g_string_new (NULL);

  for (const char *p = base; *p != '\0' && name->len < 48; p++)
    g_string_append_c (name, g_ascii_isalnum (*p) || strchr ("._-", *p) != NULL ? *p : '_');
  /* Not hidden: hidden names are the conversions in progress. */
  if (name->str[0] == '.')
    name->str[0] = '_';
  return g_string_free (name, FALSE);
}

char *
sp_perf_data_import_cache_path (const char *perf_data,
                                GError **error)
{
  g_autofree char *absolute = g_canonicalize_filename (perf_data, NULL);
  g_autofree char *name = cache_name (perf_data);
  g_autofree char *key = NULL;
  g_autofree char *hash = NULL;
  g_autofree char *file = NULL;
  GStatBuf st;

  if (g_stat (absolute, &st) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot read %s: %s", perf_data,
                   g_strerror (saved));
      return NULL;
    }
  key = g_strdup_printf ("%s\n%" G_GUINT64_FORMAT "\n%" G_GINT64_FORMAT ".%09ld", absolute, (guint64) st.st_size,
                         (gint64) st.st_mtim.tv_sec, (long) st.st_mtim.tv_nsec);
  hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  file = g_strdup_printf ("%s-%.16s.spool", name, hash);
  return g_build_filename (g_get_user_cache_dir (), "stackpulse", "converted", file, NULL);
}

gboolean
sp_perf_data_import_is_done (const char *output)
{
  g_autofree char *meta_path = g_strconcat (output, ".meta", NULL);
  g_autoptr (GKeyFile) meta = g_key_file_new ();

  if (!g_file_test (output, G_FILE_TEST_IS_REGULAR)
      || !g_key_file_load_from_file (meta, meta_path, G_KEY_FILE_NONE, NULL))
    return FALSE;
  return sp_recording_state_get (output, meta) == SP_RECORDING_STATE_COMPLETE;
}

static char *
warnings_path (const char *output)
{
  return g_strconcat (output, ".warnings", NULL);
}

char *
sp_perf_data_import_read_warnings (const char *output)
{
  g_autofree char *path = warnings_path (output);
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return g_strstrip (text);
}

/* ---- What the converter said --------------------------------------------- */

static const char *
without_prefix (const char *line)
{
  return g_str_has_prefix (line, CONVERTER_PREFIX) ? line + strlen (CONVERTER_PREFIX) : line;
}

/* Its last words: the reason it converted nothing. */
static char *
last_line (const char *errors)
{
  g_auto (GStrv) lines = g_strsplit (errors, "\n", -1);

  for (guint i = g_strv_length (lines); i > 0; i--)
    if (g_strstrip (lines[i - 1])[0] != '\0')
      return g_strdup (without_prefix (lines[i - 1]));
  return NULL;
}

/* What a user must know of a conversion that succeeded: everything the
 * converter said (where the input was damaged, kernel frames it cannot
 * name, the event it chose) but its progress for terminals ("converting
 * X: 45% …", the window has its own) and its closing count ("X converted:
 * N samples … written to OUT"). */
static char *
warning_lines (const char *errors)
{
  g_auto (GStrv) lines = g_strsplit (errors, "\n", -1);
  g_autoptr (GString) kept = g_string_new (NULL);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = without_prefix (g_strstrip (lines[i]));

      if (line[0] == '\0' || g_str_has_prefix (line, "converting ")
          || (strstr (line, " converted: ") != NULL && strstr (line, "written to") != NULL))
        continue;
      g_string_append_printf (kept, "%s%s", kept->len > 0 ? "\n" : "", line);
    }
  return kept->len > 0 ? g_strdup (kept->str) : NULL;
}

/* ---- The converter's end --------------------------------------------------- */

static void
remove_partial (SpPerfDataImport *self)
{
  g_autofree char *meta = g_strconcat (self->partial, ".meta", NULL);

  g_unlink (self->partial);
  g_unlink (meta);
}

/* The finished conversion takes the cached name: side file and warnings
 * first, so that whoever sees the spool there finds them. */
static gboolean
keep_output (SpPerfDataImport *self)
{
  g_autofree char *partial_meta = g_strconcat (self->partial, ".meta", NULL);
  g_autofree char *meta = g_strconcat (self->output, ".meta", NULL);
  g_autofree char *warnings = warnings_path (self->output);

  if (!g_file_test (self->partial, G_FILE_TEST_IS_REGULAR) || g_rename (partial_meta, meta) != 0)
    return FALSE;
  if (self->warnings != NULL)
    g_file_set_contents (warnings, self->warnings, -1, NULL);
  else
    g_unlink (warnings);
  return g_rename (self->partial, self->output) == 0;
}

static void
finish (SpPerfDataImport *self)
{
  gboolean converted = FALSE;

  if (!self->exited || !self->errors_done)
    return;
  g_clear_handle_id (&self->kill_source, g_source_remove);
  if (!self->cancelled && self->status == 0)
    {
      self->warnings = warning_lines (self->errors->str);
      converted = keep_output (self);
    }
  if (!converted)
    {
      remove_partial (self);
      self->error = last_line (self->errors->str);
      if (self->error == NULL)
        self->error = g_strdup_printf ("stackpulse-record ended (status %d) without a word", self->status);
    }
  g_signal_emit (self, signals[FINISHED], 0, converted);
}

static void
progress_line (GObject *owner,
               const char *line)
{
  if (line == NULL)
    return;
  /* "input_bytes=DONE input_total=TOTAL samples=N state=converting" */
  g_signal_emit (owner, signals[PROGRESS], 0, sp_line_reader_get_field (line, "input_bytes"),
                 sp_line_reader_get_field (line, "input_total"), sp_line_reader_get_field (line, "samples"));
}

static void
error_line (GObject *owner,
            const char *line)
{
  SpPerfDataImport *self = SP_PERF_DATA_IMPORT (owner);

  if (line != NULL)
    {
      g_string_append_printf (self->errors, "%s\n", line);
      return;
    }
  self->errors_done = TRUE;
  finish (self);
}

static void
process_exited (GObject *source,
                GAsyncResult *result,
                gpointer user_data)
{
  g_autoptr (SpPerfDataImport) self = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  self->running = FALSE;
  self->exited = TRUE;
  self->status = g_subprocess_get_if_exited (self->process) ? g_subprocess_get_exit_status (self->process)
                                                            : 128 + g_subprocess_get_term_sig (self->process);
  finish (self);
}

/* ---- Starting and stopping -------------------------------------------------- */

/* ".NAME-HASH.PID-RANDOM.spool": hidden, beside the cached name, and this
 * conversion's alone. */
static char *
partial_path (const char *output)
{
  g_autofree char *dir = g_path_get_dirname (output);
  g_autofree char *base = g_path_get_basename (output);
  g_autofree char *name = NULL;

  if (g_str_has_suffix (base, ".spool"))
    base[strlen (base) - strlen (".spool")] = '\0';
  name = g_strdup_printf (".%s.%d-%08x.spool", base, (int) getpid (), g_random_int ());
  return g_build_filename (dir, name, NULL);
}

static GSubprocess *
spawn (const char *perf_data,
       const char *partial,
       int *progress_read,
       GError **error)
{
  g_autofree char *recorder = sp_recording_session_find_recorder ();
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_autofree char *progress_arg = g_strdup_printf ("--progress-fd=%d", PROGRESS_FD);
  const char *argv[] = { recorder, "--input", perf_data, "-o", partial, progress_arg, NULL };
  int progress[2];
  GSubprocess *process;

  if (recorder == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           "stackpulse-record, which converts perf.data files, was not found next to stackpulse "
                           "or on PATH");
      return NULL;
    }
  if (!g_unix_open_pipe (progress, FD_CLOEXEC, error))
    return NULL;
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_take_fd (launcher, progress[1], PROGRESS_FD);
  process = g_subprocess_launcher_spawnv (launcher, argv, error);
  if (process == NULL)
    {
      close (progress[0]);
      return NULL;
    }
  *progress_read = progress[0];
  return process;
}

SpPerfDataImport *
sp_perf_data_import_start (const char *perf_data,
                           const char *output,
                           GError **error)
{
  g_autoptr (SpPerfDataImport) self = g_object_new (SP_TYPE_PERF_DATA_IMPORT, NULL);
  g_autofree char *dir = g_path_get_dirname (output);
  g_autoptr (GInputStream) progress_in = NULL;
  int progress_read = -1;

  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;

      g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved), "cannot create %s: %s", dir,
                   g_strerror (saved));
      return NULL;
    }
  self->output = g_strdup (output);
  self->partial = partial_path (output);
  self->process = spawn (perf_data, self->partial, &progress_read, error);
  if (self->process == NULL)
    return NULL;
  self->running = TRUE;
  progress_in = g_unix_input_stream_new (progress_read, TRUE);
  sp_line_reader_start (progress_in, self->cancellable, G_OBJECT (self), progress_line);
  sp_line_reader_start (g_subprocess_get_stderr_pipe (self->process), self->cancellable, G_OBJECT (self),
                        error_line);
  g_subprocess_wait_async (self->process, NULL, process_exited, g_object_ref (self));
  return g_steal_pointer (&self);
}

static gboolean
kill_converter (gpointer user_data)
{
  SpPerfDataImport *self = user_data;

  self->kill_source = 0;
  if (self->running)
    g_subprocess_force_exit (self->process);
  return G_SOURCE_REMOVE;
}

void
sp_perf_data_import_cancel (SpPerfDataImport *self)
{
  if (!self->running || self->cancelled)
    return;
  self->cancelled = TRUE;
  g_subprocess_send_signal (self->process, SIGTERM);
  self->kill_source = g_timeout_add_seconds (CANCEL_GRACE_SECONDS, kill_converter, self);
}

gboolean sp_perf_data_import_is_running (SpPerfDataImport *self) { return self->running; }
const char *sp_perf_data_import_get_output (SpPerfDataImport *self) { return self->output; }
gboolean sp_perf_data_import_was_cancelled (SpPerfDataImport *self) { return self->cancelled; }
const char *sp_perf_data_import_get_error (SpPerfDataImport *self) { return self->error; }
const char *sp_perf_data_import_get_warnings (SpPerfDataImport *self) { return self->warnings; }

GPid
sp_perf_data_import_get_pid (SpPerfDataImport *self)
{
  const char *id = self->running ? g_subprocess_get_identifier (self->process) : NULL;

  return id != NULL ? (GPid) g_ascii_strtoll (id, NULL, 10) : 0;
}

/* ---- The object -------------------------------------------------------------- */

static void
sp_perf_data_import_dispose (GObject *object)
{
  SpPerfDataImport *self = SP_PERF_DATA_IMPORT (object);

  /* The process has ended (its wait holds a reference until then). */
  g_clear_handle_id (&self->kill_source, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->process);
  G_OBJECT_CLASS (sp_perf_data_import_parent_class)->dispose (object);
}

static void
sp_perf_data_import_finalize (GObject *object)
{
  SpPerfDataImport *self = SP_PERF_DATA_IMPORT (object);

  g_clear_object (&self->cancellable);
  g_string_free (self->errors, TRUE);
  g_free (self->output);
  g_free (self->partial);
  g_free (self->error);
  g_free (self->warnings);
  G_OBJECT_CLASS (sp_perf_data_import_parent_class)->finalize (object);
}

static void
sp_perf_data_import_class_init (SpPerfDataImportClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sp_perf_data_import_dispose;
  object_class->finalize = sp_perf_data_import_finalize;

  signals[PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                    NULL, G_TYPE_NONE, 3, G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_UINT64);
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                    NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
}

static void
sp_perf_data_import_init (SpPerfDataImport *self)
{
  self->errors = g_string_new (NULL);
  self->cancellable = g_cancellable_new ();
}
