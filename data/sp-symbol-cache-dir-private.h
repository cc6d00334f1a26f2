/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-symbol-cache-dir-private.h: the symbol cache's folder, for
 * sp-symbol-cache.c. Every file in it is reached relative to the
 * folder's descriptor, never through a symbolic link. */
#pragma once

#include <glib.h>

#include "sp-symbol-cache.h"

G_BEGIN_DECLS

int      _sp_symbol_cache_dir_fd (SpSymbolCacheDir *dir);
guint64  _sp_symbol_cache_dir_max (SpSymbolCacheDir *dir);
/* A descriptor holding the folder's lock (exclusive), or -1 when there
 * is none to take (the cache then works unlocked: still never damaged,
 * only maybe missing another writer's newest entries). */
int      _sp_symbol_cache_dir_lock (SpSymbolCacheDir *dir);
void     _sp_symbol_cache_dir_unlock (int lock);
/* bytes as the file name, whole or not at all (a temporary file renamed). */
gboolean _sp_symbol_cache_dir_write (SpSymbolCacheDir *dir,
                                     const char *name,
                                     GBytes *bytes);
/* Drops the least recently used files (never keep, just written) until
 * the folder is within its bound, and temporary files a crash left. */
void     _sp_symbol_cache_dir_prune (SpSymbolCacheDir *dir,
                                     const char *keep);

G_END_DECLS
