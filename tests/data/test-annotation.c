/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-annotation.c: one function's costs per address (sp-annotation.h).
 *
 * Profiles are written from text (profile-builder.h): every function is a
 * kernel symbol, and each frame sits 8 bytes into its symbol, so a
 * function's leaf frames are at symbol + 8 and its call sites (return
 * addresses less one) at symbol + 7. Rows are compared as text:
 * "+8 self/total" per address. Lines and inlining need DWARF: the report's
 * tests annotate a real recording (tests/report/test-report-annotate.c). */
#include <glib.h>
#include <string.h>

#include "profile-builder.h"
#include "sp-annotation.h"
#include "sp-disassembly.h"
#include "sp-function-list.h"

static const char *const basic[] = {
  "main;parse;lex 10",
  "main;parse 5",
  "main;eval;lex 3",
  "main;eval;eval;eval 2",
  "main 1",
  NULL,
};

static guint32
function_named (SpProfile *profile,
                const char *name)
{
  g_autoptr (GArray) found = NULL;

  g_array_unref (sp_function_list_new (profile, NULL, NULL));
  found = sp_annotation_find_functions (profile, name, NULL);
  g_assert_cmpuint (found->len, ==, 1);
  return g_array_index (found, guint32, 0);
}

/* "self/total" of the annotation, then " +OFFSET self/total" per address
 * (the offset into the function's symbol). */
static char *
annotate_text (SpProfile *profile,
               const SpFilter *filter,
               const char *name)
{
  guint32 function = function_named (profile, name);
  g_autoptr (SpAnnotation) annotation = sp_annotation_new (profile, filter, NULL, &function, 1);
  GString *text = g_string_new (NULL);
  guint n;
  const SpAnnotationAddress *rows = sp_annotation_get_addresses (annotation, &n);

  g_string_append_printf (text, "%" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT, sp_annotation_get_self (annotation),
                          sp_annotation_get_total (annotation));
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, " +%" G_GINT64_MODIFIER "x%s %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT,
                            rows[i].address % 0x100, rows[i].call_site ? "c" : "", rows[i].self, rows[i].total);
  return g_string_free (text, FALSE);
}

static void
test_self_and_call_sites (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autofree char *parse = annotate_text (profile, NULL, "parse");
  g_autofree char *lex = annotate_text (profile, NULL, "lex");

  /* parse: 5 samples in it, 10 more through its call of lex. */
  g_assert_cmpstr (parse, ==, "5/15 +7c 0/10 +8 5/5");
  g_assert_cmpstr (lex, ==, "13/13 +8 13/13");
}

/* A recursive sample counts once at an address, however often it is
 * on the stack there. */
static void
test_recursion_counts_once (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autofree char *eval = annotate_text (profile, NULL, "eval");
  guint32 function = function_named (profile, "eval");
  g_autoptr (SpAnnotation) annotation = sp_annotation_new (profile, NULL, NULL, &function, 1);
  guint n_places;
  const SpAnnotationPlace *places = sp_annotation_get_places (annotation, &n_places);

  g_assert_cmpstr (eval, ==, "2/5 +7c 0/5 +8 2/2");
  g_assert_cmpuint (n_places, ==, 1);
  g_assert_cmpstr (places[0].function, ==, "eval");
  g_assert_cmpuint (places[0].total, ==, 5);
  g_assert_cmpuint (sp_annotation_get_all (annotation), ==, 21);
}

/* Merging lex into parse: lex's samples are parse's self, at its call
 * of lex. Dropping lex: its samples are gone. Focus on eval: parse is
 * not in any stack. */
static void
test_transforms (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  g_autoptr (SpFilter) merge = sp_filter_new ();
  g_autoptr (SpFilter) drop = sp_filter_new ();
  g_autoptr (SpFilter) focus = sp_filter_new ();
  g_autofree char *merged = NULL;
  g_autofree char *dropped = NULL;
  g_autofree char *focused = NULL;

  sp_filter_add_function_transform (merge, SP_TRANSFORM_MERGE_FUNCTION, function_named (profile, "lex"));
  sp_filter_add_function_transform (drop, SP_TRANSFORM_DROP_FUNCTION, function_named (profile, "lex"));
  sp_filter_add_function_transform (focus, SP_TRANSFORM_FOCUS_FUNCTION, function_named (profile, "eval"));
  merged = annotate_text (profile, merge, "parse");
  dropped = annotate_text (profile, drop, "parse");
  focused = annotate_text (profile, focus, "parse");
  g_assert_cmpstr (merged, ==, "15/15 +7c 10/10 +8 5/5");
  g_assert_cmpstr (dropped, ==, "5/5 +8 5/5");
  g_assert_cmpstr (focused, ==, "0/0");
}

static const char *const timed[] = {
  "@1 main;work;leaf 10 +1",
  "@2 main;work 10 +1",
  "@1 main;work 10 +1",
  NULL,
};

/* A time range (the second line's samples) and a hidden thread. */
static void
test_range_and_threads (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (timed);
  g_autoptr (SpFilter) range = sp_filter_new ();
  g_autoptr (SpFilter) hidden = sp_filter_new ();
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  g_autofree char *in_range = NULL;
  g_autofree char *without = NULL;
  g_autofree char *all = annotate_text (profile, NULL, "work");

  sp_filter_set_time_range (range, sp_spool_reader_get_sample_timestamp (reader, 10),
                            sp_spool_reader_get_sample_timestamp (reader, 20));
  sp_filter_hide_thread (hidden, 1);
  in_range = annotate_text (profile, range, "work");
  without = annotate_text (profile, hidden, "work");
  g_assert_cmpstr (all, ==, "20/30 +7c 0/10 +8 20/20");
  g_assert_cmpstr (in_range, ==, "10/10 +8 10/10");
  g_assert_cmpstr (without, ==, "10/20 +7c 0/10 +8 10/10");
}

/* A user frame under kernel frames (a page fault, an interrupt) is the
 * interrupted instruction, as exact as a leaf: its cost is at its own
 * address, not on the instruction before it as a call site's. */
static void
test_kernel_topped (void)
{
  const char *target = g_getenv ("SP_SYMBOLIZER_TARGET");
  g_autofree char *user = g_strdup_printf ("%s!main;%s!sp_target_leaf 3", target, target);
  g_autofree char *faulted = g_strdup_printf ("%s!main;%s!sp_target_leaf;asm_exc_page_fault;handle_mm_fault 2",
                                              target, target);
  const char *lines[] = { user, faulted, NULL };
  g_autoptr (SpProfile) profile = profile_from_text (lines);
  guint32 function = function_named (profile, "sp_target_leaf");
  g_autoptr (SpAnnotation) annotation = sp_annotation_new (profile, NULL, NULL, &function, 1);
  guint n;
  const SpAnnotationAddress *rows = sp_annotation_get_addresses (annotation, &n);

  g_assert_nonnull (target);
  g_assert_cmpuint (sp_annotation_get_self (annotation), ==, 3);
  g_assert_cmpuint (sp_annotation_get_total (annotation), ==, 5);
  g_assert_cmpuint (n, ==, 1);
  g_assert_false (rows[0].call_site);
  g_assert_cmpuint (rows[0].self, ==, 3);
  g_assert_cmpuint (rows[0].total, ==, 5);
}

/* The lookups a view uses: an address row by address, none for another. */
static void
test_lookups (void)
{
  g_autoptr (SpProfile) profile = profile_from_text (basic);
  guint32 function = function_named (profile, "parse");
  g_autoptr (SpAnnotation) annotation = sp_annotation_new (profile, NULL, NULL, &function, 1);
  guint n;
  const SpAnnotationAddress *rows = sp_annotation_get_addresses (annotation, &n);
  g_autoptr (GArray) on_line = g_array_new (FALSE, FALSE, sizeof (guint));

  g_assert_cmpuint (n, ==, 2);
  /* Kernel frames have no ELF file: no vaddr, no source line. */
  g_assert_cmpuint (rows[0].vaddr, ==, 0);
  g_assert_cmpuint (rows[0].file, ==, SP_ANNOTATION_NONE);
  g_assert_cmpuint (sp_annotation_find_address (annotation, 0, 0x1234), ==, SP_ANNOTATION_NONE);
  sp_annotation_get_files (annotation, &n);
  g_assert_cmpuint (n, ==, 0);
  sp_annotation_get_line_addresses (annotation, 0, 1, on_line);
  g_assert_cmpuint (on_line->len, ==, 0);
  g_assert_cmpuint (sp_annotation_find_line (annotation, 0, 1), ==, SP_ANNOTATION_NONE);
}

#define LIBC "/lib/x86_64-linux-gnu/libc.so.6"

/* Capstone 4 cannot decode many AVX-512 (EVEX) instructions; glibc's
 * __memcmp_evex_movbe has one (kmovd) at +0x10. Decoding goes on past
 * it: the samples at +0x30 and in the last instruction (+0x2fe) are on
 * rows of their own, and a note names the bytes shown as ".byte". */
static void
test_disassembly_skips_undecodable (void)
{
  const char *const lines[] = {
    "main;" LIBC "!__memcmp_evex_movbe+0x30 3",
    "main;" LIBC "!__memcmp_evex_movbe+0x2fe 2",
    NULL,
  };
  g_autoptr (SpProfile) profile = NULL;
  g_autoptr (SpAnnotation) annotation = NULL;
  g_autoptr (SpDisassembly) disassembly = NULL;
  g_autoptr (GError) error = NULL;
  guint32 function;
  guint n;
  const SpInstruction *insns;

  if (!g_file_test (LIBC, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no " LIBC);
      return;
    }
  profile = profile_from_text (lines);
  function = function_named (profile, "__memcmp_evex_movbe");
  annotation = sp_annotation_new (profile, NULL, NULL, &function, 1);
  disassembly = sp_disassembly_new (profile, annotation, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (sp_disassembly_get_size (disassembly), ==, 767);
  insns = sp_disassembly_get_instructions (disassembly, &n);
  g_assert_cmpuint (insns[n - 1].vaddr + insns[n - 1].size, ==,
                    sp_disassembly_get_start (disassembly) + sp_disassembly_get_size (disassembly));
  g_assert_cmpuint (insns[sp_disassembly_find (disassembly, sp_disassembly_get_start (disassembly) + 0x30)].self, ==, 3);
  g_assert_cmpstr (insns[sp_disassembly_find (disassembly, sp_disassembly_get_start (disassembly) + 0x2fe)].text, ==, "retq");
  g_assert_cmpuint (insns[sp_disassembly_find (disassembly, sp_disassembly_get_start (disassembly) + 0x2fe)].self, ==, 2);
  g_assert_nonnull (strstr (insns[sp_disassembly_find (disassembly, sp_disassembly_get_start (disassembly) + 0x10)].text, ".byte"));
  g_assert_nonnull (strstr (sp_disassembly_get_note (disassembly), "shown as .byte"));
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/data/annotation/self-and-call-sites", test_self_and_call_sites);
  g_test_add_func ("/data/annotation/recursion-counts-once", test_recursion_counts_once);
  g_test_add_func ("/data/annotation/transforms", test_transforms);
  g_test_add_func ("/data/annotation/range-and-threads", test_range_and_threads);
  g_test_add_func ("/data/annotation/lookups", test_lookups);
  g_test_add_func ("/data/annotation/kernel-topped", test_kernel_topped);
  g_test_add_func ("/data/annotation/disassembly-skips-undecodable", test_disassembly_skips_undecodable);
  return g_test_run ();
}
