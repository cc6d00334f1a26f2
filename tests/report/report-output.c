/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report-output.c: stackpulse-report's text, parsed back for the tests. */
#include "report-output.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- Running it ----------------------------------------------------------- */

const char *
sp_test_reporter (void)
{
  const char *path = g_getenv ("SP_REPORT");

  g_assert_nonnull (path);
  return path;
}

SpChildResult *
sp_test_report_run (const char *dir,
                    const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (char *) sp_test_reporter ());
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  return sp_test_run (dir, "report", (const char *const *) argv->pdata);
}

char *
sp_test_report (const char *dir,
                const char *first,
                ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  g_autoptr (SpChildResult) result = NULL;
  g_autofree char *command = NULL;
  va_list ap;

  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  command = g_strjoinv (" ", (char **) args->pdata);
  result = sp_test_report_run (dir, (const char *const *) args->pdata);
  if (result->exit_code != 0 || result->err[0] != '\0')
    g_error ("stackpulse-report %s: exit status %d, stderr:\n%s", command, result->exit_code, result->err);
  return g_steal_pointer (&result->out);
}

/* ---- Flat rows ------------------------------------------------------------ */

static void
row_free (gpointer data)
{
  SpReportRow *row = data;

  g_free (row->name);
  g_free (row->module);
  g_free (row);
}

/* "name  [module]": the module is the last bracketed word. */
static SpReportRow *
row_from_label (const char *label)
{
  SpReportRow *row = g_new0 (SpReportRow, 1);
  const char *split = g_strrstr (label, "  [");
  gsize len = strlen (label);

  if (split == NULL || len < 2 || label[len - 1] != ']')
    {
      row->name = g_strdup (label);
      return row;
    }
  row->name = g_strndup (label, (gsize) (split - label));
  row->module = g_strndup (split + 3, (gsize) (label + len - 1 - (split + 3)));
  return row;
}

GPtrArray *
sp_test_parse_rows (const char *text)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (row_free);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      double self_pct, total_pct;
      guint64 samples;
      int used = 0;
      SpReportRow *row;

      if (sscanf (lines[i], "%lf%% %lf%% %" G_GUINT64_FORMAT "  %n", &self_pct, &total_pct, &samples,
                  &used) != 3 || used == 0)
        continue;
      row = row_from_label (lines[i] + used);
      row->self_pct = self_pct;
      row->total_pct = total_pct;
      row->samples = samples;
      g_ptr_array_add (rows, row);
    }
  return rows;
}

GPtrArray *
sp_test_parse_neighbours (const char *text)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (row_free);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      double total_pct, self_pct;
      int used = 0;
      SpReportRow *row;

      if (sscanf (lines[i], "%lf%% %lf%%  %n", &total_pct, &self_pct, &used) != 2 || used == 0)
        continue;
      row = g_new0 (SpReportRow, 1);
      row->name = g_strdup (lines[i] + used);
      row->self_pct = self_pct;
      row->total_pct = total_pct;
      g_ptr_array_add (rows, row);
    }
  return rows;
}

const SpReportRow *
sp_test_find_row (GPtrArray *rows,
                  const char *name)
{
  for (guint i = 0; i < rows->len; i++)
    {
      const SpReportRow *row = g_ptr_array_index (rows, i);

      if (g_str_equal (row->name, name))
        return row;
    }
  return NULL;
}

/* ---- Trees ---------------------------------------------------------------- */

static void
tree_line_free (gpointer data)
{
  SpTreeLine *line = data;

  g_free (line->name);
  g_free (line);
}

/* "%7.2f%% %7.2f%% " + two spaces per level + "name  [module]". */
GPtrArray *
sp_test_parse_tree (const char *text)
{
  GPtrArray *tree = g_ptr_array_new_with_free_func (tree_line_free);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      double total_pct, self_pct;
      int used = 0;
      const char *p;
      guint spaces = 0;
      SpReportRow *label;
      SpTreeLine *line;

      if (sscanf (lines[i], "%lf%% %lf%%%n", &total_pct, &self_pct, &used) != 2 || lines[i][used] != ' ')
        continue;
      for (p = lines[i] + used + 1; *p == ' '; p++)
        spaces++;
      g_assert_cmpuint (spaces % 2, ==, 0);
      label = row_from_label (p);
      line = g_new0 (SpTreeLine, 1);
      line->depth = spaces / 2;
      line->total_pct = total_pct;
      line->self_pct = self_pct;
      line->name = g_steal_pointer (&label->name);
      row_free (label);
      g_ptr_array_add (tree, line);
    }
  return tree;
}

/* Whether names[0], names[1], ... go down from line i, one level each. */
static gboolean
chain_below (GPtrArray *lines,
             guint i,
             char **names)
{
  const SpTreeLine *parent = g_ptr_array_index (lines, i);

  if (names[0] == NULL)
    return TRUE;
  for (guint j = i + 1; j < lines->len; j++)
    {
      const SpTreeLine *line = g_ptr_array_index (lines, j);

      if (line->depth <= parent->depth)
        break;
      if (line->depth == parent->depth + 1 && g_str_equal (line->name, names[0])
          && chain_below (lines, j, names + 1))
        return TRUE;
    }
  return FALSE;
}

gint
sp_test_tree_find_path (GPtrArray *lines,
                        const char *path,
                        gboolean from_root)
{
  g_auto (GStrv) names = g_strsplit (path, ";", -1);

  for (guint i = 0; i < lines->len; i++)
    {
      const SpTreeLine *line = g_ptr_array_index (lines, i);

      if ((!from_root || line->depth == 0) && g_str_equal (line->name, names[0])
          && chain_below (lines, i, names + 1))
        return (gint) i;
    }
  return -1;
}

/* ---- Collapsed stacks ----------------------------------------------------- */

static GHashTable *
stack_table_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static void
stack_table_add (GHashTable *stacks,
                 const char *stack,
                 guint64 count)
{
  guint64 *value = g_hash_table_lookup (stacks, stack);

  if (value == NULL)
    g_hash_table_insert (stacks, g_strdup (stack), value = g_new0 (guint64, 1));
  *value += count;
}

GHashTable *
sp_test_parse_collapsed (const char *text,
                         guint64 *total)
{
  /* Names may hold spaces (C++): the count follows the last one. */
  g_autoptr (GRegex) format = g_regex_new ("^([^;]+(?:;[^;]+)*) ([0-9]+)$", 0, 0, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  GHashTable *stacks = stack_table_new ();

  *total = 0;
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GMatchInfo) match = NULL;
      g_autofree char *stack = NULL;
      g_autofree char *count = NULL;

      if (lines[i][0] == '\0' && lines[i + 1] == NULL)
        break;
      if (!g_regex_match (format, lines[i], 0, &match))
        g_error ("collapsed line %u is not \"a;b;c N\": '%s'", i + 1, lines[i]);
      stack = g_match_info_fetch (match, 1);
      count = g_match_info_fetch (match, 2);
      if (g_hash_table_contains (stacks, stack))
        g_error ("collapsed stack given twice: '%s'", stack);
      stack_table_add (stacks, stack, g_ascii_strtoull (count, NULL, 10));
      *total += g_ascii_strtoull (count, NULL, 10);
    }
  return stacks;
}

GHashTable *
sp_test_collapsed_rewrite (GHashTable *stacks,
                           SpStackRewrite rewrite,
                           gpointer user_data)
{
  GHashTable *result = stack_table_new ();
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, stacks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_auto (GStrv) names = g_strsplit (key, ";", -1);
      g_autoptr (GPtrArray) functions = g_ptr_array_new_with_free_func (g_free);
      g_autofree char *stack = NULL;

      for (guint i = 0; names[i] != NULL; i++)
        g_ptr_array_add (functions, g_strdup (names[i]));
      if (!rewrite (functions, user_data) || functions->len == 0)
        continue;
      g_ptr_array_add (functions, NULL);
      stack = g_strjoinv (";", (char **) functions->pdata);
      stack_table_add (result, stack, *(guint64 *) value);
    }
  return result;
}

void
sp_test_assert_collapsed_equal (GHashTable *got,
                                GHashTable *expected)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, expected);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      guint64 *other = g_hash_table_lookup (got, key);

      if (other == NULL)
        g_error ("expected the stack '%s' (%" G_GUINT64_FORMAT " samples), it is missing",
                 (char *) key, *(guint64 *) value);
      if (*other != *(guint64 *) value)
        g_error ("stack '%s': %" G_GUINT64_FORMAT " samples, expected %" G_GUINT64_FORMAT,
                 (char *) key, *other, *(guint64 *) value);
    }
  g_hash_table_iter_init (&iter, got);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (expected, key))
      g_error ("unexpected stack '%s' (%" G_GUINT64_FORMAT " samples)", (char *) key, *(guint64 *) value);
}

guint64
sp_test_collapsed_count_with (GHashTable *stacks,
                              const char *function)
{
  GHashTableIter iter;
  gpointer key, value;
  guint64 count = 0;

  g_hash_table_iter_init (&iter, stacks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_auto (GStrv) names = g_strsplit (key, ";", -1);

      if (g_strv_contains ((const char *const *) names, function))
        count += *(guint64 *) value;
    }
  return count;
}
