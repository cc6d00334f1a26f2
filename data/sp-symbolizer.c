/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-symbolizer.c: the symbolizer object, its caches and its problems.
 *
 * Dispatches each kind of frame to its source of names (sp-elf-module.c,
 * sp-kernel-symbols.c, sp-perf-map.c) and keeps what they found: module
 * files by path and inode, each address's frames, demangled names, and
 * every string handed out, so that callers can hold SpSymbolFrame strings
 * for the symbolizer's whole life. */
#include "sp-symbolizer-private.h"

#include <stdarg.h>
#include <string.h>

#include "sp-demangle.h"

static void
free_ranges (gpointer ranges)
{
  g_array_unref (ranges);
}

SpSymbolizer *
sp_symbolizer_new (void)
{
  SpSymbolizer *self = g_new0 (SpSymbolizer, 1);

  self->strings = g_string_chunk_new (64 * 1024);
  self->display_names = g_hash_table_new (NULL, NULL);
  self->modules = g_hash_table_new_full (_sp_elf_module_key_hash, _sp_elf_module_key_equal,
                                         NULL, (GDestroyNotify) _sp_elf_module_free);
  self->problems = g_ptr_array_new_with_free_func (g_free);
  self->problem_details = sp_symbol_problems_copy (NULL);
  self->problem_set = g_hash_table_new (g_str_hash, g_str_equal);
  self->perf_maps = g_hash_table_new_full (NULL, NULL, NULL, free_ranges);
  self->perf_map_dir = g_strdup ("/tmp");
  /* Another boot's symbols can be given (a saved copy of its kallsyms). */
  self->kallsyms_path = g_strdup (g_getenv ("STACKPULSE_KALLSYMS") != NULL ? g_getenv ("STACKPULSE_KALLSYMS")
                                                                           : "/proc/kallsyms");

  /* Offline modules: the file is given, libdwfl finds its debug file
   * (build-id under /usr/lib/debug/.build-id/, then .gnu_debuglink),
   * unless a FIFO stands where it looks (sp-debug-file.c); then debuginfod
   * servers when DEBUGINFOD_URLS is set, as gdb and perf do, the way
   * sp_symbolizer_set_debuginfod says. */
  self->dwfl_callbacks.find_elf = dwfl_build_id_find_elf;
  self->dwfl_callbacks.find_debuginfo = _sp_debug_file_find;
  self->dwfl_callbacks.section_address = dwfl_offline_section_address;
  self->dwfl_callbacks.debuginfo_path = &self->debuginfo_path;
  _sp_symbolizer_debuginfod_init (self);
  return self;
}

void
sp_symbolizer_free (SpSymbolizer *self)
{
  if (self == NULL)
    return;
  sp_symbolizer_save_cache (self);
  _sp_symbolizer_cache_clear (self);
  /* Modules first: display_names is keyed by pointers into their files. */
  g_clear_pointer (&self->modules, g_hash_table_unref);
  g_clear_pointer (&self->display_names, g_hash_table_unref);
  g_clear_pointer (&self->problem_set, g_hash_table_unref);
  g_clear_pointer (&self->problems, g_ptr_array_unref);
  g_clear_pointer (&self->problem_details, g_array_unref);
  g_clear_pointer (&self->kernel_symbols, g_array_unref);
  g_clear_pointer (&self->perf_maps, g_hash_table_unref);
  g_clear_pointer (&self->recorded_files, sp_recorded_files_free);
  _sp_symbolizer_debuginfod_clear (self);
  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_free (self->perf_map_dir);
  g_free (self->kallsyms_path);
  g_free (self->debuginfo_path);
  g_free (self);
}

void
sp_symbolizer_set_perf_map_dir (SpSymbolizer *self,
                                const char *dir)
{
  g_return_if_fail (self != NULL && dir != NULL);

  g_free (self->perf_map_dir);
  self->perf_map_dir = g_strdup (dir);
  g_hash_table_remove_all (self->perf_maps);
}

void
sp_symbolizer_set_kallsyms_path (SpSymbolizer *self,
                                 const char *path)
{
  g_return_if_fail (self != NULL && path != NULL);

  g_free (self->kallsyms_path);
  self->kallsyms_path = g_strdup (path);
}

/* ---- Shared helpers ---------------------------------------------------- */

const char *
_sp_symbolizer_intern (SpSymbolizer *self,
                       const char *string)
{
  return string != NULL ? g_string_chunk_insert_const (self->strings, string) : NULL;
}

const char *
_sp_symbolizer_display_name (SpSymbolizer *self,
                             const char *raw)
{
  const char *display;

  if (raw == NULL)
    return NULL;
  display = g_hash_table_lookup (self->display_names, raw);
  if (display == NULL)
    {
      /* "clock_gettime@@GLIBC_2.17": the symbol version is not part of
       * the function's name. A PLT entry's "memcmp@plt" is (sp-elf-module.c
       * demangled it already). */
      const char *at = strchr (raw, '@');
      gboolean plt = at != NULL && g_str_equal (at, "@plt");
      g_autofree char *unversioned = at != NULL && at != raw && !plt ? g_strndup (raw, (gsize) (at - raw)) : NULL;
      const char *name = unversioned != NULL ? unversioned : raw;
      g_autofree char *demangled = plt ? NULL : sp_demangle (name);

      display = _sp_symbolizer_intern (self, demangled != NULL ? demangled : name);
      g_hash_table_insert (self->display_names, (gpointer) raw, (gpointer) display);
    }
  return display;
}

void
_sp_symbolizer_add_problem (SpSymbolizer *self,
                            SpSymbolProblemKind kind,
                            const char *file,
                            const char *format,
                            ...)
{
  va_list args;
  char *problem;
  SpSymbolProblem details;

  va_start (args, format);
  problem = g_strdup_vprintf (format, args);
  va_end (args);

  if (g_hash_table_contains (self->problem_set, problem))
    {
      g_free (problem);
      return;
    }
  g_ptr_array_add (self->problems, problem);
  g_hash_table_add (self->problem_set, problem);
  details = (SpSymbolProblem) { kind, g_strdup (file), g_strdup (problem) };
  g_array_append_val (self->problem_details, details);
}

const GPtrArray *
sp_symbolizer_get_problems (SpSymbolizer *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->problems;
}

const GArray *
sp_symbolizer_get_problem_details (SpSymbolizer *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->problem_details;
}

static void
problem_clear (gpointer data)
{
  SpSymbolProblem *problem = data;

  g_clear_pointer (&problem->file, g_free);
  g_clear_pointer (&problem->message, g_free);
}

GArray *
sp_symbol_problems_copy (const GArray *problems)
{
  GArray *copy = g_array_new (FALSE, FALSE, sizeof (SpSymbolProblem));

  g_array_set_clear_func (copy, problem_clear);
  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const SpSymbolProblem *p = &g_array_index (problems, SpSymbolProblem, i);
      SpSymbolProblem own = { p->kind, g_strdup (p->file), g_strdup (p->message) };

      g_array_append_val (copy, own);
    }
  return copy;
}

/* ---- Resolving --------------------------------------------------------- */

static guint
unresolved (SpSymbolFrame *frames)
{
  frames[0] = (SpSymbolFrame) { NULL, NULL, 0, NULL, 0 };
  return 1;
}

/* Copies a chain into the caller's room; a chain that does not fit keeps
 * its innermost entries and, last, the real function. */
static guint
copy_frames (const SpSymbolFrame *chain,
             guint n,
             SpSymbolFrame *frames,
             guint max_frames)
{
  if (n <= max_frames)
    {
      memcpy (frames, chain, n * sizeof *frames);
      return n;
    }
  memcpy (frames, chain, (max_frames - 1) * sizeof *frames);
  frames[max_frames - 1] = chain[n - 1];
  return max_frames;
}

/* Paths that name no file: perf's "//anon", memfd areas, "[heap]"; the
 * vDSO is read from memory (sp-elf-module.c). */
static gboolean
is_file_path (const char *path)
{
  return (path[0] == '/' && path[1] != '/' && !g_str_has_prefix (path, "/memfd:"))
         || g_str_equal (path, "[vdso]");
}

static SpElfModule *
lookup_module (SpSymbolizer *self,
               const SpModule *module)
{
  SpElfModuleKey key = { module->path, module->inode };
  SpElfModule *elf_module = g_hash_table_lookup (self->modules, &key);

  if (elf_module == NULL)
    {
      elf_module = _sp_elf_module_open (self, module->path, module->inode);
      g_hash_table_insert (self->modules, &elf_module->key, elf_module);
    }
  return elf_module;
}

static const SpResolved *
resolve_cached (SpSymbolizer *self,
                SpElfModule *elf_module,
                guint64 file_offset)
{
  SpSymbolFrame chain[SP_SYMBOLIZER_MAX_DEPTH];
  SpResolved *resolved = g_hash_table_lookup (elf_module->results, &file_offset);
  guint n;

  if (resolved != NULL)
    return resolved;

  n = _sp_elf_module_resolve (self, elf_module, file_offset, chain, G_N_ELEMENTS (chain));
  resolved = g_malloc (sizeof *resolved + n * sizeof (SpSymbolFrame));
  resolved->file_offset = file_offset;
  resolved->n_frames = n;
  memcpy (resolved->frames, chain, n * sizeof (SpSymbolFrame));
  g_hash_table_insert (elf_module->results, &resolved->file_offset, resolved);
  return resolved;
}

guint
sp_symbolizer_resolve (SpSymbolizer *self,
                       const SpModule *module,
                       guint64 rel_ip,
                       gboolean is_return_address,
                       SpSymbolFrame *frames,
                       guint max_frames)
{
  SpElfModule *elf_module;
  const SpResolved *resolved;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (frames != NULL && max_frames > 0, 0);

  if (module == NULL || module->is_kernel || module->path == NULL
      || !is_file_path (module->path))
    return unresolved (frames);

  elf_module = lookup_module (self, module);
  if (elf_module->dwfl == NULL)
    return unresolved (frames);

  if (is_return_address && rel_ip > 0)
    rel_ip--;
  resolved = resolve_cached (self, elf_module, rel_ip);
  return copy_frames (resolved->frames, resolved->n_frames, frames, max_frames);
}

gboolean
sp_symbolizer_function_start (SpSymbolizer *self,
                              const SpModule *module,
                              guint64 rel_ip,
                              gboolean is_return_address,
                              guint64 *start)
{
  SpElfModule *elf_module;

  g_return_val_if_fail (self != NULL && start != NULL, FALSE);

  if (module == NULL || module->is_kernel || module->path == NULL || !is_file_path (module->path))
    return FALSE;
  elf_module = lookup_module (self, module);
  if (elf_module->dwfl == NULL)
    return FALSE;
  if (is_return_address && rel_ip > 0)
    rel_ip--;
  return _sp_elf_module_function_start (elf_module, rel_ip, start);
}

gboolean
sp_symbolizer_module_is_cached (SpSymbolizer *self,
                                const SpModule *module)
{
  SpElfModule *elf_module;

  g_return_val_if_fail (self != NULL, FALSE);

  if (module == NULL || module->is_kernel || module->path == NULL || !is_file_path (module->path))
    return TRUE;
  elf_module = lookup_module (self, module);
  return elf_module->dwfl == NULL || elf_module->cached != NULL;
}

static guint
resolve_in_ranges (SpSymbolizer *self,
                   GArray *ranges,
                   guint64 address,
                   SpSymbolFrame *frames)
{
  const SpSymbolRange *range = _sp_symbol_ranges_lookup (ranges, address);

  unresolved (frames);
  if (range != NULL)
    frames[0].function = _sp_symbolizer_display_name (self, range->name);
  return 1;
}

void
sp_symbolizer_load_kernel_symbols (SpSymbolizer *self,
                                   GKeyFile *meta)
{
  GArray *symbols = NULL;

  g_return_if_fail (self != NULL);

  if (meta != NULL)
    symbols = _sp_kernel_symbols_from_key_file (self, meta);
  if (symbols == NULL)
    symbols = _sp_kernel_symbols_from_kallsyms (self, self->kallsyms_path);
  if (symbols == NULL)
    {
      _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_NO_SYMBOLS, "kernel",
                                  "kernel: no symbols (the recording has none and %s shows no addresses)",
                                  self->kallsyms_path);
      symbols = _sp_symbol_ranges_new ();
    }

  g_clear_pointer (&self->kernel_symbols, g_array_unref);
  self->kernel_symbols = symbols;
}

guint
sp_symbolizer_resolve_kernel (SpSymbolizer *self,
                              guint64 abs_ip,
                              SpSymbolFrame *frames,
                              guint max_frames)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (frames != NULL && max_frames > 0, 0);

  if (self->kernel_symbols == NULL)
    sp_symbolizer_load_kernel_symbols (self, NULL);
  return resolve_in_ranges (self, self->kernel_symbols, abs_ip, frames);
}

static GArray *
lookup_perf_map (SpSymbolizer *self,
                 gint32 pid)
{
  GArray *ranges = g_hash_table_lookup (self->perf_maps, GINT_TO_POINTER (pid));
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;
  g_autoptr (GError) error = NULL;

  if (ranges != NULL)
    return ranges;

  name = g_strdup_printf ("perf-%d.map", pid);
  path = g_build_filename (self->perf_map_dir, name, NULL);
  ranges = _sp_perf_map_load (self, path, &error);
  if (ranges == NULL)
    {
      /* No map is the normal case: most processes have no JIT, and frames
       * outside any module are often frame-pointer debris. */
      if (!g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_UNREADABLE, path, "%s", error->message);
      ranges = _sp_symbol_ranges_new ();
    }
  g_hash_table_insert (self->perf_maps, GINT_TO_POINTER (pid), ranges);
  return ranges;
}

guint
sp_symbolizer_resolve_perf_map (SpSymbolizer *self,
                                gint32 pid,
                                guint64 abs_ip,
                                SpSymbolFrame *frames,
                                guint max_frames)
{
  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (frames != NULL && max_frames > 0, 0);

  return resolve_in_ranges (self, lookup_perf_map (self, pid), abs_ip, frames);
}

void
sp_symbolizer_set_dwarf (SpSymbolizer *self,
                         gboolean use_dwarf)
{
  self->no_dwarf = !use_dwarf;
}

/* ---- Source paths (the annotations) ------------------------------------ */

/* Here rather than at the top: only this part reads DWARF attributes. */
#include <dwarf.h>

/* The unit holding a module address: through .debug_aranges, else
 * (clang writes none) each unit's own ranges. */
static Dwarf_Die *
unit_at (Dwfl_Module *mod,
         Dwarf_Addr address,
         Dwarf_Addr *bias)
{
  Dwarf_Die *cudie = dwfl_module_addrdie (mod, address, bias);

  if (cudie != NULL)
    return cudie;
  while ((cudie = dwfl_module_nextcu (mod, cudie, bias)) != NULL)
    if (dwarf_haspc (cudie, address - *bias) > 0)
      return cudie;
  return NULL;
}

const char *
sp_symbolizer_source_path (SpSymbolizer *self,
                           const SpModule *module,
                           guint64 vaddr,
                           const char *file)
{
  g_autofree char *joined = NULL;
  g_autofree char *canonical = NULL;
  SpElfModule *elf_module;
  Dwarf_Attribute attr;
  const char *comp_dir;
  Dwarf_Die *cudie;
  Dwarf_Addr bias;

  if (file == NULL || g_path_is_absolute (file) || module == NULL || module->is_kernel || module->path == NULL
      || !is_file_path (module->path))
    return file;
  elf_module = lookup_module (self, module);
  _sp_elf_module_index (self, elf_module);
  if (elf_module->mod == NULL || !elf_module->has_dwarf
      || (cudie = unit_at (elf_module->mod, vaddr + elf_module->bias, &bias)) == NULL
      || (comp_dir = dwarf_formstring (dwarf_attr (cudie, DW_AT_comp_dir, &attr))) == NULL)
    return file;
  joined = g_build_filename (comp_dir, file, NULL);
  if (g_path_is_absolute (comp_dir))
    canonical = g_canonicalize_filename (joined, NULL);
  else
    {
      /* A relative comp dir (glibc's "./string") is relative to a build
       * folder DWARF does not name, never to this process's working
       * folder: the path stays relative, its "." and ".." resolved. */
      g_autofree char *rooted = g_canonicalize_filename (joined, "/");

      canonical = g_strdup (rooted + strspn (rooted, "/"));
    }
  return _sp_symbolizer_intern (self, canonical);
}

const char *
sp_symbolizer_get_debug_file (SpSymbolizer *self,
                              const SpModule *module)
{
  SpElfModule *elf_module;
  const char *debug_file = NULL;

  g_return_val_if_fail (self != NULL && module != NULL, NULL);

  if (module->is_kernel || module->path == NULL || !is_file_path (module->path))
    return NULL;
  elf_module = lookup_module (self, module);
  _sp_elf_module_index (self, elf_module);
  /* libdwfl looked for it when the file had no symbol table, or for DWARF. */
  if (elf_module->mod == NULL
      || dwfl_module_info (elf_module->mod, NULL, NULL, NULL, NULL, NULL, NULL, &debug_file) == NULL)
    return NULL;
  return _sp_symbolizer_intern (self, debug_file);
}

/* Problems about files in forgotten (a set of paths) go: reading the
 * files again finds them again, if they still hold. */
static void
forget_problems (SpSymbolizer *self,
                 GHashTable *forgotten)
{
  for (guint i = self->problems->len; i-- > 0;)
    {
      const SpSymbolProblem *details = &g_array_index (self->problem_details, SpSymbolProblem, i);

      if (details->file == NULL || !g_hash_table_contains (forgotten, details->file))
        continue;
      g_hash_table_remove (self->problem_set, g_ptr_array_index (self->problems, i));
      g_ptr_array_remove_index (self->problems, i);
      g_array_remove_index (self->problem_details, i);
    }
}

void
sp_symbolizer_forget_modules (SpSymbolizer *self)
{
  g_autoptr (GHashTable) forgotten = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  SpElfModule *module;

  g_return_if_fail (self != NULL);

  sp_symbolizer_save_cache (self);
  g_hash_table_iter_init (&iter, self->modules);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &module))
    g_hash_table_add (forgotten, g_strdup (module->path));
  forget_problems (self, forgotten);
  /* Keyed by pointers into the modules' files. */
  g_hash_table_remove_all (self->display_names);
  g_hash_table_remove_all (self->modules);
  g_hash_table_remove_all (self->fetched);
  g_array_set_size (self->missing, 0);
}
