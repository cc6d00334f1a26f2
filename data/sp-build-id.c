/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-build-id.c: an ELF file's GNU build-id. */
#include "sp-build-id.h"

#include <elfutils/libdwelf.h>
#include <gio/gio.h>
#include <unistd.h>

#include "sp-file-private.h"

char *
sp_build_id_to_hex (const guint8 *bits,
                    gsize len)
{
  GString *hex = g_string_sized_new (len * 2);

  for (gsize i = 0; i < len; i++)
    g_string_append_printf (hex, "%02x", bits[i]);
  return g_string_free (hex, FALSE);
}

char *
sp_build_id_of_file (const char *path,
                     GError **error)
{
  int fd = _sp_file_open_regular (path, error);
  Elf *elf;
  const void *bits = NULL;
  ssize_t len;
  char *hex;

  if (fd < 0)
    return NULL;
  elf_version (EV_CURRENT);
  elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  len = elf != NULL ? dwelf_elf_gnu_build_id (elf, &bits) : -1;
  /* bits points into the file's mapping. */
  hex = len > 0 ? sp_build_id_to_hex (bits, (gsize) len) : NULL;
  if (hex == NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s has no build-id (%s)", path,
                 elf == NULL ? "not an ELF file" : "no .note.gnu.build-id");
  if (elf != NULL)
    elf_end (elf);
  close (fd);
  return hex;
}
