/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-application.c: one window per profile; files given on the command
 * line (or opened from the desktop) each get their own window. */
#include "sp-application.h"

#include "sp-read-ahead.h"
#include "sp-window-heap.h"

#include "sp-compare-window.h"
#include "sp-window.h"

struct _SpApplication
{
  GtkApplication parent_instance;
  char          *compare_path;   /* --compare B.spool: the file opened is A */
  GHashTable    *reading;        /* path → SpAnalysis: read ahead, not in a window yet */
};

G_DEFINE_FINAL_TYPE (SpApplication, sp_application, GTK_TYPE_APPLICATION)

static void
sp_application_activate (GApplication *app)
{
  SpWindow *window = sp_window_new (SP_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (window));
}

/* `stackpulse A.spool --compare B.spool` (main() checks there is one A). */
static void
open_comparison (SpApplication *self,
                 GFile *a)
{
  g_autoptr (GFile) b = g_file_new_for_commandline_arg (self->compare_path);

  gtk_window_present (GTK_WINDOW (sp_compare_window_new (self, a, b)));
}

static void
sp_application_open (GApplication *app,
                     GFile **files,
                     int n_files,
                     const char *hint)
{
  SpApplication *self = SP_APPLICATION (app);

  if (self->compare_path != NULL && n_files > 0)
    {
      open_comparison (self, files[0]);
      return;
    }
  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);
      SpAnalysis *reading = path != NULL ? g_hash_table_lookup (self->reading, path) : NULL;
      SpWindow *window = reading != NULL ? sp_window_new_reading (self, reading) : sp_window_new (self);

      if (reading != NULL)
        g_hash_table_remove (self->reading, path);
      sp_window_open_file (window, files[i]);
      gtk_window_present (GTK_WINDOW (window));
    }
  /* Files read ahead that no window took: their results are dropped. */
  g_hash_table_remove_all (self->reading);
}

static void
quit_activated (GSimpleAction *action,
                GVariant *parameter,
                gpointer user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static void
sp_application_startup (GApplication *app)
{
  static const GActionEntry actions[] = {
    { .name = "quit", .activate = quit_activated },
  };
  static const struct { const char *action; const char *accels[2]; } accels[] = {
    { "app.quit", { "<Control>q", NULL } },
    { "win.open", { "<Control>o", NULL } },
    { "win.close", { "<Control>w", NULL } },
    { "win.find", { "<Control>f", NULL } },
    { "win.show-source", { "<Control>u", NULL } },
    { "win.export", { "<Control>e", NULL } },
    { "win.record", { "<Control>r", NULL } },
    { "win.attach", { "<Shift><Control>r", NULL } },
    { "win.show-help-overlay", { "<Control>question", NULL } },
  };

  G_APPLICATION_CLASS (sp_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), actions, G_N_ELEMENTS (actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app), accels[i].action, accels[i].accels);
}

static gint
sp_application_handle_local_options (GApplication *app,
                                     GVariantDict *options)
{
  SpApplication *self = SP_APPLICATION (app);

  g_clear_pointer (&self->compare_path, g_free);
  g_variant_dict_lookup (options, "compare", "^ay", &self->compare_path);
  return -1;
}

static void
sp_application_finalize (GObject *object)
{
  g_free (SP_APPLICATION (object)->compare_path);
  g_hash_table_unref (SP_APPLICATION (object)->reading);
  G_OBJECT_CLASS (sp_application_parent_class)->finalize (object);
}

static void
sp_application_class_init (SpApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = sp_application_finalize;
  app_class->handle_local_options = sp_application_handle_local_options;
  app_class->startup = sp_application_startup;
  app_class->activate = sp_application_activate;
  app_class->open = sp_application_open;
}

static void
sp_application_init (SpApplication *self)
{
  static const GOptionEntry options[] = {
    { "compare", 0, 0, G_OPTION_ARG_FILENAME, NULL,
      "Compare the recording opened (A, before) with B (after)", "B.spool" },
    { NULL },
  };

  g_application_add_main_option_entries (G_APPLICATION (self), options);
  self->reading = g_hash_table_new (g_str_hash, g_str_equal);
}

void
sp_application_read_ahead (SpApplication *self,
                           int argc,
                           char **argv)
{
  g_return_if_fail (SP_IS_APPLICATION (self));
  g_hash_table_unref (self->reading);
  self->reading = sp_read_ahead_start (argc, argv);
}

SpAnalysis *
sp_application_get_read_ahead (SpApplication *self,
                               const char *path)
{
  g_return_val_if_fail (SP_IS_APPLICATION (self), NULL);
  return g_hash_table_lookup (self->reading, path);
}

SpApplication *
sp_application_new (void)
{
  sp_window_heap_prepare ();
  return g_object_new (SP_TYPE_APPLICATION,
                       "application-id", SP_APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE,
                       NULL);
}
