/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-offcpu-offer.c: a recording of off-CPU time made in the window
 * without the rights to sample the kernel.
 *
 * As test-attach.c does for a refused recording: the recorder runs as
 * nobody (setpriv, when the test is root; at perf_event_paranoid 2 nobody
 * gets switch records for its own child but no context-switch samples), so
 * the recording has thread states and times without blocked stacks. When
 * it ends the window says so with the recorder's reason, and offers
 * "Record Again as Administrator" exactly when pkexec is installed. A
 * stand-in for pkexec (what pkexec does to the recorder, without asking)
 * then shows that taking the offer records the same program again in a
 * window of its own, this time with the stacks. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>
#include <unistd.h>

#include "gui-test.h"
#include "sp-perf-access.h"
#include "sp-window-testing.h"
#include "window-test.h"

#define NOTE "Blocked stacks were not recorded: "
#define OFFER "Record Again as Administrator"

static gboolean
not_recording (gpointer window)
{
  return !sp_window_is_recording (window);
}

static gboolean
note_shown (SpWindow *window)
{
  GtkLabel *note = window_test_find_label (GTK_WIDGET (window), NOTE);

  return note != NULL && window_test_is_shown (GTK_WIDGET (note));
}

/* Records workload (a second of sp-work-offcpu) with off-CPU time in a new
 * window and waits for it to end; the window, for the caller to close. */
static SpWindow *
record_off_cpu (const char *workload,
                const char *dir)
{
  SpWindow *window = sp_window_new (NULL);
  /* Its report of its threads' clocks is not for the TAP output. */
  char *argv[] = { (char *) "/bin/sh", (char *) "-c", (char *) "exec \"$0\" 1 > /dev/null", (char *) workload,
                   NULL };
  SpRecordOptions options = { .argv = argv, .working_directory = (char *) dir, .frequency_hz = 1000,
                              .kernel_stacks = TRUE, .off_cpu = TRUE };
  g_autoptr (GError) error = NULL;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (sp_window_record (window, &options, &error));
  g_assert_no_error (error);
  g_assert_true (window_test_wait (not_recording, window, 30));
  window_test_run (0.2);
  return window;
}

/* The window says the stacks are missing and why; returns whether it
 * offers to record again with raised rights. */
static gboolean
says_stacks_missing (SpWindow *window)
{
  GtkLabel *note = window_test_find_label (GTK_WIDGET (window), NOTE);
  GtkButton *offer = window_test_find_button (GTK_WIDGET (window), OFFER);
  char reason[512];

  g_assert_nonnull (note);
  g_assert_true (window_test_is_shown (GTK_WIDGET (note)));
  g_test_message ("%s", gtk_label_get_text (note));
  /* The recorder's own reason (the side file's off_cpu_stacks_reason). */
  sp_perf_offcpu_stacks_reason (sp_perf_paranoid (), reason, sizeof reason);
  g_assert_nonnull (strstr (gtk_label_get_text (note), reason));
  g_assert_cmpstr (sp_window_get_page (window), ==, "profile");
  return offer != NULL && window_test_is_shown (GTK_WIDGET (offer));
}

static gboolean
has_other_window (gpointer window)
{
  return window_test_other_window (window) != NULL;
}

typedef struct {
  const char *workload;
  const char *dir;
} Recording;

/* record_off_cpu and says_stacks_missing, for
 * window_test_check_pkexec_offer. */
static SpWindow *
attempt_recording (gpointer data,
                   gboolean *offered)
{
  const Recording *recording = data;
  SpWindow *window = record_off_cpu (recording->workload, recording->dir);

  *offered = says_stacks_missing (window);
  return window;
}

static void
test_stacks_missing (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-offcpu-offer-XXXXXX", &error);
  g_autofree char *workload = NULL;
  g_autofree char *wrapper = NULL;
  Recording recording;
  SpWindow *window;
  SpWindow *elevated;

  g_assert_no_error (error);
  if (sp_perf_paranoid () <= 1 || (getuid () != 0 && sp_perf_kernel_sampling_allowed ()))
    {
      g_test_skip ("this process, or everyone, may sample the kernel here: blocked stacks are recorded");
      g_rmdir (dir);
      return;
    }
  g_assert_cmpint (g_chmod (dir, 0755), ==, 0);
  workload = window_test_copy_program (g_getenv ("SP_WORK_OFFCPU"), dir);
  recording = (Recording) { workload, dir };
  /* As root, the recorder as nobody; raised (the stand-in pkexec sets
   * PKEXEC_UID, as pkexec does), it stays root. */
  wrapper = getuid () == 0 ? window_test_write_nobody_recorder (dir) : g_strdup (g_getenv ("SP_RECORD"));
  g_setenv ("STACKPULSE_RECORD", wrapper, TRUE);

  /* The window explains, and offers pkexec if and only if it exists. */
  if (!window_test_check_pkexec_offer (dir, attempt_recording, &recording, "offcpu-stacks-missing.png"))
    {
      window_test_remove_dir (dir);
      return;
    }

  /* A pkexec on PATH that does not ask: taking the offer records the same
   * program again, in a new window (this one keeps what it shows), with
   * the stacks: no note there. */
  window = record_off_cpu (workload, dir);
  g_assert_true (says_stacks_missing (window));
  gui_test_save_png (GTK_WIDGET (window), "offcpu-stacks-missing-pkexec.png");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.record-again-elevated", NULL);
  g_assert_true (window_test_wait (has_other_window, window, 10));
  elevated = window_test_other_window (window);
  g_assert_true (window_test_wait (not_recording, elevated, 30));
  window_test_run (0.2);
  g_assert_cmpstr (sp_window_get_page (elevated), ==, "profile");
  g_assert_false (note_shown (elevated));
  g_assert_true (note_shown (window));
  gui_test_save_png (GTK_WIDGET (elevated), "offcpu-elevated.png");
  gtk_window_destroy (GTK_WINDOW (elevated));
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_pkexec_offer_end (dir);
  window_test_remove_dir (dir);
}

/* Stacks allowed (root, unwrapped): a recording with off-CPU time says
 * nothing about stacks; nor does one without off-CPU time. */
static void
test_stacks_recorded (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-offcpu-offer-XXXXXX", &error);
  SpWindow *window;

  g_assert_no_error (error);
  if (!sp_perf_kernel_sampling_allowed ())
    {
      g_test_skip ("kernel sampling is not allowed here");
      g_rmdir (dir);
      return;
    }
  g_setenv ("STACKPULSE_RECORD", g_getenv ("SP_RECORD"), TRUE);
  window = record_off_cpu (g_getenv ("SP_WORK_OFFCPU"), dir);
  g_assert_cmpstr (sp_window_get_page (window), ==, "profile");
  g_assert_false (note_shown (window));
  /* Not offered: the bar's button, if any, is not shown. */
  {
    GtkButton *offer = window_test_find_button (GTK_WIDGET (window), OFFER);

    g_assert_true (offer == NULL || !window_test_is_shown (GTK_WIDGET (offer)));
  }
  gtk_window_destroy (GTK_WINDOW (window));
  g_rmdir (dir);
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/app/offcpu-offer/stacks-missing", test_stacks_missing);
  g_test_add_func ("/app/offcpu-offer/stacks-recorded", test_stacks_recorded);
  return g_test_run ();
}
