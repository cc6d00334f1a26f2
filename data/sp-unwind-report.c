/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-unwind-report.c: the side file's unwinding statistics, explained. */
#include "sp-unwind-report.h"

#include <string.h>

static guint64
get_u64 (GKeyFile *meta,
         const char *group,
         const char *key)
{
  g_autoptr (GError) error = NULL;
  guint64 value = g_key_file_get_uint64 (meta, group, key, &error);

  return error != NULL ? 0 : value;
}

static void
module_free (gpointer data)
{
  SpUnwindModuleStats *module = data;

  g_free (module->path);
  g_free (module);
}

static int
compare_by_stops (gconstpointer a,
                  gconstpointer b)
{
  const SpUnwindModuleStats *x = *(const SpUnwindModuleStats *const *) a;
  const SpUnwindModuleStats *y = *(const SpUnwindModuleStats *const *) b;
  guint64 sx = x->stopped + x->truncated;
  guint64 sy = y->stopped + y->truncated;

  if (sx != sy)
    return sx > sy ? -1 : 1;
  return (x->samples < y->samples) - (x->samples > y->samples);
}

SpUnwindReport *
sp_unwind_report_new (GKeyFile *meta)
{
  g_auto (GStrv) groups = NULL;
  SpUnwindReport *report;

  if (meta == NULL || !g_key_file_has_group (meta, "unwinding"))
    return NULL;
  report = g_new0 (SpUnwindReport, 1);
  report->call_graph = g_key_file_get_string (meta, "recording", "call_graph", NULL);
  report->stack_size = get_u64 (meta, "recording", "stack_size");
  report->dropped = get_u64 (meta, "recording", "dropped_samples");
  report->recorded_by = sp_recorded_by (meta);
  report->samples = get_u64 (meta, "unwinding", "samples");
  report->frame_pointer = get_u64 (meta, "unwinding", "frame_pointer");
  report->complete = get_u64 (meta, "unwinding", "complete");
  report->truncated = get_u64 (meta, "unwinding", "truncated");
  report->stopped = get_u64 (meta, "unwinding", "stopped");
  report->modules = g_ptr_array_new_with_free_func (module_free);

  groups = g_key_file_get_groups (meta, NULL);
  for (gsize i = 0; groups[i] != NULL; i++)
    {
      SpUnwindModuleStats *module;
      const char *g = groups[i];

      if (!g_str_has_prefix (g, "unwind-module "))
        continue;
      module = g_new0 (SpUnwindModuleStats, 1);
      module->path = g_key_file_get_string (meta, g, "path", NULL);
      if (module->path == NULL)
        module->path = g_strdup ("?");
      module->readable = g_key_file_get_boolean (meta, g, "readable", NULL);
      module->eh_frame = g_key_file_get_boolean (meta, g, "eh_frame", NULL);
      module->debug_frame = g_key_file_get_boolean (meta, g, "debug_frame", NULL);
      module->debuglink = g_key_file_get_boolean (meta, g, "debuglink", NULL);
      module->symbols = g_key_file_get_boolean (meta, g, "symbols", NULL);
      module->functions = get_u64 (meta, g, "functions");
      module->frame_pointer_functions = get_u64 (meta, g, "frame_pointer_functions");
      module->samples = get_u64 (meta, g, "samples");
      module->frame_pointer = get_u64 (meta, g, "frame_pointer");
      module->truncated = get_u64 (meta, g, "truncated");
      module->stopped = get_u64 (meta, g, "stopped");
      g_ptr_array_add (report->modules, module);
    }
  g_ptr_array_sort (report->modules, compare_by_stops);
  return report;
}

void
sp_unwind_report_free (SpUnwindReport *report)
{
  if (report == NULL)
    return;
  g_free (report->call_graph);
  g_ptr_array_unref (report->modules);
  g_free (report);
}

double
sp_unwind_report_percent (const SpUnwindReport *report,
                          guint64 part)
{
  return report->samples > 0 ? 100.0 * (double) part / (double) report->samples : 0.0;
}

const char *
sp_unwind_module_name (const SpUnwindModuleStats *module)
{
  const char *slash = strrchr (module->path, '/');

  return slash != NULL ? slash + 1 : module->path;
}

/* Debian's debug packages are named after the source package, which the
 * file name does not tell; the library's name is the usual stem. */
static char *
debug_package_hint (const SpUnwindModuleStats *module)
{
  g_autofree char *stem = g_strdup (sp_unwind_module_name (module));
  char *dot = strstr (stem, ".so");

  if (dot != NULL)
    *dot = '\0';
  return g_strdup_printf ("%s-dbgsym", stem);
}

static char *
stop_reason (const SpUnwindModuleStats *module)
{
  g_autofree char *package = debug_package_hint (module);

  if (g_str_equal (module->path, "[unknown]"))
    return g_strdup ("code outside any file (JIT or unknown mappings); "
                     "a /tmp/perf-PID.map does not help unwinding, frame pointers in the JIT do");
  if (!module->readable)
    return g_strdup ("the file could not be read (deleted, replaced or in another mount namespace)");
  if (!module->eh_frame && !module->debug_frame)
    return g_strdup_printf ("no unwind tables; install its debug symbols (%s) "
                            "or rebuild it with -fasynchronous-unwind-tables or frame pointers", package);
  if (!module->symbols)
    return g_strdup_printf ("no symbols either; install its debug symbols (%s)", package);
  return g_strdup ("its unwind tables do not cover every address "
                   "(hand-written assembly, or code without CFI)");
}

GPtrArray *
sp_unwind_report_advice (const SpUnwindReport *report,
                         double min_percent)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < report->modules->len; i++)
    {
      const SpUnwindModuleStats *module = g_ptr_array_index (report->modules, i);
      double stopped = sp_unwind_report_percent (report, module->stopped);
      double truncated = sp_unwind_report_percent (report, module->truncated);

      if (module->stopped > 0 && stopped >= min_percent)
        {
          g_autofree char *reason = stop_reason (module);

          g_ptr_array_add (lines, g_strdup_printf ("%s: %.1f%% of stacks stop here: %s",
                                                   sp_unwind_module_name (module), stopped, reason));
        }
      if (module->truncated > 0 && truncated >= min_percent)
        {
          g_autofree char *deeper = sp_record_advice_stack_size (report->recorded_by, report->stack_size);

          g_ptr_array_add (lines, g_strdup_printf ("%s: %.1f%% of stacks are deeper than the %" G_GUINT64_FORMAT
                                                   "-byte stack copy here; %s", sp_unwind_module_name (module),
                                                   truncated, report->stack_size, deeper));
        }
    }
  if (report->dropped > 0)
    {
      const char *cheaper = sp_record_advice_fell_behind (report->recorded_by);

      g_ptr_array_add (lines, g_strdup_printf ("%" G_GUINT64_FORMAT " samples were dropped because unwinding fell "
                                               "behind%s%s", report->dropped, cheaper != NULL ? "; " : "",
                                               cheaper != NULL ? cheaper : ""));
    }
  return lines;
}
