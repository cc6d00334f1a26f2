/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-status-text.c: figures and symbol problems in words (see the header). */
#include "sp-status-text.h"

#include "sp-debug-advice.h"

static double
percent (guint64 part,
         guint64 whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0.0;
}

char *
sp_status_text_figures (const SpSpoolSummary *s)
{
  GString *text = g_string_new (NULL);
  guint64 lost = s->lost_samples + s->dropped_samples;

  g_string_append_printf (text, "%u samples over %.2f s", s->n_samples, s->duration_ns / 1e9);
  /* The side file's counts are final only once the recording is. */
  if (s->recording_state == SP_RECORDING_STATE_IN_PROGRESS)
    g_string_append (text, "  ·  recording in progress");
  else if (s->recording_state == SP_RECORDING_STATE_INTERRUPTED)
    g_string_append (text, "  ·  interrupted: the recorder ended before finishing the recording");
  else if (s->lost_known && lost == 0)
    g_string_append (text, "  ·  none lost");
  /* Without its side file a recording has no names nor lost counts:
   * say why rather than nothing. */
  if (!s->lost_known && s->side_file_problem != NULL)
    g_string_append (text, "  ·  ⚠ the side file is unreadable (see Summary)");
  if (s->lost_known && lost > 0)
    g_string_append_printf (text, "  ·  %s%" G_GUINT64_FORMAT " lost (%.1f%%)",
                            s->recording_state == SP_RECORDING_STATE_COMPLETE ? "" : "at least ", lost,
                            percent (lost, s->n_samples + lost));
  /* Off-CPU data that cannot be used, or is incomplete, changes what the
   * time metrics mean. */
  if (s->off_cpu_problem != NULL && s->off_cpu_read)
    g_string_append (text, "  ·  ⚠ off-CPU data incomplete (see Summary)");
  else if (s->off_cpu_problem != NULL)
    g_string_append (text, "  ·  ⚠ off-CPU data not used (see Summary)");
  else if (s->off_cpu_lost > 0)
    g_string_append_printf (text, "  ·  ⚠ %" G_GUINT64_FORMAT " switch records lost", s->off_cpu_lost);
  /* The off-CPU views then hold one row, "stack not recorded": say why
   * where it is seen. */
  if (s->off_cpu_read && s->off_cpu_stacks_reason != NULL)
    g_string_append (text, "  ·  blocked stacks not recorded (see Summary)");
  if (s->n_truncated_samples > 0)
    g_string_append_printf (text, "  ·  %u truncated stacks (%.1f%%)", s->n_truncated_samples,
                            percent (s->n_truncated_samples, s->n_samples));
  if (s->roots_known && sp_stack_roots_broken_percent (&s->roots) >= SP_STACK_ROOTS_WARN_PERCENT)
    g_string_append_printf (text, "  ·  ⚠ %.0f%% of stacks are broken (they miss their outer frames)",
                            sp_stack_roots_broken_percent (&s->roots));
  return g_string_free (text, FALSE);
}

gboolean
sp_status_text_is_serious (const SpSymbolProblem *problem)
{
  return problem->kind != SP_SYMBOL_PROBLEM_NO_DEBUG_INFO;
}

char *
sp_status_text_problem (const SpSymbolProblem *problem)
{
  g_autofree char *name = g_path_get_basename (problem->file);

  switch (problem->kind)
    {
    case SP_SYMBOL_PROBLEM_NOT_FOUND:
      return g_strdup_printf ("%s was not found", name);
    case SP_SYMBOL_PROBLEM_CHANGED:
      return g_strdup_printf ("%s changed since the recording", name);
    case SP_SYMBOL_PROBLEM_UNREADABLE:
      return g_strdup_printf ("%s cannot be read", name);
    case SP_SYMBOL_PROBLEM_NO_SYMBOLS:
      if (g_str_equal (problem->file, "kernel"))
        return g_strdup ("no kernel symbols");
      return g_strdup_printf ("%s has no symbols", name);
    case SP_SYMBOL_PROBLEM_NO_DEBUG_INFO:
    default:
      return g_strdup_printf ("%s has no debug info", name);
    }
}

char *
sp_status_text_headline (const GArray *problems)
{
  const SpSymbolProblem *first = NULL;
  guint n = 0;
  g_autofree char *text = NULL;

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const SpSymbolProblem *p = &g_array_index (problems, SpSymbolProblem, i);

      if (!sp_status_text_is_serious (p))
        continue;
      if (first == NULL)
        first = p;
      n++;
    }
  if (first == NULL)
    return NULL;
  text = sp_status_text_problem (first);
  if (n == 1)
    return g_steal_pointer (&text);
  return g_strdup_printf ("%s, and %u more symbol problem%s", text, n - 1, n > 2 ? "s" : "");
}

char *
sp_status_text_serious (const GArray *problems)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const SpSymbolProblem *p = &g_array_index (problems, SpSymbolProblem, i);

      if (sp_status_text_is_serious (p))
        g_string_append_printf (text, "%s%s", text->len > 0 ? "\n" : "", p->message);
    }
  return text->len > 0 ? g_strdup (text->str) : NULL;
}

char *
sp_status_text_no_debug_info (const GArray *problems)
{
  g_autoptr (GString) text = g_string_new (NULL);

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const SpSymbolProblem *p = &g_array_index (problems, SpSymbolProblem, i);
      g_autofree char *name = NULL;

      if (sp_status_text_is_serious (p))
        continue;
      name = g_path_get_basename (p->file);
      g_string_append_printf (text, "%s%s", text->len > 0 ? ", " : "", name);
    }
  return text->len > 0 ? g_strdup (text->str) : NULL;
}

char *
sp_status_text_debug_advice (const GArray *problems)
{
  gboolean packaged = FALSE, built = FALSE;

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const SpSymbolProblem *p = &g_array_index (problems, SpSymbolProblem, i);

      if (sp_status_text_is_serious (p))
        continue;
      if (sp_debug_is_packaged (p->file))
        packaged = TRUE;
      else
        built = TRUE;
    }
  /* A program built here has no -dbgsym package to install. */
  if (packaged && built)
    return g_strdup ("install the -dbgsym packages of the system's files, rebuild the others with -g");
  return g_strdup (packaged ? "install their -dbgsym packages" : "rebuild them with -g");
}
