/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-elf-image.h: a module file's code as the disassembler needs it.
 *
 * The symbolizer (sp-symbolizer.h) turns addresses into names and lines;
 * the source and disassembly views also need what it keeps private: the
 * program headers (to go between the spool's file offsets and the ELF
 * virtual addresses objdump prints), the bytes of a function, and its
 * symbol's start and size. This reads them from the file alone (.symtab,
 * else .dynsym), opened as a regular file only (sp-file-private.h). */
#pragma once

#include <glib.h>

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
