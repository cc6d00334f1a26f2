/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-tree-expander.c: a tree row's indent and triangle in one widget
 * (ui/sp-tree-expander.c), in a list view of a chain of rows 40 levels
 * deep with a leaf beside each: the indent grows a level per depth with
 * no widget more, a real click on the triangle (XTEST) closes and opens
 * the row while a click on its text does not, a leaf's triangle room does
 * nothing, GtkTreeExpander's listitem.* actions and keys work, and right
 * to left the triangle goes to the right; a name label given a longer
 * name (a row rebound in a live tree) shows it whole. Saves
 * tree-expander.png and tree-expander-rtl.png. */
#include <gtk/gtk.h>
#include <stdlib.h>

#include "gui-test.h"
#include "pointer-test.h"
#include "sp-name-label.h"
#include "sp-tree-expander.h"
#include "window-test.h"

#define DEPTH    40
#define LEVEL_PX 16

/* Item i of the chain is "level i"; its children: "leaf i+1" (none) and
 * "level i+1" (opens on), so the top of the list has both. */
static GListModel *
children_of (gpointer item,
             gpointer user_data)
{
  const char *name = gtk_string_object_get_string (item);
  int level;

  if (!g_str_has_prefix (name, "level "))
    return NULL;
  level = atoi (name + 6);
  if (level >= DEPTH)
    return NULL;
  {
    g_autofree char *next = g_strdup_printf ("level %d", level + 1);
    g_autofree char *leaf = g_strdup_printf ("leaf %d", level + 1);
    const char *names[] = { leaf, next, NULL };

    return G_LIST_MODEL (gtk_string_list_new (names));
  }
}

static void
setup (GtkSignalListItemFactory *factory,
       GtkListItem *item,
       gpointer data)
{
  GtkWidget *expander = sp_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  sp_tree_expander_set_child (SP_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (item, expander);
}

static void
bind (GtkSignalListItemFactory *factory,
      GtkListItem *item,
      gpointer data)
{
  SpTreeExpander *expander = SP_TREE_EXPANDER (gtk_list_item_get_child (item));
  GtkTreeListRow *row = gtk_list_item_get_item (item);
  GtkStringObject *string = gtk_tree_list_row_get_item (row);
  GtkWidget *child = sp_tree_expander_get_child (expander);

  sp_tree_expander_set_list_row (expander, row);
  if (SP_IS_NAME_LABEL (child))
    sp_name_label_set_name (SP_NAME_LABEL (child), gtk_string_object_get_string (string));
  else
    gtk_label_set_text (GTK_LABEL (child), gtk_string_object_get_string (string));
  g_object_unref (string);
}

typedef struct
{
  GtkWindow        *window;
  GtkListView      *list;
  GtkTreeListModel *tree;
} Fixture;

static void
fixture_set_up (Fixture *f,
                gconstpointer data)
{
  const char *top[] = { "level 0", NULL };
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  g_signal_connect (factory, "setup", G_CALLBACK (setup), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind), NULL);
  /* Every row open: the chain all the way down. */
  f->tree = gtk_tree_list_model_new (G_LIST_MODEL (gtk_string_list_new (top)), FALSE, TRUE, children_of, NULL, NULL);
  f->list = GTK_LIST_VIEW (gtk_list_view_new (GTK_SELECTION_MODEL (gtk_no_selection_new (
                                                g_object_ref (G_LIST_MODEL (f->tree)))), factory));
  f->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_default_size (f->window, 900, 900);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (f->list));
  gtk_window_set_child (f->window, scrolled);
  gtk_window_present (f->window);
  window_test_run (0.5);
}

static void
fixture_tear_down (Fixture *f,
                   gconstpointer data)
{
  gtk_window_destroy (f->window);
  g_object_unref (f->tree);
}

static gboolean
is_expander_of (GtkWidget *widget,
                gconstpointer name)
{
  GtkTreeListRow *row;
  g_autoptr (GtkStringObject) item = NULL;

  if (!SP_IS_TREE_EXPANDER (widget) || !gtk_widget_get_mapped (widget))
    return FALSE;
  row = sp_tree_expander_get_list_row (SP_TREE_EXPANDER (widget));
  item = row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
  return item != NULL && g_strcmp0 (gtk_string_object_get_string (item), name) == 0;
}

/* The expander showing the row named name (mapped). */
static SpTreeExpander *
expander_of (Fixture *f,
             const char *name)
{
  GtkWidget *found = gui_test_find (GTK_WIDGET (f->window), is_expander_of, name);

  g_assert_nonnull (found);
  return SP_TREE_EXPANDER (found);
}

/* Where the child starts in the expander, from its allocation. */
static double
child_x (SpTreeExpander *expander)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (sp_tree_expander_get_child (expander), GTK_WIDGET (expander), &bounds));
  return bounds.origin.x;
}

static guint
n_rows (Fixture *f)
{
  return g_list_model_get_n_items (G_LIST_MODEL (f->tree));
}

static GtkTreeListRow *
row_of (SpTreeExpander *expander)
{
  return sp_tree_expander_get_list_row (expander);
}

/* A level per depth, and the expander the label's only sibling-free
 * parent at any depth (GTK 4.8's made a widget per level). */
static void
test_indent (Fixture *f,
             gconstpointer data)
{
  const char *names[] = { "level 0", "level 1", "leaf 1", "level 5", "leaf 6", "level 7" };

  g_assert_cmpuint (n_rows (f), ==, 2 * DEPTH + 1);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      SpTreeExpander *expander = expander_of (f, names[i]);
      guint depth = gtk_tree_list_row_get_depth (row_of (expander));
      GtkWidget *child = sp_tree_expander_get_child (expander);

      g_assert_cmpint (sp_tree_expander_get_child_offset (expander), ==, (int) (depth + 1) * LEVEL_PX);
      g_assert_cmpfloat (child_x (expander), ==, (depth + 1) * LEVEL_PX);
      g_assert_true (gtk_widget_get_first_child (GTK_WIDGET (expander)) == child);
      g_assert_true (gtk_widget_get_last_child (GTK_WIDGET (expander)) == child);
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (expander)), >=,
                       (int) (depth + 1) * LEVEL_PX + gtk_widget_get_width (child));
    }
  g_assert_cmpuint (gtk_tree_list_row_get_depth (row_of (expander_of (f, "level 7"))), ==, 7);
  gui_test_save_png (GTK_WIDGET (f->window), "tree-expander.png");
}

/* Clicks the middle of the triangle's square (x_in_square 8) or the
 * label's text. */
static void
click_triangle (SpTreeExpander *expander)
{
  int offset = sp_tree_expander_get_child_offset (expander);

  pointer_test_click (GTK_WIDGET (expander), offset - LEVEL_PX / 2.0,
                      gtk_widget_get_height (GTK_WIDGET (expander)) / 2.0, 1);
}

static gboolean
is_shown_expander (GtkWidget *widget,
                   gconstpointer data)
{
  return SP_IS_TREE_EXPANDER (widget) && gtk_widget_get_mapped (widget)
         && sp_tree_expander_get_list_row (SP_TREE_EXPANDER (widget)) != NULL;
}

static void
assert_indents (Fixture *f)
{
  g_autoptr (GPtrArray) shown = gui_test_find_all (GTK_WIDGET (f->window), is_shown_expander, NULL);

  g_assert_cmpuint (shown->len, >, 10);
  for (guint i = 0; i < shown->len; i++)
    {
      SpTreeExpander *expander = shown->pdata[i];

      g_assert_cmpfloat (child_x (expander), ==, (gtk_tree_list_row_get_depth (row_of (expander)) + 1) * LEVEL_PX);
    }
}

static void
test_click (Fixture *f,
            gconstpointer data)
{
  SpTreeExpander *expander;
  GtkTreeListRow *row;

  if (!pointer_test_available (GTK_WIDGET (f->window)))
    {
      g_test_skip ("no XTEST here");
      return;
    }
  pointer_test_raise (f->window);
  expander = expander_of (f, "level 3");
  row = g_object_ref (row_of (expander));
  g_assert_true (gtk_tree_list_row_get_expanded (row));

  /* The triangle closes the row: the chain below it goes. */
  click_triangle (expander);
  window_test_run (0.2);
  g_assert_false (gtk_tree_list_row_get_expanded (row));
  g_assert_cmpuint (n_rows (f), ==, 2 * 3 + 1);
  /* Its text does not open it. */
  expander = expander_of (f, "level 3");
  pointer_test_click_widget (sp_tree_expander_get_child (expander), 1);
  window_test_run (0.2);
  g_assert_false (gtk_tree_list_row_get_expanded (row));
  /* The triangle again opens it. */
  click_triangle (expander);
  window_test_run (0.2);
  g_assert_true (gtk_tree_list_row_get_expanded (row));
  g_assert_cmpuint (n_rows (f), >, 2 * 3 + 1);
  /* The list view gave the rows that went and came other rows' widgets
   * (a removed row's depth drops to 0): each indent is its row's again. */
  assert_indents (f);

  /* A leaf has the triangle's room, not the triangle: nothing happens. */
  expander = expander_of (f, "leaf 2");
  g_assert_false (gtk_tree_list_row_is_expandable (row_of (expander)));
  click_triangle (expander);
  window_test_run (0.2);
  g_assert_false (gtk_tree_list_row_get_expanded (row_of (expander)));
  g_object_unref (row);
}

static void
test_actions_and_keys (Fixture *f,
                       gconstpointer data)
{
  SpTreeExpander *expander = expander_of (f, "level 2");
  GtkTreeListRow *row = g_object_ref (row_of (expander));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (expander), "listitem.collapse", NULL));
  g_assert_false (gtk_tree_list_row_get_expanded (row));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (expander), "listitem.expand", NULL));
  g_assert_true (gtk_tree_list_row_get_expanded (row));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (expander), "listitem.toggle-expand", NULL));
  g_assert_false (gtk_tree_list_row_get_expanded (row));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (expander), "listitem.toggle-expand", NULL));
  g_assert_true (gtk_tree_list_row_get_expanded (row));

  if (pointer_test_available (GTK_WIDGET (f->window)))
    {
      /* A click on the row's text gives the row the focus, which passes
       * it on to the expander (as to GtkTreeExpander): its keys work. */
      pointer_test_raise (f->window);
      expander = expander_of (f, "level 2");
      pointer_test_click_widget (sp_tree_expander_get_child (expander), 1);
      window_test_run (0.2);
      g_assert_true (gtk_widget_has_focus (GTK_WIDGET (expander)));
      pointer_test_key (GTK_WIDGET (f->window), GDK_KEY_minus, 0);
      g_assert_false (gtk_tree_list_row_get_expanded (row));
      pointer_test_key (GTK_WIDGET (f->window), GDK_KEY_KP_Add, 0);
      g_assert_true (gtk_tree_list_row_get_expanded (row));
      pointer_test_key (GTK_WIDGET (f->window), GDK_KEY_Left, GDK_SHIFT_MASK);
      g_assert_false (gtk_tree_list_row_get_expanded (row));
      pointer_test_key (GTK_WIDGET (f->window), GDK_KEY_Right, GDK_SHIFT_MASK);
      g_assert_true (gtk_tree_list_row_get_expanded (row));
    }
  g_object_unref (row);
}

/* Right to left: the indent on the right, the child ending where it starts. */
static void
test_right_to_left (Fixture *f,
                    gconstpointer data)
{
  SpTreeExpander *expander;

  gtk_widget_set_default_direction (GTK_TEXT_DIR_RTL);
  gtk_widget_set_direction (GTK_WIDGET (f->window), GTK_TEXT_DIR_RTL);
  window_test_run (0.3);
  expander = expander_of (f, "level 4");
  g_assert_cmpfloat (child_x (expander) + gtk_widget_get_width (sp_tree_expander_get_child (expander)), ==,
                     gtk_widget_get_width (GTK_WIDGET (expander)) - 5 * LEVEL_PX);
  gui_test_save_png (GTK_WIDGET (f->window), "tree-expander-rtl.png");
  gtk_widget_set_default_direction (GTK_TEXT_DIR_LTR);
}

/* A name label's row (factory of test_longer_name; bound by bind). */
static void
setup_name (GtkSignalListItemFactory *factory,
            GtkListItem *item,
            gpointer data)
{
  GtkWidget *expander = sp_tree_expander_new ();

  sp_tree_expander_set_child (SP_TREE_EXPANDER (expander), sp_name_label_new ());
  gtk_list_item_set_child (item, expander);
}

/* The name label of the row showing name, or NULL. */
static SpNameLabel *
name_label_of (GtkWidget *widget,
               const char *name)
{
  if (SP_IS_NAME_LABEL (widget) && g_strcmp0 (sp_name_label_get_name (SP_NAME_LABEL (widget)), name) == 0)
    return SP_NAME_LABEL (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      SpNameLabel *label = name_label_of (child, name);

      if (label != NULL)
        return label;
    }
  return NULL;
}

typedef struct {
  GtkWidget         *list;
  const char *const *names;
} RowsShown;

/* Each of the names has its row, bound and laid out. */
static gboolean
rows_laid_out (gpointer data)
{
  const RowsShown *shown = data;

  for (guint i = 0; shown->names[i] != NULL; i++)
    {
      SpNameLabel *label = name_label_of (shown->list, shown->names[i]);

      if (label == NULL || gtk_widget_get_width (GTK_WIDGET (label)) == 0)
        return FALSE;
    }
  return TRUE;
}

/* Rows rebound to longer functions (a live tree's rows move to other
 * nodes): the whole name shows where there is room, not as much of it as
 * the short one took (GTK keeps a widget's measured size until it is told
 * the size changed; the name label's text never asks). */
static void
test_longer_name (void)
{
  const char *shorter[] = { "f", "g", "h", NULL };
  const char *longer[] = { "lzma_decode_with_a_rather_long_name (lzma_coder *coder, const uint8_t *in)",
                           "liblzma.so.5.4.1+0x15b65", "liblzma.so.5.4.1+0x15bd6", NULL };
  GtkStringList *names = gtk_string_list_new (shorter);
  GtkTreeListModel *tree = gtk_tree_list_model_new (G_LIST_MODEL (names), FALSE, FALSE, children_of, NULL, NULL);
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  GtkWidget *list;
  SpNameLabel *label = NULL;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_name), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind), NULL);
  list = gtk_list_view_new (GTK_SELECTION_MODEL (gtk_no_selection_new (G_LIST_MODEL (tree))), factory);
  gtk_window_set_child (window, list);
  gtk_window_set_default_size (window, 900, 300);
  gtk_window_present (window);
  g_assert_true (window_test_wait (rows_laid_out, &(RowsShown) { list, shorter }, 10));
  /* One change of every row, as the call tree's batch passes an update. */
  gtk_string_list_splice (names, 0, 3, longer);
  g_assert_true (window_test_wait (rows_laid_out, &(RowsShown) { list, longer }, 10));
  for (guint i = 0; longer[i] != NULL; i++)
    {
      label = name_label_of (list, longer[i]);
      g_assert_cmpstr (sp_name_label_get_text (label), ==, longer[i]);
      /* It has the room its row's indent leaves (the name's tooltip and
       * menu anywhere there), not its natural width of when it was
       * measured. */
      g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (label)), ==,
                       gtk_widget_get_width (gtk_widget_get_parent (GTK_WIDGET (label))) - LEVEL_PX);
    }
  gtk_window_destroy (window);
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;
  g_test_add ("/ui/tree-expander/indent", Fixture, NULL, fixture_set_up, test_indent, fixture_tear_down);
  g_test_add ("/ui/tree-expander/click", Fixture, NULL, fixture_set_up, test_click, fixture_tear_down);
  g_test_add ("/ui/tree-expander/actions-and-keys", Fixture, NULL, fixture_set_up, test_actions_and_keys,
              fixture_tear_down);
  g_test_add ("/ui/tree-expander/right-to-left", Fixture, NULL, fixture_set_up, test_right_to_left,
              fixture_tear_down);
  g_test_add_func ("/ui/tree-expander/longer-name", test_longer_name);
  return g_test_run ();
}
