/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bench-real-modules.c: the synthetic system's modules as real files.
 *
 * bench-data's spool must make the symbolizer do what it does on a real
 * recording: open each module file (checking its inode), index its ELF
 * symbols, find its debug file and walk DWARF where there is one. So every
 * user module is given the real file's path and inode and the file offset
 * and length of its executable PT_LOAD segment, as the kernel would report
 * the mapping (page-aligned). A module this machine lacks gets a stand-in
 * of its kind: another large executable, at worst this program. */
#include "bench-data.h"

#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PAGE_MASK UINT64_C (0xfff)

/* Executables of the synthetic system, and what may stand for them. */
static const struct {
  const char *path;
  const char *stand_ins[4];
} stand_ins[] = {
  { "/usr/bin/gtk4-demo", { "/usr/bin/gtk4-widget-factory", "/usr/bin/gdb", "/usr/bin/perf", NULL } },
  { "/usr/local/bin/spd-server", { "/usr/bin/perf", "/usr/bin/gdb", NULL } },
  { "/usr/libexec/gcc/x86_64-linux-gnu/12/cc1",
    { "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", "/usr/bin/gdb", NULL } },
};

/* The executable segment of the ELF file at fd: page-aligned offset and
 * length, as /proc/PID/maps would show the mapping. */
static bool
text_segment (int fd,
              uint64_t *offset,
              uint64_t *size)
{
  Elf *elf = elf_begin (fd, ELF_C_READ_MMAP, NULL);
  size_t n = 0;
  bool found = false;

  if (elf == NULL || elf_getphdrnum (elf, &n) != 0)
    {
      if (elf != NULL)
        elf_end (elf);
      return false;
    }
  for (size_t i = 0; i < n && !found; i++)
    {
      GElf_Phdr mem;
      GElf_Phdr *phdr = gelf_getphdr (elf, (int) i, &mem);

      if (phdr == NULL || phdr->p_type != PT_LOAD || !(phdr->p_flags & PF_X) || phdr->p_filesz == 0)
        continue;
      *offset = phdr->p_offset & ~PAGE_MASK;
      *size = ((phdr->p_offset + phdr->p_filesz + PAGE_MASK) & ~PAGE_MASK) - *offset;
      found = true;
    }
  elf_end (elf);
  return found;
}

/* Fills file from the ELF file at path, if it is one with code. */
static bool
describe_file (const char *path,
               BenchModuleFile *file)
{
  char real[PATH_MAX];
  struct stat st;
  int fd;
  bool ok;

  if (realpath (path, real) == NULL || stat (real, &st) != 0)
    return false;
  fd = open (real, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  ok = text_segment (fd, &file->file_offset, &file->size);
  close (fd);
  if (!ok)
    return false;
  file->inode = (uint64_t) st.st_ino;
  file->path = strdup (real);
  return file->path != NULL;
}

/* Each module once in the log, however many processes map it. */
static bool
first_time (const char *path)
{
  static const char *seen[64];
  static size_t n_seen;

  for (size_t i = 0; i < n_seen; i++)
    if (strcmp (seen[i], path) == 0)
      return false;
  if (n_seen < sizeof seen / sizeof seen[0])
    seen[n_seen++] = path;
  return true;
}

bool
bench_real_module (const char *path,
                   BenchModuleFile *file,
                   void *user_data)
{
  FILE *log = user_data;
  bool ok;

  elf_version (EV_CURRENT);
  ok = describe_file (path, file);
  for (size_t i = 0; !ok && i < sizeof stand_ins / sizeof stand_ins[0]; i++)
    {
      if (strcmp (stand_ins[i].path, path) != 0)
        continue;
      for (size_t j = 0; !ok && stand_ins[i].stand_ins[j] != NULL; j++)
        ok = describe_file (stand_ins[i].stand_ins[j], file);
      if (!ok)
        ok = describe_file ("/proc/self/exe", file);
    }
  if (log != NULL && first_time (path))
    {
      if (ok)
        fprintf (log, "  %-44s -> %s (inode %llu, text at 0x%llx, %.1f MB)\n", path, file->path,
                 (unsigned long long) file->inode, (unsigned long long) file->file_offset,
                 (double) file->size / 1e6);
      else
        fprintf (log, "  %-44s -> (not on this machine: kept made up)\n", path);
    }
  return ok;
}
