/* SPDX-License-Identifier: GPL-3.0-or-later */
/* report-output.h: running stackpulse-report from a test, and reading its
 * text back.
 *
 * The report's output is the interface under test, so it is parsed the way
 * a script would: flat rows ("self% total% samples  name  [module]"), tree
 * lines (two columns, then two spaces of indentation per level) and
 * collapsed stacks ("a;b;c N"). Expected call paths are written root first
 * and joined with ';', as in the collapsed format. The program's path
 * comes from $SP_REPORT. */
#pragma once

#include <glib.h>

#include "record-run.h"

/* $SP_REPORT, the stackpulse-report under test. */
const char *sp_test_reporter (void);

/* Runs stackpulse-report with args (NULL-terminated) in dir; its output
 * goes to dir/report.out and .err. */
SpChildResult *sp_test_report_run (const char *dir,
                                   const char *const *args);

/* Runs it, asserts it exits 0 with nothing on stderr, returns stdout. */
char *sp_test_report (const char *dir,
                      const char *first,
                      ...) G_GNUC_NULL_TERMINATED;

/* ---- Flat rows: top, the summary's list, callers and callees ---------- */

typedef struct {
  double   self_pct;
  double   total_pct;
  guint64  samples;     /* self samples; 0 in callers/callees rows */
  char    *name;
  char    *module;      /* without brackets; NULL in callers/callees rows */
} SpReportRow;

/* Rows of `top` and of the summary's list ("%  %  N  name  [module]");
 * other lines are skipped. */
GPtrArray *sp_test_parse_rows (const char *text);

/* Rows of `callers` / `callees` ("total%  self%  name"). */
GPtrArray *sp_test_parse_neighbours (const char *text);

const SpReportRow *sp_test_find_row (GPtrArray *rows,
                                     const char *name);

/* ---- Trees ---------------------------------------------------------------- */

typedef struct {
  guint    depth;
  double   total_pct;
  double   self_pct;
  char    *name;
} SpTreeLine;

GPtrArray *sp_test_parse_tree (const char *text);

/* The index of the line where path ("a;b;c", root first) starts, each
 * function a child of the one before; from_root: a must be at depth 0.
 * -1 when the tree has no such chain. */
gint sp_test_tree_find_path (GPtrArray *lines,
                             const char *path,
                             gboolean from_root);

/* ---- Collapsed stacks ----------------------------------------------------- */

/* "a;b;c" -> guint64 * count. Fails the test on a line that is not
 * "NAME(;NAME)* COUNT" or on a stack given twice; *total gets the sum. */
GHashTable *sp_test_parse_collapsed (const char *text,
                                     guint64 *total);

/* Rewrites a stack's functions (char *, root first, owned by the array:
 * g_ptr_array_remove_index and friends free them) in place; returns FALSE
 * to leave the stack out. */
typedef gboolean (*SpStackRewrite) (GPtrArray *functions,
                                    gpointer user_data);

/* What the stacks become under rewrite, with equal results merged. */
GHashTable *sp_test_collapsed_rewrite (GHashTable *stacks,
                                       SpStackRewrite rewrite,
                                       gpointer user_data);

/* Fails the test, naming the first difference, unless both are equal. */
void sp_test_assert_collapsed_equal (GHashTable *got,
                                     GHashTable *expected);

/* Samples of the stacks that have function as one of their frames. */
guint64 sp_test_collapsed_count_with (GHashTable *stacks,
                                      const char *function);
