/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-flame-labels.c: function names shaped once, cut to any width.
 *
 * A name laid out by Pango as a single run is one font and one glyph
 * string; cutting it at a cluster boundary and drawing the cut glyphs
 * with GSK's text node is what Pango's ellipsizing would give, without
 * shaping again. On a deep 1M-sample flame graph, shaping every label of
 * every zoom took a quarter of each frame.
 *
 * A name too wide for its frame is tried shorter first (sp_name_elide:
 * template arguments, then parameter lists left out), each form shaped
 * once too, and only the shortest is cut. */
#include "sp-flame-labels.h"

#include "sp-name-elide.h"

#include <math.h>
#include <string.h>

typedef struct {
  char             *name;      /* the key's name when shaped: a changed name is shaped again */
  char             *text;      /* what was shaped: the name or a shorter form of it */
  PangoFont        *font;      /* NULL: more than one run, laid out per frame */
  PangoGlyphString *glyphs;
  int               width;     /* Pango units, of the whole text */
  int               height;    /* logical, pixels */
  int               baseline;  /* Pango units below the top */
} Label;

struct _SpFlameLabels
{
  /* Owned references */
  PangoLayout          *layout;  /* shapes names, and lays out the multi-run ones per frame */
  PangoFontDescription *font;    /* the widget's when made */
  GHashTable  *labels[SP_NAME_N_ELISIONS];  /* key -> Label, one table per form */
  Label        ellipsis;
};

static void
label_clear (Label *label)
{
  g_clear_pointer (&label->name, g_free);
  g_clear_pointer (&label->text, g_free);
  g_clear_object (&label->font);
  g_clear_pointer (&label->glyphs, pango_glyph_string_free);
}

static void
label_free (gpointer data)
{
  label_clear (data);
  g_free (data);
}

/* Shapes text for label, made for name. */
static void
shape (SpFlameLabels *labels,
       const char *name,
       char *text,
       Label *label)
{
  PangoLayoutLine *line;

  label_clear (label);
  label->name = g_strdup (name);
  label->text = text;
  pango_layout_set_width (labels->layout, -1);
  pango_layout_set_ellipsize (labels->layout, PANGO_ELLIPSIZE_NONE);
  pango_layout_set_text (labels->layout, text, -1);
  pango_layout_get_size (labels->layout, &label->width, NULL);
  pango_layout_get_pixel_size (labels->layout, NULL, &label->height);
  label->baseline = pango_layout_get_baseline (labels->layout);
  line = pango_layout_get_line_readonly (labels->layout, 0);
  if (line != NULL && line->runs != NULL && line->runs->next == NULL)
    {
      PangoGlyphItem *run = line->runs->data;

      label->font = g_object_ref (run->item->analysis.font);
      label->glyphs = pango_glyph_string_copy (run->glyphs);
      label->width = pango_glyph_string_get_width (label->glyphs);
    }
}

SpFlameLabels *
sp_flame_labels_new (GtkWidget *widget)
{
  SpFlameLabels *labels = g_new0 (SpFlameLabels, 1);

  labels->layout = gtk_widget_create_pango_layout (widget, NULL);
  labels->font = pango_font_description_copy (pango_context_get_font_description (gtk_widget_get_pango_context (widget)));
  pango_layout_set_single_paragraph_mode (labels->layout, TRUE);
  for (guint i = 0; i < SP_NAME_N_ELISIONS; i++)
    labels->labels[i] = g_hash_table_new_full (NULL, NULL, NULL, label_free);
  shape (labels, "…", g_strdup ("…"), &labels->ellipsis);
  return labels;
}

void
sp_flame_labels_free (SpFlameLabels *labels)
{
  if (labels == NULL)
    return;
  g_clear_object (&labels->layout);
  g_clear_pointer (&labels->font, pango_font_description_free);
  for (guint i = 0; i < SP_NAME_N_ELISIONS; i++)
    g_clear_pointer (&labels->labels[i], g_hash_table_unref);
  label_clear (&labels->ellipsis);
  g_free (labels);
}

gboolean
sp_flame_labels_is_current (SpFlameLabels *labels,
                            GtkWidget *widget)
{
  return pango_font_description_equal (labels->font,
                                       pango_context_get_font_description (gtk_widget_get_pango_context (widget)));
}

/* The label of name's form elision, shaped when first asked for. */
static Label *
lookup (SpFlameLabels *labels,
        guint32 key,
        const char *name,
        SpNameElision elision)
{
  GHashTable *table = labels->labels[elision];
  Label *label = g_hash_table_lookup (table, GUINT_TO_POINTER (key));

  if (label == NULL)
    {
      label = g_new0 (Label, 1);
      g_hash_table_insert (table, GUINT_TO_POINTER (key), label);
    }
  if (label->name == NULL || strcmp (label->name, name) != 0)
    shape (labels, name, sp_name_elide (name, elision), label);
  return label;
}

/* The longest form of name that fits in room (Pango units); the shortest
 * when none does. */
static const Label *
fitting_form (SpFlameLabels *labels,
              guint32 key,
              const char *name,
              int room)
{
  const Label *label = NULL;

  for (SpNameElision e = SP_NAME_FULL; e < SP_NAME_N_ELISIONS; e++)
    {
      label = lookup (labels, key, name, e);
      if (label->width <= room)
        break;
    }
  return label;
}

/* The first n glyphs of label, their origin at (x, baseline). */
static void
append_glyphs (GtkSnapshot *snapshot,
               const Label *label,
               int n,
               double x,
               double baseline,
               const GdkRGBA *colour)
{
  int all = label->glyphs->num_glyphs;
  GskRenderNode *node;

  /* The text node copies the glyphs it is given. */
  label->glyphs->num_glyphs = n;
  node = gsk_text_node_new (label->font, label->glyphs, colour, &GRAPHENE_POINT_INIT (x, baseline));
  label->glyphs->num_glyphs = all;
  if (node == NULL)  /* nothing visible */
    return;
  gtk_snapshot_append_node (snapshot, node);
  gsk_render_node_unref (node);
}

/* How many glyphs, ending at a cluster boundary, fit in room; *width gets
 * their width. */
static int
glyphs_fitting (const Label *label,
                int room,
                int *width)
{
  const PangoGlyphString *glyphs = label->glyphs;
  int x = 0;
  int fit = 0;

  *width = 0;
  for (int i = 0; i < glyphs->num_glyphs; i++)
    {
      if (glyphs->glyphs[i].attr.is_cluster_start)
        {
          if (x > room)
            break;
          fit = i;
          *width = x;
        }
      x += glyphs->glyphs[i].geometry.width;
    }
  if (x <= room)
    {
      fit = glyphs->num_glyphs;
      *width = x;
    }
  return fit;
}

/* A multi-run name: Pango lays it out for this width. */
static void
append_layout (SpFlameLabels *labels,
               GtkSnapshot *snapshot,
               const char *name,
               const graphene_rect_t *rect,
               double padding,
               double top,
               const GdkRGBA *colour)
{
  pango_layout_set_text (labels->layout, name, -1);
  pango_layout_set_ellipsize (labels->layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_width (labels->layout, (int) ((rect->size.width - 2 * padding) * PANGO_SCALE));
  gtk_snapshot_push_clip (snapshot, rect);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (rect->origin.x + padding, top));
  gtk_snapshot_append_layout (snapshot, labels->layout, colour);
  gtk_snapshot_restore (snapshot);
  gtk_snapshot_pop (snapshot);
}

void
sp_flame_labels_append (SpFlameLabels *labels,
                        GtkSnapshot *snapshot,
                        guint32 key,
                        const char *name,
                        const graphene_rect_t *rect,
                        double padding,
                        const GdkRGBA *colour)
{
  int room = (int) ((rect->size.width - 2 * padding) * PANGO_SCALE);
  const Label *label;
  double x = rect->origin.x + padding;
  double top;
  double baseline;
  int fit, width;

  if (room <= 0)
    return;
  label = fitting_form (labels, key, name, room);
  top = rect->origin.y + floor ((rect->size.height - label->height) / 2);
  if (label->font == NULL)
    {
      append_layout (labels, snapshot, label->text, rect, padding, top, colour);
      return;
    }
  baseline = top + (double) label->baseline / PANGO_SCALE;
  if (label->width <= room)
    {
      append_glyphs (snapshot, label, label->glyphs->num_glyphs, x, baseline, colour);
      return;
    }
  if (labels->ellipsis.font == NULL || labels->ellipsis.width > room)
    return;
  fit = glyphs_fitting (label, room - labels->ellipsis.width, &width);
  if (fit > 0)
    append_glyphs (snapshot, label, fit, x, baseline, colour);
  append_glyphs (snapshot, &labels->ellipsis, labels->ellipsis.glyphs->num_glyphs,
                 x + (double) width / PANGO_SCALE, baseline, colour);
}

const char *
sp_flame_labels_text_for (SpFlameLabels *labels,
                          guint32 key,
                          const char *name,
                          double width)
{
  return fitting_form (labels, key, name, (int) (width * PANGO_SCALE))->text;
}
