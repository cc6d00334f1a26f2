/* SPDX-License-Identifier: GPL-3.0-or-later */
/* window-test.c: walking widget trees and the main loop for the app's
 * tests. */
#include "window-test.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <stdarg.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gui-test.h"
#include "sp-function-item.h"
#include "sp-thread-list.h"
#include "sp-tree-item.h"

gboolean
window_test_wait (gboolean (*cond) (gpointer data),
                  gpointer data,
                  double timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (timeout_s * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < deadline)
    {
      if (cond (data))
        return TRUE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  return cond (data);
}

void
window_test_run (double seconds)
{
  gint64 until = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < until)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

GtkWindow *
window_test_find_toplevel (GType type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type))
        return window;
    }
  return NULL;
}

static const char *
widget_text (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return gtk_label_get_text (GTK_LABEL (widget));
  if (GTK_IS_BUTTON (widget))
    return gtk_button_get_label (GTK_BUTTON (widget));
  if (GTK_IS_CHECK_BUTTON (widget))
    return gtk_check_button_get_label (GTK_CHECK_BUTTON (widget));
  return NULL;
}

typedef struct {
  GType       type;
  const char *text;
} Wanted;

static gboolean
shows_wanted (GtkWidget *widget,
              gconstpointer data)
{
  const Wanted *wanted = data;
  const char *shown = widget_text (widget);

  return G_TYPE_CHECK_INSTANCE_TYPE (widget, wanted->type) && shown != NULL && strstr (shown, wanted->text) != NULL;
}

static GtkWidget *
find_widget (GtkWidget *widget,
             GType type,
             const char *text)
{
  Wanted wanted = { type, text };

  return gui_test_find (widget, shows_wanted, &wanted);
}

GtkLabel *
window_test_find_label (GtkWidget *widget,
                        const char *text)
{
  return GTK_LABEL (find_widget (widget, GTK_TYPE_LABEL, text));
}

GtkButton *
window_test_find_button (GtkWidget *widget,
                         const char *text)
{
  return GTK_BUTTON (find_widget (widget, GTK_TYPE_BUTTON, text));
}

GtkCheckButton *
window_test_find_check_button (GtkWidget *widget,
                               const char *text)
{
  return GTK_CHECK_BUTTON (find_widget (widget, GTK_TYPE_CHECK_BUTTON, text));
}

static gboolean
is_of_type (GtkWidget *widget,
            gconstpointer type)
{
  return G_TYPE_CHECK_INSTANCE_TYPE (widget, GPOINTER_TO_SIZE (type));
}

GtkWidget *
window_test_find_widget (GtkWidget *widget,
                         GType type)
{
  return gui_test_find (widget, is_of_type, GSIZE_TO_POINTER (type));
}

/* The Threads page's table, or NULL before the window has one. */
static GtkColumnView *
thread_table (GtkWidget *widget)
{
  GtkWidget *list = window_test_find_widget (widget, SP_TYPE_THREAD_LIST);

  return list != NULL ? GTK_COLUMN_VIEW (window_test_find_widget (list, GTK_TYPE_COLUMN_VIEW)) : NULL;
}

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

/* The page of the thread list's stack that holds it shown (the list makes
 * its rows only when shown, as a user sees them), until threads_page_back
 * with what this returns: the page shown before. */
static GtkWidget *
threads_page_show_now (GtkWidget *widget)
{
  GtkWidget *list = window_test_find_widget (widget, SP_TYPE_THREAD_LIST);
  GtkWidget *page = list;
  GtkStack *stack;
  GtkWidget *before;

  while (page != NULL && !GTK_IS_STACK (gtk_widget_get_parent (page)))
    page = gtk_widget_get_parent (page);
  if (page == NULL)
    return NULL;
  stack = GTK_STACK (gtk_widget_get_parent (page));
  before = gtk_stack_get_visible_child (stack);
  gtk_stack_set_visible_child (stack, page);
  return before;
}

static GtkWidget *
threads_page_show (GtkWidget *widget)
{
  GtkWidget *before = threads_page_show_now (widget);

  if (before != NULL)
    g_assert_true (window_test_wait (is_mapped, window_test_find_widget (widget, SP_TYPE_THREAD_LIST), 10));
  return before;
}

static void
threads_page_back (GtkWidget *before)
{
  if (before != NULL)
    gtk_stack_set_visible_child (GTK_STACK (gtk_widget_get_parent (before)), before);
}

GPtrArray *
window_test_thread_column (GtkWidget *widget,
                           const char *title,
                           GPtrArray *names)
{
  GtkColumnView *table = thread_table (widget);
  GPtrArray *values = g_ptr_array_new ();
  g_autoptr (GPtrArray) rows = NULL;
  guint name_column, column;
  GtkWidget *before;

  if (table == NULL)
    return values;
  before = threads_page_show (widget);
  window_test_run (0.1);
  rows = gui_test_table_rows (table);
  name_column = gui_test_column_index (table, "Name");
  column = gui_test_column_index (table, title);
  for (guint i = 0; i < rows->len; i++)
    {
      g_ptr_array_add (values, (gpointer) gui_test_cell_text (gui_test_row_cell (rows->pdata[i], column)));
      if (names != NULL)
        g_ptr_array_add (names, (gpointer) gui_test_cell_text (gui_test_row_cell (rows->pdata[i], name_column)));
    }
  threads_page_back (before);
  return values;
}

GtkCheckButton *
window_test_find_thread_check (GtkWidget *widget,
                               const char *name)
{
  GtkColumnView *table = thread_table (widget);
  g_autoptr (GPtrArray) rows = NULL;
  guint name_column;

  if (table == NULL)
    return NULL;
  /* Looked for on the Threads page, which stays shown: hidden, the list
   * makes no rows (a wait polling this finds them a frame later). */
  if (!gtk_widget_get_mapped (GTK_WIDGET (table)))
    {
      threads_page_show_now (widget);
      return NULL;
    }
  rows = gui_test_table_rows (table);
  name_column = gui_test_column_index (table, "Name");
  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (gui_test_cell_text (gui_test_row_cell (rows->pdata[i], name_column)), name) == 0)
      return GTK_CHECK_BUTTON (gui_test_row_cell (rows->pdata[i], gui_test_column_index (table, "Shown")));
  return NULL;
}

int
window_test_process_thread_shown (GtkWidget *widget,
                                  const char *name,
                                  int pid)
{
  GtkColumnView *table = thread_table (widget);
  GListModel *items = table != NULL ? G_LIST_MODEL (gtk_column_view_get_model (table)) : NULL;
  GtkWidget *before = table != NULL ? threads_page_show (widget) : NULL;
  int shown_or_absent = -1;

  /* The table's items, not its row widgets: it makes widgets only for the
   * rows it has room for, and a whole system has many threads. */
  for (guint i = 0; items != NULL && i < g_list_model_get_n_items (items); i++)
    {
      g_autoptr (GObject) item = g_list_model_get_item (items, i);
      g_autofree char *item_name = NULL;
      int item_pid = 0;
      gboolean shown = FALSE;

      g_object_get (item, "name", &item_name, "pid", &item_pid, "shown", &shown, NULL);
      if (item_pid == pid && g_strcmp0 (item_name, name) == 0)
        {
          shown_or_absent = shown ? 1 : 0;
          break;
        }
    }
  threads_page_back (before);
  return shown_or_absent;
}

gboolean
window_test_is_shown (GtkWidget *widget)
{
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    if (!gtk_widget_get_visible (widget))
      return FALSE;
  return TRUE;
}

static gboolean
file_exists (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* Returns once the workload's threads have their names (its --ready
 * file), so that whoever looks at /proc sees them. */
GPid
window_test_start_workload (double seconds)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-workload-XXXXXX", &error);
  g_autofree char *ready = g_build_filename (dir, "ready", NULL);
  g_autofree char *duration = g_strdup_printf ("%g", seconds);
  const char *argv[] = { g_getenv ("SP_WORK_THREADS"), "--ready", ready, duration, NULL };
  GPid pid = 0;

  g_assert_no_error (error);
  g_assert_nonnull (argv[0]);
  g_spawn_async (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL,
                 NULL, NULL, &pid, &error);
  g_assert_no_error (error);
  g_assert_true (window_test_wait (file_exists, ready, 10));
  g_unlink (ready);
  g_rmdir (dir);
  return pid;
}

void
window_test_stop_workload (GPid pid)
{
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
}

/* The recorder's argv up to "--", then program and its arguments. */
static gboolean
record (GPtrArray *argv,
        const char *spool,
        const char *program,
        va_list arguments)
{
  g_autoptr (GError) error = NULL;
  const char *argument;
  int status = 0;

  g_assert_nonnull (program);
  g_ptr_array_add (argv, (char *) "-o");
  g_ptr_array_add (argv, (char *) spool);
  g_ptr_array_add (argv, (char *) "--");
  g_ptr_array_add (argv, (char *) program);
  while ((argument = va_arg (arguments, const char *)) != NULL)
    g_ptr_array_add (argv, (char *) argument);
  g_ptr_array_add (argv, NULL);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                NULL, NULL, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  if (g_spawn_check_wait_status (status, NULL))
    return TRUE;
  if (g_getenv ("CI") != NULL)
    g_error ("stackpulse-record failed here (status %d): CI must be able to record", status);
  g_test_skip ("stackpulse-record cannot record here (perf_event refused?)");
  return FALSE;
}

gboolean
window_test_record (const char *spool,
                    const char *frequency,
                    const char *program,
                    ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  gboolean recorded;
  va_list arguments;

  g_assert_nonnull (g_getenv ("SP_RECORD"));
  g_ptr_array_add (argv, (char *) g_getenv ("SP_RECORD"));
  if (frequency != NULL)
    {
      g_ptr_array_add (argv, (char *) "-F");
      g_ptr_array_add (argv, (char *) frequency);
    }
  va_start (arguments, program);
  recorded = record (argv, spool, program, arguments);
  va_end (arguments);
  return recorded;
}

gboolean
window_test_record_off_cpu (const char *spool,
                            const char *program,
                            ...)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  gboolean recorded;
  va_list arguments;

  g_assert_nonnull (g_getenv ("SP_RECORD"));
  g_ptr_array_add (argv, (char *) g_getenv ("SP_RECORD"));
  g_ptr_array_add (argv, (char *) "--off-cpu");
  va_start (arguments, program);
  recorded = record (argv, spool, program, arguments);
  va_end (arguments);
  return recorded;
}

void
window_test_remove_dir (const char *dir)
{
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (dir);
}

guint64
window_test_top_level_total (GListModel *rows)
{
  guint64 total = 0;

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (SpTreeItem) item = gtk_tree_list_row_get_item (row);

      if (gtk_tree_list_row_get_depth (row) == 0)
        total += sp_function_item_get_total (SP_FUNCTION_ITEM (item));
    }
  return total;
}

char *
window_test_chosen_name (SpCallersView *view)
{
  GListModel *rows = sp_callers_view_get_functions (view);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (SpFunctionItem) item = g_list_model_get_item (rows, i);

      if (sp_function_item_get_function (item) == sp_callers_view_get_function (view))
        return g_strdup (sp_function_item_get_name (item));
    }
  return NULL;
}

char *
window_test_figure_text (GtkWidget *window,
                         const char *name)
{
  GtkWidget *grid = window_test_find_widget (window, GTK_TYPE_GRID);

  g_assert_nonnull (grid);
  for (int row = 0; gtk_grid_get_child_at (GTK_GRID (grid), 0, row) != NULL; row++)
    {
      GtkWidget *label = gtk_grid_get_child_at (GTK_GRID (grid), 0, row);

      if (g_str_equal (gtk_label_get_text (GTK_LABEL (label)), name))
        return g_strdup (gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (GTK_GRID (grid), 1, row))));
    }
  return NULL;
}

SpWindow *
window_test_other_window (SpWindow *self)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) window = g_list_model_get_item (toplevels, i);

      if (SP_IS_WINDOW (window) && window != G_OBJECT (self))
        return SP_WINDOW (window);
    }
  return NULL;
}

static char *
write_script (const char *dir,
              const char *name,
              const char *text)
{
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, 0755), ==, 0);
  return path;
}

char *
window_test_copy_program (const char *from,
                          const char *dir)
{
  g_autofree char *name = g_path_get_basename (from);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  char *to = g_build_filename (dir, name, NULL);
  gsize length;

  g_file_get_contents (from, &contents, &length, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, contents, (gssize) length, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (to, 0755), ==, 0);
  return to;
}

/* nobody must reach the recorder and write where the window records:
 * the test's cache folder is opened to all. */
static void
open_recordings_folder (void)
{
  g_autofree char *recordings = g_build_filename (g_get_user_cache_dir (), "stackpulse", "recordings", NULL);
  g_autofree char *stackpulse = g_path_get_dirname (recordings);
  g_autofree char *top = g_path_get_dirname (g_get_user_cache_dir ());

  g_assert_cmpint (g_mkdir_with_parents (recordings, 0777), ==, 0);
  g_assert_cmpint (g_chmod (top, 0755), ==, 0);
  g_assert_cmpint (g_chmod (g_get_user_cache_dir (), 0755), ==, 0);
  g_assert_cmpint (g_chmod (stackpulse, 0755), ==, 0);
  g_assert_cmpint (g_chmod (recordings, 0777), ==, 0);
}

#define NOBODY "65534"

char *
window_test_write_nobody_recorder (const char *dir)
{
  g_autofree char *setpriv = g_find_program_in_path ("setpriv");
  g_autofree char *recorder = NULL;
  g_autofree char *text = NULL;

  g_assert_nonnull (setpriv);
  recorder = window_test_copy_program (g_getenv ("SP_RECORD"), dir);
  text = g_strdup_printf ("#!/bin/sh\n"
                          "if [ -n \"$PKEXEC_UID\" ]; then exec '%s' \"$@\"; fi\n"
                          "exec '%s' --reuid=" NOBODY " --regid=" NOBODY " --clear-groups '%s' \"$@\"\n",
                          recorder, setpriv, recorder);
  open_recordings_folder ();
  return write_script (dir, "record-as-nobody", text);
}

/* pkexec that asks nobody (window_test_check_pkexec_offer). */
static char *
write_pkexec_stand_in (const char *dir)
{
  return write_script (dir, "pkexec",
                       "#!/bin/sh\n"
                       "# Stands in for pkexec: what it does to the program's surroundings,\n"
                       "# without asking anyone.\n"
                       "cd / || exit 127\n"
                       "exec /usr/bin/env -i PKEXEC_UID=\"$(/usr/bin/id -u)\" PATH=/usr/sbin:/usr/bin:/sbin:/bin \"$@\" "
                       "3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-\n");
}

static char *saved_path;

gboolean
window_test_check_pkexec_offer (const char *dir,
                                WindowTestAttempt attempt,
                                gpointer data,
                                const char *screenshot)
{
  g_autofree char *pkexec = g_find_program_in_path ("pkexec");
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);
  g_autofree char *path = NULL;
  gboolean offered;
  SpWindow *window;

  g_free (saved_path);
  saved_path = g_strdup (g_getenv ("PATH"));
  g_assert_cmpint (g_mkdir (bin, 0755), ==, 0);
  g_setenv ("PATH", bin, TRUE);
  window = attempt (data, &offered);
  g_setenv ("PATH", saved_path, TRUE);
  g_assert_false (offered);
  gui_test_save_png (GTK_WIDGET (window), screenshot);
  gtk_window_destroy (GTK_WINDOW (window));
  window = attempt (data, &offered);
  g_assert_cmpint (offered, ==, pkexec != NULL);
  gtk_window_destroy (GTK_WINDOW (window));
  if (getuid () != 0)
    {
      window_test_remove_dir (bin);
      return FALSE;
    }
  g_free (write_pkexec_stand_in (bin));
  path = g_strconcat (bin, ":", saved_path, NULL);
  g_setenv ("PATH", path, TRUE);
  return TRUE;
}

void
window_test_pkexec_offer_end (const char *dir)
{
  g_autofree char *bin = g_build_filename (dir, "bin", NULL);

  g_setenv ("PATH", saved_path, TRUE);
  window_test_remove_dir (bin);
}

typedef struct {
  SpWindow   *window;
  const char *page;
} Page;

static gboolean
shows_page (gpointer data)
{
  const Page *wanted = data;

  return g_strcmp0 (sp_window_get_page (wanted->window), wanted->page) == 0;
}

SpWindow *
window_test_open_path (const char *path)
{
  SpWindow *window = sp_window_new (NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, file);
  return window;
}

gboolean
window_test_wait_for_page (SpWindow *window,
                           const char *page,
                           double timeout_s)
{
  Page wanted = { window, page };

  return window_test_wait (shows_page, &wanted, timeout_s);
}

static gboolean
is_stack_with_page (GtkWidget *widget,
                    gconstpointer page)
{
  return GTK_IS_STACK (widget) && gtk_stack_get_child_by_name (GTK_STACK (widget), page) != NULL;
}

GtkStack *
window_test_stack_with_page (GtkWidget *window,
                             const char *page)
{
  GtkWidget *stack = gui_test_find (window, is_stack_with_page, page);

  g_assert_nonnull (stack);
  return GTK_STACK (stack);
}

typedef struct {
  GtkNative  *window;
  const char *needle;
} PopupLabel;

static gboolean
is_popup_label_with (GtkWidget *widget,
                     gconstpointer data)
{
  const PopupLabel *wanted = data;

  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) && gtk_widget_get_native (widget) != wanted->window
         && strstr (gtk_label_get_text (GTK_LABEL (widget)), wanted->needle) != NULL;
}

GtkLabel *
window_test_find_popup_label (GtkWidget *window,
                              const char *needle)
{
  PopupLabel wanted = { GTK_NATIVE (window), needle };

  return GTK_LABEL (gui_test_find (window, is_popup_label_with, &wanted));
}
