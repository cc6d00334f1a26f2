/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-symbolizer.h: names, source files and lines for the spool's frames.
 *
 * The step between the raw frames of codec/ and everything that shows a
 * function: a user frame (module + file-offset address) goes through the
 * module's ELF symbol tables and DWARF (separate debug files included), a
 * kernel frame through the side file's [kernel-symbols] group or
 * /proc/kallsyms, a JIT frame through /tmp/perf-PID.map. Every module file
 * is opened and indexed once and every address resolved once; what could
 * not be done (a missing or changed file, no symbols, no debug info) is
 * collected as problems to show, and never guessed around.
 *
 * One thread at a time; no global state. */
#pragma once

#include <glib.h>

#include "sp-spool-format.h"

G_BEGIN_DECLS

typedef struct {
  const char *function;   /* demangled name, NULL when unknown */
  const char *file;       /* source file (as in DWARF), NULL when unknown */
  guint       line;       /* 0 when unknown */
  const char *decl_file;  /* where the function is defined (DW_AT_decl_file), NULL when unknown */
  guint       decl_line;  /* its line there, 0 when unknown */
} SpSymbolFrame;         /* strings owned by the symbolizer, valid until it is freed */

typedef struct _SpSymbolizer SpSymbolizer;

/* What a problem is about, for a window to sort the serious ones (frames
 * left as addresses) from the common ones (no source lines). */
typedef enum {
  SP_SYMBOL_PROBLEM_NOT_FOUND,      /* the file is gone: its frames stay addresses */
  SP_SYMBOL_PROBLEM_CHANGED,        /* another file at the path since the recording: likewise */
  SP_SYMBOL_PROBLEM_UNREADABLE,     /* no permission, not ELF, a bad perf map: likewise */
  SP_SYMBOL_PROBLEM_NO_SYMBOLS,     /* stripped (or no kernel symbols): likewise */
  SP_SYMBOL_PROBLEM_NO_DEBUG_INFO,  /* names, but no source lines or inline frames */
} SpSymbolProblemKind;

typedef struct {
  SpSymbolProblemKind  kind;
  char                *file;     /* the module's path, "kernel", or the perf map's */
  char                *message;  /* the sentence, as sp_symbolizer_get_problems has it */
} SpSymbolProblem;

SpSymbolizer *sp_symbolizer_new (void);
void          sp_symbolizer_free (SpSymbolizer *self);

/* Where /tmp/perf-PID.map files are looked for (default "/tmp"), and which
 * file stands for /proc/kallsyms: for tests. Set them before resolving. */
void sp_symbolizer_set_perf_map_dir (SpSymbolizer *self,
                                     const char *dir);
void sp_symbolizer_set_kallsyms_path (SpSymbolizer *self,
                                      const char *path);

/* Kernel symbols from a side file's [kernel-symbols] group; with none (or
 * meta == NULL), from /proc/kallsyms when it shows addresses. Replaces any
 * loaded before. Without a call, the first kernel frame loads
 * /proc/kallsyms. */
void sp_symbolizer_load_kernel_symbols (SpSymbolizer *self,
                                        GKeyFile *meta);

/* Resolves a user frame: module is the spool's module record, rel_ip in
 * its file-offset coordinates. is_return_address: look up rel_ip - 1
 * (frame-pointer return addresses point after the call).
 *
 * Fills up to max_frames (> 0) entries, innermost (inlined) function
 * first, outermost (the real function) last; returns how many: at least
 * 1, an unresolved frame gives one entry with function NULL. When the
 * inline chain is longer than max_frames, the innermost max_frames - 1
 * and the real function are kept.
 *
 * A kernel module (is_kernel) or a path that names no file ("[vdso]",
 * "//anon", "/memfd:…") gives an unresolved frame and no problem: those
 * frames belong to sp_symbolizer_resolve_kernel and
 * sp_symbolizer_resolve_perf_map. */
guint sp_symbolizer_resolve (SpSymbolizer *self,
                             const SpModule *module,
                             guint64 rel_ip,
                             gboolean is_return_address,
                             SpSymbolFrame *frames,
                             guint max_frames);

/* A kernel frame by absolute address. */
guint sp_symbolizer_resolve_kernel (SpSymbolizer *self,
                                    guint64 abs_ip,
                                    SpSymbolFrame *frames,
                                    guint max_frames);

/* A JIT/anonymous frame: /tmp/perf-PID.map (lines "START SIZE name", hex),
 * read once per pid. */
guint sp_symbolizer_resolve_perf_map (SpSymbolizer *self,
                                      gint32 pid,
                                      guint64 abs_ip,
                                      SpSymbolFrame *frames,
                                      guint max_frames);

/* Problems found so far, each once, as sentences to show (char *):
 * "/usr/lib/libfoo.so: no symbols",
 * "/usr/bin/x changed since the recording (inode 12 != 34)" (recorded,
 * then on disk), "/opt/gone.so: file not found",
 * "/usr/lib/libbar.so: no debug info (install its -dbgsym package for
 * source lines)". */
/* What the recorder wrote of each module file (a side file's
 * [module-file N] groups: build-id, time, size); a file at a module's path
 * that is no longer that file is refused (SP_SYMBOL_PROBLEM_CHANGED, its
 * frames stay addresses) even where its inode is the same. Before the
 * first lookup; again when the side file is read again. */
void sp_symbolizer_load_module_files (SpSymbolizer *self,
                                      GKeyFile *meta);

/* With FALSE, modules are read for their symbol tables only: no source
 * lines and no inline frames, and no debug sections to decompress. Set it
 * before the first lookup. */
void sp_symbolizer_set_dwarf (SpSymbolizer *self,
                              gboolean use_dwarf);

const GPtrArray *sp_symbolizer_get_problems (SpSymbolizer *self);

/* The same problems with their kind and file (SpSymbolProblem, in the
 * same order; owned by the symbolizer). */
const GArray *sp_symbolizer_get_problem_details (SpSymbolizer *self);

/* A copy of problems (an array of SpSymbolProblem) that owns its strings
 * and frees them with the array: for another thread to keep. */
GArray *sp_symbol_problems_copy (const GArray *problems);

/* A source file as DWARF names it (file: an SpSymbolFrame's) made
 * absolute: a relative name is relative to the compilation directory of
 * the unit holding vaddr (the module's ELF virtual address), and ".."
 * is folded away. file itself when it is absolute or nothing is known;
 * the result is owned by the symbolizer. */
const char *sp_symbolizer_source_path (SpSymbolizer *self,
                                       const SpModule *module,
                                       guint64 vaddr,
                                       const char *file);

/* The separate debug file the module's symbols and DWARF come from (found
 * by sp-debug-file.c: on this machine, or in debuginfod's cache as the
 * symbolizer's debuginfod mode allows), NULL when the module itself has
 * them or none was found; owned by the symbolizer. For the disassembly
 * of a stripped module, whose function bounds are only there. */
const char *sp_symbolizer_get_debug_file (SpSymbolizer *self,
                                          const SpModule *module);

/* ---- The persistent symbol cache (docs/SYMBOL-CACHE.md) --------------- */

/* What each module's addresses resolved to is kept in
 * $XDG_CACHE_HOME/stackpulse/symbols/ (on by default; off where
 * STACKPULSE_SYMBOL_CACHE=0), so that opening a recording of the same
 * files again reads no DWARF for the addresses known. With use FALSE,
 * none; cache_home: the folder to keep it under instead of
 * $XDG_CACHE_HOME (NULL: that one). Before the first lookup. */
void sp_symbolizer_set_cache (SpSymbolizer *self,
                              gboolean use,
                              const char *cache_home);

/* Where the function around rel_ip starts (in rel_ip's coordinates: the
 * file offset in module), by the module's unwind tables (.eh_frame),
 * which a stripped file keeps: its addresses without a name are grouped
 * by function with it. FALSE when the tables have no entry there (or the
 * file is no ELF file, or is gone). */
gboolean sp_symbolizer_function_start (SpSymbolizer *self,
                                       const SpModule *module,
                                       guint64 rel_ip,
                                       gboolean is_return_address,
                                       guint64 *start);

/* Whether the symbol cache has a file for module (the module was
 * resolved before), or there is nothing to read for it (a module file
 * that is gone). Opens the module: its cache file, or its symbols. */
gboolean sp_symbolizer_module_is_cached (SpSymbolizer *self,
                                         const SpModule *module);

typedef struct {
  guint64 hits;             /* addresses answered by the cache */
  guint64 misses;           /* addresses resolved from the files */
  guint   modules_cached;   /* modules whose cache file was found */
  guint   modules_indexed;  /* modules whose segments and symbols were read */
  guint   dwarf_opened;     /* modules whose DWARF was opened (and found) */
  guint   files_written;    /* cache files written */
} SpSymbolCacheStats;

void sp_symbolizer_get_cache_stats (SpSymbolizer *self,
                                    SpSymbolCacheStats *stats);

/* Writes what was resolved from the files since the last save to the
 * cache (sp_symbolizer_free does too). */
void sp_symbolizer_save_cache (SpSymbolizer *self);

/* ---- debuginfod (sp-symbolizer-debuginfod.c, docs/DEBUGINFOD.md) ------- */

/* What a module whose ELF has a build-id, but no symbols or no debug info
 * and no separate debug file on this machine, gets from the debuginfod
 * servers DEBUGINFOD_URLS names. Without DEBUGINFOD_URLS, nothing. */
typedef enum {
  SP_SYMBOLIZER_DEBUGINFOD_OFF,     /* nothing: not even what an earlier fetch left in the cache */
  SP_SYMBOLIZER_DEBUGINFOD_CACHED,  /* the default: what earlier fetches left in libdebuginfod's cache;
                                     * the other modules are listed as missing, for a fetcher */
  SP_SYMBOLIZER_DEBUGINFOD_FETCH,   /* fetched when first needed, in the resolving thread (blocks it) */
} SpSymbolizerDebuginfod;

/* Progress of a fetch in SP_SYMBOLIZER_DEBUGINFOD_FETCH: the module's
 * path, its build-id (hexadecimal), bytes received and the size (0 while
 * unknown). Return FALSE to give that module up. A fetch that ends
 * without the file is said once more with received SP_SYMBOLIZER_FETCH_FAILED
 * (why is among the symbol problems, unless the servers simply have none). */
#define SP_SYMBOLIZER_FETCH_FAILED G_MAXUINT64
typedef gboolean (*SpSymbolizerFetchProgress) (const char *module,
                                               const char *build_id,
                                               guint64 received,
                                               guint64 total,
                                               gpointer user_data);

/* Set it before the first lookup; progress may be NULL. */
void sp_symbolizer_set_debuginfod (SpSymbolizer *self,
                                   SpSymbolizerDebuginfod mode,
                                   SpSymbolizerFetchProgress progress,
                                   gpointer user_data);

/* A module the servers may have the debug file of. */
typedef struct {
  char *module;    /* its path */
  char *build_id;  /* hexadecimal */
} SpMissingDebugInfo;

/* In SP_SYMBOLIZER_DEBUGINFOD_CACHED, the modules met so far whose debug
 * file is neither here nor in the cache (SpMissingDebugInfo, in the order
 * met, each build-id once; owned by the symbolizer). */
const GArray *sp_symbolizer_get_missing_debug_info (SpSymbolizer *self);

/* A copy that owns its strings: for another thread to keep. */
GArray *sp_missing_debug_info_copy (const GArray *missing);

/* Forgets every module file read and what its addresses resolved to (and
 * the problems and missing debug files found there), so that the next
 * lookups read them again: after a fetch has put their debug files in the
 * cache. Strings handed out stay valid. */
void sp_symbolizer_forget_modules (SpSymbolizer *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpSymbolizer, sp_symbolizer_free)

G_END_DECLS
