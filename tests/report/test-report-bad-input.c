/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-bad-input.c: stackpulse-report given what is no spool, and
 * spools that name FIFOs.
 *
 * Files that are not recordings (empty, text, a program, a perf.data from
 * the real perf, a folder, a FIFO, a device) are refused with what they
 * look like and a non-zero exit. Spools written here name FIFOs where the
 * viewer opens files (a module, a module's debug file, a JIT map, the side
 * file): the report must finish (each run has a deadline, see
 * record-run.h) and say what it skipped. */
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report-output.h"
#include "sp-spool-writer.h"

/* A pid no process has, for the JIT map /tmp/perf-PID.map. */
#define NO_SUCH_PID 2147480001

/* ---- Running the report --------------------------------------------------- */

static SpChildResult *
report (const char *dir,
        const char *first,
        ...) G_GNUC_NULL_TERMINATED;

static SpChildResult *
report (const char *dir,
        const char *first,
        ...)
{
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, first);
  for (const char *arg = first; arg != NULL; arg = va_arg (ap, const char *))
    g_ptr_array_add (args, (char *) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  return sp_test_report_run (dir, (const char *const *) args->pdata);
}

/* The report refuses path: exit 1, nothing on stdout, what on stderr. */
static void
assert_refused (const char *dir,
                const char *path,
                const char *what)
{
  g_autoptr (SpChildResult) result = report (dir, path, NULL);

  g_test_message ("%s: %s", path, result->err);
  g_assert_cmpint (result->exit_code, ==, 1);
  g_assert_cmpstr (result->out, ==, "");
  g_assert_nonnull (strstr (result->err, path));
  g_assert_nonnull (strstr (result->err, what));
}

/* ---- Writing spools --------------------------------------------------------- */

static void
mkfifo_at (const char *path)
{
  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
}

/* A spool with 10 samples in the kernel, 10 in each module (a user
 * module of pid 100 at 0x400000 + 16 MiB each), and with_jit, 10 in JIT
 * code of NO_SUCH_PID. */
static void
write_spool (const char *path,
             const char *const *module_paths,
             gboolean with_jit)
{
  SpModule kernel = { 0xffffffff80000000, G_MAXUINT64, 0, 0, "[kernel.kallsyms]", 17, -1, true };
  SpFrame kernel_frame = { 0x1000, 0xffffffff80001000, 0, SP_FRAME_KERNEL };
  SpFrame jit_frame = { 0x7f0000001000, 0x7f0000001000, SP_SPOOL_NO_ID, SP_FRAME_USER };
  SpSpoolError err;
  SpSpoolWriter *writer = sp_spool_writer_create (path, 1700000000000000, 1000, &err);
  guint64 now_ns = 1000000000;

  g_assert_nonnull (writer);
  g_assert_true (sp_spool_writer_write_module (writer, 0, &kernel, &err));
  for (guint s = 0; s < 10; s++, now_ns += 1000000)
    g_assert_true (sp_spool_writer_write_sample (writer, now_ns, 100, 100, &kernel_frame, 1, NULL, &err));
  for (guint n = 0; module_paths != NULL && module_paths[n] != NULL; n++)
    {
      guint64 start = 0x400000 + (guint64) n * 0x1000000;
      SpModule module = { start, start + 0x100000, 0, 0, module_paths[n], strlen (module_paths[n]), 100, false };
      SpFrame frame = { 0x1100, start + 0x1100, n + 1, SP_FRAME_USER };

      g_assert_true (sp_spool_writer_write_module (writer, n + 1, &module, &err));
      for (guint s = 0; s < 10; s++, now_ns += 1000000)
        g_assert_true (sp_spool_writer_write_sample (writer, now_ns, 100, 100, &frame, 1, NULL, &err));
    }
  for (guint s = 0; with_jit && s < 10; s++, now_ns += 1000000)
    g_assert_true (sp_spool_writer_write_sample (writer, now_ns, NO_SUCH_PID, NO_SUCH_PID, &jit_frame, 1, NULL, &err));
  g_assert_true (sp_spool_writer_close (writer, &err));
}

static void
write_meta (const char *spool,
            const char *text)
{
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);

  g_assert_true (g_file_set_contents (meta, text, -1, NULL));
}

/* ---- Not a spool ------------------------------------------------------------ */

static void
test_not_a_spool (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *empty = g_build_filename (dir, "empty.spool", NULL);
  g_autofree char *text = g_build_filename (dir, "notes.txt", NULL);
  g_autofree char *random = g_build_filename (dir, "random.spool", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo.spool", NULL);
  guint8 bytes[256];

  g_assert_true (g_file_set_contents (empty, "", 0, NULL));
  g_assert_true (g_file_set_contents (text, "hello, this is a text file\nsecond line\n", -1, NULL));
  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = (guint8) (i * 37 + 11);
  g_assert_true (g_file_set_contents (random, (const char *) bytes, sizeof bytes, NULL));
  mkfifo_at (fifo);

  assert_refused (dir, empty, "is empty");
  assert_refused (dir, text, "is a text file (it begins \"hello, this is a text file\")");
  assert_refused (dir, random, "is not a stackpulse recording");
  assert_refused (dir, sp_test_reporter (), "is an ELF file");
  assert_refused (dir, dir, "is a directory");
  assert_refused (dir, fifo, "is a FIFO");
  assert_refused (dir, "/dev/null", "is a character device");
  sp_test_remove_dir (dir);
}

/* A perf.data written by the real perf. */
static void
test_perf_data (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *data = g_build_filename (dir, "perf.data", NULL);
  g_autofree char *perf = g_find_program_in_path ("perf");
  g_autoptr (SpChildResult) recorded = NULL;

  if (perf == NULL)
    {
      if (g_getenv ("CI") != NULL)
        g_error ("perf is not installed (package linux-perf)");
      g_test_skip ("perf is not installed");
      sp_test_remove_dir (dir);
      return;
    }
  recorded = sp_test_run (dir, "perf", (const char *const[]) { perf, "record", "-o", data, "--", "true", NULL });
  g_assert_cmpint (recorded->exit_code, ==, 0);
  assert_refused (dir, data, "is a perf.data file");
  assert_refused (dir, data, "perf.data files are not supported yet");
  sp_test_remove_dir (dir);
}

/* Damage after a good header keeps every record before it. */
static void
test_damaged_after_header (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *spool = g_build_filename (dir, "cut.spool", NULL);
  g_autoptr (SpChildResult) result = NULL;
  FILE *file;

  write_spool (spool, NULL, FALSE);
  file = fopen (spool, "a");
  g_assert_nonnull (file);
  fputs ("\xee garbage", file);
  fclose (file);
  result = report (dir, spool, NULL);
  g_assert_cmpint (result->exit_code, ==, 0);
  g_assert_nonnull (strstr (result->out, "samples:   10 (of 10 in the file)"));
  g_assert_nonnull (strstr (result->err, "damaged record at byte"));
  sp_test_remove_dir (dir);
}

/* ---- FIFOs a spool names ------------------------------------------------- */

/* A module that is a FIFO: its frames stay addresses, with the reason. */
static void
test_fifo_module (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *spool = g_build_filename (dir, "fifo-module.spool", NULL);
  g_autofree char *module = g_build_filename (dir, "libfifo.so", NULL);
  g_autoptr (SpChildResult) result = NULL;

  mkfifo_at (module);
  write_spool (spool, (const char *const[]) { module, NULL }, FALSE);
  result = report (dir, spool, NULL);
  g_assert_cmpint (result->exit_code, ==, 0);
  g_assert_nonnull (strstr (result->out, "libfifo.so+0x1100"));
  g_assert_nonnull (strstr (result->out, "libfifo.so is a FIFO (named pipe), not a regular file"));
  sp_test_remove_dir (dir);
}

/* A program without symbols beside a FIFO named as its debug file
 * ("prog.debug", the name libdwfl looks for without a debuglink). */
static void
test_fifo_debug_file (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *spool = g_build_filename (dir, "fifo-debug.spool", NULL);
  g_autofree char *program = g_build_filename (dir, "prog", NULL);
  g_autofree char *debug = g_build_filename (dir, "prog.debug", NULL);
  g_autofree char *stripped = sp_test_workload ("threads_stripped");
  g_autofree char *contents = NULL;
  g_autoptr (SpChildResult) result = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (stripped, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (program, contents, (gssize) length, NULL));
  mkfifo_at (debug);
  write_spool (spool, (const char *const[]) { program, NULL }, FALSE);
  result = report (dir, spool, NULL);
  g_assert_cmpint (result->exit_code, ==, 0);
  g_assert_nonnull (strstr (result->out, "[prog]"));
  g_assert_nonnull (strstr (result->out, "its debug file"));
  g_assert_nonnull (strstr (result->out, "prog.debug is not a regular file"));
  sp_test_remove_dir (dir);
}

/* A program with DWARF that names an alternate debug file (as dwz
 * leaves them), "alt.debug" beside it, which is a FIFO. */
static void
test_fifo_alt_debug_file (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *spool = g_build_filename (dir, "fifo-alt.spool", NULL);
  g_autofree char *program = g_build_filename (dir, "prog", NULL);
  g_autofree char *section = g_build_filename (dir, "altlink", NULL);
  g_autofree char *alt = g_build_filename (dir, "alt.debug", NULL);
  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *objcopy = g_find_program_in_path ("objcopy");
  g_autofree char *add = g_strdup_printf (".gnu_debugaltlink=%s", section);
  g_autoptr (SpChildResult) copied = NULL;
  g_autoptr (SpChildResult) result = NULL;
  /* The name, then a build id (any 20 bytes). */
  static const char altlink[] = "alt.debug\0" "0123456789abcdefghij";

  g_assert_nonnull (objcopy);
  g_assert_true (g_file_set_contents (section, altlink, sizeof altlink - 1, NULL));
  copied = sp_test_run (dir, "objcopy", (const char *const[]) { objcopy, "--add-section", add, workload, program, NULL });
  g_assert_cmpint (copied->exit_code, ==, 0);
  mkfifo_at (alt);
  write_spool (spool, (const char *const[]) { program, NULL }, FALSE);
  result = report (dir, spool, NULL);
  g_assert_cmpint (result->exit_code, ==, 0);
  g_assert_nonnull (strstr (result->out, "[prog]"));
  g_assert_nonnull (strstr (result->out, "alt.debug is not a regular file"));
  sp_test_remove_dir (dir);
}

/* /tmp/perf-PID.map as a FIFO: JIT frames stay unnamed, with the reason. */
static void
test_fifo_perf_map (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *spool = g_build_filename (dir, "fifo-map.spool", NULL);
  g_autofree char *map = g_strdup_printf ("/tmp/perf-%d.map", NO_SUCH_PID);
  g_autoptr (SpChildResult) result = NULL;

  g_unlink (map);
  mkfifo_at (map);
  write_spool (spool, NULL, TRUE);
  result = report (dir, spool, NULL);
  g_unlink (map);
  g_assert_cmpint (result->exit_code, ==, 0);
  g_assert_nonnull (strstr (result->out, "[unknown]+0x7f0000001000"));
  g_assert_nonnull (strstr (result->out, "is a FIFO (named pipe), not a regular file"));
  sp_test_remove_dir (dir);
}

/* ---- The side file ---------------------------------------------------------- */

/* A side file that is a FIFO, random bytes, or too large: named as
 * unreadable, and the recording is shown without it. */
static void
assert_side_file_refused (const char *dir,
                          const char *spool,
                          const char *why)
{
  g_autoptr (SpChildResult) result = report (dir, spool, NULL);
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);
  g_autofree char *warning = g_strdup_printf ("warning: the side file is unreadable or damaged (%s", meta);

  g_test_message ("%s", result->err);
  g_assert_cmpint (result->exit_code, ==, 0);
  g_assert_nonnull (strstr (result->out, "samples:   10 (of 10 in the file)"));
  g_assert_nonnull (strstr (result->out, "lost:      unknown (the side file is damaged)"));
  g_assert_nonnull (strstr (result->err, warning));
  g_assert_nonnull (strstr (result->err, why));
}

static void
test_fifo_side_file (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *spool = g_build_filename (dir, "fifo-meta.spool", NULL);
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);

  write_spool (spool, NULL, FALSE);
  mkfifo_at (meta);
  assert_side_file_refused (dir, spool, "is a FIFO (named pipe), not a regular file");
  sp_test_remove_dir (dir);
}

static void
test_damaged_side_file (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *spool = g_build_filename (dir, "random-meta.spool", NULL);
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);
  guint8 bytes[512];

  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = (guint8) (i * 151 + 7);
  write_spool (spool, NULL, FALSE);
  g_assert_true (g_file_set_contents (meta, (const char *) bytes, sizeof bytes, NULL));
  assert_side_file_refused (dir, spool, "");
  sp_test_remove_dir (dir);
}

/* Larger than any side file the recorder writes (sparse: no disk used). */
static void
test_large_side_file (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autofree char *spool = g_build_filename (dir, "large-meta.spool", NULL);
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);
  int fd;

  write_spool (spool, NULL, FALSE);
  write_meta (spool, "[recording]\nformat=1\n");
  fd = open (meta, O_WRONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, (off_t) 65 << 20), ==, 0);
  close (fd);
  assert_side_file_refused (dir, spool, "is larger than 64 MiB");
  sp_test_remove_dir (dir);
}

/* ---- The command line ---------------------------------------------------- */

static void
test_command_without_file (void)
{
  g_autofree char *dir = sp_test_make_dir ();
  g_autoptr (SpChildResult) summary = report (dir, "summary", NULL);
  g_autoptr (SpChildResult) callers = report (dir, "callers", NULL);

  g_assert_cmpint (summary->exit_code, ==, 2);
  g_assert_nonnull (strstr (summary->err, "summary needs a recording: stackpulse-report summary FILE.spool"));
  g_assert_nonnull (strstr (summary->err, "Usage: stackpulse-report"));
  g_assert_null (strstr (summary->err, "cannot open"));
  g_assert_cmpint (callers->exit_code, ==, 2);
  g_assert_nonnull (strstr (callers->err, "stackpulse-report callers FUNC FILE.spool"));
  sp_test_remove_dir (dir);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/bad-input/not-a-spool", test_not_a_spool);
  g_test_add_func ("/report/bad-input/perf-data", test_perf_data);
  g_test_add_func ("/report/bad-input/damaged-after-header", test_damaged_after_header);
  g_test_add_func ("/report/bad-input/fifo-module", test_fifo_module);
  g_test_add_func ("/report/bad-input/fifo-debug-file", test_fifo_debug_file);
  g_test_add_func ("/report/bad-input/fifo-alt-debug-file", test_fifo_alt_debug_file);
  g_test_add_func ("/report/bad-input/fifo-perf-map", test_fifo_perf_map);
  g_test_add_func ("/report/bad-input/fifo-side-file", test_fifo_side_file);
  g_test_add_func ("/report/bad-input/damaged-side-file", test_damaged_side_file);
  g_test_add_func ("/report/bad-input/large-side-file", test_large_side_file);
  g_test_add_func ("/report/bad-input/command-without-file", test_command_without_file);
  return g_test_run ();
}
