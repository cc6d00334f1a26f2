/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-annotation-private.h: the annotation's parts, for its own files.
 *
 * sp-annotation-walk.c walks the counted stacks and adds costs through
 * the _sp_annotation_intern_* functions of sp-annotation.c, which keeps
 * the rows, then sorts and indexes them once (_sp_annotation_finish). */
#pragma once

#include "sp-annotation.h"

G_BEGIN_DECLS

SpAnnotation *_sp_annotation_new (const SpFunction *function,
                                  SpMetric metric);

/* Where the function is defined, as the symbolizer made it absolute
 * (the profile's function has DWARF's path, maybe relative); the first
 * one given stays. */
void _sp_annotation_set_decl_file (SpAnnotation *self,
                                   const char *path);

/* Each returns the row's index, made on first use. */
guint _sp_annotation_intern_place (SpAnnotation *self,
                                   const char *module,
                                   guint64 inode,
                                   const char *function,
                                   guint64 start);
guint _sp_annotation_intern_file (SpAnnotation *self,
                                  const char *path);
guint _sp_annotation_intern_line (SpAnnotation *self,
                                  guint file,
                                  guint line);
guint _sp_annotation_intern_address (SpAnnotation *self,
                                     const SpAnnotationAddress *address);

typedef enum {
  SP_ANNOTATION_ROW_PLACE,
  SP_ANNOTATION_ROW_ADDRESS,
  SP_ANNOTATION_ROW_LINE,
} SpAnnotationRowKind;

/* Adds to one row (an index an _sp_annotation_intern_* gave). */
void _sp_annotation_add_cost (SpAnnotation *self,
                              SpAnnotationRowKind kind,
                              guint row,
                              guint64 self_cost,
                              guint64 total_cost);
void _sp_annotation_add_totals (SpAnnotation *self,
                                guint64 self_cost,
                                guint64 total_cost,
                                guint64 all);

/* Sorts places, files, lines and addresses, and indexes them. */
void _sp_annotation_finish (SpAnnotation *self);

G_END_DECLS
