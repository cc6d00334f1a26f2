/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-eh-frame-ranges.h: where functions start and end by an ELF file's
 * unwind tables (.eh_frame_hdr's search table and the FDEs it points
 * at), which stripping keeps: the functions of a file without symbols
 * (data/ only). */
#pragma once

#include <gelf.h>
#include <glib.h>

G_BEGIN_DECLS

/* A function by the unwind tables: [start, end) in ELF addresses; end 0
 * when its FDE is encoded in a way this reader does not take. */
typedef struct {
  guint64 start;
  guint64 end;
} SpFunctionRange;

/* The file's functions, sorted by start; empty when it has no
 * .eh_frame_hdr search table this reader takes (PT_GNU_EH_FRAME, 4-byte
 * offsets from the header, as GNU ld, LLD and mold write it). */
GArray *_sp_eh_frame_ranges_read (Elf *elf);

/* The function that starts last at or before vaddr, or NULL: vaddr is in
 * it when vaddr < end (an end of 0 says nothing). */
const SpFunctionRange *_sp_eh_frame_ranges_lookup (GArray *ranges,
                                                   guint64 vaddr);

G_END_DECLS
