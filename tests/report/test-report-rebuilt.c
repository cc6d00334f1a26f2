/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-rebuilt.c: a program rebuilt in place after its recording.
 *
 * cc and ld write over the old file: the path and the inode stay, only
 * the contents (and the build-id) change. The spool names modules by
 * path and inode, so without more the report would name the new build's
 * functions for the old build's addresses (a new user found exactly
 * that: a function that did not exist in the run got 82% of it). The
 * recorder writes each mapped file's build-id, time and size to the side
 * file ([module-file N]); the report must refuse the rebuilt file, say
 * why, and leave its frames as addresses. Then the same with a file that
 * has no build-id (linked with --build-id=none): its size and time tell. */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "report-output.h"

/* Version 1 spends its time in work(); version 2 has a new function
 * before it (every address moves). */
static const char source_v1[] =
  "#include <time.h>\n"
  "static double now (void) { struct timespec t; clock_gettime (CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }\n"
  "__attribute__ ((noinline)) unsigned long work (double until)\n"
  "{ unsigned long n = 0; while (now () < until) for (int i = 0; i < 1000; i++) n += n * 7 + i; return n; }\n"
  "int main (void) { return work (now () + 0.5) == 42; }\n";
static const char source_v2[] =
  "#include <time.h>\n"
  "static double now (void) { struct timespec t; clock_gettime (CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }\n"
  "__attribute__ ((noinline)) unsigned long padding_that_was_not_there (unsigned long x)\n"
  "{ for (int i = 0; i < 64; i++) x = x * 31 + (unsigned long) i; return x; }\n"
  "__attribute__ ((noinline)) unsigned long work (double until)\n"
  "{ unsigned long n = padding_that_was_not_there (3); while (now () < until) for (int i = 0; i < 1000; i++) n += n * 5 + i; return n; }\n"
  "int main (void) { return work (now () + 0.5) == 42; }\n";

static void
run_ok (const char *dir,
        const char *name,
        const char *const *argv)
{
  g_autoptr (SpChildResult) result = sp_test_run (dir, name, argv);

  if (result->exit_code != 0)
    g_error ("%s: exit status %d, stderr:\n%s", argv[0], result->exit_code, result->err);
}

/* cc source into dir/prog, written in place over what is there (the
 * inode stays, as when a developer rebuilds). */
static void
build_in_place (const char *dir,
                const char *source,
                const char *extra_flag)
{
  g_autofree char *cc = g_find_program_in_path ("cc");
  g_autofree char *c_file = g_build_filename (dir, "prog.c", NULL);
  g_autofree char *fresh = g_build_filename (dir, "prog.new", NULL);
  g_autofree char *prog = g_build_filename (dir, "prog", NULL);
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_nonnull (cc);
  g_assert_true (g_file_set_contents (c_file, source, -1, NULL));
  run_ok (dir, "cc", (const char *const[]) { cc, "-O1", "-g", "-fno-omit-frame-pointer", extra_flag, "-o", fresh,
                                             c_file, NULL });
  g_assert_true (g_file_get_contents (fresh, &contents, &length, NULL));
  if (g_file_test (prog, G_FILE_TEST_EXISTS))
    {
      /* Truncate and write: the same inode, as ld does. */
      FILE *out = fopen (prog, "r+");

      g_assert_nonnull (out);
      g_assert_cmpint (ftruncate (fileno (out), 0), ==, 0);
      g_assert_cmpuint (fwrite (contents, 1, length, out), ==, length);
      g_assert_cmpint (fclose (out), ==, 0);
    }
  else
    {
      g_assert_true (g_file_set_contents (prog, contents, (gssize) length, NULL));
      g_assert_cmpint (g_chmod (prog, 0755), ==, 0);
    }
  g_unlink (fresh);
}

static void
check_rebuilt (const char *extra_flag,
               const char *expected_reason)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *prog = g_build_filename (dir, "prog", NULL);
  g_autofree char *spool = g_build_filename (dir, "out.spool", NULL);
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *summary = NULL;
  GStatBuf first, second;

  build_in_place (dir, source_v1, extra_flag);
  g_assert_cmpint (g_stat (prog, &first), ==, 0);
  run_ok (dir, "record", (const char *const[]) { sp_test_recorder (), "-o", spool, "--", prog, NULL });
  before = sp_test_report (dir, "top", "--limit", "5", spool, NULL);
  sp_test_assert_contains (before, "work");
  /* A second apart at least: a file system with coarse times still
   * gives the rewrite another modification time. */
  g_usleep (G_USEC_PER_SEC);
  build_in_place (dir, source_v2, extra_flag);
  g_assert_cmpint (g_stat (prog, &second), ==, 0);
  g_assert_cmpuint (first.st_ino, ==, second.st_ino);

  after = sp_test_report (dir, "top", "--limit", "5", spool, NULL);
  g_test_message ("top after the rebuild:\n%s", after);
  g_assert_null (strstr (after, "padding_that_was_not_there"));
  g_assert_null (strstr (after, " work "));
  sp_test_assert_contains (after, "prog+0x");
  summary = sp_test_report (dir, "summary", spool, NULL);
  sp_test_assert_contains (summary, "changed since the recording");
  sp_test_assert_contains (summary, expected_reason);
  sp_test_remove_dir (dir);
}

static void
test_rebuilt_with_build_id (void)
{
  if (!sp_test_case_needs_perf ())
    return;
  check_rebuilt ("-Wl,--build-id=sha1", "build-id");
}

static void
test_rebuilt_without_build_id (void)
{
  if (!sp_test_case_needs_perf ())
    return;
  check_rebuilt ("-Wl,--build-id=none", "bytes when recorded");
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/rebuilt/build-id", test_rebuilt_with_build_id);
  g_test_add_func ("/report/rebuilt/no-build-id", test_rebuilt_without_build_id);
  return g_test_run ();
}
