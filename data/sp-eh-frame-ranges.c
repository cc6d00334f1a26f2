/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-eh-frame-ranges.c: functions by the unwind tables
 * (sp-eh-frame-ranges.h). */
#include "sp-eh-frame-ranges.h"

#include <string.h>

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

/* The bytes of the PT_LOAD segment at vaddr, and its address. */
static const guint8 *
segment_bytes (Elf *elf,
               size_t n_headers,
               guint64 vaddr,
               guint64 *segment_vaddr,
               size_t *size)
{
  for (size_t i = 0; i < n_headers; i++)
    {
      GElf_Phdr phdr;
      Elf_Data *data;

      if (gelf_getphdr (elf, (int) i, &phdr) != NULL && phdr.p_type == PT_LOAD && vaddr >= phdr.p_vaddr
          && vaddr - phdr.p_vaddr < phdr.p_filesz
          && (data = elf_getdata_rawchunk (elf, (int64_t) phdr.p_offset, phdr.p_filesz, ELF_T_BYTE)) != NULL)
        {
          *segment_vaddr = phdr.p_vaddr;
          *size = data->d_size;
          return data->d_buf;
        }
    }
  return NULL;
}

/* The end of the function an FDE at fde (ELF address) covers from start:
 * its pc_begin and pc_range as GCC, Clang and the linkers encode them (a
 * 4-byte pc-relative start, a 4-byte length); 0 when the FDE is encoded
 * otherwise or out of the bytes (then libdw decides, in
 * _sp_elf_module_function_start). */
static guint64
fde_end (const guint8 *bytes,
         guint64 bytes_vaddr,
         size_t size,
         guint64 fde,
         guint64 start)
{
  guint64 at = fde - bytes_vaddr;
  guint32 length, range;
  gint32 relative;

  if (fde < bytes_vaddr || at > size || size - at < 16)
    return 0;
  memcpy (&length, bytes + at, 4);
  memcpy (&relative, bytes + at + 8, 4);
  memcpy (&range, bytes + at + 12, 4);
  if (length < 12 || length == 0xffffffff || fde + 8 + (guint64) (gint64) relative != start)
    return 0;
  return start + range;
}

/* The table is sorted as the linkers write it (DW_EH_PE_datarel |
 * DW_EH_PE_sdata4 entries); each FDE gives its function's length. */
GArray *
_sp_eh_frame_ranges_read (Elf *elf)
{
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (SpFunctionRange));
  const guint8 *eh_frame = NULL;
  guint64 eh_frame_vaddr = 0;
  size_t n_headers = 0, eh_frame_size = 0;

  if (elf == NULL || elf_getphdrnum (elf, &n_headers) != 0)
    return ranges;
  for (size_t i = 0; i < n_headers; i++)
    {
      GElf_Phdr phdr;
      Elf_Data *data;
      const guint8 *p, *end;
      guint ptr_size, count_size;
      guint64 count = 0;

      if (gelf_getphdr (elf, (int) i, &phdr) == NULL || phdr.p_type != PT_GNU_EH_FRAME
          || (data = elf_getdata_rawchunk (elf, (int64_t) phdr.p_offset, phdr.p_filesz, ELF_T_BYTE)) == NULL
          || data->d_size < 4)
        continue;
      p = data->d_buf;
      end = p + data->d_size;
      ptr_size = encoded_size (p[1]);
      count_size = encoded_size (p[2]);
      if (p[0] != 1 || p[3] != 0x3b || ptr_size == 0 || (count_size != 4 && count_size != 8)
          || (size_t) (end - p) < 4 + ptr_size + count_size)
        break;
      memcpy (&count, p + 4 + ptr_size, count_size);  /* little-endian hosts */
      p += 4 + ptr_size + count_size;
      for (guint64 n = 0; n < count && end - p >= 8; n++, p += 8)
        {
          gint32 start_relative, fde_relative;
          SpFunctionRange range;
          guint64 fde;

          memcpy (&start_relative, p, 4);
          memcpy (&fde_relative, p + 4, 4);
          range.start = phdr.p_vaddr + (guint64) (gint64) start_relative;
          fde = phdr.p_vaddr + (guint64) (gint64) fde_relative;
          if (eh_frame == NULL || fde < eh_frame_vaddr || fde - eh_frame_vaddr >= eh_frame_size)
            eh_frame = segment_bytes (elf, n_headers, fde, &eh_frame_vaddr, &eh_frame_size);
          range.end = eh_frame != NULL ? fde_end (eh_frame, eh_frame_vaddr, eh_frame_size, fde, range.start) : 0;
          g_array_append_val (ranges, range);
        }
      break;
    }
  return ranges;
}

const SpFunctionRange *
_sp_eh_frame_ranges_lookup (GArray *ranges,
                            guint64 vaddr)
{
  const SpFunctionRange *r = (const SpFunctionRange *) (void *) ranges->data;
  guint lo = 0, hi = ranges->len;

  if (hi == 0 || r[0].start > vaddr)
    return NULL;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (r[mid].start <= vaddr)
        lo = mid;
      else
        hi = mid;
    }
  return &r[lo];
}
