/* SPDX-License-Identifier: GPL-3.0-or-later */
/* profile-builder.c: text -> spool + side file -> SpProfile. */
#include "profile-builder.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "sp-export.h"
#include "sp-spool-writer.h"

#define KERNEL_BASE G_GUINT64_CONSTANT (0xffffffff81000000)
#define SYMBOL_SIZE 0x100

typedef struct {
  GHashTable *address_of;   /* name -> address */
  GString    *symbols;      /* the [kernel-symbols] lines */
} Symbols;

static guint64
symbol_address (Symbols *s,
                const char *name)
{
  gpointer found = g_hash_table_lookup (s->address_of, name);
  guint64 address;

  if (found != NULL)
    return GPOINTER_TO_SIZE (found);
  address = KERNEL_BASE + (g_hash_table_size (s->address_of) + 1) * SYMBOL_SIZE;
  g_hash_table_insert (s->address_of, g_strdup (name), GSIZE_TO_POINTER (address));
  g_string_append_printf (s->symbols, "%" G_GINT64_MODIFIER "x=%d;%s;;\n", address, SYMBOL_SIZE, name);
  return address;
}

/* "@12 main;parse 10 +5" -> tid 12, frames, count 10, 5 ms apart. */
static void
write_line (SpSpoolWriter *writer,
            Symbols *symbols,
            const char *line,
            guint64 *now_ns)
{
  g_auto (GStrv) words = g_strsplit (line, " ", -1);
  guint w = 0;
  guint64 tid = 1, count, step_ms = 1;
  g_auto (GStrv) names = NULL;
  g_autofree SpFrame *frames = NULL;
  guint n;
  SpSpoolError err;

  if (words[w][0] == '@')
    tid = g_ascii_strtoull (words[w++] + 1, NULL, 10);
  names = g_strsplit (words[w++], ";", -1);
  count = g_ascii_strtoull (words[w++], NULL, 10);
  if (words[w] != NULL && words[w][0] == '+')
    step_ms = g_ascii_strtoull (words[w] + 1, NULL, 10);
  n = g_strv_length (names);
  frames = g_new (SpFrame, n);
  for (guint i = 0; i < n; i++)
    {
      /* Leaf first; each frame a few bytes into its symbol. */
      guint64 address = symbol_address (symbols, names[n - 1 - i]) + 8;

      frames[i] = (SpFrame) { address - (KERNEL_BASE - 0x1000000), address, 0, SP_FRAME_KERNEL };
    }
  for (guint64 c = 0; c < count; c++)
    {
      g_assert_true (sp_spool_writer_write_sample (writer, *now_ns, 100, tid, frames, n, NULL, &err));
      *now_ns += step_ms * 1000000;
    }
}

SpProfile *
profile_from_text (const char *const *lines)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-data-XXXXXX", &error);
  g_autofree char *spool = g_build_filename (dir, "test.spool", NULL);
  g_autofree char *meta = g_strconcat (spool, ".meta", NULL);
  Symbols symbols = { g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), g_string_new (NULL) };
  SpModule kernel = { KERNEL_BASE - 0x1000000, G_MAXUINT64, 0, 0, "[kernel.kallsyms]", 17, -1, TRUE };
  g_autoptr (GString) meta_text = g_string_new ("[recording]\nformat=1\n\n[thread 1]\npid=100\nname=main-thread\n\n");
  SpSpoolError err;
  SpSpoolWriter *writer;
  guint64 now_ns = 1000000000;
  SpProfile *profile;

  g_assert_no_error (error);
  writer = sp_spool_writer_create (spool, 1700000000000000, 1000, &err);
  g_assert_nonnull (writer);
  g_assert_true (sp_spool_writer_write_module (writer, 0, &kernel, &err));
  for (guint i = 0; lines[i] != NULL; i++)
    write_line (writer, &symbols, lines[i], &now_ns);
  g_assert_true (sp_spool_writer_close (writer, &err));

  g_string_append_printf (meta_text, "[kernel-symbols]\nsource=test\n%s", symbols.symbols->str);
  g_assert_true (g_file_set_contents (meta, meta_text->str, -1, NULL));
  g_hash_table_unref (symbols.address_of);
  g_string_free (symbols.symbols, TRUE);

  profile = sp_profile_open (spool, &error);
  g_assert_no_error (error);
  g_assert_null (sp_profile_get_damage (profile));
  /* Everything is read now: the files can go. */
  g_unlink (meta);
  g_unlink (spool);
  g_rmdir (dir);
  return profile;
}

char *
collapsed_of (SpProfile *profile,
              const void *filter)
{
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&text, &len);

  g_assert_true (sp_export_collapsed (profile, filter, out));
  fclose (out);
  return text;
}
