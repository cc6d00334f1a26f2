/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-window-source.c: the Source page on real recordings, driven with
 * real pointer events (XTEST, pointer-test.h): "Show Source" in the call
 * tree's menu shows sp-work-annotate's hot_loop scrolled to its hot line
 * (the line marked HOT), selected and coloured, with its instructions
 * selected; a click on a line selects its instructions and a click on an
 * instruction its line; a double-click in the call tree shows a function,
 * a double-click on its call shows the callee, and Back goes back. A
 * program whose source was removed says where it was looked for. Saves
 * screenshots (SP_SCREENSHOT_DIR, or a temporary folder). */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <string.h>
#include <sys/wait.h>

#include "gui-test.h"
#include "pointer-test.h"
#include "sp-window-testing.h"
#include "view-test.h"
#include "window-test.h"

static char *recording_dir;
static char *annotate_recording;   /* sp-work-annotate's, once for the tests that share it */

static void
remove_recording_dir (void)
{
  g_clear_pointer (&annotate_recording, g_free);
  if (recording_dir != NULL)
    window_test_remove_dir (recording_dir);
  g_clear_pointer (&recording_dir, g_free);
}

/* program recorded for 1 s into name in the tests' folder; NULL (the test
 * skipped) where perf_event is refused, except in CI. */
static char *
record (const char *name,
        const char *program)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *path = NULL;

  if (recording_dir == NULL)
    recording_dir = g_dir_make_tmp ("stackpulse-source-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (recording_dir, name, NULL);
  if (!window_test_record (path, "2000", program, "1", NULL))
    return NULL;
  return g_steal_pointer (&path);
}

/* sp-work-annotate recorded (once), or NULL: see record. */
static const char *
get_annotate_recording (void)
{
  if (annotate_recording == NULL)
    annotate_recording = record ("annotate.spool", g_getenv ("SP_WORK_ANNOTATE"));
  return annotate_recording;
}

/* ---- The Source page ------------------------------------------------------ */

typedef struct {
  SpWindow   *window;
  const char *name;
} Shown;

/* The Source page is shown, with name's annotation. */
static gboolean
source_shows (gpointer data)
{
  Shown *shown = data;
  SpSourceAnnotation *source = sp_source_view_get_source (sp_window_get_source_view (shown->window));
  GtkStack *views = window_test_stack_with_page (GTK_WIDGET (shown->window), "source");

  return source != NULL && g_str_equal (source->name, shown->name)
         && g_strcmp0 (gtk_stack_get_visible_child_name (views), "source") == 0;
}

static void
wait_for_source (SpWindow *window,
                 const char *name)
{
  Shown shown = { window, name };

  g_assert_true (window_test_wait (source_shows, &shown, 20));
  window_test_run (0.3);
}

/* The number of the first line of the source shown that holds marker. */
static guint
marked_line (SpSourceAnnotation *source,
             const char *marker)
{
  g_assert_nonnull (source->text);
  for (guint i = 0; source->text[i] != NULL; i++)
    if (strstr (source->text[i], marker) != NULL)
      return i + 1;
  g_error ("no line holds %s", marker);
}

/* The row widget of table whose column titled title shows text, laid out
 * and inside the table's visible part; NULL when there is none. */
static GtkWidget *
row_showing (GtkColumnView *table,
             const char *title,
             const char *text)
{
  g_autoptr (GPtrArray) rows = gui_test_table_rows (table);
  guint column = gui_test_column_index (table, title);
  GtkWidget *list = window_test_find_widget (GTK_WIDGET (table), GTK_TYPE_LIST_VIEW);

  for (guint i = 0; i < rows->len; i++)
    {
      graphene_rect_t bounds;

      if (g_strcmp0 (gui_test_cell_text (gui_test_row_cell (rows->pdata[i], column)), text) != 0)
        continue;
      if (!gtk_widget_compute_bounds (rows->pdata[i], list, &bounds))
        continue;
      if (bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= gtk_widget_get_height (list))
        return rows->pdata[i];
    }
  return NULL;
}

static GtkWidget *
line_row (SpSourceView *view,
          guint line)
{
  g_autofree char *text = g_strdup_printf ("%u", line);

  return row_showing (sp_source_view_get_lines (view), "Line", text);
}

/* The alpha of a pixel of the Self cell of row, near its corner, away
 * from its text: 0 where the cell has no heat colour. */
static guint
self_heat (GtkColumnView *table,
           GtkWidget *row)
{
  return gui_test_alpha_at (gui_test_row_cell (row, gui_test_column_index (table, "Self")), 1, 1);
}

/* The instructions selected: each one's line, ";"-separated ("" none). */
static char *
selected_lines_of_instructions (SpSourceView *view)
{
  GtkSelectionModel *model = gtk_column_view_get_model (sp_source_view_get_instructions (view));
  g_autoptr (GtkBitset) selected = gtk_selection_model_get_selection (model);
  SpSourceAnnotation *source = sp_source_view_get_source (view);
  GString *text = g_string_new (NULL);
  GtkBitsetIter iter;
  guint at;

  for (gboolean more = gtk_bitset_iter_init_first (&iter, selected, &at); more;
       more = gtk_bitset_iter_next (&iter, &at))
    g_string_append_printf (text, "%s%u", text->len > 0 ? ";" : "",
                            g_array_index (source->instructions, SpSourceInstruction, at).line);
  return g_string_free (text, FALSE);
}

/* "5;5;5" for n instructions of line 5. */
static void
assert_all_of_line (const char *lines,
                    guint line)
{
  g_auto (GStrv) each = g_strsplit (lines, ";", -1);

  g_test_message ("instructions selected, by line: %s", lines);
  g_assert_cmpuint (g_strv_length (each), >, 0);
  for (guint i = 0; each[i] != NULL; i++)
    g_assert_cmpuint ((guint) g_ascii_strtoull (each[i], NULL, 10), ==, line);
}

/* The position of the instruction that calls callee; fails the test when
 * none does. */
static guint
call_of (SpSourceAnnotation *source,
         const char *callee)
{
  for (guint i = 0; i < source->instructions->len; i++)
    if (g_strcmp0 (g_array_index (source->instructions, SpSourceInstruction, i).callee_name, callee) == 0)
      return i;
  g_error ("no instruction calls %s", callee);
}

/* Whether the instruction at position is the one selected, alone. */
static gboolean
only_selected (SpSourceView *view,
               guint position)
{
  GtkSelectionModel *model = gtk_column_view_get_model (sp_source_view_get_instructions (view));
  g_autoptr (GtkBitset) selected = gtk_selection_model_get_selection (model);

  return gtk_bitset_get_size (selected) == 1 && gtk_bitset_contains (selected, position);
}

/* The instruction at position scrolled into view: its row widget. */
static GtkWidget *
instruction_row (SpSourceView *view,
                 guint position)
{
  GtkColumnView *table = sp_source_view_get_instructions (view);
  SpSourceAnnotation *source = sp_source_view_get_source (view);
  g_autofree char *address = g_strdup_printf (
    "%" G_GINT64_MODIFIER "x", g_array_index (source->instructions, SpSourceInstruction, position).vaddr);
  GtkWidget *list = window_test_find_widget (GTK_WIDGET (table), GTK_TYPE_LIST_VIEW);
  GtkWidget *row = NULL;

  gtk_widget_activate_action (list, "list.scroll-to-item", "u", position);
  for (gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
       row == NULL && g_get_monotonic_time () < deadline;)
    {
      window_test_run (0.05);
      row = row_showing (table, "Address", address);
    }
  g_assert_nonnull (row);
  return row;
}

/* The Instruction cell of the instruction at position, in view. */
static GtkWidget *
instruction_cell (SpSourceView *view,
                  guint position)
{
  GtkWidget *row = instruction_row (view, position);

  return gui_test_row_cell (row, gui_test_column_index (sp_source_view_get_instructions (view), "Instruction"));
}

/* Clicks the start of a text cell: a line's cell is as wide as the
 * longest line, its middle may be out of the pane. */
static void
click_text (GtkWidget *cell)
{
  pointer_test_click (cell, 8, gtk_widget_get_height (cell) / 2.0, GDK_BUTTON_PRIMARY);
}

static void
double_click (GtkWidget *cell)
{
  pointer_test_double_click (cell, 8, gtk_widget_get_height (cell) / 2.0);
}

typedef struct {
  SpCallTreeView *tree;
  const char     *suffix;
} RowWanted;

static gboolean
row_shown (gpointer data)
{
  RowWanted *wanted = data;
  g_autoptr (GtkTreeListRow) row = view_test_find_row (wanted->tree, wanted->suffix);

  return row != NULL;
}

/* The recording at path in a window, and the label of the call tree's row
 * whose path ends with suffix, in view (a followed recording's may take a
 * live update to come). */
static GtkWidget *
open_at_row (const char *path,
             const char *suffix,
             SpWindow **window,
             SpSourceView **view)
{
  RowWanted wanted;
  g_autoptr (GtkTreeListRow) row = NULL;

  *window = view_test_open_recording (path);
  *view = sp_window_get_source_view (*window);
  wanted = (RowWanted) { sp_window_get_call_tree_view (*window), suffix };
  g_assert_true (window_test_wait (row_shown, &wanted, 20));
  row = view_test_find_row (wanted.tree, suffix);
  return view_test_row_label (wanted.tree, row);
}

/* ---- Tests ---------------------------------------------------------------- */

/* "Show Source" on hot_loop in the call tree: the hot line, selected and
 * in view, coloured, its instructions selected; the line of the inlined
 * call and an instruction selected by clicks. */
static void
test_show_source (void)
{
  const char *path = get_annotate_recording ();
  SpWindow *window;
  SpSourceView *view;
  SpSourceAnnotation *source;
  g_autofree char *hot_instructions = NULL, *call_instructions = NULL;
  GtkWidget *label, *hot_row, *call_row;
  guint hot, call, hot_instruction = G_MAXUINT;

  if (path == NULL)
    return;
  label = open_at_row (path, "annotate_work;hot_loop", &window, &view);
  view_test_pick (view_test_open_menu_on (GTK_WIDGET (sp_window_get_call_tree_view (window)), label), "Show Source");
  wait_for_source (window, "hot_loop");
  /* The first press after a menu closed on an item is lost under Xvfb
   * (view_test_pick): the one it took went to the call tree, hidden
   * since; a right-click on the lines' header takes this one. */
  pointer_test_click (GTK_WIDGET (sp_source_view_get_lines (view)), 1, 1, GDK_BUTTON_SECONDARY);
  source = sp_source_view_get_source (view);
  hot = marked_line (source, "/* HOT */");
  call = marked_line (source, "/* CALL */");
  g_test_message ("%s: hottest line %u, HOT at %u; %u instructions%s%s", source->path,
                  sp_source_annotation_get_hottest_line (source), hot, source->instructions->len,
                  source->disassembly_problem != NULL ? ": " : "",
                  source->disassembly_problem != NULL ? source->disassembly_problem : "");
  g_assert_null (source->disassembly_problem);
  g_assert_cmpuint (sp_source_annotation_get_hottest_line (source), ==, hot);
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==, hot);
  hot_row = line_row (view, hot);
  g_assert_nonnull (hot_row);
  g_assert_cmpuint (self_heat (sp_source_view_get_lines (view), hot_row), >, 0);
  hot_instructions = selected_lines_of_instructions (view);
  assert_all_of_line (hot_instructions, hot);
  gui_test_save_png (GTK_WIDGET (window), "window-source.png");

  /* A click on the line of the inlined call: its instructions. */
  call_row = line_row (view, call);
  g_assert_nonnull (call_row);
  click_text (gui_test_row_cell (call_row, gui_test_column_index (sp_source_view_get_lines (view), "Source")));
  window_test_run (0.3);
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==, call);
  call_instructions = selected_lines_of_instructions (view);
  assert_all_of_line (call_instructions, call);
  gui_test_save_png (GTK_WIDGET (window), "window-source-call-line.png");

  /* A click on an instruction of the hot line: that line. */
  for (guint i = 0; i < source->instructions->len && hot_instruction == G_MAXUINT; i++)
    if (g_array_index (source->instructions, SpSourceInstruction, i).line == hot)
      hot_instruction = i;
  g_assert_cmpuint (hot_instruction, !=, G_MAXUINT);
  click_text (instruction_cell (view, hot_instruction));
  window_test_run (0.3);
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==, hot);
  g_assert_nonnull (line_row (view, hot));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A double-click on annotate_work in the call tree shows it; a
 * double-click on its call of hot_loop shows hot_loop; Back goes back. */
static void
test_call_and_back (void)
{
  const char *path = get_annotate_recording ();
  SpWindow *window;
  SpSourceView *view;
  SpSourceAnnotation *source;
  GtkButton *back;
  guint call;

  if (path == NULL)
    return;
  double_click (open_at_row (path, "main;annotate_work", &window, &view));
  wait_for_source (window, "annotate_work");
  source = sp_source_view_get_source (view);
  call = call_of (source, "hot_loop");
  g_assert_cmpuint (g_array_index (source->instructions, SpSourceInstruction, call).callee, !=,
                    SP_SOURCE_NO_CALLEE);
  double_click (instruction_cell (view, call));
  wait_for_source (window, "hot_loop");
  gui_test_save_png (GTK_WIDGET (window), "window-source-callee.png");

  back = GTK_BUTTON (window_test_find_widget (GTK_WIDGET (view), GTK_TYPE_BUTTON));
  g_assert_cmpstr (gtk_button_get_icon_name (back), ==, "go-previous-symbolic");
  pointer_test_click_widget (GTK_WIDGET (back), GDK_BUTTON_PRIMARY);
  wait_for_source (window, "annotate_work");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* mix, inlined into hot_loop, from its row under hot_loop in the call
 * tree: its own line (MIX), in the one place it is inlined into (no
 * places to choose from). */
static void
test_inlined (void)
{
  const char *path = get_annotate_recording ();
  SpWindow *window;
  SpSourceView *view;
  SpSourceAnnotation *source;
  GtkWidget *places;

  if (path == NULL)
    return;
  click_text (open_at_row (path, "hot_loop;mix", &window, &view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-source", NULL));
  wait_for_source (window, "mix");
  source = sp_source_view_get_source (view);
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==, marked_line (source, "/* MIX */"));
  g_assert_nonnull (line_row (view, marked_line (source, "/* MIX */")));
  places = window_test_find_widget (GTK_WIDGET (view), GTK_TYPE_DROP_DOWN);
  g_assert_nonnull (places);
  g_assert_false (gtk_widget_get_visible (places));
  gui_test_save_png (GTK_WIDGET (window), "window-source-inlined.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct {
  SpSourceView *view;
  guint64       more_than;
} Growth;

/* The Source page shows a later annotation: more cost than before. */
static gboolean
source_grew (gpointer data)
{
  Growth *growth = data;
  SpSourceAnnotation *source = sp_source_view_get_source (growth->view);

  return source != NULL && source->total > growth->more_than;
}

static gboolean
file_exists (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

/* A recording another recorder is still writing: hot_loop's source takes
 * the new samples as they come, and the line the user selected stays
 * selected. */
static void
test_live (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-source-live-XXXXXX", &error);
  g_autofree char *spool = g_build_filename (dir, "live.spool", NULL);
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);
  /* 8 s: still running after the window opened and showed the source
   * twice, with a sanitizer build on a slow machine too. */
  const char *argv[] = { g_getenv ("SP_RECORD"), "-F", "1000", "-o", spool, "--", g_getenv ("SP_WORK_ANNOTATE"),
                         "8", NULL };
  SpWindow *window;
  SpSourceView *view;
  Growth growth;
  GPid recorder;
  guint call;
  int status;

  g_assert_no_error (error);
  g_assert_true (g_spawn_async (NULL, (char **) argv, NULL,
                                G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                NULL, NULL, &recorder, &error));
  /* The side file comes with the first samples; none where perf_event is
   * refused (the other tests skipped then). */
  if (!window_test_wait (file_exists, meta, 10) && g_getenv ("CI") == NULL)
    {
      waitpid (recorder, &status, 0);
      g_test_skip ("the recorder wrote nothing: perf_event refused?");
      window_test_remove_dir (dir);
      return;
    }
  click_text (open_at_row (spool, "annotate_work;hot_loop", &window, &view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-source", NULL));
  wait_for_source (window, "hot_loop");
  call = marked_line (sp_source_view_get_source (view), "/* CALL */");
  sp_source_view_select_line (view, call);
  growth = (Growth) { view, sp_source_view_get_source (view)->total };
  g_assert_true (window_test_wait (source_grew, &growth, 20));
  growth.more_than = sp_source_view_get_source (view)->total;
  g_assert_true (window_test_wait (source_grew, &growth, 20));
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==, call);
  gui_test_save_png (GTK_WIDGET (window), "window-source-live.png");
  g_assert_cmpint (waitpid (recorder, &status, 0), ==, recorder);
  gtk_window_destroy (GTK_WINDOW (window));
  window_test_remove_dir (dir);
}

/* With the keyboard only: Enter on annotate_work in the call tree shows
 * it; Down and Up move along its lines, the instructions following; F6
 * to the instructions, Enter on its call of hot_loop shows hot_loop, and
 * Alt+Left goes back. */
static void
test_keyboard (void)
{
  const char *path = get_annotate_recording ();
  SpWindow *window;
  SpSourceView *view;
  SpSourceAnnotation *source;
  g_autofree char *below = NULL;
  guint hottest, call;

  if (path == NULL)
    return;
  click_text (open_at_row (path, "main;annotate_work", &window, &view));
  pointer_test_key (GTK_WIDGET (window), GDK_KEY_Return, 0);
  wait_for_source (window, "annotate_work");
  source = sp_source_view_get_source (view);
  hottest = sp_source_view_get_selected_line (view);
  g_assert_cmpuint (hottest, ==, sp_source_annotation_get_hottest_line (source));
  pointer_test_key (GTK_WIDGET (window), GDK_KEY_Down, 0);
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==, hottest + 1);
  below = selected_lines_of_instructions (view);
  g_test_message ("line %u: instructions of lines %s", hottest + 1, below);
  pointer_test_key (GTK_WIDGET (window), GDK_KEY_Up, 0);
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==, hottest);

  /* F6: the first instruction of the line; Down to the call. */
  pointer_test_key (GTK_WIDGET (window), GDK_KEY_F6, 0);
  call = call_of (source, "hot_loop");
  for (guint i = 0; i < source->instructions->len && !only_selected (view, call); i++)
    pointer_test_key (GTK_WIDGET (window), GDK_KEY_Down, 0);
  g_assert_true (only_selected (view, call));
  pointer_test_key (GTK_WIDGET (window), GDK_KEY_Return, 0);
  wait_for_source (window, "hot_loop");
  pointer_test_key (GTK_WIDGET (window), GDK_KEY_Left, GDK_ALT_MASK);
  wait_for_source (window, "annotate_work");
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
source_text_shown (gpointer view)
{
  SpSourceAnnotation *source = sp_source_view_get_source (view);

  return source != NULL && source->text != NULL;
}

/* A program built here, recorded, its source then removed: the page says
 * where it looked, and offers to choose the folder; the folder chosen,
 * the source shows, and the folder is remembered. */
static void
test_missing_source (void)
{
  static const char program[] =
    "#include <stdlib.h>\n#include <time.h>\n"
    "__attribute__ ((noinline)) static double spin_here (double x) { for (int i = 0; i < 1000; i++) x = x * 1.0000001 + 1e-9; return x; }\n"
    "int main (int argc, char **argv) { double until = atof (argv[1]), x = 1; struct timespec t0, t;\n"
    "  clock_gettime (CLOCK_MONOTONIC, &t0);\n"
    "  do { x = spin_here (x); clock_gettime (CLOCK_MONOTONIC, &t); } while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < until);\n"
    "  return x < 0; }\n";
  g_autofree char *cc = g_find_program_in_path ("cc");
  g_autofree char *source_path = NULL, *binary = NULL, *path = NULL, *copy_dir = NULL;
  g_autoptr (GError) error = NULL;
  SpWindow *window;
  SpSourceView *view;
  GtkLabel *message;
  GtkButton *choose;
  int status;
  g_autofree char *moved_dir = NULL, *moved = NULL, *folder = NULL;
  g_autofree char *ini = g_build_filename (g_get_user_config_dir (), "stackpulse", "source-dirs.ini", NULL);
  g_autoptr (GKeyFile) remembered = g_key_file_new ();

  if (cc == NULL)
    {
      g_test_skip ("no C compiler (cc) to build a program whose source goes away");
      return;
    }
  copy_dir = g_dir_make_tmp ("stackpulse-gone-XXXXXX", &error);
  g_assert_no_error (error);
  source_path = g_build_filename (copy_dir, "gone.c", NULL);
  binary = g_build_filename (copy_dir, "gone", NULL);
  g_assert_true (g_file_set_contents (source_path, program, -1, NULL));
  {
    const char *argv[] = { cc, "-O1", "-g", "-fno-omit-frame-pointer", "-o", binary, source_path, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status,
                                 &error));
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  path = record ("gone.spool", binary);
  g_unlink (source_path);
  if (path == NULL)
    {
      window_test_remove_dir (copy_dir);
      return;
    }
  /* What Ctrl+U does: the action, on the row selected. */
  click_text (open_at_row (path, "main;spin_here", &window, &view));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-source", NULL));
  wait_for_source (window, "spin_here");
  message = window_test_find_label (GTK_WIDGET (view), "Looked for it at");
  g_assert_nonnull (message);
  g_assert_true (window_test_is_shown (GTK_WIDGET (message)));
  g_assert_nonnull (strstr (gtk_label_get_text (message), source_path));
  choose = window_test_find_button (GTK_WIDGET (view), "Choose Folder");
  g_assert_nonnull (choose);
  g_assert_true (window_test_is_shown (GTK_WIDGET (choose)));
  gui_test_save_png (GTK_WIDGET (window), "window-source-missing.png");

  /* The source is found elsewhere, and the user picks that folder (what
   * the chooser says): shown, and remembered for the next time. */
  moved_dir = g_build_filename (copy_dir, "moved", NULL);
  moved = g_build_filename (moved_dir, "gone.c", NULL);
  g_assert_cmpint (g_mkdir (moved_dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (moved, program, -1, NULL));
  g_signal_emit_by_name (view, "folder-chosen", source_path, moved_dir);
  g_assert_true (window_test_wait (source_text_shown, view, 20));
  g_assert_cmpstr (sp_source_view_get_source (view)->path, ==, moved);
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==,
                    sp_source_annotation_get_hottest_line (sp_source_view_get_source (view)));
  g_assert_true (g_key_file_load_from_file (remembered, ini, G_KEY_FILE_NONE, &error));
  folder = g_key_file_get_string (remembered, "prefixes", copy_dir, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (folder, ==, moved_dir);
  gui_test_save_png (GTK_WIDGET (window), "window-source-found.png");
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (ini);
  g_unlink (moved);
  g_rmdir (moved_dir);
  window_test_remove_dir (copy_dir);
}

int
main (int argc,
      char **argv)
{
  int status;

  if (!gui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/app/window-source/show-source", test_show_source);
  g_test_add_func ("/app/window-source/call-and-back", test_call_and_back);
  g_test_add_func ("/app/window-source/inlined", test_inlined);
  g_test_add_func ("/app/window-source/keyboard", test_keyboard);
  g_test_add_func ("/app/window-source/live", test_live);
  g_test_add_func ("/app/window-source/missing-source", test_missing_source);
  status = g_test_run ();
  remove_recording_dir ();
  return status;
}
