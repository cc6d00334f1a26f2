/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-name-label.h: a function's name in a table cell, as much of it as
 * fits.
 *
 * A text that, given less width than the name needs, shows the name with
 * its template arguments left out, then its parameter lists too
 * (sp_name_elide: std::map<…>::operator[](…)), and only then cuts the end
 * with an ellipsis. It asks for the full name's width, so a column sized
 * to its cells still gets room for whole names. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SP_TYPE_NAME_LABEL (sp_name_label_get_type ())
G_DECLARE_FINAL_TYPE (SpNameLabel, sp_name_label, SP, NAME_LABEL, GtkWidget)

GtkWidget *sp_name_label_new (void);

/* The full name (NULL: none). */
void sp_name_label_set_name (SpNameLabel *self,
                             const char *name);
const char *sp_name_label_get_name (SpNameLabel *self);

/* What is shown: the name or a shorter form (the child may still cut
 * its end with an ellipsis). */
const char *sp_name_label_get_text (SpNameLabel *self);

/* Pango attributes for the text (italics, say); NULL: none. */
void sp_name_label_set_attributes (SpNameLabel *self,
                                   PangoAttrList *attributes);

G_END_DECLS
