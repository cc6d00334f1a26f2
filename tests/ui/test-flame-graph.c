/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-flame-graph.c: SpFlameGraph in a real window, under a real (X) display.
 *
 * Checks where frames are (through sp_flame_graph_node_at, which uses the
 * layout the drawing uses), zoom, the icicle orientation and the search
 * highlight (on the rendered pixels), and saves PNGs for review
 * (SP_SCREENSHOT_DIR, or a temporary folder). */
#include <gtk/gtk.h>
#include <string.h>

#include "gui-test.h"
#include "profile-builder.h"
#include "sp-filter.h"
#include "sp-flame-graph.h"

#define WIDTH      400
#define HEIGHT     300
#define ROW_HEIGHT 18


static const char *const lines[] = {
  "main;parse;lex 10",
  "main;parse 5",
  "main;eval 5",
  NULL,
};

typedef struct {
  SpProfile    *profile;
  GtkWindow    *window;
  SpFlameGraph *graph;
  guint         zoom_changes;
} Fixture;

/* The node reached from the root by the names of path ("main;parse"). */
static guint32
find_node (Fixture *f,
           const SpCallTree *tree,
           const char *path)
{
  g_auto (GStrv) names = g_strsplit (path, ";", -1);
  guint32 node = 0;

  for (guint i = 0; names[i] != NULL; i++)
    {
      guint32 c;

      for (c = tree->nodes[node].first_child; c != SP_CALL_TREE_NONE; c = tree->nodes[c].next_sibling)
        if (g_str_equal (sp_profile_get_function (f->profile, tree->nodes[c].function)->name, names[i]))
          break;
      g_assert_cmpuint (c, !=, SP_CALL_TREE_NONE);
      node = c;
    }
  return node;
}

/* Rows counted from the root, which is at the bottom unless icicle. */
static double
row_center (Fixture *f,
            guint row)
{
  double from_root = (row + 0.5) * ROW_HEIGHT;

  return g_object_get_data (G_OBJECT (f->graph), "test-icicle") != NULL
    ? from_root
    : gtk_widget_get_height (GTK_WIDGET (f->graph)) - from_root;
}

static void
set_icicle (Fixture *f,
            gboolean icicle)
{
  sp_flame_graph_set_icicle (f->graph, icicle);
  g_object_set_data (G_OBJECT (f->graph), "test-icicle", icicle ? GINT_TO_POINTER (1) : NULL);
}

static void
on_zoom_changed (SpFlameGraph *graph,
                 Fixture *f)
{
  f->zoom_changes++;
}

/* Lets the window map, lay out and draw. */
static void
wait_for_draw (Fixture *f)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  gint64 settle = 0;

  while (g_get_monotonic_time () < deadline)
    {
      g_main_context_iteration (NULL, FALSE);
      if (gtk_widget_get_mapped (GTK_WIDGET (f->graph)) && gtk_widget_get_width (GTK_WIDGET (f->graph)) == WIDTH)
        {
          if (settle == 0)
            settle = g_get_monotonic_time () + G_USEC_PER_SEC / 5;
          else if (g_get_monotonic_time () > settle)
            return;
        }
      g_usleep (1000);
    }
  g_assert_not_reached ();
}

static void
fixture_setup (Fixture *f,
               SpCallTree *tree)
{
  f->window = GTK_WINDOW (gtk_window_new ());
  f->graph = sp_flame_graph_new ();
  gtk_window_set_default_size (f->window, WIDTH, HEIGHT);
  gtk_window_set_child (f->window, GTK_WIDGET (f->graph));
  sp_flame_graph_set_tree (f->graph, f->profile, tree);
  g_signal_connect (f->graph, "zoom-changed", G_CALLBACK (on_zoom_changed), f);
  gtk_window_present (f->window);
  wait_for_draw (f);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->graph)), ==, WIDTH);
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (f->graph)), ==, HEIGHT);
}

static void
fixture_teardown (Fixture *f)
{
  gtk_window_destroy (f->window);
  g_clear_pointer (&f->profile, sp_profile_unref);
}

static GdkTexture *
render_graph (Fixture *f)
{
  wait_for_draw (f);
  return gui_test_render (GTK_WIDGET (f->graph));
}

/* Saves what the window shows (background included). */
static void
save_screenshot (Fixture *f,
                 const char *name)
{
  wait_for_draw (f);
  gui_test_save_png (GTK_WIDGET (f->window), name);
}

/* The pixel at (x, y) as "rrggbb" (opaque pixels: premultiplied is plain). */
static char *
pixel_at (GdkTexture *texture,
          int x,
          int y)
{
  int width = gdk_texture_get_width (texture);
  int height = gdk_texture_get_height (texture);
  g_autofree guchar *data = g_malloc (width * height * 4);
  const guchar *p;

  g_assert_cmpint (x, <, width);
  g_assert_cmpint (y, <, height);
  gdk_texture_download (texture, data, width * 4);
  p = data + y * width * 4 + x * 4;   /* GDK_MEMORY_DEFAULT: B, G, R, A */
  g_assert_cmpuint (p[3], ==, 255);
  return g_strdup_printf ("%02x%02x%02x", p[2], p[1], p[0]);
}

static void
setup_text_tree (Fixture *f)
{
  f->profile = profile_from_text (lines);
  fixture_setup (f, sp_call_tree_new (f->profile, NULL, NULL, FALSE));
}

/* Root row and "main" full width; parse 15/20 of it, eval the rest; lex
 * 10/20 above parse; nothing over parse's and eval's own samples. */
static void
test_layout (void)
{
  Fixture f = { 0 };
  SpCallTree *tree;
  guint32 root = 0, main_, parse, eval, lex;
  int min, nat;

  f.profile = profile_from_text (lines);
  tree = sp_call_tree_new (f.profile, NULL, NULL, FALSE);
  main_ = find_node (&f, tree, "main");
  parse = find_node (&f, tree, "main;parse");
  eval = find_node (&f, tree, "main;eval");
  lex = find_node (&f, tree, "main;parse;lex");
  fixture_setup (&f, tree);

  gtk_widget_measure (GTK_WIDGET (f.graph), GTK_ORIENTATION_VERTICAL, WIDTH, &min, &nat, NULL, NULL);
  g_assert_cmpint (min, ==, 4 * ROW_HEIGHT);
  g_assert_cmpint (nat, ==, 4 * ROW_HEIGHT);

  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, row_center (&f, 0)), ==, root);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, WIDTH - 1, row_center (&f, 0)), ==, root);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, row_center (&f, 1)), ==, main_);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, WIDTH - 1, row_center (&f, 1)), ==, main_);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, row_center (&f, 2)), ==, parse);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0.75 * WIDTH - 0.5, row_center (&f, 2)), ==, parse);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0.75 * WIDTH + 0.5, row_center (&f, 2)), ==, eval);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, WIDTH - 1, row_center (&f, 2)), ==, eval);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, row_center (&f, 3)), ==, lex);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0.5 * WIDTH - 0.5, row_center (&f, 3)), ==, lex);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0.5 * WIDTH + 0.5, row_center (&f, 3)), ==, SP_CALL_TREE_NONE);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, WIDTH - 1, row_center (&f, 3)), ==, SP_CALL_TREE_NONE);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, row_center (&f, 4)), ==, SP_CALL_TREE_NONE);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, -1, row_center (&f, 0)), ==, SP_CALL_TREE_NONE);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, WIDTH, row_center (&f, 0)), ==, SP_CALL_TREE_NONE);
  save_screenshot (&f, "flame-graph.png");

  /* Cleared: nothing anywhere, no height. */
  sp_flame_graph_set_tree (f.graph, NULL, NULL);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, row_center (&f, 0)), ==, SP_CALL_TREE_NONE);
  gtk_widget_measure (GTK_WIDGET (f.graph), GTK_ORIENTATION_VERTICAL, WIDTH, &min, &nat, NULL, NULL);
  g_assert_cmpint (nat, ==, 0);
  fixture_teardown (&f);
}

/* A 200-frame stack (DWARF unwinding gives such, recursion more): one row
 * each, measured at once (counting rows once took 2^depth steps). */
static void
test_deep (void)
{
  g_autoptr (GString) line = g_string_new (NULL);
  const char *deep_lines[2] = { NULL, NULL };
  SpProfile *profile;
  SpFlameGraph *graph;
  int min, nat;

  for (guint i = 0; i < 200; i++)
    g_string_append_printf (line, "%sf%u", i > 0 ? ";" : "", i);
  g_string_append (line, " 3");
  deep_lines[0] = line->str;
  profile = profile_from_text (deep_lines);
  graph = g_object_ref_sink (sp_flame_graph_new ());
  sp_flame_graph_set_tree (graph, profile, sp_call_tree_new (profile, NULL, NULL, FALSE));
  gtk_widget_measure (GTK_WIDGET (graph), GTK_ORIENTATION_VERTICAL, WIDTH, &min, &nat, NULL, NULL);
  g_assert_cmpint (nat, ==, 201 * ROW_HEIGHT);
  g_object_unref (graph);
  sp_profile_unref (profile);
}

/* Zoomed into parse: parse and its ancestors full width, lex 10/15 of it,
 * eval gone; zoom_to (0) returns. */
static void
test_zoom (void)
{
  Fixture f = { 0 };
  SpCallTree *tree;
  guint32 main_, parse, lex;
  double lex_end = WIDTH * 10.0 / 15;
  int min, nat;

  f.profile = profile_from_text (lines);
  tree = sp_call_tree_new (f.profile, NULL, NULL, FALSE);
  main_ = find_node (&f, tree, "main");
  parse = find_node (&f, tree, "main;parse");
  lex = find_node (&f, tree, "main;parse;lex");
  fixture_setup (&f, tree);
  g_assert_cmpuint (sp_flame_graph_get_zoom (f.graph), ==, 0);

  sp_flame_graph_zoom_to (f.graph, parse);
  g_assert_cmpuint (f.zoom_changes, ==, 1);
  g_assert_cmpuint (sp_flame_graph_get_zoom (f.graph), ==, parse);
  sp_flame_graph_zoom_to (f.graph, parse);
  g_assert_cmpuint (f.zoom_changes, ==, 1);
  wait_for_draw (&f);

  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, WIDTH - 1, row_center (&f, 0)), ==, 0);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, WIDTH - 1, row_center (&f, 1)), ==, main_);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, row_center (&f, 2)), ==, parse);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, WIDTH - 1, row_center (&f, 2)), ==, parse);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, row_center (&f, 3)), ==, lex);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, lex_end - 0.5, row_center (&f, 3)), ==, lex);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, lex_end + 0.5, row_center (&f, 3)), ==, SP_CALL_TREE_NONE);
  gtk_widget_measure (GTK_WIDGET (f.graph), GTK_ORIENTATION_VERTICAL, WIDTH, &min, &nat, NULL, NULL);
  g_assert_cmpint (nat, ==, 4 * ROW_HEIGHT);
  save_screenshot (&f, "flame-graph-zoomed.png");

  /* Zoomed into lex: one row more than lex's depth, nothing beside it. */
  sp_flame_graph_zoom_to (f.graph, lex);
  g_assert_cmpuint (f.zoom_changes, ==, 2);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, WIDTH - 1, row_center (&f, 3)), ==, lex);

  sp_flame_graph_zoom_to (f.graph, 0);
  g_assert_cmpuint (f.zoom_changes, ==, 3);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, WIDTH - 1, row_center (&f, 3)), ==, SP_CALL_TREE_NONE);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, WIDTH - 1, row_center (&f, 2)), !=, parse);

  /* A new tree of the recording (a live update, a filter) stays zoomed
   * into the same function path, quietly. */
  sp_flame_graph_zoom_to (f.graph, parse);
  g_assert_cmpuint (f.zoom_changes, ==, 4);
  {
    g_autoptr (SpFilter) filter = sp_filter_new ();
    SpCallTree *again = sp_call_tree_new (f.profile, NULL, NULL, FALSE);
    SpCallTree *without_parse;

    sp_flame_graph_set_tree (f.graph, f.profile, again);
    g_assert_cmpuint (f.zoom_changes, ==, 4);
    g_assert_cmpuint (sp_flame_graph_get_zoom (f.graph), ==, find_node (&f, again, "main;parse"));
    wait_for_draw (&f);
    g_assert_cmpuint (sp_flame_graph_node_at (f.graph, WIDTH - 1, row_center (&f, 2)),
                      ==, find_node (&f, again, "main;parse"));

    /* Without parse, what is left of the path: main, and it says so. */
    sp_filter_add_function_transform (filter, SP_TRANSFORM_DROP_FUNCTION,
                                      again->nodes[find_node (&f, again, "main;parse")].function);
    without_parse = sp_call_tree_new (f.profile, filter, NULL, FALSE);
    sp_flame_graph_set_tree (f.graph, f.profile, without_parse);
    g_assert_cmpuint (f.zoom_changes, ==, 5);
    g_assert_cmpuint (sp_flame_graph_get_zoom (f.graph), ==, find_node (&f, without_parse, "main"));
  }
  /* No tree, no zoom: the next profile starts afresh. */
  sp_flame_graph_set_tree (f.graph, NULL, NULL);
  g_assert_cmpuint (f.zoom_changes, ==, 6);
  g_assert_cmpuint (sp_flame_graph_get_zoom (f.graph), ==, 0);
  fixture_teardown (&f);
}

/* Icicle: the root row at the top, lex in the fourth row from the top;
 * the property notifies once per change. */
static guint notified;

static void
on_notify (GObject *object,
           GParamSpec *pspec,
           gpointer user_data)
{
  notified++;
}

static void
test_icicle (void)
{
  Fixture f = { 0 };
  SpCallTree *tree;
  gboolean icicle;
  guint32 lex;

  f.profile = profile_from_text (lines);
  tree = sp_call_tree_new (f.profile, NULL, NULL, FALSE);
  lex = find_node (&f, tree, "main;parse;lex");
  fixture_setup (&f, tree);
  g_signal_connect (f.graph, "notify::icicle", G_CALLBACK (on_notify), NULL);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, HEIGHT - 1), ==, 0);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, HEIGHT - 3.5 * ROW_HEIGHT), ==, lex);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, 1), ==, SP_CALL_TREE_NONE);

  notified = 0;
  set_icicle (&f, TRUE);
  set_icicle (&f, TRUE);
  g_assert_cmpuint (notified, ==, 1);
  g_object_get (f.graph, "icicle", &icicle, NULL);
  g_assert_true (icicle);
  wait_for_draw (&f);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, 1), ==, 0);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, 3.5 * ROW_HEIGHT), ==, lex);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, HEIGHT - 1), ==, SP_CALL_TREE_NONE);
  save_screenshot (&f, "flame-graph-icicle.png");

  set_icicle (&f, FALSE);
  g_assert_cmpuint (notified, ==, 2);
  g_assert_cmpuint (sp_flame_graph_node_at (f.graph, 0, HEIGHT - 1), ==, 0);
  fixture_teardown (&f);
}

/* A search paints matches magenta and fades the rest. */
static void
test_search (void)
{
  Fixture f = { 0 };
  g_autoptr (GdkTexture) before = NULL;
  g_autoptr (GdkTexture) after = NULL;
  g_autoptr (GdkTexture) cleared = NULL;
  /* Right ends of the frames, one pixel below their top: no label there. */
  int lex_x = WIDTH / 2 - 10, eval_x = WIDTH - 10;
  int lex_y, eval_y;
  g_autofree char *lex_before = NULL, *lex_after = NULL, *lex_cleared = NULL;
  g_autofree char *eval_before = NULL, *eval_after = NULL;
  guint r, g, b;

  setup_text_tree (&f);
  lex_y = HEIGHT - 4 * ROW_HEIGHT + 1;
  eval_y = HEIGHT - 3 * ROW_HEIGHT + 1;
  before = render_graph (&f);
  sp_flame_graph_set_search (f.graph, "lex");
  after = render_graph (&f);
  sp_flame_graph_set_search (f.graph, "");
  cleared = render_graph (&f);

  lex_before = pixel_at (before, lex_x, lex_y);
  lex_after = pixel_at (after, lex_x, lex_y);
  lex_cleared = pixel_at (cleared, lex_x, lex_y);
  eval_before = pixel_at (before, eval_x, eval_y);
  eval_after = pixel_at (after, eval_x, eval_y);
  g_test_message ("lex %s -> %s, eval %s -> %s", lex_before, lex_after, eval_before, eval_after);
  g_assert_cmpstr (lex_after, !=, lex_before);
  g_assert_cmpint (sscanf (lex_after, "%2x%2x%2x", &r, &g, &b), ==, 3);
  g_assert_cmpuint (r, >, g + 80);                  /* magenta, the match colour */
  g_assert_cmpuint (b, >, g + 80);
  g_assert_cmpstr (eval_after, !=, eval_before);
  g_assert_cmpstr (lex_cleared, ==, lex_before);

  sp_flame_graph_set_search (f.graph, "e");  /* parse, eval (and lex) */
  save_screenshot (&f, "flame-graph-search.png");
  fixture_teardown (&f);
}

/* A tree written as "module!name" paths, for functions of every kind:
 * a "[...]" module is the kernel's, a "[...]" name an unresolved or
 * truncated frame, anything else program or library code. */
static SpCallTree *
tree_of_kinds (SpProfile *profile,
               const char *const *paths)
{
  g_autoptr (GArray) nodes = g_array_new (FALSE, FALSE, sizeof (SpCallTreeNode));
  SpCallTreeNode root = { SP_CALL_TREE_NONE, SP_CALL_TREE_NONE, SP_CALL_TREE_NONE, SP_CALL_TREE_NONE, 0, 0, 0 };
  SpCallTree *tree = g_new0 (SpCallTree, 1);

  g_array_append_val (nodes, root);
  for (guint i = 0; paths[i] != NULL; i++)
    {
      g_auto (GStrv) words = g_strsplit (paths[i], " ", 2);
      g_auto (GStrv) frames = g_strsplit (words[0], ";", -1);
      guint64 count = g_ascii_strtoull (words[1], NULL, 10);
      guint32 node = 0;

      g_array_index (nodes, SpCallTreeNode, 0).total += count;
      for (guint j = 0; frames[j] != NULL; j++)
        {
          g_auto (GStrv) parts = g_strsplit (frames[j], "!", 2);
          SpFunctionKind kind = SP_FUNCTION_USER;
          guint32 function, c;

          if (parts[1][0] == '[')
            kind = g_str_equal (parts[1], "[truncated]") ? SP_FUNCTION_TRUNCATED : SP_FUNCTION_UNRESOLVED;
          else if (parts[0][0] == '[')
            kind = SP_FUNCTION_KERNEL;
          function = sp_profile_intern_function (profile, parts[1], parts[0], kind);
          for (c = g_array_index (nodes, SpCallTreeNode, node).first_child; c != SP_CALL_TREE_NONE;
               c = g_array_index (nodes, SpCallTreeNode, c).next_sibling)
            if (g_array_index (nodes, SpCallTreeNode, c).function == function)
              break;
          if (c == SP_CALL_TREE_NONE)
            {
              SpCallTreeNode *parent = &g_array_index (nodes, SpCallTreeNode, node);
              SpCallTreeNode child = { function, node, SP_CALL_TREE_NONE, parent->first_child, 0, 0, 0 };

              c = nodes->len;
              parent->first_child = c;
              parent->n_children++;
              g_array_append_val (nodes, child);
            }
          node = c;
          g_array_index (nodes, SpCallTreeNode, node).total += count;
        }
      g_array_index (nodes, SpCallTreeNode, node).self += count;
    }
  tree->n_nodes = nodes->len;
  tree->n_functions = sp_profile_get_n_functions (profile);
  tree->nodes = (SpCallTreeNode *) g_array_free (g_steal_pointer (&nodes), FALSE);
  sp_call_tree_sort_children (tree);
  return tree;
}

static const char *const kind_paths[] = {
  "app!main;app!run_parser;app!parse_expression;app!lex_token;libc.so.6!memchr 30",
  "app!main;app!run_parser;app!parse_expression;app!parse_term 20",
  "app!main;app!run_parser;libc.so.6!malloc;libc.so.6!_int_malloc 12",
  "app!main;app!evaluate;libm.so.6!exp 15",
  "app!main;app!evaluate;app!write_output;libc.so.6!write;[kernel.kallsyms]!ksys_write;[kernel.kallsyms]!vfs_write 10",
  "app!main;app!evaluate;app![unknown] 5",
  "app![truncated];app!lex_token 6",
  "app!main;app!tiny 1",
  NULL,
};

/* Each kind its colour; a library differs from the program. */
static void
test_colours (void)
{
  Fixture f = { 0 };
  const char *const one[] = { "main 1", NULL };
  g_autoptr (GdkTexture) texture = NULL;
  g_autofree char *main_px = NULL, *libc_px = NULL, *kernel_px = NULL, *unknown_px = NULL;
  guint r, g, b, r2, g2, b2;

  f.profile = profile_from_text (one);
  fixture_setup (&f, tree_of_kinds (f.profile, kind_paths));
  sp_flame_graph_set_icicle (f.graph, TRUE);
  save_screenshot (&f, "flame-graph-colours.png");
  texture = render_graph (&f);

  /* Rows from the top: root, main / [truncated], run_parser / evaluate, … */
  main_px = pixel_at (texture, 5, ROW_HEIGHT + 1);
  libc_px = pixel_at (texture, 100, 5 * ROW_HEIGHT + 1);             /* memchr over lex_token */
  kernel_px = pixel_at (texture, WIDTH - 60, 5 * ROW_HEIGHT + 1);    /* ksys_write */
  unknown_px = pixel_at (texture, WIDTH - 40, 3 * ROW_HEIGHT + 1);   /* [unknown] beside write_output */
  g_test_message ("main %s, libc %s, kernel %s, unknown %s", main_px, libc_px, kernel_px, unknown_px);
  g_assert_cmpint (sscanf (main_px, "%2x%2x%2x", &r, &g, &b), ==, 3);
  g_assert_cmpuint (r, >, b);                          /* warm */
  g_assert_cmpint (sscanf (libc_px, "%2x%2x%2x", &r2, &g2, &b2), ==, 3);
  g_assert_cmpuint (r2, >, b2);
  /* Another module, another hue: clearly apart, not only a shade. */
  g_assert_cmpuint (ABS ((int) r - (int) r2) + ABS ((int) g - (int) g2) + ABS ((int) b - (int) b2), >, 40);
  g_assert_cmpint (sscanf (kernel_px, "%2x%2x%2x", &r, &g, &b), ==, 3);
  g_assert_cmpuint (b, >, r);                          /* cool */
  g_assert_cmpint (sscanf (unknown_px, "%2x%2x%2x", &r, &g, &b), ==, 3);
  g_assert_cmpuint (r, ==, g);                         /* grey */
  g_assert_cmpuint (g, ==, b);
  fixture_teardown (&f);
}

/* A stack as deep as perf records (127 frames): one row per frame, in a
 * scrolled window as the app has it, and the tree is set at once (counting
 * rows once took time doubling with each level: deep recordings froze the
 * window). */
static void
test_deep_zoomed (void)
{
  g_autoptr (GString) stack = g_string_new (NULL);
  const char *deep[] = { NULL, NULL };
  SpProfile *profile;
  SpCallTree *tree;
  GtkWindow *window = GTK_WINDOW (gtk_window_new ());
  GtkWidget *scroller = gtk_scrolled_window_new ();
  SpFlameGraph *graph = sp_flame_graph_new ();
  g_autoptr (GdkTexture) texture = NULL;
  GtkAdjustment *adjustment;
  guint32 n_nodes;
  gint64 start;
  int min, nat, height;

  for (guint i = 0; i < 127; i++)
    g_string_append_printf (stack, "%sframe_%u", i > 0 ? ";" : "", i);
  g_string_append (stack, " 3");
  deep[0] = stack->str;
  profile = profile_from_text (deep);
  tree = sp_call_tree_new (profile, NULL, NULL, FALSE);
  n_nodes = tree->n_nodes;
  g_assert_cmpuint (n_nodes, ==, 128);
  gtk_window_set_default_size (window, WIDTH, HEIGHT);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (graph));
  gtk_window_set_child (window, scroller);
  gtk_window_present (window);

  start = g_get_monotonic_time ();
  sp_flame_graph_set_tree (graph, profile, tree);
  gtk_widget_measure (GTK_WIDGET (graph), GTK_ORIENTATION_VERTICAL, WIDTH, &min, &nat, NULL, NULL);
  g_test_message ("set and measured in %.3f s", (g_get_monotonic_time () - start) / 1e6);
  g_assert_cmpint (min, ==, 128 * ROW_HEIGHT);
  sp_flame_graph_zoom_to (graph, n_nodes / 2);
  gtk_widget_measure (GTK_WIDGET (graph), GTK_ORIENTATION_VERTICAL, WIDTH, &min, &nat, NULL, NULL);
  g_assert_cmpint (min, ==, 128 * ROW_HEIGHT);
  gui_test_save_png (GTK_WIDGET (window), "flame-graph-deep.png");

  /* The graph scrolls itself: it gets the view's height, the adjustment
   * the rows', and it starts with the roots in view. */
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  height = gtk_widget_get_height (GTK_WIDGET (graph));
  g_assert_cmpint (height, <=, HEIGHT);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), ==, 128 * ROW_HEIGHT);
  g_assert_cmpfloat (gtk_adjustment_get_page_size (adjustment), ==, height);
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 128 * ROW_HEIGHT - height);
  g_assert_cmpuint (sp_flame_graph_node_at (graph, 1, height - ROW_HEIGHT / 2), ==, 0);
  g_assert_cmpuint (sp_flame_graph_node_at (graph, 1, ROW_HEIGHT / 2), ==, (height - ROW_HEIGHT / 2) / ROW_HEIGHT);

  /* Scrolled to the far end, the deepest frames are there and drawn (only
   * the rows in view and a margin are, so they were not before). */
  gtk_adjustment_set_value (adjustment, 0);
  g_assert_cmpuint (sp_flame_graph_node_at (graph, 1, ROW_HEIGHT / 2), ==, 127);
  texture = gui_test_render (GTK_WIDGET (graph));
  g_free (pixel_at (texture, WIDTH / 2, ROW_HEIGHT / 2));  /* asserts an opaque pixel: drawn */
  g_free (pixel_at (texture, WIDTH / 2, height - ROW_HEIGHT / 2));
  gui_test_save_png (GTK_WIDGET (window), "flame-graph-deep-scrolled.png");

  gtk_window_destroy (window);
  sp_profile_unref (profile);
}

/* Enter in the search: the heaviest match first, then the next heaviest,
 * wrapping around; a new text starts again from the heaviest. */
static void
test_search_next (void)
{
  static const char *const leaves[] = {
    "main;a;x_leaf 5",
    "main;b;x_leaf 20",
    "main;c;y_leaf 10",
    NULL,
  };
  Fixture f = { 0 };
  SpCallTree *tree;
  guint32 a, b, c;

  f.profile = profile_from_text (leaves);
  tree = sp_call_tree_new (f.profile, NULL, NULL, FALSE);
  a = find_node (&f, tree, "main;a;x_leaf");
  b = find_node (&f, tree, "main;b;x_leaf");
  c = find_node (&f, tree, "main;c;y_leaf");
  fixture_setup (&f, tree);

  g_assert_true (sp_flame_graph_search_next (f.graph, "leaf"));
  g_assert_cmpuint (sp_flame_graph_get_zoom (f.graph), ==, b);
  g_assert_true (sp_flame_graph_search_next (f.graph, "leaf"));
  g_assert_cmpuint (sp_flame_graph_get_zoom (f.graph), ==, c);
  g_assert_true (sp_flame_graph_search_next (f.graph, "leaf"));
  g_assert_cmpuint (sp_flame_graph_get_zoom (f.graph), ==, a);
  g_assert_true (sp_flame_graph_search_next (f.graph, "leaf"));
  g_assert_cmpuint (sp_flame_graph_get_zoom (f.graph), ==, b);
  g_assert_true (sp_flame_graph_search_next (f.graph, "x_"));
  g_assert_cmpuint (sp_flame_graph_get_zoom (f.graph), ==, b);
  g_assert_true (sp_flame_graph_search_next (f.graph, "x_"));
  g_assert_cmpuint (sp_flame_graph_get_zoom (f.graph), ==, a);
  g_assert_false (sp_flame_graph_search_next (f.graph, "nothing"));
  g_assert_cmpuint (sp_flame_graph_get_zoom (f.graph), ==, a);
  fixture_teardown (&f);
}

/* The tooltip says samples for samples and times for a time metric:
 * offcpu_example's thread 2 waits 30 ms in pipe_wait, of 45 ms off the
 * CPU; thread 1 has 10 samples in spin. */
static void
test_time_metric (void)
{
  Fixture f = { 0 };
  g_autoptr (SpFilter) filter = sp_filter_new ();
  SpCallTree *tree;
  g_autofree char *cpu = NULL;
  g_autofree char *off_cpu = NULL;
  g_autofree char *root = NULL;

  f.profile = profile_from_text (offcpu_example);
  tree = sp_call_tree_new (f.profile, NULL, NULL, FALSE);
  fixture_setup (&f, tree);
  cpu = sp_flame_graph_describe (f.graph, find_node (&f, tree, "main;spin"));
  g_assert_true (g_str_has_suffix (cpu, "\nSelf: 10 samples (100.0%)\nTotal: 10 samples (100.0%)"));

  sp_filter_set_metric (filter, SP_METRIC_OFF_CPU);
  tree = sp_call_tree_new (f.profile, filter, NULL, FALSE);
  sp_flame_graph_set_tree (f.graph, f.profile, tree);
  off_cpu = sp_flame_graph_describe (f.graph, find_node (&f, tree, "main;pipe_wait"));
  g_test_message ("%s", off_cpu);
  g_assert_true (g_str_has_suffix (off_cpu, "\nSelf: 30.0 ms (66.7%)\nTotal: 30.0 ms (66.7%)"));
  root = sp_flame_graph_describe (f.graph, 0);
  g_assert_cmpstr (root, ==, "<b>all off-CPU time</b>\nSelf: 0 s (0.0%)\nTotal: 45.0 ms (100.0%)");
  save_screenshot (&f, "flame-graph-off-cpu.png");
  fixture_teardown (&f);
}

int
main (int argc,
      char **argv)
{
  if (!gui_test_init (&argc, &argv))
    return 0;

  g_test_add_func ("/ui/flame-graph/layout", test_layout);
  g_test_add_func ("/ui/flame-graph/time-metric", test_time_metric);
  g_test_add_func ("/ui/flame-graph/zoom", test_zoom);
  g_test_add_func ("/ui/flame-graph/deep", test_deep);
  g_test_add_func ("/ui/flame-graph/icicle", test_icicle);
  g_test_add_func ("/ui/flame-graph/search", test_search);
  g_test_add_func ("/ui/flame-graph/search-next", test_search_next);
  g_test_add_func ("/ui/flame-graph/colours", test_colours);
  g_test_add_func ("/ui/flame-graph/deep-zoomed", test_deep_zoomed);
  return g_test_run ();
}
