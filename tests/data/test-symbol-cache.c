/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-symbol-cache.c: the persistent symbol cache (docs/SYMBOL-CACHE.md).
 *
 * Real ELF files (symbolizer-target with DWARF and an inlined call, its
 * build without debug info, this process's libc with its separate debug
 * file when installed) are resolved at many file offsets with an empty
 * cache, then again by a new symbolizer: the same frames, names, lines,
 * inline chains and problems, and no module indexed, no DWARF opened. A
 * damaged cache file is ignored and rewritten; a module file replaced
 * at its path never gets the old names; writers at once leave a readable
 * file holding what each added; the size bound drops the least recently
 * used files; the folder is private and never reached through a link. */
#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "remove-tree.h"
#include "sp-symbol-cache.h"
#include "sp-symbolizer.h"

#define MAX_FRAMES 32

static char *cache_home;

/* ---- Resolving a file at many offsets ---------------------------------- */

/* Every step-th offset of the file's executable PT_LOAD segments. */
static GArray *
code_offsets (const char *path,
              guint step)
{
  GArray *offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  Elf *elf;
  size_t n = 0;

  g_assert_cmpint (fd, >=, 0);
  elf_version (EV_CURRENT);
  elf = elf_begin (fd, ELF_C_READ, NULL);
  g_assert_nonnull (elf);
  g_assert_cmpint (elf_getphdrnum (elf, &n), ==, 0);
  for (size_t i = 0; i < n; i++)
    {
      GElf_Phdr phdr;

      if (gelf_getphdr (elf, (int) i, &phdr) == NULL || phdr.p_type != PT_LOAD || !(phdr.p_flags & PF_X))
        continue;
      for (guint64 at = phdr.p_offset; at < phdr.p_offset + phdr.p_filesz; at += step)
        g_array_append_val (offsets, at);
    }
  elf_end (elf);
  close (fd);
  g_assert_cmpuint (offsets->len, >, 0);
  return offsets;
}

/* What a symbolizer said: per offset, its frames as text; then its
 * problems. */
typedef struct {
  GPtrArray          *lines;
  guint               n_inlined;  /* offsets with an inline chain */
  SpSymbolCacheStats  stats;
} Resolution;

static void
resolution_free (Resolution *r)
{
  g_ptr_array_unref (r->lines);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Resolution, resolution_free)

static SpModule
module_of (const char *path)
{
  struct stat st;

  g_assert_cmpint (stat (path, &st), ==, 0);
  return (SpModule) { 0x400000, 0x500000, 0, (guint64) st.st_ino, path, strlen (path), 1, FALSE };
}

static Resolution *
resolve_with (const char *path,
              GArray *offsets,
              gboolean use_dwarf,
              gboolean use_cache)
{
  Resolution *r = g_new0 (Resolution, 1);
  SpSymbolizer *symbolizer = sp_symbolizer_new ();
  SpModule module = module_of (path);
  const GPtrArray *problems;

  r->lines = g_ptr_array_new_with_free_func (g_free);
  sp_symbolizer_set_cache (symbolizer, use_cache, cache_home);
  sp_symbolizer_set_dwarf (symbolizer, use_dwarf);
  for (guint i = 0; i < offsets->len; i++)
    {
      SpSymbolFrame frames[MAX_FRAMES];
      guint64 offset = g_array_index (offsets, guint64, i);
      /* Odd ones as return addresses, as frame-pointer frames come. */
      guint n = sp_symbolizer_resolve (symbolizer, &module, offset, i % 2, frames, MAX_FRAMES);
      g_autoptr (GString) line = g_string_new (NULL);

      g_string_append_printf (line, "%" G_GINT64_MODIFIER "x:", offset);
      for (guint f = 0; f < n; f++)
        g_string_append_printf (line, " [%s %s:%u %s:%u]", frames[f].function, frames[f].file, frames[f].line,
                                frames[f].decl_file, frames[f].decl_line);
      r->n_inlined += n > 1;
      g_ptr_array_add (r->lines, g_string_free (g_steal_pointer (&line), FALSE));
    }
  problems = sp_symbolizer_get_problems (symbolizer);
  for (guint i = 0; i < problems->len; i++)
    g_ptr_array_add (r->lines, g_strdup_printf ("problem: %s", (const char *) g_ptr_array_index (problems, i)));
  sp_symbolizer_save_cache (symbolizer);
  sp_symbolizer_get_cache_stats (symbolizer, &r->stats);
  sp_symbolizer_free (symbolizer);
  return r;
}

static Resolution *
resolve_all (const char *path,
             GArray *offsets,
             gboolean use_dwarf)
{
  return resolve_with (path, offsets, use_dwarf, TRUE);
}

static void
assert_same (Resolution *a,
             Resolution *b)
{
  g_assert_cmpuint (a->lines->len, ==, b->lines->len);
  for (guint i = 0; i < a->lines->len; i++)
    g_assert_cmpstr (g_ptr_array_index (a->lines, i), ==, g_ptr_array_index (b->lines, i));
}

static void
assert_cold (Resolution *r)
{
  g_assert_cmpuint (r->stats.hits, ==, 0);
  g_assert_cmpuint (r->stats.misses, >, 0);
  g_assert_cmpuint (r->stats.modules_indexed, ==, 1);
  g_assert_cmpuint (r->stats.files_written, ==, 1);
}

/* Answered from the cache alone: nothing indexed, no DWARF opened. */
static void
assert_warm (Resolution *r)
{
  g_assert_cmpuint (r->stats.misses, ==, 0);
  g_assert_cmpuint (r->stats.hits, >, 0);
  g_assert_cmpuint (r->stats.modules_cached, ==, 1);
  g_assert_cmpuint (r->stats.modules_indexed, ==, 0);
  g_assert_cmpuint (r->stats.dwarf_opened, ==, 0);
  g_assert_cmpuint (r->stats.files_written, ==, 0);
}

static void
empty_cache (void)
{
  sp_test_remove_tree (cache_home);
}

static const char *
target (const char *variable)
{
  const char *path = g_getenv (variable);

  if (path == NULL)
    g_test_skip_printf ("%s is not set (run through meson test)", variable);
  return path;
}

/* ---- Cases ---------------------------------------------------------------- */

static void
check_warm_equals_cold (const char *path,
                        guint step,
                        gboolean use_dwarf,
                        gboolean expect_inlined)
{
  g_autoptr (GArray) offsets = code_offsets (path, step);
  g_autoptr (Resolution) cold = NULL;
  g_autoptr (Resolution) warm = NULL;
  g_autoptr (Resolution) off = NULL;
  g_autoptr (Resolution) uncached = NULL;

  empty_cache ();
  cold = resolve_all (path, offsets, use_dwarf);
  assert_cold (cold);
  g_assert_cmpuint (cold->stats.dwarf_opened, <=, use_dwarf ? 1 : 0);
  if (expect_inlined)
    {
      g_assert_cmpuint (cold->stats.dwarf_opened, ==, 1);
      g_assert_cmpuint (cold->n_inlined, >, 0);
    }
  warm = resolve_all (path, offsets, use_dwarf);
  assert_warm (warm);
  g_assert_cmpuint (warm->stats.hits, ==, cold->stats.misses);
  assert_same (cold, warm);

  /* The other mode has a file of its own. */
  off = resolve_all (path, offsets, !use_dwarf);
  g_assert_cmpuint (off->stats.hits, ==, 0);
  if (use_dwarf)
    g_assert_cmpuint (off->n_inlined, ==, 0);

  /* Without the cache, the same as with it. */
  uncached = resolve_with (path, offsets, use_dwarf, FALSE);
  g_assert_cmpuint (uncached->stats.hits + uncached->stats.files_written + uncached->stats.modules_cached, ==, 0);
  assert_same (cold, uncached);
}

static void
test_warm_target (void)
{
  const char *path = target ("SP_SYMBOLIZER_TARGET");

  if (path != NULL)
    check_warm_equals_cold (path, 3, TRUE, TRUE);
}

static void
test_warm_target_no_dwarf (void)
{
  const char *path = target ("SP_SYMBOLIZER_TARGET");

  if (path != NULL)
    check_warm_equals_cold (path, 5, FALSE, FALSE);
}

/* A program with symbols and no DWARF is not cached (whether a debug
 * file turned up would be known only by opening DWARF, which is what the
 * cache spares; such a program is cheap to index): every open indexes it,
 * and resolves as without a cache. */
static void
test_nodebug_not_cached (void)
{
  const char *path = target ("SP_SYMBOLIZER_TARGET_NODEBUG");
  g_autoptr (GArray) offsets = NULL;
  g_autoptr (Resolution) first = NULL;
  g_autoptr (Resolution) second = NULL;
  g_autoptr (Resolution) uncached = NULL;

  if (path == NULL)
    return;
  offsets = code_offsets (path, 7);
  empty_cache ();
  first = resolve_all (path, offsets, TRUE);
  second = resolve_all (path, offsets, TRUE);
  uncached = resolve_with (path, offsets, TRUE, FALSE);
  g_assert_cmpuint (second->stats.hits + second->stats.files_written + second->stats.modules_cached, ==, 0);
  g_assert_cmpuint (second->stats.modules_indexed, ==, 1);
  assert_same (first, second);
  assert_same (first, uncached);
}

/* Stripped: names from .dynsym, and its problem ("no debug info") is
 * raised again on a warm open, which opens no file to find it. */
static void
test_warm_stripped (void)
{
  const char *path = target ("SP_SYMBOLIZER_TARGET_STRIPPED");
  g_autoptr (GArray) offsets = NULL;
  g_autoptr (Resolution) warm = NULL;
  const char *last;

  if (path == NULL)
    return;
  check_warm_equals_cold (path, 7, TRUE, FALSE);
  offsets = code_offsets (path, 7);
  warm = resolve_all (path, offsets, TRUE);
  assert_warm (warm);
  last = g_ptr_array_index (warm->lines, warm->lines->len - 1);
  g_assert_true (g_str_has_prefix (last, "problem: "));
  g_assert_nonnull (strstr (last, "no debug info"));
}

/* libc: stripped, its symbols and DWARF in a separate debug file when
 * libc6-dbg is installed (found by build-id). */
static void
test_warm_libc (void)
{
  Dl_info info;

  g_assert_true (dladdr ((void *) qsort, &info) != 0 && info.dli_fname != NULL);
  check_warm_equals_cold (info.dli_fname, 997, TRUE, FALSE);
}

static char *
cache_file_path (const char *path,
                 gboolean *found)
{
  g_autofree char *dir = g_build_filename (cache_home, "stackpulse", "symbols", NULL);
  g_autoptr (GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  char *file = NULL;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_suffix (name, ".sym"))
      {
        g_assert_null (file);  /* one module, one file */
        file = g_build_filename (dir, name, NULL);
      }
  *found = file != NULL;
  return file;
}

static void
check_damaged (void (*damage) (const char *file))
{
  const char *path = target ("SP_SYMBOLIZER_TARGET");
  g_autoptr (GArray) offsets = NULL;
  g_autoptr (Resolution) cold = NULL;
  g_autoptr (Resolution) again = NULL;
  g_autoptr (Resolution) warm = NULL;
  g_autofree char *file = NULL;
  gboolean found;

  if (path == NULL)
    return;
  offsets = code_offsets (path, 11);
  empty_cache ();
  cold = resolve_all (path, offsets, TRUE);
  file = cache_file_path (path, &found);
  g_assert_true (found);
  damage (file);

  /* Ignored: resolved from the files, and written whole again. */
  again = resolve_all (path, offsets, TRUE);
  assert_cold (again);
  g_assert_cmpuint (again->stats.dwarf_opened, ==, 1);
  assert_same (cold, again);
  warm = resolve_all (path, offsets, TRUE);
  assert_warm (warm);
  assert_same (cold, warm);
}

static void
truncate_file (const char *file)
{
  struct stat st;

  g_assert_cmpint (stat (file, &st), ==, 0);
  g_assert_cmpint (truncate (file, st.st_size / 2), ==, 0);
}

static void
flip_byte (const char *file)
{
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (file, &contents, &length, NULL));
  contents[length - length / 3] ^= 0x20;
  g_assert_true (g_file_set_contents (file, contents, (gssize) length, NULL));
}

static void
flip_header_byte (const char *file)
{
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_true (g_file_get_contents (file, &contents, &length, NULL));
  contents[20] ^= 0x01;  /* a count */
  g_assert_true (g_file_set_contents (file, contents, (gssize) length, NULL));
}

static void
empty_file (const char *file)
{
  g_assert_true (g_file_set_contents (file, "", 0, NULL));
}

static void
test_damaged_truncated (void)
{
  check_damaged (truncate_file);
}

static void
test_damaged_flipped (void)
{
  check_damaged (flip_byte);
  check_damaged (flip_header_byte);
  check_damaged (empty_file);
}

/* Another build at the same path: replaced by rename (a new inode, as a
 * package upgrade does), then written over in place (the same inode). */
static void
test_replaced_module (void)
{
  const char *with_debug = target ("SP_SYMBOLIZER_TARGET");
  const char *without = g_getenv ("SP_SYMBOLIZER_TARGET_STRIPPED");
  g_autofree char *tmp = g_path_get_dirname (cache_home);
  g_autofree char *dir = g_build_filename (tmp, "replaced", NULL);
  g_autofree char *path = g_build_filename (dir, "program", NULL);
  g_autofree char *contents_a = NULL;
  g_autofree char *contents_b = NULL;
  g_autoptr (GArray) offsets = NULL;
  gsize length_a, length_b;

  if (with_debug == NULL || without == NULL)
    return;
  g_assert_true (g_file_get_contents (with_debug, &contents_a, &length_a, NULL));
  g_assert_true (g_file_get_contents (without, &contents_b, &length_b, NULL));
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  empty_cache ();
  for (guint way = 0; way < 2; way++)
    {
      g_autoptr (Resolution) a = NULL;
      g_autoptr (Resolution) b = NULL;
      g_autoptr (Resolution) b_uncached = NULL;
      g_autoptr (GArray) offsets_b = NULL;

      g_assert_true (g_file_set_contents (path, contents_a, (gssize) length_a, NULL));
      offsets = offsets != NULL ? offsets : code_offsets (path, 5);
      a = resolve_all (path, offsets, TRUE);
      g_assert_cmpuint (a->n_inlined, >, 0);
      if (way == 0)
        g_assert_true (g_file_set_contents (path, contents_b, (gssize) length_b, NULL));
      else
        {
          int fd = open (path, O_WRONLY | O_TRUNC | O_CLOEXEC);

          g_assert_cmpint (fd, >=, 0);
          g_assert_cmpint (write (fd, contents_b, length_b), ==, (gssize) length_b);
          close (fd);
        }
      b = resolve_all (path, offsets, TRUE);
      g_assert_cmpuint (b->stats.hits, ==, 0);
      g_assert_cmpuint (b->stats.modules_cached, ==, 0);
      g_assert_cmpuint (b->n_inlined, ==, 0);
      /* What the new file says, as it says it without a cache. */
      sp_test_remove_tree (cache_home);
      b_uncached = resolve_all (path, offsets, TRUE);
      assert_same (b, b_uncached);
    }
  sp_test_remove_tree (dir);
}

/* The same file written over in place with other names, to the same
 * size, its modification time set back (and its build-id kept): the
 * change time tells it from the one cached. */
static void
test_rewritten_in_place (void)
{
  const char *original = target ("SP_SYMBOLIZER_TARGET");
  g_autofree char *tmp = g_path_get_dirname (cache_home);
  g_autofree char *path = g_build_filename (tmp, "rewritten", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GArray) offsets = NULL;
  g_autoptr (Resolution) before = NULL;
  g_autoptr (Resolution) after = NULL;
  g_autoptr (Resolution) uncached = NULL;
  struct timespec times[2];
  struct stat st;
  gsize length;
  guint renamed = 0;
  int fd;

  if (original == NULL)
    return;
  g_assert_true (g_file_get_contents (original, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) length, NULL));
  offsets = code_offsets (path, 3);
  empty_cache ();
  before = resolve_all (path, offsets, TRUE);
  g_assert_cmpuint (before->stats.files_written, ==, 1);

  /* sp_target_* becomes xp_target_* everywhere (symbol table, DWARF). */
  for (char *at = contents; (at = memmem (at, length - (gsize) (at - contents), "sp_target_", 10)) != NULL; at++)
    {
      *at = 'x';
      renamed++;
    }
  g_assert_cmpuint (renamed, >, 0);
  g_assert_cmpint (stat (path, &st), ==, 0);
  g_usleep (20 * 1000);  /* past the file system's clock tick */
  fd = open (path, O_WRONLY | O_CLOEXEC);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (write (fd, contents, length), ==, (gssize) length);
  times[0] = st.st_atim;
  times[1] = st.st_mtim;
  g_assert_cmpint (futimens (fd, times), ==, 0);
  close (fd);

  after = resolve_all (path, offsets, TRUE);
  g_assert_cmpuint (after->stats.hits, ==, 0);
  uncached = resolve_with (path, offsets, TRUE, FALSE);
  assert_same (after, uncached);
  for (guint i = 0; i < after->lines->len; i++)
    g_assert_null (strstr (g_ptr_array_index (after->lines, i), "sp_target_"));
  g_unlink (path);
}

/* ---- The cache files themselves ----------------------------------------- */

static SpSymbolFrame
frame_named (const char *function,
             guint line)
{
  return (SpSymbolFrame) { function, "file.c", line, "file.c", 1 };
}

typedef struct {
  const char *key;
  guint       writer;
} Writer;

/* 20 stores of 10 entries each, offsets of its own. */
static gpointer
write_entries (gpointer data)
{
  Writer *writer = data;
  g_autoptr (SpSymbolCacheDir) dir = sp_symbol_cache_dir_open (cache_home, 0);

  g_assert_nonnull (dir);
  for (guint round = 0; round < 20; round++)
    {
      g_autoptr (SpSymbolCacheFile) file = sp_symbol_cache_file_new (writer->key, TRUE);

      for (guint i = 0; i < 10; i++)
        {
          guint64 offset = (guint64) writer->writer << 32 | (round * 10 + i);
          SpSymbolFrame frame = frame_named ("writer", (guint) offset);

          sp_symbol_cache_file_add (file, offset, &frame, 1);
        }
      g_assert_true (sp_symbol_cache_store (dir, file));
    }
  return NULL;
}

/* Threads of one process hold the folder's lock as processes do (each
 * store opens the lock file anew), and rename makes each file whole. */
static void
test_concurrent_writers (void)
{
  Writer writers[4];
  GThread *threads[4];
  g_autoptr (SpSymbolCacheDir) dir = NULL;
  g_autoptr (SpSymbolCacheFile) file = NULL;

  empty_cache ();
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      writers[i] = (Writer) { "module /concurrent\n", i };
      threads[i] = g_thread_new ("writer", write_entries, &writers[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
  dir = sp_symbol_cache_dir_open (cache_home, 0);
  file = sp_symbol_cache_load (dir, "module /concurrent\n");
  g_assert_nonnull (file);
  g_assert_cmpuint (sp_symbol_cache_file_get_n_entries (file), ==, 4 * 20 * 10);
  for (guint w = 0; w < 4; w++)
    {
      SpSymbolFrame frame;

      g_assert_cmpuint (sp_symbol_cache_file_lookup (file, (guint64) w << 32 | 199, &frame, 1), ==, 1);
      g_assert_cmpstr (frame.function, ==, "writer");
      g_assert_cmpuint (frame.line, ==, 199);
    }
}

static void
store_sized (SpSymbolCacheDir *dir,
             const char *key,
             guint n)
{
  g_autoptr (SpSymbolCacheFile) file = sp_symbol_cache_file_new (key, FALSE);

  for (guint i = 0; i < n; i++)
    {
      SpSymbolFrame frame = frame_named ("f", i);

      sp_symbol_cache_file_add (file, i, &frame, 1);
    }
  g_assert_true (sp_symbol_cache_store (dir, file));
}

static guint64
folder_size (guint *n_files)
{
  g_autofree char *path = g_build_filename (cache_home, "stackpulse", "symbols", NULL);
  g_autoptr (GDir) listing = g_dir_open (path, 0, NULL);
  const char *name;
  guint64 total = 0;

  *n_files = 0;
  while ((name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_suffix (name, ".sym"))
      {
        g_autofree char *file = g_build_filename (path, name, NULL);
        struct stat st;

        g_assert_cmpint (stat (file, &st), ==, 0);
        total += (guint64) st.st_size;
        (*n_files)++;
      }
  return total;
}

/* A 16 kB bound: files of about 3.6 kB each; the oldest go, the one used
 * last (read, not written) stays. */
static void
test_size_bound (void)
{
  g_autoptr (SpSymbolCacheDir) dir = NULL;
  g_autoptr (SpSymbolCacheFile) used = NULL;
  g_autoptr (SpSymbolCacheFile) newest = NULL;
  guint n_files;

  empty_cache ();
  dir = sp_symbol_cache_dir_open (cache_home, 16 * 1024);
  g_assert_nonnull (dir);
  for (guint i = 0; i < 12; i++)
    {
      g_autofree char *key = g_strdup_printf ("module /bound/%u\n", i);

      store_sized (dir, key, 100);
      if (i == 2)
        g_usleep (20 * 1000);
      if (i >= 2)
        {
          /* The first file kept in use. */
          g_autoptr (SpSymbolCacheFile) first = sp_symbol_cache_load (dir, "module /bound/0\n");

          g_assert_nonnull (first);
        }
      g_usleep (2 * 1000);
      g_assert_cmpuint (folder_size (&n_files), <=, 16 * 1024);
    }
  g_assert_cmpuint (n_files, >=, 3);
  g_assert_cmpuint (n_files, <, 12);
  used = sp_symbol_cache_load (dir, "module /bound/0\n");
  g_assert_nonnull (used);
  g_assert_null (sp_symbol_cache_load (dir, "module /bound/1\n"));
  newest = sp_symbol_cache_load (dir, "module /bound/11\n");
  g_assert_nonnull (newest);
}

/* 0700 folder, 0600 files; a symbolic link where the folder should be is
 * not followed: no cache. */
static void
test_private_folder (void)
{
  g_autofree char *symbols = g_build_filename (cache_home, "stackpulse", "symbols", NULL);
  g_autofree char *elsewhere = g_build_filename (cache_home, "elsewhere", NULL);
  g_autofree char *file = NULL;
  g_autoptr (SpSymbolCacheDir) dir = NULL;
  struct stat st;
  gboolean found;

  empty_cache ();
  g_assert_cmpint (g_mkdir_with_parents (cache_home, 0755), ==, 0);
  dir = sp_symbol_cache_dir_open (cache_home, 0);
  g_assert_nonnull (dir);
  g_assert_cmpstr (sp_symbol_cache_dir_get_path (dir), ==, symbols);
  store_sized (dir, "module /private\n", 3);
  g_assert_cmpint (lstat (symbols, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0700);
  file = cache_file_path ("/private", &found);
  g_assert_cmpint (lstat (file, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_clear_pointer (&dir, sp_symbol_cache_dir_free);

  sp_test_remove_tree (symbols);
  g_assert_cmpint (g_mkdir_with_parents (elsewhere, 0700), ==, 0);
  g_assert_cmpint (symlink (elsewhere, symbols), ==, 0);
  g_assert_null (sp_symbol_cache_dir_open (cache_home, 0));

  /* And off where the environment says so. */
  g_assert_cmpint (unlink (symbols), ==, 0);
  g_setenv ("STACKPULSE_SYMBOL_CACHE", "0", TRUE);
  g_assert_null (sp_symbol_cache_dir_open (cache_home, 0));
  g_unsetenv ("STACKPULSE_SYMBOL_CACHE");
}

int
main (int argc,
      char **argv)
{
  g_autofree char *tmp = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp = g_dir_make_tmp ("sp-symbol-cache-XXXXXX", NULL);
  g_assert_nonnull (tmp);
  cache_home = g_build_filename (tmp, "cache", NULL);
  g_test_add_func ("/symbol-cache/warm/target", test_warm_target);
  g_test_add_func ("/symbol-cache/warm/target-no-dwarf", test_warm_target_no_dwarf);
  g_test_add_func ("/symbol-cache/nodebug-not-cached", test_nodebug_not_cached);
  g_test_add_func ("/symbol-cache/warm/stripped", test_warm_stripped);
  g_test_add_func ("/symbol-cache/warm/libc", test_warm_libc);
  g_test_add_func ("/symbol-cache/damaged/truncated", test_damaged_truncated);
  g_test_add_func ("/symbol-cache/damaged/flipped", test_damaged_flipped);
  g_test_add_func ("/symbol-cache/replaced-module", test_replaced_module);
  g_test_add_func ("/symbol-cache/rewritten-in-place", test_rewritten_in_place);
  g_test_add_func ("/symbol-cache/concurrent-writers", test_concurrent_writers);
  g_test_add_func ("/symbol-cache/size-bound", test_size_bound);
  g_test_add_func ("/symbol-cache/private-folder", test_private_folder);
  status = g_test_run ();
  sp_test_remove_tree (tmp);
  g_free (cache_home);
  return status;
}
