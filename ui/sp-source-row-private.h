/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-row-private.h: one row of the Source page's tables: a source
 * line, or an instruction of the disassembly (ui/ only).
 *
 * Plain values copied from the SpSourceAnnotation when it is shown: the
 * tables' cells read them. The same function shown again (a live update,
 * a new filter) sets new costs on the same rows, which notify "costs":
 * the cells follow, and the tables keep their row widgets, selection and
 * scroll position. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SP_TYPE_SOURCE_ROW (sp_source_row_get_type ())
G_DECLARE_FINAL_TYPE (SpSourceRow, sp_source_row, SP, SOURCE_ROW, GObject)

struct _SpSourceRow
{
  GObject  parent_instance;

  char    *text;          /* the line's text, or the instruction */
  guint    line;          /* the line's number, or the instruction's line (0: none) */
  guint64  vaddr;         /* an instruction's address */
  guint64  self;
  guint64  total;
  double   self_heat;     /* 0..1: the share of the function's cost, for the colour */
  double   total_heat;
  guint32  callee;        /* a call's target function, G_MAXUINT32 for none */
};

/* Takes text. */
SpSourceRow *_sp_source_row_new (char *text,
                                 guint line);

/* New costs (and heats): notifies "costs". */
void _sp_source_row_set_costs (SpSourceRow *self,
                               guint64 self_cost,
                               guint64 total_cost,
                               double self_heat,
                               double total_heat);

G_END_DECLS
