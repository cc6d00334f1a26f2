/* SPDX-License-Identifier: GPL-3.0-or-later */
/* window-test.h: finding what a window shows, waiting for it, and the
 * recordings and workloads it shows, in the app's tests. */
#pragma once

#include <gtk/gtk.h>

#include "sp-callers-view.h"
#include "sp-window-testing.h"

/* Runs the main loop until cond (data) holds; FALSE after timeout_s. */
gboolean window_test_wait (gboolean (*cond) (gpointer data),
                           gpointer data,
                           double timeout_s);

/* Runs the main loop for seconds. */
void window_test_run (double seconds);

/* The first open window of type (a dialog a window opened). */
GtkWindow *window_test_find_toplevel (GType type);

/* The first visible-or-not widget under widget that is a GtkLabel, a
 * GtkButton or a GtkCheckButton whose text contains text. */
GtkLabel *window_test_find_label (GtkWidget *widget,
                                  const char *text);
GtkButton *window_test_find_button (GtkWidget *widget,
                                    const char *text);
GtkCheckButton *window_test_find_check_button (GtkWidget *widget,
                                               const char *text);

/* The check button of the Threads page's row whose Name is name, or
 * NULL when the page has no such row. */
/* Whether the Threads page ticks thread name of process pid: 1, 0, or -1
 * when it has no such thread. */
int window_test_process_thread_shown (GtkWidget *widget,
                                      const char *name,
                                      int pid);

GtkCheckButton *window_test_find_thread_check (GtkWidget *widget,
                                               const char *name);

/* What the Threads page's rows show in the column titled title (as
 * strings, one per row, in widget order), and in the same order their
 * names in names (may be NULL); newly allocated. */
GPtrArray *window_test_thread_column (GtkWidget *widget,
                                      const char *title,
                                      GPtrArray *names);

/* A shown label under window but in another native (a tooltip) whose
 * text contains needle, or NULL. */
GtkLabel *window_test_find_popup_label (GtkWidget *window,
                                        const char *needle);

/* The first widget of type under widget (or widget itself). */
GtkWidget *window_test_find_widget (GtkWidget *widget,
                                    GType type);

/* Whether widget and all its ancestors are visible. */
gboolean window_test_is_shown (GtkWidget *widget);

/* A program that runs for seconds (sp-work-threads: four named threads
 * burning CPU), started in the background; and its end. */
GPid window_test_start_workload (double seconds);
void window_test_stop_workload (GPid pid);

/* Records program (its arguments follow, up to a NULL) into spool with
 * the real recorder (SP_RECORD), at frequency samples a second (NULL:
 * the recorder's own). FALSE, the test skipped, where perf_event is
 * refused, except in CI, which must be able to record. */
gboolean window_test_record (const char *spool,
                             const char *frequency,
                             const char *program,
                             ...) G_GNUC_NULL_TERMINATED;

/* The same with --off-cpu (switch records, and blocked stacks where
 * kernel sampling is allowed), at the recorder's own frequency. */
gboolean window_test_record_off_cpu (const char *spool,
                                     const char *program,
                                     ...) G_GNUC_NULL_TERMINATED;

/* Removes a test's folder and the files the test left in it. */
void window_test_remove_dir (const char *dir);

/* The stack with a page named page under window (the views' stack for
 * "call-tree", "flame-graph"…); fails the test when there is none. */
GtkStack *window_test_stack_with_page (GtkWidget *window,
                                       const char *page);

/* Samples under the top-level rows of a call tree model (rows of
 * SpTreeItems). */
guint64 window_test_top_level_total (GListModel *rows);

/* The name of the function the callers view shows, from its list; NULL
 * when none is chosen. */
char *window_test_chosen_name (SpCallersView *view);

/* The Summary page's value for name: the text of the label next to the
 * label name in the window's (only) figures grid; NULL when none is
 * named so. */
char *window_test_figure_text (GtkWidget *window,
                               const char *name);

/* A new window, shown, opening the file at path (sp_window_open_file). */
SpWindow *window_test_open_path (const char *path);

/* Runs the main loop until window shows page ("profile", "error"...);
 * FALSE after timeout_s. */
gboolean window_test_wait_for_page (SpWindow *window,
                                    const char *page,
                                    double timeout_s);

/* The window that is not self (a second one it opened), or NULL. */
SpWindow *window_test_other_window (SpWindow *self);

/* For a recorder the kernel refuses (as root): copies $SP_RECORD into dir
 * (which nobody can reach) and writes dir/record-as-nobody, which runs
 * the copy as nobody (setpriv) unless PKEXEC_UID is set (pkexec or its
 * stand-in raised it: then as the caller). The test's cache folder, where
 * the window records, is opened to all. Returns the wrapper's path, for
 * STACKPULSE_RECORD. */
char *window_test_write_nobody_recorder (const char *dir);

/* A window that has just tried something pkexec would help with (a refused
 * recording, one without blocked stacks); *offered: whether it offers to
 * do it again through pkexec. */
typedef SpWindow *(*WindowTestAttempt) (gpointer data,
                                        gboolean *offered);

/* The window offers pkexec exactly when pkexec is installed: attempt runs
 * with no pkexec on PATH (screenshot saved, no offer), then with this
 * machine's PATH; each window is closed. As root, a stand-in pkexec then
 * goes first on PATH (in DIR/bin) for the caller to take the offer: it
 * does to the program's surroundings what pkexec does (root's folder, a
 * clean environment with PKEXEC_UID, no descriptor past stderr) without
 * asking anyone, and TRUE is returned; window_test_pkexec_offer_end puts
 * PATH back. Not root: FALSE, PATH as it was, nothing more to test. */
gboolean window_test_check_pkexec_offer (const char *dir,
                                         WindowTestAttempt attempt,
                                         gpointer data,
                                         const char *screenshot);
void window_test_pkexec_offer_end (const char *dir);

/* A copy of the program from in dir (reachable by nobody when dir is);
 * returns its path. */
char *window_test_copy_program (const char *from,
                                const char *dir);
