/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-module-files.h: what each mapped file was when it was recorded.
 *
 * A spool names a module by path and inode, but a program rebuilt in
 * place (gcc and ld write over the old file: same path, same inode) or a
 * package upgrade that writes files in place keeps both, and the viewer
 * would name the new file's functions for the old file's addresses. So
 * the recorder notes each file-backed module once and reads, once, its
 * GNU build-id, modification time and size; the side file carries them
 * ([module-file N], docs/SIDE-FILE.md) and the viewer refuses a file that
 * no longer matches (data/sp-symbolizer's module check). */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "sp-intern-table.h"

typedef struct {
  char     *path;
  uint64_t  inode;          /* as recorded (0: unknown) */
  bool      read;           /* what follows was looked at */
  bool      found;          /* the file was there, a regular file with that inode */
  char      build_id[129];  /* lower-case hex, "" when it has none */
  uint64_t  mtime_ns;
  uint64_t  size;
} SpModuleFile;

typedef struct {
  SpInternTable index;      /* (hash of path, inode) -> files[] */
  SpModuleFile *files;
  size_t        capacity;
} SpModuleFiles;

void sp_module_files_init (SpModuleFiles *files);

void sp_module_files_clear (SpModuleFiles *files);

/* Notes a mapped file (cheap: once per path and inode). */
void sp_module_files_note (SpModuleFiles *files,
                           const char *path,
                           uint64_t inode);

/* Reads what it has not read yet of the files noted: never following a
 * symbolic link, never waiting on a FIFO, only a regular file whose inode
 * is the one recorded. */
void sp_module_files_read_new (SpModuleFiles *files);

size_t sp_module_files_count (const SpModuleFiles *files);
