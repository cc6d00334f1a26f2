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

#include "sp-debug-advice.h"
#include "sp-demangle.h"
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
  g_clear_pointer (&module->function_ranges, _sp_eh_frame_ranges_free);
  g_clear_pointer (&module->dwfl, dwfl_end);
  g_clear_pointer (&module->cached, sp_symbol_cache_file_free);
  g_clear_pointer (&module->index_problems, g_array_unref);
  g_free (module->cache_key);
  g_free (module->path);
  g_free (module);
}

/* Whether path is still the file that was recorded; reports why not. */
static gboolean
check_file (SpSymbolizer *self,
            const char *path,
            guint64 inode)
{
  g_autofree char *change = NULL;
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
  /* The same inode may hold another build (rebuilt in place). */
  if ((change = _sp_symbolizer_recorded_file_change (self, path, inode, &st)) != NULL)
    {
      _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_CHANGED, path, "%s changed since the recording (%s)", path,
                                  change);
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

/* ---- PLT entries ----------------------------------------------------- */

/* A section's bytes and where it is loaded. */
typedef struct {
  const guint8 *data;
  gsize         size;
  GElf_Addr     address;
  gsize         entry_size;
} PltSection;

/* GOT slot address -> symbol name, from the dynamic relocations
 * (R_X86_64_JUMP_SLOT in .rela.plt, R_X86_64_GLOB_DAT in .rela.dyn). */
static void
read_got_names (Elf *elf,
                Elf_Scn *rela,
                const GElf_Shdr *header,
                GHashTable *names)
{
  Elf_Data *data = elf_getdata (rela, NULL);
  Elf_Scn *symtab = elf_getscn (elf, header->sh_link);
  GElf_Shdr symtab_header;
  Elf_Data *symbols;
  gsize n = header->sh_entsize > 0 ? header->sh_size / header->sh_entsize : 0;

  if (data == NULL || symtab == NULL || gelf_getshdr (symtab, &symtab_header) == NULL
      || (symbols = elf_getdata (symtab, NULL)) == NULL)
    return;
  for (gsize i = 0; i < n; i++)
    {
      GElf_Rela rel;
      GElf_Sym sym;
      const char *name;
      guint64 type;

      if (gelf_getrela (data, (int) i, &rel) == NULL)
        continue;
      type = GELF_R_TYPE (rel.r_info);
      if ((type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) || GELF_R_SYM (rel.r_info) == 0
          || gelf_getsym (symbols, (int) GELF_R_SYM (rel.r_info), &sym) == NULL
          || (name = elf_strptr (elf, symtab_header.sh_link, sym.st_name)) == NULL || name[0] == '\0')
        continue;
      g_hash_table_insert (names, GSIZE_TO_POINTER (rel.r_offset), (gpointer) name);
    }
}

/* The GOT slot an entry jumps through: its `jmp *disp32(%rip)` (ff 25,
 * maybe after endbr64 or a bnd prefix), wherever in the entry it is (the
 * lazy entries of GNU ld, gold, LLD and mold, .plt.sec, .plt.got). */
static gboolean
entry_got_slot (const PltSection *plt,
                gsize at,
                GElf_Addr *slot)
{
  gsize end = MIN (at + plt->entry_size, plt->size);

  for (gsize i = at; i + 6 <= end; i++)
    if (plt->data[i] == 0xff && plt->data[i + 1] == 0x25)
      {
        gint32 disp;

        memcpy (&disp, plt->data + i + 2, sizeof disp);
        *slot = plt->address + i + 6 + (GElf_Addr) (gint64) disp;
        return TRUE;
      }
  return FALSE;
}

/* "memcmp@plt" for each entry of .plt, .plt.sec and .plt.got whose GOT
 * slot a relocation names, as perf and objdump name them: samples there
 * would otherwise take the name of whatever function precedes the PLT
 * (_init). Names are demangled before "@plt" is added. */
static void
add_plt_symbols (SpSymbolizer *self,
                 Elf *elf,
                 Dwarf_Addr bias,
                 GArray *symbols)
{
  g_autoptr (GHashTable) got_names = g_hash_table_new (NULL, NULL);
  PltSection plts[8];
  guint n_plts = 0;
  Elf_Scn *scn = NULL;
  size_t shstrndx;

  if (elf_getshdrstrndx (elf, &shstrndx) != 0)
    return;
  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr header;
      const char *name;
      Elf_Data *data;

      if (gelf_getshdr (scn, &header) == NULL || (name = elf_strptr (elf, shstrndx, header.sh_name)) == NULL)
        continue;
      if (header.sh_type == SHT_RELA && (header.sh_flags & SHF_ALLOC))
        read_got_names (elf, scn, &header, got_names);
      else if ((g_str_equal (name, ".plt") || g_str_equal (name, ".plt.sec") || g_str_equal (name, ".plt.got"))
               && header.sh_type == SHT_PROGBITS && n_plts < G_N_ELEMENTS (plts)
               && (data = elf_getdata (scn, NULL)) != NULL && data->d_buf != NULL)
        /* GNU ld says the entry size (16, 8 in .plt.got without IBT);
         * LLD and mold leave it 0 and use 16. */
        plts[n_plts++] = (PltSection) { data->d_buf, data->d_size, header.sh_addr,
                                        header.sh_entsize > 0 ? header.sh_entsize : 16 };
    }
  for (guint p = 0; p < n_plts; p++)
    for (gsize at = 0; at + plts[p].entry_size <= plts[p].size; at += plts[p].entry_size)
      {
        g_autofree char *demangled = NULL;
        g_autofree char *plt_name = NULL;
        SpSymbolRange range;
        GElf_Addr slot;
        const char *name;

        if (!entry_got_slot (&plts[p], at, &slot)
            || (name = g_hash_table_lookup (got_names, GSIZE_TO_POINTER (slot))) == NULL)
          continue;  /* the PLT's header, or a slot nothing names (IRELATIVE) */
        demangled = sp_demangle (name);
        plt_name = g_strconcat (demangled != NULL ? demangled : name, "@plt", NULL);
        range.start = plts[p].address + at + bias;
        range.size = plts[p].entry_size;
        range.name = _sp_symbolizer_intern (self, plt_name);
        range.rank = 0;  /* over any other name at the entry (mold's "memcmp$plt") */
        g_array_append_val (symbols, range);
      }
}

/* ---- Symbol tables -------------------------------------------------- */

/* The module's functions from its symbol table (*n_functions of them),
 * and its PLT entries. */
static GArray *
read_symbols (SpSymbolizer *self,
              Dwfl_Module *mod,
              Elf *elf,
              Dwarf_Addr bias,
              guint *n_functions)
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
  *n_functions = symbols->len;
  add_plt_symbols (self, elf, bias, symbols);
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
                  const char *path,
                  struct stat *st)
{
  g_autoptr (GError) error = NULL;
  int fd = _sp_file_open_regular (path, &error);

  if (fd < 0)
    _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_UNREADABLE, path, "%s", error->message);
  /* Empty is no ELF; and files in /proc say size 0, and some block a
   * read (/proc/kmsg). */
  else if (fstat (fd, st) != 0 || st->st_size == 0)
    {
      _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_UNREADABLE, path, "%s is empty", path);
      close (fd);
      fd = -1;
    }
  return fd;
}

/* Reports the file to a Dwfl of its own; st: the file's. */
static gboolean
report_file (SpSymbolizer *self,
             SpElfModule *module,
             struct stat *st)
{
  gboolean vdso = g_str_equal (module->path, "[vdso]");
  int fd = vdso ? vdso_as_file () : open_module_file (self, module->path, st);
  void **userdata;

  if (fd < 0 || (vdso && fstat (fd, st) != 0))
    {
      if (fd >= 0)
        close (fd);
      return FALSE;
    }
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
  if (module->mod == NULL || dwfl_module_getelf (module->mod, &module->bias) == NULL)
    {
      _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_UNREADABLE, module->path,
                                  "%s: cannot read it as ELF (%s)", module->path, dwfl_errmsg (-1));
      return FALSE;
    }
  return TRUE;
}

/* The problems raised since the first of them, for the cache to raise
 * again where it spares the indexing. */
static GArray *
problems_since (SpSymbolizer *self,
                guint first)
{
  GArray *problems = sp_symbol_problems_copy (NULL);

  for (guint i = first; i < self->problem_details->len; i++)
    {
      const SpSymbolProblem *p = &g_array_index (self->problem_details, SpSymbolProblem, i);
      SpSymbolProblem own = { p->kind, g_strdup (p->file), g_strdup (p->message) };

      g_array_append_val (problems, own);
    }
  return problems;
}

void
_sp_elf_module_index (SpSymbolizer *self,
                      SpElfModule *module)
{
  gboolean vdso = g_str_equal (module->path, "[vdso]");
  guint first_problem = self->problem_details->len;
  Dwarf_Addr dwarf_bias;
  guint n_functions;
  Dwarf *dwarf;
  Elf *elf;

  if (module->indexed || module->mod == NULL)
    return;
  module->indexed = TRUE;
  self->cache_stats.modules_indexed++;
  elf = dwfl_module_getelf (module->mod, &module->bias);
  /* (Read already when a stripped module's unnamed frame asked first.) */
  if (module->segments == NULL)
    module->segments = read_segments (elf);
  module->symbols = read_symbols (self, module->mod, elf, module->bias, &n_functions);
  /* Opening DWARF decompresses every compressed debug section at once:
   * skipped when nobody wants lines or inline frames. */
  dwarf = self->no_dwarf ? NULL : dwfl_module_getdwarf (module->mod, &dwarf_bias);
  if (dwarf != NULL)
    self->cache_stats.dwarf_opened++;
  module->has_dwarf = dwarf != NULL && _sp_debug_file_alt_is_safe (self, module->mod, dwarf);
  if (n_functions == 0)
    _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_NO_SYMBOLS, module->path, "%s: no symbols", module->path);
  if (!module->has_dwarf && !self->no_dwarf && !vdso)
    _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_NO_DEBUG_INFO, module->path,
                                "%s: no debug info (%s for source lines)", module->path,
                                sp_debug_info_advice (module->path));
  module->index_problems = problems_since (self, first_problem);
}

SpElfModule *
_sp_elf_module_open (SpSymbolizer *self,
                     const char *path,
                     guint64 inode)
{
  SpElfModule *module = g_new0 (SpElfModule, 1);
  struct stat st;

  module->path = g_strdup (path);
  module->key.path = module->path;
  module->key.inode = inode;
  module->results = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL, g_free);
  module->units = g_hash_table_new_full (g_int64_hash, g_int64_equal, NULL,
                                         (GDestroyNotify) _sp_dwarf_scopes_free);

  if ((!g_str_equal (path, "[vdso]") && !check_file (self, path, inode)) || !report_file (self, module, &st))
    {
      g_clear_pointer (&module->dwfl, dwfl_end);
      module->mod = NULL;
    }
  else if (!_sp_elf_module_cache_open (self, module, &st))
    _sp_elf_module_index (self, module);
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

/* The file offset of a module address (the inverse of offset_to_address). */
static gboolean
address_to_offset (SpElfModule *module,
                   Dwarf_Addr address,
                   guint64 *file_offset)
{
  for (guint i = 0; i < module->segments->len; i++)
    {
      const SpLoadSegment *segment = &g_array_index (module->segments, SpLoadSegment, i);
      guint64 vaddr = address - module->bias;

      if (vaddr >= segment->vaddr && vaddr - segment->vaddr < segment->size)
        {
          *file_offset = vaddr - segment->vaddr + segment->offset;
          return TRUE;
        }
    }
  return FALSE;
}

/* Whether libdw finds unwind information for address (a module address):
 * for an FDE this reader did not measure. */
static gboolean
covered_by_cfi (SpElfModule *module,
                Dwarf_Addr address)
{
  Dwarf_CFI *cfi;
  Dwarf_Frame *frame = NULL;
  Dwarf_Addr cfi_bias;

  if ((cfi = dwfl_module_eh_cfi (module->mod, &cfi_bias)) == NULL
      || dwarf_cfi_addrframe (cfi, address - cfi_bias, &frame) != 0)
    return FALSE;
  free (frame);
  return TRUE;
}

/* By the unwind tables (.eh_frame, which stripping keeps: every function
 * a compiler made has its entry), not the symbols: a stripped module's
 * addresses grouped into the functions they are in. An address no entry
 * covers (code without unwind information) has none. Reads the segments
 * alone when the module was not indexed (a warm symbol cache). */
gboolean
_sp_elf_module_function_start (SpElfModule *module,
                               guint64 file_offset,
                               guint64 *start_offset)
{
  Dwarf_Addr address;
  guint64 vaddr, start, end;
  Elf *elf;

  if (module->mod == NULL || (elf = dwfl_module_getelf (module->mod, &module->bias)) == NULL)
    return FALSE;
  if (module->segments == NULL)
    module->segments = read_segments (elf);
  if (module->function_ranges == NULL)
    module->function_ranges = _sp_eh_frame_ranges_new (elf);
  if (!offset_to_address (module, file_offset, &address))
    return FALSE;
  vaddr = address - module->bias;
  if (!_sp_eh_frame_ranges_lookup (module->function_ranges, vaddr, &start, &end)
      || (end != 0 ? vaddr >= end : !covered_by_cfi (module, address)))
    return FALSE;
  return address_to_offset (module, start + module->bias, start_offset);
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

  if ((n = _sp_elf_module_cache_lookup (self, module, file_offset, frames, max)) > 0)
    return n;
  _sp_elf_module_index (self, module);
  module->n_resolved++;
  self->cache_stats.misses++;
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
