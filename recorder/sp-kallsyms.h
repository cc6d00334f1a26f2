/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-kallsyms.h: kernel text symbols from /proc/kallsyms.
 *
 * Read once at the end of a recording, so the side file can carry a name
 * for every kernel address that was sampled (the recording then opens with
 * kernel names on another machine, or as a user who sees only zeros). The
 * file is kept as read; only addresses are parsed up front. */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint64_t address;
  uint32_t name_offset;   /* into text: "name" or "name\t[module]", to '\n' */
} SpKernelSymbol;

typedef struct {
  char           *text;
  size_t          text_len;
  SpKernelSymbol *symbols;   /* sorted by address */
  size_t          n_symbols;
} SpKallsyms;

/* False when the file cannot be read or shows only zero addresses (the
 * kernel hides them from this user). */
bool sp_kallsyms_load (SpKallsyms *kallsyms,
                       const char *path);

void sp_kallsyms_clear (SpKallsyms *kallsyms);

/* sp_kallsyms_load on a thread of its own, begun early by one who will
 * want the symbols at the end (the kernel formats /proc/kallsyms's 200k
 * lines for some 30 ms, which a conversion's second core can spend
 * instead of its first). */
typedef struct {
  const char *path;
  pthread_t   thread;
  bool        started;    /* the thread runs (or ran): joined at the end */
  bool        loaded;     /* its sp_kallsyms_load's answer */
  SpKallsyms  kallsyms;
} SpKallsymsLoad;

/* Begins reading path; without a thread, sp_kallsyms_load_end reads it. */
void sp_kallsyms_load_begin (SpKallsymsLoad *load,
                             const char *path);

/* Waits for the reading and moves its symbols into kallsyms (which is
 * then cleared by the caller); false as sp_kallsyms_load says. load may
 * have never begun (zeroed): path is read now. */
bool sp_kallsyms_load_end (SpKallsymsLoad *load,
                           const char *path,
                           SpKallsyms *kallsyms);

/* Waits for a reading that began and was not ended, and frees what it read. */
void sp_kallsyms_load_discard (SpKallsymsLoad *load);

/* The symbol containing address (the last one starting at or before it),
 * or -1. */
long sp_kallsyms_lookup (const SpKallsyms *kallsyms,
                         uint64_t address);

/* A symbol's name and module ("" for the kernel image), as lengths into
 * the text. */
void sp_kallsyms_get_name (const SpKallsyms *kallsyms,
                           size_t index,
                           const char **name,
                           size_t *name_len,
                           const char **module,
                           size_t *module_len);
