/* SPDX-License-Identifier: GPL-3.0-or-later */
/* profile-builder.c: text -> spool + side file -> SpProfile. */
#include "profile-builder.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sp-export.h"
#include "sp-offcpu.h"
#include "sp-spool-writer.h"

#define KERNEL_BASE G_GUINT64_CONSTANT (0xffffffff81000000)
#define SYMBOL_SIZE 0x100

/* Where user modules ("PATH!function" frames) are mapped, one after the
 * other. */
#define USER_BASE G_GUINT64_CONSTANT (0x400000000)
#define USER_MODULE_SPAN G_GUINT64_CONSTANT (0x10000000)

typedef struct {
  GHashTable    *address_of;   /* name -> address */
  GString       *symbols;      /* the [kernel-symbols] lines */
  GHashTable    *module_of;    /* user module path -> its module id */
  SpSpoolWriter *writer;       /* for the user modules' MODULE records */
} Symbols;

/* The address of function name in elf's symbol table, or 0. */
static guint64
symtab_address (Elf *elf,
                const char *name)
{
  Elf_Scn *section = NULL;

  while ((section = elf_nextscn (elf, section)) != NULL)
    {
      GElf_Shdr header;
      Elf_Data *data;

      if (gelf_getshdr (section, &header) == NULL || header.sh_type != SHT_SYMTAB
          || (data = elf_getdata (section, NULL)) == NULL)
        continue;
      for (size_t i = 0; i < header.sh_size / header.sh_entsize; i++)
        {
          GElf_Sym symbol;

          if (gelf_getsym (data, (int) i, &symbol) != NULL && GELF_ST_TYPE (symbol.st_info) == STT_FUNC
              && g_strcmp0 (elf_strptr (elf, header.sh_link, symbol.st_name), name) == 0)
            return symbol.st_value;
        }
    }
  return 0;
}

/* A stripped file's (a distribution's libc) local functions are in its
 * debug file, found by build id as the symbolizer finds it. */
static guint64
debug_file_address (Elf *elf,
                    const char *name)
{
  const void *id = NULL;
  ssize_t n = dwelf_elf_gnu_build_id (elf, &id);
  g_autoptr (GString) path = g_string_new ("/usr/lib/debug/.build-id/");
  guint64 address = 0;
  int fd;
  Elf *debug;

  if (n < 2)
    return 0;
  for (ssize_t i = 0; i < n; i++)
    g_string_append_printf (path, i == 1 ? "/%02x" : "%02x", ((const guint8 *) id)[i]);
  g_string_append (path, ".debug");
  if ((fd = open (path->str, O_RDONLY | O_CLOEXEC)) < 0)
    return 0;
  if ((debug = elf_begin (fd, ELF_C_READ, NULL)) != NULL)
    address = symtab_address (debug, name);
  elf_end (debug);
  close (fd);
  return address;
}

/* The file offset of function name in the ELF file at path (its symbol's
 * address, from the file or its debug file, through the PT_LOAD segment
 * that holds it). */
static guint64
elf_function_offset (const char *path,
                     const char *name)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  Elf *elf;
  guint64 address, offset = 0;
  size_t n_headers;

  g_assert_cmpint (fd, >=, 0);
  elf_version (EV_CURRENT);
  elf = elf_begin (fd, ELF_C_READ, NULL);
  g_assert_nonnull (elf);
  if ((address = symtab_address (elf, name)) == 0)
    address = debug_file_address (elf, name);
  g_assert_cmpuint (address, !=, 0);
  g_assert_cmpint (elf_getphdrnum (elf, &n_headers), ==, 0);
  for (size_t i = 0; i < n_headers; i++)
    {
      GElf_Phdr segment;

      if (gelf_getphdr (elf, (int) i, &segment) != NULL && segment.p_type == PT_LOAD
          && address >= segment.p_vaddr && address < segment.p_vaddr + segment.p_memsz)
        offset = address - segment.p_vaddr + segment.p_offset;
    }
  elf_end (elf);
  close (fd);
  g_assert_cmpuint (offset, >, 0);
  return offset;
}

/* "PATH!function": a user frame a few bytes into function ("+N" after
 * it: N bytes), in the module PATH (a MODULE record for pid 100 the
 * first time). */
static SpFrame
user_frame (Symbols *s,
            const char *text)
{
  const char *bang = strchr (text, '!');
  const char *plus = strchr (bang, '+');
  g_autofree char *path = g_strndup (text, (gsize) (bang - text));
  g_autofree char *function = plus != NULL ? g_strndup (bang + 1, (gsize) (plus - bang - 1)) : g_strdup (bang + 1);
  gpointer found = g_hash_table_lookup (s->module_of, path);
  guint32 id = GPOINTER_TO_UINT (found);
  guint64 base, offset = elf_function_offset (path, function) + (plus != NULL ? g_ascii_strtoull (plus + 1, NULL, 0) : 4);
  SpSpoolError err;

  if (found == NULL)
    {
      SpModule module;

      id = g_hash_table_size (s->module_of) + 1;
      base = USER_BASE + (guint64) id * USER_MODULE_SPAN;
      module = (SpModule) { base, base + USER_MODULE_SPAN, 0, 0, path, strlen (path), 100, FALSE };
      g_assert_true (sp_spool_writer_write_module (s->writer, id, &module, &err));
      g_hash_table_insert (s->module_of, g_strdup (path), GUINT_TO_POINTER (id));
    }
  base = USER_BASE + (guint64) id * USER_MODULE_SPAN;
  return (SpFrame) { offset, base + offset, id, SP_FRAME_USER };
}

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

/* names root first -> frames leaf first, each a few bytes into its symbol:
 * a kernel symbol made up for the name, or "PATH!function" in a real ELF
 * file; "?ADDRESS" is a user frame in no module (as JIT code is). */
static SpFrame *
kernel_frames (Symbols *symbols,
               char **names,
               guint n)
{
  SpFrame *frames = g_new (SpFrame, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      const char *name = names[n - 1 - i];
      guint64 address;

      if (strchr (name, '!') != NULL)
        {
          frames[i] = user_frame (symbols, name);
          continue;
        }
      if (name[0] == '?')
        {
          address = g_ascii_strtoull (name + 1, NULL, 0);
          frames[i] = (SpFrame) { address, address, SP_SPOOL_NO_ID, SP_FRAME_USER };
          continue;
        }
      address = symbol_address (symbols, name) + 8;
      frames[i] = (SpFrame) { address - (KERNEL_BASE - 0x1000000), address, 0, SP_FRAME_KERNEL };
    }
  return frames;
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
  frames = kernel_frames (symbols, names, n);
  for (guint64 c = 0; c < count; c++)
    {
      g_assert_true (sp_spool_writer_write_sample (writer, *now_ns, 100, tid, frames, n, NULL, &err));
      *now_ns += step_ms * 1000000;
    }
}

struct _RecordingBuilder
{
  char           *dir;
  char           *spool;
  SpSpoolWriter  *writer;
  SpOffCpuWriter *offcpu;         /* created at the first switch */
  GArray         *switches;       /* SpOffCpuRecord, not written yet */
  gboolean        off_cpu;        /* a switch was added: the side file says --off-cpu */
  Symbols         symbols;
  guint64         now_ns;
};

RecordingBuilder *
recording_builder_new (void)
{
  g_autoptr (GError) error = NULL;
  RecordingBuilder *b = g_new0 (RecordingBuilder, 1);
  SpModule kernel = { KERNEL_BASE - 0x1000000, G_MAXUINT64, 0, 0, "[kernel.kallsyms]", 17, -1, TRUE };
  SpSpoolError err;

  b->dir = g_dir_make_tmp ("stackpulse-data-XXXXXX", &error);
  g_assert_no_error (error);
  b->spool = g_build_filename (b->dir, "test.spool", NULL);
  b->symbols = (Symbols) { g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), g_string_new (NULL),
                          g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), NULL };
  b->switches = g_array_new (FALSE, FALSE, sizeof (SpOffCpuRecord));
  b->now_ns = 1000000000;
  b->writer = sp_spool_writer_create (b->spool, 1700000000000000, 1000, &err);
  g_assert_nonnull (b->writer);
  b->symbols.writer = b->writer;
  g_assert_true (sp_spool_writer_write_module (b->writer, 0, &kernel, &err));
  return b;
}

/* "out 12 1500 blocked main;wait" (tid, ms, state, stack or "-"),
 * "in 12 1600", "end 12 1700": the ids interned in the spool now. */
static void
add_switch (RecordingBuilder *b,
            char **words)
{
  SpOffCpuRecord r = { 0 };
  g_auto (GStrv) names = NULL;
  g_autofree SpFrame *frames = NULL;
  guint n = 0;
  SpSpoolError err;

  r.tag = g_str_equal (words[0], "out") ? SP_OFFCPU_SWITCH_OUT
          : g_str_equal (words[0], "in") ? SP_OFFCPU_SWITCH_IN : SP_OFFCPU_THREAD_END;
  r.timestamp_ns = g_ascii_strtoull (words[2], NULL, 10) * 1000000;
  if (r.tag == SP_OFFCPU_SWITCH_OUT)
    {
      r.state = g_str_equal (words[3], "runnable") ? SP_OFFCPU_RUNNABLE : SP_OFFCPU_BLOCKED;
      names = g_str_equal (words[4], "-") ? g_new0 (char *, 1) : g_strsplit (words[4], ";", -1);
      n = g_strv_length (names);
      frames = kernel_frames (&b->symbols, names, n);
    }
  g_assert_true (sp_spool_writer_intern_stack (b->writer, 100, g_ascii_strtoull (words[1], NULL, 10), frames, n,
                                               &r.thread, &r.stack, &err));
  g_array_append_val (b->switches, r);
  b->off_cpu = TRUE;
}

void
recording_builder_add_line (RecordingBuilder *b,
                            const char *line)
{
  g_auto (GStrv) words = g_strsplit (line, " ", -1);

  if (g_str_equal (words[0], "out") || g_str_equal (words[0], "in") || g_str_equal (words[0], "end"))
    add_switch (b, words);
  else
    write_line (b->writer, &b->symbols, line, &b->now_ns);
}

static void
write_meta (RecordingBuilder *b)
{
  g_autofree char *meta = g_strconcat (b->spool, ".meta", NULL);
  g_autofree char *text = g_strdup_printf ("[recording]\nformat=1\n%s\n[thread 1]\npid=100\nname=main-thread\n\n"
                                           "[kernel-symbols]\nsource=test\n%s", b->off_cpu ? "off_cpu=true\n" : "",
                                           b->symbols.symbols->str);

  g_assert_true (g_file_set_contents (meta, text, -1, NULL));
}

void
recording_builder_flush (RecordingBuilder *b)
{
  SpSpoolError err;

  g_assert_true (sp_spool_writer_flush (b->writer, &err));
  write_meta (b);
  if (b->switches->len == 0)
    return;
  if (b->offcpu == NULL)
    {
      g_autofree char *path = g_strconcat (b->spool, ".offcpu", NULL);
      int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

      g_assert_cmpint (fd, >=, 0);
      b->offcpu = sp_offcpu_writer_new_for_fd (fd, TRUE, &err);
      g_assert_nonnull (b->offcpu);
    }
  g_assert_true (sp_offcpu_writer_write_sync (b->offcpu, sp_spool_writer_get_flushed_size (b->writer), &err));
  for (guint i = 0; i < b->switches->len; i++)
    {
      const SpOffCpuRecord *r = &g_array_index (b->switches, SpOffCpuRecord, i);

      if (r->tag == SP_OFFCPU_SWITCH_OUT)
        g_assert_true (sp_offcpu_writer_write_switch_out (b->offcpu, r->timestamp_ns, r->thread, r->state, r->stack,
                                                          &err));
      else if (r->tag == SP_OFFCPU_SWITCH_IN)
        g_assert_true (sp_offcpu_writer_write_switch_in (b->offcpu, r->timestamp_ns, r->thread, &err));
      else
        g_assert_true (sp_offcpu_writer_write_thread_end (b->offcpu, r->timestamp_ns, r->thread, &err));
    }
  g_array_set_size (b->switches, 0);
  g_assert_true (sp_offcpu_writer_flush (b->offcpu, &err));
}

const char *
recording_builder_get_path (RecordingBuilder *b)
{
  return b->spool;
}

void
recording_builder_finish (RecordingBuilder *b)
{
  SpSpoolError err;

  recording_builder_flush (b);
  g_assert_true (sp_spool_writer_close (g_steal_pointer (&b->writer), &err));
  g_assert_true (sp_offcpu_writer_close (g_steal_pointer (&b->offcpu), &err));
}

void
recording_builder_free (RecordingBuilder *b)
{
  g_autofree char *meta = g_strconcat (b->spool, ".meta", NULL);
  g_autofree char *offcpu = g_strconcat (b->spool, ".offcpu", NULL);

  if (b->writer != NULL)
    recording_builder_finish (b);
  g_unlink (meta);
  g_unlink (offcpu);
  g_unlink (b->spool);
  g_rmdir (b->dir);
  g_hash_table_unref (b->symbols.address_of);
  g_hash_table_unref (b->symbols.module_of);
  g_string_free (b->symbols.symbols, TRUE);
  g_array_unref (b->switches);
  g_free (b->spool);
  g_free (b->dir);
  g_free (b);
}

const char *const offcpu_example[] = {
  "@1 main;spin 10 +1",
  "out 2 1000 blocked main;pipe_wait",
  "in 2 1030",
  "out 2 1040 runnable main;work",
  "in 2 1045",
  "out 2 1050 blocked -",
  "end 2 1060",
  NULL,
};

void
side_file_add_keys (const char *spool_path,
                    const char *keys)
{
  g_autofree char *meta = g_strconcat (spool_path, ".meta", NULL);
  g_autofree char *text = NULL;
  g_autofree char *marked = NULL;
  g_auto (GStrv) parts = NULL;

  g_assert_true (g_file_get_contents (meta, &text, NULL, NULL));
  parts = g_strsplit (text, "[recording]\n", 2);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  marked = g_strconcat (parts[0], "[recording]\n", keys, parts[1], NULL);
  g_assert_true (g_file_set_contents (meta, marked, -1, NULL));
}

SpProfile *
profile_from_text (const char *const *lines)
{
  g_autoptr (GError) error = NULL;
  RecordingBuilder *b = recording_builder_new ();
  SpProfile *profile;

  for (guint i = 0; lines[i] != NULL; i++)
    recording_builder_add_line (b, lines[i]);
  recording_builder_finish (b);
  profile = sp_profile_open (recording_builder_get_path (b), &error);
  g_assert_no_error (error);
  g_assert_null (sp_profile_get_damage (profile));
  g_assert_null (sp_profile_get_off_cpu_damage (profile));
  /* Everything is read now: the files can go. */
  recording_builder_free (b);
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
