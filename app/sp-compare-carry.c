/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-compare-carry.c: the main window's transforms, carried over to both
 * sides of a comparison.
 *
 * The main window knows each transform's function by its profile's id;
 * each side of the comparison has its own ids, known only once it is
 * read. So the transforms are kept by name and module until the first
 * comparison is built; its function list (matched as the comparison
 * matches, docs/COMPARE.md) then gives each side's id, the transforms
 * are applied to both sides, and that first, untransformed comparison is
 * never shown. A function one side lacks gets the transform of a
 * function no stack has, as in sp-compare-transforms.c. A function that
 * appears in a live B only later is not found: it was not in the first. */
#include "sp-compare-window-private.h"

typedef struct {
  SpTransformKind kind;
  char           *module;   /* COLLAPSE_MODULE's */
  GPtrArray      *names;    /* the function, or FOCUS_SUBTREE's path (root first) */
  GPtrArray      *modules;  /* each name's module */
} SpCompareCarried;

void
_sp_compare_carried_free (gpointer data)
{
  SpCompareCarried *carried = data;

  g_free (carried->module);
  g_ptr_array_unref (carried->names);
  g_ptr_array_unref (carried->modules);
  g_free (carried);
}

static void
carry_function (SpCompareCarried *carried,
                SpProfile *profile,
                guint32 function)
{
  const SpFunction *f = sp_profile_get_function (profile, function);

  g_ptr_array_add (carried->names, g_strdup (f->name));
  g_ptr_array_add (carried->modules, g_strdup (f->module));
}

void
sp_compare_window_carry_transforms (SpCompareWindow *self,
                                    const SpFilter *filter,
                                    SpProfile *profile)
{
  g_return_if_fail (self->carried == NULL && self->tree == NULL);

  if (profile == NULL || filter->transforms->len == 0)
    return;
  self->carried = g_ptr_array_new_with_free_func (_sp_compare_carried_free);
  for (guint i = 0; i < filter->transforms->len; i++)
    {
      const SpTransform *t = g_ptr_array_index (filter->transforms, i);
      SpCompareCarried *carried = g_new0 (SpCompareCarried, 1);

      carried->kind = t->kind;
      carried->module = g_strdup (t->module);
      carried->names = g_ptr_array_new_with_free_func (g_free);
      carried->modules = g_ptr_array_new_with_free_func (g_free);
      if (t->kind == SP_TRANSFORM_FOCUS_SUBTREE)
        for (guint j = 0; j < t->path->len; j++)
          carry_function (carried, profile, g_array_index (t->path, guint32, j));
      else if (t->kind != SP_TRANSFORM_COLLAPSE_MODULE)
        carry_function (carried, profile, t->function);
      g_ptr_array_add (self->carried, carried);
    }
}

/* The function named so, of that module, in side's profile (0: A, 1: B). */
static guint32
find_function (const SpDiffTree *tree,
               const char *name,
               const char *module,
               guint side)
{
  for (guint i = 0; i < tree->functions->len; i++)
    {
      const SpDiffRow *row = &g_array_index (tree->functions, SpDiffRow, i);
      guint32 id = side == 0 ? row->function_a : row->function_b;

      if (id != SP_DIFF_NONE && g_str_equal (row->name, name) && g_str_equal (row->module, module))
        return id;
    }
  return SP_COMPARE_NO_SUCH_FUNCTION;
}

static void
apply_one (SpCompareWindow *self,
           const SpDiffTree *tree,
           const SpCompareCarried *carried)
{
  for (guint side = 0; side < 2; side++)
    {
      SpAnalysis *analysis = self->sides[side].analysis;
      g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));

      for (guint j = 0; j < carried->names->len; j++)
        {
          guint32 id = find_function (tree, carried->names->pdata[j], carried->modules->pdata[j], side);

          g_array_append_val (ids, id);
        }
      if (carried->kind == SP_TRANSFORM_COLLAPSE_MODULE)
        sp_analysis_add_collapse_module (analysis, carried->module);
      else if (carried->kind == SP_TRANSFORM_FOCUS_SUBTREE)
        sp_analysis_add_focus_subtree (analysis, (const guint32 *) ids->data, ids->len);
      else
        sp_analysis_add_function_transform (analysis, carried->kind, g_array_index (ids, guint32, 0));
    }
  _sp_compare_add_crumb (self, carried->kind,
                         carried->module != NULL ? carried->module
                                                 : (const char *) carried->names->pdata[carried->names->len - 1]);
}

gboolean
_sp_compare_apply_carried (SpCompareWindow *self,
                           const SpDiffTree *tree)
{
  if (self->carried == NULL)
    return FALSE;
  for (guint i = 0; i < self->carried->len; i++)
    apply_one (self, tree, g_ptr_array_index (self->carried, i));
  g_clear_pointer (&self->carried, g_ptr_array_unref);
  /* The sides' trees were made without them: wait for both new ones. */
  for (guint i = 0; i < 2; i++)
    g_clear_pointer (&self->sides[i].tree, sp_call_tree_free);
  return TRUE;
}
