/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-report-bad-input.c: stackpulse-report given what is no spool, and
 * spools that name FIFOs.
 *
 * Files that are not recordings (empty, text, a program, a perf.data from
 * the real perf, a folder, a FIFO, a device) are refused with what they
 * look like and a non-zero exit. Spools written here name FIFOs where the
 * viewer opens files (a module, a module's debug file, a JIT map, the side
 * file): the report must finish (each run has a deadline, see
 * record-run.h) and say what it skipped.
 *
 * Each case is a row of one table: what to make, the command, the exit
 * code and the texts expected (or not) on stdout and stderr. */
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

/* ---- The cases ------------------------------------------------------------ */

/* What a case's maker made, in a folder of its own. */
typedef struct {
  char *dir;
  char *input;    /* the path given to the report, or NULL for none */
  char *outside;  /* a file outside dir, removed right after the run */
} Made;

/* One run of stackpulse-report on what make made: `report [command]
 * [input]` in made.dir. In the expected texts, {input} stands for the
 * input's path. */
typedef struct {
  const char *name;                /* the test path under /report/bad-input/ */
  gboolean  (*make) (Made *made);  /* FALSE: the case is skipped */
  const char *command;             /* given before the input, or NULL */
  int         exit_code;
  gboolean    out_empty;           /* nothing at all on stdout */
  const char *out[3];              /* stdout holds each of these */
  const char *err[3];              /* stderr holds each of these */
  const char *err_absent;          /* stderr does not hold this */
} BadInput;

static char *
expand_input (const char *expected,
              const char *input)
{
  GString *text = g_string_new (expected);

  if (input != NULL)
    g_string_replace (text, "{input}", input, 0);
  return g_string_free (text, FALSE);
}

static void
assert_holds_each (const char *text,
                   const char *const *expected,
                   guint n_expected,
                   const char *input)
{
  for (guint i = 0; i < n_expected && expected[i] != NULL; i++)
    {
      g_autofree char *part = expand_input (expected[i], input);

      sp_test_assert_contains (text, part);
    }
}

static void
run_case (gconstpointer data)
{
  const BadInput *row = data;
  g_autofree char *dir = sp_test_make_dir ();
  Made made = { dir, NULL, NULL };
  const char *args[3] = { NULL };
  guint n_args = 0;
  g_autoptr (SpChildResult) result = NULL;

  if (row->make != NULL && !row->make (&made))
    {
      sp_test_remove_dir (dir);
      return;
    }
  if (row->command != NULL)
    args[n_args++] = row->command;
  if (made.input != NULL)
    args[n_args++] = made.input;
  result = sp_test_report_run (dir, args);
  if (made.outside != NULL)
    g_unlink (made.outside);
  g_test_message ("%s: exit %d, stderr:\n%s", row->name, result->exit_code, result->err);

  g_assert_cmpint (result->exit_code, ==, row->exit_code);
  if (row->out_empty)
    g_assert_cmpstr (result->out, ==, "");
  assert_holds_each (result->out, row->out, G_N_ELEMENTS (row->out), made.input);
  assert_holds_each (result->err, row->err, G_N_ELEMENTS (row->err), made.input);
  if (row->err_absent != NULL)
    g_assert_null (strstr (result->err, row->err_absent));
  g_free (made.input);
  g_free (made.outside);
  sp_test_remove_dir (dir);
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

/* The input: a spool of write_spool's samples at dir/name. */
static void
make_spool (Made *made,
            const char *name,
            const char *const *module_paths,
            gboolean with_jit)
{
  made->input = g_build_filename (made->dir, name, NULL);
  write_spool (made->input, module_paths, with_jit);
}

/* ---- Not a spool: what the report is given --------------------------------- */

static gboolean
make_empty (Made *made)
{
  made->input = g_build_filename (made->dir, "empty.spool", NULL);
  g_assert_true (g_file_set_contents (made->input, "", 0, NULL));
  return TRUE;
}

static gboolean
make_text (Made *made)
{
  made->input = g_build_filename (made->dir, "notes.txt", NULL);
  g_assert_true (g_file_set_contents (made->input, "hello, this is a text file\nsecond line\n", -1, NULL));
  return TRUE;
}

static gboolean
make_random_bytes (Made *made)
{
  guint8 bytes[256];

  made->input = g_build_filename (made->dir, "random.spool", NULL);
  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = (guint8) (i * 37 + 11);
  g_assert_true (g_file_set_contents (made->input, (const char *) bytes, sizeof bytes, NULL));
  return TRUE;
}

static gboolean
make_program (Made *made)
{
  made->input = g_strdup (sp_test_reporter ());
  return TRUE;
}

static gboolean
make_folder (Made *made)
{
  made->input = g_strdup (made->dir);
  return TRUE;
}

static gboolean
make_fifo (Made *made)
{
  made->input = g_build_filename (made->dir, "fifo.spool", NULL);
  mkfifo_at (made->input);
  return TRUE;
}

static gboolean
make_device (Made *made)
{
  made->input = g_strdup ("/dev/null");
  return TRUE;
}

/* A perf.data written by the real perf. */
static gboolean
make_perf_data (Made *made)
{
  g_autofree char *perf = g_find_program_in_path ("perf");
  g_autoptr (SpChildResult) recorded = NULL;

  if (perf == NULL)
    {
      if (g_getenv ("CI") != NULL)
        g_error ("perf is not installed (package linux-perf)");
      g_test_skip ("perf is not installed");
      return FALSE;
    }
  made->input = g_build_filename (made->dir, "perf.data", NULL);
  recorded = sp_test_run (made->dir, "perf",
                          (const char *const[]) { perf, "record", "-o", made->input, "--", "true", NULL });
  g_assert_cmpint (recorded->exit_code, ==, 0);
  return TRUE;
}

/* Damage after a good header keeps every record before it. */
static gboolean
make_damaged_after_header (Made *made)
{
  FILE *file;

  make_spool (made, "cut.spool", NULL, FALSE);
  file = fopen (made->input, "a");
  g_assert_nonnull (file);
  fputs ("\xee garbage", file);
  fclose (file);
  return TRUE;
}

/* ---- FIFOs a spool names ------------------------------------------------- */

/* A module that is a FIFO: its frames stay addresses, with the reason. */
static gboolean
make_fifo_module (Made *made)
{
  g_autofree char *module = g_build_filename (made->dir, "libfifo.so", NULL);

  mkfifo_at (module);
  make_spool (made, "fifo-module.spool", (const char *const[]) { module, NULL }, FALSE);
  return TRUE;
}

/* A program without symbols beside a FIFO named as its debug file
 * ("prog.debug", the name libdwfl looks for without a debuglink). */
static gboolean
make_fifo_debug_file (Made *made)
{
  g_autofree char *program = g_build_filename (made->dir, "prog", NULL);
  g_autofree char *debug = g_build_filename (made->dir, "prog.debug", NULL);
  g_autofree char *stripped = sp_test_workload ("threads_stripped");
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (stripped, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (program, contents, (gssize) length, NULL));
  mkfifo_at (debug);
  make_spool (made, "fifo-debug.spool", (const char *const[]) { program, NULL }, FALSE);
  return TRUE;
}

/* A program with DWARF that names an alternate debug file (as dwz
 * leaves them), "alt.debug" beside it, which is a FIFO. */
static gboolean
make_fifo_alt_debug_file (Made *made)
{
  g_autofree char *program = g_build_filename (made->dir, "prog", NULL);
  g_autofree char *section = g_build_filename (made->dir, "altlink", NULL);
  g_autofree char *alt = g_build_filename (made->dir, "alt.debug", NULL);
  g_autofree char *workload = sp_test_workload ("threads");
  g_autofree char *objcopy = g_find_program_in_path ("objcopy");
  g_autofree char *add = g_strdup_printf (".gnu_debugaltlink=%s", section);
  g_autoptr (SpChildResult) copied = NULL;
  /* The name, then a build id (any 20 bytes). */
  static const char altlink[] = "alt.debug\0" "0123456789abcdefghij";

  g_assert_nonnull (objcopy);
  g_assert_true (g_file_set_contents (section, altlink, sizeof altlink - 1, NULL));
  copied = sp_test_run (made->dir, "objcopy",
                        (const char *const[]) { objcopy, "--add-section", add, workload, program, NULL });
  g_assert_cmpint (copied->exit_code, ==, 0);
  mkfifo_at (alt);
  make_spool (made, "fifo-alt.spool", (const char *const[]) { program, NULL }, FALSE);
  return TRUE;
}

/* /tmp/perf-PID.map as a FIFO: JIT frames stay unnamed, with the reason. */
static gboolean
make_fifo_perf_map (Made *made)
{
  made->outside = g_strdup_printf ("/tmp/perf-%d.map", NO_SUCH_PID);
  g_unlink (made->outside);
  mkfifo_at (made->outside);
  make_spool (made, "fifo-map.spool", NULL, TRUE);
  return TRUE;
}

/* ---- The side file: a FIFO, random bytes, or too large ------------------- */

static gboolean
make_fifo_side_file (Made *made)
{
  g_autofree char *meta = NULL;

  make_spool (made, "fifo-meta.spool", NULL, FALSE);
  meta = g_strconcat (made->input, ".meta", NULL);
  mkfifo_at (meta);
  return TRUE;
}

static gboolean
make_damaged_side_file (Made *made)
{
  g_autofree char *meta = NULL;
  guint8 bytes[512];

  make_spool (made, "random-meta.spool", NULL, FALSE);
  meta = g_strconcat (made->input, ".meta", NULL);
  for (guint i = 0; i < sizeof bytes; i++)
    bytes[i] = (guint8) (i * 151 + 7);
  g_assert_true (g_file_set_contents (meta, (const char *) bytes, sizeof bytes, NULL));
  return TRUE;
}

/* A side file left beside another spool (or copied with the wrong one):
 * its spool started half a second after this one. */
static gboolean
make_side_file_of_another_spool (Made *made)
{
  make_spool (made, "mixed.spool", NULL, FALSE);
  write_meta (made->input, "[recording]\nformat=1\ncomplete=true\ncommand=xz;-9;other-file;\n"
                           "spool_start_us=1700000000500000\nspool_bytes=999999\nsamples=12345\n");
  return TRUE;
}

/* The same, naming this spool: used. */
static gboolean
make_side_file_of_this_spool (Made *made)
{
  make_spool (made, "matched.spool", NULL, FALSE);
  write_meta (made->input, "[recording]\nformat=1\ncomplete=true\ncommand=xz;-9;this-file;\n"
                           "spool_start_us=1700000000000000\nsamples=10\n");
  return TRUE;
}

/* Larger than any side file the recorder writes (sparse: no disk used). */
static gboolean
make_large_side_file (Made *made)
{
  g_autofree char *meta = NULL;
  int fd;

  make_spool (made, "large-meta.spool", NULL, FALSE);
  meta = g_strconcat (made->input, ".meta", NULL);
  write_meta (made->input, "[recording]\nformat=1\n");
  fd = open (meta, O_WRONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, (off_t) 65 << 20), ==, 0);
  close (fd);
  return TRUE;
}

/* ---- The table ------------------------------------------------------------ */

/* Not a recording: exit 1, nothing on stdout, the path and what it looks
 * like on stderr. */
#define REFUSED(what) 1, TRUE, { NULL }, { "{input}", what }, NULL

/* The side file is named as unreadable, and the recording is shown
 * without it. */
#define SIDE_FILE_REFUSED(why)                                                                        \
  0, FALSE, { "samples:   10 (of 10 in the file)", "lost:      unknown (the side file is damaged)" }, \
  { "warning: the side file is unreadable or damaged ({input}.meta", why }, NULL

static const BadInput cases[] = {
  { "not-a-spool/empty", make_empty, NULL, REFUSED ("is empty") },
  { "not-a-spool/text", make_text, NULL, REFUSED ("is a text file (it begins \"hello, this is a text file\")") },
  { "not-a-spool/random-bytes", make_random_bytes, NULL, REFUSED ("is not a stackpulse recording") },
  { "not-a-spool/program", make_program, NULL, REFUSED ("is an ELF file") },
  { "not-a-spool/folder", make_folder, NULL, REFUSED ("is a directory") },
  { "not-a-spool/fifo", make_fifo, NULL, REFUSED ("is a FIFO") },
  { "not-a-spool/device", make_device, NULL, REFUSED ("is a character device") },
  { "perf-data", make_perf_data, NULL, 1, TRUE, { NULL },
    { "{input}", "is a perf.data file", "convert it first (stackpulse-record --input FILE -o out.spool)" }, NULL },
  { "damaged-after-header", make_damaged_after_header, NULL, 0, FALSE,
    { "samples:   10 (of 10 in the file)" }, { "damaged record at byte" }, NULL },
  { "fifo-module", make_fifo_module, NULL, 0, FALSE,
    { "libfifo.so+0x1100", "libfifo.so is a FIFO (named pipe), not a regular file" }, { NULL }, NULL },
  { "fifo-debug-file", make_fifo_debug_file, NULL, 0, FALSE,
    { "[prog]", "its debug file", "prog.debug is not a regular file" }, { NULL }, NULL },
  { "fifo-alt-debug-file", make_fifo_alt_debug_file, NULL, 0, FALSE,
    { "[prog]", "alt.debug is not a regular file" }, { NULL }, NULL },
  { "fifo-perf-map", make_fifo_perf_map, NULL, 0, FALSE,
    { "[unknown]+0x7f0000001000", "is a FIFO (named pipe), not a regular file" }, { NULL }, NULL },
  { "fifo-side-file", make_fifo_side_file, NULL, SIDE_FILE_REFUSED ("is a FIFO (named pipe), not a regular file") },
  { "damaged-side-file", make_damaged_side_file, NULL, SIDE_FILE_REFUSED (NULL) },
  { "large-side-file", make_large_side_file, NULL, SIDE_FILE_REFUSED ("is larger than 64 MiB") },
  /* Its command and sizes are not taken for this recording's (nor is the
   * spool called cut for being shorter than the other one). */
  { "side-file-of-another-spool", make_side_file_of_another_spool, NULL, 0, FALSE,
    { "samples:   10 (of 10 in the file)", "lost:      unknown" },
    { "warning: the side file {input}.meta is another recording's (its spool started 0.5 s after this one's), "
      "so it is not used" }, "shorter than its recording" },
  { "side-file-of-this-spool", make_side_file_of_this_spool, NULL, 0, FALSE,
    { "command:   xz -9 this-file", "samples:   10 (of 10 in the file)" }, { NULL }, "side file" },
  /* A command without its file: exit 2 with the usage, not an open error. */
  { "command-without-file/summary", NULL, "summary", 2, FALSE, { NULL },
    { "summary needs a recording: stackpulse-report summary FILE.spool", "Usage: stackpulse-report" },
    "cannot open" },
  { "command-without-file/callers", NULL, "callers", 2, FALSE, { NULL },
    { "stackpulse-report callers FUNC FILE.spool" }, NULL },
};

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strconcat ("/report/bad-input/", cases[i].name, NULL);

      g_test_add_data_func (path, &cases[i], run_case);
    }
  return g_test_run ();
}
