/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-symbolizer-private.h: the symbolizer's parts, for its own files only.
 *
 * sp-symbolizer.c holds the object, the caches and the problems;
 * sp-symbol-ranges.c the sorted address → name tables that ELF symbols,
 * kernel symbols and perf maps all are; sp-elf-module.c opens and indexes
 * one module file; sp-dwarf-scopes.c indexes a compile unit's functions
 * and sp-dwarf-frames.c turns an address into its chain of inlined
 * functions with source lines; sp-kernel-symbols.c and
 * sp-perf-map.c read the other two sources of names; sp-elf-module-cache.c
 * answers a module's addresses from the persistent symbol cache
 * (sp-symbol-cache.h) without indexing it. */
#pragma once

#include <elfutils/libdwfl.h>
#include <sys/stat.h>
#include <glib.h>

#include "sp-eh-frame-ranges.h"
#include "sp-recorded-files.h"
#include "sp-symbol-cache.h"
#include "sp-symbolizer.h"

G_BEGIN_DECLS

/* The longest inline chain kept for one address. */
#define SP_SYMBOLIZER_MAX_DEPTH 32

struct _SpSymbolizer {
  /* Owned */
  GStringChunk  *strings;         /* every string handed out, interned */
  GHashTable    *display_names;   /* raw name (by address) -> demangled or raw, interned */
  GHashTable    *modules;         /* SpElfModuleKey -> SpElfModule */
  GPtrArray     *problems;        /* char *, in the order found */
  GArray        *problem_details; /* SpSymbolProblem, the same order */
  GHashTable    *problem_set;     /* the same strings, borrowed: each once */
  GArray        *kernel_symbols;  /* SpSymbolRange; NULL until loaded */
  GHashTable    *perf_maps;       /* pid -> GArray of SpSymbolRange (empty: no file) */
  char          *perf_map_dir;
  char          *kallsyms_path;
  char          *debuginfo_path;  /* NULL: libdwfl's default search path */
  gboolean       no_dwarf;        /* symbol tables only: no lines, no inline frames */
  Dwfl_Callbacks dwfl_callbacks;  /* shared by every module's Dwfl */

  /* debuginfod (sp-symbolizer-debuginfod.c) */
  SpSymbolizerDebuginfod    debuginfod;
  SpSymbolizerFetchProgress fetch_progress;
  gpointer                  fetch_data;
  GHashTable               *fetched;      /* build-id -> cached path, "" when there is none */
  GArray                   *missing;      /* SpMissingDebugInfo */

  /* What the side file says each module file was (sp-symbolizer-recorded.c);
   * NULL before loaded. */
  SpRecordedFiles          *recorded_files;

  /* The persistent symbol cache (sp-elf-module-cache.c) */
  gboolean                  cache_off;
  char                     *cache_home;  /* NULL: $XDG_CACHE_HOME */
  gboolean                  cache_dir_tried;
  SpSymbolCacheDir         *cache_dir;   /* NULL: no cache */
  SpSymbolCacheStats        cache_stats;
};

/* ---- Sorted address ranges (sp-symbol-ranges.c) ------------------------ */

typedef struct {
  guint64     start;
  guint64     size;   /* 0: only start itself */
  const char *name;   /* raw (maybe mangled); owned by whoever filled the table */
  guint       rank;   /* among names at one start, the lowest is kept */
} SpSymbolRange;

GArray              *_sp_symbol_ranges_new (void);
/* Sorts, keeps the best-ranked name per start and, with fill_sizes, gives
 * sizeless entries the distance to the next start (as perf does). */
void                 _sp_symbol_ranges_finish (GArray *ranges,
                                               gboolean fill_sizes);
const SpSymbolRange *_sp_symbol_ranges_lookup (GArray *ranges,
                                               guint64 address);

/* ---- Shared by the parts (sp-symbolizer.c) ----------------------------- */

/* raw demangled if it is mangled, interned; raw must stay allocated as
 * long as self (it is cached by address). NULL for NULL. */
const char *_sp_symbolizer_display_name (SpSymbolizer *self,
                                         const char *raw);
const char *_sp_symbolizer_intern (SpSymbolizer *self,
                                   const char *string);
/* Adds a problem about file unless the same sentence is known already. */
void        _sp_symbolizer_add_problem (SpSymbolizer *self,
                                        SpSymbolProblemKind kind,
                                        const char *file,
                                        const char *format,
                                        ...) G_GNUC_PRINTF (4, 5);

/* ---- One module file (sp-elf-module.c) --------------------------------- */

typedef struct {
  const char *path;
  guint64     inode;   /* as recorded; 0: not checked */
} SpElfModuleKey;

typedef struct {
  SpElfModuleKey key;       /* key.path points at path */
  char          *path;
  Dwfl          *dwfl;      /* NULL when the file cannot be used */
  Dwfl_Module   *mod;
  Dwarf_Addr     bias;      /* module address = ELF virtual address + bias */
  GArray        *segments;  /* SpLoadSegment, executable ones first */
  SpEhFrameRanges *function_ranges; /* NULL until needed */
  GArray        *symbols;   /* SpSymbolRange, module addresses */
  gboolean       has_dwarf;
  GHashTable    *units;     /* Dwarf_Off -> SpDwarfScopes, as asked for */
  GHashTable    *results;   /* guint64 file offset -> SpResolved */

  /* Segments, symbols and DWARF are read (indexed) when the module is
   * opened, unless the symbol cache has a file for it: then only when an
   * address is not in that file (sp-elf-module-cache.c). */
  gboolean           indexed;
  char              *cache_key;       /* NULL: not cached */
  SpSymbolCacheFile *cached;          /* the cache's file, NULL when there was none */
  GArray            *index_problems;  /* SpSymbolProblem raised while indexing */
  guint              n_resolved;      /* addresses resolved from the files, not the cache */
} SpElfModule;

/* What one address resolved to, cached. */
typedef struct {
  guint64       file_offset;  /* the key */
  guint         n_frames;
  SpSymbolFrame frames[];
} SpResolved;

guint        _sp_elf_module_key_hash (gconstpointer key);
gboolean     _sp_elf_module_key_equal (gconstpointer a,
                                       gconstpointer b);
/* Never NULL: a file that cannot be used gives a module without dwfl,
 * and its problem is reported here, once. */
SpElfModule *_sp_elf_module_open (SpSymbolizer *self,
                                  const char *path,
                                  guint64 inode);
void         _sp_elf_module_free (SpElfModule *module);
/* Reads the module's segments, symbols and DWARF unless done. */
void         _sp_elf_module_index (SpSymbolizer *self,
                                   SpElfModule *module);
/* The start (a file offset) of the function file_offset is in, by the
 * module's unwind tables; FALSE when they have none there. */
gboolean     _sp_elf_module_function_start (SpElfModule *module,
                                            guint64 file_offset,
                                            guint64 *start_offset);
/* Innermost first, at most max, at least 1. */
guint        _sp_elf_module_resolve (SpSymbolizer *self,
                                     SpElfModule *module,
                                     guint64 file_offset,
                                     SpSymbolFrame *frames,
                                     guint max);

/* ---- The persistent symbol cache (sp-elf-module-cache.c) ------------- */

/* Finds the module's file in the cache (its key: the module file, its
 * separate debug file, the mode); TRUE when there is one, whose problems
 * are then raised as indexing raised them. The module is reported to its
 * Dwfl, not indexed. */
gboolean _sp_elf_module_cache_open (SpSymbolizer *self,
                                    SpElfModule *module,
                                    const struct stat *st);
/* The address's frames from the cache file (strings interned), or 0. */
guint    _sp_elf_module_cache_lookup (SpSymbolizer *self,
                                      SpElfModule *module,
                                      guint64 file_offset,
                                      SpSymbolFrame *frames,
                                      guint max);
/* Writes what the module resolved from its files to the cache. */
void     _sp_elf_module_cache_save (SpSymbolizer *self,
                                    SpElfModule *module);
void     _sp_symbolizer_cache_clear (SpSymbolizer *self);

/* ---- Separate debug files (sp-debug-file.c) ---------------------------- */

/* libdwfl's find_debuginfo callback: the standard search, unless a
 * candidate path is not a regular file (a FIFO would block it). The
 * module's userdata is the symbolizer (or NULL). */
int _sp_debug_file_find (Dwfl_Module *mod,
                         void **userdata,
                         const char *modname,
                         Dwarf_Addr base,
                         const char *file_name,
                         const char *debuglink_file,
                         GElf_Word debuglink_crc,
                         char **debuginfo_file_name);

/* Whether the DWARF's alternate file (dwz) is absent or a regular file;
 * FALSE, reported, when libdw would block opening it. */
gboolean _sp_debug_file_alt_is_safe (SpSymbolizer *self,
                                     Dwfl_Module *mod,
                                     Dwarf *dwarf);

/* ---- debuginfod (sp-symbolizer-debuginfod.c) ---------------------------- */

void _sp_symbolizer_debuginfod_init (SpSymbolizer *self);
void _sp_symbolizer_debuginfod_clear (SpSymbolizer *self);

/* The debug file of the module (file_name, with build_id in hexadecimal)
 * from debuginfod as self's mode allows: an open descriptor, its path in
 * *debuginfo_file_name (malloc'd, for libdwfl), or -1 (the module is then
 * listed as missing in SP_SYMBOLIZER_DEBUGINFOD_CACHED). -1 when self is
 * NULL. */
int _sp_symbolizer_debuginfod_find (SpSymbolizer *self,
                                    const char *file_name,
                                    const char *build_id,
                                    char **debuginfo_file_name);

/* ---- DWARF (sp-dwarf-scopes.c, sp-dwarf-frames.c) ---------------------- */

/* One compile unit's functions and inlined calls, indexed by address. */
typedef struct _SpDwarfScopes SpDwarfScopes;

SpDwarfScopes *_sp_dwarf_scopes_new (Dwarf_Die *cudie);
void           _sp_dwarf_scopes_free (SpDwarfScopes *scopes);
/* Whether the unit holds code at address (unit addresses). */
/* Whether the unit states its address ranges at all. */
gboolean       _sp_dwarf_scopes_has_ranges (SpDwarfScopes *scopes);
gboolean       _sp_dwarf_scopes_covers (SpDwarfScopes *scopes,
                                        Dwarf_Addr address);
/* The unit's DIE offset, to key a table of units (g_int64_hash). */
Dwarf_Off     *_sp_dwarf_scopes_get_key (SpDwarfScopes *scopes);
/* The functions holding address (the unit's own addresses, without the
 * module bias), innermost first, the real function last; at most max. */
guint          _sp_dwarf_scopes_lookup (SpDwarfScopes *scopes,
                                        Dwarf_Addr address,
                                        Dwarf_Die **dies,
                                        guint max);

/* The inline chain at a module address, innermost first, with the source
 * line of each; the last entry is the real function. 0 when DWARF does
 * not cover the address. units caches the module's indexed units
 * (Dwarf_Off -> SpDwarfScopes). */
guint _sp_dwarf_frames (SpSymbolizer *self,
                        Dwfl_Module *mod,
                        GHashTable *units,
                        Dwarf_Addr address,
                        SpSymbolFrame *frames,
                        guint max);

/* ---- Kernel symbols and perf maps -------------------------------------- */

/* NULL when meta has no usable [kernel-symbols] group. */
GArray *_sp_kernel_symbols_from_key_file (SpSymbolizer *self,
                                          GKeyFile *meta);
/* NULL when the file cannot be read or shows no addresses. */
GArray *_sp_kernel_symbols_from_kallsyms (SpSymbolizer *self,
                                          const char *path);
/* NULL when the file cannot be read (error set). */
GArray *_sp_perf_map_load (SpSymbolizer *self,
                           const char *path,
                           GError **error);

/* Why the file at path (inode as recorded; now: its stat) is not the one
 * the side file says was recorded (newly allocated), or NULL when it is or
 * nothing was said. */
char *_sp_symbolizer_recorded_file_change (SpSymbolizer *self,
                                           const char *path,
                                           guint64 inode,
                                           const struct stat *now);

G_END_DECLS
