/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-dialog.c: the record dialog, from its fields to the
 * recorder's command line, and through the window to a real recording
 * whose program sees the dialog's environment and folder. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>
#include <unistd.h>

#include "gui-test.h"
#include "sp-offcpu-option.h"
#include "sp-perf-access.h"
#include "sp-record-dialog.h"
#include "sp-recording-session.h"
#include "sp-window-testing.h"
#include "window-test.h"

/* The recorder's arguments joined by '|', so spaces inside show. */
static char *
recorder_command (const SpRecordOptions *options,
                  int progress_fd)
{
  g_auto (GStrv) argv = sp_recording_session_build_argv ("/rec", options, "/out.spool", progress_fd);

  return g_strjoinv ("|", argv);
}

static void
test_options (void)
{
  SpRecordDialog *dialog = sp_record_dialog_new (NULL);
  SpRecordOptions options;
  SpRecordOptions attach = { .frequency_hz = 250, .kernel_stacks = FALSE, .pid = 42 };
  g_autoptr (GError) error = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *command = NULL;
  g_autofree char *joined = NULL;

  gtk_window_present (GTK_WINDOW (dialog));
  sp_record_dialog_set_command_line (dialog, "prog 'two words' x");
  sp_record_dialog_set_working_directory (dialog, "/tmp");
  sp_record_dialog_set_environment (dialog, "SP_A=1\n\n# a comment\n  SP_B=two words  \nSP_C=\n");
  g_assert_false (sp_record_dialog_set_call_graph (dialog, "bogus"));
  g_assert_true (sp_record_dialog_set_call_graph (dialog, "dwarf"));
  gui_test_save_png (GTK_WIDGET (dialog), "record-dialog.png");

  g_assert_true (sp_record_dialog_get_options (dialog, &options, &error));
  g_assert_no_error (error);
  joined = g_strjoinv ("|", options.environment);
  g_assert_cmpstr (joined, ==, "SP_A=1|SP_B=two words|SP_C=");
  g_assert_cmpstr (options.call_graph, ==, "dwarf");
  g_assert_cmpuint (options.frequency_hz, ==, 1000);
  g_assert_true (options.kernel_stacks);
  command = recorder_command (&options, 3);
  /* Off-CPU time is on by default (switch records: any kernel since 4.3). */
  g_assert_true (options.off_cpu);
  g_assert_cmpstr (command, ==, "/rec|-o|/out.spool|-F1000|--call-graph=dwarf|--off-cpu|--control-stdin|"
                                "--progress-fd=3|--directory=/tmp|--env=SP_A=1|--env=SP_B=two words|--env=SP_C=|--|"
                                "prog|two words|x");
  sp_record_options_clear (&options);

  /* Automatic is the recorder's own default: not passed (a recorder
   * without the other modes still records). */
  g_assert_true (sp_record_dialog_set_call_graph (dialog, "auto"));
  sp_record_dialog_set_environment (dialog, "");
  g_assert_true (sp_record_dialog_get_options (dialog, &options, &error));
  g_assert_null (options.environment);
  g_clear_pointer (&command, g_free);
  command = recorder_command (&options, 3);
  g_assert_cmpstr (command, ==, "/rec|-o|/out.spool|-F1000|--off-cpu|--control-stdin|--progress-fd=3|"
                                "--directory=/tmp|--|prog|two words|x");
  sp_record_options_clear (&options);

  /* Unticked: no --off-cpu. */
  gtk_check_button_set_active (window_test_find_check_button (GTK_WIDGET (dialog), "off-CPU time"), FALSE);
  g_assert_true (sp_record_dialog_get_options (dialog, &options, &error));
  g_assert_false (options.off_cpu);
  g_clear_pointer (&command, g_free);
  command = recorder_command (&options, 3);
  g_assert_cmpstr (command, ==, "/rec|-o|/out.spool|-F1000|--control-stdin|--progress-fd=3|--directory=/tmp|--|"
                                "prog|two words|x");
  sp_record_options_clear (&options);

  /* Attaching: a pid, no folder or environment; under pkexec no progress
   * descriptor. */
  g_clear_pointer (&command, g_free);
  command = recorder_command (&attach, -1);
  g_assert_cmpstr (command, ==, "/rec|-o|/out.spool|-F250|--no-kernel|--control-stdin|--pid=42");
  attach.off_cpu = TRUE;
  g_clear_pointer (&command, g_free);
  command = recorder_command (&attach, -1);
  g_assert_cmpstr (command, ==, "/rec|-o|/out.spool|-F250|--no-kernel|--off-cpu|--control-stdin|--pid=42");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* The off-CPU check box: on wherever the kernel gives switch records, with
 * a line under it saying whether blocked stacks will be recorded, and if
 * not, the recorder's reason (the same check: codec/sp-perf-access.h). */
static void
test_off_cpu_option (void)
{
  SpRecordDialog *dialog = sp_record_dialog_new (NULL);
  g_autofree char *described = sp_offcpu_option_describe ();
  GtkCheckButton *check;
  GtkLabel *note;
  char reason[512];

  gtk_window_present (GTK_WINDOW (dialog));
  check = window_test_find_check_button (GTK_WIDGET (dialog), "off-CPU time (where threads wait)");
  g_assert_nonnull (check);
  g_assert_cmpstr (gtk_check_button_get_label (check), ==, "Record _off-CPU time (where threads wait)");
  g_assert_true (window_test_is_shown (GTK_WIDGET (check)));
  /* Linux 4.3 and perf events: every machine these tests run on. */
  g_assert_true (sp_perf_has_switch_records ());
  g_assert_true (gtk_check_button_get_active (check));
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (check)));

  note = window_test_find_label (GTK_WIDGET (dialog), described);
  g_assert_nonnull (note);
  g_assert_true (window_test_is_shown (GTK_WIDGET (note)));
  g_test_message ("%s", described);
  sp_perf_offcpu_stacks_reason (sp_perf_paranoid (), reason, sizeof reason);
  if (sp_perf_kernel_sampling_allowed ())
    {
      g_assert_nonnull (strstr (described, "stacks where threads block are recorded"));
      g_assert_null (strstr (described, reason));
    }
  else
    {
      g_assert_nonnull (strstr (described, "Only thread states and off-CPU times"));
      g_assert_nonnull (strstr (described, reason));
    }
  /* As root (the tests' usual case) kernel sampling is allowed whatever
   * perf_event_paranoid says. */
  if (getuid () == 0)
    g_assert_true (sp_perf_kernel_sampling_allowed ());
  gui_test_save_png (GTK_WIDGET (dialog), "record-dialog-off-cpu.png");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
record_emitted (SpRecordDialog *dialog,
                gboolean *emitted)
{
  *emitted = TRUE;
}

/* What the user typed wrong stays in the dialog, with the reason. */
static void
test_bad_input (void)
{
  SpRecordDialog *dialog = sp_record_dialog_new (NULL);
  gboolean recorded = FALSE;

  g_signal_connect (dialog, "record", G_CALLBACK (record_emitted), &recorded);
  gtk_window_present (GTK_WINDOW (dialog));
  sp_record_dialog_set_command_line (dialog, "true");
  sp_record_dialog_set_environment (dialog, "GOOD=1\nnot a variable\n");
  g_assert_false (sp_record_dialog_record (dialog));
  g_assert_nonnull (strstr (sp_record_dialog_get_message (dialog), "line 2"));
  gui_test_save_png (GTK_WIDGET (dialog), "record-dialog-error.png");

  sp_record_dialog_set_environment (dialog, "1ST=x");
  g_assert_false (sp_record_dialog_record (dialog));
  g_assert_nonnull (strstr (sp_record_dialog_get_message (dialog), "line 1"));

  sp_record_dialog_set_environment (dialog, "");
  sp_record_dialog_set_command_line (dialog, "'unclosed");
  g_assert_false (sp_record_dialog_record (dialog));
  g_assert_nonnull (strstr (sp_record_dialog_get_message (dialog), "does not parse"));
  g_assert_false (recorded);
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static gboolean
call_tree_has_rows (gpointer window)
{
  return g_list_model_get_n_items (sp_window_get_call_tree_model (window)) > 0;
}

static gboolean
not_recording (gpointer window)
{
  return !sp_window_is_recording (window);
}

static gboolean
shows_alpha (gpointer window)
{
  return window_test_find_thread_check (window, "sp-alpha") != NULL;
}

/* The dialog drives a real recording: the program runs in the dialog's
 * folder with the dialog's environment (it writes both down), and the live
 * view shows its threads. */
static void
test_records_with_environment (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-dialog-XXXXXX", &error);
  g_autofree char *real_dir = g_canonicalize_filename (dir, NULL);
  g_autofree char *seen_path = g_build_filename (dir, "seen", NULL);
  g_autofree char *workload = g_shell_quote (g_getenv ("SP_WORK_THREADS"));
  g_autofree char *script = g_strdup_printf ("printf '%%s|%%s' \"$SP_DIALOG_VALUE\" \"$(pwd)\" > seen; exec %s 4 > /dev/null",
                                             workload);
  g_autofree char *quoted = g_shell_quote (script);
  g_autofree char *command_line = g_strconcat ("/bin/sh -c ", quoted, NULL);
  g_autofree char *expected = g_strdup_printf ("a value with spaces=and an equals sign|%s", real_dir);
  g_autofree char *seen = NULL;
  SpWindow *window = sp_window_new (NULL);
  SpRecordDialog *dialog;

  g_assert_no_error (error);
  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.record", NULL);
  dialog = SP_RECORD_DIALOG (window_test_find_toplevel (SP_TYPE_RECORD_DIALOG));
  g_assert_nonnull (dialog);
  sp_record_dialog_set_command_line (dialog, command_line);
  sp_record_dialog_set_working_directory (dialog, dir);
  sp_record_dialog_set_environment (dialog, "SP_DIALOG_VALUE=a value with spaces=and an equals sign\n");
  g_assert_true (sp_record_dialog_set_call_graph (dialog, "fp"));
  g_assert_true (sp_record_dialog_record (dialog));
  g_assert_true (sp_window_is_recording (window));

  g_assert_true (window_test_wait (call_tree_has_rows, window, 20));
  g_file_get_contents (seen_path, &seen, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (seen, ==, expected);
  sp_window_show_view (window, "threads");
  g_assert_true (window_test_wait (shows_alpha, window, 20));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL);
  g_assert_true (window_test_wait (not_recording, window, 20));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (seen_path);
  g_rmdir (dir);
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/app/record-dialog/options", test_options);
  g_test_add_func ("/app/record-dialog/bad-input", test_bad_input);
  g_test_add_func ("/app/record-dialog/off-cpu-option", test_off_cpu_option);
  g_test_add_func ("/app/record-dialog/records-with-environment", test_records_with_environment);
  return g_test_run ();
}
