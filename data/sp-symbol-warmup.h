/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-symbol-warmup.h: resolving a recording's first frames on a second
 * thread (sp-symbol-warmup.c), so that reading the modules' symbols and
 * DWARF overlaps reading the rest of the spool. */
#pragma once

#include <glib.h>

#include "sp-spool-reader.h"
#include "sp-symbolizer.h"

G_BEGIN_DECLS

#define SP_SYMBOL_WARMUP_MAX_INLINE 32

typedef struct _SpSymbolWarmup SpSymbolWarmup;

/* Starts resolving the user frames the reader has so far (their modules
 * and addresses are copied: the reader may go on growing). symbolizer is
 * the warm-up's until sp_symbol_warmup_join. */
SpSymbolWarmup *sp_symbol_warmup_start (SpSymbolizer *symbolizer,
                                        const SpSpoolReader *reader);

/* Waits for it (cancel: it stops at the next frame) and frees it; the
 * symbolizer keeps what was read. NULL is a no-op. */
void sp_symbol_warmup_join (SpSymbolWarmup *self,
                            gboolean cancel);

/* sp_symbol_warmup_join without cancelling, for g_clear_pointer. */
void sp_symbol_warmup_finish (SpSymbolWarmup *self);

G_END_DECLS
