/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-instructions-private.h: one place's instructions with the
 * annotation's costs on them, for sp-source-annotation.c (the adapter
 * between the annotation, the disassembler and the Source page). */
#pragma once

#include "sp-source-annotation.h"

G_BEGIN_DECLS

/* In the worker: the instructions (SpSourceInstruction, by address) of
 * the place's function, each with the costs of the annotation's
 * addresses inside it (a call site's return address less one is inside
 * its call), its line in the function's own file, and a call's target.
 * Where the function cannot be disassembled, the sampled addresses alone
 * (without text), and *problem says why; else *problem is the
 * disassembly's note (sp_disassembly_get_note) or NULL. The rows' strings go into
 * strings. */
GArray *_sp_source_instructions_new (SpProfile *profile,
                                     SpAnnotation *annotation,
                                     guint place,
                                     GStringChunk *strings,
                                     char **problem);

G_END_DECLS
