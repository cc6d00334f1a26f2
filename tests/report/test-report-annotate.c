/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-annotate.c: stackpulse-report annotate beside perf annotate.
 *
 * sp-work-annotate (a division on the line marked HOT, then mix, a static
 * always_inline function, called on the line marked CALL) is recorded
 * once by both profilers at the same time, with the same kind of timer:
 * `perf record -e cpu-clock -F 2000 -- stackpulse-record -F 2000 --
 * sp-work-annotate 2`. Both sample the same run, so they must agree on
 * hot_loop's hottest source line and hottest instruction (the one after
 * the division, where a timer interrupt finds a long-latency instruction
 * retiring), with shares within a few points. perf annotate gives an
 * instruction's share of the symbol's samples, inlined code included:
 * compared with the total column (shares of the function's total).
 *
 * The same recording shows the inline rule: annotating mix, its samples
 * are at the MIX line; annotating hot_loop, at the CALL line (none at
 * MIX). Without perf the test fails when CI is set, and skips otherwise. */
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record-run.h"
#include "report-output.h"

#define TOLERANCE_PCT  5.0

static char *perf;
static SpTestRecording *recording;
static char *perf_data;

/* ---- Our TSV ---------------------------------------------------------- */

typedef struct {
  char   *key;        /* source: the line number; asm: the address */
  double  self_pct;
  double  total_pct;
  guint64 self;
  guint64 total;
  char   *text;       /* source: the line's text, stripped; asm: the instruction */
} Row;

static void
row_free (gpointer data)
{
  Row *row = data;

  g_free (row->key);
  g_free (row->text);
  g_free (row);
}

/* Rows of `annotate --tsv` (asm: with --asm): the header is checked, and
 * source rows of other files than the first are left out. */
static GPtrArray *
parse_tsv (const char *out,
           gboolean asm_view)
{
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);
  GPtrArray *rows = g_ptr_array_new_with_free_func (row_free);
  g_autofree char *first_file = NULL;

  g_assert_cmpstr (lines[0], ==, asm_view ? "address\tself\ttotal\tself_pct\ttotal_pct\tline\tfile\tinstruction"
                                          : "file\tline\tself\ttotal\tself_pct\ttotal_pct\ttext");
  for (guint i = 1; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      g_auto (GStrv) f = g_strsplit (lines[i], "\t", -1);
      guint shift = asm_view ? 0 : 1;
      Row *row;

      g_assert_cmpuint (g_strv_length (f), ==, asm_view ? 8 : 7);
      if (!asm_view && first_file == NULL)
        first_file = g_strdup (f[0]);
      if (!asm_view && !g_str_equal (f[0], first_file))
        continue;
      row = g_new0 (Row, 1);
      row->key = g_strdup (f[shift]);
      row->self = g_ascii_strtoull (f[shift + 1], NULL, 10);
      row->total = g_ascii_strtoull (f[shift + 2], NULL, 10);
      row->self_pct = g_ascii_strtod (f[shift + 3], NULL);
      row->total_pct = g_ascii_strtod (f[shift + 4], NULL);
      row->text = g_strstrip (g_strdup (asm_view ? f[7] : f[6]));
      g_ptr_array_add (rows, row);
    }
  return rows;
}

static const Row *
hottest_row (GPtrArray *rows)
{
  const Row *best = NULL;

  for (guint i = 0; i < rows->len; i++)
    {
      const Row *row = g_ptr_array_index (rows, i);

      if (best == NULL || row->total_pct > best->total_pct)
        best = row;
    }
  return best;
}

/* The row of the line with marker, NULL when none is shown. */
static const Row *
find_text (GPtrArray *rows,
           const char *marker)
{
  for (guint i = 0; i < rows->len; i++)
    if (strstr (((const Row *) g_ptr_array_index (rows, i))->text, marker) != NULL)
      return g_ptr_array_index (rows, i);
  return NULL;
}

static const Row *
row_with_text (GPtrArray *rows,
               const char *marker)
{
  const Row *row = find_text (rows, marker);

  if (row == NULL)
    g_error ("no source line with %s", marker);
  return row;
}

static GPtrArray *
annotate_rows (const char *function,
               gboolean asm_view)
{
  g_autofree char *out = asm_view ? sp_test_report (recording->dir, "annotate", "--tsv", "--asm", function,
                                                    recording->spool, NULL)
                                  : sp_test_report (recording->dir, "annotate", "--tsv", function, recording->spool,
                                                    NULL);

  g_test_message ("stackpulse-report annotate%s %s:\n%s", asm_view ? " --asm" : "", function, out);
  return parse_tsv (out, asm_view);
}

/* ---- perf annotate ---------------------------------------------------- */

/* perf annotate --stdio's shares of hot_loop: per instruction address,
 * and per source text (an instruction counts for the last source line
 * printed before it; perf prints a line once per run of instructions). */
static void
parse_perf_annotate (const char *text,
                     GHashTable *by_address,
                     GHashTable *by_source)
{
  g_autoptr (GRegex) insn = g_regex_new ("^\\s*([0-9.]+)\\s*:\\s+([0-9a-f]+):\\s", 0, 0, NULL);
  g_autoptr (GRegex) source = g_regex_new ("^\\s*:\\s+[0-9]+\\s+(.*\\S)\\s*$", 0, 0, NULL);
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *current = g_strdup ("");

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr (GMatchInfo) m = NULL;

      if (g_regex_match (insn, lines[i], 0, &m))
        {
          g_autofree char *pct = g_match_info_fetch (m, 1);
          double share = g_ascii_strtod (pct, NULL);
          double *at_source = g_hash_table_lookup (by_source, current);

          g_hash_table_insert (by_address, g_match_info_fetch (m, 2), g_memdup2 (&share, sizeof share));
          if (at_source == NULL)
            g_hash_table_insert (by_source, g_strdup (current), at_source = g_new0 (double, 1));
          *at_source += share;
          continue;
        }
      g_clear_pointer (&m, g_match_info_unref);
      if (g_regex_match (source, lines[i], 0, &m))
        {
          g_free (current);
          current = g_match_info_fetch (m, 1);
        }
    }
}

static void
perf_annotate (GHashTable *by_address,
               GHashTable *by_source)
{
  g_autoptr (SpChildResult) result = sp_test_run (recording->dir, "perf-annotate",
                                                  (const char *const[]) { perf, "annotate", "--stdio", "-i", perf_data,
                                                                          "hot_loop", NULL });

  g_assert_cmpint (result->exit_code, ==, 0);
  g_test_message ("perf annotate --stdio hot_loop:\n%s", result->out);
  parse_perf_annotate (result->out, by_address, by_source);
  g_assert_cmpuint (g_hash_table_size (by_address), >, 0);
}

static void
hottest_entry (GHashTable *shares,
               const char **key,
               double *share)
{
  GHashTableIter iter;
  gpointer k, v;

  *key = NULL;
  *share = -1;
  g_hash_table_iter_init (&iter, shares);
  while (g_hash_table_iter_next (&iter, &k, &v))
    if (*(double *) v > *share)
      {
        *key = k;
        *share = *(double *) v;
      }
}

/* ---- The cases ---------------------------------------------------------- */

static void
test_hottest_line (void)
{
  g_autoptr (GPtrArray) rows = annotate_rows ("hot_loop", FALSE);
  g_autoptr (GPtrArray) mix_rows = annotate_rows ("mix", FALSE);
  g_autoptr (GHashTable) by_address = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) by_source = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const Row *ours = hottest_row (rows);
  const Row *call = row_with_text (rows, "/* CALL */");
  const char *theirs;
  double theirs_pct;
  double *mix_pct;

  perf_annotate (by_address, by_source);
  hottest_entry (by_source, &theirs, &theirs_pct);
  mix_pct = g_hash_table_lookup (by_source, row_with_text (mix_rows, "/* MIX */")->text);
  g_test_message ("hottest line: stackpulse %s (%.2f%%), perf '%s' (%.2f%%); call line %.2f%%, perf's mix %.2f%%",
                  ours->text, ours->total_pct, theirs, theirs_pct, call->total_pct, mix_pct ? *mix_pct : 0.0);
  g_assert_nonnull (strstr (ours->text, "/* HOT */"));
  g_assert_cmpstr (ours->text, ==, theirs);
  g_assert_cmpfloat_with_epsilon (ours->total_pct, theirs_pct, TOLERANCE_PCT);
  /* perf shows mix's instructions at mix's line; annotating hot_loop,
   * they are at the line that calls it. */
  g_assert_nonnull (mix_pct);
  g_assert_cmpfloat_with_epsilon (call->total_pct, *mix_pct, TOLERANCE_PCT);
}

static void
test_hottest_instruction (void)
{
  g_autoptr (GPtrArray) rows = annotate_rows ("hot_loop", TRUE);
  g_autoptr (GHashTable) by_address = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr (GHashTable) by_source = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  const Row *ours = hottest_row (rows);
  const char *theirs;
  double theirs_pct;
  double worst = 0;

  perf_annotate (by_address, by_source);
  hottest_entry (by_address, &theirs, &theirs_pct);
  g_test_message ("hottest instruction: stackpulse %s %s (%.2f%%), perf %s (%.2f%%)", ours->key, ours->text,
                  ours->total_pct, theirs, theirs_pct);
  g_assert_cmpstr (ours->key, ==, theirs);
  g_assert_cmpfloat_with_epsilon (ours->total_pct, theirs_pct, TOLERANCE_PCT);
  /* Every instruction perf lists is one of ours, with about its share. */
  for (guint i = 0; i < rows->len; i++)
    {
      const Row *row = g_ptr_array_index (rows, i);
      double *pct = g_hash_table_lookup (by_address, row->key);

      g_assert_nonnull (pct);
      worst = MAX (worst, fabs (*pct - row->total_pct));
    }
  g_test_message ("largest difference per instruction: %.2f points", worst);
  g_assert_cmpfloat (worst, <, TOLERANCE_PCT);
  g_assert_cmpuint (rows->len, ==, g_hash_table_size (by_address));
}

/* mix is inlined: its own annotation puts its samples at its line; the
 * caller's puts them at the call, none at mix's line. */
static void
test_inlined (void)
{
  g_autoptr (GPtrArray) mix = annotate_rows ("mix", FALSE);
  g_autoptr (GPtrArray) caller = annotate_rows ("hot_loop", FALSE);
  g_autofree char *text = sp_test_report (recording->dir, "annotate", "mix", recording->spool, NULL);
  const Row *mix_line = row_with_text (mix, "/* MIX */");
  const Row *call_line = row_with_text (caller, "/* CALL */");

  sp_test_assert_contains (text, "inlined into hot_loop");
  g_assert_true (hottest_row (mix) == mix_line);
  g_assert_cmpfloat (mix_line->total_pct, >, 95.0);
  g_assert_cmpuint (mix_line->self, >, 0);
  g_assert_true (find_text (mix, "/* CALL */") == NULL || find_text (mix, "/* CALL */")->total == 0);
  g_assert_true (find_text (caller, "/* MIX */") == NULL || find_text (caller, "/* MIX */")->total == 0);
  /* The caller's self stops where mix begins: the call line's samples
   * are mix's (its total, not its self). */
  g_assert_cmpuint (call_line->total, >=, mix_line->total);
  g_assert_cmpuint (call_line->self, <, call_line->total / 10);
}

static void
record_both (void)
{
  char *dir = sp_test_make_dir ();
  g_autofree char *spool = g_build_filename (dir, "out.spool", NULL);
  g_autofree char *workload = sp_test_workload ("annotate");
  SpChildResult *result;

  perf_data = g_build_filename (dir, "perf.data", NULL);
  result = sp_test_run (dir, "record",
                        (const char *const[]) { perf, "record", "-e", "cpu-clock", "-F", "2000", "-o", perf_data, "--",
                                                sp_test_recorder (), "-o", spool, "-F", "2000", "--", workload, "2",
                                                NULL });
  g_test_message ("perf record and stackpulse-record's stderr:\n%s", result->err);
  g_assert_cmpint (result->exit_code, ==, 0);
  recording = sp_test_recording_new (dir, result);
}

int
main (int argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;
  perf = g_find_program_in_path ("perf");
  if (perf == NULL)
    {
      const char *ci = g_getenv ("CI");

      if (ci != NULL && *ci != '\0' && !g_str_equal (ci, "false") && !g_str_equal (ci, "0"))
        g_error ("perf is not installed, but CI is set: the annotate test must run in CI "
                 "(apt-get install linux-perf)");
      printf ("1..0 # SKIP perf is not installed (apt-get install linux-perf)\n");
      return 0;
    }
  record_both ();
  g_test_add_func ("/report/annotate/perf-hottest-line", test_hottest_line);
  g_test_add_func ("/report/annotate/perf-hottest-instruction", test_hottest_instruction);
  g_test_add_func ("/report/annotate/inlined", test_inlined);
  status = g_test_run ();
  sp_test_recording_free (recording);
  return status;
}
