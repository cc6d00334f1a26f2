/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-function-search.c: the rule every view searches functions by
 * (ui/sp-function-search.h), without GTK or a display.
 *
 * Profiles are written from text ("main;parse;lex 10"); a search's
 * matches are printed as the matching names, sorted, so a test reads as
 * what the user would find. */
#include <glib.h>

#include "profile-builder.h"
#include "sp-call-tree.h"
#include "sp-function-search.h"

static const char *const lines[] = {
  "main;Parse;lex 10",
  "main;eval;LexNumber 3",
  "main;std::map<int>::at 1",
  NULL,
};

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

/* The names of the functions below n_functions that text matches,
 * sorted, separated by spaces. */
static char *
found (SpProfile *profile,
       guint n_functions,
       const char *text)
{
  g_autofree gboolean *matches = sp_function_search_match (profile, n_functions, text);
  g_autoptr (GPtrArray) names = g_ptr_array_new ();

  for (guint f = 0; f < n_functions; f++)
    if (matches[f])
      g_ptr_array_add (names, (gpointer) sp_profile_get_function (profile, f)->name);
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}

#define assert_found(profile, n, text, expected) \
  G_STMT_START { \
    g_autofree char *names_ = found ((profile), (n), (text)); \
    g_assert_cmpstr (names_, ==, (expected)); \
  } G_STMT_END

/* A name matches when it contains the text, whatever the case of either. */
static void
test_ignoring_case (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (lines);
  g_autoptr (SpCallTree) tree = sp_call_tree_new (profile, NULL, NULL, FALSE);
  guint n = tree->n_functions;

  assert_found (profile, n, "lex", "LexNumber lex");
  assert_found (profile, n, "LEX", "LexNumber lex");
  assert_found (profile, n, "parse", "Parse");
  assert_found (profile, n, "MAP<", "std::map<int>::at");
  assert_found (profile, n, "number", "LexNumber");
  assert_found (profile, n, "nothing", "");
}

/* Only the functions the tree was made with are read: ids from the
 * tree's count on may be a live worker's, still being written. */
static void
test_tree_count (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (lines);
  g_autoptr (SpCallTree) tree = sp_call_tree_new (profile, NULL, NULL, FALSE);
  g_autoptr (GArray) lex_ids = sp_profile_find_functions (profile, "lex");
  g_autoptr (GArray) lex_number_ids = sp_profile_find_functions (profile, "LexNumber");
  guint32 lex = g_array_index (lex_ids, guint32, 0);
  guint32 lex_number = g_array_index (lex_number_ids, guint32, 0);
  g_autofree gboolean *none = NULL;

  g_assert_cmpuint (lex_ids->len, ==, 1);
  g_assert_cmpuint (lex_number_ids->len, ==, 1);
  g_assert_cmpuint (tree->n_functions, >=, 6);
  g_assert_cmpuint (tree->n_functions, <=, sp_profile_get_n_functions (profile));
  /* As if the later of the two were being added. */
  assert_found (profile, MAX (lex, lex_number), "lex", lex < lex_number ? "lex" : "LexNumber");
  assert_found (profile, MAX (lex, lex_number) + 1, "lex", "LexNumber lex");
  assert_found (profile, 0, "lex", "");
  none = sp_function_search_match (profile, 0, "lex");
  g_assert_nonnull (none);
}

/* Casefolding, not only ASCII letters: "STRASSE" finds "Straße". */
static void
test_name_matches (void)
{
  static const struct {
    const char *name;
    const char *text;
    gboolean    matches;
  } cases[] = {
    { "lex", "x", TRUE },
    { "lex", "lexer", FALSE },
    { "lex", "", TRUE },
    { "", "", TRUE },
    { "", "a", FALSE },
    { "ParseExpr", "SEEX", TRUE },
    { "ParseExpr", "sex", FALSE },
    { "Straße", "STRASSE", TRUE },
    { "STRASSE", "straße", TRUE },
    { "Ärger", "äR", TRUE },
    { "ärger", "ÄRGER", TRUE },
    { "aaab", "aab", TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *folded = g_utf8_casefold (cases[i].text, -1);

      g_test_message ("\"%s\" in \"%s\"", cases[i].text, cases[i].name);
      g_assert_cmpint (sp_function_search_name_matches (cases[i].name, folded), ==, cases[i].matches);
    }
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ui/function-search/ignoring-case", test_ignoring_case);
  g_test_add_func ("/ui/function-search/tree-count", test_tree_count);
  g_test_add_func ("/ui/function-search/name-matches", test_name_matches);
  return g_test_run ();
}
