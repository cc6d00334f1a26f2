/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-written.c: stackpulse-report on recordings written here
 * (profile-builder.h), for what real runs do not make sure of.
 *
 * diff: functions only in A or only in B. diff --tsv marks each row's
 * side (both, a or b) in its last column, and a change that rounds to
 * zero is printed "0.00", without a sign, in both outputs.
 * annotate: a kernel function (every function of profile-builder's text
 * is one) is refused as kernel code, in source and --asm alike; a
 * program without debug info has no source lines (exit 1) but its
 * instructions. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "profile-builder.h"
#include "report-output.h"

static const char *const lines_a[] = {
  "main;steady 10",
  "main;gone;gone_leaf 5",
  NULL,
};

static const char *const lines_b[] = {
  "main;steady 10",
  "main;fresh 5",
  NULL,
};

static RecordingBuilder *
build (const char *const *lines)
{
  RecordingBuilder *b = recording_builder_new ();

  for (guint i = 0; lines[i] != NULL; i++)
    recording_builder_add_line (b, lines[i]);
  recording_builder_finish (b);
  return b;
}

/* The fields of the TSV row of function, NULL-terminated. */
static GStrv
tsv_fields (const char *tsv,
            const char *function)
{
  g_auto (GStrv) rows = g_strsplit (tsv, "\n", -1);
  g_autofree char *prefix = g_strdup_printf ("%s\t", function);

  for (guint i = 1; rows[i] != NULL; i++)
    if (g_str_has_prefix (rows[i], prefix))
      return g_strsplit (rows[i], "\t", -1);
  g_error ("no row for %s in:\n%s", function, tsv);
}

/* The text row of function (the line that ends with its name, module and
 * side mark). */
static char *
text_row (const char *text,
          const char *function)
{
  g_auto (GStrv) rows = g_strsplit (text, "\n", -1);
  g_autofree char *name = g_strdup_printf ("  %s  ", function);

  for (guint i = 0; rows[i] != NULL; i++)
    if (strstr (rows[i], name) != NULL)
      return g_strdup (rows[i]);
  g_error ("no row for %s in:\n%s", function, text);
}

static void
test_sides (void)
{
  RecordingBuilder *a = build (lines_a);
  RecordingBuilder *b = build (lines_b);
  g_autofree char *dir = g_path_get_dirname (recording_builder_get_path (a));
  g_autofree char *tsv = sp_test_report (dir, "diff", "--tsv", recording_builder_get_path (a),
                                         recording_builder_get_path (b), NULL);
  g_autofree char *text = sp_test_report (dir, "diff", recording_builder_get_path (a), recording_builder_get_path (b),
                                          NULL);
  g_auto (GStrv) steady = tsv_fields (tsv, "steady");
  g_auto (GStrv) gone = tsv_fields (tsv, "gone");
  g_auto (GStrv) gone_leaf = tsv_fields (tsv, "gone_leaf");
  g_auto (GStrv) fresh = tsv_fields (tsv, "fresh");
  g_autofree char *gone_text = text_row (text, "gone");

  g_test_message ("diff --tsv:\n%s\ndiff:\n%s", tsv, text);
  g_assert_true (g_str_has_prefix (tsv, "function\tmodule\tself_a\tself_b\ttotal_a\ttotal_b\tdelta\tside\n"));
  g_assert_cmpuint (g_strv_length (steady), ==, 8);
  g_assert_cmpstr (steady[7], ==, "both");
  g_assert_cmpstr (gone[7], ==, "a");
  g_assert_cmpstr (gone_leaf[7], ==, "a");
  g_assert_cmpstr (fresh[7], ==, "b");
  /* gone had no self in A and has none in B: no change, and no sign. */
  g_assert_cmpstr (gone[6], ==, "0.0000");
  g_assert_cmpstr (gone_leaf[6], ==, "-33.3333");
  g_assert_cmpstr (fresh[6], ==, "+33.3333");
  g_assert_null (strstr (gone_text, "+0.00"));
  g_assert_null (strstr (gone_text, "-0.00"));
  sp_test_assert_contains (gone_text, " 0.00 ");
  sp_test_assert_contains (gone_text, "[A only]");
  recording_builder_free (a);
  recording_builder_free (b);
}

static void
test_annotate_kernel (void)
{
  RecordingBuilder *a = build (lines_a);
  g_autofree char *dir = g_path_get_dirname (recording_builder_get_path (a));
  g_autoptr (SpChildResult) source = sp_test_report_run (dir, (const char *const[]) { "annotate", "steady",
                                                                                       recording_builder_get_path (a),
                                                                                       NULL });
  g_autoptr (SpChildResult) insns = sp_test_report_run (dir, (const char *const[]) { "annotate", "--asm", "steady",
                                                                                      recording_builder_get_path (a),
                                                                                      NULL });

  g_test_message ("annotate steady:\n%s%s", source->out, source->err);
  g_assert_cmpint (source->exit_code, ==, 1);
  sp_test_assert_contains (source->err, "steady is kernel code");
  g_assert_null (strstr (source->err, "debug info"));
  g_assert_null (strstr (source->err, "--asm"));
  g_assert_cmpint (insns->exit_code, ==, 1);
  sp_test_assert_contains (insns->err, "steady is kernel code");
  g_assert_cmpstr (insns->out, ==, "");
  recording_builder_free (a);
}

/* A program without debug info: no source lines, and that is a failure
 * (exit 1) as --asm's is when it has no instructions; --asm shows its
 * instructions from the symbol table. */
static void
test_annotate_without_debug_info (void)
{
  const char *target = g_getenv ("SP_SYMBOLIZER_TARGET_NODEBUG");
  g_autofree char *line = g_strdup_printf ("%s!main;%s!sp_target_leaf 5", target, target);
  const char *lines[] = { line, NULL };
  RecordingBuilder *b = build (lines);
  g_autofree char *dir = g_path_get_dirname (recording_builder_get_path (b));
  g_autoptr (SpChildResult) source = sp_test_report_run (dir, (const char *const[]) { "annotate", "sp_target_leaf",
                                                                                       recording_builder_get_path (b),
                                                                                       NULL });
  g_autoptr (SpChildResult) insns = sp_test_report_run (dir, (const char *const[]) { "annotate", "--asm",
                                                                                      "sp_target_leaf",
                                                                                      recording_builder_get_path (b),
                                                                                      NULL });

  g_test_message ("annotate sp_target_leaf:\n%s%s", source->out, source->err);
  g_assert_cmpint (source->exit_code, ==, 1);
  sp_test_assert_contains (source->err, "sp_target_leaf has no source lines");
  g_assert_cmpint (insns->exit_code, ==, 0);
  sp_test_assert_contains (insns->out, "sp_target_leaf  [");
  recording_builder_free (b);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/written/diff-sides", test_sides);
  g_test_add_func ("/report/written/annotate-kernel", test_annotate_kernel);
  g_test_add_func ("/report/written/annotate-without-debug-info", test_annotate_without_debug_info);
  return g_test_run ();
}
