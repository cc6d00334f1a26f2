/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-cells.c: the cell styling the tables share (sp-cells-private.h). */
#include "sp-cells-private.h"

void
_sp_cells_style_function_label (GtkLabel *label,
                                SpFunctionKind kind)
{
  g_autoptr (PangoAttrList) attrs = NULL;
  gboolean dim = kind == SP_FUNCTION_UNRESOLVED || kind == SP_FUNCTION_TRUNCATED;

  if (dim)
    gtk_widget_add_css_class (GTK_WIDGET (label), "dim-label");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (label), "dim-label");
  if (kind == SP_FUNCTION_KERNEL || kind == SP_FUNCTION_SYNTHETIC)
    {
      attrs = pango_attr_list_new ();
      pango_attr_list_insert (attrs, pango_attr_style_new (PANGO_STYLE_ITALIC));
    }
  gtk_label_set_attributes (label, attrs);
}

char *
_sp_cells_format_share (double percent,
                        guint64 samples)
{
  return g_strdup_printf ("%.1f%%  (%" G_GUINT64_FORMAT ")", percent, samples);
}

/* GTK 4.8 has no gtk_column_view_scroll_to (4.12); the list view inside
 * the column view has had the "list.scroll-to-item" action since 4.0. */
void
_sp_cells_scroll_to (GtkColumnView *column_view,
                     guint position)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (column_view));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}
