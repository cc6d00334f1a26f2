/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-window-actions.c: what the user does to a recording's views, done
 * with real pointer events (XTEST, pointer-test.h) on a real recording of
 * a recursion (the deep workload): the right-click menu's transforms in
 * each view, the menu's size and the tooltips under it. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test.h"
#include "pointer-test.h"
#include "sp-call-tree-view.h"
#include "sp-tree-item.h"
#include "sp-window.h"
#include "window-test.h"

/* The recursion's depth: main → descend × (DEPTH + 1) → deep_work → deep_leaf. */
#define DEPTH "6"

static char *recording_dir;
static char *recording;

static void
remove_recording (void)
{
  g_autofree char *meta = g_strconcat (recording, ".meta", NULL);

  g_unlink (recording);
  g_unlink (meta);
  g_rmdir (recording_dir);
}

/* The deep workload recorded once for all tests; NULL (the test skipped)
 * where perf_event is refused, except in CI. */
static const char *
get_recording (void)
{
  g_autoptr (GError) error = NULL;
  int status = 0;

  if (recording == NULL)
    {
      recording_dir = g_dir_make_tmp ("stackpulse-actions-XXXXXX", &error);
      g_assert_no_error (error);
      recording = g_build_filename (recording_dir, "deep.spool", NULL);
      {
        const char *argv[] = { g_getenv ("SP_RECORD"), "-F", "1000", "-o", recording, "--",
                               g_getenv ("SP_WORK_DEEP"), "0.5", DEPTH, NULL };

        g_assert_nonnull (argv[0]);
        g_assert_nonnull (argv[6]);
        g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                      NULL, NULL, NULL, NULL, &status, &error);
      }
      g_assert_no_error (error);
      if (!g_spawn_check_wait_status (status, NULL))
        {
          if (g_getenv ("CI") != NULL)
            g_error ("stackpulse-record failed here (status %d): CI must be able to record", status);
          remove_recording ();
          g_clear_pointer (&recording, g_free);
        }
    }
  if (recording == NULL)
    g_test_skip ("stackpulse-record cannot record here (perf_event refused?)");
  return recording;
}

static gboolean
shows_profile (gpointer window)
{
  return g_strcmp0 (sp_window_get_page (window), "profile") == 0;
}

/* The recording in a new window, raised above other tests' windows. */
static SpWindow *
open_recording (const char *path)
{
  SpWindow *window = sp_window_new (NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);

  gtk_window_present (GTK_WINDOW (window));
  sp_window_open_file (window, file);
  g_assert_true (window_test_wait (shows_profile, window, 20));
  if (!pointer_test_available (GTK_WIDGET (window)))
    g_error ("no XTEST on this display: the tests need real pointer events");
  pointer_test_raise (GTK_WINDOW (window));
  return window;
}

/* ---- Rows ---------------------------------------------------------------- */

/* "main;descend;deep_work": the names from the top row down. */
static char *
row_path (GtkTreeListRow *row)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (GtkTreeListRow *at = g_object_ref (row), *parent; at != NULL; at = parent)
    {
      g_autoptr (SpTreeItem) item = gtk_tree_list_row_get_item (at);

      parent = gtk_tree_list_row_get_parent (at);
      g_string_prepend (text, sp_tree_item_get_name (item));
      if (parent != NULL)
        g_string_prepend_c (text, ';');
      g_object_unref (at);
    }
  return g_strdup (text->str);
}

/* The first row shown whose path ends with suffix (";"-separated names),
 * or NULL. */
static GtkTreeListRow *
find_row (SpCallTreeView *view,
          const char *suffix)
{
  GListModel *rows = sp_call_tree_view_get_model (view);
  g_autofree char *tail = g_strconcat (";", suffix, NULL);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autofree char *path = row_path (row);

      if (g_str_equal (path, suffix) || g_str_has_suffix (path, tail))
        return g_steal_pointer (&row);
    }
  return NULL;
}

/* The names of row's children, ";"-separated, in the order shown. */
static char *
child_names (GtkTreeListRow *row)
{
  g_autoptr (GString) names = g_string_new (NULL);

  gtk_tree_list_row_set_expanded (row, TRUE);
  for (guint i = 0;; i++)
    {
      g_autoptr (GtkTreeListRow) child = gtk_tree_list_row_get_child_row (row, i);
      g_autoptr (SpTreeItem) item = NULL;

      if (child == NULL)
        break;
      item = gtk_tree_list_row_get_item (child);
      g_string_append_printf (names, "%s%s", i > 0 ? ";" : "", sp_tree_item_get_name (item));
    }
  return g_strdup (names->str);
}

/* The names of the top-level rows, ";"-separated. */
static char *
top_level_names (SpCallTreeView *view)
{
  GListModel *rows = sp_call_tree_view_get_model (view);
  g_autoptr (GString) names = g_string_new (NULL);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (SpTreeItem) item = gtk_tree_list_row_get_item (row);

      if (gtk_tree_list_row_get_depth (row) == 0)
        g_string_append_printf (names, "%s%s", names->len > 0 ? ";" : "", sp_tree_item_get_name (item));
    }
  return g_strdup (names->str);
}

static GtkWidget *
find_expander (GtkWidget *widget,
               GtkTreeListRow *row)
{
  if (GTK_IS_TREE_EXPANDER (widget) && gtk_tree_expander_get_list_row (GTK_TREE_EXPANDER (widget)) == row)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_expander (child, row);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The label showing row's function name, inside the view's visible area. */
static GtkWidget *
row_label (SpCallTreeView *view,
           GtkTreeListRow *row)
{
  GtkWidget *expander = NULL;
  graphene_rect_t bounds;

  for (gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
       expander == NULL && g_get_monotonic_time () < deadline;)
    {
      window_test_run (0.05);
      expander = find_expander (GTK_WIDGET (view), row);
    }
  g_assert_nonnull (expander);
  g_assert_true (gtk_widget_compute_bounds (expander, GTK_WIDGET (view), &bounds));
  g_assert_cmpfloat (bounds.origin.y, >=, 0);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (GTK_WIDGET (view)));
  return gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
}

static char *
selected_path (SpCallTreeView *view)
{
  GListModel *rows = sp_call_tree_view_get_model (view);

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr (GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr (SpTreeItem) item = gtk_tree_list_row_get_item (row);

      if (sp_tree_item_get_node (item) == sp_call_tree_view_get_selected_node (view))
        return row_path (row);
    }
  return NULL;
}

/* The call tree view on the views' page named page. */
static SpCallTreeView *
view_on_page (SpWindow *window,
              const char *page)
{
  GtkWidget *stack = window_test_find_widget (GTK_WIDGET (window), GTK_TYPE_STACK);

  /* The pages' stack holds the views' stack. */
  while (stack != NULL && gtk_stack_get_child_by_name (GTK_STACK (stack), page) == NULL)
    stack = window_test_find_widget (gtk_stack_get_visible_child (GTK_STACK (stack)), GTK_TYPE_STACK);
  g_assert_nonnull (stack);
  return SP_CALL_TREE_VIEW (window_test_find_widget (gtk_stack_get_child_by_name (GTK_STACK (stack), page),
                                                     SP_TYPE_CALL_TREE_VIEW));
}

/* ---- The menu ------------------------------------------------------------ */

static gboolean
popover_shown (gpointer popover)
{
  return gtk_widget_get_mapped (popover) && gtk_widget_get_height (popover) > 0;
}

static gboolean
popover_hidden (gpointer popover)
{
  return !gtk_widget_get_visible (popover);
}

/* The item's label is inside the menu's visible part: no item is hidden
 * behind a scrollbar. */
static void
assert_item_visible (GtkPopover *menu,
                     GtkWidget *item)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (item, GTK_WIDGET (menu), &bounds));
  g_test_message ("%s: %g to %g of %d", gtk_label_get_text (GTK_LABEL (item)), bounds.origin.y,
                  bounds.origin.y + bounds.size.height, gtk_widget_get_height (GTK_WIDGET (menu)));
  g_assert_cmpfloat (bounds.origin.y, >=, 0);
  g_assert_cmpfloat (bounds.origin.y + bounds.size.height, <=, gtk_widget_get_height (GTK_WIDGET (menu)));
}

/* Every item of the menu (each a label) in its visible part. */
static void
assert_menu_whole (GtkPopover *menu,
                   GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget))
    assert_item_visible (menu, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    assert_menu_whole (menu, child);
}

/* Right-clicks label's middle; returns the menu that opened, checked
 * whole. */
static GtkPopover *
open_menu_on (GtkWidget *view,
              GtkWidget *label)
{
  GtkWidget *popover;

  pointer_test_click_widget (label, GDK_BUTTON_SECONDARY);
  /* The view's, or its scrolled window's. */
  popover = window_test_find_widget (gtk_widget_get_parent (view), GTK_TYPE_POPOVER_MENU);
  g_assert_nonnull (popover);
  g_assert_true (window_test_wait (popover_shown, popover, 5));
  assert_menu_whole (GTK_POPOVER (popover), popover);
  return GTK_POPOVER (popover);
}

static gboolean
popup_shown (gpointer widget)
{
  return pointer_test_count_popups (widget) > 0;
}

/* Clicks the menu's item labelled text, as a user does. */
static void
pick (GtkPopover *menu,
      const char *text)
{
  GtkLabel *item = window_test_find_label (GTK_WIDGET (menu), text);

  g_assert_nonnull (item);
  assert_item_visible (menu, GTK_WIDGET (item));
  pointer_test_click_widget (GTK_WIDGET (item), GDK_BUTTON_PRIMARY);
  g_assert_true (window_test_wait (popover_hidden, menu, 5));
}

/* ---- Tests --------------------------------------------------------------- */

typedef struct {
  SpCallTreeView *view;
  const char     *path;   /* a path suffix */
  const char     *children;   /* what that row's children must be */
} Expect;

static gboolean
children_are (gpointer data)
{
  Expect *expect = data;
  g_autoptr (GtkTreeListRow) row = find_row (expect->view, expect->path);
  g_autofree char *names = row != NULL ? child_names (row) : NULL;

  return g_strcmp0 (names, expect->children) == 0;
}

/* In the call tree, with the row's tooltip shown, a right-click on a
 * recursion's outermost call and
 * Collapse Recursion (the menu's last item): the calls within it fold
 * into it. The right-click selects the row it was on (not the hot path's
 * end, selected when the recording opened). */
static void
test_call_tree_menu (void)
{
  const char *path = get_recording ();
  SpWindow *window;
  SpCallTreeView *view;
  g_autoptr (GtkTreeListRow) outer = NULL;
  g_autoptr (GtkTreeListRow) above = NULL;
  g_autofree char *before = NULL;
  g_autofree char *chosen = NULL;
  GtkPopover *menu;
  GtkWidget *label;
  Expect expect;

  if (path == NULL)
    return;
  window = open_recording (path);
  view = sp_window_get_call_tree_view (window);
  outer = find_row (view, "main;descend");
  g_assert_nonnull (outer);
  before = child_names (outer);
  g_assert_cmpstr (before, ==, "descend");

  /* The pointer rests on the row until its tooltip shows. */
  label = row_label (view, outer);
  pointer_test_move (label, 5, gtk_widget_get_height (label) / 2.0);
  g_assert_true (window_test_wait (popup_shown, window, 5));
  g_assert_cmpuint (pointer_test_count_popups (GTK_WIDGET (window)), ==, 1);

  /* The menu opens: the tooltip goes, and no row's tooltip shows while
   * the menu is open, here or on the row above (where GTK, having just
   * shown a tooltip, would show the next at once). */
  menu = open_menu_on (GTK_WIDGET (view), label);
  window_test_run (1.5);
  g_assert_cmpuint (pointer_test_count_popups (GTK_WIDGET (window)), ==, 1);
  above = find_row (view, "__libc_start_call_main;main");
  g_assert_nonnull (above);
  pointer_test_move (row_label (view, above), 5, 5);
  pointer_test_move (row_label (view, above), 10, 8);
  window_test_run (1.5);
  g_assert_cmpuint (pointer_test_count_popups (GTK_WIDGET (window)), ==, 1);
  chosen = selected_path (view);
  g_assert_true (g_str_has_suffix (chosen, ";main;descend"));
  gui_test_save_png (GTK_WIDGET (menu), "actions-call-tree-menu.png");
  pick (menu, "Collapse Recursion");

  expect = (Expect) { view, "main;descend", "deep_work" };
  g_assert_true (window_test_wait (children_are, &expect, 20));
  gui_test_save_png (GTK_WIDGET (window), "actions-collapsed-recursion.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct {
  SpCallTreeView *view;
  const char     *name;
} Absent;

static gboolean
top_level_lacks (gpointer data)
{
  Absent *absent = data;
  g_autofree char *names = top_level_names (absent->view);
  g_auto (GStrv) split = g_strsplit (names, ";", -1);

  return !g_strv_contains ((const char *const *) split, absent->name);
}

/* In the bottom-up tree, Drop Samples with Function on the hottest leaf:
 * its row goes, the others stay. */
static void
test_bottom_up_menu (void)
{
  const char *path = get_recording ();
  SpWindow *window;
  SpCallTreeView *view;
  g_autoptr (GtkTreeListRow) leaf = NULL;
  GtkPopover *menu;
  Absent absent;

  if (path == NULL)
    return;
  window = open_recording (path);
  sp_window_show_view (window, "bottom-up");
  view = view_on_page (window, "bottom-up");
  for (gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
       leaf == NULL && g_get_monotonic_time () < deadline;)
    {
      window_test_run (0.05);
      leaf = find_row (view, "deep_leaf");
    }
  g_assert_nonnull (leaf);
  g_assert_cmpuint (gtk_tree_list_row_get_depth (leaf), ==, 0);

  menu = open_menu_on (GTK_WIDGET (view), row_label (view, leaf));
  g_assert_cmpstr (selected_path (view), ==, "deep_leaf");
  pick (menu, "Drop Samples with Function");

  absent = (Absent) { view, "deep_leaf" };
  if (!window_test_wait (top_level_lacks, &absent, 20))
    {
      g_autofree char *names = top_level_names (view);

      gui_test_save_png (GTK_WIDGET (window), "actions-bottom-up-failed.png");
      g_error ("the bottom-up tree's top level still has deep_leaf: %s", names);
    }
  gui_test_save_png (GTK_WIDGET (window), "actions-bottom-up-dropped.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc,
      char **argv)
{
  int status;

  if (!gui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/app/window-actions/call-tree-menu", test_call_tree_menu);
  g_test_add_func ("/app/window-actions/bottom-up-menu", test_bottom_up_menu);
  status = g_test_run ();
  if (recording != NULL)
    remove_recording ();
  return status;
}
