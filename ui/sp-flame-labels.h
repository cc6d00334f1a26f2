/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-flame-labels.h: function names shaped once, cut to any width.
 *
 * A flame graph shows the same names again at every zoom, each at another
 * width. Shaping a name (Pango) costs far more than drawing it, so each
 * name is shaped once, the first time it is drawn, and kept as a glyph
 * string; a frame narrower than the name gets a shorter form of it
 * (std::map<…>::operator[](…), sp-name-elide.h), and when even the
 * shortest is too wide, the glyphs that fit and an ellipsis. Names Pango lays out in more than one run (mixed scripts or
 * fonts) are laid out per frame instead, with Pango's own ellipsizing. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct _SpFlameLabels SpFlameLabels;

/* Shaped with widget's font; made again when that changes. */
SpFlameLabels *sp_flame_labels_new (GtkWidget *widget);
void sp_flame_labels_free (SpFlameLabels *labels);

/* Whether widget's font is still the one the names were shaped in. */
gboolean sp_flame_labels_is_current (SpFlameLabels *labels,
                                     GtkWidget *widget);

/* Draws name (known to the cache as key) inside rect, padding from its
 * left and right edges and centred vertically; nothing when not even an
 * ellipsis fits. */
void sp_flame_labels_append (SpFlameLabels *labels,
                             GtkSnapshot *snapshot,
                             guint32 key,
                             const char *name,
                             const graphene_rect_t *rect,
                             double padding,
                             const GdkRGBA *colour);

/* The form of name that sp_flame_labels_append draws in width pixels
 * (before any ellipsis): the name, or a shorter form of it. */
const char *sp_flame_labels_text_for (SpFlameLabels *labels,
                                      guint32 key,
                                      const char *name,
                                      double width);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpFlameLabels, sp_flame_labels_free)

G_END_DECLS
