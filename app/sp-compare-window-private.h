/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-compare-window-private.h: what the compare window's files share.
 *
 * sp-compare-window.c places the views, follows both analyses and builds
 * the comparison; sp-compare-transforms.c applies transforms to both
 * sides, shows them as breadcrumbs and searches; sp-compare-carry.c
 * carries the main window's transforms over to both sides. */
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
  GtkStack       *content;     /* the views, or the message why nothing is compared */
  GtkLabel       *message;
  gboolean        same_file;   /* A and B are one file */
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
  GtkWidget      *breadcrumbs; /* the bar: what applies, Undo, Clear */
  GtkLabel       *breadcrumb_label;
  GPtrArray      *crumbs;      /* "Merge: mix", one per transform (each on both sides) */
  GPtrArray      *carried;     /* the main window's transforms, until the first
                                * comparison names their functions; else NULL */
};

/* No function of any profile has it: interned ids count up from 0. A
 * side without a transform's function gets a transform of it. */
#define SP_COMPARE_NO_SUCH_FUNCTION (G_MAXUINT32 - 1)

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
/* The bar above the views that names the transforms, with Undo and Clear. */
GtkWidget *_sp_compare_breadcrumbs_new (SpCompareWindow *self);
/* Adds a transform's breadcrumb ("Merge: mix") and shows the bar. */
void _sp_compare_add_crumb (SpCompareWindow *self,
                            SpTransformKind kind,
                            const char *subject);

/* sp-compare-carry.c: applies the carried transforms to both sides, their
 * functions found by name and module among the comparison's functions.
 * FALSE when none were carried (the comparison is shown as it is). */
gboolean _sp_compare_apply_carried (SpCompareWindow *self,
                                    const SpDiffTree *tree);
void _sp_compare_carried_free (gpointer carried);
