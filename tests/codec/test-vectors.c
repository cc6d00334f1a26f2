/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-vectors.c: the reference reader's verdicts on tests/vectors (README.md there).
 *
 * Every vector is checked twice: through the codec's reader in this process
 * (the dump compared byte for byte, the rejection message word for word),
 * and through `stackpulse-report dump`, the program users run. */
#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "sp-spool-dump.h"
#include "sp-spool-reader.h"

typedef struct {
  char *name;       /* valid-01 */
  gboolean accept;
} Vector;

static const char *
vectors_dir (void)
{
  const char *dir = g_getenv ("SP_TEST_VECTORS");

  g_assert_nonnull (dir);
  return dir;
}

static char *
vector_path (const Vector *vector,
             const char *suffix)
{
  g_autofree char *file = g_strconcat (vector->name, suffix, NULL);

  return g_build_filename (vectors_dir (), file, NULL);
}

static char *
read_text (const char *path)
{
  g_autoptr (GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static char *
dump_to_string (const SpSpoolReader *reader)
{
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&text, &len);

  g_assert_true (sp_spool_dump (reader, out));
  fclose (out);
  return text;
}

static void
test_reader (gconstpointer data)
{
  const Vector *vector = data;
  g_autofree char *spool = vector_path (vector, ".spool");
  SpSpoolError err;
  SpSpoolReader *reader = sp_spool_reader_open (spool, &err);

  if (vector->accept)
    {
      g_autofree char *expected = vector_path (vector, ".dump");
      g_autofree char *want = read_text (expected);
      g_autofree char *got = NULL;

      if (reader == NULL)
        g_error ("%s rejected: %s", vector->name, err.message);
      got = dump_to_string (reader);
      g_assert_cmpstr (got, ==, want);
      sp_spool_reader_free (reader);
    }
  else
    {
      g_autofree char *expected = vector_path (vector, ".expect");
      g_autofree char *want = read_text (expected);
      g_autofree char *got = NULL;

      g_assert_null (reader);
      got = g_strdup_printf ("error: %s\n", err.message);
      g_assert_cmpstr (got, ==, want);
    }
}

static void
test_report_program (gconstpointer data)
{
  const Vector *vector = data;
  g_autofree char *spool = vector_path (vector, ".spool");
  g_autofree char *expected = vector_path (vector, vector->accept ? ".dump" : ".expect");
  g_autofree char *want = read_text (expected);
  g_autofree char *out = NULL;
  g_autofree char *err_out = NULL;
  g_autoptr (GError) error = NULL;
  const char *argv[] = { g_getenv ("SP_REPORT"), "dump", spool, NULL };
  int status = 0;

  g_assert_nonnull (argv[0]);
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err_out, &status, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (out, ==, want);
  g_assert_cmpstr (err_out, ==, "");
  g_assert_cmpint (WIFEXITED (status), ==, TRUE);
  g_assert_cmpint (WEXITSTATUS (status), ==, vector->accept ? 0 : 1);
}

/* index.tsv: file, accept|reject, description. */
static GPtrArray *
load_index (void)
{
  g_autofree char *index_path = g_build_filename (vectors_dir (), "index.tsv", NULL);
  g_autofree char *index = read_text (index_path);
  g_auto (GStrv) lines = g_strsplit (index, "\n", -1);
  GPtrArray *vectors = g_ptr_array_new ();

  for (guint i = 1; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], "\t", 3);
      Vector *vector;

      if (g_strv_length (fields) < 2)
        continue;
      vector = g_new0 (Vector, 1);
      vector->name = g_strndup (fields[0], strlen (fields[0]) - strlen (".spool"));
      vector->accept = g_str_equal (fields[1], "accept");
      g_ptr_array_add (vectors, vector);
    }
  return vectors;
}

int
main (int argc,
      char **argv)
{
  g_autoptr (GPtrArray) vectors = NULL;

  g_test_init (&argc, &argv, NULL);
  vectors = load_index ();
  g_assert_cmpuint (vectors->len, ==, 54);
  for (guint i = 0; i < vectors->len; i++)
    {
      const Vector *vector = g_ptr_array_index (vectors, i);
      g_autofree char *reader_path = g_strdup_printf ("/codec/vectors/reader/%s", vector->name);
      g_autofree char *report_path = g_strdup_printf ("/codec/vectors/report-dump/%s", vector->name);

      g_test_add_data_func (reader_path, vector, test_reader);
      g_test_add_data_func (report_path, vector, test_report_program);
    }
  return g_test_run ();
}
