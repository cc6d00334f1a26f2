/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-blocking-names.c: the function each off-CPU stack waited in. */
#include "sp-blocking-names.h"

#include <string.h>

#include "sp-spool-format.h"

/* Leaf first: the first function of the program or a library and, when
 * that is in a shared library (libc's clock_nanosleep, read, a futex
 * wait), the first one in another module, the code that called it
 * ("clock_nanosleep ← sleep_wait"); failing both, the first kernel
 * function. */
static char *
name_of_stack (SpProfile *profile,
               gint32 pid,
               guint32 stack)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  const SpFunction *waiting = NULL;
  const char *kernel = NULL;
  guint32 inner = SP_SPOOL_NO_ID;
  SpStackIter iter;
  guint32 frame;

  sp_stack_iter_init (&iter, reader, stack);
  while (sp_stack_iter_next (&iter, &frame))
    {
      const guint32 *ids;
      guint n = sp_profile_get_frame_functions (profile, frame, pid, sp_profile_frame_is_exact (profile, inner, frame),
                                                &ids);

      inner = frame;
      for (guint i = 0; i < n; i++)
        {
          const SpFunction *function = sp_profile_get_function (profile, ids[i]);

          if (function->kind == SP_FUNCTION_USER && waiting == NULL)
            {
              waiting = function;
              if (strstr (waiting->module, ".so") == NULL)
                return g_strdup (waiting->name);
            }
          else if (function->kind == SP_FUNCTION_USER && g_strcmp0 (function->module, waiting->module) != 0)
            return g_strdup_printf ("%s ← %s", waiting->name, function->name);
          else if (function->kind == SP_FUNCTION_KERNEL && kernel == NULL)
            kernel = function->name;
        }
    }
  if (waiting != NULL)
    return g_strdup (waiting->name);
  return kernel != NULL ? g_strdup_printf ("%s (kernel)", kernel) : NULL;
}

GHashTable *
sp_blocking_names_new (SpProfile *profile,
                       const SpThreadStates *states,
                       GHashTable *previous)
{
  GHashTable *names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  gsize n_stacks = sp_spool_reader_get_n_stack_nodes (sp_profile_get_reader (profile));

  for (guint t = 0; t < sp_thread_states_get_n_threads (states); t++)
    {
      gsize n;
      const SpStateInterval *intervals = sp_thread_states_get_intervals (states, t, &n);
      gint32 pid = 0;
      guint64 tid;

      sp_profile_get_thread (profile, t, &pid, &tid);
      for (gsize i = 0; i < n; i++)
        {
          guint32 stack = intervals[i].stack;
          gpointer key = GUINT_TO_POINTER (stack);
          const char *known;
          char *name;

          if (intervals[i].state == SP_THREAD_RUNNING || stack >= n_stacks || g_hash_table_contains (names, key))
            continue;
          known = previous != NULL ? g_hash_table_lookup (previous, key) : NULL;
          name = known != NULL ? g_strdup (known) : name_of_stack (profile, pid, stack);
          if (name != NULL)
            g_hash_table_insert (names, key, name);
        }
    }
  return names;
}

const char *
sp_blocking_names_lookup (GHashTable *names,
                          guint32 stack)
{
  return names != NULL ? g_hash_table_lookup (names, GUINT_TO_POINTER (stack)) : NULL;
}
