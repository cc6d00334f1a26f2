/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-recording.c: recording in the window, and following it live.
 *
 * The window runs stackpulse-record (sp-recording-session.c) and hands the
 * spool's path to the analysis, which follows it as it grows; this file
 * keeps the Record and Stop buttons, the status line's progress, and the
 * error page when the recorder refuses (with pkexec offered). */
#include "sp-window-private.h"

#include "sp-process.h"
#include "sp-process-picker.h"
#include "sp-record-dialog.h"
#include "sp-window-offcpu.h"

static void
session_progress (SpRecordingSession *session,
                  guint64 samples,
                  guint64 lost,
                  guint64 bytes,
                  SpWindow *self)
{
  g_autofree char *size = g_format_size (bytes);
  g_autofree char *text = g_strdup_printf ("Recording: %" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT
                                           " lost, %s", samples, lost, size);

  gtk_label_set_text (self->status_label, text);
}

/* The recorder refused before writing anything: say why, and when the
 * kernel was in the way, offer to ask for the rights it wants. */
static void
show_refusal (SpWindow *self,
              SpRecordingSession *session)
{
  g_autofree char *text = g_strdup_printf ("The recording could not start.\n%s",
                                           sp_recording_session_get_errors (session));
  g_autofree char *pkexec = sp_recording_session_find_pkexec ();

  sp_analysis_stop (self->analysis);
  _sp_window_show_profile_controls (self, FALSE);
  gtk_window_set_title (GTK_WINDOW (self), "stackpulse");
  gtk_label_set_text (self->error_label, g_strstrip (text));
  gtk_widget_set_visible (self->elevate_button, pkexec != NULL && !self->record_options.elevated
                                                && sp_recording_session_was_refused (session));
  gtk_stack_set_visible_child_name (self->pages, "error");
  /* Not the explanation: a focused selectable label selects all. */
  gtk_window_set_focus (GTK_WINDOW (self), gtk_widget_get_visible (self->elevate_button) ? self->elevate_button : NULL);
  gtk_label_select_region (self->error_label, 0, 0);
}

static void
session_finished (SpRecordingSession *session,
                  int status,
                  SpWindow *self)
{
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->record_button), TRUE);
  _sp_window_update_actions (self);
  if (sp_analysis_get_profile (self->analysis) == NULL
      && !g_file_test (sp_recording_session_get_output (session), G_FILE_TEST_EXISTS))
    {
      show_refusal (self, session);
      return;
    }
  sp_recent_list_add_file (self->file);
  /* Named as the file it now is, as when opened: "recording" no longer. */
  _sp_window_set_file_title (self, self->file);
  /* The last update shows the figures in the status line, with this. */
  if (sp_recording_session_was_killed (session))
    {
      self->exit_note = "interrupted: the recorder was killed";
      gtk_label_set_text (self->status_label, "Recording interrupted: the recorder was killed.");
    }
  else
    {
      self->exit_note = status == 0 ? NULL : "the program failed or was stopped";
      gtk_label_set_text (self->status_label, status == 0 ? "Recording finished." : "Recording finished (the "
                                                                                    "program failed or was stopped).");
    }
  sp_analysis_recording_ended (self->analysis);
  _sp_window_offcpu_check_stacks (self, session);
}

/* The program's name: the command's, or the attached process's. */
static char *
program_name (const SpRecordOptions *options)
{
  g_autoptr (SpProcess) process = NULL;

  if (options->all_cpus)
    return g_strdup ("system");
  if (options->argv != NULL)
    return g_path_get_basename (options->argv[0]);
  process = sp_process_new_for_pid (NULL, options->pid);
  return process != NULL ? g_strdup (sp_process_get_name (process)) : g_strdup_printf ("pid-%d", options->pid);
}

static char *
recording_path (const char *program)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "stackpulse", "recordings", NULL);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *name = g_strdup_printf ("%s-%s.spool", program, stamp);

  g_mkdir_with_parents (dir, 0700);
  return g_build_filename (dir, name, NULL);
}

static void
show_recording_started (SpWindow *self,
                        const SpRecordOptions *options,
                        const char *program)
{
  g_autofree char *title = NULL;

  if (options->all_cpus)
    title = g_strdup ("The whole system — recording — stackpulse");
  else if (options->argv != NULL)
    title = g_strdup_printf ("%s — recording — stackpulse", options->argv[0]);
  else
    title = g_strdup_printf ("%s (pid %d) — recording — stackpulse", program, options->pid);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_label_set_text (self->status_label, "Recording: starting…");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->record_button), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->stop_button), TRUE);
  _sp_window_show_profile_controls (self, TRUE);
  gtk_stack_set_visible_child_name (self->pages, "profile");
}

gboolean
sp_window_record (SpWindow *self,
                  const SpRecordOptions *options,
                  GError **error)
{
  g_autofree char *program = program_name (options);
  g_autofree char *path = recording_path (program);

  g_return_val_if_fail (self->session == NULL && sp_analysis_get_profile (self->analysis) == NULL
                        && options != &self->record_options, FALSE);
  self->session = sp_recording_session_start (options, path, error);
  if (self->session == NULL)
    return FALSE;
  sp_record_options_clear (&self->record_options);
  sp_record_options_copy (&self->record_options, options);
  g_clear_object (&self->file);  /* a file that could not be opened */
  g_clear_object (&self->converted_from);
  self->file = g_file_new_for_path (path);
  g_signal_connect (self->session, "progress", G_CALLBACK (session_progress), self);
  g_signal_connect (self->session, "finished", G_CALLBACK (session_finished), self);
  show_recording_started (self, options, program);
  sp_analysis_follow_recording (self->analysis, path);
  _sp_window_update_actions (self);
  return TRUE;
}

gboolean
sp_window_is_recording (SpWindow *self)
{
  return self->session != NULL && sp_recording_session_is_running (self->session);
}

/* Records in this window, or in a new one when this one shows a profile
 * (one window per profile); a failure to start shows on the error page. */
static void
record_in_window (SpWindow *self,
                  const SpRecordOptions *options)
{
  g_autoptr (GError) error = NULL;

  if (_sp_window_is_taken (self))
    {
      self = sp_window_new (SP_APPLICATION (gtk_window_get_application (GTK_WINDOW (self))));
      gtk_window_present (GTK_WINDOW (self));
    }
  _sp_window_recording_forget (self);
  g_clear_object (&self->file);
  if (!sp_window_record (self, options, &error))
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_widget_set_visible (self->elevate_button, FALSE);
      gtk_stack_set_visible_child_name (self->pages, "error");
    }
}

static void
record_requested (SpRecordDialog *dialog,
                  SpWindow *self)
{
  SpRecordOptions options;

  if (!sp_record_dialog_get_options (dialog, &options, NULL))
    return;
  record_in_window (self, &options);
  sp_record_options_clear (&options);
}

static void
record_activated (GtkWidget *widget,
                  const char *action_name,
                  GVariant *parameter)
{
  SpRecordDialog *dialog = sp_record_dialog_new (GTK_WINDOW (widget));

  /* The dialog may outlive the window. */
  g_signal_connect_object (dialog, "record", G_CALLBACK (record_requested), widget, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
record_demo_activated (GtkWidget *widget,
                       const char *action_name,
                       GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);
  g_autofree char *demo = sp_recording_session_find_demo ();
  SpRecordOptions options = { NULL, NULL, 1000, TRUE };

  if (demo == NULL)
    {
      gtk_label_set_text (self->error_label, "stackpulse-demo was not found next to stackpulse or on PATH.");
      gtk_stack_set_visible_child_name (self->pages, "error");
      return;
    }
  options.argv = g_new0 (char *, 2);
  options.argv[0] = g_steal_pointer (&demo);
  record_in_window (self, &options);
  sp_record_options_clear (&options);
}

/* Every process on every CPU (stackpulse-record -a): refused without
 * root, CAP_PERFMON or perf_event_paranoid <= 0, which the error page
 * explains, offering pkexec as for any refused recording. */
static void
record_system_activated (GtkWidget *widget,
                         const char *action_name,
                         GVariant *parameter)
{
  SpRecordOptions options = { .frequency_hz = 1000, .kernel_stacks = TRUE, .all_cpus = TRUE };

  record_in_window (SP_WINDOW (widget), &options);
}

static void
attach_requested (SpProcessPicker *picker,
                  int pid,
                  const char *name,
                  SpWindow *self)
{
  SpRecordOptions options = { .frequency_hz = 1000, .kernel_stacks = TRUE, .pid = pid,
                              .off_cpu = sp_process_picker_get_off_cpu (picker) };

  record_in_window (self, &options);
}

static void
attach_activated (GtkWidget *widget,
                  const char *action_name,
                  GVariant *parameter)
{
  SpProcessPicker *picker = sp_process_picker_new (GTK_WINDOW (widget));

  g_signal_connect_object (picker, "attach", G_CALLBACK (attach_requested), widget, 0);
  gtk_window_present (GTK_WINDOW (picker));
}

/* The same recording again, the recorder run through pkexec (which asks
 * for the password); in a window of its own when this one shows what was
 * recorded. */
static void
record_again_elevated (SpWindow *self)
{
  SpRecordOptions options;

  sp_record_options_copy (&options, &self->record_options);
  options.elevated = TRUE;
  record_in_window (self, &options);
  sp_record_options_clear (&options);
}

/* The kernel refused: nothing was recorded. */
static void
record_elevated_activated (GtkWidget *widget,
                           const char *action_name,
                           GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);

  if (self->session == NULL || sp_window_is_recording (self) || sp_analysis_get_profile (self->analysis) != NULL)
    return;
  record_again_elevated (self);
}

/* The recording ended without blocked stacks (sp-window-offcpu.c): it stays
 * shown here, and the new one gets a window. */
static void
record_again_elevated_activated (GtkWidget *widget,
                                 const char *action_name,
                                 GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);

  if (self->session == NULL || sp_window_is_recording (self) || self->record_options.elevated)
    return;
  record_again_elevated (self);
}

static void
stop_activated (GtkWidget *widget,
                const char *action_name,
                GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);

  if (sp_window_is_recording (self))
    {
      gtk_label_set_text (self->status_label, "Stopping…");
      sp_recording_session_stop (self->session);
    }
}

void
_sp_window_recording_dispose (SpWindow *self)
{
  /* The recording ends with its window. Not left to the session's
   * dispose: its pending reads of the recorder's pipes hold references,
   * so it would only run once the recorder ended on its own. */
  if (sp_window_is_recording (self))
    sp_recording_session_stop (self->session);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  sp_record_options_clear (&self->record_options);
}

void
_sp_window_recording_forget (SpWindow *self)
{
  if (self->session == NULL)
    return;
  g_return_if_fail (!sp_window_is_recording (self));
  g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  g_clear_object (&self->file);
}

void
_sp_window_recording_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.record", NULL, record_activated);
  gtk_widget_class_install_action (widget_class, "win.stop", NULL, stop_activated);
  gtk_widget_class_install_action (widget_class, "win.record-demo", NULL, record_demo_activated);
  gtk_widget_class_install_action (widget_class, "win.attach", NULL, attach_activated);
  gtk_widget_class_install_action (widget_class, "win.record-system", NULL, record_system_activated);
  gtk_widget_class_install_action (widget_class, "win.record-elevated", NULL, record_elevated_activated);
  gtk_widget_class_install_action (widget_class, "win.record-again-elevated", NULL, record_again_elevated_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.stop", NULL);
}
