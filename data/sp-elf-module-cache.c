/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-elf-module-cache.c: a module's addresses through the symbol cache.
 *
 * A module's cache file is found by a key naming everything its frames
 * depend on, read without indexing the module:
 *   - the module file: its path, inode, size, modification and change
 *     times, and its build-id when it has one (strip keeps the build-id
 *     and drops the names; a package upgrade makes a new inode);
 *   - the mode: symbol tables only (--no-inline) or DWARF too;
 *   - the separate debug file libdwfl would read, found the way it would
 *     look for it (the same callback, sp-debug-file.c, when it would look:
 *     the module has no .symtab, or DWARF is wanted and the module has
 *     none), by path, inode, size and times: installing or upgrading a
 *     -dbgsym package makes another key;
 *   - FORMAT_VERSION of sp-symbol-cache.c, for what the code makes of them.
 * A warm module answers from its file, and raises the problems indexing
 * raised when the file was written; the first address not in the file
 * indexes it (symbols, DWARF) after all. What was resolved from the files
 * is written back when the symbolizer is freed or saved. */
#include "sp-symbolizer-private.h"

#include <gelf.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp-build-id.h"
#include "sp-file-private.h"

void
sp_symbolizer_set_cache (SpSymbolizer *self,
                         gboolean use,
                         const char *cache_home)
{
  g_return_if_fail (self != NULL);

  _sp_symbolizer_cache_clear (self);
  self->cache_off = !use;
  self->cache_home = g_strdup (cache_home);
}

void
_sp_symbolizer_cache_clear (SpSymbolizer *self)
{
  g_clear_pointer (&self->cache_dir, sp_symbol_cache_dir_free);
  g_clear_pointer (&self->cache_home, g_free);
  self->cache_dir_tried = FALSE;
}

void
sp_symbolizer_get_cache_stats (SpSymbolizer *self,
                               SpSymbolCacheStats *stats)
{
  g_return_if_fail (self != NULL && stats != NULL);

  *stats = self->cache_stats;
}

/* The folder, opened at the first module. */
static SpSymbolCacheDir *
cache_dir (SpSymbolizer *self)
{
  if (!self->cache_dir_tried && !self->cache_off)
    self->cache_dir = sp_symbol_cache_dir_open (self->cache_home, 0);
  self->cache_dir_tried = TRUE;
  return self->cache_dir;
}

/* What libdwfl will read symbols and DWARF from, besides the module. */
typedef struct {
  gboolean has_symtab;
  gboolean has_dwarf;  /* a section libdw takes for DWARF */
} ElfSections;

static ElfSections
sections_of (Elf *elf)
{
  static const char *const dwarf_sections[] = { ".debug_info", ".debug_line", ".debug_frame",
                                                 ".zdebug_info", ".zdebug_line", ".zdebug_frame" };
  ElfSections found = { FALSE, FALSE };
  Elf_Scn *scn = NULL;
  size_t shstrndx;

  if (elf_getshdrstrndx (elf, &shstrndx) != 0)
    return found;
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr header;
      const char *name;

      if (gelf_getshdr (scn, &header) == NULL || (name = elf_strptr (elf, shstrndx, header.sh_name)) == NULL)
        continue;
      if (header.sh_type == SHT_SYMTAB && header.sh_entsize != 0)
        found.has_symtab = TRUE;
      for (guint i = 0; i < G_N_ELEMENTS (dwarf_sections); i++)
        if (header.sh_type != SHT_NOBITS && g_str_equal (name, dwarf_sections[i]))
          found.has_dwarf = TRUE;
    }
  return found;
}

/* The change time too: a file written over in place, to the same size,
 * with its modification time set back (and no build-id, or one the write
 * kept) is another file all the same. */
static char *
file_identity (const char *path,
               const struct stat *st)
{
  return g_strdup_printf ("%s inode %" G_GUINT64_FORMAT " size %" G_GINT64_FORMAT " mtime %" G_GINT64_FORMAT
                          ".%09ld ctime %" G_GINT64_FORMAT ".%09ld", path, (guint64) st->st_ino, (gint64) st->st_size,
                          (gint64) st->st_mtim.tv_sec, st->st_mtim.tv_nsec, (gint64) st->st_ctim.tv_sec,
                          st->st_ctim.tv_nsec);
}

/* The separate debug file libdwfl finds for a module without a symbol
 * table, on a Dwfl of its own: reading the symbol table makes libdwfl
 * look for it (through sp-debug-file.c, which raises the same problems
 * as for the module itself) and reads no DWARF. "none" when there is
 * none; NULL when the file at the path is no longer the one opened (st). */
static char *
debug_file_identity (SpSymbolizer *self,
                     SpElfModule *module,
                     const struct stat *st)
{
  int fd = _sp_file_open_regular (module->path, NULL);
  Dwfl *dwfl = fd >= 0 ? dwfl_begin (&self->dwfl_callbacks) : NULL;
  Dwfl_Module *mod = NULL;
  const char *debug_file = NULL;
  char *identity = NULL;
  void **userdata = NULL;
  struct stat now;

  if (fd >= 0 && (fstat (fd, &now) != 0 || now.st_ino != st->st_ino || now.st_dev != st->st_dev
                  || now.st_size != st->st_size || now.st_mtim.tv_sec != st->st_mtim.tv_sec
                  || now.st_mtim.tv_nsec != st->st_mtim.tv_nsec))
    g_clear_pointer (&dwfl, dwfl_end);
  if (dwfl == NULL)
    {
      if (fd >= 0)
        close (fd);
      return NULL;
    }
  mod = dwfl_report_offline (dwfl, module->path, module->path, fd);
  dwfl_report_end (dwfl, NULL, NULL);
  if (mod != NULL && dwfl_module_info (mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL) != NULL)
    {
      *userdata = self;
      dwfl_module_getsymtab (mod);
      dwfl_module_info (mod, NULL, NULL, NULL, NULL, NULL, NULL, &debug_file);
      if (debug_file == NULL)
        identity = g_strdup ("none");
      else if (stat (debug_file, &now) == 0)
        identity = file_identity (debug_file, &now);
    }
  dwfl_end (dwfl);
  return identity;
}

/* The key of the module's cache file; NULL when it is not cached (the
 * vDSO: read from this process's memory, small). */
static char *
cache_key (SpSymbolizer *self,
           SpElfModule *module,
           const struct stat *st)
{
  const unsigned char *bits = NULL;
  g_autofree char *build_id = NULL;
  g_autofree char *identity = NULL;
  g_autofree char *debug = NULL;
  ElfSections sections;
  Dwarf_Addr bias;
  GElf_Addr vaddr;
  Elf *elf = dwfl_module_getelf (module->mod, &bias);
  int len;

  if (elf == NULL || g_str_equal (module->path, "[vdso]"))
    return NULL;
  sections = sections_of (elf);
  /* A module with symbols but no DWARF of its own would have libdwfl
   * look for a debug file only when DWARF is opened, and that is what the
   * cache spares: such a module (a program built without -g) is cheap to
   * index and is not cached. */
  if (!sections.has_symtab)
    debug = debug_file_identity (self, module, st);
  else if (!self->no_dwarf && !sections.has_dwarf)
    return NULL;
  else
    debug = g_strdup (self->no_dwarf ? "unused" : "in the module");
  if (debug == NULL)
    return NULL;
  len = dwfl_module_build_id (module->mod, &bits, &vaddr);
  build_id = len > 0 ? sp_build_id_to_hex (bits, (gsize) len) : g_strdup ("none");
  identity = file_identity (module->path, st);
  return g_strdup_printf ("module %s\nbuild-id %s\nmode %s\ndebug file %s\n", identity, build_id,
                          self->no_dwarf ? "symbols" : "dwarf", debug);
}

gboolean
_sp_elf_module_cache_open (SpSymbolizer *self,
                           SpElfModule *module,
                           const struct stat *st)
{
  SpSymbolCacheDir *dir = cache_dir (self);
  guint n;

  if (dir == NULL || (module->cache_key = cache_key (self, module, st)) == NULL
      || (module->cached = sp_symbol_cache_load (dir, module->cache_key)) == NULL)
    return FALSE;
  self->cache_stats.modules_cached++;
  n = sp_symbol_cache_file_get_n_problems (module->cached);
  for (guint i = 0; i < n; i++)
    {
      SpSymbolCacheProblem problem;

      sp_symbol_cache_file_get_problem (module->cached, i, &problem);
      _sp_symbolizer_add_problem (self, problem.kind, problem.file, "%s", problem.message);
    }
  module->has_dwarf = sp_symbol_cache_file_has_dwarf (module->cached);
  return TRUE;
}

guint
_sp_elf_module_cache_lookup (SpSymbolizer *self,
                             SpElfModule *module,
                             guint64 file_offset,
                             SpSymbolFrame *frames,
                             guint max)
{
  guint n;

  if (module->cached == NULL || (n = sp_symbol_cache_file_lookup (module->cached, file_offset, frames, max)) == 0)
    return 0;
  for (guint i = 0; i < n; i++)
    {
      frames[i].function = _sp_symbolizer_intern (self, frames[i].function);
      frames[i].file = _sp_symbolizer_intern (self, frames[i].file);
      frames[i].decl_file = _sp_symbolizer_intern (self, frames[i].decl_file);
    }
  self->cache_stats.hits++;
  return n;
}

static void
add_problems (SpSymbolCacheFile *file,
              SpElfModule *module)
{
  if (module->cached != NULL)
    for (guint i = 0; i < sp_symbol_cache_file_get_n_problems (module->cached); i++)
      {
        SpSymbolCacheProblem problem;

        sp_symbol_cache_file_get_problem (module->cached, i, &problem);
        sp_symbol_cache_file_add_problem (file, &problem);
      }
  else
    for (guint i = 0; module->index_problems != NULL && i < module->index_problems->len; i++)
      {
        const SpSymbolProblem *p = &g_array_index (module->index_problems, SpSymbolProblem, i);
        SpSymbolCacheProblem problem = { p->kind, p->file, p->message };

        sp_symbol_cache_file_add_problem (file, &problem);
      }
}

void
_sp_elf_module_cache_save (SpSymbolizer *self,
                           SpElfModule *module)
{
  g_autoptr (SpSymbolCacheFile) file = NULL;
  GHashTableIter iter;
  SpResolved *resolved;

  if (module->cache_key == NULL || module->n_resolved == 0 || self->cache_dir == NULL)
    return;
  file = sp_symbol_cache_file_new (module->cache_key, module->has_dwarf);
  add_problems (file, module);
  g_hash_table_iter_init (&iter, module->results);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &resolved))
    sp_symbol_cache_file_add (file, resolved->file_offset, resolved->frames, resolved->n_frames);
  if (sp_symbol_cache_store (self->cache_dir, file))
    self->cache_stats.files_written++;
  module->n_resolved = 0;
}

void
sp_symbolizer_save_cache (SpSymbolizer *self)
{
  GHashTableIter iter;
  SpElfModule *module;

  g_return_if_fail (self != NULL);

  g_hash_table_iter_init (&iter, self->modules);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &module))
    _sp_elf_module_cache_save (self, module);
}
