/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-build-id.c: an ELF file's GNU build-id, read from its notes. */
#include "sp-build-id.h"

#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

/* The NT_GNU_BUILD_ID note of one note section, as hex; NULL without. */
static char *
build_id_in (Elf_Data *data)
{
  GElf_Nhdr note;
  size_t offset = 0, name_at, desc_at;

  while ((offset = gelf_getnote (data, offset, &note, &name_at, &desc_at)) > 0)
    {
      const char *name = (const char *) data->d_buf + name_at;

      if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && memcmp (name, "GNU", 4) == 0
          && note.n_descsz > 0 && note.n_descsz <= 64)
        {
          const guint8 *bits = (const guint8 *) data->d_buf + desc_at;
          GString *hex = g_string_sized_new (note.n_descsz * 2);

          for (guint i = 0; i < note.n_descsz; i++)
            g_string_append_printf (hex, "%02x", bits[i]);
          return g_string_free (hex, FALSE);
        }
    }
  return NULL;
}

char *
sp_build_id_of_file (const char *path)
{
  char *build_id = NULL;
  Elf_Scn *section = NULL;
  Elf *elf;
  int fd;

  elf_version (EV_CURRENT);
  fd = open (path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return NULL;
  elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  while (elf != NULL && build_id == NULL && (section = elf_nextscn (elf, section)) != NULL)
    {
      GElf_Shdr header;
      Elf_Data *data;

      if (gelf_getshdr (section, &header) != NULL && header.sh_type == SHT_NOTE
          && (data = elf_getdata (section, NULL)) != NULL)
        build_id = build_id_in (data);
    }
  if (elf != NULL)
    elf_end (elf);
  close (fd);
  return build_id;
}
