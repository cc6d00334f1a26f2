/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-elf-module.c: one module file, opened and indexed once.
 *
 * A module is known by its path and the inode it had when it was
 * recorded. Opening checks that the file still is that file, reports it
 * to an offline Dwfl (which finds its separate debug file), reads its
 * PT_LOAD segments (frames come in file-offset coordinates, symbols and
 * DWARF are in virtual addresses) and sorts its function symbols
 * (.symtab, else .dynsym, as libdwfl picks) for binary search. */
#include "sp-symbolizer-private.h"

#include <errno.h>
#include <gelf.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp-file-private.h"

/* A PT_LOAD segment: file bytes [offset, offset + size) are loaded at
 * vaddr. */
typedef struct {
  guint64 offset;
  guint64 size;
  guint64 vaddr;
} SpLoadSegment;

guint
_sp_elf_module_key_hash (gconstpointer key)
{
  const SpElfModuleKey *k = key;

  return g_str_hash (k->path) ^ g_int64_hash (&k->inode);
}

gboolean
_sp_elf_module_key_equal (gconstpointer a,
                          gconstpointer b)
{
  const SpElfModuleKey *ka = a;
  const SpElfModuleKey *kb = b;

  return ka->inode == kb->inode && strcmp (ka->path, kb->path) == 0;
}

void
_sp_elf_module_free (SpElfModule *module)
{
  if (module == NULL)
    return;
  g_clear_pointer (&module->results, g_hash_table_unref);
  g_clear_pointer (&module->units, g_hash_table_unref);
  g_clear_pointer (&module->symbols, g_array_unref);
  g_clear_pointer (&module->segments, g_array_unref);
  g_clear_pointer (&module->dwfl, dwfl_end);
  g_free (module->path);
  g_free (module);
}

/* Whether path is still the file that was recorded; reports why not. */
static gboolean
check_file (SpSymbolizer *self,
            const char *path,
            guint64 inode)
{
  struct stat st;

  if (stat (path, &st) != 0)
    {
      if (errno == ENOENT || errno == ENOTDIR)
        _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_NOT_FOUND, path, "%s: file not found", path);
      else
        _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_UNREADABLE, path, "%s: %s", path, g_strerror (errno));
      return FALSE;
    }
  if (inode != 0 && (guint64) st.st_ino != inode)
    {
      _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_CHANGED, path,
                                  "%s changed since the recording (inode %" G_GUINT64_FORMAT
                                  " != %" G_GUINT64_FORMAT ")", path, inode, (guint64) st.st_ino);
      return FALSE;
    }
  return TRUE;
}

static GArray *
read_segments (Elf *elf)
{
  GArray *segments = g_array_new (FALSE, FALSE, sizeof (SpLoadSegment));
  guint n_exec = 0;
  size_t n = 0;

  if (elf_getphdrnum (elf, &n) != 0)
    return segments;
  for (size_t i = 0; i < n; i++)
    {
      GElf_Phdr mem;
      GElf_Phdr *phdr = gelf_getphdr (elf, (int) i, &mem);
      SpLoadSegment segment;

      if (phdr == NULL || phdr->p_type != PT_LOAD || phdr->p_filesz == 0)
        continue;
      segment.offset = phdr->p_offset;
      segment.size = phdr->p_filesz;
      segment.vaddr = phdr->p_vaddr;
      /* Frames are code: where segments share a page, the executable one
       * is asked first. */
      if (phdr->p_flags & PF_X)
        g_array_insert_val (segments, n_exec++, segment);
      else
        g_array_append_val (segments, segment);
    }
  return segments;
}

/* Among names for one address: a sized symbol, then global before weak
 * before local, then fewer leading underscores, then the shorter name
 * ("qsort" over "__qsort", "getpid" over "__getpid" only when bindings
 * tie), as perf chooses. */
static guint
symbol_rank (const GElf_Sym *sym,
             const char *name)
{
  guint binding = GELF_ST_BIND (sym->st_info);
  guint binding_rank = binding == STB_GLOBAL ? 0 : binding == STB_WEAK ? 1 : 2;
  guint underscores = (guint) strspn (name, "_");

  return (sym->st_size == 0) << 24 | binding_rank << 20
         | MIN (underscores, 15u) << 16 | (guint) MIN (strlen (name), 0xffffu);
}

static GArray *
read_symbols (Dwfl_Module *mod)
{
  GArray *symbols = _sp_symbol_ranges_new ();
  int n = dwfl_module_getsymtab (mod);

  for (int i = 1; i < n; i++)
    {
      GElf_Sym sym;
      GElf_Addr address;
      GElf_Word shndx;
      const char *name = dwfl_module_getsym_info (mod, i, &sym, &address, &shndx, NULL, NULL);
      int type = GELF_ST_TYPE (sym.st_info);
      SpSymbolRange range;

      if (name == NULL || name[0] == '\0' || shndx == SHN_UNDEF
          || (type != STT_FUNC && type != STT_GNU_IFUNC))
        continue;
      range.start = address;
      range.size = sym.st_size;
      range.name = name;
      range.rank = symbol_rank (&sym, name);
      g_array_append_val (symbols, range);
    }
  _sp_symbol_ranges_finish (symbols, TRUE);
  return symbols;
}

/* The vDSO has no file: this process's own is the one every 64-bit
 * process of this kernel maps (a recording from another kernel may name
 * a vDSO function slightly wrong). Handed to libdw as a memfd, which it
 * then owns; -1 when there is none. */
static int
vdso_as_file (void)
{
  const guint8 *image = (const guint8 *) getauxval (AT_SYSINFO_EHDR);
  const Elf64_Ehdr *ehdr = (const Elf64_Ehdr *) image;
  gsize size;
  int fd;

  if (image == NULL || memcmp (ehdr->e_ident, ELFMAG, SELFMAG) != 0 || ehdr->e_ident[EI_CLASS] != ELFCLASS64)
    return -1;
  size = ehdr->e_shoff + (gsize) ehdr->e_shnum * ehdr->e_shentsize;
  fd = memfd_create ("vdso", MFD_CLOEXEC);
  if (fd >= 0 && write (fd, image, size) != (gssize) size)
    {
      close (fd);
      fd = -1;
    }
  return fd;
}

/* The module's file, opened here rather than by libdwfl: a FIFO would
 * block its open() forever. */
static int
open_module_file (SpSymbolizer *self,
                  const char *path)
{
  g_autoptr (GError) error = NULL;
  int fd = _sp_file_open_regular (path, &error);
  struct stat st;

  if (fd < 0)
    _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_UNREADABLE, path, "%s", error->message);
  /* Empty is no ELF; and files in /proc say size 0, and some block a
   * read (/proc/kmsg). */
  else if (fstat (fd, &st) != 0 || st.st_size == 0)
    {
      _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_UNREADABLE, path, "%s is empty", path);
      close (fd);
      fd = -1;
    }
  return fd;
}

/* Reports the file to a Dwfl of its own and indexes it. */
static gboolean
load_file (SpSymbolizer *self,
           SpElfModule *module)
{
  gboolean vdso = g_str_equal (module->path, "[vdso]");
  int fd = vdso ? vdso_as_file () : open_module_file (self, module->path);
  Dwarf_Addr dwarf_bias;
  Dwarf *dwarf;
  void **userdata;
  Elf *elf;

  if (fd < 0)
    return FALSE;
  module->dwfl = dwfl_begin (&self->dwfl_callbacks);
  if (module->dwfl == NULL)
    {
      close (fd);
      return FALSE;
    }
  module->mod = dwfl_report_offline (module->dwfl, module->path, module->path, fd);
  dwfl_report_end (module->dwfl, NULL, NULL);
  /* For _sp_debug_file_find, which reports what it skips. */
  if (module->mod != NULL && dwfl_module_info (module->mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL) != NULL)
    *userdata = self;
  elf = module->mod != NULL ? dwfl_module_getelf (module->mod, &module->bias) : NULL;
  if (elf == NULL)
    {
      _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_UNREADABLE, module->path,
                                  "%s: cannot read it as ELF (%s)", module->path, dwfl_errmsg (-1));
      return FALSE;
    }

  module->segments = read_segments (elf);
  module->symbols = read_symbols (module->mod);
  /* Opening DWARF decompresses every compressed debug section at once:
   * skipped when nobody wants lines or inline frames. */
  dwarf = self->no_dwarf ? NULL : dwfl_module_getdwarf (module->mod, &dwarf_bias);
  module->has_dwarf = dwarf != NULL && _sp_debug_file_alt_is_safe (self, module->mod, dwarf);
  if (module->symbols->len == 0)
    _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_NO_SYMBOLS, module->path, "%s: no symbols", module->path);
  if (!module->has_dwarf && !self->no_dwarf && !vdso)
    _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_NO_DEBUG_INFO, module->path,
                                "%s: no debug info (install its -dbgsym package for source lines)",
                                module->path);
  return TRUE;
}

SpElfModule *
_sp_elf_module_open (SpSymbolizer *self,
                     const char *path,
                     guint64 inode)
{
  SpElfModule *module = g_new0 (SpElfModule, 1);

  module->path = g_strdup (path);
  module->key.path = module->path;
  module->key.inode = inode;
  module->results = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  module->units = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
                                         (GDestroyNotify) _sp_dwarf_scopes_free);

  if ((!g_str_equal (path, "[vdso]") && !check_file (self, path, inode)) || !load_file (self, module))
    {
      g_clear_pointer (&module->dwfl, dwfl_end);
      module->mod = NULL;
    }
  return module;
}

static gboolean
offset_to_address (SpElfModule *module,
                   guint64 file_offset,
                   Dwarf_Addr *address)
{
  for (guint i = 0; i < module->segments->len; i++)
    {
      const SpLoadSegment *segment = &g_array_index (module->segments, SpLoadSegment, i);

      if (file_offset >= segment->offset && file_offset - segment->offset < segment->size)
        {
          *address = file_offset - segment->offset + segment->vaddr + module->bias;
          return TRUE;
        }
    }
  return FALSE;
}

guint
_sp_elf_module_resolve (SpSymbolizer *self,
                        SpElfModule *module,
                        guint64 file_offset,
                        SpSymbolFrame *frames,
                        guint max)
{
  const SpSymbolRange *symbol;
  Dwarf_Addr address;
  guint n = 0;

  memset (frames, 0, sizeof *frames);
  if (!offset_to_address (module, file_offset, &address))
    return 1;

  symbol = _sp_symbol_ranges_lookup (module->symbols, address);
  if (module->has_dwarf)
    n = _sp_dwarf_frames (self, module->mod, module->units, address, frames, max);
  if (n == 0)
    n = 1;
  /* The symbol table names the real function exactly as linked (clones
   * such as "foo.cold" included); DWARF names the inlined ones. */
  if (symbol != NULL)
    frames[n - 1].function = _sp_symbolizer_display_name (self, symbol->name);
  /* No function at all (alignment padding between functions, which the
   * line table may still cover): unresolved, not half-resolved. */
  if (n == 1 && frames[0].function == NULL)
    memset (frames, 0, sizeof *frames);
  return n;
}
