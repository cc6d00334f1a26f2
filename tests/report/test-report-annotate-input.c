/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-annotate-input.c: stackpulse-report annotate on what it
 * cannot annotate as asked.
 *
 * A file that is no spool, a function the recording does not have, a
 * function in two modules without --module (the places are listed, exit
 * 2; --module chooses), two static functions of one name in one module
 * (both annotated, each disassembled), control characters in a source
 * line (escaped), a filter that leaves no samples, a --tid of no thread,
 * a source file no longer where DWARF says it was (the message says where
 * it looked; --source-dir finds it, as DIR or as BUILD_PREFIX=DIR), and
 * options given to another command. The program with three functions
 * named spin (two in itself, one in a library) is built here with cc from
 * the sources below, and recorded. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <utime.h>
#include <sys/stat.h>

#include "report-output.h"

/* Each file spins for a while in its own spin (): three functions of one
 * name. Their start, up to the loop's body: */
#define SPIN_START \
  "#include <time.h>\n" \
  "static double now (void) { struct timespec t; clock_gettime (CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }\n" \
  "__attribute__ ((noinline)) static unsigned long spin (double until)\n" \
  "{\n" \
  "  unsigned long n = 0;\n" \
  "  while (now () < until)\n"

static const char lib_source[] =
  SPIN_START
  "    n += n * 7 + 1; /* LIB SPIN */\n"
  "  return n;\n"
  "}\n"
  "unsigned long lib_work (double seconds) { return spin (now () + seconds); }\n";

/* A second static spin in prog itself, from another file; its hot line
 * holds a terminal's title sequence, a colour and a NUL byte, and it has
 * a jump (never taken) into another function. */
static const char other_source[] =
  SPIN_START
  "    {\n"
  "      n += n * 3 + 5; /* OTHER SPIN \x1b]0;owned\x07 \x1b[31m red \0 after-nul */\n"
  "      if (n == 12345) /* never: n is 5 (4^k - 1) / 3 */\n"
  "        __asm__ volatile (\"jmp other_work\"); /* a jump out of the function */\n"
  "    }\n"
  "  return n;\n"
  "}\n"
  "unsigned long other_work (double seconds) { return spin (now () + seconds); }\n";

static const char prog_source[] =
  "unsigned long lib_work (double seconds);\n"
  "unsigned long other_work (double seconds);\n"
  SPIN_START
  "    n += n * 5 + 3; /* PROG SPIN */\n"
  "  return n;\n"
  "}\n"
  "volatile unsigned long sink;\n"
  "int main (void) { sink = spin (now () + 0.4) + lib_work (0.4) + other_work (0.3); return 0; }\n";

typedef struct {
  char *dir;       /* the build and the recording */
  char *src;       /* dir/src: the sources, where DWARF says they are */
  char *spool;
} Built;

static Built built;

static void
write_bytes (const char *dir,
             const char *name,
             const char *text,
             gssize length)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, text, length, NULL));
}

static void
write_file (const char *dir,
            const char *name,
            const char *text)
{
  write_bytes (dir, name, text, -1);
}

static void
run_ok (const char *dir,
        const char *name,
        const char *const *argv)
{
  g_autoptr (SpChildResult) result = sp_test_run (dir, name, argv);

  if (result->exit_code != 0)
    g_error ("%s: exit status %d, stderr:\n%s", argv[0], result->exit_code, result->err);
}

/* cc builds libspin.so and prog in dir from dir/src, and the recorder
 * records prog. */
static void
build_and_record (void)
{
  g_autofree char *lib = NULL;
  g_autofree char *prog = NULL;
  g_autofree char *rpath = NULL;
  g_autofree char *cc = g_find_program_in_path ("cc");

  g_assert_nonnull (cc);
  built.dir = sp_test_make_dir ();
  built.src = g_build_filename (built.dir, "src", NULL);
  built.spool = g_build_filename (built.dir, "out.spool", NULL);
  lib = g_build_filename (built.dir, "libspin.so", NULL);
  prog = g_build_filename (built.dir, "prog", NULL);
  rpath = g_strdup_printf ("-Wl,-rpath,%s", built.dir);
  g_assert_cmpint (g_mkdir (built.src, 0755), ==, 0);
  write_file (built.src, "lib.c", lib_source);
  write_file (built.src, "prog.c", prog_source);
  write_bytes (built.src, "other.c", other_source, sizeof other_source - 1);
  run_ok (built.src, "cc-lib", (const char *const[]) { cc, "-O1", "-g", "-fno-omit-frame-pointer", "-shared",
                                                       "-fPIC", "-o", lib, "lib.c", NULL });
  run_ok (built.src, "cc-prog", (const char *const[]) { cc, "-O1", "-g", "-fno-omit-frame-pointer", "-o", prog,
                                                        "prog.c", "other.c", lib, rpath, NULL });
  run_ok (built.dir, "record", (const char *const[]) { sp_test_recorder (), "-o", built.spool, "-F", "1000", "--",
                                                       prog, NULL });
}

static SpChildResult *
annotate (const char *first,
          ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  g_ptr_array_add (args, (char *) "annotate");
  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  return sp_test_report_run (built.dir, (const char *const *) args->pdata);
}

static void
test_not_a_spool (void)
{
  g_autofree char *text = g_build_filename (built.dir, "notes.txt", NULL);
  g_autoptr (SpChildResult) result = NULL;

  write_file (built.dir, "notes.txt", "not a recording\n");
  result = annotate ("spin", text, NULL);
  g_assert_cmpint (result->exit_code, ==, 1);
  sp_test_assert_contains (result->err, text);
  g_assert_cmpstr (result->out, ==, "");
}

static void
test_unknown_function (void)
{
  g_autoptr (SpChildResult) result = annotate ("no_such_function", built.spool, NULL);
  g_autoptr (SpChildResult) in_module = annotate ("--module", "libspin.so", "main", built.spool, NULL);
  g_autoptr (SpChildResult) empty = annotate ("", built.spool, NULL);

  g_assert_cmpint (result->exit_code, ==, 1);
  sp_test_assert_contains (result->err, "no function named 'no_such_function'");
  /* main is in prog, not in the library. */
  g_assert_cmpint (in_module->exit_code, ==, 1);
  sp_test_assert_contains (in_module->err, "no function named 'main' in module 'libspin.so'");
  /* An empty name is in every name: refused. */
  g_assert_cmpint (empty->exit_code, ==, 2);
  sp_test_assert_contains (empty->err, "the one given is empty");
  g_assert_cmpstr (empty->out, ==, "");
}

static void
test_ambiguous (void)
{
  g_autoptr (SpChildResult) both = annotate ("spin", built.spool, NULL);
  g_autoptr (SpChildResult) lib = annotate ("--module", "libspin.so", "spin", built.spool, NULL);
  g_autoptr (SpChildResult) prog = annotate ("--module", "prog", "--asm", "spin", built.spool, NULL);

  g_test_message ("annotate spin:\n%s%s", both->out, both->err);
  g_assert_cmpint (both->exit_code, ==, 2);
  sp_test_assert_contains (both->err, "spin is in 2 modules; choose one with --module");
  sp_test_assert_contains (both->err, "libspin.so]");
  sp_test_assert_contains (both->err, "prog]");
  g_assert_cmpint (lib->exit_code, ==, 0);
  sp_test_assert_contains (lib->out, "/* LIB SPIN */");
  g_assert_null (strstr (lib->out, "/* PROG SPIN */"));
  g_assert_cmpint (prog->exit_code, ==, 0);
  sp_test_assert_contains (prog->out, "prog.c:");
  sp_test_assert_contains (prog->out, "call");
}

/* Two static spins in prog (prog.c's and other.c's): the source shows
 * both files, --asm both functions, one block each. */
static void
test_same_name_in_one_module (void)
{
  g_autoptr (SpChildResult) source = annotate ("--module", "prog", "spin", built.spool, NULL);
  g_autoptr (SpChildResult) insns = annotate ("--module", "prog", "--asm", "spin", built.spool, NULL);
  g_autofree char *prog = g_build_filename (built.dir, "prog", NULL);
  g_autofree char *block = g_strdup_printf ("spin  [%s]  at ", prog);
  g_auto (GStrv) blocks = NULL;

  g_test_message ("annotate --asm spin in prog:\n%s%s", insns->out, insns->err);
  g_assert_cmpint (source->exit_code, ==, 0);
  sp_test_assert_contains (source->out, "/* PROG SPIN */");
  sp_test_assert_contains (source->out, "/* OTHER SPIN ");
  g_assert_cmpint (insns->exit_code, ==, 0);
  blocks = g_strsplit (insns->out, block, -1);
  g_assert_cmpuint (g_strv_length (blocks), ==, 3);
  sp_test_assert_contains (insns->out, "prog.c:");
  sp_test_assert_contains (insns->out, "other.c:");
  /* A jump out of the function is named by the symbol it lands in. */
  g_assert_true (g_regex_match_simple ("jmp +[0-9a-f]+ <other_work>", insns->out, 0, 0));
}

/* The source's control characters reach no terminal: escaped, in text
 * and TSV; a NUL byte does not cut its line short. */
static void
test_control_characters (void)
{
  g_autoptr (SpChildResult) text = annotate ("--module", "prog", "spin", built.spool, NULL);
  g_autoptr (SpChildResult) tsv = annotate ("--module", "prog", "--tsv", "spin", built.spool, NULL);

  g_assert_cmpint (text->exit_code, ==, 0);
  sp_test_assert_contains (text->out, "/* OTHER SPIN \\x1b]0;owned\\x07 \\x1b[31m red \xef\xbf\xbd after-nul */");
  g_assert_null (strchr (text->out, '\x1b'));
  g_assert_null (strchr (text->out, '\x07'));
  g_assert_cmpint (tsv->exit_code, ==, 0);
  sp_test_assert_contains (tsv->out, "\\x1b[31m red");
  g_assert_null (strchr (tsv->out, '\x1b'));
}

/* A filter that leaves the function, or anything, without samples says
 * only that (no word about debug info), and exits 1; a --tid that names
 * no thread is warned about, in any command. */
static void
test_no_samples_chosen (void)
{
  g_autoptr (SpChildResult) focused = annotate ("--focus", "lib_work", "--module", "prog", "spin", built.spool, NULL);
  g_autoptr (SpChildResult) no_thread = annotate ("--tid", "99999", "spin", built.spool, NULL);
  g_autoptr (SpChildResult) top = sp_test_report_run (built.dir, (const char *const[]) { "top", "--tid", "99999",
                                                                                         built.spool, NULL });

  g_test_message ("annotate --focus lib_work spin:\n%s%s", focused->out, focused->err);
  g_assert_cmpint (focused->exit_code, ==, 1);
  sp_test_assert_contains (focused->err, "spin has no samples in what is chosen");
  g_assert_null (strstr (focused->err, "debug info"));
  g_assert_cmpstr (focused->out, ==, "");
  g_assert_cmpint (no_thread->exit_code, ==, 1);
  sp_test_assert_contains (no_thread->err, "no samples in what is chosen");
  sp_test_assert_contains (no_thread->err, "--tid 99999 names no thread of the recording");
  g_assert_null (strstr (no_thread->err, "no function named"));
  sp_test_assert_contains (top->err, "--tid 99999 names no thread of the recording");
}

/* The sources move: the message says where it looked, the rows stay;
 * --source-dir finds them, either way it is given, and the heading names
 * the file read. A FIFO or a folder at a source's path is said to be one. */
static void
test_missing_source (void)
{
  g_autofree char *moved = g_build_filename (built.dir, "moved", NULL);
  g_autofree char *mapping = NULL;
  g_autofree char *dwarf_path = g_build_filename (built.src, "prog.c", NULL);
  g_autoptr (SpChildResult) lost = NULL;
  g_autoptr (SpChildResult) by_dir = NULL;
  g_autoptr (SpChildResult) by_prefix = NULL;
  g_autoptr (SpChildResult) odd = NULL;
  g_autofree char *other_path = g_build_filename (built.src, "other.c", NULL);
  g_autofree char *moved_prog = g_build_filename (moved, "prog.c", NULL);
  g_autofree char *heading = g_strdup_printf ("%s  (built as %s)", moved_prog, dwarf_path);
  g_autofree char *fifo = g_strdup_printf ("%s (a FIFO, not read)", dwarf_path);
  g_autofree char *folder = g_strdup_printf ("%s (a folder, not read)", other_path);

  g_assert_cmpint (g_rename (built.src, moved), ==, 0);
  lost = annotate ("--module", "prog", "spin", built.spool, NULL);
  mapping = g_strdup_printf ("%s=%s", built.src, moved);
  by_dir = annotate ("--module", "prog", "--source-dir", moved, "spin", built.spool, NULL);
  by_prefix = annotate ("--module", "prog", "--source-dir", mapping, "spin", built.spool, NULL);
  /* A FIFO where prog.c was, a folder where other.c was: said, not read. */
  g_assert_cmpint (g_mkdir (built.src, 0755), ==, 0);
  g_assert_cmpint (mkfifo (dwarf_path, 0600), ==, 0);
  g_assert_cmpint (g_mkdir (other_path, 0755), ==, 0);
  odd = annotate ("--module", "prog", "spin", built.spool, NULL);
  g_assert_cmpint (g_unlink (dwarf_path), ==, 0);
  g_assert_cmpint (g_rmdir (other_path), ==, 0);
  g_assert_cmpint (g_rmdir (built.src), ==, 0);
  g_assert_cmpint (g_rename (moved, built.src), ==, 0);

  g_test_message ("annotate with the source moved:\n%s%s", lost->out, lost->err);
  g_assert_cmpint (lost->exit_code, ==, 0);
  sp_test_assert_contains (lost->err, "not found (looked at");
  sp_test_assert_contains (lost->err, dwarf_path);
  sp_test_assert_contains (lost->err, "--source-dir");
  g_assert_null (strstr (lost->out, "/* PROG SPIN */"));
  sp_test_assert_contains (lost->out, "%");
  g_assert_cmpint (by_dir->exit_code, ==, 0);
  g_assert_cmpstr (by_dir->err, ==, "");
  sp_test_assert_contains (by_dir->out, "/* PROG SPIN */");
  /* The heading is the file read, and says what it was built as. */
  sp_test_assert_contains (by_dir->out, heading);
  g_test_message ("annotate with a FIFO and a folder for sources:\n%s", odd->err);
  g_assert_cmpint (odd->exit_code, ==, 0);
  sp_test_assert_contains (odd->err, fifo);
  sp_test_assert_contains (odd->err, folder);
  g_assert_cmpint (by_prefix->exit_code, ==, 0);
  sp_test_assert_contains (by_prefix->out, "/* PROG SPIN */");
}

/* A source file written after the program (edited since the build):
 * its lines may not be the code's, and annotate says so, as gdb does. */
static void
test_source_newer (void)
{
  g_autofree char *source = g_build_filename (built.src, "prog.c", NULL);
  g_autofree char *program = g_build_filename (built.dir, "prog", NULL);
  g_autoptr (SpChildResult) older = annotate ("--module", "prog", "spin", built.spool, NULL);
  g_autoptr (SpChildResult) newer = NULL;
  GStatBuf st;
  struct utimbuf times;

  g_assert_cmpint (older->exit_code, ==, 0);
  g_assert_null (strstr (older->err, "is newer than"));
  g_assert_cmpint (g_stat (program, &st), ==, 0);
  times = (struct utimbuf) { st.st_mtime + 60, st.st_mtime + 60 };
  g_assert_cmpint (g_utime (source, &times), ==, 0);
  newer = annotate ("--module", "prog", "spin", built.spool, NULL);
  times = (struct utimbuf) { st.st_mtime - 60, st.st_mtime - 60 };
  g_assert_cmpint (g_utime (source, &times), ==, 0);
  g_assert_cmpint (newer->exit_code, ==, 0);
  sp_test_assert_contains (newer->err, "is newer than");
  sp_test_assert_contains (newer->out, "/* PROG SPIN */");
}

static void
test_options_of_annotate (void)
{
  g_autoptr (SpChildResult) top = sp_test_report_run (built.dir, (const char *const[]) { "top", "--asm",
                                                                                         built.spool, NULL });
  g_autoptr (SpChildResult) no_file = sp_test_report_run (built.dir, (const char *const[]) { "annotate", "spin",
                                                                                             NULL });

  g_assert_cmpint (top->exit_code, ==, 2);
  sp_test_assert_contains (top->err, "--asm, --module and --source-dir are for annotate");
  g_assert_cmpint (no_file->exit_code, ==, 2);
  sp_test_assert_contains (no_file->err, "annotate takes a function and a file (1 given)");
}

int
main (int argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;
  build_and_record ();
  g_test_add_func ("/report/annotate-input/not-a-spool", test_not_a_spool);
  g_test_add_func ("/report/annotate-input/unknown-function", test_unknown_function);
  g_test_add_func ("/report/annotate-input/ambiguous", test_ambiguous);
  g_test_add_func ("/report/annotate-input/same-name-in-one-module", test_same_name_in_one_module);
  g_test_add_func ("/report/annotate-input/control-characters", test_control_characters);
  g_test_add_func ("/report/annotate-input/no-samples-chosen", test_no_samples_chosen);
  g_test_add_func ("/report/annotate-input/missing-source", test_missing_source);
  g_test_add_func ("/report/annotate-input/source-newer", test_source_newer);
  g_test_add_func ("/report/annotate-input/options", test_options_of_annotate);
  status = g_test_run ();
  sp_test_remove_dir (built.dir);
  return status;
}
