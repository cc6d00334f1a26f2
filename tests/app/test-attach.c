/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-attach.c: attaching to a running process from the window.
 *
 * The process list read from /proc, the picker's search and refresh, an
 * attach from the picker to a workload the test started (the live view
 * shows its threads, and Stop leaves it running), and a recorder the
 * kernel refuses: run as nobody (setpriv, when the test is root) against
 * the test's own process, so perf_event_open really fails; the window
 * shows the recorder's explanation and offers pkexec exactly when pkexec
 * is installed. A stand-in for pkexec (it does to the recorder what
 * pkexec does: clean environment, root's home, no descriptor past stderr,
 * but asks nobody) then shows that the raised recording works without
 * the progress pipe. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <pwd.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "gui-test.h"
#include "sp-process-picker.h"
#include "sp-process.h"
#include "sp-window-testing.h"
#include "window-test.h"

static SpProcess *
find_pid (GListModel *model,
          int pid,
          guint *position)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (SpProcess) process = g_list_model_get_item (model, i);

      if (sp_process_get_pid (process) == pid)
        {
          if (position != NULL)
            *position = i;
          return process;  /* the model keeps it */
        }
    }
  return NULL;
}

static char *
read_comm (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/comm", pid);
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return g_strchomp (text);
}

/* ---- The process list ---------------------------------------------------- */

static void
test_process_list (void)
{
  GPid pid = window_test_start_workload (30);
  g_autoptr (GListStore) list = sp_process_list_running (NULL);
  g_autofree char *pid_text = g_strdup_printf ("%d", pid);
  g_autofree char *words = g_strdup_printf ("SP-WORK %s threads", pid_text);
  g_autofree char *kthread = read_comm (2);
  struct passwd *me = getpwuid (getuid ());
  SpProcess *child;
  guint child_at = 0, test_at = 0;

  child = find_pid (G_LIST_MODEL (list), pid, &child_at);
  g_assert_nonnull (child);
  g_assert_cmpstr (sp_process_get_name (child), ==, "sp-work-threads");
  g_assert_cmpuint (sp_process_get_uid (child), ==, getuid ());
  g_assert_cmpstr (sp_process_get_user (child), ==, me->pw_name);
  g_assert_true (g_str_has_prefix (sp_process_get_command_line (child), g_getenv ("SP_WORK_THREADS")));
  g_assert_true (g_str_has_suffix (sp_process_get_command_line (child), " 30"));

  /* The search: any field, any case, every word. */
  g_assert_true (sp_process_matches (child, pid_text));
  g_assert_true (sp_process_matches (child, "Work-Thr"));
  g_assert_true (sp_process_matches (child, me->pw_name));
  g_assert_true (sp_process_matches (child, "--ready"));
  g_assert_true (sp_process_matches (child, words));
  g_assert_true (sp_process_matches (child, ""));
  g_assert_false (sp_process_matches (child, "sp-work no-such-word"));

  /* Kernel threads cannot be profiled by pid: not listed. */
  if (g_strcmp0 (kthread, "kthreadd") == 0)
    g_assert_null (find_pid (G_LIST_MODEL (list), 2, NULL));
  /* The newest of one's own processes first: the child before this test. */
  g_assert_nonnull (find_pid (G_LIST_MODEL (list), getpid (), &test_at));
  g_assert_cmpuint (child_at, <, test_at);
  for (guint i = 0; i + 1 < g_list_model_get_n_items (G_LIST_MODEL (list)); i++)
    {
      g_autoptr (SpProcess) a = g_list_model_get_item (G_LIST_MODEL (list), i);
      g_autoptr (SpProcess) b = g_list_model_get_item (G_LIST_MODEL (list), i + 1);

      g_assert_cmpint (sp_process_compare (a, b, NULL), <=, 0);
    }

  window_test_stop_workload (pid);
  g_assert_null (sp_process_new_for_pid (NULL, pid));
}

/* The kernel keeps 15 bytes of a program's name; the list shows it whole. */
static void
test_long_name (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-names-XXXXXX", &error);
  g_autofree char *program = g_build_filename (dir, "sp-a-rather-long-program-name", NULL);
  g_autofree char *sleep_path = g_find_program_in_path ("sleep");
  const char *argv[] = { program, "30", NULL };
  g_autofree char *comm = NULL;
  g_autoptr (SpProcess) process = NULL;
  GPid pid;

  g_assert_no_error (error);
  g_assert_cmpint (symlink (sleep_path, program), ==, 0);
  g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  /* Until the exec, the child is a copy of this test. */
  for (gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
       g_strcmp0 (comm, "sp-a-rather-lon") != 0 && g_get_monotonic_time () < deadline; g_usleep (1000))
    {
      g_free (comm);
      comm = read_comm (pid);
    }
  g_assert_cmpstr (comm, ==, "sp-a-rather-lon");
  process = sp_process_new_for_pid (NULL, pid);
  g_assert_nonnull (process);
  g_assert_cmpstr (sp_process_get_name (process), ==, "sp-a-rather-long-program-name");
  g_assert_true (sp_process_matches (process, "program-name"));
  window_test_stop_workload (pid);
  g_unlink (program);
  g_rmdir (dir);
}

/* ---- The picker -------------------------------------------------------- */

static void
test_picker_search (void)
{
  GPid pid = window_test_start_workload (30);
  GPid later = 0;
  g_autofree char *pid_text = g_strdup_printf ("%d", pid);
  g_autofree char *exact = g_strdup_printf ("sp-work-threads %d", pid);
  SpProcessPicker *picker = sp_process_picker_new (NULL);
  GListModel *shown = sp_process_picker_get_model (picker);

  gtk_window_present (GTK_WINDOW (picker));
  gui_test_save_png (GTK_WIDGET (picker), "process-picker-all.png");
  g_assert_nonnull (find_pid (shown, pid, NULL));

  /* By pid: it, and only rows that have those digits somewhere. */
  sp_process_picker_set_search (picker, pid_text);
  g_assert_nonnull (find_pid (shown, pid, NULL));
  for (guint i = 0; i < g_list_model_get_n_items (shown); i++)
    {
      g_autoptr (SpProcess) process = g_list_model_get_item (shown, i);

      g_assert_true (sp_process_matches (process, pid_text));
    }
  /* By name, and by name and pid: exactly it. */
  sp_process_picker_set_search (picker, "sp-work-threads");
  g_assert_nonnull (find_pid (shown, pid, NULL));
  sp_process_picker_set_search (picker, exact);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  g_assert_nonnull (find_pid (shown, pid, NULL));
  sp_process_picker_set_search (picker, "no-such-process-4711");
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 0);
  g_assert_true (window_test_is_shown (GTK_WIDGET (window_test_find_label (GTK_WIDGET (picker), "No process matches"))));

  /* A process started after the list was read shows after Refresh, and
   * one that ended goes. */
  sp_process_picker_set_search (picker, "sp-work-threads");
  later = window_test_start_workload (30);
  g_assert_null (find_pid (shown, later, NULL));
  gtk_widget_activate_action (GTK_WIDGET (picker), "picker.refresh", NULL);
  g_assert_nonnull (find_pid (shown, later, NULL));
  g_assert_nonnull (find_pid (shown, pid, NULL));
  window_test_stop_workload (later);
  sp_process_picker_refresh (picker);
  g_assert_null (find_pid (shown, later, NULL));

  sp_process_picker_set_search (picker, "sp-work");
  g_assert_true (sp_process_picker_select_pid (picker, pid));
  gui_test_save_png (GTK_WIDGET (picker), "process-picker.png");
  gtk_window_destroy (GTK_WINDOW (picker));
  window_test_stop_workload (pid);
}

/* ---- Attaching --------------------------------------------------------- */

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
shows_workers (gpointer window)
{
  return window_test_find_thread_check (window, "sp-alpha") != NULL
         && window_test_find_thread_check (window, "sp-beta") != NULL;
}

static gboolean
shows_error_page (gpointer window)
{
  return g_strcmp0 (sp_window_get_page (window), "error") == 0;
}

/* The live view of an attached workload: its threads by name; Stop ends
 * the recording, not the workload. */
static void
check_attached_live (SpWindow *window,
                     GPid pid,
                     const char *screenshot)
{
  g_autofree char *in_title = g_strdup_printf ("(pid %d)", pid);

  g_assert_true (sp_window_is_recording (window));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), in_title));
  g_assert_true (window_test_wait (call_tree_has_rows, window, 20));
  sp_window_show_view (window, "threads");
  g_assert_true (window_test_wait (shows_workers, window, 20));
  gui_test_save_png (GTK_WIDGET (window), screenshot);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.stop", NULL);
  g_assert_true (window_test_wait (not_recording, window, 20));
  g_assert_cmpint (kill (pid, 0), ==, 0);
}

static void
test_attach_from_picker (void)
{
  GPid pid = window_test_start_workload (30);
  g_autofree char *pid_text = g_strdup_printf ("%d", pid);
  SpWindow *window = sp_window_new (NULL);
  SpProcessPicker *picker;

  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.attach", NULL);
  picker = SP_PROCESS_PICKER (window_test_find_toplevel (SP_TYPE_PROCESS_PICKER));
  g_assert_nonnull (picker);
  /* Off-CPU time, on by default as in the record dialog; the attach
   * passes it on (--off-cpu works with --pid). */
  g_assert_nonnull (window_test_find_check_button (GTK_WIDGET (picker), "off-CPU time (where threads wait)"));
  g_assert_true (sp_process_picker_get_off_cpu (picker));
  sp_process_picker_set_search (picker, pid_text);
  g_assert_true (sp_process_picker_select_pid (picker, pid));
  g_assert_true (sp_process_picker_attach (picker));
  g_assert_null (window_test_find_toplevel (SP_TYPE_PROCESS_PICKER));
  check_attached_live (window, pid, "attach-live.png");
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_stop_workload (pid);
}

/* ---- The kernel refuses ------------------------------------------------- */

/* Starts an attach that the kernel refuses and waits for the window to
 * explain; returns whether it offers to record with raised rights. */
static gboolean
attach_refused (SpWindow *window,
                GPid pid)
{
  SpRecordOptions options = { .frequency_hz = 1000, .kernel_stacks = TRUE, .pid = pid };
  g_autoptr (GError) error = NULL;
  GtkLabel *explanation;
  GtkButton *elevate;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (sp_window_record (window, &options, &error));
  g_assert_no_error (error);
  g_assert_true (window_test_wait (shows_error_page, window, 20));
  explanation = window_test_find_label (GTK_WIDGET (window), "the kernel refused");
  g_assert_nonnull (explanation);
  g_assert_true (window_test_is_shown (GTK_WIDGET (explanation)));
  g_assert_nonnull (strstr (gtk_label_get_text (explanation), "perf_event_paranoid"));
  elevate = window_test_find_button (GTK_WIDGET (window), "Record with Administrator Rights");
  g_assert_nonnull (elevate);
  return window_test_is_shown (GTK_WIDGET (elevate));
}

static gboolean
shows_spool_counters (gpointer window)
{
  GtkLabel *status = window_test_find_label (window, "Recording with administrator rights: ");

  return status != NULL && !g_str_has_prefix (gtk_label_get_text (status), "Recording with administrator rights: 0 ");
}

/* attach_refused in a new window, for window_test_check_pkexec_offer. */
static SpWindow *
attempt_attach (gpointer pid,
                gboolean *offered)
{
  SpWindow *window = sp_window_new (NULL);

  *offered = attach_refused (window, GPOINTER_TO_INT (pid));
  return window;
}

static void
test_refused (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-refused-XXXXXX", &error);
  g_autofree char *wrapper = NULL;
  gboolean root = getuid () == 0;
  GPid pid;
  SpWindow *window;

  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
  if (root)
    {
      /* The recorder as nobody, the target this test's own child: the
       * kernel refuses whatever perf_event_paranoid says. Raised (the
       * stand-in pkexec sets PKEXEC_UID, as pkexec does), it stays root. */
      wrapper = window_test_write_nobody_recorder (dir);
      g_setenv ("STACKPULSE_RECORD", wrapper, TRUE);
      pid = window_test_start_workload (60);
    }
  else
    {
      /* Not root: the recorder is unprivileged already; init belongs to
       * someone else. */
      g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
      pid = 1;
    }

  /* The window explains, and offers pkexec if and only if it exists. */
  if (!window_test_check_pkexec_offer (dir, attempt_attach, GINT_TO_POINTER (pid), "attach-refused.png"))
    {
      g_rmdir (dir);
      return;
    }

  /* A pkexec on PATH that does not ask: taking the offer records the
   * same process, the counters coming from the spool. */
  window = sp_window_new (NULL);
  g_assert_true (attach_refused (window, pid));
  gui_test_save_png (GTK_WIDGET (window), "attach-refused-pkexec.png");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.record-elevated", NULL);
  g_assert_true (window_test_wait (shows_spool_counters, window, 20));
  check_attached_live (window, pid, "attach-elevated.png");
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_stop_workload (pid);
  window_test_pkexec_offer_end (dir);
  window_test_remove_dir (dir);
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/app/attach/process-list", test_process_list);
  g_test_add_func ("/app/attach/long-name", test_long_name);
  g_test_add_func ("/app/attach/picker-search", test_picker_search);
  g_test_add_func ("/app/attach/from-picker", test_attach_from_picker);
  g_test_add_func ("/app/attach/refused", test_refused);
  return g_test_run ();
}
