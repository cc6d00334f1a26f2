/* SPDX-License-Identifier: GPL-3.0-or-later */
/* perf-data-run.c: running perf and reading its report's text. */
#include "perf-data-run.h"

#include <math.h>
#include <string.h>

#include "report-output.h"

#define SHARE_TOLERANCE 3.0
#define TOP_ROWS        5

static gboolean
ci_is_set (void)
{
  const char *ci = g_getenv ("CI");

  return ci != NULL && *ci != '\0' && !g_str_equal (ci, "false") && !g_str_equal (ci, "0");
}

const char *
sp_test_perf_data_needs_perf (void)
{
  static char *perf;

  if (!sp_test_case_needs_perf ())
    return NULL;
  if (perf == NULL)
    perf = g_find_program_in_path ("perf");
  if (perf == NULL)
    {
      if (ci_is_set ())
        g_error ("perf is not installed, but CI is set: install linux-perf (scripts/install-deps)");
      g_test_skip ("perf is not installed (Debian's linux-perf)");
    }
  return perf;
}

char *
sp_test_perf_record (const char *perf,
                     const char *dir,
                     const char *name,
                     const char *const *args,
                     const char *const *command)
{
  char *data = g_build_filename (dir, name, NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (SpChildResult) result = NULL;

  g_ptr_array_add (argv, (char *) perf);
  g_ptr_array_add (argv, "record");
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, data);
  g_ptr_array_add (argv, "--");
  for (const char *const *a = command; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  result = sp_test_run (dir, "perf-record", (const char *const *) argv->pdata);
  g_test_message ("perf record: %s", result->err);
  if (result->exit_code != 0)
    g_error ("perf record exited with %d:\n%s", result->exit_code, result->err);
  return data;
}

SpChildResult *
sp_test_convert (const char *dir,
                 const char *input,
                 const char *const *extra)
{
  g_autofree char *spool = g_build_filename (dir, "out.spool", NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  SpChildResult *result;

  g_ptr_array_add (argv, (char *) sp_test_recorder ());
  g_ptr_array_add (argv, "--input");
  g_ptr_array_add (argv, (char *) input);
  g_ptr_array_add (argv, "-o");
  g_ptr_array_add (argv, spool);
  for (const char *const *a = extra; a != NULL && *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  result = sp_test_run (dir, "convert", (const char *const *) argv->pdata);
  g_test_message ("stackpulse-record --input %s: exit %d\n%s", input, result->exit_code, result->err);
  return result;
}

static char *
perf_report (const char *perf,
             const char *dir,
             const char *const *args)
{
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (SpChildResult) result = NULL;

  g_ptr_array_add (argv, (char *) perf);
  g_ptr_array_add (argv, "report");
  for (const char *const *a = args; *a != NULL; a++)
    g_ptr_array_add (argv, (char *) *a);
  g_ptr_array_add (argv, NULL);
  result = sp_test_run (dir, "perf-report", (const char *const *) argv->pdata);
  if (result->exit_code != 0)
    g_error ("perf report exited with %d:\n%s", result->exit_code, result->err);
  return g_strdup (result->out);
}

/* Whether perf's event name (with its modifiers: "cpu-clock:ppp") is
 * event's. */
static gboolean
is_event (const char *name,
          const char *event)
{
  return event == NULL || g_str_equal (name, event)
         || (g_str_has_prefix (name, event) && name[strlen (event)] == ':');
}

guint64
sp_test_perf_samples (const char *perf,
                      const char *dir,
                      const char *data,
                      const char *event)
{
  g_autofree char *text = perf_report (perf, dir, (const char *const[]) { "--stdio", "--no-children", "-n", "-g",
                                                                         "none", "--sort", "pid", "-i", data, NULL });
  g_autoptr (GRegex) heading = g_regex_new ("^# Samples: .* of event '([^']*)'", 0, 0, NULL);
  g_autoptr (GRegex) row = g_regex_new ("^\\s*[0-9.]+%\\s+([0-9]+)\\s+\\S", 0, 0, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  gboolean counting = FALSE;
  guint64 n = 0;

  /* Each event's rows (one per thread) under its heading, whose own count
   * perf abbreviates from 1000 on ("1K"): the rows' counts are exact. */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GMatchInfo) heading_match = NULL;
      g_autoptr (GMatchInfo) row_match = NULL;

      if (g_regex_match (heading, lines[i], 0, &heading_match))
        {
          g_autofree char *name = g_match_info_fetch (heading_match, 1);

          counting = is_event (name, event);
        }
      else if (counting && g_regex_match (row, lines[i], 0, &row_match))
        {
          g_autofree char *count = g_match_info_fetch (row_match, 1);

          n += g_ascii_strtoull (count, NULL, 10);
        }
    }
  return n;
}

static void
perf_row_free (gpointer data)
{
  SpPerfRow *row = data;

  g_free (row->key);
  g_free (row);
}

GPtrArray *
sp_test_perf_report_rows (const char *perf,
                          const char *dir,
                          const char *data,
                          const char *sort)
{
  g_autofree char *text = perf_report (perf, dir, (const char *const[]) { "--stdio", "--no-children", "-n", "-g",
                                                                         "none", "--sort", sort, "-i", data, NULL });
  /* "    26.45%           160  [.] beta_leaf" or "  36.98%   203    13928:sp-work-threads" */
  g_autoptr (GRegex) row = g_regex_new ("^\\s*([0-9.]+)%\\s+([0-9]+)\\s+(?:\\[.\\]\\s+)?(\\S.*?)\\s*$",
                                        G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  GPtrArray *rows = g_ptr_array_new_with_free_func (perf_row_free);

  g_test_message ("perf report --sort %s:\n%s", sort, text);
  for (g_regex_match (row, text, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree char *share = g_match_info_fetch (match, 1);
      g_autofree char *samples = g_match_info_fetch (match, 2);
      SpPerfRow *r = g_new0 (SpPerfRow, 1);

      r->share = g_ascii_strtod (share, NULL);
      r->samples = g_ascii_strtoull (samples, NULL, 10);
      r->key = g_match_info_fetch (match, 3);
      g_ptr_array_add (rows, r);
    }
  return rows;
}

guint64
sp_test_meta_samples (const char *meta_path)
{
  g_autoptr (GKeyFile) meta = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  guint64 samples;

  g_key_file_load_from_file (meta, meta_path, G_KEY_FILE_NONE, &error);
  g_assert_no_error (error);
  samples = g_key_file_get_uint64 (meta, "recording", "samples", &error);
  g_assert_no_error (error);
  return samples;
}

gboolean
sp_test_is_thread_root (const char *function)
{
  static const char *const roots[] = {
    "_start", "clone3", "clone", "__clone", "__clone3",
    "runtime.goexit", "runtime.mstart", "runtime.clone", "runtime.rt0_go", "_rt0_amd64_linux",
  };
  g_autofree char *name = g_strdup (function);

  /* Go names its assembly functions' ABI0 entry points "NAME.abi0". */
  if (g_str_has_suffix (name, ".abi0"))
    name[strlen (name) - strlen (".abi0")] = '\0';
  for (guint i = 0; i < G_N_ELEMENTS (roots); i++)
    if (g_str_equal (name, roots[i]))
      return TRUE;
  return FALSE;
}

double
sp_test_rooted_share (GHashTable *stacks)
{
  GHashTableIter iter;
  gpointer key, value;
  guint64 rooted = 0, total = 0;

  g_hash_table_iter_init (&iter, stacks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autofree char *outermost = g_strndup (key, strcspn (key, ";"));

      total += *(guint64 *) value;
      if (sp_test_is_thread_root (outermost))
        rooted += *(guint64 *) value;
    }
  return total > 0 ? (double) rooted / (double) total : 0.0;
}

/* The self share of the rows named name or an alias of it, outside the
 * kernel, that begins with "__" and ends with "_name" (glibc's __read,
 * __libc_read, __GI___libc_read, ASan's __interceptor_read for read). */
static double
alias_share (GPtrArray *rows,
             const char *name)
{
  gsize len = strlen (name);
  double share = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      const SpReportRow *row = g_ptr_array_index (rows, i);
      gsize row_len = strlen (row->name);

      /* Not the kernel's (vfs_read is no alias of read). */
      if (g_str_equal (row->name, name)
          || (row_len > len && g_str_has_prefix (row->name, "__") && g_str_has_suffix (row->name, name)
              && row->name[row_len - len - 1] == '_' && g_strcmp0 (row->module, "kernel.kallsyms") != 0))
        share += row->self_pct;
    }
  return share;
}

/* `stackpulse-report top` of spool beside `perf report --sort sym` of
 * data: perf's top functions (those over 2%) with their self shares within
 * 3 points, and the top function perf's, or one within 3 points of it;
 * each lists at least min_rows functions. */
void
sp_test_assert_top_shares (const char *perf,
                           const char *dir,
                           const char *data,
                           const char *spool,
                           guint min_rows)
{
  g_autofree char *top = NULL;
  g_autoptr (GPtrArray) perf_rows = NULL;
  g_autoptr (GPtrArray) rows = NULL;

  top = sp_test_report (dir, "top", spool, NULL);
  g_test_message ("stackpulse-report top:\n%s", top);
  rows = sp_test_parse_rows (top);
  perf_rows = sp_test_perf_report_rows (perf, dir, data, "sym");
  g_assert_cmpuint (perf_rows->len, >=, min_rows);
  g_assert_cmpuint (rows->len, >=, min_rows);
  for (guint i = 0; i < TOP_ROWS && i < perf_rows->len; i++)
    {
      const SpPerfRow *p = g_ptr_array_index (perf_rows, i);
      const SpReportRow *row = sp_test_find_row (rows, p->key);

      if (p->share < 2.0)
        continue;
      double share = row != NULL ? row->self_pct : 0;

      /* A glibc function has aliases at its address (read: __read,
       * __libc_read, __GI___libc_read): perf and stackpulse may each name
       * it by another, the tail of every one being the shortest. */
      if (row == NULL || fabs (share - p->share) > SHARE_TOLERANCE)
        share = alias_share (rows, p->key);
      if (row == NULL && share == 0)
        g_error ("perf report's %s (%.2f%%) is not in stackpulse-report top", p->key, p->share);
      g_test_message ("%s: perf %.2f%%, stackpulse %.2f%%", p->key, p->share, share);
      g_assert_cmpfloat (fabs (share - p->share), <=, SHARE_TOLERANCE);
    }
  /* The top function is perf's top one, or one within the tolerance of it. */
  {
    const SpReportRow *first = g_ptr_array_index (rows, 0);
    const SpPerfRow *perf_first = g_ptr_array_index (perf_rows, 0);
    gboolean found = FALSE;

    for (guint i = 0; i < perf_rows->len; i++)
      {
        const SpPerfRow *p = g_ptr_array_index (perf_rows, i);

        found = found || (g_str_equal (p->key, first->name) && perf_first->share - p->share <= SHARE_TOLERANCE);
      }
    if (!found)
      g_error ("stackpulse-report's top function %s is not perf report's (%s)", first->name, perf_first->key);
  }
}
