/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-input.c: the side file's [input] group, said for people. */
#include "sp-perf-input.h"

#include <glib/gstdio.h>
#include <string.h>

/* [input] events= is "a,b,c" (perf's names hold no comma): all but event. */
static char **
other_events (const char *events,
              const char *event)
{
  g_auto (GStrv) all = g_strsplit (events != NULL ? events : "", ",", -1);
  g_autoptr (GStrvBuilder) others = g_strv_builder_new ();

  for (guint i = 0; all[i] != NULL; i++)
    {
      const char *name = g_strstrip (all[i]);

      if (name[0] != '\0' && g_strcmp0 (name, event) != 0)
        g_strv_builder_add (others, name);
    }
  return g_strv_builder_end (others);
}

static guint64
file_size (const char *path)
{
  GStatBuf st;

  if (!g_path_is_absolute (path) || g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
    return 0;
  return (guint64) st.st_size;
}

SpPerfInput *
sp_perf_input_new (GKeyFile *meta)
{
  g_autofree char *format = meta != NULL ? g_key_file_get_string (meta, "input", "format", NULL) : NULL;
  g_autofree char *events = NULL;
  SpPerfInput *input;

  if (g_strcmp0 (format, "perf.data") != 0)
    return NULL;
  input = g_new0 (SpPerfInput, 1);
  input->path = g_key_file_get_string (meta, "input", "path", NULL);
  if (input->path == NULL)
    input->path = g_strdup ("perf.data");
  input->event = g_key_file_get_string (meta, "input", "event", NULL);
  input->perf_version = g_key_file_get_string (meta, "input", "perf_version", NULL);
  input->perf_cmdline = g_key_file_get_string (meta, "input", "perf_cmdline", NULL);
  input->input_bytes = g_key_file_get_uint64 (meta, "input", "input_bytes", NULL);
  input->file_size = g_key_file_get_uint64 (meta, "input", "file_size", NULL);
  if (input->file_size == 0)
    input->file_size = file_size (input->path);
  events = g_key_file_get_string (meta, "input", "events", NULL);
  input->other_events = other_events (events, input->event);
  return input;
}

void
sp_perf_input_free (SpPerfInput *input)
{
  if (input == NULL)
    return;
  g_free (input->path);
  g_free (input->event);
  g_strfreev (input->other_events);
  g_free (input->perf_version);
  g_free (input->perf_cmdline);
  g_free (input);
}

static gboolean
reads_stdin (const SpPerfInput *input)
{
  return g_str_equal (input->path, "-");
}

char *
sp_perf_input_describe_file (const SpPerfInput *input)
{
  g_autofree char *version = input->perf_version != NULL ? g_strdup_printf (" (perf %s)", input->perf_version)
                                                         : g_strdup ("");

  if (reads_stdin (input))
    return g_strdup_printf ("a perf.data read from standard input%s", version);
  return g_strdup_printf ("perf.data %s%s", input->path, version);
}

/* A path as a shell takes it back: as it is when it needs no quotes. */
static char *
shell_word (const char *word)
{
  static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,@%";

  if (word[0] != '\0' && word[strspn (word, plain)] == '\0')
    return g_strdup (word);
  return g_shell_quote (word);
}

char *
sp_perf_input_other_events_hint (const SpPerfInput *input,
                                 const char *path)
{
  g_autofree char *others = NULL;
  g_autofree char *file = NULL;

  if (input->other_events[0] == NULL)
    return NULL;
  others = g_strjoinv (", ", input->other_events);
  file = shell_word (path != NULL ? path : input->path);
  return g_strdup_printf ("the file's other event%s (%s) convert%s with stackpulse-record --input %s --event NAME "
                          "-o OUT.spool", input->other_events[1] != NULL ? "s" : "", others,
                          input->other_events[1] != NULL ? "" : "s", file);
}
