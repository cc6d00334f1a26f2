/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-thread-list.c: a boxed list of check buttons, one per thread.
 *
 * Emits "thread-toggled" (guint thread, gboolean shown) when the user
 * ticks or unticks a row; the window passes it on to the analysis. */
#include "sp-thread-list.h"

#include "sp-thread-rows.h"

struct _SpThreadList
{
  GtkWidget   parent_instance;

  GtkListBox *box;
  GArray     *rows;       /* SpThreadRow */
  guint       n_listed;   /* rows with a check button */
};

enum { SIGNAL_THREAD_TOGGLED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpThreadList, sp_thread_list, GTK_TYPE_WIDGET)

static void
check_toggled (GtkCheckButton *check,
               SpThreadList *self)
{
  guint thread = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (check), "sp-thread"));

  g_signal_emit (self, signals[SIGNAL_THREAD_TOGGLED], 0, thread, gtk_check_button_get_active (check));
}

/* "sp-alpha   thread 4242, process 4240   —   961 samples" */
static char *
row_label (const SpThreadRow *row)
{
  return g_strdup_printf ("%s   thread %" G_GUINT64_FORMAT ", process %d   —   %" G_GUINT64_FORMAT " samples",
                          row->name != NULL ? row->name : "(unnamed)", row->tid, row->pid, row->n_samples);
}

static void
add_checks (SpThreadList *self,
            guint n_rows,
            const SpFilter *filter)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->box))) != NULL)
    gtk_list_box_remove (self->box, child);
  for (guint t = 0; t < n_rows; t++)
    {
      GtkWidget *check = gtk_check_button_new ();

      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), filter == NULL || !sp_filter_is_thread_hidden (filter, t));
      g_object_set_data (G_OBJECT (check), "sp-thread", GUINT_TO_POINTER (t));
      g_signal_connect (check, "toggled", G_CALLBACK (check_toggled), self);
      gtk_list_box_append (self->box, check);
    }
  self->n_listed = n_rows;
}

void
sp_thread_list_set_rows (SpThreadList *self,
                         GArray *rows,
                         const SpFilter *filter)
{
  guint n_rows = rows != NULL ? rows->len : 0;

  g_return_if_fail (SP_IS_THREAD_LIST (self));
  if (rows != NULL)
    g_array_ref (rows);
  g_clear_pointer (&self->rows, g_array_unref);
  self->rows = rows;
  if (n_rows != self->n_listed)
    add_checks (self, n_rows, filter);
  for (guint t = 0; t < n_rows; t++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->box, (int) t);
      GtkCheckButton *check = GTK_CHECK_BUTTON (gtk_list_box_row_get_child (row));
      g_autofree char *label = row_label (&g_array_index (rows, SpThreadRow, t));

      if (g_strcmp0 (gtk_check_button_get_label (check), label) != 0)
        gtk_check_button_set_label (check, label);
    }
}

static void
sp_thread_list_dispose (GObject *object)
{
  SpThreadList *self = SP_THREAD_LIST (object);

  g_clear_pointer ((GtkWidget **) &self->box, gtk_widget_unparent);
  g_clear_pointer (&self->rows, g_array_unref);
  G_OBJECT_CLASS (sp_thread_list_parent_class)->dispose (object);
}

static void
sp_thread_list_class_init (SpThreadListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_thread_list_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  signals[SIGNAL_THREAD_TOGGLED] = g_signal_new ("thread-toggled", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                 NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_BOOLEAN);
}

static void
sp_thread_list_init (SpThreadList *self)
{
  self->box = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->box, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->box), "boxed-list");
  gtk_widget_set_parent (GTK_WIDGET (self->box), GTK_WIDGET (self));
}

SpThreadList *
sp_thread_list_new (void)
{
  return g_object_new (SP_TYPE_THREAD_LIST, NULL);
}
