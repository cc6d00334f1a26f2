/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-elf-image.h: a module file's code as the disassembler needs it.
 *
 * The symbolizer (sp-symbolizer.h) turns addresses into names and lines;
 * the source and disassembly views also need what it keeps private: the
 * program headers (to go between the spool's file offsets and the ELF
 * virtual addresses objdump prints), the bytes of a function, and its
 * symbol's start and size. This reads them from the file (.symtab, else
 * .dynsym), or for a stripped file from its separate debug file's
 * .symtab, each opened as a regular file only (sp-file-private.h). */
#pragma once

#include <glib.h>

#include "sp-symbolizer.h"

G_BEGIN_DECLS

typedef struct _SpElfImage SpElfImage;

typedef struct {
  guint64     start;   /* ELF virtual address */
  guint64     size;
  const char *name;    /* demangled; owned by the image */
} SpElfSymbol;

/* NULL and error when path is no readable ELF file, or (inode != 0) no
 * longer the file recorded. */
SpElfImage *sp_elf_image_open (const char *path,
                               guint64 inode,
                               GError **error);
void sp_elf_image_free (SpElfImage *self);

/* Whether the function symbols are a full .symtab, not only .dynsym
 * (which lacks the static functions): FALSE for a stripped file. */
gboolean sp_elf_image_has_symtab (SpElfImage *self);

/* The function symbols of a stripped file from the .symtab of its
 * separate debug file (sp_symbolizer_get_debug_file), which has the same
 * virtual addresses; the code bytes still come from the file itself.
 * FALSE and error when the debug file cannot be read or has no .symtab
 * (the symbols stay as they were). */
gboolean sp_elf_image_use_debug_symbols (SpElfImage *self,
                                         const char *debug_path,
                                         GError **error);

/* sp_elf_image_use_debug_symbols with the debug file the symbolizer
 * found for module's names (here or through debuginfod), when the file
 * is stripped; otherwise, or when there is none, the symbols stay. */
void sp_elf_image_use_symbolizer_debug_file (SpElfImage *self,
                                             SpSymbolizer *symbolizer,
                                             const SpModule *module);

/* Whether the file, or the debug file its symbols came from, has DWARF
 * (.debug_info): FALSE for a stripped file without its debug file. */
gboolean sp_elf_image_has_debug_info (SpElfImage *self);

/* e_machine (EM_X86_64, ...). */
guint sp_elf_image_get_machine (SpElfImage *self);

/* Between file offsets (the spool's coordinates) and ELF virtual
 * addresses, through the PT_LOAD program headers; FALSE outside them. */
gboolean sp_elf_image_offset_to_vaddr (SpElfImage *self,
                                       guint64 offset,
                                       guint64 *vaddr);
gboolean sp_elf_image_vaddr_to_offset (SpElfImage *self,
                                       guint64 vaddr,
                                       guint64 *offset);

/* The function symbol holding vaddr; FALSE when none does. */
gboolean sp_elf_image_symbol_at (SpElfImage *self,
                                 guint64 vaddr,
                                 SpElfSymbol *symbol);

/* Where the function holding vaddr starts and ends by the file's unwind
 * tables (sp-eh-frame-ranges.h), for a stripped file's: FALSE when they
 * do not say. */
gboolean sp_elf_image_unwind_range_at (SpElfImage *self,
                                       guint64 vaddr,
                                       guint64 *start,
                                       guint64 *end);

/* The function symbol named name (demangled, or as linked); FALSE when
 * none is. */
gboolean sp_elf_image_find_symbol (SpElfImage *self,
                                   const char *name,
                                   SpElfSymbol *symbol);

/* The file's bytes loaded at [vaddr, vaddr + size); NULL when they are
 * not all in the file. Valid as long as the image. */
const guint8 *sp_elf_image_get_bytes (SpElfImage *self,
                                      guint64 vaddr,
                                      guint64 size);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpElfImage, sp_elf_image_free)

G_END_DECLS
