/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-unwind-file.c: ELF facts for unwinding, read once per file. */
#include "sp-unwind-file.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp-array.h"

/* The x86-64 frame setup GCC and clang emit with frame pointers:
 * [endbr64] push %rbp; mov %rsp,%rbp. */
static uint8_t
frame_setup_length (const uint8_t *code,
                    size_t available)
{
  static const uint8_t endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };
  size_t at = 0;

  if (available >= sizeof endbr64 && memcmp (code, endbr64, sizeof endbr64) == 0)
    at = sizeof endbr64;
  if (available < at + 4 || code[at] != 0x55)
    return 0;
  if (code[at + 1] == 0x48
      && ((code[at + 2] == 0x89 && code[at + 3] == 0xe5) || (code[at + 2] == 0x8b && code[at + 3] == 0xec)))
    return (uint8_t) (at + 4);
  return 0;
}

static int
compare_functions (const void *a,
                   const void *b)
{
  const SpUnwindFunction *x = a;
  const SpUnwindFunction *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return (x->size < y->size) - (x->size > y->size);  /* larger first */
}

static void
read_functions (SpUnwindFile *file,
                Elf *elf,
                Elf_Scn *symtab,
                const GElf_Shdr *symtab_header)
{
  Elf_Data *data = elf_getdata (symtab, NULL);
  size_t n_symbols = symtab_header->sh_entsize ? symtab_header->sh_size / symtab_header->sh_entsize : 0;
  size_t capacity = 0;

  if (data == NULL)
    return;
  for (size_t i = 0; i < n_symbols; i++)
    {
      GElf_Sym sym;
      GElf_Shdr section;
      Elf_Scn *scn;
      uint64_t offset;

      if (gelf_getsym (data, (int) i, &sym) == NULL || sym.st_size == 0
          || (GELF_ST_TYPE (sym.st_info) != STT_FUNC && GELF_ST_TYPE (sym.st_info) != STT_GNU_IFUNC)
          || sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
        continue;
      scn = elf_getscn (elf, sym.st_shndx);
      if (scn == NULL || gelf_getshdr (scn, &section) == NULL || section.sh_type == SHT_NOBITS
          || sym.st_value < section.sh_addr || sym.st_value - section.sh_addr >= section.sh_size)
        continue;
      if (!sp_array_reserve ((void **) &file->functions, &capacity, file->n_functions + 1,
                             sizeof (SpUnwindFunction)))
        return;
      offset = section.sh_offset + (sym.st_value - section.sh_addr);
      file->functions[file->n_functions++] = (SpUnwindFunction) {
        sym.st_value,
        sym.st_size > UINT32_MAX ? UINT32_MAX : (uint32_t) sym.st_size,
        offset < file->image_size ? frame_setup_length (file->image + offset, file->image_size - offset) : 0,
      };
    }
  if (file->n_functions == 0)
    return;  /* qsort (NULL, 0, ...) is undefined */
  qsort (file->functions, file->n_functions, sizeof (SpUnwindFunction), compare_functions);

  /* Aliases share a start: keep one of each. */
  {
    size_t kept = 0;

    for (size_t i = 0; i < file->n_functions; i++)
      if (kept == 0 || file->functions[kept - 1].start != file->functions[i].start)
        file->functions[kept++] = file->functions[i];
    file->n_functions = kept;
  }
  for (size_t i = 0; i < file->n_functions; i++)
    if (file->functions[i].frame_set_at != 0)
      file->n_frame_pointer_functions++;
}

static bool
is_plt_section (const char *name)
{
  return strcmp (name, ".plt") == 0 || strcmp (name, ".plt.sec") == 0 || strcmp (name, ".plt.got") == 0
         || strcmp (name, ".iplt") == 0;
}

static void
note_plt (SpUnwindFile *file,
          const char *name,
          const GElf_Shdr *shdr)
{
  if (file->n_plts == SP_UNWIND_MAX_PLTS || shdr->sh_type != SHT_PROGBITS || shdr->sh_size == 0
      || shdr->sh_offset > file->image_size || shdr->sh_size > file->image_size - shdr->sh_offset)
    return;
  file->plts[file->n_plts++] = (SpUnwindPlt) {
    shdr->sh_addr, shdr->sh_size, shdr->sh_offset, strcmp (name, ".plt") == 0,
  };
}

static void
read_elf (SpUnwindFile *file)
{
  Elf *elf = elf_memory ((char *) file->image, file->image_size);
  Elf_Scn *scn = NULL;
  Elf_Scn *symtab = NULL;
  Elf_Scn *dynsym = NULL;
  GElf_Shdr symtab_header = { 0 };
  GElf_Shdr dynsym_header = { 0 };
  GElf_Ehdr ehdr;
  size_t n_phdrs = 0;
  size_t shstrndx;
  size_t capacity = 0;

  if (elf == NULL || gelf_getehdr (elf, &ehdr) == NULL || elf_getshdrstrndx (elf, &shstrndx) != 0)
    {
      if (elf != NULL)
        elf_end (elf);
      return;
    }
  file->readable = true;
  file->is_dyn = ehdr.e_type == ET_DYN;

  if (elf_getphdrnum (elf, &n_phdrs) == 0)
    for (size_t i = 0; i < n_phdrs; i++)
      {
        GElf_Phdr phdr;

        if (gelf_getphdr (elf, (int) i, &phdr) == NULL || phdr.p_type != PT_LOAD)
          continue;
        if (!sp_array_reserve ((void **) &file->segments, &capacity, file->n_segments + 1,
                               sizeof (SpUnwindSegment)))
          break;
        file->segments[file->n_segments++] = (SpUnwindSegment) {
          phdr.p_offset, phdr.p_vaddr, phdr.p_filesz, (phdr.p_flags & PF_X) != 0,
        };
      }

  while ((scn = elf_nextscn (elf, scn)) != NULL)
    {
      GElf_Shdr shdr;
      const char *name;

      if (gelf_getshdr (scn, &shdr) == NULL || (name = elf_strptr (elf, shstrndx, shdr.sh_name)) == NULL)
        continue;
      if (strcmp (name, ".eh_frame") == 0 && shdr.sh_size > 0)
        file->has_eh_frame = true;
      else if (strcmp (name, ".debug_frame") == 0 && shdr.sh_type != SHT_NOBITS)
        file->has_debug_frame = true;
      else if (strcmp (name, ".gnu_debuglink") == 0)
        file->has_debuglink = true;
      else if (is_plt_section (name))
        note_plt (file, name, &shdr);
      else if (shdr.sh_type == SHT_SYMTAB)
        {
          symtab = scn;
          symtab_header = shdr;
        }
      else if (shdr.sh_type == SHT_DYNSYM)
        {
          dynsym = scn;
          dynsym_header = shdr;
        }
    }
  /* .symtab has every function; .dynsym only the exported ones. */
  file->has_symbols = symtab != NULL || dynsym != NULL;
  if (symtab != NULL)
    read_functions (file, elf, symtab, &symtab_header);
  else if (dynsym != NULL)
    read_functions (file, elf, dynsym, &dynsym_header);
  file->elf = elf;  /* kept for the CFI */
}

/* The vDSO's size is not in auxv: its section headers come last. */
static size_t
vdso_size (const uint8_t *image)
{
  const Elf64_Ehdr *ehdr = (const Elf64_Ehdr *) image;

  if (memcmp (ehdr->e_ident, ELFMAG, SELFMAG) != 0 || ehdr->e_ident[EI_CLASS] != ELFCLASS64)
    return 0;
  return ehdr->e_shoff + (size_t) ehdr->e_shnum * ehdr->e_shentsize;
}

static bool
load_vdso (SpUnwindFile *file)
{
  const uint8_t *vdso = (const uint8_t *) getauxval (AT_SYSINFO_EHDR);
  size_t size = vdso != NULL ? vdso_size (vdso) : 0;
  uint8_t *copy;

  if (size == 0 || (copy = malloc (size)) == NULL)
    return false;
  memcpy (copy, vdso, size);
  file->image = copy;
  file->image_size = size;
  /* libdw reports modules from files: give it one. */
  file->memfd = memfd_create ("vdso", MFD_CLOEXEC);
  if (file->memfd >= 0 && write (file->memfd, copy, size) != (ssize_t) size)
    {
      close (file->memfd);
      file->memfd = -1;
    }
  return true;
}

static bool
load_path (SpUnwindFile *file,
           const char *path,
           uint64_t inode)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  void *map;

  if (fd < 0)
    return false;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_size == 0
      || (inode != 0 && (uint64_t) st.st_ino != inode))
    {
      close (fd);
      return false;
    }
  map = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    return false;
  file->mapping = map;
  file->mapping_size = (size_t) st.st_size;
  file->image = map;
  file->image_size = (size_t) st.st_size;
  return true;
}

SpUnwindFile *
sp_unwind_file_new (const char *path,
                    uint64_t inode)
{
  SpUnwindFile *file = calloc (1, sizeof *file);

  if (file == NULL || (file->path = strdup (path)) == NULL)
    {
      free (file);
      return NULL;
    }
  file->memfd = -1;
  file->inode = inode;
  return file;
}

void
sp_unwind_file_ensure_loaded (SpUnwindFile *file)
{
  if (file->loaded)
    return;
  file->loaded = true;
  /* Read again after an unload: what it said is said anew. */
  file->readable = file->is_dyn = file->has_eh_frame = file->has_debug_frame = false;
  file->has_debuglink = file->has_symbols = false;
  file->n_segments = file->n_plts = file->n_functions = file->n_frame_pointer_functions = 0;
  elf_version (EV_CURRENT);
  if (strcmp (file->path, "[vdso]") == 0 ? load_vdso (file) : load_path (file, file->path, file->inode))
    read_elf (file);
}

SpUnwindFile *
sp_unwind_file_load (const char *path,
                     uint64_t inode)
{
  SpUnwindFile *file = sp_unwind_file_new (path, inode);

  if (file != NULL)
    sp_unwind_file_ensure_loaded (file);
  return file;
}

void
sp_unwind_file_unload (SpUnwindFile *file)
{
  if (file->cfi != NULL)
    dwarf_cfi_end (file->cfi);
  if (file->elf != NULL)
    elf_end (file->elf);
  free (file->leaf_keys);
  free (file->leaf_values);
  if (file->mapping != NULL)
    munmap (file->mapping, file->mapping_size);
  else
    free ((void *) file->image);
  if (file->memfd >= 0)
    close (file->memfd);
  free (file->segments);
  free (file->functions);
  file->cfi = file->elf = file->mapping = NULL;
  file->cfi_tried = false;
  file->leaf_keys = NULL;
  file->leaf_values = NULL;
  file->leaf_capacity = file->leaf_count = 0;
  file->image = NULL;
  file->image_size = file->mapping_size = 0;
  file->memfd = -1;
  file->segments = NULL;
  file->functions = NULL;
  file->loaded = false;
}

void
sp_unwind_file_free (SpUnwindFile *file)
{
  if (file == NULL)
    return;
  sp_unwind_file_unload (file);
  free (file->path);
  free (file);
}

bool
sp_unwind_file_vaddr_of_offset (const SpUnwindFile *file,
                                uint64_t offset,
                                uint64_t *vaddr)
{
  for (size_t i = 0; i < file->n_segments; i++)
    {
      const SpUnwindSegment *s = &file->segments[i];

      if (offset >= s->offset && offset - s->offset < s->filesz)
        {
          *vaddr = offset - s->offset + s->vaddr;
          return true;
        }
    }
  return false;
}

/* Whether a mapping from file_offset can be (part of) segment s: the
 * kernel maps a segment from its offset rounded down to a page, so the
 * mapping may start up to a page before the segment's first byte. */
static bool
segment_maps_from (const SpUnwindSegment *s,
                   uint64_t file_offset,
                   uint64_t page_size)
{
  if (file_offset <= s->offset)
    return s->offset - file_offset < page_size;
  return file_offset - s->offset < s->filesz;
}

/* LLD and mold put the read-only segment and the code in one page of the
 * file ([0, 0x1194) read-only, code from 0x11a0 at ELF address 0x21a0):
 * the code's mapping starts at file offset 0x1000, which is the read-only
 * segment's byte, but it is the code segment that was mapped there. The
 * recorder is told of executable mappings only, so an executable segment
 * that fits is the one; any other that fits is a fallback (a file that
 * marks no segment executable). */
bool
sp_unwind_file_load_bias (const SpUnwindFile *file,
                          uint64_t start,
                          uint64_t file_offset,
                          uint64_t *bias)
{
  long page = sysconf (_SC_PAGESIZE);
  uint64_t page_size = page > 0 ? (uint64_t) page : 4096;
  const SpUnwindSegment *found = NULL;

  for (size_t i = 0; i < file->n_segments; i++)
    {
      const SpUnwindSegment *s = &file->segments[i];

      if (!segment_maps_from (s, file_offset, page_size))
        continue;
      if (s->executable)
        {
          found = s;
          break;
        }
      if (found == NULL)
        found = s;
    }
  if (found == NULL)
    return false;
  /* In a segment's mapping, ELF address and file offset differ by the
   * same amount on every byte (p_vaddr ≡ p_offset modulo the page). */
  *bias = start - (found->vaddr - found->offset + file_offset);
  return true;
}

const SpUnwindFunction *
sp_unwind_file_find_function (const SpUnwindFile *file,
                              uint64_t vaddr)
{
  size_t lo = 0;
  size_t hi = file->n_functions;

  /* The last function starting at or below vaddr. */
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;

      if (file->functions[mid].start <= vaddr)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return NULL;
  {
    const SpUnwindFunction *f = &file->functions[lo - 1];

    return vaddr - f->start < f->size ? f : NULL;
  }
}

int
sp_unwind_file_byte_at (const SpUnwindFile *file,
                        uint64_t offset)
{
  return offset < file->image_size ? file->image[offset] : -1;
}

/* A register rule "saved at CFA + offset", as libdw spells it
 * (DW_OP_call_frame_cfa, DW_OP_plus_uconst with the offset as two's
 * complement); false for any other rule. */
static bool
saved_at_cfa (const Dwarf_Op *ops,
              size_t nops,
              int64_t *offset)
{
  if (nops != 2 || ops[0].atom != DW_OP_call_frame_cfa)
    return false;
  if (ops[1].atom == DW_OP_plus_uconst)
    *offset = (int64_t) ops[1].number;
  else if (ops[1].atom == DW_OP_consts)
    *offset = (int64_t) ops[1].number;
  else
    return false;
  return true;
}

/* The instructions linkers put in PLT stubs: their length, and how many
 * words they push. */
typedef struct {
  uint8_t bytes[4];
  uint8_t n_bytes;    /* that identify it */
  uint8_t length;
  uint8_t pushes;
} PltInstruction;

static const PltInstruction plt_instructions[] = {
  { { 0xf3, 0x0f, 0x1e, 0xfa }, 4, 4, 0 },  /* endbr64 */
  { { 0xff, 0x25 }, 2, 6, 0 },              /* jmp *GOT(%rip) */
  { { 0xf2, 0xff, 0x25 }, 3, 7, 0 },        /* bnd jmp *GOT(%rip) */
  { { 0xff, 0x35 }, 2, 6, 1 },              /* push GOT+8(%rip) (PLT0) */
  { { 0x68 }, 1, 5, 1 },                    /* push $index (lazy entry) */
  { { 0xe9 }, 1, 5, 0 },                    /* jmp PLT0 */
  { { 0xf2, 0xe9 }, 2, 6, 0 },              /* bnd jmp PLT0 */
  { { 0x41, 0x53 }, 2, 2, 1 },              /* push %r11 (mold's PLT0) */
  { { 0x41, 0xbb }, 2, 6, 0 },              /* mov $index,%r11d (mold's entry) */
  { { 0x90 }, 1, 1, 0 },                    /* nop */
  { { 0x66, 0x90 }, 2, 2, 0 },              /* xchg %ax,%ax */
  { { 0x0f, 0x1f, 0x00 }, 3, 3, 0 },        /* nopl (%rax) */
  { { 0x0f, 0x1f, 0x40 }, 3, 4, 0 },        /* nopl 0(%rax) */
  { { 0x0f, 0x1f, 0x44 }, 3, 5, 0 },        /* nopl 0(%rax,%rax,1) */
  { { 0x66, 0x0f, 0x1f, 0x44 }, 4, 6, 0 },  /* nopw 0(%rax,%rax,1) */
};

static const PltInstruction *
plt_instruction_at (const uint8_t *code,
                    size_t available)
{
  for (size_t i = 0; i < sizeof plt_instructions / sizeof plt_instructions[0]; i++)
    {
      const PltInstruction *known = &plt_instructions[i];

      if (available >= known->length && memcmp (code, known->bytes, known->n_bytes) == 0)
        return known;
    }
  return NULL;
}

/* A PLT stub has no frame: the return address its caller pushed is at
 * %rsp, below whatever the stub pushed on its way to the lazy binder.
 * Stubs sit in 16-byte slots (two 8-byte ones in .plt.got); the words
 * pushed at vaddr are counted by reading the slot's code up to it. The
 * first slot of .plt is PLT0, reached from a lazy entry that pushed its
 * index (mold passes it in %r11, which PLT0 pushes itself). */
static SpLeafRule
plt_rule (const SpUnwindFile *file,
          uint64_t vaddr)
{
  SpLeafRule rule = { 0, 0, SP_LEAF_UNKNOWN, false };

  for (size_t i = 0; i < file->n_plts; i++)
    {
      const SpUnwindPlt *plt = &file->plts[i];
      uint64_t slot, end, at;
      int pushes = 0;

      if (vaddr < plt->vaddr || vaddr - plt->vaddr >= plt->size)
        continue;
      slot = (vaddr - plt->vaddr) & ~(uint64_t) 15;
      end = slot + 16 < plt->size ? slot + 16 : plt->size;
      /* (An instruction may run on past its slot: mold's PLT0 is 32 bytes.) */
      if (plt->lazy && slot == 0)
        {
          const uint8_t *code = file->image + plt->offset;
          bool keeps_index_in_r11 = false;

          for (at = 0; at + 1 < end; at++)
            keeps_index_in_r11 |= code[at] == 0x41 && code[at + 1] == 0x53;
          pushes = keeps_index_in_r11 ? 0 : 1;
        }
      for (at = slot; at < vaddr - plt->vaddr;)
        {
          const PltInstruction *instruction = plt_instruction_at (file->image + plt->offset + at, plt->size - at);

          if (instruction == NULL)
            return rule;
          pushes += instruction->pushes;
          at += instruction->length;
        }
      if (at != vaddr - plt->vaddr || plt_instruction_at (file->image + plt->offset + at, plt->size - at) == NULL)
        return rule;  /* not at an instruction of a stub */
      return (SpLeafRule) { 8 + 8 * pushes, 0, SP_LEAF_RSP, true };
    }
  return rule;
}

/* The rule at vaddr from .eh_frame; SP_LEAF_UNKNOWN when it is not one
 * of the simple ones every compiler emits. */
static SpLeafRule
compute_leaf_rule (SpUnwindFile *file,
                   uint64_t vaddr)
{
  SpLeafRule rule = { 0, 0, SP_LEAF_UNKNOWN, false };
  Dwarf_Frame *frame = NULL;
  Dwarf_Op ops_mem[3];
  Dwarf_Op *ops;
  size_t nops;
  int64_t cfa, saved;
  unsigned cfa_register;

  if (!file->cfi_tried)
    {
      file->cfi_tried = true;
      if (file->elf != NULL)
        file->cfi = dwarf_getcfi_elf (file->elf);
    }
  if (file->cfi == NULL || dwarf_cfi_addrframe (file->cfi, vaddr, &frame) != 0)
    return plt_rule (file, vaddr);  /* no CFI there: LLD's and mold's PLT */
  /* The return address (DWARF 16): undefined in the outermost frame
   * (_start, clone3's child), else at CFA - 8. */
  if (dwarf_frame_register (frame, 16, ops_mem, &ops, &nops) != 0)
    goto out;
  if (nops == 0 && ops != NULL)
    {
      rule.base = SP_LEAF_OUTERMOST;
      goto out;
    }
  if (!saved_at_cfa (ops, nops, &saved) || saved != -8)
    goto out;
  /* CFA = %rsp (DWARF 7) + N or %rbp (DWARF 6) + 16. */
  if (dwarf_frame_cfa (frame, &ops, &nops) != 0 || nops != 1 || ops[0].atom != DW_OP_bregx)
    goto out;
  cfa_register = (unsigned) ops[0].number;
  cfa = (int64_t) ops[0].number2;
  if (!((cfa_register == 7 && cfa >= 8 && cfa < (1 << 20)) || (cfa_register == 6 && cfa == 16)))
    goto out;
  /* %rbp: unchanged ("same value"), or saved at CFA + M. */
  if (dwarf_frame_register (frame, 6, ops_mem, &ops, &nops) != 0)
    goto out;
  if (nops == 0 && ops == NULL)
    rule.rbp_offset = 0;
  else if (saved_at_cfa (ops, nops, &saved) && saved < 0 && saved > -4096)
    rule.rbp_offset = (int16_t) saved;  /* saved at CFA - M */
  else
    goto out;
  rule.cfa_offset = (int32_t) cfa;
  rule.base = cfa_register == 7 ? SP_LEAF_RSP : SP_LEAF_RBP;
out:
  free (frame);
  return rule;
}

static bool
grow_leaf_cache (SpUnwindFile *file)
{
  size_t capacity = file->leaf_capacity ? file->leaf_capacity * 2 : 256;
  uint64_t *keys = calloc (capacity, sizeof (uint64_t));
  SpLeafRule *values = malloc (capacity * sizeof (SpLeafRule));

  if (keys == NULL || values == NULL)
    {
      free (keys);
      free (values);
      return false;
    }
  for (size_t i = 0; i < file->leaf_capacity; i++)
    if (file->leaf_keys[i] != 0)
      {
        size_t at = (size_t) (file->leaf_keys[i] * UINT64_C (0x9E3779B97F4A7C15) >> 20) & (capacity - 1);

        while (keys[at] != 0)
          at = (at + 1) & (capacity - 1);
        keys[at] = file->leaf_keys[i];
        values[at] = file->leaf_values[i];
      }
  free (file->leaf_keys);
  free (file->leaf_values);
  file->leaf_keys = keys;
  file->leaf_values = values;
  file->leaf_capacity = capacity;
  return true;
}

SpLeafRule
sp_unwind_file_leaf_rule (SpUnwindFile *file,
                          uint64_t vaddr)
{
  uint64_t key = vaddr + 1;
  size_t at;

  if (file->leaf_count * 2 >= file->leaf_capacity && !grow_leaf_cache (file))
    return (SpLeafRule) { 0, 0, SP_LEAF_UNKNOWN, false };
  at = (size_t) (key * UINT64_C (0x9E3779B97F4A7C15) >> 20) & (file->leaf_capacity - 1);
  while (file->leaf_keys[at] != 0 && file->leaf_keys[at] != key)
    at = (at + 1) & (file->leaf_capacity - 1);
  if (file->leaf_keys[at] == 0)
    {
      file->leaf_keys[at] = key;
      file->leaf_values[at] = compute_leaf_rule (file, vaddr);
      file->leaf_count++;
    }
  return file->leaf_values[at];
}
