/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-diff-tree.h: two top-down call trees merged into one comparison tree.
 *
 * A node is a path of functions from the root, matched across A and B the
 * way sp-diff.h matches functions: by name and module file name (or, with
 * a module map, a renamed module of B as A's), never by address. Each node
 * has A's and B's self and total, raw and normalized per side (shares of
 * the side's total, or time per second of its span: sp-diff.h), and the
 * change; a node one side lacks has zeros there. The tree also lists each
 * function once (SpDiffRow, as `stackpulse-report diff` does), with its
 * total counted once however deep it recurses.
 *
 * Built from finished trees only (each side's own filter already applied
 * by its analysis), so a worker may build it while the main thread shows
 * the last one; it copies every name it needs and never reads a profile
 * after it is built. Immutable once built, and reference-counted so views
 * and their row items share it. */
#pragma once

#include <gio/gio.h>

#include "sp-call-tree.h"
#include "sp-diff.h"

G_BEGIN_DECLS

#define SP_DIFF_TREE_NONE G_MAXUINT32

typedef struct {
  const char *name;        /* the function's name ("" for the root) */
  const char *module;      /* its module's file name (A's when both have it) */
  guint32     parent;      /* SP_DIFF_TREE_NONE for the root (node 0) */
  guint32     first_child; /* children by total in B, then in A, largest first */
  guint32     next_sibling;
  guint32     n_children;
  guint32     function_a;  /* the function's id in A's profile, or SP_DIFF_NONE */
  guint32     function_b;  /* in B's */
  guint32     row;         /* the function's row in functions */
  guint64     self_a;      /* raw: samples, or ns of a time metric */
  guint64     total_a;
  guint64     self_b;
  guint64     total_b;
  double      self_value_a;  /* normalized */
  double      total_value_a;
  double      self_value_b;
  double      total_value_b;
  double      delta;         /* total_value_b - total_value_a: how much the path grew */
} SpDiffTreeNode;

typedef struct {
  SpDiffTreeNode *nodes;       /* a node comes after its parent */
  guint           n_nodes;
  GArray         *functions;   /* SpDiffRow, by |self delta| descending (sp-diff.h) */
  SpDiffNormalize normalize;
  guint64         total_a;     /* each side's root total */
  guint64         total_b;
  double          max_change;  /* the largest |delta| of any node but the root */
  GStringChunk   *strings;     /* owns the names */
  /* Built on a worker (sp_diff_tree_build_async) with B's tree: B's
   * shape for the flame graph and its nodes' diff nodes
   * (sp_diff_tree_after_shape); NULL otherwise. */
  SpCallTree     *after;
  guint32        *after_to_diff;
} SpDiffTree;

/* One side as its analysis finished it. */
typedef struct {
  SpProfile        *profile;  /* names the tree's functions */
  const SpCallTree *tree;     /* top-down, made with the side's filter */
  double            span_s;   /* the side's span (time normalization), seconds */
  double            count_s;  /* seconds one count stands for: a sample's interval, 1e-9 for ns */
} SpDiffTreeSide;

/* Merges a and b. module_map (may be NULL) maps module file names of B to
 * the one of A they stand for (sp_diff_module_map), when they differ. */
SpDiffTree *sp_diff_tree_new (const SpDiffTreeSide *a,
                              const SpDiffTreeSide *b,
                              SpDiffNormalize normalize,
                              GHashTable *module_map);

SpDiffTree *sp_diff_tree_ref (SpDiffTree *tree);
void sp_diff_tree_unref (SpDiffTree *tree);

/* The children of node in their order, as an array of guint32; newly
 * allocated. */
GArray *sp_diff_tree_get_children (const SpDiffTree *tree,
                                   guint32 node);

/* B's shape as a call tree of B's functions, for a flame graph: every
 * node B has (total_b > 0), self and total B's raw counts. *to_diff gets
 * each of its nodes' diff tree node (g_free). metric and n_functions
 * come from B's tree. */
SpCallTree *sp_diff_tree_after_shape (const SpDiffTree *tree,
                                      const SpCallTree *b_tree,
                                      guint32 **to_diff);

/* Builds on a worker thread; the trees are taken (freed with
 * sp_call_tree_free) and the profiles referenced until it is done. With
 * map_modules, the worker matches renamed modules by build-id
 * (sp_diff_module_map), which reads both profiles' module tables: only
 * for profiles no worker grows any more (finished recordings; their
 * analyses may still aggregate, which only reads them). */
void sp_diff_tree_build_async (const SpDiffTreeSide *a,
                               const SpDiffTreeSide *b,
                               SpDiffNormalize normalize,
                               gboolean map_modules,
                               GCancellable *cancellable,
                               GAsyncReadyCallback callback,
                               gpointer user_data);

SpDiffTree *sp_diff_tree_build_finish (GAsyncResult *result,
                                       GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpDiffTree, sp_diff_tree_unref)

G_END_DECLS
