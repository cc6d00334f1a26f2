/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-compare-window-private.h: what the compare window's files share.
 *
 * sp-compare-window.c places the views, follows both analyses and builds
 * the comparison; sp-compare-transforms.c applies transforms to both
 * sides and searches. */
#pragma once

#include "sp-analysis.h"
#include "sp-compare-window.h"

/* One recording of the two. */
typedef struct {
  const char     *letter;     /* "A" or "B" */
  SpAnalysis     *analysis;
  GFile          *file;
  SpTimelineView *timeline;
  GtkLabel       *title;
  SpCallTree     *tree;       /* the last top-down tree, with its profile */
  SpProfile      *profile;
  SpSampleIndex  *index;      /* the last snapshot, for the timeline and the span */
  GArray         *threads;
  guint64         interval_us;
  char           *problem;    /* what is wrong with it (damage, failure), or NULL */
  gboolean        failed;
  gboolean        following;
} SpCompareSide;

struct _SpCompareWindow
{
  GtkApplicationWindow parent_instance;

  SpCompareSide   sides[2];
  GtkLabel       *status;
  GtkStack       *views;
  GtkSearchEntry *search;
  GtkDropDown    *normalize_choice;
  SpDiffFlame    *flame;
  SpDiffTable    *functions;
  SpDiffTable    *call_tree;
  GMenuModel     *menu;

  SpDiffTree     *tree;        /* the comparison shown */
  SpDiffNormalize normalize;
  gboolean        building;
  gboolean        dirty;       /* a side changed while building */
  guint           n_shown;
  guint           n_transforms;
};

/* sp-compare-window.c: builds the comparison again (after a side's new
 * tree, or a change of normalization). */
void _sp_compare_window_rebuild (SpCompareWindow *self);

/* sp-compare-transforms.c */
void _sp_compare_transforms_class_init (GtkWidgetClass *widget_class);
/* The context menu of the views. */
GMenuModel *_sp_compare_transforms_menu (void);
void _sp_compare_search_changed (GtkSearchEntry *entry,
                                 SpCompareWindow *self);
void _sp_compare_search_activated (GtkSearchEntry *entry,
                                   SpCompareWindow *self);
void _sp_compare_update_actions (SpCompareWindow *self);
