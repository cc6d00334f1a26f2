/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-source-view.c: the Source page over an annotation made by hand: the
 * hottest line selected with its instructions, heat only where there is
 * cost, a line's instructions and an instruction's line, a call that asks
 * for its callee and Back, and a missing file that says where it was
 * looked for. Saves PNGs for review (SP_SCREENSHOT_DIR, or a temporary
 * folder). The window's test (tests/app/test-window-source.c) shows a real
 * recording's. */
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test.h"
#include "sp-source-view.h"

/* hot_loop's file: line 5 is the hot one, line 6 calls mix. */
static const char source_text[] =
  "#include <stdint.h>\n"
  "uint64_t\n"
  "hot_loop (uint64_t x)\n"
  "{\n"
  "  x = x / 3 + 1; /* HOT */\n"
  "  return mix (x); /* CALL */\n"
  "}";

static const SpAnnotationLine line_costs[] = {
  { .line = 3, .self = 5, .total = 5 },
  { .line = 5, .self = 70, .total = 70 },
  { .line = 6, .self = 5, .total = 25 },
};

#define HOT_LOOP 7
#define MIX 9

static SpSourceAnnotation *
make_source (gboolean found)
{
  SpSourceAnnotation *source = g_atomic_rc_box_new0 (SpSourceAnnotation);
  const SpSourceInstruction instructions[] = {
    { .vaddr = 0x1130, .size = 4, .text = "push   %rbp", .self = 5, .total = 5, .line = 3,
      .callee = SP_SOURCE_NO_CALLEE },
    { .vaddr = 0x1134, .size = 4, .text = "div    %rcx", .self = 60, .total = 60, .line = 5,
      .callee = SP_SOURCE_NO_CALLEE },
    { .vaddr = 0x1138, .size = 4, .text = "add    $0x1,%rax", .self = 10, .total = 10, .line = 5,
      .callee = SP_SOURCE_NO_CALLEE },
    { .vaddr = 0x113c, .size = 5, .text = "call   1200", .self = 5, .total = 25, .line = 6, .callee = MIX,
      .callee_name = "mix" },
    { .vaddr = 0x1141, .size = 1, .text = "ret", .line = 7, .callee = SP_SOURCE_NO_CALLEE },
  };

  source->function = HOT_LOOP;
  source->name = g_strdup ("hot_loop");
  source->metric = SP_METRIC_CPU;
  source->self = 80;
  source->total = 100;
  source->all = 200;
  source->instructions = g_array_new (FALSE, FALSE, sizeof (SpSourceInstruction));
  g_array_append_vals (source->instructions, instructions, G_N_ELEMENTS (instructions));
  source->lines = line_costs;
  source->n_lines = G_N_ELEMENTS (line_costs);
  source->wanted = g_strdup ("/build/app/src/hot.c");
  source->looked = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (source->looked, g_strdup ("/build/app/src/hot.c"));
  if (found)
    {
      source->path = g_strdup ("/home/u/app/src/hot.c");
      source->text = g_strsplit (source_text, "\n", -1);
    }
  else
    g_ptr_array_add (source->looked, g_strdup ("/recordings/hot.c"));
  return source;
}

static void
run_frames (double seconds)
{
  gint64 until = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
}

static GtkWidget *
show_view (SpSourceView *view)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 320);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (view));
  gtk_window_present (GTK_WINDOW (window));
  run_frames (0.3);
  return window;
}

/* The positions selected in the instructions' table, as "1,2". */
static char *
selected_instructions (SpSourceView *view)
{
  GtkSelectionModel *model = gtk_column_view_get_model (sp_source_view_get_instructions (view));
  g_autoptr (GtkBitset) selected = gtk_selection_model_get_selection (model);
  GString *text = g_string_new (NULL);
  GtkBitsetIter iter;
  guint position;

  for (gboolean more = gtk_bitset_iter_init_first (&iter, selected, &position); more;
       more = gtk_bitset_iter_next (&iter, &position))
    g_string_append_printf (text, "%s%u", text->len > 0 ? "," : "", position);
  return g_string_free (text, FALSE);
}

/* The cell widget of the lines' row showing line number line in the
 * column titled title, or NULL. */
static GtkWidget *
line_cell (SpSourceView *view,
           const char *line,
           const char *title)
{
  GtkColumnView *lines = sp_source_view_get_lines (view);
  g_autoptr (GPtrArray) rows = gui_test_table_rows (lines);
  guint line_column = gui_test_column_index (lines, "Line");

  for (guint i = 0; i < rows->len; i++)
    if (g_strcmp0 (gui_test_cell_text (gui_test_row_cell (rows->pdata[i], line_column)), line) == 0)
      return gui_test_row_cell (rows->pdata[i], gui_test_column_index (lines, title));
  return NULL;
}

/* How strongly the Self cell of the lines' row showing line number line is
 * coloured: the alpha of a pixel near its corner, away from its text (0:
 * no heat colour); -1 when that row is not laid out. */
static int
line_heat (SpSourceView *view,
           const char *line)
{
  GtkWidget *cell = line_cell (view, line, "Self");

  return cell != NULL ? (int) gui_test_alpha_at (cell, 1, 1) : -1;
}

static gboolean
label_contains (GtkWidget *widget,
                gconstpointer text)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL;
}

static gboolean
button_has_label (GtkWidget *widget,
                  gconstpointer text)
{
  return GTK_IS_BUTTON (widget) && gtk_button_get_label (GTK_BUTTON (widget)) != NULL
         && strstr (gtk_button_get_label (GTK_BUTTON (widget)), text) != NULL;
}

static void
on_annotate (SpSourceView *view,
             guint function,
             guint place,
             GArray *asked)
{
  g_array_append_val (asked, function);
}

/* Shown, the hottest line is selected with its two instructions; only
 * lines with cost are coloured, the hot one the most. */
static void
test_hottest (void)
{
  SpSourceView *view = sp_source_view_new ();
  GtkWidget *window = show_view (view);
  g_autoptr (SpSourceAnnotation) source = make_source (TRUE);
  g_autofree char *selected = NULL;

  sp_source_view_set_source (view, source);
  run_frames (0.3);
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==, 5);
  selected = selected_instructions (view);
  g_assert_cmpstr (selected, ==, "1,2");
  g_assert_cmpint (line_heat (view, "5"), >, line_heat (view, "3"));
  g_assert_cmpint (line_heat (view, "3"), >, 0);
  g_assert_cmpint (line_heat (view, "4"), ==, 0);
  gui_test_save_png (window, "source-view.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A line selects its instructions; an instruction selects its line and
 * keeps itself alone selected. */
static void
test_linked_selection (void)
{
  SpSourceView *view = sp_source_view_new ();
  GtkWidget *window = show_view (view);
  g_autoptr (SpSourceAnnotation) source = make_source (TRUE);
  GtkSelectionModel *instructions = gtk_column_view_get_model (sp_source_view_get_instructions (view));
  g_autofree char *of_line = NULL, *alone = NULL;

  sp_source_view_set_source (view, source);
  sp_source_view_select_line (view, 6);
  of_line = selected_instructions (view);
  g_assert_cmpstr (of_line, ==, "3");
  gtk_selection_model_select_item (instructions, 0, TRUE);
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==, 3);
  alone = selected_instructions (view);
  g_assert_cmpstr (alone, ==, "0");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Activating the call asks for mix; Back asks for hot_loop again. Other
 * instructions ask for nothing. */
static void
test_call_and_back (void)
{
  SpSourceView *view = sp_source_view_new ();
  GtkWidget *window = show_view (view);
  g_autoptr (SpSourceAnnotation) source = make_source (TRUE);
  g_autoptr (GArray) asked = g_array_new (FALSE, FALSE, sizeof (guint));

  g_signal_connect (view, "annotate", G_CALLBACK (on_annotate), asked);
  sp_source_view_show_function (view, HOT_LOOP);
  sp_source_view_set_source (view, source);
  g_signal_emit_by_name (sp_source_view_get_instructions (view), "activate", 1);
  g_assert_cmpuint (asked->len, ==, 1);
  g_signal_emit_by_name (sp_source_view_get_instructions (view), "activate", 3);
  g_assert_cmpuint (asked->len, ==, 2);
  g_assert_cmpuint (g_array_index (asked, guint, 1), ==, MIX);
  g_assert_true (sp_source_view_go_back (view));
  g_assert_cmpuint (asked->len, ==, 3);
  g_assert_cmpuint (g_array_index (asked, guint, 2), ==, HOT_LOOP);
  g_assert_false (sp_source_view_go_back (view));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The text of the Self cell of the lines' row showing line number line. */
static const char *
line_self_text (SpSourceView *view,
                const char *line)
{
  GtkWidget *cell = line_cell (view, line, "Self");

  return cell != NULL ? gui_test_cell_text (gtk_widget_get_first_child (cell)) : NULL;
}

/* Shares of the function's cost; with a time metric, the time too. */
static void
test_cost_text (void)
{
  SpSourceView *view = sp_source_view_new ();
  GtkWidget *window = show_view (view);
  g_autoptr (SpSourceAnnotation) samples = make_source (TRUE);
  g_autoptr (SpSourceAnnotation) times = make_source (TRUE);

  sp_source_view_set_source (view, samples);
  run_frames (0.2);
  g_assert_cmpstr (line_self_text (view, "5"), ==, "70.0%");
  g_assert_cmpstr (line_self_text (view, "4"), ==, "");
  times->metric = SP_METRIC_WALL;
  sp_source_view_set_source (view, times);
  run_frames (0.2);
  g_assert_cmpstr (line_self_text (view, "5"), ==, "70.0%  70 ns");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The same function again with new costs (a live update): the line the
 * user selected stays selected, the cells stay and show the new costs. */
static void
test_live_update (void)
{
  static const SpAnnotationLine grown[] = {
    { .line = 3, .self = 5, .total = 5 },
    { .line = 5, .self = 150, .total = 150 },
    { .line = 6, .self = 5, .total = 45 },
  };
  SpSourceView *view = sp_source_view_new ();
  GtkWidget *window = show_view (view);
  g_autoptr (SpSourceAnnotation) before = make_source (TRUE);
  g_autoptr (SpSourceAnnotation) after = make_source (TRUE);
  GtkWidget *cell;

  sp_source_view_set_source (view, before);
  sp_source_view_select_line (view, 3);
  run_frames (0.2);
  cell = line_cell (view, "5", "Self");
  g_assert_nonnull (cell);
  after->lines = grown;
  after->total = 200;
  sp_source_view_set_source (view, after);
  run_frames (0.2);
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==, 3);
  g_assert_true (line_cell (view, "5", "Self") == cell);
  g_assert_cmpstr (line_self_text (view, "5"), ==, "75.0%");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A file not found: where it was looked for, and Choose Folder; the
 * instructions are still there. */
static void
test_missing (void)
{
  SpSourceView *view = sp_source_view_new ();
  GtkWidget *window = show_view (view);
  g_autoptr (SpSourceAnnotation) source = make_source (FALSE);
  GtkWidget *message, *button;

  sp_source_view_set_source (view, source);
  run_frames (0.3);
  message = gui_test_find (GTK_WIDGET (view), label_contains, "Looked for it at");
  g_assert_nonnull (message);
  g_assert_true (gtk_widget_is_drawable (message));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (message)), "/build/app/src/hot.c"));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (message)), "/recordings/hot.c"));
  button = gui_test_find (GTK_WIDGET (view), button_has_label, "Choose Folder");
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_is_drawable (button));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (gtk_column_view_get_model (
                      sp_source_view_get_instructions (view)))), ==, 5);
  gui_test_save_png (window, "source-view-missing.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The text of the instructions' row at position in the column titled
 * title. */
static char *
instruction_cell_text (SpSourceView *view,
                       guint position,
                       const char *title)
{
  GtkColumnView *instructions = sp_source_view_get_instructions (view);
  g_autoptr (GPtrArray) rows = gui_test_table_rows (instructions);

  g_assert_cmpuint (position, <, rows->len);
  return g_strdup (gui_test_cell_text (gui_test_row_cell (rows->pdata[position],
                                                          gui_test_column_index (instructions, title))));
}

/* A call names its callee once, whether the disassembler's text names it
 * ("callq  1200 <mix>") or not ("call   1200"). */
static void
test_callee_named_once (void)
{
  SpSourceView *view = sp_source_view_new ();
  GtkWidget *window = show_view (view);
  g_autoptr (SpSourceAnnotation) bare = make_source (TRUE);
  g_autoptr (SpSourceAnnotation) named = make_source (TRUE);
  g_autofree char *bare_text = NULL, *named_text = NULL;

  sp_source_view_set_source (view, bare);
  run_frames (0.2);
  bare_text = instruction_cell_text (view, 3, "Instruction");
  g_assert_cmpstr (bare_text, ==, "call   1200 <mix>");
  g_array_index (named->instructions, SpSourceInstruction, 3).text = "callq  1200 <mix>";
  named->function = MIX;
  sp_source_view_set_source (view, named);
  run_frames (0.2);
  named_text = instruction_cell_text (view, 3, "Instruction");
  g_assert_cmpstr (named_text, ==, "callq  1200 <mix>");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A stripped program: the page says its module has no debug information,
 * not that the debug information names no file; the disassembly's note
 * wraps rather than being cut. */
static void
test_no_debug_info (void)
{
  SpSourceView *view = sp_source_view_new ();
  GtkWidget *window = show_view (view);
  g_autoptr (SpSourceAnnotation) source = make_source (FALSE);
  GtkWidget *message, *note;

  g_clear_pointer (&source->wanted, g_free);
  source->no_debug_info = g_strdup ("/tmp/hot-stripped is stripped and its debug file was not found: it has no "
                                    "debug information.");
  source->disassembly_problem = g_strdup ("Not disassembled (/tmp/hot-stripped: no symbol with a size for hot_loop "
                                          "(the file is stripped and its debug file was not found)): only the "
                                          "sampled addresses are listed.");
  sp_source_view_set_source (view, source);
  run_frames (0.3);
  message = gui_test_find (GTK_WIDGET (view), label_contains, "No source file for hot_loop");
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (message)), "is stripped"));
  g_assert_null (gui_test_find (GTK_WIDGET (view), label_contains, "names no source file"));
  note = gui_test_find (GTK_WIDGET (view), label_contains, "Not disassembled");
  g_assert_nonnull (note);
  g_assert_true (gtk_label_get_wrap (GTK_LABEL (note)));
  g_assert_cmpint (gtk_label_get_ellipsize (GTK_LABEL (note)), ==, PANGO_ELLIPSIZE_NONE);
  gui_test_save_png (window, "source-view-no-debug-info.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

static int
column_width (GtkColumnView *view,
              const char *title)
{
  g_autoptr (GtkColumnViewColumn) column = g_list_model_get_item (gtk_column_view_get_columns (view),
                                                                  gui_test_column_index (view, title));

  return gtk_column_view_column_get_fixed_width (column);
}

/* With a time metric the cost columns are as wide as their longest text
 * ("100.0%  1.21 s"): its cell is as wide as its label wants, also where
 * that text is in a row far down the file, bound to a cell only when the
 * view scrolls to it (the column view measured the first rows' cells). */
static void
test_time_columns_fit (void)
{
  static const SpAnnotationLine seconds[] = {
    { .line = 3, .self = 5, .total = 5 },
    { .line = 250, .self = 1210000000, .total = 1210000000 },
  };
  SpSourceView *view = sp_source_view_new ();
  GtkWidget *window = show_view (view);
  g_autoptr (SpSourceAnnotation) times = make_source (TRUE);
  g_autoptr (GPtrArray) text = g_ptr_array_new ();
  GtkWidget *cell, *label;
  int natural;

  for (guint i = 0; i < 300; i++)
    g_ptr_array_add (text, g_strdup_printf ("  x = x * %u;", i + 1));
  g_ptr_array_add (text, NULL);
  g_strfreev (times->text);
  times->text = (GStrv) g_ptr_array_free (g_steal_pointer (&text), FALSE);
  times->metric = SP_METRIC_OFF_CPU;
  times->lines = seconds;
  times->n_lines = G_N_ELEMENTS (seconds);
  times->self = 1210000005;
  times->total = 1210000005;
  sp_source_view_set_source (view, times);
  run_frames (0.5);
  for (guint i = 0; i < 2; i++)
    {
      cell = line_cell (view, "250", i == 0 ? "Self" : "Total");
      g_assert_nonnull (cell);
      label = gtk_widget_get_first_child (cell);
      g_assert_cmpstr (gui_test_cell_text (label), ==, "100.0%  1.21 s");
      /* The cell is as wide as its label, but the column clips it: the
       * column's width must hold the label's (margins in it). */
      gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural, NULL, NULL);
      g_assert_cmpint (column_width (sp_source_view_get_lines (view), i == 0 ? "Self" : "Total"), >=, natural);
    }
  gui_test_save_png (window, "source-view-time-columns.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A call whose callee has no samples (into a PLT stub, "strtol@plt",
 * whose function was never sampled) says so when activated, and asks for
 * nothing. */
static void
test_call_without_callee (void)
{
  SpSourceView *view = sp_source_view_new ();
  GtkWidget *window = show_view (view);
  g_autoptr (SpSourceAnnotation) source = make_source (TRUE);
  g_autoptr (GArray) asked = g_array_new (FALSE, FALSE, sizeof (guint));
  SpSourceInstruction *call = &g_array_index (source->instructions, SpSourceInstruction, 3);

  call->text = "callq  1040 <strtol@plt>";
  call->callee = SP_SOURCE_NO_CALLEE;
  call->callee_name = "strtol@plt";
  g_signal_connect (view, "annotate", G_CALLBACK (on_annotate), asked);
  sp_source_view_set_source (view, source);
  run_frames (0.2);
  g_signal_emit_by_name (sp_source_view_get_instructions (view), "activate", 3);
  run_frames (0.2);
  g_assert_cmpuint (asked->len, ==, 0);
  g_assert_nonnull (gui_test_find (GTK_WIDGET (view), label_contains, "strtol@plt has no samples"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The Address text of the instructions' row that has the keyboard focus,
 * or NULL. */
static const char *
focused_instruction (SpSourceView *view)
{
  GtkColumnView *instructions = sp_source_view_get_instructions (view);
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (GTK_WIDGET (view)));
  g_autoptr (GPtrArray) rows = gui_test_table_rows (instructions);

  for (guint i = 0; focus != NULL && i < rows->len; i++)
    if (focus == rows->pdata[i] || gtk_widget_is_ancestor (focus, rows->pdata[i]))
      return gui_test_cell_text (gui_test_row_cell (rows->pdata[i], gui_test_column_index (instructions, "Address")));
  return NULL;
}

/* The keyboard coming into the instructions (F6) lands on the instruction
 * selected (one of its line's chosen alone), not the line's first. */
static void
test_focus_selected_instruction (void)
{
  SpSourceView *view = sp_source_view_new ();
  GtkWidget *window = show_view (view);
  g_autoptr (SpSourceAnnotation) source = make_source (TRUE);
  GtkSelectionModel *instructions = gtk_column_view_get_model (sp_source_view_get_instructions (view));

  sp_source_view_set_source (view, source);
  run_frames (0.3);
  gtk_selection_model_select_item (instructions, 2, TRUE);
  run_frames (0.1);
  gtk_widget_grab_focus (GTK_WIDGET (sp_source_view_get_lines (view)));
  run_frames (0.1);
  /* What F6 does from the lines. */
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (sp_source_view_get_instructions (view))));
  run_frames (0.2);
  g_assert_cmpstr (focused_instruction (view), ==, "1138");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Another place of the function (where it is inlined) keeps the line
 * selected when that place has instructions on it; else its hottest. */
static void
test_other_place_keeps_line (void)
{
  SpSourceView *view = sp_source_view_new ();
  GtkWidget *window = show_view (view);
  g_autoptr (SpSourceAnnotation) first = make_source (TRUE);
  g_autoptr (SpSourceAnnotation) second = make_source (TRUE);
  g_autoptr (SpSourceAnnotation) third = make_source (TRUE);

  sp_source_view_set_source (view, first);
  run_frames (0.2);
  sp_source_view_select_line (view, 6);
  second->place = 1;
  sp_source_view_set_source (view, second);
  run_frames (0.2);
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==, 6);
  sp_source_view_select_line (view, 4);
  third->place = 2;
  sp_source_view_set_source (view, third);
  run_frames (0.2);
  g_assert_cmpuint (sp_source_view_get_selected_line (view), ==, 5);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;
  g_test_add_func ("/ui/source-view/hottest", test_hottest);
  g_test_add_func ("/ui/source-view/linked-selection", test_linked_selection);
  g_test_add_func ("/ui/source-view/call-and-back", test_call_and_back);
  g_test_add_func ("/ui/source-view/cost-text", test_cost_text);
  g_test_add_func ("/ui/source-view/live-update", test_live_update);
  g_test_add_func ("/ui/source-view/missing", test_missing);
  g_test_add_func ("/ui/source-view/callee-named-once", test_callee_named_once);
  g_test_add_func ("/ui/source-view/no-debug-info", test_no_debug_info);
  g_test_add_func ("/ui/source-view/time-columns-fit", test_time_columns_fit);
  g_test_add_func ("/ui/source-view/call-without-callee", test_call_without_callee);
  g_test_add_func ("/ui/source-view/focus-selected-instruction", test_focus_selected_instruction);
  g_test_add_func ("/ui/source-view/other-place-keeps-line", test_other_place_keeps_line);
  return g_test_run ();
}
