/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-machine.c: what of this machine a conversion may use:
 * its kernel's symbols when it runs the kernel that recorded the file,
 * and its module files, checked against the build-ids perf noted. */
#include "sp-perf-data-machine.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The kernel's build-id from /sys/kernel/notes (ELF notes), or "". */
static void
running_kernel_build_id (char *out,
                         size_t size)
{
  uint8_t notes[4096];
  int fd = open ("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
  ssize_t len = fd >= 0 ? read (fd, notes, sizeof notes) : -1;
  size_t at = 0;

  out[0] = '\0';
  if (fd >= 0)
    close (fd);
  while (len > 0 && at + 12 <= (size_t) len)
    {
      uint32_t namesz, descsz, type;
      size_t desc_at;

      memcpy (&namesz, notes + at, 4);
      memcpy (&descsz, notes + at + 4, 4);
      memcpy (&type, notes + at + 8, 4);
      desc_at = at + 12 + ((namesz + 3u) & ~3u);
      if (desc_at + descsz > (size_t) len)
        return;
      if (type == 3 && namesz == 4 && memcmp (notes + at + 12, "GNU", 4) == 0 && descsz * 2 < size)
        {
          for (uint32_t i = 0; i < descsz; i++)
            snprintf (out + 2 * i, 3, "%02x", notes[desc_at + i]);
          return;
        }
      at = desc_at + ((descsz + 3u) & ~3u);
    }
}

/* Where the running kernel's _text is (/proc/kallsyms), 0: unknown or
 * hidden. */
static uint64_t
running_kernel_text (void)
{
  static uint64_t text;
  static bool looked;
  FILE *file;
  char line[512];

  if (looked)
    return text;
  looked = true;
  file = fopen ("/proc/kallsyms", "re");
  while (file != NULL && fgets (line, sizeof line, file) != NULL)
    {
      char kind, name[256];
      unsigned long long address;

      if (sscanf (line, "%llx %c %255s", &address, &kind, name) == 3 && strcmp (name, "_text") == 0)
        {
          text = address;
          break;
        }
    }
  if (file != NULL)
    fclose (file);
  return text;
}

/* Whether this machine runs the release of the kernel that recorded it. */
static bool
runs_release_of (const SpPerfData *data)
{
  struct utsname uts;

  return data->features.osrelease != NULL && uname (&uts) == 0 && strcmp (data->features.osrelease, uts.release) == 0;
}

void
sp_perf_data_begin_kernel_symbols (const SpPerfData *data,
                                   SpKallsymsLoad *load)
{
  if (runs_release_of (data))
    sp_kallsyms_load_begin (load, "/proc/kallsyms");
}

/* This machine's kallsyms when it runs the kernel that recorded the file;
 * otherwise kernel frames stay unnamed, and the side file says why. */
static bool
kernel_symbols (const SpPerfData *data,
                bool sampled,
                SpKallsymsLoad *load,
                SpKallsyms *kallsyms,
                char *note,
                size_t note_size)
{
  const SpPerfDataFeatures *f = &data->features;
  struct utsname uts;
  char running[129];

  if (!sampled)
    snprintf (note, note_size, "none: no kernel frames were sampled");
  else if (f->osrelease == NULL || uname (&uts) != 0)
    snprintf (note, note_size, "unnamed: the file does not say which kernel recorded it");
  else if (strcmp (f->osrelease, uts.release) != 0)
    snprintf (note, note_size, "unnamed: recorded on kernel %s, this machine runs %s",
              f->osrelease, uts.release);
  else
    {
      running_kernel_build_id (running, sizeof running);
      for (size_t i = 0; i < f->n_build_ids; i++)
        if (f->build_ids[i].kernel && running[0] != '\0' && strcmp (f->build_ids[i].build_id, running) != 0)
          {
            snprintf (note, note_size, "unnamed: the kernel's build-id differs from the one "
                      "recorded (same release %s, another build)", uts.release);
            return false;
          }
      if (data->kernel_text != 0 && running_kernel_text () != 0 && running_kernel_text () != data->kernel_text)
        {
          snprintf (note, note_size, "unnamed: recorded in another boot of this kernel (it lay elsewhere: "
                    "KASLR), whose addresses this machine's /proc/kallsyms does not give");
          return false;
        }
      if (sp_kallsyms_load_end (load, "/proc/kallsyms", kallsyms))
        {
          snprintf (note, note_size, "this machine's /proc/kallsyms (the kernel that recorded it)");
          return true;
        }
      snprintf (note, note_size, "unnamed: /proc/kallsyms hides its addresses from this user");
    }
  return false;
}

bool
sp_perf_data_kernel_symbols (const SpPerfData *data,
                             bool sampled,
                             SpKallsymsLoad *load,
                             SpKallsyms *kallsyms,
                             char *note,
                             size_t note_size)
{
  bool named = kernel_symbols (data, sampled, load, kallsyms, note, note_size);

  /* Begun for nothing: the frames stay unnamed. */
  sp_kallsyms_load_discard (load);
  return named;
}

/* The build-ids perf noted win over the files on this machine: a file
 * rebuilt since the recording is then refused by the viewer, as a live
 * recording's would be. */
uint64_t
sp_perf_data_check_module_files (const SpPerfData *data,
                                 SpModuleFiles *files)
{
  uint64_t changed = 0;

  sp_module_files_read_new (files);
  for (size_t i = 0; i < sp_module_files_count (files); i++)
    {
      SpModuleFile *file = &files->files[i];
      const char *recorded = file->path != NULL ? sp_perf_data_build_id_of (data, file->path) : NULL;
      struct stat st;

      /* Another file at the path now (a new inode: replaced, not
       * rewritten): the viewer refuses it by inode; say so here too. */
      if (!file->found && file->path != NULL && file->inode != 0 && stat (file->path, &st) == 0
          && S_ISREG (st.st_mode) && (uint64_t) st.st_ino != file->inode)
        {
          if (changed++ < 5)
            fprintf (stderr, "stackpulse-record: warning: %s is not the file recorded (another file is there now): "
                     "its functions will not be named\n", file->path);
          continue;
        }
      if (recorded == NULL || !file->found || strcmp (recorded, file->build_id) == 0)
        continue;
      if (changed++ < 5)
        fprintf (stderr, "stackpulse-record: warning: %s is not the file recorded (build-id %.12s then, %.12s now): "
                 "its functions will not be named\n", file->path, recorded,
                 file->build_id[0] ? file->build_id : "none");
      snprintf (file->build_id, sizeof file->build_id, "%s", recorded);
    }
  return changed;
}
