/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-view.c: the Source page (sp-source-view.h).
 *
 * A bar (Back, the function and its file, its places, the disassembly
 * toggle) above a paned: the source lines (or, when the file was not
 * found, where it was looked for and "Choose Folder…") and the
 * instructions. The tables are sp-source-tables.c's; this file links
 * their selections, keeps the history Back goes through, and asks for
 * what the user chose through signals. */
#include "sp-source-view.h"

#include "sp-cells-private.h"
#include "sp-metric-format.h"
#include "sp-source-row-private.h"
#include "sp-source-tables-private.h"

typedef struct {
  guint32 function;
  guint   place;
} Visit;

struct _SpSourceView
{
  GtkWidget             parent_instance;

  /* Child widgets */
  GtkWidget            *bar;
  GtkWidget            *back_button;
  GtkLabel             *title;
  GtkLabel             *subtitle;
  GtkDropDown          *places;
  GtkToggleButton      *disassembly_button;
  GtkStack             *content;        /* "empty", "annotated" */
  GtkPaned             *paned;
  GtkStack             *source_stack;   /* "text", "missing" */
  GtkLabel             *missing_label;
  GtkWidget            *choose_button;
  GtkLabel             *disassembly_note;
  GtkWidget            *disassembly_box;

  SpSourceTable         lines;
  SpSourceTable         instructions;

  /* Owned references */
  SpSourceAnnotation   *source;
  GArray               *history;        /* Visit: where Back goes, the last first out */
  GtkFileChooserNative *chooser;
  char                 *fetch_note;     /* what debuginfod does about the missing file, or NULL */

  gboolean              fetching;       /* the missing file is being fetched */
  guint32               asked;          /* the function asked for last (G_MAXUINT32: none) */
  gboolean              syncing;        /* one table's selection follows the other's */
  gboolean              setting_places;
  guint                 focus_tick;     /* focuses the selected instruction at the next frame, or 0 */
};

enum { SIGNAL_ANNOTATE, SIGNAL_FOLDER_CHOSEN, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpSourceView, sp_source_view, GTK_TYPE_WIDGET)

/* ---- Linked selections --------------------------------------------------- */

/* Every instruction of line selected, the first in view (or, with
 * center, in the middle of the view). */
static void
select_instructions_of (SpSourceView *self,
                        guint line,
                        gboolean center)
{
  GListModel *model = G_LIST_MODEL (self->instructions.store);
  guint n = g_list_model_get_n_items (model);
  g_autoptr (GtkBitset) selected = gtk_bitset_new_empty ();
  g_autoptr (GtkBitset) mask = gtk_bitset_new_range (0, n);

  for (guint i = 0; line > 0 && i < n; i++)
    if (_sp_source_table_row_at (&self->instructions, i)->line == line)
      gtk_bitset_add (selected, i);
  self->syncing = TRUE;
  gtk_selection_model_set_selection (self->instructions.selection, selected, mask);
  self->syncing = FALSE;
  if (gtk_bitset_is_empty (selected))
    return;
  if (center)
    _sp_source_table_center (&self->instructions, gtk_bitset_get_minimum (selected));
  else
    _sp_cells_scroll_to_selected (self->instructions.column_view);
}

static void
lines_selection_changed (GtkSelectionModel *model,
                         guint position,
                         guint n_items,
                         SpSourceView *self)
{
  if (!self->syncing)
    select_instructions_of (self, sp_source_view_get_selected_line (self), FALSE);
}

/* An instruction chosen: its line, selected and in view. */
static void
instructions_selection_changed (GtkSelectionModel *model,
                                guint position,
                                guint n_items,
                                SpSourceView *self)
{
  g_autoptr (GtkBitset) selected = NULL;
  SpSourceRow *first;
  guint at;

  if (self->syncing)
    return;
  selected = gtk_selection_model_get_selection (model);
  if (gtk_bitset_is_empty (selected))
    return;
  first = _sp_source_table_row_at (&self->instructions, gtk_bitset_get_minimum (selected));
  at = _sp_source_table_line_position (&self->lines, first->line);
  if (at == GTK_INVALID_LIST_POSITION)
    return;
  self->syncing = TRUE;
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (self->lines.selection), at);
  self->syncing = FALSE;
  _sp_cells_scroll_to_selected (self->lines.column_view);
}

/* A call activated: its callee's source. */
static void
instruction_activated (GtkColumnView *column_view,
                       guint position,
                       SpSourceView *self)
{
  SpSourceRow *row = _sp_source_table_row_at (&self->instructions, position);
  const SpSourceInstruction *instruction = self->source != NULL && position < self->source->instructions->len
                                             ? &g_array_index (self->source->instructions, SpSourceInstruction,
                                                               position)
                                             : NULL;
  g_autofree char *why = NULL;

  if (row != NULL && row->callee != G_MAXUINT32)
    {
      sp_source_view_show_function (self, row->callee);
      return;
    }
  if (instruction == NULL || instruction->callee_name == NULL)
    return;
  /* A call with nothing to show says so, rather than doing nothing. */
  why = g_strdup_printf ("%s has no samples in this profile (with this filter): there is no source to show for it.",
                         instruction->callee_name);
  gtk_label_set_text (self->disassembly_note, why);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->disassembly_note), why);
  gtk_widget_set_visible (GTK_WIDGET (self->disassembly_note), TRUE);
}

/* The keyboard coming into the instructions (F6) lands on the first
 * selected one (the line's, or the one chosen alone), not on the row that
 * had the focus last: Enter then activates it, Down goes on to the next.
 * At the next frame: while the focus enters, the list view is moving it
 * to its cursor row itself, after this handler. */
static gboolean
focus_selected_instruction (GtkWidget *widget,
                            GdkFrameClock *clock,
                            gpointer user_data)
{
  SpSourceView *self = user_data;
  g_autoptr (GtkBitset) selected = gtk_selection_model_get_selection (self->instructions.selection);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  self->focus_tick = 0;
  /* The focus only passed through (on its way to the lines): it stays. */
  if (focus == NULL || (focus != widget && !gtk_widget_is_ancestor (focus, widget)))
    return G_SOURCE_REMOVE;
  if (!gtk_bitset_is_empty (selected))
    _sp_source_table_focus_row (&self->instructions, gtk_bitset_get_minimum (selected));
  return G_SOURCE_REMOVE;
}

static void
instructions_focus_entered (GtkEventControllerFocus *controller,
                            SpSourceView *self)
{
  if (self->focus_tick == 0)
    self->focus_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->instructions.column_view),
                                                     focus_selected_instruction, self, NULL);
}

/* ---- History -------------------------------------------------------------- */

static void
ask (SpSourceView *self,
     guint32 function,
     guint place)
{
  self->asked = function;
  gtk_widget_set_sensitive (self->back_button, self->history->len > 0);
  g_signal_emit (self, signals[SIGNAL_ANNOTATE], 0, function, place);
}

void
sp_source_view_show_function (SpSourceView *self,
                              guint32 function)
{
  g_return_if_fail (SP_IS_SOURCE_VIEW (self));
  if (self->asked != G_MAXUINT32 && self->asked != function)
    {
      Visit visit = { self->asked, self->source != NULL ? self->source->place : SP_SOURCE_PLACE_HEAVIEST };

      g_array_append_val (self->history, visit);
    }
  ask (self, function, SP_SOURCE_PLACE_HEAVIEST);
}

gboolean
sp_source_view_go_back (SpSourceView *self)
{
  Visit visit;

  g_return_val_if_fail (SP_IS_SOURCE_VIEW (self), FALSE);
  if (self->history->len == 0)
    return FALSE;
  visit = g_array_index (self->history, Visit, self->history->len - 1);
  g_array_set_size (self->history, self->history->len - 1);
  ask (self, visit.function, visit.place);
  return TRUE;
}

static gboolean
back_shortcut (GtkWidget *widget,
               GVariant *args,
               gpointer user_data)
{
  return sp_source_view_go_back (SP_SOURCE_VIEW (widget));
}

/* F6: from the lines to the instructions and back (Tab moves from row to
 * row inside a GTK 4.8 list, never out of it). */
static gboolean
other_table_shortcut (GtkWidget *widget,
                      GVariant *args,
                      gpointer user_data)
{
  SpSourceView *self = SP_SOURCE_VIEW (widget);
  GtkWidget *lines = GTK_WIDGET (self->lines.column_view);
  GtkWidget *instructions = GTK_WIDGET (self->instructions.column_view);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  gboolean in_instructions = focus != NULL && (focus == instructions || gtk_widget_is_ancestor (focus, instructions));

  if (self->source == NULL)
    return FALSE;
  if (!in_instructions && gtk_widget_get_visible (self->disassembly_box))
    return gtk_widget_grab_focus (instructions);
  return self->source->text != NULL && gtk_widget_grab_focus (lines);
}

static void
back_clicked (GtkButton *button,
              SpSourceView *self)
{
  sp_source_view_go_back (self);
}

/* ---- Places ---------------------------------------------------------------- */

/* "libfoo.so.1: in read_all  61%", and "at 1150" where functions of one
 * name in one module (static ones of two files, a generic's instances)
 * are told apart by their address. */
static char *
place_text (const SpSourceAnnotation *source,
            const SpAnnotationPlace *place)
{
  g_autofree char *module = g_path_get_basename (place->module);
  g_autofree char *at = place->start != 0 ? g_strdup_printf (" at %" G_GINT64_MODIFIER "x", place->start)
                                          : g_strdup ("");
  double percent = 100.0 * (double) place->total / (double) MAX (source->total, 1);

  if (g_strcmp0 (place->function, source->name) != 0)
    return g_strdup_printf ("%s: in %s%s  %.0f%%", module, place->function, at, percent);
  return g_strdup_printf ("%s%s  %.0f%%", module, at, percent);
}

static void
show_places (SpSourceView *self)
{
  guint n_places = 0;
  const SpAnnotationPlace *places = self->source != NULL && self->source->annotation != NULL
                                      ? sp_annotation_get_places (self->source->annotation, &n_places)
                                      : NULL;
  g_autoptr (GtkStringList) list = gtk_string_list_new (NULL);

  for (guint i = 0; i < n_places; i++)
    {
      g_autofree char *text = place_text (self->source, &places[i]);

      gtk_string_list_append (list, text);
    }
  self->setting_places = TRUE;
  gtk_drop_down_set_model (self->places, G_LIST_MODEL (list));
  if (n_places > 0)
    gtk_drop_down_set_selected (self->places, self->source->place);
  self->setting_places = FALSE;
  /* One place: nothing to choose. */
  gtk_widget_set_visible (GTK_WIDGET (self->places), n_places > 1);
}

static void
place_chosen (GtkDropDown *places,
              GParamSpec *pspec,
              SpSourceView *self)
{
  guint place = gtk_drop_down_get_selected (places);

  if (self->setting_places || self->source == NULL || place == GTK_INVALID_LIST_POSITION
      || place == self->source->place)
    return;
  ask (self, self->source->function, place);
}

/* ---- The missing source file ------------------------------------------------ */

static void
show_missing (SpSourceView *self)
{
  const SpSourceAnnotation *source = self->source;
  g_autoptr (GString) text = g_string_new (NULL);

  if (source->wanted == NULL && source->no_debug_info != NULL)
    g_string_printf (text, "No source file for %s: %s", source->name, source->no_debug_info);
  else if (source->wanted == NULL)
    g_string_printf (text, "The debug information names no source file for %s.", source->name);
  else
    {
      g_autofree char *base = g_path_get_basename (source->wanted);

      if (self->fetching)
        g_string_printf (text, "The source file %s is not on this machine: it is being fetched from debuginfod "
                               "(the status line shows how far).\n\nLooked for it at:", base);
      else
        g_string_printf (text, "The source file %s was not found.\n\nLooked for it at:", base);
      for (guint i = 0; i < source->looked->len; i++)
        g_string_append_printf (text, "\n    %s", (const char *) g_ptr_array_index (source->looked, i));
      if (self->fetch_note != NULL)
        g_string_append_printf (text, "\n    %s", self->fetch_note);
      g_string_append (text, "\n\nChoose the folder it is in: every file built under the same folder is then "
                             "found there, in this recording and the next.");
    }
  gtk_label_set_text (self->missing_label, text->str);
  gtk_widget_set_visible (self->choose_button, source->wanted != NULL);
  gtk_stack_set_visible_child_name (self->source_stack, "missing");
}

static void
chooser_response (GtkNativeDialog *dialog,
                  int response,
                  SpSourceView *self)
{
  g_autoptr (GFile) folder = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT && self->source != NULL && self->source->wanted != NULL)
    {
      folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      path = folder != NULL ? g_file_get_path (folder) : NULL;
      if (path != NULL)
        g_signal_emit (self, signals[SIGNAL_FOLDER_CHOSEN], 0, self->source->wanted, path);
    }
  g_clear_object (&self->chooser);
}

static void
choose_clicked (GtkButton *button,
                SpSourceView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new ("Choose the Folder of the Source File",
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, "_Choose", "_Cancel");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect (self->chooser, "response", G_CALLBACK (chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* ---- Showing a function ---------------------------------------------------- */

static void
show_title (SpSourceView *self)
{
  const SpSourceAnnotation *source = self->source;
  g_autofree char *self_cost = sp_metric_format_value (source->metric, source->self);
  g_autofree char *total_cost = sp_metric_format_value (source->metric, source->total);
  g_autofree char *subtitle = NULL;
  const char *file = source->path != NULL ? source->path : source->wanted;

  gtk_label_set_text (self->title, source->name);
  subtitle = g_strdup_printf ("%s%sself %.1f%% (%s), total %.1f%% (%s) of %s", file != NULL ? file : "",
                              file != NULL ? "  ·  " : "",
                              100.0 * (double) source->self / (double) MAX (source->all, 1), self_cost,
                              100.0 * (double) source->total / (double) MAX (source->all, 1), total_cost,
                              sp_metric_describe (source->metric));
  gtk_label_set_text (self->subtitle, subtitle);
}

/* The hottest line selected, its instructions with it, each in the
 * middle of its table. */
static void
select_centered (SpSourceView *self,
                 guint line)
{
  guint at = self->source->text != NULL ? _sp_source_table_line_position (&self->lines, line)
                                        : GTK_INVALID_LIST_POSITION;

  self->syncing = TRUE;
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (self->lines.selection), at);
  self->syncing = FALSE;
  if (at != GTK_INVALID_LIST_POSITION)
    _sp_source_table_center (&self->lines, at);
  select_instructions_of (self, line, TRUE);
}

/* Whether the place shown has instructions on line of its file. */
static gboolean
place_has_line (SpSourceView *self,
                guint line)
{
  for (guint i = 0; line > 0 && i < self->source->instructions->len; i++)
    if (g_array_index (self->source->instructions, SpSourceInstruction, i).line == line)
      return TRUE;
  return FALSE;
}

static gboolean
focus_inside (SpSourceView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self));
}

void
sp_source_view_set_source (SpSourceView *self,
                           SpSourceAnnotation *source)
{
  /* The same function, place and file (not a file found at last). */
  gboolean same = source != NULL && self->source != NULL && source->function == self->source->function
                  && source->place == self->source->place && g_strcmp0 (source->path, self->source->path) == 0;
  /* Another place of the function (where it is inlined) in the same
   * file: the line the user selected stays where that place has it. */
  gboolean other_place = source != NULL && self->source != NULL && source->function == self->source->function
                         && source->place != self->source->place && source->text != NULL
                         && g_strcmp0 (source->path, self->source->path) == 0;
  guint selected = same || other_place ? sp_source_view_get_selected_line (self) : 0;

  g_return_if_fail (SP_IS_SOURCE_VIEW (self));
  if (source != NULL)
    sp_source_annotation_ref (source);
  g_clear_pointer (&self->source, sp_source_annotation_unref);
  self->source = source;
  self->syncing = TRUE;
  _sp_source_table_set_lines (&self->lines, source, same);
  _sp_source_table_set_instructions (&self->instructions, source, same);
  self->syncing = FALSE;
  gtk_stack_set_visible_child_name (self->content, source != NULL ? "annotated" : "empty");
  gtk_widget_set_visible (self->bar, source != NULL);
  if (source == NULL)
    {
      /* Another profile comes: its functions have other ids. */
      g_array_set_size (self->history, 0);
      self->asked = G_MAXUINT32;
      gtk_widget_set_sensitive (self->back_button, FALSE);
      return;
    }
  self->asked = source->function;
  show_title (self);
  show_places (self);
  gtk_label_set_text (self->disassembly_note, source->disassembly_problem != NULL ? source->disassembly_problem : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->disassembly_note), source->disassembly_problem);
  gtk_widget_set_visible (GTK_WIDGET (self->disassembly_note), source->disassembly_problem != NULL);
  if (source->text == NULL)
    show_missing (self);
  else
    gtk_stack_set_visible_child_name (self->source_stack, "text");
  /* The same function again: what the user selected and scrolled to stays
   * (the rows took the new costs in place). */
  if (other_place && place_has_line (self, selected))
    select_centered (self, selected);
  else if (!same)
    select_centered (self, sp_source_annotation_get_hottest_line (source));
  else if (selected > 0 && sp_source_view_get_selected_line (self) != selected)
    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (self->lines.selection),
                                       _sp_source_table_line_position (&self->lines, selected));
  /* The keyboard stays on the page: on the lines, or the instructions
   * when the lines went for the missing file's message. */
  if (focus_inside (self))
    gtk_widget_grab_focus (GTK_WIDGET (self));
}

void
sp_source_view_set_fetch_note (SpSourceView *self,
                               const char *note,
                               gboolean fetching)
{
  g_return_if_fail (SP_IS_SOURCE_VIEW (self));
  g_free (self->fetch_note);
  self->fetch_note = g_strdup (note);
  self->fetching = fetching;
  if (self->source != NULL && self->source->text == NULL)
    show_missing (self);
}

SpSourceAnnotation *sp_source_view_get_source (SpSourceView *self) { return self->source; }
GtkColumnView *sp_source_view_get_lines (SpSourceView *self) { return self->lines.column_view; }
GtkColumnView *sp_source_view_get_instructions (SpSourceView *self) { return self->instructions.column_view; }

guint
sp_source_view_get_selected_line (SpSourceView *self)
{
  guint at = gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (self->lines.selection));

  return at == GTK_INVALID_LIST_POSITION ? 0 : _sp_source_table_row_at (&self->lines, at)->line;
}

void
sp_source_view_select_line (SpSourceView *self,
                            guint line)
{
  guint at = _sp_source_table_line_position (&self->lines, line);

  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (self->lines.selection), at);
  if (at != GTK_INVALID_LIST_POSITION)
    _sp_cells_scroll_to_selected (self->lines.column_view);
}

/* ---- Building ---------------------------------------------------------------- */

static GtkWidget *
make_bar (SpSourceView *self)
{
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *names = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 4);
  gtk_widget_set_margin_bottom (bar, 4);
  self->back_button = gtk_button_new_from_icon_name ("go-previous-symbolic");
  gtk_widget_set_tooltip_text (self->back_button, "Back to the function shown before (Alt+Left)");
  gtk_widget_set_sensitive (self->back_button, FALSE);
  gtk_widget_set_valign (self->back_button, GTK_ALIGN_CENTER);
  g_signal_connect (self->back_button, "clicked", G_CALLBACK (back_clicked), self);
  self->title = GTK_LABEL (gtk_label_new (NULL));
  self->subtitle = GTK_LABEL (gtk_label_new (NULL));
  for (GtkLabel *label = self->title; label != NULL; label = label == self->title ? self->subtitle : NULL)
    {
      gtk_label_set_xalign (label, 0);
      gtk_label_set_ellipsize (label, PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_selectable (label, TRUE);
      gtk_widget_set_focusable (GTK_WIDGET (label), FALSE);
      gtk_box_append (GTK_BOX (names), GTK_WIDGET (label));
    }
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "heading");
  gtk_widget_add_css_class (GTK_WIDGET (self->subtitle), "dim-label");
  gtk_widget_set_hexpand (names, TRUE);
  self->places = GTK_DROP_DOWN (gtk_drop_down_new (NULL, NULL));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->places), "The function is in several modules, or inlined into "
                                                          "several functions: the one shown");
  gtk_widget_set_valign (GTK_WIDGET (self->places), GTK_ALIGN_CENTER);
  g_signal_connect (self->places, "notify::selected", G_CALLBACK (place_chosen), self);
  self->disassembly_button = GTK_TOGGLE_BUTTON (gtk_toggle_button_new_with_label ("Disassembly"));
  gtk_toggle_button_set_active (self->disassembly_button, TRUE);
  gtk_widget_set_valign (GTK_WIDGET (self->disassembly_button), GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (bar), self->back_button);
  gtk_box_append (GTK_BOX (bar), names);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->places));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->disassembly_button));
  return bar;
}

/* In a scrolled window: the paths looked at may be many, and a wrapping
 * label in a stack without one measured its height inconsistently (a
 * GTK 4.8 critical). */
static GtkWidget *
make_missing (SpSourceView *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_widget_set_margin_start (box, 24);
  gtk_widget_set_margin_end (box, 24);
  gtk_widget_set_margin_top (box, 24);
  self->missing_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (self->missing_label, TRUE);
  gtk_label_set_xalign (self->missing_label, 0);
  gtk_label_set_selectable (self->missing_label, TRUE);
  self->choose_button = gtk_button_new_with_mnemonic ("_Choose Folder…");
  gtk_widget_set_halign (self->choose_button, GTK_ALIGN_START);
  gtk_widget_add_css_class (self->choose_button, "suggested-action");
  g_signal_connect (self->choose_button, "clicked", G_CALLBACK (choose_clicked), self);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->missing_label));
  gtk_box_append (GTK_BOX (box), self->choose_button);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  return scroller;
}

static GtkWidget *
make_panes (SpSourceView *self)
{
  GtkWidget *lines = _sp_source_table_init_lines (&self->lines);
  GtkWidget *instructions = _sp_source_table_init_instructions (&self->instructions);
  GtkEventController *focus;

  self->source_stack = GTK_STACK (gtk_stack_new ());
  gtk_stack_add_named (self->source_stack, lines, "text");
  gtk_stack_add_named (self->source_stack, make_missing (self), "missing");
  self->disassembly_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  self->disassembly_note = GTK_LABEL (gtk_label_new (NULL));
  /* The reason is read whole: a long one (a path, a decoder's limits) wraps. */
  gtk_label_set_wrap (self->disassembly_note, TRUE);
  gtk_label_set_wrap_mode (self->disassembly_note, PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (self->disassembly_note, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->disassembly_note), "dim-label");
  gtk_widget_set_margin_start (GTK_WIDGET (self->disassembly_note), 6);
  gtk_box_append (GTK_BOX (self->disassembly_box), GTK_WIDGET (self->disassembly_note));
  gtk_box_append (GTK_BOX (self->disassembly_box), instructions);
  self->paned = GTK_PANED (gtk_paned_new (GTK_ORIENTATION_HORIZONTAL));
  gtk_paned_set_start_child (self->paned, GTK_WIDGET (self->source_stack));
  gtk_paned_set_end_child (self->paned, self->disassembly_box);
  gtk_paned_set_shrink_start_child (self->paned, FALSE);
  gtk_paned_set_shrink_end_child (self->paned, FALSE);
  /* The source gets the room first: its lines are the longer. */
  gtk_paned_set_position (self->paned, 640);
  g_object_bind_property (self->disassembly_button, "active", self->disassembly_box, "visible",
                          G_BINDING_SYNC_CREATE);
  g_signal_connect (self->lines.selection, "selection-changed", G_CALLBACK (lines_selection_changed), self);
  g_signal_connect (self->instructions.selection, "selection-changed", G_CALLBACK (instructions_selection_changed),
                    self);
  g_signal_connect (self->instructions.column_view, "activate", G_CALLBACK (instruction_activated), self);
  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "enter", G_CALLBACK (instructions_focus_entered), self);
  gtk_widget_add_controller (GTK_WIDGET (self->instructions.column_view), focus);
  return GTK_WIDGET (self->paned);
}

/* The keyboard goes to the lines, or where the file was not found, to the
 * instructions (not to the message: a selectable label given the focus
 * selects all its text). */
static gboolean
sp_source_view_grab_focus (GtkWidget *widget)
{
  SpSourceView *self = SP_SOURCE_VIEW (widget);
  gboolean text = self->source != NULL && self->source->text != NULL;

  return gtk_widget_grab_focus (GTK_WIDGET (text ? self->lines.column_view : self->instructions.column_view));
}

static void
sp_source_view_dispose (GObject *object)
{
  SpSourceView *self = SP_SOURCE_VIEW (object);
  GtkWidget *child;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_pointer (&self->fetch_note, g_free);
  /* Before the tables go: their centring ticks. */
  _sp_source_table_clear (&self->lines);
  _sp_source_table_clear (&self->instructions);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->source, sp_source_annotation_unref);
  g_clear_pointer (&self->history, g_array_unref);
  G_OBJECT_CLASS (sp_source_view_parent_class)->dispose (object);
}

static void
sp_source_view_class_init (SpSourceViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_source_view_dispose;
  widget_class->grab_focus = sp_source_view_grab_focus;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Left, GDK_ALT_MASK, back_shortcut, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Back, 0, back_shortcut, NULL);
  gtk_widget_class_add_binding (widget_class, GDK_KEY_F6, 0, other_table_shortcut, NULL);
  signals[SIGNAL_ANNOTATE] = g_signal_new ("annotate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                           NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);
  signals[SIGNAL_FOLDER_CHOSEN] = g_signal_new ("folder-chosen", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
sp_source_view_init (SpSourceView *self)
{
  GtkWidget *empty = gtk_label_new ("Choose a function in another view and pick “Show Source” in its menu "
                                    "(or press Ctrl+U; in the call trees, double-click it).");

  self->history = g_array_new (FALSE, FALSE, sizeof (Visit));
  self->asked = G_MAXUINT32;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  gtk_widget_add_css_class (empty, "dim-label");
  /* Wrapped: one line would hold the whole window at its width. */
  gtk_label_set_wrap (GTK_LABEL (empty), TRUE);
  gtk_label_set_justify (GTK_LABEL (empty), GTK_JUSTIFY_CENTER);
  self->bar = make_bar (self);
  gtk_widget_set_visible (self->bar, FALSE);
  self->content = GTK_STACK (gtk_stack_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->content), TRUE);
  gtk_stack_add_named (self->content, empty, "empty");
  gtk_stack_add_named (self->content, make_panes (self), "annotated");
  gtk_widget_set_parent (self->bar, GTK_WIDGET (self));
  gtk_widget_set_parent (GTK_WIDGET (self->content), GTK_WIDGET (self));
}

SpSourceView *
sp_source_view_new (void)
{
  return g_object_new (SP_TYPE_SOURCE_VIEW, NULL);
}
