/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-disassembly.h: one place of an annotated function, instruction by
 * instruction, with its costs.
 *
 * The real function's bytes are read from its module file (its symbol's
 * st_value and st_size, placed by the program headers: sp-elf-image.h)
 * and decoded by Capstone (x86-64 only: another machine is refused with
 * a message that says so), in the AT&T syntax objdump -d and perf
 * annotate print. Each instruction gets the costs of the annotation's
 * addresses inside it (a call site's address is inside its call), its
 * source line (through the profile's symbolizer), and for a direct call
 * or jump its target and, for calls, the callee's name.
 *
 * Made by the thread that owns the profile; immutable after. */
#pragma once

#include <glib.h>

#include "sp-annotation.h"
#include "sp-profile.h"

G_BEGIN_DECLS

typedef struct {
  guint64     vaddr;         /* ELF virtual address, as objdump prints it */
  guint8      size;
  guint8      bytes[16];
  const char *text;          /* mnemonic and operands, as objdump writes them: "movq   %rdi,%rax",
                              * "call   1040 <memcpy@plt>" (Capstone's mnemonics: size suffixes) */
  guint64     target;        /* a direct call's or jump's target (vaddr), 0 for none */
  gboolean    is_call;
  const char *callee;        /* a call's target function, NULL when unknown */
  guint64     self;
  guint64     total;
  const char *file;          /* its source line: in the annotated function's */
  guint       line;          /* source where it is that function's code, else the innermost */
  guint       annotation_file; /* file's index in the annotation, or SP_ANNOTATION_NONE */
} SpInstruction;

typedef struct _SpDisassembly SpDisassembly;

/* NULL and error when the module cannot be read, the function has no
 * symbol with a size there, or its machine is not x86-64. */
SpDisassembly *sp_disassembly_new (SpProfile *profile,
                                   SpAnnotation *annotation,
                                   guint place,
                                   GError **error);
void sp_disassembly_free (SpDisassembly *self);

/* The real function disassembled, and its symbol's address and size. */
const char *sp_disassembly_get_function (SpDisassembly *self);
guint64 sp_disassembly_get_start (SpDisassembly *self);
guint64 sp_disassembly_get_size (SpDisassembly *self);
/* What the reader should know of the decoding, or NULL: bytes Capstone
 * could not decode (rows ".byte 0x62", without detail) and, where sampled
 * addresses lie past the last decoded byte, where decoding stopped. */
const char *sp_disassembly_get_note (SpDisassembly *self);

const SpInstruction *sp_disassembly_get_instructions (SpDisassembly *self,
                                                      guint *n_instructions);
/* The instruction holding vaddr, or SP_ANNOTATION_NONE. */
guint sp_disassembly_find (SpDisassembly *self,
                           guint64 vaddr);
/* The instructions whose line is line of the annotation's file (indexes
 * appended to rows). */
void sp_disassembly_get_line_instructions (SpDisassembly *self,
                                           guint annotation_file,
                                           guint line,
                                           GArray *rows);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpDisassembly, sp_disassembly_free)

G_END_DECLS
