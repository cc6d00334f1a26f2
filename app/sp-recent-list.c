/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recent-list.c: a heading and a GtkListBox, rebuilt from
 * GtkRecentManager whenever it says the list changed. */
#include "sp-recent-list.h"

/* How our entries are told apart from other programs' in the list. */
#define RECENT_APP_NAME "stackpulse"
#define SPOOL_MIME_TYPE "application/x-stackpulse-spool"

struct _SpRecentList
{
  GtkWidget         parent_instance;

  /* Borrowed references (children) */
  GtkWidget        *box;
  GtkListBox       *rows;

  /* Owned references */
  GtkRecentManager *manager;
  GPtrArray        *files;      /* GFile, in row order */
  GArray           *exists;     /* gboolean per file */
};

enum { OPEN, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpRecentList, sp_recent_list, GTK_TYPE_WIDGET)

void
sp_recent_list_add_file (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  GtkRecentData data = {
    .display_name = NULL,
    .mime_type = (char *) SPOOL_MIME_TYPE,
    .app_name = (char *) RECENT_APP_NAME,
    .app_exec = (char *) "stackpulse %u",
  };

  gtk_recent_manager_add_full (gtk_recent_manager_get_default (), uri, &data);
}

static int
newest_first (gconstpointer a,
              gconstpointer b)
{
  GtkRecentInfo *ia = *(GtkRecentInfo **) a;
  GtkRecentInfo *ib = *(GtkRecentInfo **) b;

  return g_date_time_compare (gtk_recent_info_get_modified (ib), gtk_recent_info_get_modified (ia));
}

static GtkWidget *
create_row (GFile *file,
            GtkRecentInfo *info,
            gboolean exists)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  g_autofree char *name = g_file_get_basename (file);
  g_autoptr (GFile) parent = g_file_get_parent (file);
  g_autofree char *folder = parent != NULL ? g_file_get_parse_name (parent) : g_strdup ("");
  g_autofree char *when = g_date_time_format (gtk_recent_info_get_modified (info), "%e %b %Y, %H:%M");
  g_autofree char *detail = exists ? g_strdup_printf ("%s — %s", folder, when)
                                   : g_strdup_printf ("Missing: %s is no longer in %s", name, folder);
  GtkWidget *title = gtk_label_new (name);
  GtkWidget *subtitle = gtk_label_new (detail);

  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (title), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (subtitle), PANGO_ELLIPSIZE_START);
  gtk_widget_add_css_class (subtitle, "dim-label");
  gtk_widget_add_css_class (subtitle, "caption");
  g_object_set (box, "margin-top", 6, "margin-bottom", 6, "margin-start", 12, "margin-end", 12, NULL);
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), subtitle);
  gtk_widget_set_tooltip_text (box, g_file_peek_path (file));
  return box;
}

void
sp_recent_list_reload (SpRecentList *self)
{
  GList *items = gtk_recent_manager_get_items (self->manager);
  g_autoptr (GPtrArray) ours = g_ptr_array_new ();
  GtkWidget *child;

  for (GList *l = items; l != NULL; l = l->next)
    if (gtk_recent_info_has_application (l->data, RECENT_APP_NAME) && gtk_recent_info_is_local (l->data))
      g_ptr_array_add (ours, l->data);
  g_ptr_array_sort (ours, newest_first);

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->rows))) != NULL)
    gtk_list_box_remove (self->rows, child);
  g_ptr_array_set_size (self->files, 0);
  g_array_set_size (self->exists, 0);
  for (guint i = 0; i < ours->len && self->files->len < SP_RECENT_LIST_MAX; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (ours, i);
      GFile *file = g_file_new_for_uri (gtk_recent_info_get_uri (info));
      gboolean exists = g_file_query_exists (file, NULL);
      GtkWidget *row = create_row (file, info, exists);

      gtk_list_box_append (self->rows, row);
      /* A missing file is listed, so the user knows where it was, but
       * cannot be clicked. */
      gtk_widget_set_sensitive (gtk_widget_get_parent (row), exists);
      g_ptr_array_add (self->files, file);
      g_array_append_val (self->exists, exists);
    }
  gtk_widget_set_visible (self->box, self->files->len > 0);
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
}

guint
sp_recent_list_get_n_files (SpRecentList *self)
{
  return self->files->len;
}

GFile *
sp_recent_list_get_file (SpRecentList *self,
                         guint index,
                         gboolean *exists)
{
  g_return_val_if_fail (index < self->files->len, NULL);
  if (exists != NULL)
    *exists = g_array_index (self->exists, gboolean, index);
  return g_ptr_array_index (self->files, index);
}

gboolean
sp_recent_list_activate (SpRecentList *self,
                         guint index)
{
  if (index >= self->files->len || !g_array_index (self->exists, gboolean, index))
    return FALSE;
  g_signal_emit (self, signals[OPEN], 0, g_ptr_array_index (self->files, index));
  return TRUE;
}

static void
row_activated (GtkListBox *box,
               GtkListBoxRow *row,
               SpRecentList *self)
{
  sp_recent_list_activate (self, (guint) gtk_list_box_row_get_index (row));
}

static void
sp_recent_list_dispose (GObject *object)
{
  SpRecentList *self = SP_RECENT_LIST (object);

  if (self->manager != NULL)
    g_signal_handlers_disconnect_by_data (self->manager, self);
  g_clear_object (&self->manager);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (sp_recent_list_parent_class)->dispose (object);
}

static void
sp_recent_list_finalize (GObject *object)
{
  SpRecentList *self = SP_RECENT_LIST (object);

  g_ptr_array_unref (self->files);
  g_array_unref (self->exists);
  G_OBJECT_CLASS (sp_recent_list_parent_class)->finalize (object);
}

static void
sp_recent_list_class_init (SpRecentListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = sp_recent_list_dispose;
  object_class->finalize = sp_recent_list_finalize;
  signals[OPEN] = g_signal_new ("open", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                G_TYPE_NONE, 1, G_TYPE_FILE);
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
sp_recent_list_init (SpRecentList *self)
{
  GtkWidget *heading = gtk_label_new ("Recent Recordings");

  self->files = g_ptr_array_new_with_free_func (g_object_unref);
  self->exists = g_array_new (FALSE, FALSE, sizeof (gboolean));
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  self->rows = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->rows, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->rows), "boxed-list");
  g_signal_connect (self->rows, "row-activated", G_CALLBACK (row_activated), self);
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  gtk_box_append (GTK_BOX (self->box), heading);
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->rows));
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->manager = g_object_ref (gtk_recent_manager_get_default ());
  g_signal_connect_swapped (self->manager, "changed", G_CALLBACK (sp_recent_list_reload), self);
  sp_recent_list_reload (self);
}

SpRecentList *
sp_recent_list_new (void)
{
  return g_object_new (SP_TYPE_RECENT_LIST, NULL);
}
