/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-heaviest-private.h: what a search in the call tree view and the
 * flame graph steps through: the matching nodes, heaviest first. */
#pragma once

#include <glib.h>

#include "sp-call-tree.h"

G_BEGIN_DECLS

/* The nodes of tree but its root whose function matches (one gboolean a
 * function of the tree's profile), heaviest (total) first; between
 * equals, in the tree's order. An array of guint32 node indexes. */
GArray *_sp_heaviest_nodes (const SpCallTree *tree,
                            const gboolean *function_matches);

G_END_DECLS
