/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-annotation.h: what the Source page shows of one function.
 *
 * The function's annotation (sp-annotation.h: costs per address and per
 * line, with the filter), for one of its places (a module, or a function
 * it is inlined into): that place's instructions with their costs and
 * source lines, and the text of its source file, or the paths where that
 * file was looked for (sp-source-dirs.h). Made by the analysis's worker
 * (sp_analysis_annotate); immutable and reference-counted, so the main
 * thread keeps and reads it. */
#pragma once

#include <glib.h>

#include "sp-annotation.h"
#include "sp-filter.h"
#include "sp-profile.h"
#include "sp-source-dirs.h"
#include "sp-stack-counts.h"

G_BEGIN_DECLS

/* The place the page shows when none is chosen: the heaviest. */
#define SP_SOURCE_PLACE_HEAVIEST G_MAXUINT

/* One instruction of the place's function (or, where it could not be
 * disassembled, one address where it was sampled). */
typedef struct {
  guint64     vaddr;      /* the ELF virtual address objdump prints */
  guint       size;       /* bytes; 1 when not disassembled */
  const char *text;       /* "mov    %rdi,%rax", or "" when not disassembled */
  guint64     self;
  guint64     total;
  guint       line;       /* in the source file shown, 0 when elsewhere or unknown */
  guint32     callee;     /* a call's target function (in this profile), or SP_SOURCE_NO_CALLEE */
  const char *callee_name; /* a call's target, NULL for other instructions */
} SpSourceInstruction;

#define SP_SOURCE_NO_CALLEE G_MAXUINT32

typedef struct {
  guint32                 function;    /* the function asked for */
  const char             *name;
  SpMetric                metric;
  guint64                 self;        /* the function's costs, and the filter's whole */
  guint64                 total;
  guint64                 all;
  SpAnnotation           *annotation;  /* NULL when the function has no cost with the filter */
  guint                   place;       /* the place shown (an index of the annotation's) */
  GArray                 *instructions; /* SpSourceInstruction, by address */
  char                   *disassembly_problem; /* why there are no instructions, or what was not decoded, or NULL */
  const SpAnnotationLine *lines;       /* the shown file's costs by line (the annotation's) */
  guint                   n_lines;
  char                   *wanted;      /* the source file DWARF names, NULL when unknown */
  char                   *no_debug_info; /* when wanted is NULL as the module has no DWARF: a sentence that says so */
  char                   *path;        /* where it was found, NULL when not */
  GStrv                   text;        /* its lines (valid UTF-8; [0] is line 1), NULL when not found */
  GPtrArray              *looked;      /* the paths tried (char *), or why the file found was not read */
  /* Not on this machine, nor in debuginfod's cache, while DEBUGINFOD_URLS
   * is set: the module (the place's) and its build-id, by which the window
   * fetches the file (`wanted`) in the background and then asks again;
   * both NULL otherwise. */
  char                   *fetch_module;
  char                   *fetch_build_id;
  GStringChunk           *strings;     /* owns the instructions' text */
} SpSourceAnnotation;

/* In the worker that owns profile: annotates function (and the functions
 * of the same name in other modules) with filter and counts (may be
 * NULL), for place (SP_SOURCE_PLACE_HEAVIEST: the heaviest), and finds
 * its source through dirs, then beside the recording, then in
 * debuginfod's cache (never asking a server: see fetch_build_id). */
SpSourceAnnotation *sp_source_annotation_new (SpProfile *profile,
                                              const SpFilter *filter,
                                              SpStackCounts *counts,
                                              guint32 function,
                                              guint place,
                                              const SpSourceDirs *dirs);

SpSourceAnnotation *sp_source_annotation_ref (SpSourceAnnotation *self);
void sp_source_annotation_unref (SpSourceAnnotation *self);

/* The cost of line in the file shown (0 and 0 when none). */
void sp_source_annotation_get_line_cost (const SpSourceAnnotation *self,
                                         guint line,
                                         guint64 *self_cost,
                                         guint64 *total_cost);

/* The line with the most self cost (total breaks ties, then the first);
 * 0 when no line of the file shown has a cost. */
guint sp_source_annotation_get_hottest_line (const SpSourceAnnotation *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpSourceAnnotation, sp_source_annotation_unref)

G_END_DECLS
