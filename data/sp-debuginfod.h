/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-debuginfod.h: debug files and sources from debuginfod servers.
 *
 * A thin layer over elfutils' libdebuginfod, the client gdb, perf and
 * systemd-coredump use: the servers are those DEBUGINFOD_URLS names, and a
 * fetched file lands in libdebuginfod's cache (DEBUGINFOD_CACHE_PATH, else
 * ~/.cache/debuginfod_client), where the next lookup finds it without the
 * network. Where DEBUGINFOD_URLS is unset or empty nothing here touches the
 * network or the cache: every call fails at once with
 * G_IO_ERROR_NOT_SUPPORTED.
 *
 * Build-ids are given as lowercase hexadecimal text ("05be42…"), as
 * `readelf -n` prints them. The synchronous calls block for as long as a
 * transfer takes (minutes for a large library): call them from a worker
 * thread, or use sp_debuginfod_fetch_async, which runs one in a thread of
 * its own and reports progress on the caller's main context. Each call
 * uses its own libdebuginfod client, so calls in several threads at once
 * are fine. See docs/DEBUGINFOD.md. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Whether DEBUGINFOD_URLS names at least one server. */
gboolean sp_debuginfod_is_enabled (void);

/* A module's build-id, to ask for its files: sp-build-id.h. */

/* Progress of one transfer, on the thread that fetches: bytes received so
 * far and the file's size (0 while the server has not said it). Return
 * FALSE to cancel the transfer; the call then fails with
 * G_IO_ERROR_CANCELLED and leaves no file behind. */
typedef gboolean (*SpDebuginfodProgress) (guint64 received,
                                          guint64 total,
                                          gpointer user_data);

/* The separate debug file (.debug, DWARF and the full symbol table) of the
 * ELF file with build_id: the path of the local copy in the cache, newly
 * allocated, or NULL with error (G_IO_ERROR_NOT_FOUND: no server has it;
 * G_IO_ERROR_CANCELLED: progress returned FALSE or cancellable was
 * cancelled; G_IO_ERROR_NOT_SUPPORTED: no DEBUGINFOD_URLS). progress and
 * cancellable may be NULL. */
char *sp_debuginfod_find_debuginfo (const char *build_id,
                                    SpDebuginfodProgress progress,
                                    gpointer user_data,
                                    GCancellable *cancellable,
                                    GError **error);

/* One source file of the ELF file with build_id, by the absolute path its
 * DWARF names (DW_AT_comp_dir joined with the line table's file name, as
 * the build saw it: "/build/foo-1.2/src/parse.c"): the path of the local
 * copy, or NULL with error as above. For the annotation's source view,
 * when the file is not on this machine at that path. */
char *sp_debuginfod_find_source (const char *build_id,
                                 const char *source_path,
                                 SpDebuginfodProgress progress,
                                 gpointer user_data,
                                 GCancellable *cancellable,
                                 GError **error);

/* The debug file for build_id when an earlier fetch left it in the cache,
 * without asking any server; NULL when there is none (or no
 * DEBUGINFOD_URLS). Cheap: one stat(). */
char *sp_debuginfod_find_cached_debuginfo (const char *build_id);

/* The same for a source file (source_path as sp_debuginfod_find_source
 * takes it): for a worker that must not wait for the network, which
 * leaves the fetch to its main thread (the window's Source page). */
char *sp_debuginfod_find_cached_source (const char *build_id,
                                        const char *source_path);

/* ---- In the background -------------------------------------------------- */

typedef enum {
  SP_DEBUGINFOD_DEBUGINFO,  /* sp_debuginfod_find_debuginfo */
  SP_DEBUGINFOD_SOURCE,     /* sp_debuginfod_find_source */
} SpDebuginfodKind;

/* Progress of a background fetch, on the main context that started it;
 * calls are coalesced (at most one waits to run). */
typedef void (*SpDebuginfodProgressNotify) (guint64 received,
                                            guint64 total,
                                            gpointer user_data);

/* Runs the fetch in a thread; callback runs on the thread-default main
 * context of the caller, like progress (whose data must live until
 * callback has run). Cancel it with cancellable. */
void sp_debuginfod_fetch_async (SpDebuginfodKind kind,
                                const char *build_id,
                                const char *source_path,
                                GCancellable *cancellable,
                                SpDebuginfodProgressNotify progress,
                                gpointer progress_data,
                                GAsyncReadyCallback callback,
                                gpointer user_data);

/* The local path (newly allocated), or NULL with error as above. */
char *sp_debuginfod_fetch_finish (GAsyncResult *result,
                                  GError **error);

G_END_DECLS
