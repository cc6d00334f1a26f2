/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-call-tree.h: top-down and bottom-up call trees, immutable once built.
 *
 * Node 0 is the root ("all samples"). A node is a function called along a
 * path; self counts the samples whose path ends there, total the samples
 * through it. Built from per-stack counts, so the cost follows the number
 * of distinct stacks, not of samples. Children are linked by total,
 * largest first (equal totals by function id), so views walk them in the
 * order they draw them without sorting on the main thread. A node comes
 * after its parent in nodes[] (one backward pass sees children before
 * parents). */
#pragma once

#include <glib.h>

#include "sp-filter.h"
#include "sp-profile.h"
#include "sp-stack-counts.h"

G_BEGIN_DECLS

#define SP_CALL_TREE_NONE G_MAXUINT32

typedef struct {
  guint32 function;      /* SP_CALL_TREE_NONE for the root */
  guint32 parent;
  guint32 first_child;
  guint32 next_sibling;
  guint32 n_children;
  guint64 self;
  guint64 total;
} SpCallTreeNode;

typedef struct {
  SpCallTreeNode *nodes;
  guint           n_nodes;
  gboolean        bottom_up;
  /* The profile's functions when the tree was made: ids below it are
   * whole and never change, so whoever receives the tree may read them
   * (search) while a worker adds more. */
  guint           n_functions;
  /* What self and total count: samples, or ns of a time metric. */
  SpMetric        metric;
  /* Each node's subtree height (itself and its deepest descendant's
   * levels), by node: NULL until sp_call_tree_ensure_heights. */
  guint          *heights;
} SpCallTree;

/* counts may be NULL (then they are made from filter). */
SpCallTree *sp_call_tree_new (SpProfile *profile,
                              const SpFilter *filter,
                              SpStackCounts *counts,
                              gboolean bottom_up);

/* The top-down tree with only the nodes whose total is at least min_share
 * (0 to 1) of the root's, and the root: a report prints no other, and most
 * of a deep recording's nodes are light. Built from the stack nodes without
 * the rest of the tree (sp-call-tree-heavy.c); where transforms apply, or
 * the total does not fit 32 bits (a time metric over more than 4.3 s), the
 * whole tree. Children by total, largest first, as sp_call_tree_new's
 * (equal totals by function id, which follow the order frames are
 * resolved in: those may come in another order). counts may be NULL. */
SpCallTree *sp_call_tree_new_heavy (SpProfile *profile,
                                    const SpFilter *filter,
                                    SpStackCounts *counts,
                                    double min_share);

/* The least total a node needs to have at least min_share of total: the
 * share's count rounded up (a node just under it is left out), at least 1. */
guint64 sp_call_tree_min_total (double min_share,
                                guint64 total);

/* A copy, for a second view of the same tree (each view owns its tree). */
SpCallTree *sp_call_tree_copy (const SpCallTree *tree);

void sp_call_tree_free (SpCallTree *tree);

/* Frees tree on a worker thread: giving a large tree's memory back held a
 * window's main thread for milliseconds. */
void sp_call_tree_free_in_background (SpCallTree *tree);

/* tree->heights, made if not yet (a flame graph's rows: a zoom on node
 * shows its depth plus heights[node]). Where the tree is built, so that
 * whoever shows it does not walk it again. */
const guint *sp_call_tree_ensure_heights (SpCallTree *tree);

/* Re-links every node's children by total, largest first; for trees made
 * by hand (sp_call_tree_new's are already in that order). */
void sp_call_tree_sort_children (SpCallTree *tree);

/* The children of node in their order (by total, descending), as an
 * array; newly allocated. */
GArray *sp_call_tree_get_children (const SpCallTree *tree,
                                   guint32 node);

/* The path of function ids from the root to node (excluded root). */
GArray *sp_call_tree_get_path (const SpCallTree *tree,
                               guint32 node);

/* The node that path (function ids from the root, as get_path gives them)
 * leads to in tree, following it as far as tree has it: *n_found (may be
 * NULL) gets how many functions of path were found. 0 (the root) when not
 * even the first is there. A view uses it to find in a rebuilt tree what
 * it showed in the old one. */
guint32 sp_call_tree_find_path (const SpCallTree *tree,
                                const guint32 *path,
                                guint n_path,
                                guint *n_found);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpCallTree, sp_call_tree_free)

G_END_DECLS
