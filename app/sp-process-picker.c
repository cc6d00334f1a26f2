/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-process-picker.c: the list is a GtkColumnView over
 * processes → filter (the search) → sort (the clicked column) → selection;
 * the processes come from sp-process.c, read again on Refresh. */
#include "sp-process-picker.h"

#include "sp-offcpu-option.h"
#include "sp-process.h"

typedef enum {
  COLUMN_PID,
  COLUMN_NAME,
  COLUMN_USER,
  COLUMN_CPU,
  COLUMN_COMMAND,
} Column;

struct _SpProcessPicker
{
  GtkWindow           parent_instance;

  /* Borrowed references (children) */
  GtkSearchEntry     *search;
  GtkColumnView      *view;
  GtkWidget          *attach_button;
  GtkLabel           *count_label;
  GtkCheckButton     *off_cpu;

  /* Owned references */
  GListStore         *processes;
  GtkCustomFilter    *filter;
  GtkFilterListModel *filtered;
  GtkSortListModel   *sorted;
  GtkSingleSelection *selection;
  char               *search_text;
};

enum { ATTACH, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SpProcessPicker, sp_process_picker, GTK_TYPE_WINDOW)

static gboolean
process_shown (gpointer item,
               gpointer user_data)
{
  SpProcessPicker *self = user_data;

  return sp_process_matches (item, self->search_text);
}

static void
update_count (SpProcessPicker *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  guint all = g_list_model_get_n_items (G_LIST_MODEL (self->processes));
  g_autofree char *text = NULL;

  if (shown == 0 && all > 0)
    text = g_strdup_printf ("No process matches “%s”", self->search_text);
  else if (shown == all)
    text = g_strdup_printf ("%u processes", all);
  else
    text = g_strdup_printf ("%u of %u processes", shown, all);
  gtk_label_set_text (self->count_label, text);
  gtk_widget_set_sensitive (self->attach_button,
                            gtk_single_selection_get_selected_item (self->selection) != NULL);
}

static void
apply_search (SpProcessPicker *self,
              const char *text)
{
  if (g_strcmp0 (self->search_text, text) == 0)
    return;
  g_free (self->search_text);
  self->search_text = g_strdup (text);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_count (self);
}

static void
search_changed (GtkSearchEntry *entry,
                SpProcessPicker *self)
{
  apply_search (self, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

void
sp_process_picker_set_search (SpProcessPicker *self,
                              const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (self->search), text);
  apply_search (self, text);
}

GListModel *
sp_process_picker_get_model (SpProcessPicker *self)
{
  return G_LIST_MODEL (self->sorted);
}

gboolean
sp_process_picker_select_pid (SpProcessPicker *self,
                              int pid)
{
  GListModel *model = G_LIST_MODEL (self->sorted);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr (SpProcess) process = g_list_model_get_item (model, i);

      if (sp_process_get_pid (process) == pid)
        {
          gtk_single_selection_set_selected (self->selection, i);
          return TRUE;
        }
    }
  return FALSE;
}

void
sp_process_picker_refresh (SpProcessPicker *self)
{
  SpProcess *selected = gtk_single_selection_get_selected_item (self->selection);
  int selected_pid = selected != NULL ? sp_process_get_pid (selected) : -1;
  g_autoptr (GListStore) now = sp_process_list_running (NULL);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (now));
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, g_list_model_get_item (G_LIST_MODEL (now), i));
  g_list_store_splice (self->processes, 0, g_list_model_get_n_items (G_LIST_MODEL (self->processes)),
                       items->pdata, items->len);
  if (selected_pid > 0)
    sp_process_picker_select_pid (self, selected_pid);
  update_count (self);
}

gboolean
sp_process_picker_attach (SpProcessPicker *self)
{
  SpProcess *process = gtk_single_selection_get_selected_item (self->selection);
  g_autoptr (SpProcess) chosen = process != NULL ? g_object_ref (process) : NULL;

  if (chosen == NULL)
    return FALSE;
  g_signal_emit (self, signals[ATTACH], 0, sp_process_get_pid (chosen), sp_process_get_name (chosen));
  gtk_window_close (GTK_WINDOW (self));
  return TRUE;
}

/* ---- Columns ------------------------------------------------------------- */

static void
cell_setup (GtkSignalListItemFactory *factory,
            GtkListItem *item,
            gpointer data)
{
  Column column = GPOINTER_TO_INT (data);
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), column == COLUMN_PID || column == COLUMN_CPU ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), column == COLUMN_COMMAND ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);
  if (column == COLUMN_PID || column == COLUMN_CPU)
    gtk_widget_add_css_class (label, "numeric");
  if (column == COLUMN_COMMAND)
    gtk_widget_add_css_class (label, "dim-label");
  gtk_list_item_set_child (item, label);
}

static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem *item,
           gpointer data)
{
  SpProcess *process = gtk_list_item_get_item (item);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  g_autofree char *text = NULL;

  switch ((Column) GPOINTER_TO_INT (data))
    {
    case COLUMN_PID:
      text = g_strdup_printf ("%d", sp_process_get_pid (process));
      break;
    case COLUMN_NAME:
      text = g_strdup (sp_process_get_name (process));
      break;
    case COLUMN_USER:
      text = g_strdup (sp_process_get_user (process));
      break;
    case COLUMN_CPU:
      text = g_strdup_printf ("%.1f s", sp_process_get_cpu_seconds (process));
      break;
    case COLUMN_COMMAND:
    default:
      text = g_strdup (sp_process_get_command_line (process));
      gtk_widget_set_tooltip_text (GTK_WIDGET (label), text);
      break;
    }
  gtk_label_set_text (label, text);
}

static int
compare_column (gconstpointer a,
                gconstpointer b,
                gpointer data)
{
  SpProcess *pa = SP_PROCESS ((gpointer) a);
  SpProcess *pb = SP_PROCESS ((gpointer) b);

  switch ((Column) GPOINTER_TO_INT (data))
    {
    case COLUMN_PID:
      return (sp_process_get_pid (pa) > sp_process_get_pid (pb)) - (sp_process_get_pid (pa) < sp_process_get_pid (pb));
    case COLUMN_NAME:
      return g_ascii_strcasecmp (sp_process_get_name (pa), sp_process_get_name (pb));
    case COLUMN_USER:
      return g_strcmp0 (sp_process_get_user (pa), sp_process_get_user (pb));
    case COLUMN_CPU:
      return (sp_process_get_cpu_seconds (pa) > sp_process_get_cpu_seconds (pb))
             - (sp_process_get_cpu_seconds (pa) < sp_process_get_cpu_seconds (pb));
    case COLUMN_COMMAND:
    default:
      return g_strcmp0 (sp_process_get_command_line (pa), sp_process_get_command_line (pb));
    }
}

static void
add_column (SpProcessPicker *self,
            const char *title,
            Column column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *view_column;
  GtkSorter *sorter = GTK_SORTER (gtk_custom_sorter_new (compare_column, GINT_TO_POINTER (column), NULL));

  g_signal_connect (factory, "setup", G_CALLBACK (cell_setup), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (cell_bind), GINT_TO_POINTER (column));
  view_column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_sorter (view_column, sorter);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_column_set_expand (view_column, column == COLUMN_COMMAND);
  gtk_column_view_append_column (self->view, view_column);
  g_object_unref (sorter);
  g_object_unref (view_column);
}

/* ---- The window ------------------------------------------------------------ */

static void
attach_clicked (SpProcessPicker *self)
{
  sp_process_picker_attach (self);
}

static void
row_activated (GtkColumnView *view,
               guint position,
               SpProcessPicker *self)
{
  gtk_single_selection_set_selected (self->selection, position);
  sp_process_picker_attach (self);
}

static void
refresh_activated (GtkWidget *widget,
                   const char *action_name,
                   GVariant *parameter)
{
  sp_process_picker_refresh (SP_PROCESS_PICKER (widget));
}

static GtkWidget *
create_header (SpProcessPicker *self)
{
  GtkWidget *header = gtk_header_bar_new ();
  GtkWidget *refresh = gtk_button_new_from_icon_name ("view-refresh-symbolic");

  self->attach_button = gtk_button_new_with_mnemonic ("_Attach");
  gtk_widget_add_css_class (self->attach_button, "suggested-action");
  g_signal_connect_swapped (self->attach_button, "clicked", G_CALLBACK (attach_clicked), self);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (refresh), "picker.refresh");
  gtk_widget_set_tooltip_text (refresh, "Read the list of processes again (F5)");
  gtk_header_bar_pack_start (GTK_HEADER_BAR (header), refresh);
  gtk_header_bar_pack_end (GTK_HEADER_BAR (header), self->attach_button);
  return header;
}

static void
sp_process_picker_dispose (GObject *object)
{
  SpProcessPicker *self = SP_PROCESS_PICKER (object);

  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->filtered);
  g_clear_object (&self->filter);
  g_clear_object (&self->processes);
  G_OBJECT_CLASS (sp_process_picker_parent_class)->dispose (object);
}

static void
sp_process_picker_finalize (GObject *object)
{
  g_free (SP_PROCESS_PICKER (object)->search_text);
  G_OBJECT_CLASS (sp_process_picker_parent_class)->finalize (object);
}

static void
sp_process_picker_class_init (SpProcessPickerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = sp_process_picker_dispose;
  object_class->finalize = sp_process_picker_finalize;
  signals[ATTACH] = g_signal_new ("attach", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 2, G_TYPE_INT, G_TYPE_STRING);
  gtk_widget_class_install_action (widget_class, "picker.refresh", NULL, refresh_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "picker.refresh", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
sp_process_picker_init (SpProcessPicker *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *option;

  gtk_window_set_title (GTK_WINDOW (self), "Attach to a Process");
  gtk_window_set_default_size (GTK_WINDOW (self), 760, 520);
  gtk_window_set_titlebar (GTK_WINDOW (self), create_header (self));

  self->search_text = g_strdup ("");
  self->processes = g_list_store_new (SP_TYPE_PROCESS);
  self->filter = gtk_custom_filter_new (process_shown, self, NULL);
  self->filtered = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->processes)),
                                              g_object_ref (GTK_FILTER (self->filter)));
  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  self->sorted = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filtered)),
                                          g_object_ref (gtk_column_view_get_sorter (self->view)));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sorted)));
  gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (self->selection));
  add_column (self, "PID", COLUMN_PID);
  add_column (self, "Name", COLUMN_NAME);
  add_column (self, "User", COLUMN_USER);
  add_column (self, "CPU Time", COLUMN_CPU);
  add_column (self, "Command Line", COLUMN_COMMAND);
  g_signal_connect (self->view, "activate", G_CALLBACK (row_activated), self);
  g_signal_connect_swapped (self->selection, "notify::selected", G_CALLBACK (update_count), self);

  self->search = GTK_SEARCH_ENTRY (gtk_search_entry_new ());
  g_object_set (self->search, "placeholder-text", "Search by name, pid, user or command line", "margin-top", 6,
                "margin-bottom", 6, "margin-start", 6, "margin-end", 6, NULL);
  g_signal_connect (self->search, "search-changed", G_CALLBACK (search_changed), self);
  g_signal_connect_swapped (self->search, "activate", G_CALLBACK (attach_clicked), self);
  gtk_search_entry_set_key_capture_widget (self->search, GTK_WIDGET (self));

  self->count_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->count_label, 0);
  g_object_set (self->count_label, "margin-top", 4, "margin-bottom", 4, "margin-start", 8, NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self->count_label), "dim-label");

  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->search));
  gtk_box_append (GTK_BOX (box), scroller);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->count_label));
  option = sp_offcpu_option_new (&self->off_cpu);
  g_object_set (option, "margin-top", 4, "margin-bottom", 8, "margin-start", 8, "margin-end", 8, NULL);
  gtk_box_append (GTK_BOX (box), option);
  gtk_window_set_child (GTK_WINDOW (self), box);
  sp_process_picker_refresh (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->search));
}

gboolean
sp_process_picker_get_off_cpu (SpProcessPicker *self)
{
  return gtk_check_button_get_active (self->off_cpu);
}

SpProcessPicker *
sp_process_picker_new (GtkWindow *parent)
{
  return g_object_new (SP_TYPE_PROCESS_PICKER, "transient-for", parent, "modal", TRUE, NULL);
}
