/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-debuginfod.h: the window fetches missing debug info in the
 * background (for the window's files only).
 *
 * Where DEBUGINFOD_URLS is set, each result lists the modules whose debug
 * file a debuginfod server may have; a queue (data/sp-debuginfod-queue.h)
 * fetches them one at a time while the status line says "Fetching debug
 * info for libfoo.so… 1.2 MB of 3.4 MB" beside a Cancel button, and once
 * it ran dry with files fetched the analysis resolves the frames again
 * (sp_analysis_reload_symbols). The Source page's missing source file
 * comes the same way. The window never waits for it.
 * docs/DEBUGINFOD.md. */
#pragma once

#include "sp-window-private.h"

/* A result came in: queues what it lists as missing. */
void _sp_window_debuginfod_take (SpWindow *self,
                                 const SpAnalysisResult *result);

/* The Source page is to show source: where its file is neither on this
 * machine nor in debuginfod's cache (source->fetch_build_id), fetches it
 * in the background, once per window and file (progress and Cancel in the
 * status line), and has the analysis annotate again when it came; tells
 * the page what debuginfod does or answered. Call before showing it. */
void _sp_window_debuginfod_fetch_source (SpWindow *self,
                                         const SpSourceAnnotation *source);

/* Cancels what is fetched for the window. */
void _sp_window_debuginfod_dispose (SpWindow *self);
