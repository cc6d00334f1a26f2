/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-row.c: the Source page's row items (sp-source-row-private.h). */
#include "sp-source-row-private.h"

G_DEFINE_FINAL_TYPE (SpSourceRow, sp_source_row, G_TYPE_OBJECT)

static void
sp_source_row_finalize (GObject *object)
{
  g_free (SP_SOURCE_ROW (object)->text);
  G_OBJECT_CLASS (sp_source_row_parent_class)->finalize (object);
}

static void
sp_source_row_class_init (SpSourceRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = sp_source_row_finalize;
}

static void
sp_source_row_init (SpSourceRow *self)
{
  self->callee = G_MAXUINT32;
}

SpSourceRow *
_sp_source_row_new (char *text,
                    guint line)
{
  SpSourceRow *self = g_object_new (SP_TYPE_SOURCE_ROW, NULL);

  self->text = text;
  self->line = line;
  return self;
}
