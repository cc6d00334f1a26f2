/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-module-files.c: each mapped file's build-id, time and size, read once. */
#include "sp-module-files.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp-array.h"

void
sp_module_files_init (SpModuleFiles *files)
{
  memset (files, 0, sizeof *files);
  sp_intern_table_init (&files->index, 2);
}

void
sp_module_files_clear (SpModuleFiles *files)
{
  for (size_t i = 0; i < files->index.count; i++)
    free (files->files[i].path);
  free (files->files);
  sp_intern_table_clear (&files->index);
  memset (files, 0, sizeof *files);
}

/* FNV-1a: two paths with one hash and one inode would share an entry (the
 * second then has no identity, which only costs its check). */
static uint64_t
hash_path (const char *path)
{
  uint64_t hash = 0xcbf29ce484222325ull;

  for (const unsigned char *p = (const unsigned char *) path; *p != '\0'; p++)
    hash = (hash ^ *p) * 0x100000001b3ull;
  return hash;
}

void
sp_module_files_note (SpModuleFiles *files,
                      const char *path,
                      uint64_t inode)
{
  uint64_t key[2] = { hash_path (path), inode };
  bool added = false;
  int64_t id;

  if (path[0] != '/' || strncmp (path, "/memfd:", 7) == 0 || strncmp (path, "//", 2) == 0)
    return;
  if (!sp_array_reserve ((void **) &files->files, &files->capacity, files->index.count + 1, sizeof (SpModuleFile)))
    return;
  id = sp_intern_table_intern (&files->index, key, &added);
  if (id < 0 || !added)
    return;
  files->files[id] = (SpModuleFile) { .path = strdup (path), .inode = inode };
}

/* The NT_GNU_BUILD_ID note among the notes of one section, as hex. */
static void
build_id_in (Elf_Data *data,
             char *hex)
{
  GElf_Nhdr note;
  size_t offset = 0, name_at, desc_at;

  while ((offset = gelf_getnote (data, offset, &note, &name_at, &desc_at)) > 0)
    {
      const unsigned char *bits = (const unsigned char *) data->d_buf + desc_at;

      if (note.n_type != NT_GNU_BUILD_ID || note.n_namesz != 4
          || memcmp ((const char *) data->d_buf + name_at, "GNU", 4) != 0 || note.n_descsz == 0
          || note.n_descsz > 64)
        continue;
      for (size_t i = 0; i < note.n_descsz; i++)
        {
          static const char digits[] = "0123456789abcdef";

          hex[2 * i] = digits[bits[i] >> 4];
          hex[2 * i + 1] = digits[bits[i] & 15];
        }
      hex[2 * note.n_descsz] = '\0';
      return;
    }
}

static void
read_build_id (int fd,
               char *hex)
{
  Elf *elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  Elf_Scn *section = NULL;

  hex[0] = '\0';
  while (elf != NULL && hex[0] == '\0' && (section = elf_nextscn (elf, section)) != NULL)
    {
      GElf_Shdr header;
      Elf_Data *data;

      if (gelf_getshdr (section, &header) != NULL && header.sh_type == SHT_NOTE
          && (data = elf_getdata (section, NULL)) != NULL)
        build_id_in (data, hex);
    }
  if (elf != NULL)
    elf_end (elf);
}

static void
read_file (SpModuleFile *file)
{
  struct stat st;
  int fd = open (file->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

  file->read = true;
  if (fd < 0)
    return;
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode) && (file->inode == 0 || (uint64_t) st.st_ino == file->inode))
    {
      file->found = true;
      file->mtime_ns = (uint64_t) st.st_mtim.tv_sec * 1000000000ull + (uint64_t) st.st_mtim.tv_nsec;
      file->size = (uint64_t) st.st_size;
      read_build_id (fd, file->build_id);
    }
  close (fd);
}

void
sp_module_files_read_new (SpModuleFiles *files)
{
  elf_version (EV_CURRENT);
  for (size_t i = 0; i < files->index.count; i++)
    if (!files->files[i].read)
      read_file (&files->files[i]);
}

size_t
sp_module_files_count (const SpModuleFiles *files)
{
  return files->index.count;
}
