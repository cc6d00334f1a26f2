/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-elf-image.c: program headers, function symbols and bytes of one file. */
#include "sp-elf-image.h"

#include <gelf.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp-demangle.h"
#include "sp-eh-frame-ranges.h"
#include "sp-file-private.h"
#include "sp-symbolizer-private.h"

struct _SpElfImage
{
  int           fd;
  Elf          *elf;
  const guint8 *image;      /* the whole file, as libelf maps it */
  gsize         image_size;
  guint         machine;
  GArray       *loads;      /* GElf_Phdr of PT_LOAD with file bytes */
  GArray       *symbols;    /* SpSymbolRange, names raw (in the file, or the debug file) */
  gboolean      has_symtab; /* .symtab, not only .dynsym */
  SpEhFrameRanges *unwind_ranges; /* NULL until asked for */
  GStringChunk *names;      /* demangled names handed out */
  int           debug_fd;   /* the separate debug file the symbols came from, or -1 */
  Elf          *debug_elf;
};

void
sp_elf_image_free (SpElfImage *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->symbols, g_array_unref);
  g_clear_pointer (&self->unwind_ranges, _sp_eh_frame_ranges_free);
  g_clear_pointer (&self->loads, g_array_unref);
  g_clear_pointer (&self->names, g_string_chunk_free);
  if (self->debug_elf != NULL)
    elf_end (self->debug_elf);
  if (self->debug_fd >= 0)
    close (self->debug_fd);
  if (self->elf != NULL)
    elf_end (self->elf);
  if (self->fd >= 0)
    close (self->fd);
  g_free (self);
}

static void
read_loads (SpElfImage *self)
{
  size_t n = 0;

  self->loads = g_array_new (FALSE, FALSE, sizeof (GElf_Phdr));
  if (elf_getphdrnum (self->elf, &n) != 0)
    return;
  for (size_t i = 0; i < n; i++)
    {
      GElf_Phdr phdr;

      if (gelf_getphdr (self->elf, (int) i, &phdr) != NULL && phdr.p_type == PT_LOAD && phdr.p_filesz > 0)
        g_array_append_val (self->loads, phdr);
    }
}

/* The functions of one symbol table section. */
static void
read_symbol_table (SpElfImage *self,
                   Elf *elf,
                   Elf_Scn *scn,
                   const GElf_Shdr *header)
{
  Elf_Data *data = elf_getdata (scn, NULL);
  gsize n = header->sh_entsize > 0 ? header->sh_size / header->sh_entsize : 0;

  for (gsize i = 1; data != NULL && i < n; i++)
    {
      GElf_Sym sym;
      const char *name;
      int type;

      if (gelf_getsym (data, (int) i, &sym) == NULL)
        continue;
      type = GELF_ST_TYPE (sym.st_info);
      name = elf_strptr (elf, header->sh_link, sym.st_name);
      if (name == NULL || name[0] == '\0' || sym.st_shndx == SHN_UNDEF
          || (type != STT_FUNC && type != STT_GNU_IFUNC))
        continue;
      g_array_append_val (self->symbols, ((SpSymbolRange) { sym.st_value, sym.st_size, name,
                                                            GELF_ST_BIND (sym.st_info) == STB_LOCAL }));
    }
}

/* .symtab when elf has one (it holds the static functions too), else
 * .dynsym unless only_symtab; TRUE when .symtab was read. */
static gboolean
read_symbols (SpElfImage *self,
              Elf *elf,
              gboolean only_symtab)
{
  Elf_Scn *dynsym = NULL;
  GElf_Shdr dynsym_header;
  gboolean found = FALSE;
  Elf_Scn *scn = NULL;

  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr header;

      if (gelf_getshdr (scn, &header) == NULL)
        continue;
      if (header.sh_type == SHT_SYMTAB)
        {
          read_symbol_table (self, elf, scn, &header);
          found = TRUE;
        }
      else if (header.sh_type == SHT_DYNSYM)
        {
          dynsym = scn;
          dynsym_header = header;
        }
    }
  if (!found && !only_symtab && dynsym != NULL)
    read_symbol_table (self, elf, dynsym, &dynsym_header);
  _sp_symbol_ranges_finish (self->symbols, FALSE);
  return found;
}

static gboolean
check_inode (int fd,
             const char *path,
             guint64 inode,
             GError **error)
{
  struct stat st;

  if (inode == 0 || (fstat (fd, &st) == 0 && (guint64) st.st_ino == inode))
    return TRUE;
  g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s changed since the recording", path);
  return FALSE;
}

SpElfImage *
sp_elf_image_open (const char *path,
                   guint64 inode,
                   GError **error)
{
  g_autoptr (SpElfImage) self = g_new0 (SpElfImage, 1);
  GElf_Ehdr ehdr;

  self->debug_fd = -1;
  self->fd = _sp_file_open_regular (path, error);
  if (self->fd < 0 || !check_inode (self->fd, path, inode, error))
    return NULL;
  elf_version (EV_CURRENT);
  self->elf = elf_begin (self->fd, ELF_C_READ_MMAP, NULL);
  if (self->elf == NULL || elf_kind (self->elf) != ELF_K_ELF || gelf_getehdr (self->elf, &ehdr) == NULL
      || (self->image = (const guint8 *) elf_rawfile (self->elf, &self->image_size)) == NULL)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: not an ELF file", path);
      return NULL;
    }
  self->machine = ehdr.e_machine;
  self->names = g_string_chunk_new (4096);
  read_loads (self);
  self->symbols = _sp_symbol_ranges_new ();
  self->has_symtab = read_symbols (self, self->elf, FALSE);
  return g_steal_pointer (&self);
}

gboolean
sp_elf_image_has_symtab (SpElfImage *self)
{
  return self->has_symtab;
}

gboolean
sp_elf_image_use_debug_symbols (SpElfImage *self,
                                const char *debug_path,
                                GError **error)
{
  g_autoptr (GArray) symbols = NULL;

  g_return_val_if_fail (self->debug_elf == NULL, FALSE);
  self->debug_fd = _sp_file_open_regular (debug_path, error);
  if (self->debug_fd < 0)
    return FALSE;
  self->debug_elf = elf_begin (self->debug_fd, ELF_C_READ_MMAP, NULL);
  if (self->debug_elf == NULL || elf_kind (self->debug_elf) != ELF_K_ELF)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: not an ELF file", debug_path);
      return FALSE;
    }
  /* Its .symtab holds the .dynsym ones too: it replaces them. */
  symbols = g_steal_pointer (&self->symbols);
  self->symbols = _sp_symbol_ranges_new ();
  if (!read_symbols (self, self->debug_elf, TRUE))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: no symbol table", debug_path);
      g_array_unref (self->symbols);
      self->symbols = g_steal_pointer (&symbols);
      return FALSE;
    }
  self->has_symtab = TRUE;
  return TRUE;
}

void
sp_elf_image_use_symbolizer_debug_file (SpElfImage *self,
                                        SpSymbolizer *symbolizer,
                                        const SpModule *module)
{
  const char *debug_file;

  if (self->has_symtab || (debug_file = sp_symbolizer_get_debug_file (symbolizer, module)) == NULL)
    return;
  /* On failure the module's own .dynsym stays: a caller that needs a
   * static function's bounds says what is missing. */
  sp_elf_image_use_debug_symbols (self, debug_file, NULL);
}

static gboolean
has_section (Elf *elf,
             const char *name)
{
  Elf_Scn *section = NULL;
  size_t names;

  if (elf == NULL || elf_getshdrstrndx (elf, &names) != 0)
    return FALSE;
  while ((section = elf_nextscn (elf, section)) != NULL)
    {
      GElf_Shdr header;
      const char *found;

      if (gelf_getshdr (section, &header) != NULL && (found = elf_strptr (elf, names, header.sh_name)) != NULL
          && g_str_equal (found, name))
        return TRUE;
    }
  return FALSE;
}

gboolean
sp_elf_image_has_debug_info (SpElfImage *self)
{
  return has_section (self->elf, ".debug_info") || has_section (self->debug_elf, ".debug_info");
}

guint
sp_elf_image_get_machine (SpElfImage *self)
{
  return self->machine;
}

gboolean
sp_elf_image_offset_to_vaddr (SpElfImage *self,
                              guint64 offset,
                              guint64 *vaddr)
{
  for (guint i = 0; i < self->loads->len; i++)
    {
      const GElf_Phdr *p = &g_array_index (self->loads, GElf_Phdr, i);

      /* Code first: where segments share a page, the executable one. */
      if ((p->p_flags & PF_X) && offset >= p->p_offset && offset - p->p_offset < p->p_filesz)
        return (*vaddr = offset - p->p_offset + p->p_vaddr, TRUE);
    }
  for (guint i = 0; i < self->loads->len; i++)
    {
      const GElf_Phdr *p = &g_array_index (self->loads, GElf_Phdr, i);

      if (offset >= p->p_offset && offset - p->p_offset < p->p_filesz)
        return (*vaddr = offset - p->p_offset + p->p_vaddr, TRUE);
    }
  return FALSE;
}

gboolean
sp_elf_image_vaddr_to_offset (SpElfImage *self,
                              guint64 vaddr,
                              guint64 *offset)
{
  for (guint i = 0; i < self->loads->len; i++)
    {
      const GElf_Phdr *p = &g_array_index (self->loads, GElf_Phdr, i);

      if (vaddr >= p->p_vaddr && vaddr - p->p_vaddr < p->p_filesz)
        return (*offset = vaddr - p->p_vaddr + p->p_offset, TRUE);
    }
  return FALSE;
}

static const char *
display_name (SpElfImage *self,
              const char *raw)
{
  g_autofree char *demangled = sp_demangle (raw);

  return demangled != NULL ? g_string_chunk_insert_const (self->names, demangled) : raw;
}

static void
fill_symbol (SpElfImage *self,
             const SpSymbolRange *range,
             SpElfSymbol *symbol)
{
  symbol->start = range->start;
  symbol->size = range->size;
  symbol->name = display_name (self, range->name);
}

gboolean
sp_elf_image_symbol_at (SpElfImage *self,
                        guint64 vaddr,
                        SpElfSymbol *symbol)
{
  const SpSymbolRange *range = _sp_symbol_ranges_lookup (self->symbols, vaddr);

  if (range == NULL)
    return FALSE;
  fill_symbol (self, range, symbol);
  return TRUE;
}

gboolean
sp_elf_image_unwind_range_at (SpElfImage *self,
                              guint64 vaddr,
                              guint64 *start,
                              guint64 *end)
{
  if (self->unwind_ranges == NULL)
    self->unwind_ranges = _sp_eh_frame_ranges_new (self->elf);
  return _sp_eh_frame_ranges_lookup (self->unwind_ranges, vaddr, start, end) && *end != 0 && vaddr < *end;
}

gboolean
sp_elf_image_find_symbol (SpElfImage *self,
                          const char *name,
                          SpElfSymbol *symbol)
{
  const SpSymbolRange *r = (const SpSymbolRange *) (gconstpointer) self->symbols->data;

  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < self->symbols->len; i++)
      if (pass == 0 ? g_str_equal (r[i].name, name) : g_str_equal (display_name (self, r[i].name), name))
        {
          fill_symbol (self, &r[i], symbol);
          return TRUE;
        }
  return FALSE;
}

const guint8 *
sp_elf_image_get_bytes (SpElfImage *self,
                        guint64 vaddr,
                        guint64 size)
{
  guint64 offset;

  if (!sp_elf_image_vaddr_to_offset (self, vaddr, &offset) || offset > self->image_size
      || size > self->image_size - offset)
    return NULL;
  return self->image + offset;
}
