/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-name-match.c: a function's name against a typed name, in tiers. */
#include "sp-name-match.h"

#include <string.h>

#include "sp-demangle.h"

struct _SpNameQuery
{
  char  *name;
  char  *demangled;   /* the name demangled, NULL when it is not mangled */
  gsize  length;
};

/* What compilers add to a function's clones and split parts. */
static const char *const compiler_suffixes[] = {
  ".constprop", ".isra", ".part", ".cold", ".lto_priv", ".llvm", ".localalias", ".clone",
};

SpNameQuery *
sp_name_query_new (const char *name)
{
  SpNameQuery *self = g_new0 (SpNameQuery, 1);

  self->name = g_strdup (name);
  self->length = strlen (name);
  if (g_str_has_prefix (name, "_Z") || g_str_has_prefix (name, "_R"))
    self->demangled = sp_demangle (name);
  return self;
}

void
sp_name_query_free (SpNameQuery *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->demangled);
  g_free (self);
}

/* Equal but for spaces after commas: "work(long,int)" is
 * "work(long, int)", as a demangler prints it. */
static gboolean
equal_but_comma_spaces (const char *a,
                        const char *b)
{
  while (*a != '\0' && *b != '\0')
    {
      if (*a != *b)
        return FALSE;
      if (*a++ == ',')
        {
          while (*a == ' ')
            a++;
          while (*++b == ' ')
            ;
        }
      else
        b++;
    }
  return *a == *b;
}

/* The length of function without its compiler suffixes (the first of
 * them and all after it). */
static gsize
length_without_suffix (const char *function)
{
  gsize length = strlen (function);

  for (guint i = 0; i < G_N_ELEMENTS (compiler_suffixes); i++)
    {
      const char *at = strstr (function, compiler_suffixes[i]);

      if (at != NULL && (gsize) (at - function) < length)
        length = (gsize) (at - function);
    }
  return length;
}

/* The start of the last path component of function[0, length): after
 * the last "::" outside brackets, or (Go: "main.(*T).Run") the last '.';
 * a trailing parameter list is not part of it. *end: its end. */
static const char *
last_component (const char *function,
                gsize length,
                gsize *end)
{
  const char *start = function;
  const char *last_dot = NULL;
  int depth = 0;

  *end = length;
  for (gsize i = 0; i < length; i++)
    {
      char c = function[i];

      if (c == '<' || c == '(' || c == '[')
        {
          /* A parameter list at depth 0 ends the name. */
          if (c == '(' && depth == 0 && i > 0 && function[i - 1] != '.')
            {
              *end = i;
              break;
            }
          depth++;
        }
      else if ((c == '>' || c == ')' || c == ']') && depth > 0)
        depth--;
      else if (depth == 0 && c == ':' && function[i + 1] == ':')
        start = function + i + 2;
      else if (depth == 0 && c == '.')
        last_dot = function + i + 1;
    }
  if (start == function && last_dot != NULL && last_dot < function + *end)
    start = last_dot;
  return start;
}

SpNameMatch
sp_name_query_match (const SpNameQuery *self,
                     const char *function)
{
  gsize length;
  gsize end;
  const char *component;

  if (g_str_equal (function, self->name) || equal_but_comma_spaces (function, self->name)
      || (self->demangled != NULL && equal_but_comma_spaces (function, self->demangled)))
    return SP_NAME_MATCH_EXACT;
  length = length_without_suffix (function);
  component = last_component (function, length, &end);
  if ((gsize) (function + end - component) == self->length && strncmp (component, self->name, self->length) == 0)
    return SP_NAME_MATCH_LAST_COMPONENT;
  if (length == self->length && strncmp (function, self->name, length) == 0)
    return SP_NAME_MATCH_WITHOUT_SUFFIX;
  if (strstr (function, self->name) != NULL)
    return SP_NAME_MATCH_SUBSTRING;
  return SP_NAME_MATCH_NONE;
}
