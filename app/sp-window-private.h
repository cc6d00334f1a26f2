/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-private.h: what the window's files share.
 *
 * sp-window.c places the pages and views, wires them to the analysis and
 * keeps the actions' state; sp-window-recording.c records and follows a
 * recording; sp-window-transforms.c applies transforms and keeps the
 * breadcrumbs; sp-window-status.c says what the recording holds;
 * sp-window-debuginfod.c fetches missing debug info, sp-window-source.c
 * wires the Source page, sp-window-export.c exports what the views show,
 * sp-window-open.c has Open… and converts perf.data files before they open.
 * The analysis
 * (data/sp-analysis.h) does all the work. */
#pragma once

#include "sp-analysis.h"
#include "sp-call-tree-view.h"
#include "sp-callers-view.h"
#include "sp-debuginfod-queue.h"
#include "sp-flame-graph.h"
#include "sp-metric-selector.h"
#include "sp-process-list.h"
#include "sp-recent-list.h"
#include "sp-recording-session.h"
#include "sp-source-view.h"
#include "sp-thread-list.h"
#include "sp-timeline-view.h"
#include "sp-window.h"

struct _SpWindow
{
  GtkApplicationWindow parent_instance;

  /* Template widgets */
  GtkStack            *pages;
  GtkSpinner          *spinner;
  GtkLabel            *damage_label;
  GtkGrid             *figures;
  GtkLabel            *error_label;
  GtkWidget           *elevate_button;
  SpRecentList        *recent_list;
  GtkStack            *views;
  GtkStackSwitcher    *view_switcher;
  SpMetricSelector    *metric_selector;
  GtkSearchEntry      *search_entry;
  GtkToggleButton     *icicle_button;
  GtkMenuButton       *transform_button;
  GMenuModel          *transform_menu;
  GtkBox              *breadcrumbs;
  SpThreadList        *thread_list;
  GtkLabel            *breadcrumb_label;
  GtkWidget           *record_button;   /* Record and its menu */
  GtkButton           *stop_button;
  GtkLabel            *status_label;
  GtkWidget           *offcpu_bar;
  GtkLabel            *offcpu_label;
  GtkWidget           *offcpu_button;
  GtkButton           *problems_button;
  GtkLabel            *problems_label;
  SpCallersView       *callers_view;
  SpSourceView        *source_view;
  GtkScrolledWindow   *call_tree_scroller;
  GtkScrolledWindow   *flame_graph_scroller;
  GtkScrolledWindow   *bottom_up_scroller;
  GtkScrolledWindow   *timeline_scroller;
  /* ...bound by sp-window-open.c: the loading page's text, the start page's note */
  GtkLabel            *loading_label;
  GtkLabel            *start_note;

  /* Owned references */
  SpAnalysis          *analysis;
  GFile               *file;
  GtkFileChooserNative *chooser;
  SpSampleIndex       *index;          /* the last snapshot, for the time range */
  GArray              *threads;        /* the last thread rows (SpThreadRow) */

  /* The recording this window made, and what it recorded, to run it again
   * elevated; what the status says once it ended (or NULL). */
  SpRecordingSession  *session;
  SpRecordOptions      record_options;
  const char          *exit_note;
  gboolean             following;      /* another recorder's spool, still growing */

  const char          *shown_view;     /* the page shown (interned), to know where the user came from */

  /* Fetching missing debug info (sp-window-debuginfod.c) */
  SpDebuginfodQueue   *debuginfod_queue;
  GtkWidget           *debuginfod_bar;   /* in the status line, made there */
  GtkLabel            *debuginfod_label;
  struct _SpWindowSourceFetch *source_fetch; /* the Source page's file being fetched, or NULL */
  GHashTable          *source_answers;   /* "build-id path": what debuginfod answered ("" while asking) */

  /* perf.data files (sp-window-open.c): the conversion running, or NULL;
   * the perf.data the profile shown was converted from (NULL for a spool
   * opened as it is), and what its converter warned about. */
  struct _SpWindowConversion *conversion;
  GFile               *converted_from;
  char                *convert_warnings;
  /* The loading page's progress bar, bytes and samples, and Cancel: made
   * by the first conversion (NULL before). */
  GtkProgressBar      *convert_progress;
  GtkLabel            *convert_detail;
  GtkWidget           *convert_cancel;

  /* Exports (sp-window-export.c) */
  GtkFileChooserNative *export_chooser;
  GtkLabel            *export_label;     /* in the status line, made there */

  /* Views made in code */
  SpCallTreeView      *call_tree_view;
  SpCallTreeView      *bottom_up_view;
  SpTimelineView      *timeline_view;
  SpFlameGraph        *flame_graph;
  SpProcessList       *process_list;   /* in the Processes page (sp-window-system.c) */
};

/* sp-window.c */
void _sp_window_show_profile_controls (SpWindow *self,
                                       gboolean visible);
void _sp_window_set_file_title (SpWindow *self,
                                GFile *file);
/* Brings every action's enabled state up to date with what the window has. */
void _sp_window_update_actions (SpWindow *self);
/* Whether what the user opens or records next needs a window of its own. */
gboolean _sp_window_is_taken (SpWindow *self);
/* Opens file as a spool (sp_window_open_file once a perf.data is converted). */
void _sp_window_open_spool (SpWindow *self,
                            GFile *file);

/* sp-window-open.c */
void _sp_window_open_class_init (GtkWidgetClass *widget_class);
void _sp_window_open_dispose (SpWindow *self);
/* Every file opened comes here first: a conversion running gives way,
 * and a perf.data is converted (or its finished conversion reused), then
 * opened. TRUE when file was a perf.data (it is taken care of). */
gboolean _sp_window_open_perf_data (SpWindow *self,
                                    GFile *file);
/* The file the user opened: the perf.data of a converted profile, else
 * the spool; NULL before any. */
GFile *_sp_window_get_opened_file (SpWindow *self);

/* sp-window-recording.c */
void _sp_window_recording_class_init (GtkWidgetClass *widget_class);
void _sp_window_recording_dispose (SpWindow *self);
/* Drops a recording that could not start (its session, its file name):
 * the window is reused for something else. */
void _sp_window_recording_forget (SpWindow *self);

/* sp-window-system.c: a recording of the whole system's Processes page. */
void _sp_window_system_init (SpWindow *self);
/* Shows rows (SpProcessRow) and the idle task's samples, and groups the
 * timeline's lanes (n_cpus sampled every interval_ns); NULL hides the page. */
void _sp_window_show_processes (SpWindow *self,
                                GArray *rows,
                                guint64 idle_samples,
                                guint n_cpus,
                                guint64 interval_ns);

/* sp-window-status.c */
void _sp_window_show_problems (SpWindow *self,
                               const GArray *problems);
/* The Summary page, the status line's figures, and the damage (if any). */
void _sp_window_show_summary (SpWindow *self,
                              const SpSpoolSummary *summary);
/* A live result came in: the status line's progress. */
void _sp_window_show_progress (SpWindow *self,
                               const SpAnalysisResult *result);

/* sp-window-source.c: the Source page's wiring. */
void _sp_window_source_class_init (GtkWidgetClass *widget_class);
void _sp_window_source_init (SpWindow *self);
/* A result came in: its annotation, when it is the function asked for. */
void _sp_window_show_source (SpWindow *self,
                             SpAnalysisResult *result);

/* sp-window-export.c */
void _sp_window_export_class_init (GtkWidgetClass *widget_class);
void _sp_window_export_dispose (SpWindow *self);

/* sp-window-transforms.c */
void _sp_window_transforms_class_init (GtkWidgetClass *widget_class);
/* The functions selected on the page shown, root first (*top_down: a
 * path of the top-down tree), or NULL; newly allocated. */
GArray *_sp_window_selected_path (SpWindow *self,
                                  gboolean *top_down);
void _sp_window_update_breadcrumbs (SpWindow *self);
