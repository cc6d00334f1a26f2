/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recording-session.c: GSubprocess, a control pipe on stdin, progress
 * on fd 3, errors collected from stderr.
 *
 * Under pkexec the recorder gets a clean environment, root's home as its
 * folder and no file descriptor past stderr: the command's folder and
 * environment therefore go on the recorder's command line (--directory,
 * --env), and progress is left to whoever follows the spool. */
#include "sp-recording-session.h"

#include <fcntl.h>
#include <gio/gunixinputstream.h>
#include <glib-unix.h>
#include <string.h>
#include <unistd.h>

#include "sp-line-reader.h"

#define PROGRESS_FD 3

struct _SpRecordingSession
{
  GObject           parent_instance;

  /* Owned references */
  GSubprocess      *process;
  GString          *errors;
  GCancellable     *cancellable;
  char             *output;
  gboolean          running;
  gboolean          exited;       /* the process ended... */
  gboolean          errors_done;  /* ...and its stderr is read to the end */
  gboolean          has_progress;
  gboolean          killed;       /* the recorder itself ended on a signal */
  int               status;
};

enum { PROGRESS, FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpRecordingSession, sp_recording_session, G_TYPE_OBJECT)

void
sp_record_options_clear (SpRecordOptions *options)
{
  g_clear_pointer (&options->argv, g_strfreev);
  g_clear_pointer (&options->working_directory, g_free);
  g_clear_pointer (&options->environment, g_strfreev);
  g_clear_pointer (&options->call_graph, g_free);
}

void
sp_record_options_copy (SpRecordOptions *to,
                        const SpRecordOptions *from)
{
  *to = *from;
  to->argv = g_strdupv (from->argv);
  to->working_directory = g_strdup (from->working_directory);
  to->environment = g_strdupv (from->environment);
  to->call_graph = g_strdup (from->call_graph);
}

/* $variable, else next to this program, else on PATH. */
static char *
find_program (const char *variable,
              const char *name)
{
  const char *chosen = g_getenv (variable);
  g_autofree char *self_exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = self_exe != NULL ? g_path_get_dirname (self_exe) : NULL;
  g_autofree char *beside = dir != NULL ? g_build_filename (dir, name, NULL) : NULL;

  if (chosen != NULL && g_file_test (chosen, G_FILE_TEST_IS_EXECUTABLE))
    return g_strdup (chosen);
  if (beside != NULL && g_file_test (beside, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&beside);
  return g_find_program_in_path (name);
}

char *
sp_recording_session_find_recorder (void)
{
  return find_program ("STACKPULSE_RECORD", "stackpulse-record");
}

char *
sp_recording_session_find_demo (void)
{
  return find_program ("STACKPULSE_DEMO", "stackpulse-demo");
}

/* "elapsed_ms=1000 samples=998 lost=0 bytes=12345 state=recording" */
static void
progress_line (GObject *owner,
               const char *line)
{
  if (line == NULL)
    return;
  g_signal_emit (owner, signals[PROGRESS], 0, sp_line_reader_get_field (line, "samples"),
                 sp_line_reader_get_field (line, "lost"), sp_line_reader_get_field (line, "bytes"));
}

/* "finished" comes once the recorder has ended and said all it had to. */
static void
maybe_finish (SpRecordingSession *self)
{
  if (self->exited && self->errors_done)
    g_signal_emit (self, signals[FINISHED], 0, self->status);
}

static void
error_line (GObject *owner,
            const char *line)
{
  SpRecordingSession *self = SP_RECORDING_SESSION (owner);

  if (line == NULL)
    {
      self->errors_done = TRUE;
      maybe_finish (self);
      return;
    }
  /* The terminal progress line never appears: stderr is a pipe here. */
  g_string_append_printf (self->errors, "%s\n", line);
}

static void
process_exited (GObject *source,
                GAsyncResult *result,
                gpointer user_data)
{
  g_autoptr (SpRecordingSession) self = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  self->running = FALSE;
  self->exited = TRUE;
  self->killed = !g_subprocess_get_if_exited (self->process);
  self->status = g_subprocess_get_if_exited (self->process) ? g_subprocess_get_exit_status (self->process)
                                                            : 128 + g_subprocess_get_term_sig (self->process);
  maybe_finish (self);
}

char **
sp_recording_session_build_argv (const char *recorder,
                                 const SpRecordOptions *options,
                                 const char *output,
                                 int progress_fd)
{
  GPtrArray *argv = g_ptr_array_new ();

  g_ptr_array_add (argv, g_strdup (recorder));
  g_ptr_array_add (argv, g_strdup ("-o"));
  g_ptr_array_add (argv, g_strdup (output));
  g_ptr_array_add (argv, g_strdup_printf ("-F%u", options->frequency_hz));
  if (!options->kernel_stacks)
    g_ptr_array_add (argv, g_strdup ("--no-kernel"));
  /* Only a choice the user made: the recorder's default is "auto". */
  if (options->call_graph != NULL && !g_str_equal (options->call_graph, "auto"))
    g_ptr_array_add (argv, g_strdup_printf ("--call-graph=%s", options->call_graph));
  if (options->off_cpu)
    g_ptr_array_add (argv, g_strdup ("--off-cpu"));
  g_ptr_array_add (argv, g_strdup ("--control-stdin"));
  if (progress_fd >= 0)
    g_ptr_array_add (argv, g_strdup_printf ("--progress-fd=%d", progress_fd));
  if (options->all_cpus)
    {
      g_ptr_array_add (argv, g_strdup ("--all-cpus"));
      g_ptr_array_add (argv, NULL);
      return (char **) g_ptr_array_free (argv, FALSE);
    }
  if (options->argv == NULL)
    {
      g_ptr_array_add (argv, g_strdup_printf ("--pid=%d", (int) options->pid));
      g_ptr_array_add (argv, NULL);
      return (char **) g_ptr_array_free (argv, FALSE);
    }
  if (options->working_directory != NULL && options->working_directory[0] != '\0')
    g_ptr_array_add (argv, g_strdup_printf ("--directory=%s", options->working_directory));
  for (guint i = 0; options->environment != NULL && options->environment[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup_printf ("--env=%s", options->environment[i]));
  g_ptr_array_add (argv, g_strdup ("--"));
  for (guint i = 0; options->argv[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (options->argv[i]));
  g_ptr_array_add (argv, NULL);
  return (char **) g_ptr_array_free (argv, FALSE);
}

char *
sp_recording_session_find_pkexec (void)
{
  return g_find_program_in_path ("pkexec");
}

/* The recorder's command line, behind pkexec when elevated (pkexec wants
 * an absolute path and starts in root's home, hence the absolute paths). */
static char **
launch_argv (const SpRecordOptions *options,
             const char *output,
             GError **error)
{
  g_autofree char *found = sp_recording_session_find_recorder ();
  g_autofree char *recorder = NULL;
  g_autofree char *pkexec = NULL;
  g_autofree char *absolute_output = g_canonicalize_filename (output, NULL);
  g_auto (GStrv) argv = NULL;
  g_autoptr (GStrvBuilder) builder = NULL;

  if (found == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           "stackpulse-record was not found next to stackpulse or on PATH");
      return NULL;
    }
  recorder = g_canonicalize_filename (found, NULL);
  if (!options->elevated)
    return sp_recording_session_build_argv (recorder, options, absolute_output, PROGRESS_FD);
  pkexec = sp_recording_session_find_pkexec ();
  if (pkexec == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           "pkexec is not installed: install polkit (pkexec) to record with administrator rights");
      return NULL;
    }
  argv = sp_recording_session_build_argv (recorder, options, absolute_output, -1);
  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, pkexec);
  g_strv_builder_addv (builder, (const char **) argv);
  return g_strv_builder_end (builder);
}

SpRecordingSession *
sp_recording_session_start (const SpRecordOptions *options,
                            const char *output,
                            GError **error)
{
  g_autoptr (SpRecordingSession) self = NULL;
  g_autoptr (GSubprocessLauncher) launcher = NULL;
  g_auto (GStrv) argv = launch_argv (options, output, error);
  int progress[2] = { -1, -1 };

  if (argv == NULL)
    return NULL;
  if (!options->elevated && !g_unix_open_pipe (progress, FD_CLOEXEC, error))
    return NULL;
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  if (progress[1] >= 0)
    g_subprocess_launcher_take_fd (launcher, progress[1], PROGRESS_FD);

  self = g_object_new (SP_TYPE_RECORDING_SESSION, NULL);
  self->output = g_strdup (output);
  self->process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv, error);
  if (self->process == NULL)
    {
      if (progress[0] >= 0)
        close (progress[0]);
      return NULL;
    }
  self->running = TRUE;
  self->has_progress = progress[0] >= 0;
  if (self->has_progress)
    {
      g_autoptr (GInputStream) progress_in = g_unix_input_stream_new (progress[0], TRUE);

      sp_line_reader_start (progress_in, self->cancellable, G_OBJECT (self), progress_line);
    }
  sp_line_reader_start (g_subprocess_get_stderr_pipe (self->process), self->cancellable, G_OBJECT (self), error_line);
  g_subprocess_wait_async (self->process, self->cancellable, process_exited, g_object_ref (self));
  return g_steal_pointer (&self);
}

void
sp_recording_session_stop (SpRecordingSession *self)
{
  GOutputStream *control = g_subprocess_get_stdin_pipe (self->process);

  if (!self->running)
    return;
  g_output_stream_write_all (control, "stop\n", 5, NULL, NULL, NULL);
  g_output_stream_close (control, NULL, NULL);
}

gboolean sp_recording_session_is_running (SpRecordingSession *self) { return self->running; }
const char *sp_recording_session_get_output (SpRecordingSession *self) { return self->output; }
const char *sp_recording_session_get_errors (SpRecordingSession *self) { return self->errors->str; }
gboolean sp_recording_session_has_progress (SpRecordingSession *self) { return self->has_progress; }
gboolean sp_recording_session_was_killed (SpRecordingSession *self) { return self->killed; }

/* The recorder's words for it (recorder/sp-perf-events.c): a refused
 * perf_event_open, or a ring buffer over the locked-memory limit; both
 * go away as root. */
gboolean
sp_recording_session_was_refused (SpRecordingSession *self)
{
  const char *errors = self->errors->str;

  return self->exited && self->status != 0
         && (strstr (errors, "the kernel refused") != NULL || strstr (errors, "perf_event_mlock_kb") != NULL);
}

static void
sp_recording_session_dispose (GObject *object)
{
  SpRecordingSession *self = SP_RECORDING_SESSION (object);

  /* A window closed while recording: the recording ends with it. */
  if (self->running)
    sp_recording_session_stop (self);
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->process);
  G_OBJECT_CLASS (sp_recording_session_parent_class)->dispose (object);
}

static void
sp_recording_session_finalize (GObject *object)
{
  SpRecordingSession *self = SP_RECORDING_SESSION (object);

  g_clear_object (&self->cancellable);
  g_string_free (self->errors, TRUE);
  g_free (self->output);
  G_OBJECT_CLASS (sp_recording_session_parent_class)->finalize (object);
}

static void
sp_recording_session_class_init (SpRecordingSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sp_recording_session_dispose;
  object_class->finalize = sp_recording_session_finalize;

  signals[PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                    NULL, G_TYPE_NONE, 3, G_TYPE_UINT64, G_TYPE_UINT64, G_TYPE_UINT64);
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                    NULL, G_TYPE_NONE, 1, G_TYPE_INT);
}

static void
sp_recording_session_init (SpRecordingSession *self)
{
  self->errors = g_string_new (NULL);
  self->cancellable = g_cancellable_new ();
}
