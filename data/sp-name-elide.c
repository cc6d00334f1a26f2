/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-name-elide.c: C++ and Rust function names made shorter for narrow
 * places (sp-name-elide.h).
 *
 * One pass over the name at its outermost level: a `<` or `(` that opens
 * the arguments of the name just before it is skipped to its matching
 * close and written as "<…>" or "(…)"; everything else is copied. The
 * operators whose names hold brackets are copied whole first, so that
 * operator<< <…> or operator()(…) are read as people read them. */
#include "sp-name-elide.h"

#include <string.h>

#define ELLIPSIS "\xe2\x80\xa6"  /* … */
#define MAX_NESTING 64

/* The operator names that hold brackets, longest first. */
static const char *const bracket_operators[] = {
  "<<=", ">>=", "<=>", "->*", "()", "[]", "<<", ">>", "<=", ">=", "->", "<", ">",
};

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$' || (guchar) c >= 0x80;
}

/* The length of "operator" and its symbol when name + i starts the word
 * operator followed by one of the bracket operators; else 0. */
static gsize
operator_length (const char *name,
                 gsize i)
{
  static const char word[] = "operator";
  const gsize word_length = sizeof word - 1;

  if (strncmp (name + i, word, word_length) != 0 || (i > 0 && is_name_char (name[i - 1])))
    return 0;
  for (guint k = 0; k < G_N_ELEMENTS (bracket_operators); k++)
    if (g_str_has_prefix (name + i + word_length, bracket_operators[k]))
      return word_length + strlen (bracket_operators[k]);
  return 0;
}

static char
closer_of (char open)
{
  switch (open)
    {
    case '<': return '>';
    case '(': return ')';
    case '[': return ']';
    case '{': return '}';
    default:  return '\0';
    }
}

/* Pops the stack down to the opener that close matches (a `<` left open
 * inside parentheses was a less-than); FALSE when there is none. */
static gboolean
pop_to (char *stack,
        guint *depth,
        char close)
{
  for (guint d = *depth; d > 0; d--)
    if (closer_of (stack[d - 1]) == close)
      {
        *depth = d - 1;
        return TRUE;
      }
  return close == '>';  /* a stray '>' (a greater-than, "->") is text */
}

/* The index of the bracket closing the one at name[open], or -1. */
static gssize
matching_close (const char *name,
                gsize open)
{
  char stack[MAX_NESTING];
  guint depth = 0;

  for (gsize i = open; name[i] != '\0'; i++)
    {
      gsize op = operator_length (name, i);
      char c = name[i];

      if (op > 0)
        {
          i += op - 1;
          continue;
        }
      if (closer_of (c) != '\0')
        {
          if (depth == MAX_NESTING)
            return -1;
          stack[depth++] = c;
          continue;
        }
      if (c != '>' && c != ')' && c != ']' && c != '}')
        continue;
      if (c == '>' && (depth == 0 || stack[depth - 1] != '<'))
        continue;
      if (!pop_to (stack, &depth, c))
        return -1;
      if (depth == 0)
        return (gssize) i;
    }
  return -1;
}

/* Whether the `<` at name[i] opens arguments: right after a name (or an
 * operator, or Rust's "::<"); not a Rust qualified path "<T as Trait>". */
static gboolean
opens_template_arguments (const char *name,
                          gsize i,
                          gboolean after_name)
{
  return after_name || (i >= 2 && name[i - 1] == ':' && name[i - 2] == ':');
}

char *
sp_name_elide (const char *name,
               SpNameElision elision)
{
  GString *out;
  gboolean after_name = FALSE;      /* what was copied last ends a name */
  gboolean after_operator = FALSE;  /* … and it was an operator (a space may follow) */
  gsize i = 0;

  g_return_val_if_fail (name != NULL, NULL);

  if (elision == SP_NAME_FULL)
    return g_strdup (name);
  out = g_string_sized_new (strlen (name));
  while (name[i] != '\0')
    {
      gsize op = operator_length (name, i);
      char c = name[i];
      gssize close = -1;

      if (op > 0)
        {
          g_string_append_len (out, name + i, (gssize) op);
          i += op;
          after_name = after_operator = TRUE;
          continue;
        }
      if (c == '<' && opens_template_arguments (name, i, after_name))
        close = matching_close (name, i);
      else if (c == '(' && after_name && elision >= SP_NAME_NO_PARAMETERS)
        close = matching_close (name, i);
      if (close >= 0)
        {
          g_string_append_c (out, c);
          if ((gsize) close > i + 1)
            g_string_append (out, ELLIPSIS);
          g_string_append_c (out, name[close]);
          i = (gsize) close + 1;
          after_name = c == '<';
          after_operator = FALSE;
          continue;
        }
      g_string_append_c (out, c);
      i++;
      if (c == ' ' && after_operator)
        continue;
      after_name = is_name_char (c) || c == '>' || c == ']';
      after_operator = FALSE;
    }
  return g_string_free (out, FALSE);
}
