/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-symbolizer.c: the symbolizer against real ELF files.
 *
 * symbolizer-target (built -O2 -g with frame pointers) prints its
 * functions' addresses, return addresses it captured with the source lines
 * of their calls, and its /proc/self/maps; from those the test builds
 * module records and file-offset addresses exactly as the recorder does,
 * and checks names, files, lines, an inlined call as an extra inner frame,
 * return-address adjustment, libc's .dynsym (through this process's own
 * maps), files that vanished or changed, missing symbols and debug info,
 * kernel symbols, perf maps and demangling. A last case times 10,000
 * distinct addresses in a large library. */
#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp-demangle.h"
#include "sp-debug-advice.h"
#include "sp-symbolizer.h"

#define TARGET_SOURCE "symbolizer-target.c"

static char *tmp_dir;

/* ---- Address spaces from /proc/PID/maps -------------------------------- */

typedef struct {
  guint64 start;
  guint64 end;
  guint64 offset;
  guint64 inode;
  char    path[1024];
} MapEntry;

/* Parses "start-end perms offset dev inode path" lines. */
static GArray *
parse_maps (const char *const *lines)
{
  GArray *maps = g_array_new (FALSE, TRUE, sizeof (MapEntry));

  for (guint i = 0; lines[i] != NULL; i++)
    {
      MapEntry entry = { 0 };
      char perms[8];
      char dev[16];
      int path_at = 0;

      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x %7s %" G_GINT64_MODIFIER "x %15s %"
                  G_GINT64_MODIFIER "u %n", &entry.start, &entry.end, perms, &entry.offset, dev, &entry.inode,
                  &path_at) < 6)
        continue;
      g_strlcpy (entry.path, lines[i] + path_at, sizeof entry.path);
      g_strchomp (entry.path);
      g_array_append_val (maps, entry);
    }
  return maps;
}

static GArray *
read_own_maps (void)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/maps", &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  return parse_maps ((const char *const *) lines);
}

/* The module record and file offset of address, as the recorder makes
 * them from an MMAP2 record. */
static SpModule
module_at (GArray *maps,
           guint64 address,
           guint64 *rel_ip)
{
  for (guint i = 0; i < maps->len; i++)
    {
      const MapEntry *e = &g_array_index (maps, MapEntry, i);

      if (address >= e->start && address < e->end)
        {
          SpModule module = { e->start, e->end, e->offset, e->inode, e->path, strlen (e->path), 1, FALSE };

          *rel_ip = address - e->start + e->offset;
          return module;
        }
    }
  g_error ("no mapping holds %" G_GINT64_MODIFIER "x", address);
}

/* ---- A run of symbolizer-target ---------------------------------------- */

typedef struct {
  guint64 address;
  guint   line;
  guint   call_line;
} Capture;

typedef struct {
  GHashTable *functions;  /* name -> guint64 * address */
  Capture     captures[3];
  GArray     *maps;
} TargetRun;

static void
target_run_free (TargetRun *run)
{
  g_hash_table_unref (run->functions);
  g_array_unref (run->maps);
  g_free (run);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TargetRun, target_run_free)

static const char *
target_path (const char *variable)
{
  const char *path = g_getenv (variable);

  if (path == NULL)
    g_error ("%s is not set: run the test through meson test", variable);
  return path;
}

static void
parse_target_line (TargetRun *run,
                   const char *line,
                   GPtrArray *map_lines)
{
  char name[256];
  guint64 address;
  guint slot, line_number, call_line;

  if (g_str_has_prefix (line, "map "))
    g_ptr_array_add (map_lines, g_strdup (line + 4));
  else if (sscanf (line, "fn %255s %" G_GINT64_MODIFIER "x", name, &address) == 2)
    g_hash_table_insert (run->functions, g_strdup (name), g_memdup2 (&address, sizeof address));
  else if (sscanf (line, "ret %u %" G_GINT64_MODIFIER "x %u %u", &slot, &address, &line_number, &call_line) == 4
           && slot < G_N_ELEMENTS (run->captures))
    run->captures[slot] = (Capture) { address, line_number, call_line };
}

static TargetRun *
run_target (const char *variable)
{
  const char *argv[] = { target_path (variable), NULL };
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  g_auto (GStrv) lines = NULL;
  g_autoptr (GPtrArray) map_lines = g_ptr_array_new_with_free_func (g_free);
  TargetRun *run = g_new0 (TargetRun, 1);
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  run->functions = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  lines = g_strsplit (out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    parse_target_line (run, lines[i], map_lines);
  g_ptr_array_add (map_lines, NULL);
  run->maps = parse_maps ((const char *const *) map_lines->pdata);
  return run;
}

static guint64
function_address (TargetRun *run,
                  const char *name)
{
  guint64 *address = g_hash_table_lookup (run->functions, name);

  g_assert_nonnull (address);
  return *address;
}

/* Resolves an absolute address of the run through its maps. */
static guint
resolve_in_run (SpSymbolizer *symbolizer,
                TargetRun *run,
                guint64 address,
                gboolean is_return_address,
                SpSymbolFrame *frames,
                guint max_frames)
{
  guint64 rel_ip;
  SpModule module = module_at (run->maps, address, &rel_ip);

  return sp_symbolizer_resolve (symbolizer, &module, rel_ip, is_return_address, frames, max_frames);
}

static void
assert_frame (const SpSymbolFrame *frame,
              const char *function,
              const char *file_basename,
              guint line)
{
  g_assert_cmpstr (frame->function, ==, function);
  if (file_basename == NULL)
    g_assert_null (frame->file);
  else
    {
      g_autofree char *base = NULL;

      g_assert_nonnull (frame->file);
      base = g_path_get_basename (frame->file);
      g_assert_cmpstr (base, ==, file_basename);
    }
  g_assert_cmpuint (frame->line, ==, line);
}

/* How many problems contain needle. */
static guint
count_problems (SpSymbolizer *symbolizer,
                const char *needle)
{
  const GPtrArray *problems = sp_symbolizer_get_problems (symbolizer);
  guint n = 0;

  for (guint i = 0; i < problems->len; i++)
    n += strstr (g_ptr_array_index (problems, i), needle) != NULL;
  return n;
}

/* The details of problem i: "KIND FILE", with only FILE's base name. */
static char *
problem_details (SpSymbolizer *symbolizer,
                 guint i)
{
  static const char *const kinds[] = { "not-found", "changed", "unreadable", "no-symbols", "no-debug-info" };
  const GArray *details = sp_symbolizer_get_problem_details (symbolizer);
  const SpSymbolProblem *p;
  g_autofree char *base = NULL;

  g_assert_cmpuint (details->len, ==, sp_symbolizer_get_problems (symbolizer)->len);
  g_assert_cmpuint (i, <, details->len);
  p = &g_array_index (details, SpSymbolProblem, i);
  g_assert_cmpstr (p->message, ==, g_ptr_array_index (sp_symbolizer_get_problems (symbolizer), i));
  base = g_path_get_basename (p->file);
  return g_strdup_printf ("%s %s", kinds[p->kind], base);
}

#define assert_problem(symbolizer, i, expected)                \
  G_STMT_START {                                               \
    g_autofree char *got_ = problem_details (symbolizer, i);   \
    g_assert_cmpstr (got_, ==, expected);                      \
  } G_STMT_END

/* ---- User frames ------------------------------------------------------- */

/* The line of file defining function: "name (" at the start of a line
 * that does not end a declaration. */
static guint
definition_line (const char *file,
                 const char *function)
{
  g_autofree char *contents = NULL;
  g_auto (GStrv) lines = NULL;
  gsize length = strlen (function);

  g_assert_true (g_file_get_contents (file, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (strncmp (lines[i], function, length) == 0 && g_str_has_prefix (lines[i] + length, " (")
        && !g_str_has_suffix (lines[i], ";"))
      return i + 1;
  g_assert_not_reached ();
}

/* Where a frame's function is defined: the file and the line of its name. */
static void
assert_definition (const SpSymbolFrame *frame,
                   const char *function)
{
  g_assert_cmpstr (frame->function, ==, function);
  g_assert_nonnull (frame->decl_file);
  g_assert_true (g_str_has_suffix (frame->decl_file, "/" TARGET_SOURCE));
  g_assert_cmpuint (frame->decl_line, ==, definition_line (frame->decl_file, function));
}

/* Function entries (not return addresses) name their function, from a
 * source line of it, and where it is defined. */
static void
test_function_entry (void)
{
  g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET");
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  const char *names[] = { "sp_target_leaf", "sp_target_caller", "sp_target_outer" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      guint64 entry = function_address (run, names[i]);
      SpSymbolFrame frames[8];

      g_assert_cmpuint (resolve_in_run (symbolizer, run, entry, FALSE, frames, 8), ==, 1);
      g_assert_cmpstr (frames[0].function, ==, names[i]);
      g_assert_nonnull (frames[0].file);
      g_assert_true (g_str_has_suffix (frames[0].file, "/" TARGET_SOURCE));
      g_assert_cmpuint (frames[0].line, >, 0);
      assert_definition (&frames[0], names[i]);

      g_assert_cmpuint (resolve_in_run (symbolizer, run, entry + 1, FALSE, frames, 8), ==, 1);
      g_assert_cmpstr (frames[0].function, ==, names[i]);
    }
  g_assert_cmpuint (sp_symbolizer_get_problems (symbolizer)->len, ==, 0);
}

/* A return address gives the line of its call. */
static void
test_call_line (void)
{
  g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET");
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  const Capture *capture = &run->captures[0];
  SpSymbolFrame frames[8];

  g_assert_cmpuint (resolve_in_run (symbolizer, run, capture->address, TRUE, frames, 8), ==, 1);
  assert_frame (&frames[0], "sp_target_caller", TARGET_SOURCE, capture->line);
}

/* A call inside an inlined function: the inlined function is an inner
 * frame at its own line, the real function the outer one at the line it
 * was inlined from. With room for one frame, the real function stays. */
static void
test_inlined (void)
{
  g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET");
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  const Capture *capture = &run->captures[1];
  SpSymbolFrame frames[8];

  g_assert_cmpuint (capture->call_line, >, 0);
  g_assert_cmpuint (resolve_in_run (symbolizer, run, capture->address, TRUE, frames, 8), ==, 2);
  assert_frame (&frames[0], "sp_target_inlined", TARGET_SOURCE, capture->line);
  assert_frame (&frames[1], "sp_target_outer", TARGET_SOURCE, capture->call_line);
  /* The inlined instance is defined where its abstract origin says. */
  assert_definition (&frames[0], "sp_target_inlined");
  assert_definition (&frames[1], "sp_target_outer");

  g_assert_cmpuint (resolve_in_run (symbolizer, run, capture->address, TRUE, frames, 1), ==, 1);
  assert_frame (&frames[0], "sp_target_outer", TARGET_SOURCE, capture->call_line);
}

/* The call to a noreturn function is its caller's last instruction: the
 * return address lies past the caller, and only looking one byte back
 * finds it. */
static void
test_return_address (void)
{
  g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET");
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  const Capture *capture = &run->captures[2];
  SpSymbolFrame frames[8];

  g_assert_cmpuint (resolve_in_run (symbolizer, run, capture->address, TRUE, frames, 8), ==, 1);
  assert_frame (&frames[0], "sp_target_last_call", TARGET_SOURCE, capture->line);

  g_assert_cmpuint (resolve_in_run (symbolizer, run, capture->address, FALSE, frames, 8), >=, 1);
  g_assert_cmpstr (frames[0].function, !=, "sp_target_last_call");
}

/* libc as this process maps it: its .dynsym names qsort. */
static void
test_libc_dynsym (void)
{
  g_autoptr (GArray) maps = read_own_maps ();
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  /* libc's own qsort, even where a sanitizer intercepts the name. */
  void *libc = dlopen ("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  guint64 qsort_address;
  SpSymbolFrame frames[8];
  guint64 rel_ip;
  SpModule module;

  g_assert_nonnull (libc);
  qsort_address = (guint64) (guintptr) dlsym (libc, "qsort");
  dlclose (libc);
  g_assert_cmpuint (qsort_address, !=, 0);
  module = module_at (maps, qsort_address, &rel_ip);
  g_assert_true (strstr (module.path, "libc.so") != NULL);

  g_assert_cmpuint (sp_symbolizer_resolve (symbolizer, &module, rel_ip, FALSE, frames, 8), >=, 1);
  g_assert_cmpstr (frames[0].function, ==, "qsort");
  g_assert_cmpuint (sp_symbolizer_resolve (symbolizer, &module, rel_ip + 3, TRUE, frames, 8), >=, 1);
  g_assert_cmpstr (frames[0].function, ==, "qsort");
}

/* Addresses in no function: the ELF header, and past the file. */
static void
test_unresolved (void)
{
  g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET");
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  guint64 rel_ip;
  SpModule module = module_at (run->maps, function_address (run, "sp_target_leaf"), &rel_ip);
  SpSymbolFrame frames[8] = { { "x", "y", 1 } };

  g_assert_cmpuint (sp_symbolizer_resolve (symbolizer, &module, 0, FALSE, frames, 8), ==, 1);
  g_assert_null (frames[0].function);
  g_assert_cmpuint (sp_symbolizer_resolve (symbolizer, &module, G_GUINT64_CONSTANT (1) << 40, FALSE, frames, 8), ==, 1);
  assert_frame (&frames[0], NULL, NULL, 0);
}

/* The recorded inode is not the file's any more: nothing is guessed from
 * the new file, and the problem is told once. */
static void
test_changed_file (void)
{
  g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET");
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  guint64 entry = function_address (run, "sp_target_leaf");
  SpSymbolFrame frames[8];
  guint64 rel_ip;
  SpModule module = module_at (run->maps, entry, &rel_ip);

  module.inode++;
  for (int i = 0; i < 2; i++)
    {
      g_assert_cmpuint (sp_symbolizer_resolve (symbolizer, &module, rel_ip, FALSE, frames, 8), ==, 1);
      assert_frame (&frames[0], NULL, NULL, 0);
    }
  g_assert_cmpuint (sp_symbolizer_get_problems (symbolizer)->len, ==, 1);
  g_assert_cmpuint (count_problems (symbolizer, "changed since the recording"), ==, 1);
  assert_problem (symbolizer, 0, "changed symbolizer-target");

  /* The same path with the right inode is another module, and fine. */
  module.inode--;
  g_assert_cmpuint (sp_symbolizer_resolve (symbolizer, &module, rel_ip, FALSE, frames, 8), ==, 1);
  g_assert_cmpstr (frames[0].function, ==, "sp_target_leaf");
  g_assert_cmpuint (sp_symbolizer_get_problems (symbolizer)->len, ==, 1);
}

static void
test_missing_file (void)
{
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  g_autofree char *path = g_build_filename (tmp_dir, "gone.so", NULL);
  g_autofree char *expected = g_strdup_printf ("%s: file not found", path);
  SpModule module = { 0x1000, 0x2000, 0, 42, path, strlen (path), 1, FALSE };
  SpSymbolFrame frames[8];

  for (int i = 0; i < 2; i++)
    {
      g_assert_cmpuint (sp_symbolizer_resolve (symbolizer, &module, 0x1234, TRUE, frames, 8), ==, 1);
      assert_frame (&frames[0], NULL, NULL, 0);
    }
  g_assert_cmpuint (sp_symbolizer_get_problems (symbolizer)->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (sp_symbolizer_get_problems (symbolizer), 0), ==, expected);
  assert_problem (symbolizer, 0, "not-found gone.so");
}

/* Paths that are no file (perf's //anon, memfd areas) are unresolved
 * quietly. */
static void
test_not_a_file (void)
{
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  const char *paths[] = { "//anon", "/memfd:jit (deleted)" };
  SpSymbolFrame frames[8];

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      SpModule module = { 0x1000, 0x2000, 0, 0, paths[i], strlen (paths[i]), 1, FALSE };

      g_assert_cmpuint (sp_symbolizer_resolve (symbolizer, &module, 0x1234, FALSE, frames, 8), ==, 1);
      g_assert_null (frames[0].function);
    }
  g_assert_cmpuint (sp_symbolizer_get_problems (symbolizer)->len, ==, 0);
}

/* The vDSO has no file: it is read from this process's memory, and its
 * functions (clock_gettime, which this very call goes through) named. */
static void
test_vdso (void)
{
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  SpModule module = { 0x7f0000000000, 0x7f0000002000, 0, 0, "[vdso]", 6, 1, FALSE };
  SpSymbolFrame frames[8];
  const guint8 *image = (const guint8 *) getauxval (AT_SYSINFO_EHDR);
  Dl_info info = { 0 };
  void *clock_gettime_in_vdso = NULL;
  guint64 offset;

  g_assert_nonnull (image);
  /* Where clock_gettime lives in the vDSO, as the dynamic linker sees it. */
  {
    void *vdso = dlopen ("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);

    if (vdso != NULL)
      clock_gettime_in_vdso = dlsym (vdso, "__vdso_clock_gettime");
  }
  if (clock_gettime_in_vdso == NULL || dladdr (clock_gettime_in_vdso, &info) == 0)
    {
      g_test_skip ("the dynamic linker does not show the vDSO");
      return;
    }
  offset = (guint64) ((const guint8 *) clock_gettime_in_vdso - image);
  g_assert_cmpuint (sp_symbolizer_resolve (symbolizer, &module, offset + 4, FALSE, frames, 8), ==, 1);
  g_assert_cmpstr (frames[0].function, ==, "__vdso_clock_gettime");
  g_assert_cmpuint (sp_symbolizer_get_problems (symbolizer)->len, ==, 0);
}

/* Without DWARF: functions from the symbol table, no file or line, and
 * one problem that says so. */
static void
test_no_debug_info (void)
{
  g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET_NODEBUG");
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  SpSymbolFrame frames[8];

  g_assert_cmpuint (resolve_in_run (symbolizer, run, run->captures[0].address, TRUE, frames, 8), ==, 1);
  assert_frame (&frames[0], "sp_target_caller", NULL, 0);
  g_assert_cmpuint (resolve_in_run (symbolizer, run, run->captures[1].address, TRUE, frames, 8), ==, 1);
  assert_frame (&frames[0], "sp_target_outer", NULL, 0);
  g_assert_cmpuint (count_problems (symbolizer, "symbolizer-target-nodebug: no debug info"), ==, 1);
  g_assert_cmpuint (count_problems (symbolizer, "no symbols"), ==, 0);
  /* A program built here, not a package's: no -dbgsym to install. */
  g_assert_cmpuint (count_problems (symbolizer, "(rebuild it with -g"), ==, 1);
  g_assert_cmpuint (count_problems (symbolizer, "dbgsym"), ==, 0);
  g_assert_true (sp_debug_is_packaged ("/usr/lib/x86_64-linux-gnu/liblzma.so.5.4.1"));
  g_assert_false (sp_debug_is_packaged ("/usr/local/bin/tool"));
  g_assert_false (sp_debug_is_packaged ("/home/me/project/build/app"));
}

/* A stripped program: no names at all, and one problem per fact. */
static void
test_no_symbols (void)
{
  g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET_STRIPPED");
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  SpSymbolFrame frames[8];

  for (guint i = 0; i < G_N_ELEMENTS (run->captures); i++)
    {
      g_assert_cmpuint (resolve_in_run (symbolizer, run, run->captures[i].address, TRUE, frames, 8), ==, 1);
      assert_frame (&frames[0], NULL, NULL, 0);
    }
  g_assert_cmpuint (count_problems (symbolizer, "symbolizer-target-stripped: no symbols"), ==, 1);
  g_assert_cmpuint (count_problems (symbolizer, "symbolizer-target-stripped: no debug info"), ==, 1);
  /* Without names, the unwind tables still say where each function
   * starts: the return addresses in sp_target_caller and sp_target_outer
   * (as test_no_debug_info resolves them) are in functions that start
   * where those functions' pointers point. */
  {
    const char *const functions[] = { "sp_target_caller", "sp_target_outer" };

    for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
      {
        guint64 at, start = 0, expected;
        SpModule module = module_at (run->maps, run->captures[i].address, &at);

        module_at (run->maps, function_address (run, functions[i]), &expected);
        g_assert_true (sp_symbolizer_function_start (symbolizer, &module, at, TRUE, &start));
        g_assert_cmphex (start, ==, expected);
        /* The function's first byte starts it too. */
        g_assert_true (sp_symbolizer_function_start (symbolizer, &module, expected, FALSE, &start));
        g_assert_cmphex (start, ==, expected);
      }
  }
  assert_problem (symbolizer, 0, "no-symbols symbolizer-target-stripped");
  assert_problem (symbolizer, 1, "no-debug-info symbolizer-target-stripped");

  /* A copy for another thread says the same, and owns it. */
  {
    g_autoptr (GArray) copy = sp_symbol_problems_copy (sp_symbolizer_get_problem_details (symbolizer));
    const SpSymbolProblem *p = &g_array_index (copy, SpSymbolProblem, 0);

    g_assert_cmpuint (copy->len, ==, 2);
    g_assert_cmpint (p->kind, ==, SP_SYMBOL_PROBLEM_NO_SYMBOLS);
    g_assert_true (p->message != g_ptr_array_index (sp_symbolizer_get_problems (symbolizer), 0));
    g_assert_cmpstr (p->message, ==, g_ptr_array_index (sp_symbolizer_get_problems (symbolizer), 0));
  }
}

/* ---- Where DEBUGINFOD_URLS is set -------------------------------------- */

static void
run_tool (const char *const *argv)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *err = NULL;
  int status;

  g_spawn_sync (tmp_dir, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("%s failed:\n%s", argv[0], err);
}

/* The target with -g, its debug info split off into split.debug and
 * named by a .gnu_debuglink, the program stripped: SP_SYMBOLIZER_SPLIT. */
static void
make_split_target (void)
{
  g_autofree char *program = g_build_filename (tmp_dir, "split", NULL);

  run_tool ((const char *const[]) { "objcopy", "--only-keep-debug", target_path ("SP_SYMBOLIZER_TARGET"),
                                     "split.debug", NULL });
  run_tool ((const char *const[]) { "strip", "--strip-all", "-o", "split", target_path ("SP_SYMBOLIZER_TARGET"),
                                     NULL });
  run_tool ((const char *const[]) { "objcopy", "--add-gnu-debuglink=split.debug", "split", NULL });
  g_setenv ("SP_SYMBOLIZER_SPLIT", program, TRUE);
}

/* With servers named, the symbolizer does libdwfl's local search itself
 * (libdwfl's would end in a blocking query): a debug file beside the
 * module is still found; a module without one is listed as missing, and
 * no server is asked (no client even made its cache). */
static void
test_debuginfod_set (void)
{
  g_autofree char *cache = g_build_filename (tmp_dir, "debuginfod-cache", NULL);
  SpSymbolFrame frames[8];

  /* Nothing listens on port 9 (discard): a query would fail, not hang. */
  g_setenv ("DEBUGINFOD_URLS", "http://127.0.0.1:9", TRUE);
  g_setenv ("DEBUGINFOD_CACHE_PATH", cache, TRUE);
  make_split_target ();
  {
    g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_SPLIT");
    g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
    const Capture *capture = &run->captures[0];

    g_assert_cmpuint (resolve_in_run (symbolizer, run, capture->address, TRUE, frames, 8), ==, 1);
    assert_frame (&frames[0], "sp_target_caller", TARGET_SOURCE, capture->line);
    g_assert_cmpuint (sp_symbolizer_get_missing_debug_info (symbolizer)->len, ==, 0);
    g_assert_cmpuint (sp_symbolizer_get_problems (symbolizer)->len, ==, 0);
  }
  {
    g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET_STRIPPED");
    g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
    const GArray *missing;
    const SpMissingDebugInfo *m;

    g_assert_cmpuint (resolve_in_run (symbolizer, run, run->captures[0].address, TRUE, frames, 8), ==, 1);
    assert_frame (&frames[0], NULL, NULL, 0);
    missing = sp_symbolizer_get_missing_debug_info (symbolizer);
    g_assert_cmpuint (missing->len, ==, 1);
    m = &g_array_index (missing, SpMissingDebugInfo, 0);
    g_assert_cmpstr (m->module, ==, target_path ("SP_SYMBOLIZER_TARGET_STRIPPED"));
    g_assert_cmpuint (strlen (m->build_id), ==, 40);
    g_assert_cmpuint (count_problems (symbolizer, "symbolizer-target-stripped: no symbols"), ==, 1);

    /* Forgotten, read again: the same, once. */
    sp_symbolizer_forget_modules (symbolizer);
    g_assert_cmpuint (sp_symbolizer_get_missing_debug_info (symbolizer)->len, ==, 0);
    g_assert_cmpuint (count_problems (symbolizer, "symbolizer-target-stripped"), ==, 0);
    resolve_in_run (symbolizer, run, run->captures[0].address, TRUE, frames, 8);
    g_assert_cmpuint (sp_symbolizer_get_missing_debug_info (symbolizer)->len, ==, 1);
    g_assert_cmpuint (count_problems (symbolizer, "symbolizer-target-stripped: no symbols"), ==, 1);
  }
  {
    g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET_STRIPPED");
    g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();

    sp_symbolizer_set_debuginfod (symbolizer, SP_SYMBOLIZER_DEBUGINFOD_OFF, NULL, NULL);
    resolve_in_run (symbolizer, run, run->captures[0].address, TRUE, frames, 8);
    g_assert_cmpuint (sp_symbolizer_get_missing_debug_info (symbolizer)->len, ==, 0);
  }
  g_assert_false (g_file_test (cache, G_FILE_TEST_EXISTS));
  g_unsetenv ("DEBUGINFOD_URLS");
  g_unsetenv ("DEBUGINFOD_CACHE_PATH");
}

/* The second lookup of an address is the cached first: the very same
 * strings, and a module record at another address (another process)
 * shares the opened file. */
static void
test_cached (void)
{
  g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET");
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  const Capture *capture = &run->captures[1];
  SpSymbolFrame first[8];
  SpSymbolFrame second[8];
  guint64 rel_ip;
  SpModule module = module_at (run->maps, capture->address, &rel_ip);

  g_assert_cmpuint (sp_symbolizer_resolve (symbolizer, &module, rel_ip, TRUE, first, 8), ==, 2);
  module.start += 0x100000;
  module.end += 0x100000;
  g_assert_cmpuint (sp_symbolizer_resolve (symbolizer, &module, rel_ip, TRUE, second, 8), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      g_assert_true (first[i].function == second[i].function);
      g_assert_true (first[i].file == second[i].file);
    }
}

static void
test_cxx (void)
{
  g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET_CXX");
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  const char *expected[][2] = {
    { "make", "sp_test::Widget::make(int)" },
    { "compute", "sp_test::compute(int, double)" },
    { "twice", "long sp_test::twice<long>(long)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      SpSymbolFrame frames[8];

      g_assert_cmpuint (resolve_in_run (symbolizer, run, function_address (run, expected[i][0]) + 1, FALSE,
                                        frames, 8), ==, 1);
      g_assert_cmpstr (frames[0].function, ==, expected[i][1]);
      g_assert_true (g_str_has_suffix (frames[0].file, "/symbolizer-target-cxx.cpp"));
    }
}

/* A lambda inlined into its caller: an inner frame that names the lambda
 * and says where it is written. GCC gives the lambda's operator() no
 * DW_AT_decl_file/line (its closure type has them), and in a function
 * that is not a template no linkage name either, only "operator()". */
static void
test_cxx_inlined_lambda (void)
{
  g_autoptr (TargetRun) run = run_target ("SP_SYMBOLIZER_TARGET_CXX");
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  const char *expected[][2] = {
    { "sp_test::apply<int>(int)::{lambda(int)#1}::operator()(int) const", "int sp_test::apply<int>(int)" },
    { "sp_test::plain_apply(int)::{lambda}::operator()", "sp_test::plain_apply(int)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const Capture *capture = &run->captures[i];
      SpSymbolFrame frames[8];

      g_assert_cmpuint (capture->address, !=, 0);
      g_assert_cmpuint (resolve_in_run (symbolizer, run, capture->address, TRUE, frames, 8), ==, 2);
      g_assert_cmpstr (frames[0].function, ==, expected[i][0]);
      g_assert_cmpstr (frames[1].function, ==, expected[i][1]);
      g_assert_nonnull (frames[0].decl_file);
      g_assert_true (g_str_has_suffix (frames[0].decl_file, "/symbolizer-target-cxx.cpp"));
      g_assert_cmpuint (frames[0].decl_line, ==, capture->line);
      g_assert_cmpuint (frames[1].decl_line, ==, capture->line - 2);  /* "apply (T x)" */
    }
}

/* ---- PLT entries ------------------------------------------------------- */

/* The file offset of an ELF address, from the section holding it. */
static guint64
file_offset_of (const char *path,
                guint64 address)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  Elf *elf;
  Elf_Scn *scn = NULL;
  guint64 offset = G_MAXUINT64;

  g_assert_cmpint (fd, >=, 0);
  elf_version (EV_CURRENT);
  elf = elf_begin (fd, ELF_C_READ, NULL);
  g_assert_nonnull (elf);
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr header;

      if (gelf_getshdr (scn, &header) != NULL && header.sh_type == SHT_PROGBITS && (header.sh_flags & SHF_ALLOC)
          && address >= header.sh_addr && address - header.sh_addr < header.sh_size)
        offset = header.sh_offset + (address - header.sh_addr);
    }
  elf_end (elf);
  close (fd);
  g_assert_cmpuint (offset, !=, G_MAXUINT64);
  return offset;
}

/* Every PLT entry objdump names ("<memcmp@plt>:", mold's own symbols
 * "<memcmp$plt>:") must resolve, anywhere in it, to "memcmp@plt"
 * (demangled before the suffix), not to the function before the PLT. */
static void
assert_plt_names (const char *path)
{
  const char *argv[] = { "/usr/bin/objdump", "-d", path, NULL };
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  g_autoptr (GRegex) label = g_regex_new ("^([0-9a-f]+) <(.+)[@$]plt>:$", G_REGEX_MULTILINE, 0, NULL);
  g_autoptr (GMatchInfo) match = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *out = NULL;
  struct stat st;
  SpModule module;
  guint n = 0;
  int status;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpint (stat (path, &st), ==, 0);
  module = (SpModule) { 0x7f0000000000, 0x7f0000000000 + (guint64) st.st_size, 0, st.st_ino, path, strlen (path), 1,
                        FALSE };
  for (g_regex_match (label, out, 0, &match); g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree char *address = g_match_info_fetch (match, 1);
      g_autofree char *name = g_match_info_fetch (match, 2);
      g_autofree char *demangled = sp_demangle (name);
      g_autofree char *expected = g_strconcat (demangled != NULL ? demangled : name, "@plt", NULL);
      guint64 offset = file_offset_of (path, g_ascii_strtoull (address, NULL, 16));

      /* Its first byte and its jump's last: one entry, one name. */
      for (guint at = 0; at < 2; at++)
        {
          SpSymbolFrame frames[4];

          g_assert_cmpuint (sp_symbolizer_resolve (symbolizer, &module, offset + at * 5, FALSE, frames, 4), ==, 1);
          if (g_strcmp0 (frames[0].function, expected) != 0)
            g_error ("%s: the PLT entry at 0x%s is named %s, not %s", path, address, frames[0].function, expected);
        }
      n++;
    }
  g_test_message ("%s: %u PLT entries named", path, n);
  g_assert_cmpuint (n, >=, 3);
}

static void
test_plt (void)
{
  /* GNU ld's always; C++ and the other linkers' where meson built them. */
  static const char *const targets[] = {
    "SP_SYMBOLIZER_TARGET_CXX", "SP_SYMBOLIZER_TARGET_LLD", "SP_SYMBOLIZER_TARGET_GOLD", "SP_SYMBOLIZER_TARGET_MOLD",
  };

  assert_plt_names (target_path ("SP_SYMBOLIZER_TARGET"));
  for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
    if (g_getenv (targets[i]) != NULL)
      assert_plt_names (g_getenv (targets[i]));
}

/* ---- Kernel symbols, perf maps, demangling ----------------------------- */

static void
test_kernel_key_file (void)
{
  static const char meta_text[] =
    "[recording]\nformat=1\n\n"
    "[kernel-symbols]\n"
    "source=/proc/kallsyms\n"
    "ffffffff821fb620=160;schedule;;\n"
    "ffffffffc0a01230=512;nft_do_chain;[nf_tables];\n";
  g_autoptr (GKeyFile) meta = g_key_file_new ();
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  g_autofree char *kallsyms = g_build_filename (tmp_dir, "unused-kallsyms", NULL);
  const struct { guint64 address; const char *function; } cases[] = {
    { G_GUINT64_CONSTANT (0xffffffff821fb620), "schedule" },
    { G_GUINT64_CONSTANT (0xffffffff821fb6bf), "schedule" },
    { G_GUINT64_CONSTANT (0xffffffff821fb6c0), NULL },
    { G_GUINT64_CONSTANT (0xffffffff821fb61f), NULL },
    { G_GUINT64_CONSTANT (0xffffffffc0a01240), "nft_do_chain" },
    { G_GUINT64_CONSTANT (0xffffffffc0a01430), NULL },
  };

  g_assert_true (g_key_file_load_from_data (meta, meta_text, -1, G_KEY_FILE_NONE, NULL));
  sp_symbolizer_set_kallsyms_path (symbolizer, kallsyms);
  sp_symbolizer_load_kernel_symbols (symbolizer, meta);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      SpSymbolFrame frames[4];

      g_assert_cmpuint (sp_symbolizer_resolve_kernel (symbolizer, cases[i].address, frames, 4), ==, 1);
      assert_frame (&frames[0], cases[i].function, NULL, 0);
    }
  g_assert_cmpuint (sp_symbolizer_get_problems (symbolizer)->len, ==, 0);
}

static char *
write_tmp_file (const char *name,
                const char *contents)
{
  char *path = g_build_filename (tmp_dir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

/* No [kernel-symbols] group: /proc/kallsyms (here a file standing for it)
 * when it shows addresses, nothing (and a problem) when it shows zeros. */
static void
test_kernel_kallsyms (void)
{
  g_autofree char *kallsyms = write_tmp_file ("kallsyms",
    "ffffffff81000000 T _stext\n"
    "ffffffff81001000 t do_one_initcall\n"
    "ffffffff81002000 D some_data\n"
    "ffffffff81003000 T schedule\n"
    "ffffffffc0a01230 t nft_do_chain\t[nf_tables]\n"
    "ffffffffc0a02000 t nft_other\t[nf_tables]\n");
  g_autofree char *zeros = write_tmp_file ("kallsyms-zeros",
    "0000000000000000 T _stext\n"
    "0000000000000000 T schedule\n");
  g_autoptr (GKeyFile) meta = g_key_file_new ();
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  g_autoptr (SpSymbolizer) unprivileged = sp_symbolizer_new ();
  SpSymbolFrame frames[4];

  g_key_file_set_string (meta, "recording", "format", "1");
  sp_symbolizer_set_kallsyms_path (symbolizer, kallsyms);
  sp_symbolizer_load_kernel_symbols (symbolizer, meta);
  sp_symbolizer_resolve_kernel (symbolizer, G_GUINT64_CONSTANT (0xffffffff81001010), frames, 4);
  g_assert_cmpstr (frames[0].function, ==, "do_one_initcall");
  /* Data symbols are no function: the text symbol before them extends. */
  sp_symbolizer_resolve_kernel (symbolizer, G_GUINT64_CONSTANT (0xffffffff81002010), frames, 4);
  g_assert_cmpstr (frames[0].function, ==, "do_one_initcall");
  sp_symbolizer_resolve_kernel (symbolizer, G_GUINT64_CONSTANT (0xffffffffc0a01300), frames, 4);
  g_assert_cmpstr (frames[0].function, ==, "nft_do_chain");
  sp_symbolizer_resolve_kernel (symbolizer, G_GUINT64_CONSTANT (0xffffffff80000000), frames, 4);
  g_assert_null (frames[0].function);
  g_assert_cmpuint (sp_symbolizer_get_problems (symbolizer)->len, ==, 0);

  /* Not loaded explicitly: the first kernel frame loads the fallback. */
  sp_symbolizer_set_kallsyms_path (unprivileged, zeros);
  g_assert_cmpuint (sp_symbolizer_resolve_kernel (unprivileged, G_GUINT64_CONSTANT (0xffffffff81003000),
                                                  frames, 4), ==, 1);
  g_assert_null (frames[0].function);
  g_assert_cmpuint (count_problems (unprivileged, "kernel: no symbols"), ==, 1);
  assert_problem (unprivileged, 0, "no-symbols kernel");
}

static void
test_perf_map (void)
{
  g_autofree char *map = write_tmp_file ("perf-4242.map",
    "7f0000001000 40 LazyCompile:*foo app.js:12\n"
    "0x7f0000002000 0x20 _ZN7sp_test7computeEid\n"
    "7f0000003000 100 old_code\n"
    "not a line\n"
    "7f0000003000 80 new_code\n");
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  const struct { guint64 address; const char *function; } cases[] = {
    { 0x7f0000001000, "LazyCompile:*foo app.js:12" },
    { 0x7f000000103f, "LazyCompile:*foo app.js:12" },
    { 0x7f0000001040, NULL },
    { 0x7f0000002010, "sp_test::compute(int, double)" },
    { 0x7f0000003010, "new_code" },
    { 0x7f0000003090, NULL },
  };
  SpSymbolFrame frames[4];

  sp_symbolizer_set_perf_map_dir (symbolizer, tmp_dir);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_cmpuint (sp_symbolizer_resolve_perf_map (symbolizer, 4242, cases[i].address, frames, 4), ==, 1);
      assert_frame (&frames[0], cases[i].function, NULL, 0);
    }
  g_assert_cmpuint (sp_symbolizer_get_problems (symbolizer)->len, ==, 0);

  /* A process without a map (most have none): unnamed frames, and no
   * problem to report. */
  for (int i = 0; i < 2; i++)
    {
      sp_symbolizer_resolve_perf_map (symbolizer, 4343, 0x7f0000001000, frames, 4);
      g_assert_null (frames[0].function);
    }
  g_assert_cmpuint (sp_symbolizer_get_problems (symbolizer)->len, ==, 0);
}

static void
test_demangle (void)
{
  const char *cases[][2] = {
    { "_ZN3foo3barEi", "foo::bar(int)" },
    { "_ZNK7sp_test6Widget4sizeEv", "sp_test::Widget::size() const" },
    { "_ZN7sp_test7computeEid.cold", "sp_test::compute(int, double) [clone .cold]" },
    { "_ZN4core3ptr13drop_in_place17h0123456789abcdefE", "core::ptr::drop_in_place" },
    { "_RNvCs1234_7mycrate3foo", "mycrate::foo" },
    { "main", NULL },
    { "_Zgarbage", NULL },
    { "", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *demangled = sp_demangle (cases[i][0]);

      g_assert_cmpstr (demangled, ==, cases[i][1]);
    }
}

/* ---- Speed ------------------------------------------------------------- */

/* The executable segment of path, read independently with libelf. */
static void
executable_segment (const char *path,
                    guint64 *offset,
                    guint64 *size)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  Elf *elf;
  size_t n = 0;

  g_assert_cmpint (fd, >=, 0);
  elf_version (EV_CURRENT);
  elf = elf_begin (fd, ELF_C_READ, NULL);
  g_assert_nonnull (elf);
  g_assert_cmpint (elf_getphdrnum (elf, &n), ==, 0);
  *offset = 0;
  *size = 0;
  for (size_t i = 0; i < n; i++)
    {
      GElf_Phdr phdr;

      if (gelf_getphdr (elf, (int) i, &phdr) != NULL && phdr.p_type == PT_LOAD && (phdr.p_flags & PF_X))
        {
          *offset = phdr.p_offset;
          *size = phdr.p_filesz;
          break;
        }
    }
  elf_end (elf);
  close (fd);
  g_assert_cmpuint (*size, >, 10000);
}

/* n distinct addresses spread over path's code, from a fresh symbolizer
 * (opening and indexing included), then again (cached). The figures are
 * printed, not asserted: the machines are noisy. */
static void
time_addresses (const char *path,
                guint n_addresses)
{
  g_autoptr (SpSymbolizer) symbolizer = sp_symbolizer_new ();
  guint64 offset, size;
  guint named = 0, with_lines = 0;
  gint64 start, first_pass, second_pass;
  struct stat st;
  SpModule module;

  g_assert_cmpint (stat (path, &st), ==, 0);
  executable_segment (path, &offset, &size);
  g_assert_cmpuint (size, >=, n_addresses);
  module = (SpModule) { 0x7f0000000000, 0x7f0000000000 + size, offset, st.st_ino, path, strlen (path), 1, FALSE };

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n_addresses; i++)
    {
      SpSymbolFrame frames[8];

      sp_symbolizer_resolve (symbolizer, &module, offset + i * (size / n_addresses), TRUE, frames, 8);
      named += frames[0].function != NULL;
      with_lines += frames[0].line != 0;
    }
  first_pass = g_get_monotonic_time () - start;

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n_addresses; i++)
    {
      SpSymbolFrame frames[8];

      sp_symbolizer_resolve (symbolizer, &module, offset + i * (size / n_addresses), TRUE, frames, 8);
    }
  second_pass = g_get_monotonic_time () - start;

  g_test_message ("%u distinct addresses in %s: %.1f ms (%u named, %u with lines), cached again: %.1f ms",
                  n_addresses, path, first_pass / 1000.0, named, with_lines, second_pass / 1000.0);
  g_assert_cmpuint (named, >, 0);
}

/* A large library through its .dynsym (Debian ships no DWARF in it), and
 * this program, whose own code has DWARF with inlined calls. */
static void
test_timing (void)
{
  const char *libraries[] = { "/usr/lib/x86_64-linux-gnu/libgtk-4.so.1", "/usr/lib/x86_64-linux-gnu/libc.so.6" };
  g_autofree char *self_path = g_file_read_link ("/proc/self/exe", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (libraries); i++)
    if (g_file_test (libraries[i], G_FILE_TEST_EXISTS))
      {
        time_addresses (libraries[i], 10000);
        break;
      }
  g_assert_nonnull (self_path);
  time_addresses (self_path, 10000);
}

static void
remove_tmp_dir (void)
{
  g_autoptr (GDir) dir = g_dir_open (tmp_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (tmp_dir, name, NULL);

      g_unlink (path);
    }
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
}

int
main (int argc,
      char *argv[])
{
  g_autoptr (GError) error = NULL;
  int status;

  /* Debug files come from the disk only: no debuginfod server downloads. */
  g_unsetenv ("DEBUGINFOD_URLS");
  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("sp-test-symbolizer-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/data/symbolizer/function-entry", test_function_entry);
  g_test_add_func ("/data/symbolizer/call-line", test_call_line);
  g_test_add_func ("/data/symbolizer/inlined", test_inlined);
  g_test_add_func ("/data/symbolizer/return-address", test_return_address);
  g_test_add_func ("/data/symbolizer/libc-dynsym", test_libc_dynsym);
  g_test_add_func ("/data/symbolizer/unresolved", test_unresolved);
  g_test_add_func ("/data/symbolizer/changed-file", test_changed_file);
  g_test_add_func ("/data/symbolizer/missing-file", test_missing_file);
  g_test_add_func ("/data/symbolizer/not-a-file", test_not_a_file);
  g_test_add_func ("/data/symbolizer/vdso", test_vdso);
  g_test_add_func ("/data/symbolizer/no-debug-info", test_no_debug_info);
  g_test_add_func ("/data/symbolizer/no-symbols", test_no_symbols);
  g_test_add_func ("/data/symbolizer/cached", test_cached);
  g_test_add_func ("/data/symbolizer/debuginfod-set", test_debuginfod_set);
  if (g_getenv ("SP_SYMBOLIZER_TARGET_CXX") != NULL)
    g_test_add_func ("/data/symbolizer/cxx", test_cxx);
  if (g_getenv ("SP_SYMBOLIZER_TARGET_CXX") != NULL)
    g_test_add_func ("/data/symbolizer/cxx-inlined-lambda", test_cxx_inlined_lambda);
  g_test_add_func ("/data/symbolizer/plt", test_plt);
  g_test_add_func ("/data/symbolizer/kernel-key-file", test_kernel_key_file);
  g_test_add_func ("/data/symbolizer/kernel-kallsyms", test_kernel_kallsyms);
  g_test_add_func ("/data/symbolizer/perf-map", test_perf_map);
  g_test_add_func ("/data/symbolizer/demangle", test_demangle);
  g_test_add_func ("/data/symbolizer/timing", test_timing);

  status = g_test_run ();
  remove_tmp_dir ();
  return status;
}
