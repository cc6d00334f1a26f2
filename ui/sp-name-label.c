/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-name-label.c: a function's name in a table cell, as much of it as
 * fits (sp-name-label.h).
 *
 * The choice of form is made where the width is known, in size_allocate:
 * the longest form whose width fits goes into the child. The child is a
 * GtkInscription, not a GtkLabel: a label's new text asks for a new size,
 * and asked while the row is being allocated it leaves the row without an
 * allocation until the next frame (GTK warns when it is drawn); an
 * inscription's size does not depend on its text. The forms and their
 * widths are computed once per name (a list row is allocated again on
 * every scroll). */
#include "sp-name-label.h"

#include "sp-name-elide.h"

struct _SpNameLabel
{
  GtkWidget parent_instance;

  /* Child widgets */
  GtkInscription *text;

  char          *name;
  char          *forms[SP_NAME_N_ELISIONS];   /* made when first needed */
  int            widths[SP_NAME_N_ELISIONS];  /* pixels; -1: not measured */
  guint          font_serial;                 /* the Pango context's when measured */
  PangoAttrList *attributes;                  /* owned */
};

G_DEFINE_FINAL_TYPE (SpNameLabel, sp_name_label, GTK_TYPE_WIDGET)

static void
forget_forms (SpNameLabel *self)
{
  for (guint i = 0; i < SP_NAME_N_ELISIONS; i++)
    {
      g_clear_pointer (&self->forms[i], g_free);
      self->widths[i] = -1;
    }
}

static const char *
form (SpNameLabel *self,
      SpNameElision elision)
{
  if (self->forms[elision] == NULL)
    self->forms[elision] = sp_name_elide (self->name, elision);
  return self->forms[elision];
}

/* The width text needs, in the child's font and attributes. */
static int
text_width (SpNameLabel *self,
            const char *text)
{
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (self->text), text);
  int width;

  pango_layout_set_attributes (layout, self->attributes);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static int
form_width (SpNameLabel *self,
            SpNameElision elision)
{
  guint serial = pango_context_get_serial (gtk_widget_get_pango_context (GTK_WIDGET (self->text)));

  /* Another font (or size) since: measure again. */
  if (serial != self->font_serial)
    {
      for (guint i = 0; i < SP_NAME_N_ELISIONS; i++)
        self->widths[i] = -1;
      self->font_serial = serial;
    }
  if (self->widths[elision] < 0)
    self->widths[elision] = text_width (self, form (self, elision));
  return self->widths[elision];
}

/* The longest form that fits in width; the shortest, to be cut by the
 * label's ellipsis, when none does. */
static const char *
text_for_width (SpNameLabel *self,
                int width)
{
  for (SpNameElision e = SP_NAME_FULL; e < SP_NAME_N_ELISIONS; e++)
    if (form_width (self, e) <= width)
      return form (self, e);
  return form (self, SP_NAME_N_ELISIONS - 1);
}

static void
sp_name_label_measure (GtkWidget *widget,
                       GtkOrientation orientation,
                       int for_size,
                       int *minimum,
                       int *natural,
                       int *minimum_baseline,
                       int *natural_baseline)
{
  SpNameLabel *self = SP_NAME_LABEL (widget);

  gtk_widget_measure (GTK_WIDGET (self->text), orientation, for_size,
                      minimum, natural, minimum_baseline, natural_baseline);
  if (orientation == GTK_ORIENTATION_HORIZONTAL && self->name != NULL)
    *natural = MAX (*natural, form_width (self, SP_NAME_FULL));
}

static void
sp_name_label_size_allocate (GtkWidget *widget,
                             int width,
                             int height,
                             int baseline)
{
  SpNameLabel *self = SP_NAME_LABEL (widget);

  if (self->name != NULL)
    {
      const char *text = text_for_width (self, width);

      if (g_strcmp0 (gtk_inscription_get_text (self->text), text) != 0)
        gtk_inscription_set_text (self->text, text);
    }
  gtk_widget_allocate (GTK_WIDGET (self->text), width, height, baseline, NULL);
}

static void
sp_name_label_dispose (GObject *object)
{
  SpNameLabel *self = SP_NAME_LABEL (object);

  g_clear_pointer ((GtkWidget **) &self->text, gtk_widget_unparent);
  G_OBJECT_CLASS (sp_name_label_parent_class)->dispose (object);
}

static void
sp_name_label_finalize (GObject *object)
{
  SpNameLabel *self = SP_NAME_LABEL (object);

  forget_forms (self);
  g_free (self->name);
  g_clear_pointer (&self->attributes, pango_attr_list_unref);
  G_OBJECT_CLASS (sp_name_label_parent_class)->finalize (object);
}

static void
sp_name_label_class_init (SpNameLabelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_name_label_dispose;
  object_class->finalize = sp_name_label_finalize;
  widget_class->measure = sp_name_label_measure;
  widget_class->size_allocate = sp_name_label_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "sp-name-label");
}

static void
sp_name_label_init (SpNameLabel *self)
{
  self->text = GTK_INSCRIPTION (gtk_inscription_new (NULL));
  gtk_inscription_set_xalign (self->text, 0.0);
  gtk_inscription_set_text_overflow (self->text, GTK_INSCRIPTION_OVERFLOW_ELLIPSIZE_END);
  gtk_widget_set_parent (GTK_WIDGET (self->text), GTK_WIDGET (self));
  forget_forms (self);
}

GtkWidget *
sp_name_label_new (void)
{
  return g_object_new (SP_TYPE_NAME_LABEL, NULL);
}

void
sp_name_label_set_name (SpNameLabel *self,
                        const char *name)
{
  g_return_if_fail (SP_IS_NAME_LABEL (self));

  if (g_strcmp0 (self->name, name) == 0)
    return;
  forget_forms (self);
  g_free (self->name);
  self->name = g_strdup (name);
  /* The full name until the width is known. */
  gtk_inscription_set_text (self->text, name);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
}

const char *
sp_name_label_get_name (SpNameLabel *self)
{
  g_return_val_if_fail (SP_IS_NAME_LABEL (self), NULL);

  return self->name;
}

const char *
sp_name_label_get_text (SpNameLabel *self)
{
  g_return_val_if_fail (SP_IS_NAME_LABEL (self), NULL);

  return gtk_inscription_get_text (self->text);
}

void
sp_name_label_set_attributes (SpNameLabel *self,
                              PangoAttrList *attributes)
{
  g_return_if_fail (SP_IS_NAME_LABEL (self));

  if (self->attributes == attributes)
    return;
  g_clear_pointer (&self->attributes, pango_attr_list_unref);
  self->attributes = attributes != NULL ? pango_attr_list_ref (attributes) : NULL;
  gtk_inscription_set_attributes (self->text, attributes);
  for (guint i = 0; i < SP_NAME_N_ELISIONS; i++)
    self->widths[i] = -1;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}
