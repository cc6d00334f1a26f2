/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-symbol-cache.h: what addresses of a module resolved to, kept on disk.
 *
 * One file per module identity (a key string the symbolizer composes: the
 * module file, its separate debug file, whether DWARF was read) under
 * $XDG_CACHE_HOME/stackpulse/symbols/, holding file offset → frames
 * (function, file, line, decl_file, decl_line, innermost first), the
 * problems opening the module raised, and whether it had DWARF. A second
 * open of a recording reads its frames from here instead of DWARF.
 *
 * Files are written whole (a temporary file renamed over the old one,
 * merged with what is on disk at that moment under a lock), carry a
 * checksum (a damaged or cut file reads as absent, and is rewritten), are
 * created 0600 in a 0700 folder reached without following symbolic
 * links, and the folder is kept under a size bound by dropping the least
 * recently used files. docs/SYMBOL-CACHE.md says the format and why. */
#pragma once

#include <glib.h>

#include "sp-symbolizer.h"

G_BEGIN_DECLS

/* The bound when STACKPULSE_SYMBOL_CACHE_MAX (bytes) says none. */
#define SP_SYMBOL_CACHE_DEFAULT_MAX ((guint64) 64 << 20)

/* The folder. */
typedef struct _SpSymbolCacheDir SpSymbolCacheDir;

/* The folder stackpulse/symbols under cache_home (NULL: $XDG_CACHE_HOME,
 * else ~/.cache), made if missing; NULL when STACKPULSE_SYMBOL_CACHE=0,
 * or the folder is not a folder of this user's (a symbolic link
 * included), or cannot be made. max_bytes 0: STACKPULSE_SYMBOL_CACHE_MAX
 * or SP_SYMBOL_CACHE_DEFAULT_MAX. */
SpSymbolCacheDir *sp_symbol_cache_dir_open (const char *cache_home,
                                            guint64 max_bytes);
void              sp_symbol_cache_dir_free (SpSymbolCacheDir *dir);
const char       *sp_symbol_cache_dir_get_path (SpSymbolCacheDir *dir);
/* The name of the file a key is kept in (in the folder). */
char             *sp_symbol_cache_file_name (const char *key);

/* A problem opening the module raised, replayed on a warm open. */
typedef struct {
  SpSymbolProblemKind kind;
  const char         *file;
  const char         *message;
} SpSymbolCacheProblem;

/* One module's entries: read from disk, or being gathered to write. */
typedef struct _SpSymbolCacheFile SpSymbolCacheFile;

/* The file for key, NULL when there is none or it is damaged (wrong
 * magic, version, size, checksum or key). Marks it used, for the size
 * bound. */
SpSymbolCacheFile *sp_symbol_cache_load (SpSymbolCacheDir *dir,
                                         const char *key);
/* An empty one to fill and write. */
SpSymbolCacheFile *sp_symbol_cache_file_new (const char *key,
                                             gboolean has_dwarf);
void               sp_symbol_cache_file_free (SpSymbolCacheFile *file);

gboolean sp_symbol_cache_file_has_dwarf (SpSymbolCacheFile *file);
guint    sp_symbol_cache_file_get_n_entries (SpSymbolCacheFile *file);
/* Strings point into file. */
guint    sp_symbol_cache_file_get_n_problems (SpSymbolCacheFile *file);
void     sp_symbol_cache_file_get_problem (SpSymbolCacheFile *file,
                                           guint i,
                                           SpSymbolCacheProblem *problem);
/* The frames of file_offset, innermost first (strings pointing into
 * file), how many (at most max); 0 when it is not in file. */
guint    sp_symbol_cache_file_lookup (SpSymbolCacheFile *file,
                                      guint64 file_offset,
                                      SpSymbolFrame *frames,
                                      guint max);

void sp_symbol_cache_file_add_problem (SpSymbolCacheFile *file,
                                       const SpSymbolCacheProblem *problem);
/* n in 1 .. 255; a file_offset added again keeps its first frames. */
void sp_symbol_cache_file_add (SpSymbolCacheFile *file,
                               guint64 file_offset,
                               const SpSymbolFrame *frames,
                               guint n);

/* Writes file (made with sp_symbol_cache_file_new) under its key, with
 * the entries another writer put there meanwhile; then keeps the folder
 * under its bound. FALSE when it could not (nothing is left half-written). */
gboolean sp_symbol_cache_store (SpSymbolCacheDir *dir,
                                SpSymbolCacheFile *file);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpSymbolCacheFile, sp_symbol_cache_file_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpSymbolCacheDir, sp_symbol_cache_dir_free)

G_END_DECLS
