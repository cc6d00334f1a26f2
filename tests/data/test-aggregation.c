/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-aggregation.c: call trees, function lists, filters and transforms.
 *
 * Profiles are written from text ("main;parse;lex 10") through the real
 * writer, reader and symbolizer; results are compared as text too: the
 * collapsed stacks after a transform, or a tree printed one node a line. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "profile-builder.h"
#include "sp-call-tree.h"
#include "sp-export.h"
#include "sp-filter.h"
#include "sp-function-list.h"
#include "sp-stack-counts.h"
#include "sp-symbolizer.h"

static const char *const basic[] = {
  "main;parse;lex 10",
  "main;parse 5",
  "main;eval;lex 3",
  "main;eval;eval;eval 2",
  "main 1",
  NULL,
};

static guint32
function_named (SpProfile *profile,
                const char *name)
{
  g_autoptr (GArray) found = sp_profile_find_functions (profile, name);

  g_assert_cmpuint (found->len, ==, 1);
  return g_array_index (found, guint32, 0);
}

/* "name total/self" for each node, depth-first, children by total. */
static void
print_tree (SpProfile *profile,
            const SpCallTree *tree,
            guint32 node,
            guint depth,
            GString *out)
{
  g_autoptr (GArray) children = sp_call_tree_get_children (tree, node);

  for (guint i = 0; i < children->len; i++)
    {
      const SpCallTreeNode *n = &tree->nodes[g_array_index (children, guint32, i)];

      g_string_append_printf (out, "%*s%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "\n", (int) depth * 2, "",
                              sp_profile_get_function (profile, n->function)->name, n->total, n->self);
      print_tree (profile, tree, g_array_index (children, guint32, i), depth + 1, out);
    }
}

static char *
tree_text (SpProfile *profile,
           const SpFilter *filter,
           gboolean bottom_up)
{
  g_autoptr (SpCallTree) tree = sp_call_tree_new (profile, filter, NULL, bottom_up);
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "all %" G_GUINT64_FORMAT "\n", tree->nodes[0].total);
  print_tree (profile, tree, 0, 1, out);
  return g_string_free (out, FALSE);
}

static void
test_top_down (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autofree char *text = tree_text (profile, NULL, FALSE);

  g_assert_cmpstr (text, ==,
                   "all 21\n"
                   "  main 21/1\n"
                   "    parse 15/5\n"
                   "      lex 10/10\n"
                   "    eval 5/0\n"
                   "      lex 3/3\n"
                   "      eval 2/0\n"
                   "        eval 2/2\n");
}

static void
test_bottom_up (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autofree char *text = tree_text (profile, NULL, TRUE);

  g_assert_cmpstr (text, ==,
                   "all 21\n"
                   "  lex 13/13\n"
                   "    parse 10/0\n"
                   "      main 10/0\n"
                   "    eval 3/0\n"
                   "      main 3/0\n"
                   "  parse 5/5\n"
                   "    main 5/0\n"
                   "  eval 2/2\n"
                   "    eval 2/0\n"
                   "      eval 2/0\n"
                   "        main 2/0\n"
                   "  main 1/1\n");
}

static void
test_function_list (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autoptr (GArray) list = sp_function_list_new (profile, NULL, NULL);
  GString *out = g_string_new (NULL);
  g_autofree char *text = NULL;

  for (guint i = 0; i < list->len; i++)
    {
      const SpFunctionCost *c = &g_array_index (list, SpFunctionCost, i);

      g_string_append_printf (out, "%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "\n",
                              sp_profile_get_function (profile, c->function)->name, c->self, c->total);
    }
  text = g_string_free (out, FALSE);
  /* Recursion counts once in total: eval is on 5 stacks' worth of samples. */
  g_assert_cmpstr (text, ==, "lex 13/13\nparse 5/15\neval 2/5\nmain 1/21\n");
}

static void
test_callers_callees (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autoptr (GArray) callers = NULL;
  g_autoptr (GArray) callees = NULL;
  SpFunctionCost cost;
  g_autoptr (GArray) all = sp_function_list_new (profile, NULL, NULL);
  guint32 lex = function_named (profile, "lex");
  guint32 main_fn = function_named (profile, "main");

  sp_function_list_callers_callees (profile, NULL, NULL, lex, &cost, &callers, &callees);
  g_assert_cmpuint (cost.total, ==, 13);
  g_assert_cmpuint (cost.self, ==, 13);
  g_assert_cmpuint (callers->len, ==, 2);
  g_assert_cmpuint (g_array_index (callers, SpFunctionCost, 0).function, ==, function_named (profile, "parse"));
  g_assert_cmpuint (g_array_index (callers, SpFunctionCost, 0).total, ==, 10);
  g_assert_cmpuint (g_array_index (callers, SpFunctionCost, 1).total, ==, 3);
  g_assert_cmpuint (callees->len, ==, 0);
  g_clear_pointer (&callers, g_array_unref);
  g_clear_pointer (&callees, g_array_unref);

  sp_function_list_callers_callees (profile, NULL, NULL, main_fn, &cost, &callers, &callees);
  g_assert_cmpuint (cost.total, ==, 21);
  g_assert_cmpuint (cost.self, ==, 1);
  g_assert_cmpuint (callers->len, ==, 1);
  g_assert_cmpuint (g_array_index (callers, SpFunctionCost, 0).function, ==, SP_FUNCTION_LIST_ROOT);
  g_assert_cmpuint (callees->len, ==, 2);
  g_assert_cmpuint (g_array_index (callees, SpFunctionCost, 0).total, ==, 15);
}

/* A path taken from one tree leads to the same functions in another (a
 * rebuilt tree numbers its nodes differently), as far as that one has it. */
static void
test_find_path (void)
{
  static const char *const fewer[] = { "main;eval;lex 1", "main;parse 1", NULL };
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autoptr (SpCallTree) tree = sp_call_tree_new (profile, NULL, NULL, FALSE);
  g_autoptr (SpCallTree) bottom_up = sp_call_tree_new (profile, NULL, NULL, TRUE);
  guint32 main_fn = function_named (profile, "main");
  guint32 eval = function_named (profile, "eval");
  guint32 lex = function_named (profile, "lex");
  guint32 path[] = { main_fn, eval, eval, eval };
  guint32 missing[] = { main_fn, lex };
  guint32 inverted[] = { lex, eval, main_fn };
  guint n_found = 99;
  guint32 node = sp_call_tree_find_path (tree, path, G_N_ELEMENTS (path), &n_found);
  g_autoptr (GArray) back = sp_call_tree_get_path (tree, node);

  g_assert_cmpuint (n_found, ==, 4);
  g_assert_cmpuint (back->len, ==, 4);
  g_assert_cmpmem (back->data, back->len * sizeof (guint32), path, sizeof path);
  g_assert_cmpuint (tree->nodes[node].total, ==, 2);

  /* main has no lex child: main itself, one function found. */
  node = sp_call_tree_find_path (tree, missing, G_N_ELEMENTS (missing), &n_found);
  g_assert_cmpuint (n_found, ==, 1);
  g_assert_cmpuint (tree->nodes[node].function, ==, main_fn);
  g_assert_cmpuint (sp_call_tree_find_path (tree, inverted, 3, &n_found), ==, 0);
  g_assert_cmpuint (n_found, ==, 0);

  /* Bottom-up paths go from the leaf outwards. */
  node = sp_call_tree_find_path (bottom_up, inverted, 3, &n_found);
  g_assert_cmpuint (n_found, ==, 3);
  g_assert_cmpuint (bottom_up->nodes[node].total, ==, 3);

  /* Another profile, another numbering: the same path. */
  {
    g_autoptr (SpProfile) other = profile_from_text (fewer);
    g_autoptr (SpCallTree) other_tree = sp_call_tree_new (other, NULL, NULL, FALSE);
    guint32 other_path[] = { function_named (other, "main"), function_named (other, "eval"),
                             function_named (other, "lex") };

    node = sp_call_tree_find_path (other_tree, other_path, 3, &n_found);
    g_assert_cmpuint (n_found, ==, 3);
    g_assert_cmpuint (other_tree->nodes[node].total, ==, 1);
    g_assert_cmpuint (other_tree->nodes[node].function, ==, other_path[2]);
  }
}

/* One transform on the basic profile, checked as collapsed stacks. */
typedef struct {
  const char      *name;
  SpTransformKind  kind;
  const char      *function;   /* or the module, for COLLAPSE_MODULE */
  const char      *expected;
} TransformCase;

static const TransformCase transform_cases[] = {
  /* Rooted at the outermost eval: main;eval;eval;eval -> eval;eval;eval. */
  { "focus-function", SP_TRANSFORM_FOCUS_FUNCTION, "eval",
    "eval;eval;eval 2\neval;lex 3\n" },
  { "merge-function", SP_TRANSFORM_MERGE_FUNCTION, "parse",
    "main 6\nmain;eval;eval;eval 2\nmain;eval;lex 3\nmain;lex 10\n" },
  { "drop-function", SP_TRANSFORM_DROP_FUNCTION, "lex",
    "main 1\nmain;eval;eval;eval 2\nmain;parse 5\n" },
  { "collapse-recursion", SP_TRANSFORM_COLLAPSE_RECURSION, "eval",
    "main 1\nmain;eval 2\nmain;eval;lex 3\nmain;parse 5\nmain;parse;lex 10\n" },
  { "collapse-module", SP_TRANSFORM_COLLAPSE_MODULE, "[kernel.kallsyms]",
    "[[kernel.kallsyms]] 21\n" },
};

static void
test_transform (gconstpointer data)
{
  const TransformCase *c = data;
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autoptr (SpFilter) filter = sp_filter_new ();
  g_autoptr (GArray) all = sp_function_list_new (profile, NULL, NULL);
  g_autofree char *text = NULL;
  g_autofree char *undone = NULL;
  g_autofree char *original = collapsed_of (profile, NULL);

  if (c->kind == SP_TRANSFORM_COLLAPSE_MODULE)
    sp_filter_add_collapse_module (filter, c->function);
  else
    sp_filter_add_function_transform (filter, c->kind, function_named (profile, c->function));
  text = collapsed_of (profile, filter);
  g_assert_cmpstr (text, ==, c->expected);

  /* The breadcrumb's undo gives the original back. */
  g_assert_true (sp_filter_pop_transform (filter));
  g_assert_false (sp_filter_pop_transform (filter));
  undone = collapsed_of (profile, filter);
  g_assert_cmpstr (undone, ==, original);
}

/* A name with a function in two modules (a program and a copy of it
 * linked by LLD): focused on by name (the report's --focus), the stacks
 * through either are kept, each rooted at it. Focused on one after the
 * other, they would have to go through both. */
static void
test_focus_functions (void)
{
  const char *target = g_getenv ("SP_SYMBOLIZER_TARGET");
  const char *lld = g_getenv ("SP_SYMBOLIZER_TARGET_LLD");
  g_autofree char *in_target = NULL;
  g_autofree char *in_lld = NULL;
  g_autofree char *elsewhere = NULL;
  g_autoptr (SpProfile) profile = NULL;
  g_autoptr (GArray) matches = NULL;
  g_autoptr (SpFilter) filter = sp_filter_new ();
  g_autofree char *text = NULL;

  g_assert_nonnull (target);
  g_assert_nonnull (lld);
  in_target = g_strdup_printf ("%s!main;%s!sp_target_caller;%s!sp_target_leaf 3", target, target, target);
  in_lld = g_strdup_printf ("%s!main;%s!sp_target_leaf 2", lld, lld);
  elsewhere = g_strdup_printf ("%s!main;%s!sp_target_caller 4", lld, lld);
  {
    const char *lines[] = { in_target, in_lld, elsewhere, NULL };

    profile = profile_from_text (lines);
  }
  g_array_unref (sp_function_list_new (profile, NULL, NULL));
  matches = sp_profile_find_functions (profile, "sp_target_leaf");
  g_assert_cmpuint (matches->len, ==, 2);
  sp_filter_add_focus_functions (filter, (const guint32 *) (gpointer) matches->data, matches->len);
  text = collapsed_of (profile, filter);
  g_assert_cmpstr (text, ==, "sp_target_leaf 5\n");
}

/* The least total a node needs for a share: rounded up, so that a node
 * just under the share (4 of 999 for 0.5%) is left out, one at it kept. */
static void
test_min_total (void)
{
  g_assert_cmpuint (sp_call_tree_min_total (0.005, 1000), ==, 5);
  g_assert_cmpuint (sp_call_tree_min_total (0.005, 999), ==, 5);
  g_assert_cmpuint (sp_call_tree_min_total (0.005, 1001), ==, 6);
  g_assert_cmpuint (sp_call_tree_min_total (0.001, 300000), ==, 300);
  g_assert_cmpuint (sp_call_tree_min_total (0.5, 3), ==, 2);
  g_assert_cmpuint (sp_call_tree_min_total (0, 100), ==, 1);
  g_assert_cmpuint (sp_call_tree_min_total (0.005, 0), ==, 1);
}

static void
test_focus_subtree (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autoptr (SpFilter) filter = sp_filter_new ();
  g_autoptr (GArray) all = sp_function_list_new (profile, NULL, NULL);
  guint32 path[] = { function_named (profile, "main"), function_named (profile, "eval") };
  g_autofree char *text = NULL;

  sp_filter_add_focus_subtree (filter, path, G_N_ELEMENTS (path));
  text = collapsed_of (profile, filter);
  g_assert_cmpstr (text, ==, "eval;eval;eval 2\neval;lex 3\n");
}

static void
test_combined_transforms (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autoptr (SpFilter) filter = sp_filter_new ();
  g_autoptr (GArray) all = sp_function_list_new (profile, NULL, NULL);
  g_autofree char *text = NULL;

  sp_filter_add_function_transform (filter, SP_TRANSFORM_MERGE_FUNCTION, function_named (profile, "main"));
  sp_filter_add_function_transform (filter, SP_TRANSFORM_DROP_FUNCTION, function_named (profile, "parse"));
  text = collapsed_of (profile, filter);
  /* "main 1" merged away leaves an empty stack: that sample goes. */
  g_assert_cmpstr (text, ==, "eval;eval;eval 2\neval;lex 3\n");
}

static const char *const threads_and_time[] = {
  "@1 main;a 10 +1",
  "@2 main;b 10 +1",
  "@1 main;c 10 +1",
  NULL,
};

static void
test_thread_filter (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (threads_and_time);
  g_autoptr (SpFilter) filter = sp_filter_new ();
  g_autofree char *text = NULL;

  /* Thread records are interned in order of first use: 0 is tid 1. */
  sp_filter_hide_thread (filter, 0);
  text = collapsed_of (profile, filter);
  g_assert_cmpstr (text, ==, "main;b 10\n");
  g_assert_cmpstr (sp_profile_get_thread_name (profile, 1), ==, "main-thread");
}

static void
test_time_range (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (threads_and_time);
  g_autoptr (SpFilter) filter = sp_filter_new ();
  guint64 t0 = sp_spool_reader_get_sample_timestamp (sp_profile_get_reader (profile), 0);
  g_autofree char *text = NULL;
  g_autoptr (SpStackCounts) counts = NULL;

  /* Samples 1 ms apart: [5 ms, 15 ms) holds 5 of a and 5 of b. */
  sp_filter_set_time_range (filter, t0 + 5000000, t0 + 15000000);
  text = collapsed_of (profile, filter);
  g_assert_cmpstr (text, ==, "main;a 5\nmain;b 5\n");
  counts = sp_stack_counts_new (profile, filter);
  g_assert_cmpuint (counts->n_samples, ==, 10);
}

static const char *const names[] = {
  "main;<i32_as_PartialOrd>::lt 1",
  "main;__handle_mm_fault 1",
  "main;exc_page_fault 1",
  "main;spin.constprop.0 1",
  "main;_raw_spin_unlock_irqrestore 1",
  "main;calc::work(long,int) 1",
  "main;main.(*T).Run 1",
  "main;runtime.mallocgc 1",
  NULL,
};

static int
sort_by_name (gconstpointer a,
              gconstpointer b,
              gpointer data)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* The names of the functions a typed name finds, " "-joined, sorted. */
static char *
found_names (SpProfile *profile,
             const char *name)
{
  g_autoptr (GArray) found = sp_profile_find_functions (profile, name);
  g_autoptr (GPtrArray) list = g_ptr_array_new ();
  g_autofree const char **sorted = NULL;

  for (guint i = 0; i < found->len; i++)
    g_ptr_array_add (list, (gpointer) sp_profile_get_function (profile, g_array_index (found, guint32, i))->name);
  g_ptr_array_add (list, NULL);
  sorted = (const char **) g_ptr_array_free (g_steal_pointer (&list), FALSE);
  g_qsort_with_data (sorted, (gint) found->len, sizeof (char *), (GCompareDataFunc) sort_by_name, NULL);
  return g_strjoinv (" ", (char **) sorted);
}

/* A typed name: exact, then the last path component, then without a
 * compiler suffix, then a substring; the best tier only. */
static void
test_find_functions (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (names);
  const struct {
    const char *name;
    const char *found;
  } cases[] = {
    { "lt", "<i32_as_PartialOrd>::lt" },
    { "spin", "spin.constprop.0" },
    { "spin.constprop.0", "spin.constprop.0" },
    { "_spin_", "_raw_spin_unlock_irqrestore" },
    { "fault", "__handle_mm_fault exc_page_fault" },
    { "work", "calc::work(long,int)" },
    { "calc::work(long, int)", "calc::work(long,int)" },
    { "_ZN4calc4workEli", "calc::work(long,int)" },
    { "Run", "main.(*T).Run" },
    { "mallocgc", "runtime.mallocgc" },
    { "", "" },
    { "nothing", "" },
  };

  /* Functions get their ids as frames are resolved. */
  g_array_unref (sp_function_list_new (profile, NULL, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *found = found_names (profile, cases[i].name);

      g_assert_cmpstr (found, ==, cases[i].found);
    }
}

/* The leaf rule: a frame's address is exact (the instruction that ran)
 * for the leaf and for a user frame right under kernel frames (the
 * interrupted instruction); any other is a return address, looked up one
 * byte before. A frame at a function's first byte is that function when
 * exact, and not when it is a return address (the call before it). */
static void
test_exact_frames (void)
{
  const char *target = g_getenv ("SP_SYMBOLIZER_TARGET");
  g_autofree char *faulted = g_strdup_printf ("%s!main;%s!sp_target_caller+0;asm_exc_page_fault 2", target, target);
  g_autofree char *returned = g_strdup_printf ("%s!main;%s!sp_target_caller+0;%s!sp_target_leaf 1", target, target,
                                               target);
  const char *lines[] = { faulted, returned, NULL };
  g_autoptr (SpProfile) profile = profile_from_text (lines);
  g_autofree char *text = collapsed_of (profile, NULL);
  g_auto (GStrv) rows = g_strsplit (text, "\n", -1);

  g_assert_nonnull (target);
  g_assert_cmpuint (g_strv_length (rows), ==, 3);
  g_assert_cmpstr (rows[0], ==, "main;sp_target_caller;asm_exc_page_fault 2");
  g_assert_false (g_str_has_prefix (rows[1], "main;sp_target_caller;"));
  g_assert_true (g_str_has_suffix (rows[1], ";sp_target_leaf 1"));
}

/* A tree as text keeping only the nodes whose total is at least
 * min_total (sp_call_tree_new_heavy's rule), children in tree order. */
static void
print_heavy (SpProfile *profile,
             const SpCallTree *tree,
             guint32 node,
             guint depth,
             guint64 min_total,
             GString *out)
{
  for (guint32 c = tree->nodes[node].first_child; c != SP_CALL_TREE_NONE; c = tree->nodes[c].next_sibling)
    {
      const SpCallTreeNode *n = &tree->nodes[c];

      if (n->total < min_total)
        continue;
      g_string_append_printf (out, "%*s%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "\n", (int) depth * 2, "",
                              sp_profile_get_function (profile, n->function)->name, n->total, n->self);
      print_heavy (profile, tree, c, depth + 1, min_total, out);
    }
}

/* A random stack, root first: kernel functions, user frames of a real
 * ELF file (some at addresses where a call was inlined, some at a
 * function's first byte, which a return address reads as the function
 * before), and user frames in no module, which each pid may name apart. */
static char *
random_stack (GRand *rand,
              const char *target)
{
  static const char *const kernel[] = { "entry_SYSCALL_64", "do_syscall_64", "asm_exc_page_fault", "handle_mm_fault" };
  static const char *const user[] = { "main", "sp_target_caller", "sp_target_outer", "sp_target_leaf" };
  GString *stack = g_string_new (NULL);
  guint depth = (guint) g_rand_int_range (rand, 1, 10);

  for (guint i = 0; i < depth; i++)
    {
      guint kind = (guint) g_rand_int_range (rand, 0, 10);

      if (i > 0)
        g_string_append_c (stack, ';');
      if (kind < 3)
        g_string_append (stack, kernel[g_rand_int_range (rand, 0, G_N_ELEMENTS (kernel))]);
      else if (kind < 9)
        g_string_append_printf (stack, "%s!%s+%d", target, user[g_rand_int_range (rand, 0, G_N_ELEMENTS (user))],
                                g_rand_int_range (rand, 0, 3) * 4 * g_rand_int_range (rand, 0, 6));
      else
        g_string_append_printf (stack, "?0x%x", 0x7000 + 16 * g_rand_int_range (rand, 0, 3));
    }
  return g_string_free (stack, FALSE);
}

/* The heavy tree is the whole tree's heavy nodes, the same totals, selves
 * and order, on random recordings, with and without a time range. */
static void
test_heavy_tree (void)
{
  const char *target = g_getenv ("SP_SYMBOLIZER_TARGET");
  static const double shares[] = { 0, 0.005, 0.03, 0.2, 1.0 };

  g_assert_nonnull (target);
  for (guint seed = 1; seed <= 12; seed++)
    {
      g_autoptr (GRand) rand = g_rand_new_with_seed (seed);
      g_autoptr (GPtrArray) lines = g_ptr_array_new_with_free_func (g_free);
      g_autoptr (SpProfile) profile = NULL;
      g_autoptr (SpFilter) range = sp_filter_new ();
      guint64 t0;

      for (guint i = 0; i < 60; i++)
        {
          g_autofree char *stack = random_stack (rand, target);

          g_ptr_array_add (lines, g_strdup_printf ("%s %d", stack, g_rand_int_range (rand, 1, 30)));
        }
      g_ptr_array_add (lines, NULL);
      profile = profile_from_text ((const char *const *) lines->pdata);
      t0 = sp_spool_reader_get_sample_timestamp (sp_profile_get_reader (profile), 0);
      sp_filter_set_time_range (range, t0 + 100000000, t0 + 600000000);
      for (guint f = 0; f < 2; f++)
        for (guint i = 0; i < G_N_ELEMENTS (shares); i++)
          {
            SpFilter *filter = f == 0 ? NULL : range;
            g_autoptr (SpCallTree) whole = sp_call_tree_new (profile, filter, NULL, FALSE);
            g_autoptr (SpCallTree) heavy = sp_call_tree_new_heavy (profile, filter, NULL, shares[i]);
            guint64 min_total = sp_call_tree_min_total (shares[i], whole->nodes[0].total);
            g_autoptr (GString) expected = g_string_new (NULL);
            g_autoptr (GString) got = g_string_new (NULL);

            g_assert_cmpuint (heavy->nodes[0].total, ==, whole->nodes[0].total);
            g_assert_cmpuint (heavy->nodes[0].self, ==, whole->nodes[0].self);
            print_heavy (profile, whole, 0, 0, min_total, expected);
            print_heavy (profile, heavy, 0, 0, 1, got);
            if (!g_str_equal (expected->str, got->str))
              g_test_message ("seed %u, share %g, %s", seed, shares[i], f == 0 ? "all" : "a time range");
            g_assert_cmpstr (got->str, ==, expected->str);
            for (guint n = 1; n < heavy->n_nodes; n++)
              g_assert_cmpuint (heavy->nodes[heavy->nodes[n].parent].total, >=, heavy->nodes[n].total);
          }
    }
}

/* Resolving ahead (sp_profile_finish_resolving_ahead): on a spool large
 * enough for it, a second thread resolves the busy frames of its start
 * while the rest is read, DWARF included, before any tree asks; the tree
 * is then the one a plain open gives. */
static void
test_resolving_ahead (void)
{
  const char *target = g_getenv ("SP_SYMBOLIZER_TARGET");
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  RecordingBuilder *b = recording_builder_new ();
  g_autoptr (SpProfile) plain = NULL;
  g_autoptr (SpProfile) ahead = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *plain_tree = NULL;
  g_autofree char *ahead_tree = NULL;
  SpSymbolCacheStats stats;
  GStatBuf st;

  g_assert_nonnull (target);
  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *stack = random_stack (rand, target);
      g_autofree char *line = g_strdup_printf ("%s %d", stack, g_rand_int_range (rand, 500, 4000));

      recording_builder_add_line (b, line);
    }
  recording_builder_finish (b);
  g_assert_cmpint (g_stat (recording_builder_get_path (b), &st), ==, 0);
  /* The warm-up starts from a spool's first 256 kB, and not at all on
   * one that small. */
  g_assert_cmpint (st.st_size, >, 384 << 10);
  plain = sp_profile_open (recording_builder_get_path (b), &error);
  g_assert_no_error (error);
  sp_profile_set_symbol_cache (plain, FALSE);
  plain_tree = tree_text (plain, NULL, FALSE);

  ahead = sp_profile_open_unread (recording_builder_get_path (b), &error);
  g_assert_no_error (error);
  /* Without the cache every module is new to it. */
  sp_profile_set_symbol_cache (ahead, FALSE);
  sp_profile_finish_resolving_ahead (ahead);
  sp_profile_wait_for_resolving_ahead (ahead);
  sp_profile_get_symbol_cache_stats (ahead, &stats);
  g_assert_cmpuint (stats.misses, >, 0);
  g_assert_cmpuint (stats.dwarf_opened, ==, 1);
  g_assert_null (sp_profile_get_damage (ahead));
  ahead_tree = tree_text (ahead, NULL, FALSE);
  g_assert_cmpstr (ahead_tree, ==, plain_tree);
  recording_builder_free (b);
}

/* A recording whose side file has no kernel symbols yet (one in
 * progress): /proc/kallsyms is read when the first kernel frame is
 * resolved, not when the profile opens (a live window opens the growing
 * recording on its main thread: reading it there stalled a frame for
 * 36 ms). Here the symbols file comes after the open. */
static void
test_kernel_symbols_when_needed (void)
{
  RecordingBuilder *b = recording_builder_new ();
  g_autoptr (GKeyFile) meta = g_key_file_new ();
  g_autoptr (GString) kallsyms = g_string_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (SpProfile) profile = NULL;
  g_autofree char *meta_path = NULL;
  g_autofree char *kallsyms_path = NULL;
  g_autofree char *tree = NULL;
  g_auto (GStrv) keys = NULL;

  recording_builder_add_line (b, "main;parse 3");
  recording_builder_finish (b);
  meta_path = g_strconcat (recording_builder_get_path (b), ".meta", NULL);
  kallsyms_path = g_strconcat (recording_builder_get_path (b), ".kallsyms", NULL);
  g_assert_true (g_key_file_load_from_file (meta, meta_path, G_KEY_FILE_NONE, &error));
  keys = g_key_file_get_keys (meta, "kernel-symbols", NULL, NULL);
  g_assert_nonnull (keys);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autofree char *value = g_key_file_get_string (meta, "kernel-symbols", keys[i], NULL);
      g_auto (GStrv) parts = g_strsplit (value, ";", -1);

      if (g_strv_length (parts) >= 2 && g_ascii_isxdigit (keys[i][0]))
        g_string_append_printf (kallsyms, "%016" G_GINT64_MODIFIER "x T %s\n",
                                g_ascii_strtoull (keys[i], NULL, 16), parts[1]);
    }
  /* kallsyms gives no sizes: the last symbol ends where the next begins. */
  g_string_append (kallsyms, "ffffffffff000000 T _etext\n");
  g_assert_true (g_key_file_remove_group (meta, "kernel-symbols", NULL));
  g_assert_true (g_key_file_save_to_file (meta, meta_path, &error));

  g_setenv ("STACKPULSE_KALLSYMS", kallsyms_path, TRUE);
  profile = sp_profile_open (recording_builder_get_path (b), &error);
  g_unsetenv ("STACKPULSE_KALLSYMS");
  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (kallsyms_path, kallsyms->str, -1, &error));
  tree = collapsed_of (profile, NULL);
  g_assert_cmpstr (tree, ==, "main;parse 3\n");
  g_clear_pointer (&profile, sp_profile_unref);
  g_unlink (kallsyms_path);
  recording_builder_free (b);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/aggregation/top-down", test_top_down);
  g_test_add_func ("/data/aggregation/kernel-symbols-when-needed", test_kernel_symbols_when_needed);
  g_test_add_func ("/data/aggregation/bottom-up", test_bottom_up);
  g_test_add_func ("/data/aggregation/function-list", test_function_list);
  g_test_add_func ("/data/aggregation/callers-callees", test_callers_callees);
  g_test_add_func ("/data/aggregation/find-path", test_find_path);
  g_test_add_func ("/data/aggregation/exact-frames", test_exact_frames);
  g_test_add_func ("/data/aggregation/heavy-tree", test_heavy_tree);
  g_test_add_func ("/data/aggregation/resolving-ahead", test_resolving_ahead);
  g_test_add_func ("/data/aggregation/find-functions", test_find_functions);
  for (guint i = 0; i < G_N_ELEMENTS (transform_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/data/transform/%s", transform_cases[i].name);

      g_test_add_data_func (path, &transform_cases[i], test_transform);
    }
  g_test_add_func ("/data/transform/focus-subtree", test_focus_subtree);
  g_test_add_func ("/data/transform/focus-functions", test_focus_functions);
  g_test_add_func ("/data/tree/min-total", test_min_total);
  g_test_add_func ("/data/transform/combined", test_combined_transforms);
  g_test_add_func ("/data/filter/threads", test_thread_filter);
  g_test_add_func ("/data/filter/time-range", test_time_range);
  return g_test_run ();
}
