/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-eh-frame-ranges.h: where functions start and end by an ELF file's
 * unwind tables (.eh_frame_hdr's search table and the FDEs it points
 * at), which stripping keeps: the functions of a file without symbols
 * (data/ only). Nothing is read ahead: a lookup is a binary search of
 * the table where libelf has the file, and one FDE. */
#pragma once

#include <gelf.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _SpEhFrameRanges SpEhFrameRanges;

/* The tables of elf, which must outlive them; never NULL (a file without
 * a .eh_frame_hdr search table this reader takes, PT_GNU_EH_FRAME with
 * 4-byte offsets from the header as GNU ld, LLD and mold write it, has
 * no functions). */
SpEhFrameRanges *_sp_eh_frame_ranges_new (Elf *elf);
void             _sp_eh_frame_ranges_free (SpEhFrameRanges *ranges);

/* The function that starts last at or before vaddr (an ELF address):
 * FALSE when none does. vaddr is in it when vaddr < *end; *end is 0 when
 * its FDE is encoded in a way this reader does not take (it says
 * nothing). */
gboolean _sp_eh_frame_ranges_lookup (SpEhFrameRanges *ranges,
                                     guint64 vaddr,
                                     guint64 *start,
                                     guint64 *end);

G_END_DECLS
