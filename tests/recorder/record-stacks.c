/* SPDX-License-Identifier: GPL-3.0-or-later */
/* record-stacks.c: ELF symbols, stack descriptions, workload reports. */
#include "record-stacks.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- Workload symbols ------------------------------------------------- */

typedef struct {
  guint64  start;   /* file offsets, [start, end) */
  guint64  end;
  char    *name;
} SpElfRange;

struct _SpElfSymbols {
  char   *path;
  GArray *functions;   /* SpElfRange, sorted by start */
  GArray *code;        /* SpElfRange of the executable sections */
};

static void
clear_range (gpointer data)
{
  g_free (((SpElfRange *) data)->name);
}

static int
compare_ranges (gconstpointer a,
                gconstpointer b)
{
  const SpElfRange *x = a, *y = b;

  return x->start < y->start ? -1 : x->start > y->start;
}

/* A virtual address of the file to its file offset, through the loadable
 * segment that holds it. */
static gboolean
vaddr_to_offset (Elf *elf,
                 guint64 vaddr,
                 guint64 *offset)
{
  size_t n = 0;

  elf_getphdrnum (elf, &n);
  for (size_t i = 0; i < n; i++)
    {
      GElf_Phdr phdr;

      if (gelf_getphdr (elf, (int) i, &phdr) == NULL || phdr.p_type != PT_LOAD)
        continue;
      if (vaddr >= phdr.p_vaddr && vaddr < phdr.p_vaddr + phdr.p_filesz)
        {
          *offset = vaddr - phdr.p_vaddr + phdr.p_offset;
          return TRUE;
        }
    }
  return FALSE;
}

static void
add_functions (SpElfSymbols *symbols,
               Elf *elf,
               Elf_Scn *scn,
               const GElf_Shdr *shdr)
{
  Elf_Data *data = elf_getdata (scn, NULL);
  size_t n = shdr->sh_entsize ? shdr->sh_size / shdr->sh_entsize : 0;

  for (size_t i = 0; data != NULL && i < n; i++)
    {
      GElf_Sym sym;
      SpElfRange range;
      const char *name;

      if (gelf_getsym (data, (int) i, &sym) == NULL || GELF_ST_TYPE (sym.st_info) != STT_FUNC
          || sym.st_size == 0 || sym.st_shndx == SHN_UNDEF)
        continue;
      name = elf_strptr (elf, shdr->sh_link, sym.st_name);
      if (name == NULL || !vaddr_to_offset (elf, sym.st_value, &range.start))
        continue;
      range.end = range.start + sym.st_size;
      range.name = g_strdup (name);
      g_array_append_val (symbols->functions, range);
    }
}

static void
read_sections (SpElfSymbols *symbols,
               Elf *elf)
{
  Elf_Scn *dynsym = NULL;
  GElf_Shdr dynsym_header;
  gboolean have_symtab = FALSE;

  for (Elf_Scn *scn = elf_nextscn (elf, NULL); scn != NULL; scn = elf_nextscn (elf, scn))
    {
      GElf_Shdr shdr;

      if (gelf_getshdr (scn, &shdr) == NULL)
        continue;
      if (shdr.sh_type == SHT_SYMTAB)
        {
          add_functions (symbols, elf, scn, &shdr);
          have_symtab = TRUE;
        }
      if (shdr.sh_type == SHT_DYNSYM)
        {
          dynsym = scn;
          dynsym_header = shdr;
        }
      if ((shdr.sh_flags & SHF_EXECINSTR) && shdr.sh_type == SHT_PROGBITS)
        {
          SpElfRange range = { shdr.sh_offset, shdr.sh_offset + shdr.sh_size, g_strdup ("code") };

          g_array_append_val (symbols->code, range);
        }
    }
  /* A stripped program (Debian's python3) still exports some. */
  if (!have_symtab && dynsym != NULL)
    add_functions (symbols, elf, dynsym, &dynsym_header);
}

SpElfSymbols *
sp_elf_symbols_load (const char *path)
{
  SpElfSymbols *symbols = g_new0 (SpElfSymbols, 1);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  Elf *elf;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (elf_version (EV_CURRENT), !=, EV_NONE);
  elf = elf_begin (fd, ELF_C_READ, NULL);
  if (elf == NULL)
    g_error ("%s: %s", path, elf_errmsg (-1));
  symbols->path = g_strdup (path);
  symbols->functions = g_array_new (FALSE, FALSE, sizeof (SpElfRange));
  symbols->code = g_array_new (FALSE, FALSE, sizeof (SpElfRange));
  g_array_set_clear_func (symbols->functions, clear_range);
  g_array_set_clear_func (symbols->code, clear_range);
  read_sections (symbols, elf);
  g_array_sort (symbols->functions, compare_ranges);
  elf_end (elf);
  close (fd);
  if (symbols->functions->len == 0)
    g_error ("%s has no function symbols (stripped?)", path);
  return symbols;
}

void
sp_elf_symbols_free (SpElfSymbols *symbols)
{
  g_array_unref (symbols->functions);
  g_array_unref (symbols->code);
  g_free (symbols->path);
  g_free (symbols);
}

const char *
sp_elf_symbols_get_path (const SpElfSymbols *symbols)
{
  return symbols->path;
}

const char *
sp_elf_symbols_lookup (const SpElfSymbols *symbols,
                       guint64 offset)
{
  for (guint i = 0; i < symbols->functions->len; i++)
    {
      const SpElfRange *range = &g_array_index (symbols->functions, SpElfRange, i);

      if (offset >= range->start && offset < range->end)
        return range->name;
    }
  return NULL;
}

gboolean
sp_elf_symbols_find (const SpElfSymbols *symbols,
                     const char *name,
                     guint64 *start,
                     guint64 *end)
{
  for (guint i = 0; i < symbols->functions->len; i++)
    {
      const SpElfRange *range = &g_array_index (symbols->functions, SpElfRange, i);

      if (g_str_equal (range->name, name))
        {
          *start = range->start;
          *end = range->end;
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
sp_elf_symbols_in_code (const SpElfSymbols *symbols,
                        guint64 offset)
{
  for (guint i = 0; i < symbols->code->len; i++)
    {
      const SpElfRange *range = &g_array_index (symbols->code, SpElfRange, i);

      if (offset >= range->start && offset < range->end)
        return TRUE;
    }
  return FALSE;
}

/* ---- Stacks ------------------------------------------------------------- */

static SpElfSymbols *
symbols_for_module (SpElfSymbols *const *symbols,
                    const SpModule *module)
{
  for (SpElfSymbols *const *s = symbols; *s != NULL; s++)
    if (strlen ((*s)->path) == module->path_len
        && memcmp ((*s)->path, module->path, module->path_len) == 0)
      return *s;
  return NULL;
}

/* One frame as text; *first_user says whether no user frame came yet. */
static char *
describe_frame (const SpSpoolReader *reader,
                SpElfSymbols *const *symbols,
                gint32 pid,
                guint32 frame_id,
                gboolean *first_user)
{
  const SpFrame *frame = &sp_spool_reader_get_frames (reader)[frame_id];
  const SpModule *module;
  SpElfSymbols *elf;
  guint32 module_id;
  guint64 rel_ip;
  gboolean leaf = *first_user;
  const char *name;

  if (frame->mode == SP_FRAME_TRUNCATED)
    return g_strdup ("[truncated]");
  if (frame->mode == SP_FRAME_KERNEL)
    return g_strdup ("[kernel]");
  *first_user = FALSE;
  if (!sp_spool_reader_resolve_frame_module (reader, pid, frame_id, &module_id, &rel_ip))
    return g_strdup ("?");
  module = &sp_spool_reader_get_modules (reader)[module_id];
  elf = symbols_for_module (symbols, module);
  if (elf == NULL)
    {
      g_autofree char *path = g_strndup (module->path, module->path_len);
      g_autofree char *base = g_path_get_basename (path);

      return g_strdup_printf ("[%s]", base);
    }
  name = sp_elf_symbols_lookup (elf, leaf ? rel_ip : rel_ip - 1);
  return g_strdup (name != NULL ? name : "?");
}

char *
sp_test_describe_stack (const SpSpoolReader *reader,
                        SpElfSymbols *const *symbols,
                        gint32 pid,
                        guint32 stack_id)
{
  GString *text = g_string_new (NULL);
  g_autofree char *previous = NULL;
  gboolean first_user = TRUE;
  SpStackIter iter;
  guint32 frame_id;

  sp_stack_iter_init (&iter, reader, stack_id);
  while (sp_stack_iter_next (&iter, &frame_id))
    {
      char *item = describe_frame (reader, symbols, pid, frame_id, &first_user);

      if (previous != NULL && item[0] == '[' && g_str_equal (item, previous))
        {
          g_free (item);
          continue;
        }
      if (text->len > 0)
        g_string_append_c (text, ';');
      g_string_append (text, item);
      g_free (previous);
      previous = item;
    }
  return g_string_free (text, FALSE);
}

gboolean
sp_test_has_kernel_frames (const SpSpoolReader *reader)
{
  const SpFrame *frames = sp_spool_reader_get_frames (reader);

  for (gsize i = 0; i < sp_spool_reader_get_n_frames (reader); i++)
    if (frames[i].mode == SP_FRAME_KERNEL)
      return TRUE;
  return FALSE;
}

gint64
sp_test_find_module (const SpSpoolReader *reader,
                     gint32 pid,
                     const char *path)
{
  const SpModule *modules = sp_spool_reader_get_modules (reader);

  for (gsize i = 0; i < sp_spool_reader_get_n_modules (reader); i++)
    if (modules[i].pid == pid && strlen (path) == modules[i].path_len
        && memcmp (path, modules[i].path, modules[i].path_len) == 0)
      return (gint64) i;
  return -1;
}

static gboolean
sample_is_of (const SpSpoolReader *reader,
              gsize index,
              gint32 pid,
              guint64 tid)
{
  const SpThread *thread = &sp_spool_reader_get_threads (reader)[sp_spool_reader_get_sample_thread (reader, index)];

  return thread->tid == tid && (pid == -1 || thread->pid == pid);
}

gsize
sp_test_count_samples (const SpSpoolReader *reader,
                       gint32 pid,
                       guint64 tid)
{
  gsize count = 0;

  for (gsize i = 0; i < sp_spool_reader_get_n_samples (reader); i++)
    count += sample_is_of (reader, i, pid, tid);
  return count;
}

/* Every description of thread tid's samples, with how often it occurs. */
static GHashTable *
describe_thread (const SpSpoolReader *reader,
                 SpElfSymbols *const *symbols,
                 gint32 pid,
                 guint64 tid)
{
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (gsize i = 0; i < sp_spool_reader_get_n_samples (reader); i++)
    {
      SpSample sample;
      char *text;

      if (!sample_is_of (reader, i, pid, tid))
        continue;
      sp_spool_reader_get_sample (reader, i, &sample);
      text = sp_test_describe_stack (reader, symbols,
                                     sp_spool_reader_get_threads (reader)[sample.thread].pid,
                                     sample.stack);
      g_hash_table_insert (counts, text,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts, text)) + 1));
    }
  return counts;
}

gsize
sp_test_count_samples_with (const SpSpoolReader *reader,
                            SpElfSymbols *const *symbols,
                            gint32 pid,
                            guint64 tid,
                            const char *path)
{
  g_autoptr (GHashTable) counts = describe_thread (reader, symbols, pid, tid);
  GHashTableIter iter;
  gpointer key, value;
  gsize count = 0;

  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (strstr (key, path) != NULL)
      count += GPOINTER_TO_UINT (value);
  return count;
}

char *
sp_test_most_common_stack (const SpSpoolReader *reader,
                           SpElfSymbols *const *symbols,
                           gint32 pid,
                           guint64 tid)
{
  g_autoptr (GHashTable) counts = describe_thread (reader, symbols, pid, tid);
  GHashTableIter iter;
  gpointer key, value;
  const char *best = "(no samples)";
  guint best_count = 0;

  g_hash_table_iter_init (&iter, counts);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (GPOINTER_TO_UINT (value) > best_count)
      {
        best = key;
        best_count = GPOINTER_TO_UINT (value);
      }
  return g_strdup_printf ("%u x %s", best_count, best);
}

/* ---- What the workloads report --------------------------------------- */

static void
free_report (gpointer data)
{
  SpThreadReport *report = data;

  g_free (report->name);
  g_free (report);
}

GPtrArray *
sp_test_parse_thread_reports (const char *out)
{
  GPtrArray *reports = g_ptr_array_new_with_free_func (free_report);
  g_auto (GStrv) lines = g_strsplit (out, "\n", -1);

  for (char **line = lines; *line != NULL; line++)
    {
      char name[64];
      int pid, tid;
      unsigned long long cpu_ns;
      SpThreadReport *report;

      if (sscanf (*line, "thread %63s pid=%d tid=%d cpu_ns=%llu", name, &pid, &tid, &cpu_ns) != 4)
        continue;
      report = g_new0 (SpThreadReport, 1);
      report->name = g_strdup (name);
      report->pid = pid;
      report->tid = tid;
      report->cpu_ns = cpu_ns;
      g_ptr_array_add (reports, report);
    }
  return reports;
}

const SpThreadReport *
sp_test_find_report (GPtrArray *reports,
                     const char *name,
                     gint32 pid)
{
  for (guint i = 0; i < reports->len; i++)
    {
      const SpThreadReport *report = g_ptr_array_index (reports, i);

      if (g_str_equal (report->name, name) && (pid == -1 || report->pid == pid))
        return report;
    }
  g_error ("no report of thread %s (pid %d) in the workload's output", name, (int) pid);
  return NULL;
}

gint32
sp_test_ready_id (const char *ready,
                  const char *name)
{
  g_auto (GStrv) lines = g_strsplit (ready, "\n", -1);

  for (char **line = lines; *line != NULL; line++)
    {
      g_auto (GStrv) fields = g_strsplit (*line, " ", 2);

      if (g_strv_length (fields) == 2 && g_str_equal (fields[0], name))
        return (gint32) g_ascii_strtoll (fields[1], NULL, 10);
    }
  g_error ("no line for %s in the ready file:\n%s", name, ready);
  return -1;
}

void
sp_test_assert_samples_fit_cpu (const char *name,
                                gint32 tid,
                                guint64 cpu_low_ns,
                                guint64 cpu_high_ns,
                                gsize n_samples,
                                unsigned frequency_hz)
{
  double low = cpu_low_ns / 1e9 * frequency_hz * 0.5 - 5;
  double high = cpu_high_ns / 1e9 * frequency_hz * 1.5 + 10;

  g_test_message ("thread %s (%d): %.1f to %.1f ms of CPU, %" G_GSIZE_FORMAT " samples, expected %.0f to %.0f",
                  name, (int) tid, cpu_low_ns / 1e6, cpu_high_ns / 1e6, n_samples,
                  cpu_low_ns / 1e9 * frequency_hz, cpu_high_ns / 1e9 * frequency_hz);
  g_assert_cmpfloat ((double) n_samples, >=, low);
  g_assert_cmpfloat ((double) n_samples, <=, high);
}

void
sp_test_assert_plausible_samples (const SpThreadReport *report,
                                  gsize n_samples,
                                  unsigned frequency_hz)
{
  sp_test_assert_samples_fit_cpu (report->name, report->tid, report->cpu_ns, report->cpu_ns,
                                  n_samples, frequency_hz);
}

void
sp_test_assert_plausible_samples_missed (const SpThreadReport *report,
                                         gsize n_samples,
                                         unsigned frequency_hz,
                                         guint64 missed)
{
  double low = report->cpu_ns / 1e9 * frequency_hz * 0.5 - 5;
  double high = report->cpu_ns / 1e9 * frequency_hz * 1.5 + 10;

  g_test_message ("thread %s (%d): %.1f ms of CPU, %" G_GSIZE_FORMAT " samples and %" G_GUINT64_FORMAT
                  " the recorder missed (lost, dropped), expected %.0f", report->name, (int) report->tid,
                  report->cpu_ns / 1e6, n_samples, missed, report->cpu_ns / 1e9 * frequency_hz);
  /* The missed ones may be this thread's: at least the low bound with
   * them, at most the high bound without. */
  g_assert_cmpfloat ((double) (n_samples + missed), >=, low);
  g_assert_cmpfloat ((double) n_samples, <=, high);
}

gboolean
sp_test_stack_ends_truncated (const SpSpoolReader *reader,
                              guint32 stack_id)
{
  const SpFrame *frames = sp_spool_reader_get_frames (reader);
  SpStackIter iter;
  guint32 frame_id;
  gboolean truncated = FALSE;

  sp_stack_iter_init (&iter, reader, stack_id);
  while (sp_stack_iter_next (&iter, &frame_id))
    {
      g_assert_false (truncated);
      truncated = frames[frame_id].mode == SP_FRAME_TRUNCATED;
    }
  return truncated;
}
