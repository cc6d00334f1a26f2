/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-function-search.c: the search's rule (sp-function-search.h). */
#include "sp-function-search.h"

#include <string.h>

static gboolean
is_ascii (const char *text)
{
  for (; *text != '\0'; text++)
    if ((guchar) *text >= 0x80)
      return FALSE;
  return TRUE;
}

/* strstr with name's letters lowered as compared: for an ASCII name, what
 * casefolding it first gives, without a copy of each name (a search reads
 * every function, and the flame graph searches on each key typed). */
static gboolean
ascii_contains (const char *name,
                const char *folded)
{
  size_t n = strlen (folded);

  if (n == 0)
    return TRUE;
  for (const char *start = name; *start != '\0'; start++)
    {
      size_t i = 0;

      while (i < n && start[i] != '\0' && g_ascii_tolower (start[i]) == folded[i])
        i++;
      if (i == n)
        return TRUE;
    }
  return FALSE;
}

gboolean
sp_function_search_name_matches (const char *name,
                                 const char *folded_text)
{
  g_autofree char *folded_name = NULL;

  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (folded_text != NULL, FALSE);

  if (is_ascii (name))
    return ascii_contains (name, folded_text);
  folded_name = g_utf8_casefold (name, -1);
  return strstr (folded_name, folded_text) != NULL;
}

gboolean *
sp_function_search_match (SpProfile *profile,
                          guint n_functions,
                          const char *text)
{
  gboolean *matches = g_new0 (gboolean, MAX (n_functions, 1));
  g_autofree char *folded = NULL;

  g_return_val_if_fail (profile != NULL, matches);
  g_return_val_if_fail (text != NULL, matches);

  folded = g_utf8_casefold (text, -1);
  for (guint f = 0; f < n_functions; f++)
    matches[f] = sp_function_search_name_matches (sp_profile_get_function (profile, f)->name, folded);
  return matches;
}
