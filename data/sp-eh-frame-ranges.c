/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-eh-frame-ranges.c: functions by the unwind tables
 * (sp-eh-frame-ranges.h). */
#include "sp-eh-frame-ranges.h"

#include <string.h>

struct _SpEhFrameRanges
{
  Elf           *elf;
  size_t         n_headers;
  const guint8  *table;         /* (start, FDE) pairs of 4-byte offsets from hdr_vaddr */
  guint64        n_entries;
  guint64        hdr_vaddr;
  const guint8  *fdes;          /* the PT_LOAD segment with the last FDE read */
  guint64        fdes_vaddr;
  size_t         fdes_size;
};

/* The bytes of an encoded pointer or count (DW_EH_PE_* low bits), 0 for
 * one this reader does not take. */
static guint
encoded_size (guint8 encoding)
{
  switch (encoding & 0x0f)
    {
    case 0x02: case 0x0a: return 2;  /* udata2, sdata2 */
    case 0x03: case 0x0b: return 4;  /* udata4, sdata4 */
    case 0x04: case 0x0c: return 8;  /* udata8, sdata8 */
    default: return 0;
    }
}

SpEhFrameRanges *
_sp_eh_frame_ranges_new (Elf *elf)
{
  SpEhFrameRanges *self = g_new0 (SpEhFrameRanges, 1);

  self->elf = elf;
  if (elf == NULL || elf_getphdrnum (elf, &self->n_headers) != 0)
    return self;
  for (size_t i = 0; i < self->n_headers; i++)
    {
      GElf_Phdr phdr;
      Elf_Data *data;
      const guint8 *p;
      guint ptr_size, count_size;
      guint64 count = 0, room;

      if (gelf_getphdr (elf, (int) i, &phdr) == NULL || phdr.p_type != PT_GNU_EH_FRAME
          || (data = elf_getdata_rawchunk (elf, (int64_t) phdr.p_offset, phdr.p_filesz, ELF_T_BYTE)) == NULL
          || data->d_size < 4)
        continue;
      p = data->d_buf;
      ptr_size = encoded_size (p[1]);
      count_size = encoded_size (p[2]);
      /* Version 1, a table of DW_EH_PE_datarel | DW_EH_PE_sdata4 pairs. */
      if (p[0] != 1 || p[3] != 0x3b || ptr_size == 0 || (count_size != 4 && count_size != 8)
          || data->d_size < 4 + ptr_size + count_size)
        break;
      memcpy (&count, p + 4 + ptr_size, count_size);  /* little-endian hosts */
      room = (data->d_size - 4 - ptr_size - count_size) / 8;
      self->table = p + 4 + ptr_size + count_size;
      self->n_entries = MIN (count, room);
      self->hdr_vaddr = phdr.p_vaddr;
      break;
    }
  return self;
}

void
_sp_eh_frame_ranges_free (SpEhFrameRanges *self)
{
  g_free (self);
}

static guint64
entry (const SpEhFrameRanges *self,
       guint64 i,
       guint field)
{
  gint32 relative;

  memcpy (&relative, self->table + i * 8 + field * 4, 4);
  return self->hdr_vaddr + (guint64) (gint64) relative;
}

/* The bytes of the PT_LOAD segment at vaddr, kept for the next FDE. */
static gboolean
load_fdes (SpEhFrameRanges *self,
           guint64 vaddr)
{
  if (self->fdes != NULL && vaddr >= self->fdes_vaddr && vaddr - self->fdes_vaddr < self->fdes_size)
    return TRUE;
  for (size_t i = 0; i < self->n_headers; i++)
    {
      GElf_Phdr phdr;
      Elf_Data *data;

      if (gelf_getphdr (self->elf, (int) i, &phdr) != NULL && phdr.p_type == PT_LOAD && vaddr >= phdr.p_vaddr
          && vaddr - phdr.p_vaddr < phdr.p_filesz
          && (data = elf_getdata_rawchunk (self->elf, (int64_t) phdr.p_offset, phdr.p_filesz, ELF_T_BYTE)) != NULL)
        {
          self->fdes = data->d_buf;
          self->fdes_vaddr = phdr.p_vaddr;
          self->fdes_size = data->d_size;
          return TRUE;
        }
    }
  return FALSE;
}

/* The end of the function an FDE at fde (ELF address) covers from start:
 * its pc_begin and pc_range as GCC, Clang and the linkers encode them (a
 * 4-byte pc-relative start, a 4-byte length); 0 when it is encoded
 * otherwise or out of the file. */
static guint64
fde_end (SpEhFrameRanges *self,
         guint64 fde,
         guint64 start)
{
  guint64 at;
  guint32 length, range;
  gint32 relative;

  if (!load_fdes (self, fde))
    return 0;
  at = fde - self->fdes_vaddr;
  if (self->fdes_size - at < 16)
    return 0;
  memcpy (&length, self->fdes + at, 4);
  memcpy (&relative, self->fdes + at + 8, 4);
  memcpy (&range, self->fdes + at + 12, 4);
  if (length < 12 || length == 0xffffffff || fde + 8 + (guint64) (gint64) relative != start)
    return 0;
  return start + range;
}

gboolean
_sp_eh_frame_ranges_lookup (SpEhFrameRanges *self,
                            guint64 vaddr,
                            guint64 *start,
                            guint64 *end)
{
  guint64 lo = 0, hi = self->n_entries;

  if (hi == 0 || entry (self, 0, 0) > vaddr)
    return FALSE;
  while (hi - lo > 1)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (entry (self, mid, 0) <= vaddr)
        lo = mid;
      else
        hi = mid;
    }
  *start = entry (self, lo, 0);
  *end = fde_end (self, entry (self, lo, 1), *start);
  return TRUE;
}
