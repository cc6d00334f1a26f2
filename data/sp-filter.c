/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-filter.c: the filter value and the path transforms. */
#include "sp-filter.h"

#include <string.h>

static void
transform_free (gpointer data)
{
  SpTransform *transform = data;

  g_free (transform->module);
  g_clear_pointer (&transform->path, g_array_unref);
  g_free (transform);
}

SpFilter *
sp_filter_new (void)
{
  SpFilter *filter = g_new0 (SpFilter, 1);

  filter->to_ns = G_MAXUINT64;
  filter->transforms = g_ptr_array_new_with_free_func (transform_free);
  return filter;
}

SpFilter *
sp_filter_copy (const SpFilter *filter)
{
  SpFilter *copy = sp_filter_new ();

  copy->from_ns = filter->from_ns;
  copy->to_ns = filter->to_ns;
  copy->metric = filter->metric;
  if (filter->hidden_threads != NULL)
    copy->hidden_threads = g_array_copy (filter->hidden_threads);
  for (guint i = 0; i < filter->transforms->len; i++)
    {
      const SpTransform *t = g_ptr_array_index (filter->transforms, i);
      SpTransform *c = g_new0 (SpTransform, 1);

      c->kind = t->kind;
      c->function = t->function;
      c->module = g_strdup (t->module);
      c->path = t->path != NULL ? g_array_copy (t->path) : NULL;
      g_ptr_array_add (copy->transforms, c);
    }
  return copy;
}

void
sp_filter_free (SpFilter *filter)
{
  if (filter == NULL)
    return;
  g_clear_pointer (&filter->hidden_threads, g_array_unref);
  g_ptr_array_unref (filter->transforms);
  g_free (filter);
}

void
sp_filter_set_time_range (SpFilter *filter,
                          guint64 from_ns,
                          guint64 to_ns)
{
  filter->from_ns = from_ns;
  filter->to_ns = to_ns;
}

void
sp_filter_set_metric (SpFilter *filter,
                      SpMetric metric)
{
  filter->metric = metric;
}

gboolean
sp_metric_from_name (const char *name,
                     SpMetric *metric)
{
  static const char *const names[] = { "cpu", "off-cpu", "wall" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (name, names[i]))
      {
        *metric = (SpMetric) i;
        return TRUE;
      }
  return FALSE;
}

void
sp_filter_hide_thread (SpFilter *filter,
                       guint32 thread_index)
{
  if (filter->hidden_threads == NULL)
    filter->hidden_threads = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_val (filter->hidden_threads, thread_index);
}

void
sp_filter_set_thread_hidden (SpFilter *filter,
                             guint32 thread_index,
                             gboolean hidden)
{
  if (sp_filter_is_thread_hidden (filter, thread_index) == hidden)
    return;
  if (hidden)
    {
      sp_filter_hide_thread (filter, thread_index);
      return;
    }
  for (guint i = 0; i < filter->hidden_threads->len; i++)
    if (g_array_index (filter->hidden_threads, guint32, i) == thread_index)
      {
        g_array_remove_index_fast (filter->hidden_threads, i);
        break;
      }
}

gboolean
sp_filter_is_thread_hidden (const SpFilter *filter,
                            guint32 thread_index)
{
  for (guint i = 0; filter->hidden_threads != NULL && i < filter->hidden_threads->len; i++)
    if (g_array_index (filter->hidden_threads, guint32, i) == thread_index)
      return TRUE;
  return FALSE;
}

void
sp_filter_add_function_transform (SpFilter *filter,
                                  SpTransformKind kind,
                                  guint32 function)
{
  SpTransform *t = g_new0 (SpTransform, 1);

  t->kind = kind;
  t->function = function;
  g_ptr_array_add (filter->transforms, t);
}

void
sp_filter_add_focus_functions (SpFilter *filter,
                               const guint32 *functions,
                               guint n)
{
  SpTransform *t;

  g_return_if_fail (n > 0);
  sp_filter_add_function_transform (filter, SP_TRANSFORM_FOCUS_FUNCTION, functions[0]);
  if (n == 1)
    return;
  t = g_ptr_array_index (filter->transforms, filter->transforms->len - 1);
  t->path = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  g_array_append_vals (t->path, functions, n);
}

void
sp_filter_add_collapse_module (SpFilter *filter,
                               const char *module)
{
  SpTransform *t = g_new0 (SpTransform, 1);

  t->kind = SP_TRANSFORM_COLLAPSE_MODULE;
  t->module = g_strdup (module);
  g_ptr_array_add (filter->transforms, t);
}

void
sp_filter_add_focus_subtree (SpFilter *filter,
                             const guint32 *path,
                             guint n_path)
{
  SpTransform *t = g_new0 (SpTransform, 1);

  t->kind = SP_TRANSFORM_FOCUS_SUBTREE;
  t->path = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n_path);
  g_array_append_vals (t->path, path, n_path);
  g_ptr_array_add (filter->transforms, t);
}

const char *
sp_transform_kind_label (SpTransformKind kind)
{
  switch (kind)
    {
    case SP_TRANSFORM_FOCUS_FUNCTION:    return "Focus";
    case SP_TRANSFORM_FOCUS_SUBTREE:     return "Subtree";
    case SP_TRANSFORM_MERGE_FUNCTION:    return "Merge";
    case SP_TRANSFORM_DROP_FUNCTION:     return "Drop";
    case SP_TRANSFORM_COLLAPSE_MODULE:   return "Collapse";
    case SP_TRANSFORM_COLLAPSE_RECURSION: return "Collapse recursion";
    default:                             return "?";
    }
}

gboolean
sp_filter_pop_transform (SpFilter *filter)
{
  if (filter->transforms->len == 0)
    return FALSE;
  g_ptr_array_remove_index (filter->transforms, filter->transforms->len - 1);
  return TRUE;
}

/* ---- Transforms -------------------------------------------------------- */

#define PATH(i) g_array_index (path, guint32, (i))

static gint
find_first (GArray *path,
            guint32 function)
{
  for (guint i = 0; i < path->len; i++)
    if (PATH (i) == function)
      return (gint) i;
  return -1;
}

/* The outermost call of t's function (of any of its functions). */
static gint
find_focused (GArray *path,
              const SpTransform *t)
{
  if (t->path == NULL)
    return find_first (path, t->function);
  for (guint i = 0; i < path->len; i++)
    for (guint k = 0; k < t->path->len; k++)
      if (PATH (i) == g_array_index (t->path, guint32, k))
        return (gint) i;
  return -1;
}

static gboolean
focus_function (GArray *path,
                const SpTransform *t)
{
  gint first = find_focused (path, t);

  if (first < 0)
    return FALSE;
  g_array_remove_range (path, 0, (guint) first);
  return TRUE;
}

static gboolean
focus_subtree (GArray *path,
               GArray *prefix)
{
  if (prefix->len == 0 || path->len < prefix->len
      || memcmp (path->data, prefix->data, prefix->len * sizeof (guint32)) != 0)
    return FALSE;
  g_array_remove_range (path, 0, prefix->len - 1);
  return TRUE;
}

static gboolean
merge_function (GArray *path,
                guint32 function)
{
  guint kept = 0;

  for (guint i = 0; i < path->len; i++)
    if (PATH (i) != function)
      PATH (kept++) = PATH (i);
  g_array_set_size (path, kept);
  return kept > 0;
}

static void
collapse_module (SpProfile *profile,
                 GArray *path,
                 const char *module)
{
  g_autofree char *name = g_strdup_printf ("[%s]", module);
  guint32 collapsed = sp_profile_intern_function (profile, name, module, SP_FUNCTION_SYNTHETIC);
  guint kept = 0;

  for (guint i = 0; i < path->len; i++)
    {
      gboolean in_module = g_str_equal (sp_profile_get_function (profile, PATH (i))->module, module);

      if (!in_module)
        PATH (kept++) = PATH (i);
      else if (kept == 0 || PATH (kept - 1) != collapsed)
        PATH (kept++) = collapsed;
    }
  g_array_set_size (path, kept);
}

/* A ... F ... F ... F C  ->  A F C */
static void
collapse_recursion (GArray *path,
                    guint32 function)
{
  gint first = find_first (path, function);
  gint last = -1;

  if (first < 0)
    return;
  for (guint i = (guint) first; i < path->len; i++)
    if (PATH (i) == function)
      last = (gint) i;
  if (last > first)
    g_array_remove_range (path, (guint) first + 1, (guint) (last - first));
}

gboolean
sp_filter_apply_transforms (const SpFilter *filter,
                            SpProfile *profile,
                            GArray *path)
{
  for (guint i = 0; i < filter->transforms->len; i++)
    {
      const SpTransform *t = g_ptr_array_index (filter->transforms, i);

      switch (t->kind)
        {
        case SP_TRANSFORM_FOCUS_FUNCTION:
          if (!focus_function (path, t))
            return FALSE;
          break;
        case SP_TRANSFORM_FOCUS_SUBTREE:
          if (!focus_subtree (path, t->path))
            return FALSE;
          break;
        case SP_TRANSFORM_MERGE_FUNCTION:
          if (!merge_function (path, t->function))
            return FALSE;
          break;
        case SP_TRANSFORM_DROP_FUNCTION:
          if (find_first (path, t->function) >= 0)
            return FALSE;
          break;
        case SP_TRANSFORM_COLLAPSE_MODULE:
          collapse_module (profile, path, t->module);
          break;
        case SP_TRANSFORM_COLLAPSE_RECURSION:
          collapse_recursion (path, t->function);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  return path->len > 0;
}
