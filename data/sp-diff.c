/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-diff.c: function costs of two recordings, matched by name and module. */
#include "sp-diff.h"

#include <math.h>
#include <string.h>

#include "sp-build-id.h"
#include "sp-function-list.h"

/* Which module of A a module file name of B stands for. */
typedef struct {
  SpProfile  *a;
  GHashTable *a_names;        /* module file names A's functions have: set */
  GHashTable *a_by_build_id;  /* build-id -> A's module file name; NULL until needed */
  GHashTable *b_to_a;         /* B's module file name -> the name to match with */
  SpProfile  *b;
  char       *a_program;      /* program_of (a), or NULL */
  char       *b_program;
} ModuleMatch;

static const char *
basename_of (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash != NULL ? slash + 1 : path;
}

/* Each file-backed module of profile by build-id (file name as value):
 * read once per path, and only when some B module has no namesake. */
static GHashTable *
modules_by_build_id (SpProfile *profile)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  const SpModule *modules = sp_spool_reader_get_modules (reader);
  GHashTable *by_id = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) read = g_hash_table_new (g_str_hash, g_str_equal);

  for (gsize i = 0; i < sp_spool_reader_get_n_modules (reader); i++)
    {
      const SpModule *m = &modules[i];
      char *build_id;

      if (m->is_kernel || m->path[0] != '/' || g_hash_table_contains (read, m->path))
        continue;
      g_hash_table_add (read, (gpointer) m->path);
      build_id = sp_build_id_of_file (m->path, NULL);
      if (build_id != NULL)
        g_hash_table_insert (by_id, build_id, g_strdup (basename_of (m->path)));
    }
  return by_id;
}

/* The build-id of a module of B named file_name, through the first of its
 * paths that has one. */
static char *
build_id_of_name (SpProfile *profile,
                  const char *file_name)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  const SpModule *modules = sp_spool_reader_get_modules (reader);

  for (gsize i = 0; i < sp_spool_reader_get_n_modules (reader); i++)
    if (!modules[i].is_kernel && modules[i].path[0] == '/' && g_str_equal (basename_of (modules[i].path), file_name))
      {
        char *build_id = sp_build_id_of_file (modules[i].path, NULL);

        if (build_id != NULL)
          return build_id;
      }
  return NULL;
}

/* The file name of the program a recording launched (its command's
 * first word), when it is one of its modules: two builds of one program
 * under other names (prog-gcc, prog-clang) are the same program to
 * compare. NULL for an attach, -a, or a command run through a script. */
static char *
program_of (SpProfile *profile)
{
  GKeyFile *meta = sp_profile_get_meta (profile);
  g_auto (GStrv) command = meta != NULL ? g_key_file_get_string_list (meta, "recording", "command", NULL, NULL) : NULL;
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  const SpModule *modules = sp_spool_reader_get_modules (reader);
  const char *name;

  if (command == NULL || command[0] == NULL)
    return NULL;
  name = basename_of (command[0]);
  for (gsize i = 0; i < sp_spool_reader_get_n_modules (reader); i++)
    if (!modules[i].is_kernel && g_str_equal (basename_of (modules[i].path), name))
      return g_strdup (name);
  return NULL;
}

/* B's launched program stands for A's when A has no module of its name. */
static const char *
program_match (const char *a_program,
               const char *b_program,
               const char *file_name)
{
  return a_program != NULL && b_program != NULL && g_str_equal (file_name, b_program) ? a_program : NULL;
}

/* The module file name of A that B's module file_name matches: the same
 * name when A has it, else A's module with the same build-id, else A's
 * launched program for B's, else file_name itself (a module of B only). */
static const char *
matching_module (ModuleMatch *match,
                 const char *file_name)
{
  const char *known = g_hash_table_lookup (match->b_to_a, file_name);
  g_autofree char *build_id = NULL;
  const char *a_name = NULL;

  if (known != NULL)
    return known;
  if (file_name[0] == '\0' || g_hash_table_contains (match->a_names, file_name))
    a_name = file_name;
  else if ((build_id = build_id_of_name (match->b, file_name)) != NULL)
    {
      if (match->a_by_build_id == NULL)
        match->a_by_build_id = modules_by_build_id (match->a);
      a_name = g_hash_table_lookup (match->a_by_build_id, build_id);
    }
  if (a_name == NULL)
    a_name = program_match (match->a_program, match->b_program, file_name);
  if (a_name == NULL)
    a_name = file_name;
  g_hash_table_insert (match->b_to_a, g_strdup (file_name), g_strdup (a_name));
  return g_hash_table_lookup (match->b_to_a, file_name);
}

GHashTable *
sp_diff_module_map (SpProfile *a,
                    SpProfile *b)
{
  const SpSpoolReader *reader_a = sp_profile_get_reader (a);
  const SpSpoolReader *reader_b = sp_profile_get_reader (b);
  const SpModule *modules_a = sp_spool_reader_get_modules (reader_a);
  const SpModule *modules_b = sp_spool_reader_get_modules (reader_b);
  GHashTable *map = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) a_names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr (GHashTable) a_by_build_id = NULL;
  g_autofree char *a_program = program_of (a);
  g_autofree char *b_program = program_of (b);

  for (gsize i = 0; i < sp_spool_reader_get_n_modules (reader_a); i++)
    g_hash_table_add (a_names, (gpointer) basename_of (modules_a[i].path));
  for (gsize i = 0; i < sp_spool_reader_get_n_modules (reader_b); i++)
    {
      const char *name = basename_of (modules_b[i].path);
      g_autofree char *build_id = NULL;
      const char *a_name = NULL;

      if (modules_b[i].is_kernel || g_hash_table_contains (a_names, name) || g_hash_table_contains (map, name))
        continue;
      if ((build_id = build_id_of_name (b, name)) != NULL)
        {
          if (a_by_build_id == NULL)
            a_by_build_id = modules_by_build_id (a);
          a_name = g_hash_table_lookup (a_by_build_id, build_id);
        }
      if (a_name == NULL)
        a_name = program_match (a_program, b_program, name);
      if (a_name != NULL)
        g_hash_table_insert (map, g_strdup (name), g_strdup (a_name));
    }
  return map;
}

static char *
row_key (const char *module,
         const char *name)
{
  return g_strconcat (module, "\x1f", name, NULL);
}

/* What one count is worth in the normalized unit. */
static double
unit_of (SpProfile *profile,
         const SpFilter *filter,
         SpDiffNormalize normalize,
         guint64 total,
         double *span_s)
{
  double interval_s = (double) sp_spool_reader_get_sample_interval_us (sp_profile_get_reader (profile)) / 1e6;
  double count_s = filter->metric == SP_METRIC_CPU ? interval_s : 1e-9;

  *span_s = sp_diff_span_seconds (profile, filter);
  if (normalize == SP_DIFF_NORMALIZE_SHARE)
    return total > 0 ? 100.0 / (double) total : 0;
  return *span_s > 0 ? 100.0 * count_s / *span_s : 0;
}

static SpDiffRow *
row_for (SpDiff *diff,
         GHashTable *rows_by_key,
         const char *module,
         const char *name)
{
  g_autofree char *key = row_key (module, name);
  gpointer index;
  SpDiffRow row = { 0 };

  if (g_hash_table_lookup_extended (rows_by_key, key, NULL, &index))
    return &g_array_index (diff->rows, SpDiffRow, GPOINTER_TO_UINT (index));
  row.name = g_string_chunk_insert_const (diff->strings, name);
  row.module = g_string_chunk_insert_const (diff->strings, module);
  row.function_a = row.function_b = SP_DIFF_NONE;
  g_array_append_val (diff->rows, row);
  g_hash_table_insert (rows_by_key, g_steal_pointer (&key), GUINT_TO_POINTER (diff->rows->len - 1));
  return &g_array_index (diff->rows, SpDiffRow, diff->rows->len - 1);
}

typedef struct {
  SpProfile      *profile;
  const SpFilter *filter;
} ListJob;

static gpointer
make_function_list (gpointer data)
{
  ListJob *job = data;

  return sp_function_list_new (job->profile, job->filter, NULL);
}

/* Each side's function list, B's on a thread of its own: most of the
 * time is resolving each recording's frames (ELF, DWARF), which the two
 * profiles do apart (a profile is one thread's at a time, and each has
 * its own symbolizer). */
static void
function_lists (SpProfile *a,
                const SpFilter *filter_a,
                SpProfile *b,
                const SpFilter *filter_b,
                GArray **costs_a,
                GArray **costs_b)
{
  ListJob job_b = { b, filter_b };
  GThread *thread = g_thread_try_new ("sp-diff-b", make_function_list, &job_b, NULL);

  *costs_a = sp_function_list_new (a, filter_a, NULL);
  *costs_b = thread != NULL ? g_thread_join (thread) : make_function_list (&job_b);
}

static guint64
sum_self (const GArray *costs)
{
  guint64 total = 0;

  for (guint i = 0; i < costs->len; i++)
    total += g_array_index (costs, SpFunctionCost, i).self;
  return total;
}

gint
sp_diff_row_compare (gconstpointer x,
                     gconstpointer y)
{
  const SpDiffRow *a = x;
  const SpDiffRow *b = y;
  double size_a = fabs (a->delta), size_b = fabs (b->delta);
  int by_name;

  if (size_a != size_b)
    return size_a > size_b ? -1 : 1;
  if (a->self_value_b + a->self_value_a != b->self_value_b + b->self_value_a)
    return a->self_value_b + a->self_value_a > b->self_value_b + b->self_value_a ? -1 : 1;
  by_name = g_strcmp0 (a->name, b->name);
  return by_name != 0 ? by_name : g_strcmp0 (a->module, b->module);
}

SpDiff *
sp_diff_new (SpProfile *a,
             const SpFilter *filter_a,
             SpProfile *b,
             const SpFilter *filter_b,
             SpDiffNormalize normalize)
{
  g_autoptr (GArray) costs_a = NULL;
  g_autoptr (GArray) costs_b = NULL;
  g_autoptr (GHashTable) rows_by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  ModuleMatch match = { a, g_hash_table_new (g_str_hash, g_str_equal), NULL,
                        g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free), b, program_of (a),
                        program_of (b) };
  SpDiff *diff = g_new0 (SpDiff, 1);
  double unit_a, unit_b;

  if (a == b)
    {
      /* One profile is one thread's: the same recording twice is counted
       * on this one. */
      costs_a = sp_function_list_new (a, filter_a, NULL);
      costs_b = sp_function_list_new (b, filter_b, NULL);
    }
  else
    function_lists (a, filter_a, b, filter_b, &costs_a, &costs_b);
  diff->rows = g_array_new (FALSE, FALSE, sizeof (SpDiffRow));
  diff->strings = g_string_chunk_new (4096);
  diff->normalize = normalize;
  diff->total_a = sum_self (costs_a);
  diff->total_b = sum_self (costs_b);
  unit_a = unit_of (a, filter_a, normalize, diff->total_a, &diff->span_s_a);
  unit_b = unit_of (b, filter_b, normalize, diff->total_b, &diff->span_s_b);

  for (guint i = 0; i < costs_a->len; i++)
    {
      const SpFunctionCost *cost = &g_array_index (costs_a, SpFunctionCost, i);
      const SpFunction *f = sp_profile_get_function (a, cost->function);
      SpDiffRow *row = row_for (diff, rows_by_key, f->module, f->name);

      g_hash_table_add (match.a_names, (gpointer) f->module);
      row->function_a = cost->function;
      row->self_a += cost->self;
      row->total_a += cost->total;
    }
  for (guint i = 0; i < costs_b->len; i++)
    {
      const SpFunctionCost *cost = &g_array_index (costs_b, SpFunctionCost, i);
      const SpFunction *f = sp_profile_get_function (b, cost->function);
      SpDiffRow *row = row_for (diff, rows_by_key, matching_module (&match, f->module), f->name);

      row->function_b = cost->function;
      row->self_b += cost->self;
      row->total_b += cost->total;
    }
  for (guint i = 0; i < diff->rows->len; i++)
    sp_diff_row_normalize (&g_array_index (diff->rows, SpDiffRow, i), unit_a, unit_b);
  g_array_sort (diff->rows, sp_diff_row_compare);
  g_hash_table_unref (match.a_names);
  g_hash_table_unref (match.b_to_a);
  g_free (match.a_program);
  g_free (match.b_program);
  if (match.a_by_build_id != NULL)
    g_hash_table_unref (match.a_by_build_id);
  return diff;
}

void
sp_diff_row_normalize (SpDiffRow *row,
                       double unit_a,
                       double unit_b)
{
  row->self_value_a = (double) row->self_a * unit_a;
  row->total_value_a = (double) row->total_a * unit_a;
  row->self_value_b = (double) row->self_b * unit_b;
  row->total_value_b = (double) row->total_b * unit_b;
  row->delta = row->self_value_b - row->self_value_a;
}

void
sp_diff_free (SpDiff *diff)
{
  if (diff == NULL)
    return;
  g_array_unref (diff->rows);
  g_string_chunk_free (diff->strings);
  g_free (diff);
}

gboolean
sp_diff_normalize_from_name (const char *name,
                             SpDiffNormalize *normalize)
{
  if (g_str_equal (name, "share"))
    *normalize = SP_DIFF_NORMALIZE_SHARE;
  else if (g_str_equal (name, "time"))
    *normalize = SP_DIFF_NORMALIZE_TIME;
  else
    return FALSE;
  return TRUE;
}

double
sp_diff_span_seconds (SpProfile *profile,
                      const SpFilter *filter)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  gsize n = sp_spool_reader_get_n_samples (reader);
  guint64 interval_ns = sp_spool_reader_get_sample_interval_us (reader) * 1000;
  guint64 first = G_MAXUINT64, last = 0, off_first, off_last;

  if (n > 0)
    {
      first = sp_spool_reader_get_sample_timestamp (reader, 0);
      /* A sample stands for the interval it ends. */
      last = sp_spool_reader_get_sample_timestamp (reader, n - 1) + interval_ns;
    }
  if (filter->metric != SP_METRIC_CPU && sp_profile_has_off_cpu (profile)
      && sp_profile_get_off_cpu_span (profile, &off_first, &off_last))
    {
      first = MIN (first, off_first);
      last = MAX (last, off_last);
    }
  first = MAX (first, filter->from_ns);
  last = MIN (last, filter->to_ns);
  return last > first ? (double) (last - first) / 1e9 : 0;
}
