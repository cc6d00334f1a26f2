/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-report-annotate.c: stackpulse-report annotate, a function's source
 * lines or instructions with their self and total.
 *
 * The numbers come from data/sp-annotation.c (costs per address and
 * line) and data/sp-disassembly.c (instructions); this file finds the
 * function, chooses its place, reads the source (data/sp-source-file.c)
 * and prints. Shares are of the function's total (as perf annotate gives
 * shares of the function's samples); with a time metric, seconds follow. */
#include "sp-report.h"

#include <glib/gstdio.h>
#include <string.h>

#include "sp-annotation.h"
#include "sp-debug-advice.h"
#include "sp-disassembly.h"
#include "sp-function-list.h"
#include "sp-source-file.h"
#include "sp-symbolizer.h"

/* Lines shown before the first line with a cost, and after the last. */
#define CONTEXT_LINES 2

static double
share (guint64 part,
       guint64 whole)
{
  return whole > 0 ? 100.0 * (double) part / (double) whole : 0.0;
}

/* The cost columns of a text row: shares, then seconds with a time metric;
 * the hottest row gets the marker. */
static void
print_costs (SpAnnotation *annotation,
             guint64 self_cost,
             guint64 total_cost,
             gboolean hottest,
             FILE *out)
{
  guint64 whole = sp_annotation_get_total (annotation);

  fprintf (out, "%s %7.2f%% %7.2f%%", hottest ? ">" : " ", share (self_cost, whole), share (total_cost, whole));
  if (sp_annotation_get_metric (annotation) != SP_METRIC_CPU)
    fprintf (out, " %10.3f %10.3f", self_cost / 1e9, total_cost / 1e9);
}

static void
print_tsv_costs (SpAnnotation *annotation,
                 guint64 self_cost,
                 guint64 total_cost,
                 FILE *out)
{
  guint64 whole = sp_annotation_get_total (annotation);

  fprintf (out, "%" G_GUINT64_FORMAT "\t%" G_GUINT64_FORMAT "\t%.2f\t%.2f", self_cost, total_cost,
           share (self_cost, whole), share (total_cost, whole));
}

/* Which of n costs to mark as the hottest: the most self, else (no self
 * anywhere: the function only calls) the most total. */
typedef struct {
  guint   best;
  guint64 best_self;
  guint64 best_total;
} Hottest;

static void
hottest_consider (Hottest *h,
                  guint index,
                  guint64 self_cost,
                  guint64 total_cost)
{
  if (self_cost + total_cost == 0)
    return;
  if (h->best == G_MAXUINT || self_cost > h->best_self || (self_cost == h->best_self && total_cost > h->best_total))
    *h = (Hottest) { index, self_cost, total_cost };
}

/* text with its control characters (but tab) escaped, "\x1b", and bytes
 * that are no UTF-8 as "\xNN": a source file (perhaps from a remote
 * debuginfod server) must not send a terminal its escape sequences. */
static char *
printable (const char *text)
{
  GString *out = g_string_sized_new (strlen (text));
  const char *p = text;

  while (*p != '\0')
    {
      gunichar c = g_utf8_get_char_validated (p, -1);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append_printf (out, "\\x%02x", (guchar) *p++);
          continue;
        }
      if (c != '\t' && g_unichar_iscntrl (c))
        g_string_append_printf (out, c < 0x80 ? "\\x%02x" : "\\u%04x", c);
      else
        g_string_append_len (out, p, g_utf8_next_char (p) - p);
      p = g_utf8_next_char (p);
    }
  return g_string_free (out, FALSE);
}

/* ---- Source ------------------------------------------------------------- */

/* The line rows' first and last line, with a little context. */
static void
line_span (SpAnnotation *annotation,
           const SpAnnotationFile *file,
           gboolean own,
           guint n_text,
           guint *first,
           guint *last)
{
  *first = file->lines[0].line;
  *last = file->lines[file->n_lines - 1].line;
  if (own && sp_annotation_get_decl_line (annotation) > 0)
    *first = MIN (*first, sp_annotation_get_decl_line (annotation));
  *first = *first > CONTEXT_LINES ? *first - CONTEXT_LINES : 1;
  *last += CONTEXT_LINES;
  if (n_text > 0)
    *last = MIN (*last, MAX (n_text, *first));
}

/* The module the annotation's code is in (one: several are refused
 * before), NULL when no place has a file. */
static const char *
annotation_module (SpAnnotation *annotation)
{
  guint n;
  const SpAnnotationPlace *places = sp_annotation_get_places (annotation, &n);

  for (guint i = 0; i < n; i++)
    if (places[i].module[0] == '/')
      return places[i].module;
  return NULL;
}

/* A source file written after the program was built may no longer hold
 * the lines its code came from (as gdb warns). */
static void
warn_if_newer (const char *source,
               const char *module,
               FILE *err)
{
  GStatBuf source_stat, module_stat;

  if (module == NULL || g_stat (source, &source_stat) != 0 || g_stat (module, &module_stat) != 0)
    return;
  if (source_stat.st_mtime > module_stat.st_mtime)
    fprintf (err, "stackpulse-report: warning: %s is newer than %s: its lines may not be the ones the code was "
             "built from\n", source, module);
}

/* Here (as named, then under --source-dir), else from debuginfod. */
static char *
find_source (SpAnnotation *annotation,
             const char *path,
             const SpAnnotateOptions *options,
             GPtrArray *tried,
             FILE *err)
{
  char *found = sp_source_file_find (path, (const char *const *) options->source_dirs, tried);
  const char *module = annotation_module (annotation);

  /* (A fetched copy is as new as its fetch.) */
  if (found != NULL)
    warn_if_newer (found, module, err);
  else if (options->debuginfod && module != NULL)
    found = sp_report_fetch_source (module, path, tried);
  return found;
}

/* The lines of the file found for path (*found: the file read). */
static GStrv
read_source (SpAnnotation *annotation,
             const char *path,
             const SpAnnotateOptions *options,
             char **found_out,
             FILE *err)
{
  g_autoptr (GPtrArray) tried = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *found = find_source (annotation, path, options, tried, err);
  g_autoptr (GError) error = NULL;
  GStrv lines;

  if (found == NULL)
    {
      g_autofree char *places = NULL;
      g_autofree char *where = NULL;

      g_ptr_array_add (tried, NULL);
      places = g_strjoinv (", ", (char **) tried->pdata);
      /* A relative name without a compilation folder: nowhere to look. */
      where = tried->len > 1 ? g_strdup_printf ("looked at %s", places)
                             : g_strdup ("the debug info gives no folder to look in");
      fprintf (err, "stackpulse-report: source file %s not found (%s); "
               "give the folder it is in with --source-dir DIR (or --source-dir BUILD_PREFIX=DIR)\n", path, where);
      return NULL;
    }
  lines = sp_source_file_read_lines (found, &error);
  if (lines == NULL)
    fprintf (err, "stackpulse-report: %s\n", error->message);
  *found_out = g_steal_pointer (&found);
  return lines;
}

/* The file's heading: the file read, and the path it was built as when
 * that is another (found under --source-dir, fetched). */
static void
print_file_heading (const char *dwarf_path,
                    const char *found,
                    FILE *out)
{
  g_autofree char *shown = printable (found != NULL ? found : dwarf_path);
  g_autofree char *built = printable (dwarf_path);

  if (found != NULL && !g_str_equal (found, dwarf_path))
    fprintf (out, "\n%s  (built as %s)\n", shown, built);
  else
    fprintf (out, "\n%s\n", shown);
}

static void
print_source_file (SpAnnotation *annotation,
                   guint index,
                   const SpAnnotateOptions *options,
                   FILE *out,
                   FILE *err)
{
  guint n_files;
  const SpAnnotationFile *file = &sp_annotation_get_files (annotation, &n_files)[index];
  g_autofree char *found = NULL;
  g_auto (GStrv) text = read_source (annotation, file->path, options, &found, err);
  guint n_text = text != NULL ? g_strv_length (text) : 0;
  Hottest hottest = { G_MAXUINT, 0, 0 };
  guint first, last, next = 0;

  for (guint i = 0; i < file->n_lines; i++)
    hottest_consider (&hottest, file->lines[i].line, file->lines[i].self, file->lines[i].total);
  line_span (annotation, file, index == 0, n_text, &first, &last);
  if (!options->tsv)
    print_file_heading (file->path, found, out);
  for (guint line = first; line <= last; line++)
    {
      const SpAnnotationLine *row = next < file->n_lines && file->lines[next].line == line ? &file->lines[next++] : NULL;
      g_autofree char *line_text = printable (line <= n_text ? text[line - 1] : "");

      /* Without the text, only the lines with a cost. */
      if (row == NULL && text == NULL)
        continue;
      if (options->tsv)
        {
          g_autofree char *field = sp_report_field (line_text);

          fprintf (out, "%s\t%u\t", file->path, line);
          print_tsv_costs (annotation, row ? row->self : 0, row ? row->total : 0, out);
          fprintf (out, "\t%s\n", field);
          continue;
        }
      if (row != NULL)
        print_costs (annotation, row->self, row->total, line == hottest.best, out);
      else
        fprintf (out, "%*s", sp_annotation_get_metric (annotation) != SP_METRIC_CPU ? 41 : 19, "");
      fprintf (out, " %6u  %s\n", line, line_text);
    }
}

/* FALSE when there are no lines to show (as --asm fails when there are
 * no instructions). */
static gboolean
print_source (SpAnnotation *annotation,
              const SpAnnotateOptions *options,
              FILE *out,
              FILE *err)
{
  guint n_files, n_places;
  const SpAnnotationPlace *places = sp_annotation_get_places (annotation, &n_places);

  sp_annotation_get_files (annotation, &n_files);
  if (n_files == 0)
    fprintf (err, "stackpulse-report: %s has no source lines (no debug info: %s, or see --asm)\n",
             sp_annotation_get_function (annotation),
             sp_debug_info_advice (n_places > 0 ? places[0].module : NULL));
  if (options->tsv)
    fprintf (out, "file\tline\tself\ttotal\tself_pct\ttotal_pct\ttext\n");
  for (guint i = 0; i < n_files; i++)
    print_source_file (annotation, i, options, out, err);
  return n_files > 0;
}

/* ---- Instructions ----------------------------------------------------------- */

static char *
source_of (const SpInstruction *insn)
{
  g_autofree char *base = insn->file != NULL ? g_path_get_basename (insn->file) : NULL;

  return base != NULL && insn->line > 0 ? g_strdup_printf ("%s:%u", base, insn->line) : g_strdup ("");
}

static void
print_instruction (SpAnnotation *annotation,
                   const SpInstruction *insn,
                   gboolean hottest,
                   gboolean tsv,
                   FILE *out)
{
  const char *text = insn->text;
  g_autofree char *source = source_of (insn);

  if (tsv)
    {
      g_autofree char *field = sp_report_field (text);

      fprintf (out, "%" G_GINT64_MODIFIER "x\t", insn->vaddr);
      print_tsv_costs (annotation, insn->self, insn->total, out);
      fprintf (out, "\t%u\t%s\t%s\n", insn->line, insn->file != NULL ? insn->file : "", field);
      return;
    }
  print_costs (annotation, insn->self, insn->total, hottest, out);
  fprintf (out, " %8" G_GINT64_MODIFIER "x:  %-40s %s\n", insn->vaddr, text, source);
}

static gboolean
print_place (SpProfile *profile,
             SpAnnotation *annotation,
             guint place,
             gboolean tsv,
             FILE *out,
             FILE *err)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (SpDisassembly) disassembly = sp_disassembly_new (profile, annotation, place, &error);
  Hottest hottest = { G_MAXUINT, 0, 0 };
  const SpInstruction *insns;
  guint n;

  if (disassembly == NULL)
    {
      fprintf (err, "stackpulse-report: %s\n", error->message);
      return FALSE;
    }
  insns = sp_disassembly_get_instructions (disassembly, &n);
  for (guint i = 0; i < n; i++)
    hottest_consider (&hottest, i, insns[i].self, insns[i].total);
  if (!tsv)
    fprintf (out, "\n%s  [%s]  at %" G_GINT64_MODIFIER "x, %" G_GUINT64_FORMAT " bytes\n",
             sp_disassembly_get_function (disassembly), sp_annotation_get_places (annotation, &n)[place].module,
             sp_disassembly_get_start (disassembly), sp_disassembly_get_size (disassembly));
  if (sp_disassembly_get_note (disassembly) != NULL)
    fprintf (err, "stackpulse-report: %s: %s\n", sp_disassembly_get_function (disassembly),
             sp_disassembly_get_note (disassembly));
  insns = sp_disassembly_get_instructions (disassembly, &n);
  for (guint i = 0; i < n; i++)
    print_instruction (annotation, &insns[i], i == hottest.best, tsv, out);
  return TRUE;
}

/* Every place (in the one module chosen): the function itself, and each
 * function it is inlined into. */
static gboolean
print_instructions (SpProfile *profile,
                    SpAnnotation *annotation,
                    const SpAnnotateOptions *options,
                    FILE *out,
                    FILE *err)
{
  guint n_places;
  const SpAnnotationPlace *places = sp_annotation_get_places (annotation, &n_places);
  gboolean ok = TRUE;
  guint n_files = 0;

  if (options->tsv)
    fprintf (out, "address\tself\ttotal\tself_pct\ttotal_pct\tline\tfile\tinstruction\n");
  for (guint i = 0; i < n_places; i++)
    if (places[i].module[0] == '/')
      {
        ok &= print_place (profile, annotation, i, options->tsv, out, err);
        n_files++;
      }
  /* JIT code, anonymous memory: no file holds its bytes. */
  if (n_files == 0)
    fprintf (err, "stackpulse-report: %s is in no file to disassemble (JIT code or anonymous memory)\n",
             sp_annotation_get_function (annotation));
  return ok && n_files > 0;
}

/* ---- The function ------------------------------------------------------------ */

/* Why a function may have no name: modules gone, changed or stripped
 * leave their frames as addresses. */
static void
print_symbol_problems (SpProfile *profile,
                       FILE *err)
{
  const GArray *problems = sp_profile_get_symbol_problem_details (profile);

  for (guint i = 0; i < problems->len; i++)
    {
      const SpSymbolProblem *problem = &g_array_index (problems, SpSymbolProblem, i);

      if (problem->kind != SP_SYMBOL_PROBLEM_NO_DEBUG_INFO)
        fprintf (err, "stackpulse-report: note: %s\n", problem->message);
    }
}

/* Kernel code has no file here to read lines or instructions from: say
 * so, rather than blame missing debug info. */
static gboolean
check_not_kernel (SpProfile *profile,
                  GArray *ids,
                  FILE *err)
{
  for (guint i = 0; i < ids->len; i++)
    if (sp_profile_get_function (profile, g_array_index (ids, guint32, i))->kind != SP_FUNCTION_KERNEL)
      return TRUE;
  fprintf (err, "stackpulse-report: %s is kernel code: annotate shows the source lines and instructions of "
           "programs and libraries only (top and tree show its share)\n",
           sp_profile_get_function (profile, g_array_index (ids, guint32, 0))->name);
  return FALSE;
}

/* Several names for a substring: the user must say which. */
static gboolean
check_one_name (SpProfile *profile,
                GArray *ids,
                const char *name,
                FILE *err)
{
  const char *first = sp_profile_get_function (profile, g_array_index (ids, guint32, 0))->name;

  for (guint i = 1; i < ids->len; i++)
    if (!g_str_equal (sp_profile_get_function (profile, g_array_index (ids, guint32, i))->name, first))
      {
        fprintf (err, "stackpulse-report: '%s' names several functions; give one of them whole:\n", name);
        for (guint j = 0; j < ids->len; j++)
          fprintf (err, "  %s  [%s]\n", sp_profile_get_function (profile, g_array_index (ids, guint32, j))->name,
                   sp_profile_get_function (profile, g_array_index (ids, guint32, j))->module);
        return FALSE;
      }
  return TRUE;
}

/* The function's places with their share: all of them ("in f
 * [module]"), or only where it is inlined into another function. */
static void
print_places (SpAnnotation *annotation,
              gboolean only_inlined,
              FILE *out)
{
  guint n;
  const SpAnnotationPlace *places = sp_annotation_get_places (annotation, &n);
  const char *function = sp_annotation_get_function (annotation);

  for (guint i = 0; i < n; i++)
    if (!only_inlined || !g_str_equal (places[i].function, function))
      fprintf (out, "  %7.2f%%  %s %s  [%s]\n", share (places[i].total, sp_annotation_get_total (annotation)),
               g_str_equal (places[i].function, function) ? "in" : "inlined into", places[i].function,
               places[i].module[0] != '\0' ? places[i].module : "no module");
}

static void
print_header (SpAnnotation *annotation,
              FILE *out)
{
  SpMetric metric = sp_annotation_get_metric (annotation);
  guint64 all = sp_annotation_get_all (annotation);

  fprintf (out, "%s: self %.2f%%, total %.2f%% of %s", sp_annotation_get_function (annotation),
           share (sp_annotation_get_self (annotation), all), share (sp_annotation_get_total (annotation), all),
           metric == SP_METRIC_CPU ? "the samples" : metric == SP_METRIC_OFF_CPU ? "the off-CPU time"
                                                                                 : "the wall-clock time");
  fprintf (out, "; below, shares of the function's total (> marks the hottest)\n");
  print_places (annotation, TRUE, out);
  fprintf (out, "%s   self%%  total%%%s\n", " ", metric != SP_METRIC_CPU ? "     self_s    total_s" : "");
}

int
sp_report_annotate (SpProfile *profile,
                    const SpFilter *filter,
                    const SpAnnotateOptions *options,
                    FILE *out,
                    FILE *err)
{
  g_autoptr (SpStackCounts) counts = sp_stack_counts_new (profile, filter);
  g_autoptr (GArray) ids = NULL;
  g_autoptr (SpAnnotation) annotation = NULL;

  /* An empty name would be in every name. */
  if (options->function[0] == '\0')
    {
      fprintf (err, "stackpulse-report: annotate needs a function name (the one given is empty)\n");
      return 2;
    }
  /* Functions get their ids as the stacks' frames are resolved: with no
   * sample counted, no function would be found, which is not the news. */
  if (counts->total == 0)
    {
      fprintf (err, "stackpulse-report: no samples in what is chosen (the threads, time range or metric "
               "leave none)\n");
      return 1;
    }
  g_array_unref (sp_function_list_new (profile, NULL, counts));
  ids = sp_annotation_find_functions (profile, options->function, options->module);
  if (ids->len == 0)
    {
      fprintf (err, "stackpulse-report: no function named '%s'%s%s%s\n", options->function,
               options->module != NULL ? " in module '" : "", options->module != NULL ? options->module : "",
               options->module != NULL ? "'" : "");
      print_symbol_problems (profile, err);
      return 1;
    }
  if (!check_one_name (profile, ids, options->function, err))
    return 2;
  if (!check_not_kernel (profile, ids, err))
    return 1;
  annotation = sp_annotation_new (profile, filter, counts, (const guint32 *) ids->data, ids->len);
  if (sp_annotation_get_n_modules (annotation) > 1)
    {
      fprintf (err, "stackpulse-report: %s is in %u modules; choose one with --module NAME:\n",
               sp_annotation_get_function (annotation), sp_annotation_get_n_modules (annotation));
      print_places (annotation, FALSE, err);
      return 2;
    }
  /* Nothing to show: no rows, and no word about debug info. */
  if (sp_annotation_get_total (annotation) == 0)
    {
      fprintf (err, "stackpulse-report: %s has no samples in what is chosen\n",
               sp_annotation_get_function (annotation));
      return 1;
    }
  if (!options->tsv)
    print_header (annotation, out);
  if (options->asm_view)
    return print_instructions (profile, annotation, options, out, err) ? 0 : 1;
  return print_source (annotation, options, out, err) ? 0 : 1;
}
