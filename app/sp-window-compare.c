/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-window-compare.c: "Compare With…": the window's recording against a
 * chosen file, in a compare window (sp-compare-window.c). */
#include "sp-window-compare.h"

#include "sp-window-private.h"

/* The chooser, while it is open (the window's own is for Open). */
#define CHOOSER_KEY "sp-window-compare-chooser"

SpCompareWindow *
sp_window_compare_with (SpWindow *self,
                        GFile *file)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  /* A recording in progress is what changes: it is the "after". */
  gboolean live = sp_window_is_recording (self) || self->following;
  SpCompareWindow *compare;

  if (self->file == NULL)
    return NULL;
  compare = sp_compare_window_new (app != NULL ? SP_APPLICATION (app) : NULL, live ? file : self->file,
                                   live ? self->file : file);
  /* What the window shows is transformed: so are both sides. */
  sp_compare_window_carry_transforms (compare, sp_analysis_get_filter (self->analysis),
                                      sp_analysis_get_profile (self->analysis));
  gtk_window_present (GTK_WINDOW (compare));
  return compare;
}

static void
chooser_response (GtkNativeDialog *dialog,
                  int response,
                  gpointer user_data)
{
  SpWindow *self = user_data;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));

      sp_window_compare_with (self, file);
    }
  g_object_set_data (G_OBJECT (self), CHOOSER_KEY, NULL);
}

static void
compare_activated (GtkWidget *widget,
                   const char *action_name,
                   GVariant *parameter)
{
  SpWindow *self = SP_WINDOW (widget);
  g_autoptr (GtkFileFilter) filter = gtk_file_filter_new ();
  gboolean live = sp_window_is_recording (self) || self->following;
  GtkFileChooserNative *chooser;

  if (g_object_get_data (G_OBJECT (self), CHOOSER_KEY) != NULL)
    return;
  gtk_file_filter_set_name (filter, "stackpulse recordings");
  gtk_file_filter_add_pattern (filter, "*.spool");
  chooser = gtk_file_chooser_native_new (live ? "Compare the Recording with a Baseline"
                                              : "Compare with Another Recording",
                                         GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN, "_Compare", "_Cancel");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
  g_signal_connect (chooser, "response", G_CALLBACK (chooser_response), self);
  /* The window holds the chooser until it answers (or the window goes). */
  g_object_set_data_full (G_OBJECT (self), CHOOSER_KEY, chooser, g_object_unref);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
_sp_window_compare_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.compare", NULL, compare_activated);
}
