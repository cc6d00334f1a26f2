/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-debuginfod-queue.h: fetching a window's missing debug files, in turn.
 *
 * The analysis lists in each result the modules whose debug file a
 * debuginfod server may have (SpMissingDebugInfo); this queue fetches
 * them in the background, one at a time (sp_debuginfod_fetch_async), each
 * build-id once in the queue's life, and says when the queue ran dry and
 * how many arrived, so that the profile resolves its frames again once,
 * not after each file. Lives on the main thread; its signals come there. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SP_TYPE_DEBUGINFOD_QUEUE (sp_debuginfod_queue_get_type ())
G_DECLARE_FINAL_TYPE (SpDebuginfodQueue, sp_debuginfod_queue, SP, DEBUGINFOD_QUEUE, GObject)

SpDebuginfodQueue *sp_debuginfod_queue_new (void);

/* Queues the modules of missing (SpMissingDebugInfo) not asked for
 * before, and starts when idle. Nothing without DEBUGINFOD_URLS. */
void sp_debuginfod_queue_add (SpDebuginfodQueue *self,
                              const GArray *missing);

/* Stops the fetch under way and drops what waits; neither is asked for
 * again. The queue then runs dry ("finished"). */
void sp_debuginfod_queue_cancel (SpDebuginfodQueue *self);

/* The module being fetched (its path), or NULL when idle. */
const char *sp_debuginfod_queue_get_current (SpDebuginfodQueue *self);

/* How many wait behind the current one. */
guint sp_debuginfod_queue_get_n_waiting (SpDebuginfodQueue *self);

/* Signals:
 * "progress" (const char *module, guint64 received, guint64 total): a
 *   fetch started (0, 0) or went on; total 0 while unknown.
 * "finished" (guint n_fetched): the queue ran dry; n_fetched debug files
 *   arrived since it last did. */

G_END_DECLS
