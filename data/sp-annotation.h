/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-annotation.h: one function's costs per address and per source line.
 *
 * From the stacks a filter counts (sp-stack-counts.h: time range, hidden
 * threads, metric), after its transforms: a sample the transforms drop is
 * left out, and one whose transformed path no longer holds the function
 * (focused away, collapsed into its module) too. Self comes from the
 * innermost frame that holds the function, in samples where it is the
 * path's leaf (so a callee merged into it counts as its self, at its call
 * site); total from every frame whose inline chain holds it, each address
 * and each line once per sample. Inline-aware: at an address where G is
 * inlined into F, the cost is at G's line in G's source when G is
 * annotated, and at the line of the call in F's source when F is.
 *
 * Built by the worker that owns the profile; the result is immutable and
 * owns its strings, so another thread (a view) may keep and read it.
 * docs/ANNOTATE.md says more. */
#pragma once

#include <glib.h>

#include "sp-filter.h"
#include "sp-profile.h"
#include "sp-stack-counts.h"

G_BEGIN_DECLS

#define SP_ANNOTATION_NONE G_MAXUINT

/* Where the function's code is: a real function of a module, the
 * function itself or one it is inlined into. */
typedef struct {
  const char *module;      /* the module's path */
  guint64     inode;       /* as recorded (0: unknown) */
  const char *function;    /* the real (outermost) function there */
  guint64     start;       /* its ELF symbol's address, 0 when unknown: functions
                            * of one name in one module (static ones of two
                            * files, a generic's instances) are a place each */
  guint64     self;
  guint64     total;
} SpAnnotationPlace;

/* One address where the function was met. */
typedef struct {
  guint64  address;        /* in the module's file-offset coordinates, as the spool has it */
  guint64  vaddr;          /* the ELF virtual address objdump prints; 0 when unknown */
  guint64  self;
  guint64  total;
  guint    place;          /* index of its SpAnnotationPlace */
  guint    file;           /* index of its SpAnnotationFile, or SP_ANNOTATION_NONE */
  guint    line;           /* in that file (the function's own source), 0 when unknown */
  gboolean call_site;      /* a return address less one: inside the call instruction */
} SpAnnotationAddress;

typedef struct {
  guint    line;
  guint64  self;
  guint64  total;
} SpAnnotationLine;

/* A source file the function's lines are in (its own, and where code of
 * it comes from a header or a macro). */
typedef struct {
  const char             *path;    /* as DWARF names it (absolute when it can be) */
  const SpAnnotationLine *lines;   /* by line number */
  guint                   n_lines;
  guint64                 self;
  guint64                 total;
} SpAnnotationFile;

typedef struct _SpAnnotation SpAnnotation;

/* The function ids a name stands for (in the best tier that matches:
 * sp_profile_find_functions), only those of module (a path or a file
 * name) when it is not NULL. Functions get ids as frames are resolved:
 * resolve them first (sp_function_list_new). */
GArray *sp_annotation_find_functions (SpProfile *profile,
                                      const char *name,
                                      const char *module);

/* Annotates the functions (one, or the same name in several modules);
 * counts may be NULL (then counted here with filter). */
SpAnnotation *sp_annotation_new (SpProfile *profile,
                                 const SpFilter *filter,
                                 SpStackCounts *counts,
                                 const guint32 *functions,
                                 guint n_functions);

SpAnnotation *sp_annotation_ref (SpAnnotation *self);
void sp_annotation_unref (SpAnnotation *self);

const char *sp_annotation_get_function (SpAnnotation *self);
/* Where the function is defined (DWARF), NULL when unknown. */
const char *sp_annotation_get_decl_file (SpAnnotation *self);
guint sp_annotation_get_decl_line (SpAnnotation *self);
SpMetric sp_annotation_get_metric (SpAnnotation *self);

/* The function's self and total, and the filter's whole total (shares). */
guint64 sp_annotation_get_self (SpAnnotation *self);
guint64 sp_annotation_get_total (SpAnnotation *self);
guint64 sp_annotation_get_all (SpAnnotation *self);

/* By total, descending. */
const SpAnnotationPlace *sp_annotation_get_places (SpAnnotation *self,
                                                   guint *n_places);
/* How many modules the places are in. */
guint sp_annotation_get_n_modules (SpAnnotation *self);

/* By place, then address. */
const SpAnnotationAddress *sp_annotation_get_addresses (SpAnnotation *self,
                                                        guint *n_addresses);
/* The files, the function's own (its decl file, else the one with the
 * most total) first. */
const SpAnnotationFile *sp_annotation_get_files (SpAnnotation *self,
                                                 guint *n_files);

/* For a view that links source and disassembly: the address row at
 * vaddr in place (SP_ANNOTATION_NONE when none), and the rows of one
 * line of a file (indexes into the addresses, appended to rows). */
guint sp_annotation_find_address (SpAnnotation *self,
                                  guint place,
                                  guint64 vaddr);
void sp_annotation_get_line_addresses (SpAnnotation *self,
                                       guint file,
                                       guint line,
                                       GArray *rows);
/* The line row of file (SP_ANNOTATION_NONE when it has no cost). */
guint sp_annotation_find_line (SpAnnotation *self,
                               guint file,
                               guint line);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpAnnotation, sp_annotation_unref)

G_END_DECLS
