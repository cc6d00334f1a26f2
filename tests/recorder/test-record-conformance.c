/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-record-conformance.c: full stacks and names whatever built the
 * program.
 *
 * The same workloads built by every toolchain a user may profile: gcc with
 * GNU ld, gold, LLD and mold, clang (alone and with LLD), -static,
 * -no-pie, with and without frame pointers, a C++ program (g++, clang++
 * with LLD), a Rust release build (Debian's rustc, with its default
 * linker and with LLD) and a Go program (Debian's go, offline). Each is
 * built here into a temporary folder, recorded for a second with the
 * recorder's defaults (the LLD and mold builds also with --call-graph
 * dwarf) and read back with `stackpulse-report collapsed`: at least 95%
 * of the samples must reach a thread root, the summary must say so too,
 * and the program's own call path must be there, named (C++'s with the
 * spaces of its parameter lists).
 *
 * A program that calls abs through the PLT in its hot loop, linked by LLD
 * and by mold (whose PLT stubs have no CFI, as GNU ld's have), is recorded
 * in auto and dwarf mode: the samples stopped in the stub (the report
 * names it abs@plt) must reach a thread root like the others.
 *
 * A thread root is the outermost frame a thread's stack can have: _start
 * (the process's entry), clone3 or clone (where glibc starts a thread),
 * and for Go the runtime's own: runtime.goexit under every goroutine,
 * runtime.mstart / runtime.clone for its threads, runtime.rt0_go for the
 * first one.
 *
 * A toolchain that is missing skips its row on a developer's machine; in
 * CI (CI set) it fails the row, since CI installs them all. */
#include <elf.h>
#include <glib.h>
#include <string.h>

#include "perf-data-run.h"
#include "record-run.h"
#include "report-output.h"

#define SECONDS "1"
#define MIN_ROOTED 0.95
/* Of the samples, the share that must go through the program's own path. */
#define MIN_OWN_PATH 0.10

typedef enum {
  LANGUAGE_C,
  LANGUAGE_C_PLT,     /* sp-work-plt.c */
  LANGUAGE_CXX,
  LANGUAGE_RUST,
  LANGUAGE_GO,
} Language;

typedef struct {
  const char *name;           /* the test's path under /recorder/conformance/ */
  Language    language;
  const char *compiler;       /* a program in PATH, or an absolute path */
  const char *linker;         /* a linker the compiler is told to use (its program), or NULL */
  const char *linker_mark;    /* bytes the linked file holds when that linker made it */
  const char *flags[4];       /* extra, NULL-terminated */
  gboolean    static_link;    /* the result must have no program interpreter */
  gboolean    fixed_address;  /* the result must be ET_EXEC */
  const char *call_graph;     /* --call-graph MODE, or NULL for the default */
} Row;

/* Every C row builds tests/workloads/sp-work-threads.c; the base flags
 * keep each function a frame (as the workloads' meson build does) and let
 * the compiler choose about frame pointers (at -O2 both omit them). */
static const Row rows[] = {
  { "gcc-ld", LANGUAGE_C, "gcc", NULL, NULL, { NULL }, FALSE, FALSE },
  { "gcc-gold", LANGUAGE_C, "gcc", "ld.gold", ".note.gnu.gold-version", { "-fuse-ld=gold", NULL }, FALSE, FALSE },
  { "gcc-lld", LANGUAGE_C, "gcc", "ld.lld", "LLD ", { "-fuse-ld=lld", NULL }, FALSE, FALSE },
  { "gcc-mold", LANGUAGE_C, "gcc", "mold", "mold ", { "-fuse-ld=mold", NULL }, FALSE, FALSE },
  { "clang", LANGUAGE_C, "clang", NULL, NULL, { NULL }, FALSE, FALSE },
  { "clang-lld", LANGUAGE_C, "clang", "ld.lld", "LLD ", { "-fuse-ld=lld", NULL }, FALSE, FALSE },
  { "gcc-static", LANGUAGE_C, "gcc", NULL, NULL, { "-static", NULL }, TRUE, FALSE },
  { "gcc-no-pie", LANGUAGE_C, "gcc", NULL, NULL, { "-no-pie", NULL }, FALSE, TRUE },
  { "gcc-omit-frame-pointer", LANGUAGE_C, "gcc", NULL, NULL, { "-fomit-frame-pointer", NULL }, FALSE, FALSE },
  { "gcc-frame-pointers", LANGUAGE_C, "gcc", NULL, NULL, { "-fno-omit-frame-pointer", NULL }, FALSE, FALSE },
  { "gcc-lld-frame-pointers", LANGUAGE_C, "gcc", "ld.lld", "LLD ",
    { "-fuse-ld=lld", "-fno-omit-frame-pointer", NULL }, FALSE, FALSE },
  { "g++", LANGUAGE_CXX, "g++", NULL, NULL, { NULL }, FALSE, FALSE },
  { "clang++-lld", LANGUAGE_CXX, "clang++", "ld.lld", "LLD ", { "-fuse-ld=lld", NULL }, FALSE, FALSE },
  { "rustc", LANGUAGE_RUST, "/usr/bin/rustc", NULL, NULL, { NULL }, FALSE, FALSE },
  { "rustc-lld", LANGUAGE_RUST, "/usr/bin/rustc", "ld.lld", "LLD ", { "-C", "link-arg=-fuse-ld=lld", NULL },
    FALSE, FALSE },
  { "go", LANGUAGE_GO, "go", NULL, NULL, { NULL }, FALSE, FALSE },
  /* The linkers that put code and read-only data in one page, unwound
   * with DWARF alone too. */
  { "gcc-lld-dwarf", LANGUAGE_C, "gcc", "ld.lld", "LLD ", { "-fuse-ld=lld", NULL }, FALSE, FALSE, "dwarf" },
  { "gcc-mold-dwarf", LANGUAGE_C, "gcc", "mold", "mold ", { "-fuse-ld=mold", NULL }, FALSE, FALSE, "dwarf" },
  { "rustc-lld-dwarf", LANGUAGE_RUST, "/usr/bin/rustc", "ld.lld", "LLD ", { "-C", "link-arg=-fuse-ld=lld", NULL },
    FALSE, FALSE, "dwarf" },
  /* A hot PLT stub, where LLD and mold leave no CFI. */
  { "gcc-lld-plt", LANGUAGE_C_PLT, "gcc", "ld.lld", "LLD ", { "-fuse-ld=lld", NULL }, FALSE, FALSE },
  { "gcc-lld-plt-dwarf", LANGUAGE_C_PLT, "gcc", "ld.lld", "LLD ", { "-fuse-ld=lld", NULL }, FALSE, FALSE, "dwarf" },
  { "gcc-mold-plt", LANGUAGE_C_PLT, "gcc", "mold", "mold ", { "-fuse-ld=mold", NULL }, FALSE, FALSE },
  { "gcc-mold-plt-dwarf", LANGUAGE_C_PLT, "gcc", "mold", "mold ", { "-fuse-ld=mold", NULL }, FALSE, FALSE, "dwarf" },
};

/* The program's own call paths (root first, as collapsed writes them),
 * each of which must carry MIN_OWN_PATH of the samples. */
static const char *const *
own_paths (Language language)
{
  static const char *const c[] = {
    "main;run_workers;compute_main;main_leaf",
    "worker_main;compute_alpha;alpha_leaf",
    "worker_main;compute_beta;beta_leaf",
    NULL,
  };
  static const char *const c_plt[] = {
    "main;call_through_plt",
    NULL,
  };
  /* Names as C++ spells them, spaces and all (collapsed keeps them). */
  static const char *const cxx[] = {
    "main;sp_work::run(double);sp_work::count_vowels(std::__cxx11::basic_string<char, std::char_traits<char>, "
    "std::allocator<char> > const&)",
    "sp_work::Accumulator<double>::add_squares(int)",
    NULL,
  };
  static const char *const rust[] = {
    "sp_work_rust::main;sp_work_rust::rust_worker;sp_work_rust::rust_leaf",
    "std::sys::unix::thread::Thread::new::thread_start;",
    NULL,
  };
  static const char *const go[] = {
    "main.goWorker;main.goLeaf",
    NULL,
  };

  switch (language)
    {
    case LANGUAGE_C: return c;
    case LANGUAGE_C_PLT: return c_plt;
    case LANGUAGE_CXX: return cxx;
    case LANGUAGE_RUST: return rust;
    case LANGUAGE_GO: return go;
    }
  g_assert_not_reached ();
}

/* ---- Building ------------------------------------------------------------ */

static gboolean
in_ci (void)
{
  const char *ci = g_getenv ("CI");

  return ci != NULL && *ci != '\0' && !g_str_equal (ci, "false") && !g_str_equal (ci, "0");
}

/* Whether program can be run: absolute and executable, or in PATH. */
static gboolean
have_program (const char *program)
{
  g_autofree char *found = g_find_program_in_path (program);

  return found != NULL;
}

static char *
workload_source (const char *file)
{
  const char *dir = g_getenv ("SP_WORKLOAD_SOURCES");

  g_assert_nonnull (dir);
  return g_build_filename (dir, file, NULL);
}

static void
add_flags (GPtrArray *argv,
           const Row *row)
{
  for (guint i = 0; row->flags[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (row->flags[i]));
}

/* What every C and C++ row is built with: optimised, with its debug
 * information, and every function a frame of its own (no inlining, no
 * sibling calls), then the row's flags and the output. */
static void
add_c_family_flags (GPtrArray *argv,
                    const Row *row,
                    const char *out)
{
  g_ptr_array_add (argv, g_strdup ("-O2"));
  g_ptr_array_add (argv, g_strdup ("-g"));
  g_ptr_array_add (argv, g_strdup ("-fno-inline"));
  g_ptr_array_add (argv, g_strdup ("-fno-optimize-sibling-calls"));
  add_flags (argv, row);
  g_ptr_array_add (argv, g_strdup ("-o"));
  g_ptr_array_add (argv, g_strdup (out));
}

/* The command that builds row's program at out, run in dir (the
 * programs by their paths: the test spawns without a PATH search). */
static GPtrArray *
build_command (const Row *row,
               const char *dir,
               const char *out)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);

  switch (row->language)
    {
    case LANGUAGE_C:
      g_ptr_array_add (argv, g_find_program_in_path (row->compiler));
      g_ptr_array_add (argv, g_strdup ("-D_GNU_SOURCE"));
      add_c_family_flags (argv, row, out);
      g_ptr_array_add (argv, workload_source ("sp-work-threads.c"));
      g_ptr_array_add (argv, workload_source ("sp-workload.c"));
      g_ptr_array_add (argv, g_strdup ("-pthread"));
      break;
    case LANGUAGE_C_PLT:
      /* -fno-builtin: abs is called, not inlined; the PLT as linkers
       * make it by default (no -fno-plt). */
      g_ptr_array_add (argv, g_find_program_in_path (row->compiler));
      g_ptr_array_add (argv, g_strdup ("-O2"));
      g_ptr_array_add (argv, g_strdup ("-g"));
      g_ptr_array_add (argv, g_strdup ("-fno-builtin"));
      add_flags (argv, row);
      g_ptr_array_add (argv, g_strdup ("-o"));
      g_ptr_array_add (argv, g_strdup (out));
      g_ptr_array_add (argv, workload_source ("sp-work-plt.c"));
      break;
    case LANGUAGE_CXX:
      g_ptr_array_add (argv, g_find_program_in_path (row->compiler));
      add_c_family_flags (argv, row, out);
      g_ptr_array_add (argv, workload_source ("sp-work-cxx.cpp"));
      g_ptr_array_add (argv, g_strdup ("-pthread"));
      break;
    case LANGUAGE_RUST:
      /* A release build, as cargo build --release makes it. */
      g_ptr_array_add (argv, g_find_program_in_path (row->compiler));
      g_ptr_array_add (argv, g_strdup ("-O"));
      g_ptr_array_add (argv, g_strdup ("--crate-name"));
      g_ptr_array_add (argv, g_strdup ("sp_work_rust"));
      add_flags (argv, row);
      g_ptr_array_add (argv, g_strdup ("-o"));
      g_ptr_array_add (argv, g_strdup (out));
      g_ptr_array_add (argv, workload_source ("sp-work-rust.rs"));
      break;
    case LANGUAGE_GO:
      /* Offline, with caches of its own: nothing outside dir is written. */
      g_ptr_array_add (argv, g_find_program_in_path ("env"));
      g_ptr_array_add (argv, g_strdup_printf ("GOCACHE=%s/go-cache", dir));
      g_ptr_array_add (argv, g_strdup_printf ("GOPATH=%s/go-path", dir));
      g_ptr_array_add (argv, g_strdup ("GO111MODULE=off"));
      g_ptr_array_add (argv, g_strdup ("GOFLAGS="));
      g_ptr_array_add (argv, g_strdup ("GOPROXY=off"));
      g_ptr_array_add (argv, g_strdup ("GOTOOLCHAIN=local"));
      g_ptr_array_add (argv, g_find_program_in_path (row->compiler));
      g_ptr_array_add (argv, g_strdup ("build"));
      g_ptr_array_add (argv, g_strdup ("-o"));
      g_ptr_array_add (argv, g_strdup (out));
      g_ptr_array_add (argv, workload_source ("sp-work-go.go"));
      break;
    }
  g_ptr_array_add (argv, NULL);
  return argv;
}

/* What the row needs that may be missing, or NULL. */
static const char *
missing_tool (const Row *row)
{
  if (!have_program (row->compiler))
    return row->compiler;
  if (row->linker != NULL && !have_program (row->linker))
    return row->linker;
  return NULL;
}

/* Checks that the linked file is what the row says it is: the linker
 * asked for made it, static or at a fixed address as asked. */
static void
assert_built_as_asked (const Row *row,
                       const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;
  const Elf64_Ehdr *ehdr;
  gboolean has_interp = FALSE;
  gsize size;

  g_file_get_contents (path, &contents, &size, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (size, >=, sizeof (Elf64_Ehdr));
  ehdr = (const Elf64_Ehdr *) contents;
  g_assert_cmpmem (ehdr->e_ident, SELFMAG, ELFMAG, SELFMAG);
  if (row->linker_mark != NULL && memmem (contents, size, row->linker_mark, strlen (row->linker_mark)) == NULL)
    g_error ("%s: %s was not linked by %s (no \"%s\" in it)", row->name, path, row->linker, row->linker_mark);
  for (guint i = 0; i < ehdr->e_phnum; i++)
    {
      gsize at = ehdr->e_phoff + (gsize) i * ehdr->e_phentsize;
      const Elf64_Phdr *phdr = (const Elf64_Phdr *) (contents + at);

      g_assert_cmpuint (at + sizeof *phdr, <=, size);
      has_interp |= phdr->p_type == PT_INTERP;
    }
  if (row->static_link)
    g_assert_false (has_interp);
  if (row->fixed_address)
    g_assert_cmpuint (ehdr->e_type, ==, ET_EXEC);
}

/* Builds row's program in dir; NULL when the row is skipped. */
static char *
build (const Row *row,
       const char *dir)
{
  g_autofree char *out = g_build_filename (dir, "program", NULL);
  g_autoptr (GPtrArray) argv = NULL;
  g_autoptr (SpChildResult) result = NULL;
  const char *missing = missing_tool (row);

  if (missing != NULL)
    {
      g_autofree char *message = g_strdup_printf ("%s is not installed (scripts/install-deps installs it)", missing);

      if (in_ci ())
        g_error ("%s, but CI is set: CI must run every row of the matrix", message);
      g_test_skip (message);
      return NULL;
    }
  argv = build_command (row, dir, out);
  result = sp_test_run (dir, "build", (const char *const *) argv->pdata);
  if (result->exit_code != 0)
    {
      g_autofree char *command = g_strjoinv (" ", (char **) argv->pdata);

      g_error ("%s: the build failed (exit status %d): %s\n%s%s", row->name, result->exit_code, command,
               result->out, result->err);
    }
  assert_built_as_asked (row, out);
  return g_steal_pointer (&out);
}

/* ---- Reading the stacks back ------------------------------------------- */

/* Samples whose outermost frame is a thread root. */
static guint64
count_rooted (GHashTable *stacks)
{
  GHashTableIter iter;
  gpointer key, value;
  guint64 rooted = 0;

  g_hash_table_iter_init (&iter, stacks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      g_autofree char *outermost = g_strndup (key, strcspn (key, ";"));

      if (sp_test_is_thread_root (outermost))
        rooted += *(guint64 *) value;
    }
  return rooted;
}

/* Samples of the stacks whose text holds part. */
static guint64
count_containing (GHashTable *stacks,
                  const char *part)
{
  GHashTableIter iter;
  gpointer key, value;
  guint64 n = 0;

  g_hash_table_iter_init (&iter, stacks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (strstr (key, part) != NULL)
      n += *(guint64 *) value;
  return n;
}

/* The PLT stubs' samples (the report names a stub NAME@plt): at least
 * MIN_PLT_SAMPLES of them, and MIN_ROOTED of those reach a thread root.
 * Without CFI for the stub, an unwinder finds no caller: the stack is the
 * stub alone. LLD's stub is one jump, whose samples the CPU may give to
 * the function it jumps to (sp-work-plt.c): there too few samples in it
 * are said and not held against it (test-unwind-plt.c checks LLD's stubs
 * instruction by instruction); mold's has two instructions before its
 * jump, and must hold them. */
#define MIN_PLT_SAMPLES 20

static void
assert_plt_samples_rooted (const Row *row,
                           GHashTable *stacks)
{
  GHashTableIter iter;
  gpointer key, value;
  guint64 n = 0;
  guint64 rooted = 0;

  g_hash_table_iter_init (&iter, stacks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *leaf = strrchr (key, ';') != NULL ? strrchr (key, ';') + 1 : key;
      g_autofree char *outermost = g_strndup (key, strcspn (key, ";"));

      if (!g_str_has_suffix (leaf, "@plt"))
        continue;
      n += *(guint64 *) value;
      if (sp_test_is_thread_root (outermost))
        rooted += *(guint64 *) value;
      else
        g_test_message ("  %6" G_GUINT64_FORMAT "  %s", *(guint64 *) value, (char *) key);
    }
  g_test_message ("%s: %" G_GUINT64_FORMAT " samples in a PLT stub, %" G_GUINT64_FORMAT " reach a thread root",
                  row->name, n, rooted);
  if (n < MIN_PLT_SAMPLES && g_strcmp0 (row->linker, "ld.lld") == 0)
    {
      g_test_message ("%s: this CPU gives the samples of LLD's one-jump stub to abs: not checked here", row->name);
      return;
    }
  if (n < MIN_PLT_SAMPLES)
    g_error ("%s: %" G_GUINT64_FORMAT " samples in a PLT stub, want %d or more", row->name, n, MIN_PLT_SAMPLES);
  if ((double) rooted < MIN_ROOTED * (double) n)
    g_error ("%s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " samples in a PLT stub reach a thread root, "
             "want %.0f%% or more", row->name, rooted, n, 100 * MIN_ROOTED);
}

/* The heaviest stacks, for whoever reads a failure. */
static void
print_heaviest (GHashTable *stacks)
{
  g_autoptr (GList) keys = g_hash_table_get_keys (stacks);
  guint shown = 0;

  for (GList *l = keys; l != NULL; l = l->next)
    if (*(guint64 *) g_hash_table_lookup (stacks, l->data) >= 5 && shown++ < 20)
      g_test_message ("  %6" G_GUINT64_FORMAT "  %s", *(guint64 *) g_hash_table_lookup (stacks, l->data),
                      (char *) l->data);
}

/* The report's own figure (its "stacks:" line) says as much. */
static void
assert_summary_agrees (const Row *row,
                       SpTestRecording *rec)
{
  g_autofree char *summary = sp_test_report (rec->dir, "summary", rec->spool, NULL);
  g_autoptr (GRegex) line = g_regex_new ("^stacks: ([0-9.]+)% of [0-9]+ reach their thread's root", G_REGEX_MULTILINE,
                                         0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  g_autofree char *figure = NULL;

  if (!g_regex_match (line, summary, 0, &match))
    g_error ("%s: no \"stacks:\" line in the summary:\n%s", row->name, summary);
  figure = g_match_info_fetch (match, 1);
  if (g_ascii_strtod (figure, NULL) < 100 * MIN_ROOTED)
    g_error ("%s: the summary says %s%% of the stacks reach their root:\n%s", row->name, figure, summary);
}

static void
test_row (gconstpointer data)
{
  const Row *row = data;
  g_autofree char *build_dir = sp_test_make_dir ();
  g_autofree char *program = build (row, build_dir);
  g_autoptr (SpTestRecording) rec = NULL;
  g_autoptr (GHashTable) stacks = NULL;
  g_autofree char *collapsed = NULL;
  const char *const *paths;
  guint64 total, rooted;

  if (program == NULL)
    {
      sp_test_remove_dir (build_dir);
      return;
    }
  {
    const char *const command[] = { program, SECONDS, NULL };
    const char *const options[] = { "--call-graph", row->call_graph, NULL };

    rec = sp_test_record (row->call_graph != NULL ? options : NULL, command);
  }
  sp_test_assert_recorded (rec, row->name);
  collapsed = sp_test_report (rec->dir, "collapsed", rec->spool, NULL);
  stacks = sp_test_parse_collapsed (collapsed, &total);
  rooted = count_rooted (stacks);
  g_test_message ("%s: %" G_GUINT64_FORMAT " samples, %.1f%% reach a thread root", row->name, total,
                  total > 0 ? 100.0 * (double) rooted / (double) total : 0.0);
  g_assert_cmpuint (total, >, 100);
  if ((double) rooted < MIN_ROOTED * (double) total)
    {
      print_heaviest (stacks);
      g_error ("%s: %.1f%% of %" G_GUINT64_FORMAT " samples reach a thread root, want %.0f%% or more",
               row->name, 100.0 * (double) rooted / (double) total, total, 100 * MIN_ROOTED);
    }

  assert_summary_agrees (row, rec);
  if (row->language == LANGUAGE_C_PLT)
    assert_plt_samples_rooted (row, stacks);

  paths = own_paths (row->language);
  for (guint i = 0; paths[i] != NULL; i++)
    {
      guint64 n = count_containing (stacks, paths[i]);

      if ((double) n < MIN_OWN_PATH * (double) total)
        {
          print_heaviest (stacks);
          g_error ("%s: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " samples go through \"%s\", want %.0f%% or more",
                   row->name, n, total, paths[i], 100 * MIN_OWN_PATH);
        }
    }
  sp_test_remove_dir (build_dir);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!sp_test_require_perf ())
    return 0;
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      g_autofree char *path = g_strdup_printf ("/recorder/conformance/%s", rows[i].name);

      g_test_add_data_func (path, &rows[i], test_row);
    }
  return g_test_run ();
}
