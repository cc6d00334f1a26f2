/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-line-reader.c: a GDataInputStream read a line at a time, each read
 * holding the owner, so that what a subprocess said last still reaches
 * it after it ended. */
#include "sp-line-reader.h"

#include <string.h>

typedef struct {
  GDataInputStream *in;
  GCancellable     *cancellable;
  GObject          *owner;
  SpLineReaderFunc  func;
} LineReader;

static void read_next (LineReader *reader);

static void
line_reader_free (LineReader *reader)
{
  g_object_unref (reader->in);
  g_clear_object (&reader->cancellable);
  g_object_unref (reader->owner);
  g_free (reader);
}

static void
line_read (GObject *source,
           GAsyncResult *result,
           gpointer user_data)
{
  LineReader *reader = user_data;
  g_autofree char *line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM (source), result, NULL, NULL);

  reader->func (reader->owner, line);
  if (line == NULL)
    {
      line_reader_free (reader);
      return;
    }
  read_next (reader);
}

static void
read_next (LineReader *reader)
{
  g_data_input_stream_read_line_async (reader->in, G_PRIORITY_DEFAULT, reader->cancellable, line_read, reader);
}

void
sp_line_reader_start (GInputStream *stream,
                      GCancellable *cancellable,
                      GObject *owner,
                      SpLineReaderFunc func)
{
  LineReader *reader = g_new0 (LineReader, 1);

  reader->in = g_data_input_stream_new (stream);
  reader->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  reader->owner = g_object_ref (owner);
  reader->func = func;
  read_next (reader);
}

guint64
sp_line_reader_get_field (const char *line,
                          const char *key)
{
  gsize key_len = strlen (key);

  for (const char *field = line; field != NULL && *field != '\0';)
    {
      if (strncmp (field, key, key_len) == 0 && field[key_len] == '=')
        return g_ascii_strtoull (field + key_len + 1, NULL, 10);
      field = strchr (field, ' ');
      if (field != NULL)
        field++;
    }
  return 0;
}
