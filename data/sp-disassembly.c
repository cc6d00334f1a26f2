/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-disassembly.c: a function's bytes through Capstone, with costs and lines. */
#include "sp-disassembly.h"

#include <capstone/capstone.h>
#include <dlfcn.h>
#include <elf.h>
#include <gio/gio.h>
#include <string.h>

#include "sp-elf-image.h"
#include "sp-profile-private.h"

#define MAX_DEPTH 32
/* Larger than any function one reads instruction by instruction. */
#define MAX_FUNCTION_SIZE ((guint64) 16 << 20)

struct _SpDisassembly
{
  GStringChunk *strings;
  const char   *function;
  guint64       start;
  guint64       size;
  GArray       *instructions;  /* SpInstruction, by address */
  guint64       n_skipped;     /* bytes Capstone could not decode (".byte" rows) */
  const char   *note;          /* what the reader should know of the decoding, or NULL */
};

void
sp_disassembly_free (SpDisassembly *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->instructions, g_array_unref);
  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_free (self);
}

/* Capstone, opened the first time a function is disassembled. Linked,
 * its 84,000 relocations (tables for every architecture it decodes) cost
 * every report and window ~200 page faults and 1.5 ms at start, used or
 * not. The soname is the one of the headers built against. */
#define CAPSTONE_SONAME "libcapstone.so." G_STRINGIFY (CS_API_MAJOR)

typedef struct {
  cs_err (*open) (cs_arch arch, cs_mode mode, csh *handle);
  cs_err (*option) (csh handle, cs_opt_type type, size_t value);
  size_t (*disasm) (csh handle, const uint8_t *code, size_t code_size, uint64_t address, size_t count,
                    cs_insn **insn);
  void (*free) (cs_insn *insn, size_t count);
  cs_err (*close) (csh *handle);
  bool (*insn_group) (csh handle, const cs_insn *insn, unsigned int group_id);
} Capstone;

static Capstone capstone;

static gboolean
load_capstone (GError **error)
{
  static gsize loaded;
  static char *failure;

  if (g_once_init_enter (&loaded))
    {
      void *library = dlopen (CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);

      if (library == NULL)
        failure = g_strdup_printf ("Capstone cannot be loaded (%s): install libcapstone4", dlerror ());
      else if ((capstone.open = dlsym (library, "cs_open")) == NULL
               || (capstone.option = dlsym (library, "cs_option")) == NULL
               || (capstone.disasm = dlsym (library, "cs_disasm")) == NULL
               || (capstone.free = dlsym (library, "cs_free")) == NULL
               || (capstone.close = dlsym (library, "cs_close")) == NULL
               || (capstone.insn_group = dlsym (library, "cs_insn_group")) == NULL)
        failure = g_strdup_printf ("%s lacks a function stackpulse uses", CAPSTONE_SONAME);
      g_once_init_leave (&loaded, 1);
    }
  if (failure == NULL)
    return TRUE;
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, failure);
  return FALSE;
}

/* The real function of place: the symbol holding one of its addresses,
 * else the one named like it. */
static gboolean
find_function (SpElfImage *image,
               SpAnnotation *annotation,
               guint place,
               SpElfSymbol *symbol)
{
  guint n_addresses;
  guint n_places;
  const SpAnnotationAddress *addresses = sp_annotation_get_addresses (annotation, &n_addresses);
  const SpAnnotationPlace *places = sp_annotation_get_places (annotation, &n_places);

  for (guint i = 0; i < n_addresses; i++)
    if (addresses[i].place == place && addresses[i].vaddr != 0
        && sp_elf_image_symbol_at (image, addresses[i].vaddr, symbol))
      return TRUE;
  if (sp_elf_image_find_symbol (image, places[place].function, symbol))
    return TRUE;
  /* A stripped file: the function its unwind tables say the samples are
   * in (the one they are named after, sp-profile.c). */
  for (guint i = 0; i < n_addresses; i++)
    {
      guint64 start, end;

      if (addresses[i].place == place && addresses[i].vaddr != 0
          && sp_elf_image_unwind_range_at (image, addresses[i].vaddr, &start, &end))
        {
          *symbol = (SpElfSymbol) { start, end - start, places[place].function };
          return TRUE;
        }
    }
  return FALSE;
}

/* Where in the source an address is: the level of the annotated
 * function when it is in the chain, else the innermost; and, for a call
 * target, the real function's name. */
typedef struct {
  SpSymbolizer *symbolizer;
  SpModule      module;
  SpElfImage   *image;
  SpAnnotation *annotation;
} LineContext;

static guint
resolve_vaddr (LineContext *context,
               guint64 vaddr,
               SpSymbolFrame *frames)
{
  guint64 offset;

  if (!sp_elf_image_vaddr_to_offset (context->image, vaddr, &offset))
    return 0;
  return sp_symbolizer_resolve (context->symbolizer, &context->module, offset, FALSE, frames, MAX_DEPTH);
}

static guint
annotation_file_index (SpAnnotation *annotation,
                       const char *path)
{
  guint n;
  const SpAnnotationFile *files = sp_annotation_get_files (annotation, &n);

  for (guint i = 0; path != NULL && i < n; i++)
    if (g_str_equal (files[i].path, path))
      return i;
  return SP_ANNOTATION_NONE;
}

static void
set_line (SpDisassembly *self,
          LineContext *context,
          SpInstruction *insn)
{
  SpSymbolFrame frames[MAX_DEPTH];
  guint n = resolve_vaddr (context, insn->vaddr, frames);
  const char *function = sp_annotation_get_function (context->annotation);
  guint level = 0;

  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    if (frames[i].function != NULL && g_str_equal (frames[i].function, function))
      {
        level = i;
        break;
      }
  if (frames[level].file == NULL)
    return;
  insn->file = g_string_chunk_insert_const (self->strings,
                                            sp_symbolizer_source_path (context->symbolizer, &context->module,
                                                                       insn->vaddr, frames[level].file));
  insn->line = frames[level].line;
  insn->annotation_file = annotation_file_index (context->annotation, insn->file);
}

static void
set_target (SpDisassembly *self,
            LineContext *context,
            csh handle,
            const cs_insn *raw,
            SpInstruction *insn)
{
  const cs_x86 *x86;
  SpSymbolFrame frames[MAX_DEPTH];
  guint n;

  /* Skipped data (".byte") has no detail. */
  if (raw->detail == NULL)
    return;
  x86 = &raw->detail->x86;
  insn->is_call = capstone.insn_group (handle, raw, CS_GRP_CALL);
  if ((!insn->is_call && !capstone.insn_group (handle, raw, CS_GRP_JUMP)) || x86->op_count != 1
      || x86->operands[0].type != X86_OP_IMM)
    return;
  insn->target = (guint64) x86->operands[0].imm;
  /* The symbolizer knows PLT entries ("memcpy@plt") the symbol table lacks. */
  if (insn->is_call && (n = resolve_vaddr (context, insn->target, frames)) > 0 && frames[n - 1].function != NULL)
    insn->callee = g_string_chunk_insert_const (self->strings, frames[n - 1].function);
}

/* objdump's way: operands without a space after commas, and a direct
 * branch's target as "1040 <memcpy@plt>" or "12f0 <hot_loop+0x30>"; a
 * target in another function is named by the symbol that holds it. */
static const char *
objdump_text (SpDisassembly *self,
              LineContext *context,
              const cs_insn *raw,
              const SpInstruction *insn)
{
  g_autofree char *operands = NULL;
  g_autofree char *text = NULL;
  g_auto (GStrv) parts = NULL;
  SpElfSymbol symbol;

  if (insn->target != 0 && insn->callee != NULL)
    text = g_strdup_printf ("%-6s %" G_GINT64_MODIFIER "x <%s>", raw->mnemonic, insn->target, insn->callee);
  else if (insn->target >= self->start && insn->target - self->start < self->size)
    text = g_strdup_printf ("%-6s %" G_GINT64_MODIFIER "x <%s+0x%" G_GINT64_MODIFIER "x>", raw->mnemonic,
                            insn->target, self->function, insn->target - self->start);
  else if (insn->target != 0 && sp_elf_image_symbol_at (context->image, insn->target, &symbol))
    text = insn->target == symbol.start
             ? g_strdup_printf ("%-6s %" G_GINT64_MODIFIER "x <%s>", raw->mnemonic, insn->target, symbol.name)
             : g_strdup_printf ("%-6s %" G_GINT64_MODIFIER "x <%s+0x%" G_GINT64_MODIFIER "x>", raw->mnemonic,
                                insn->target, symbol.name, insn->target - symbol.start);
  else
    {
      parts = g_strsplit (raw->op_str, ", ", -1);
      operands = g_strjoinv (",", parts);
      text = g_strdup_printf ("%-6s %s", raw->mnemonic, operands);
    }
  return g_string_chunk_insert_const (self->strings, g_strchomp (text));
}

static void
decode (SpDisassembly *self,
        LineContext *context,
        csh handle,
        const guint8 *bytes)
{
  cs_insn *raw = NULL;
  size_t n = capstone.disasm (handle, bytes, self->size, self->start, 0, &raw);

  for (size_t i = 0; i < n; i++)
    {
      SpInstruction insn = { 0 };

      insn.vaddr = raw[i].address;
      insn.size = (guint8) MIN (raw[i].size, sizeof insn.bytes);
      memcpy (insn.bytes, raw[i].bytes, insn.size);
      insn.annotation_file = SP_ANNOTATION_NONE;
      set_target (self, context, handle, &raw[i], &insn);
      insn.text = objdump_text (self, context, &raw[i], &insn);
      set_line (self, context, &insn);
      g_array_append_val (self->instructions, insn);
      if (raw[i].id == 0)
        self->n_skipped += raw[i].size;
    }
  capstone.free (raw, n);
}

/* The end of what was decoded: the function's end unless Capstone
 * stopped early. */
static guint64
decoded_end (SpDisassembly *self)
{
  const SpInstruction *last;

  if (self->instructions->len == 0)
    return self->start;
  last = &g_array_index (self->instructions, SpInstruction, self->instructions->len - 1);
  return last->vaddr + last->size;
}

/* Says which bytes were not decoded, and where decoding stopped when
 * sampled addresses lie past it (their costs are on no row). */
static void
set_note (SpDisassembly *self,
          SpAnnotation *annotation,
          guint place)
{
  guint n;
  const SpAnnotationAddress *addresses = sp_annotation_get_addresses (annotation, &n);
  guint64 end = decoded_end (self);
  guint64 unreached = 0;
  g_autoptr (GString) note = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    if (addresses[i].place == place && addresses[i].vaddr >= end && addresses[i].vaddr - self->start < self->size)
      unreached += addresses[i].total;
  if (self->n_skipped > 0)
    g_string_append_printf (note, "%" G_GUINT64_FORMAT " bytes Capstone cannot decode are shown as .byte.",
                            self->n_skipped);
  if (unreached > 0)
    g_string_append_printf (note, "%sDecoding stopped at %" G_GINT64_MODIFIER "x <%s+0x%" G_GINT64_MODIFIER
                            "x> of %" G_GUINT64_FORMAT " bytes: the samples past it (%" G_GUINT64_FORMAT ") are not listed.",
                            note->len > 0 ? " " : "", end, self->function, end - self->start, self->size, unreached);
  if (note->len > 0)
    self->note = g_string_chunk_insert_const (self->strings, note->str);
}

/* Each address of the place into the instruction that holds it. */
static void
add_costs (SpDisassembly *self,
           SpAnnotation *annotation,
           guint place)
{
  guint n;
  const SpAnnotationAddress *addresses = sp_annotation_get_addresses (annotation, &n);

  for (guint i = 0; i < n; i++)
    {
      guint at;

      if (addresses[i].place != place || addresses[i].vaddr == 0
          || (at = sp_disassembly_find (self, addresses[i].vaddr)) == SP_ANNOTATION_NONE)
        continue;
      g_array_index (self->instructions, SpInstruction, at).self += addresses[i].self;
      g_array_index (self->instructions, SpInstruction, at).total += addresses[i].total;
    }
}

static gboolean
disassemble (SpDisassembly *self,
             LineContext *context,
             const guint8 *bytes,
             GError **error)
{
  csh handle;

  if (!load_capstone (error))
    return FALSE;
  if (capstone.open (CS_ARCH_X86, CS_MODE_64, &handle) != CS_ERR_OK)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "Capstone cannot decode x86-64");
      return FALSE;
    }
  capstone.option (handle, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
  capstone.option (handle, CS_OPT_DETAIL, CS_OPT_ON);
  /* Capstone 4 stops at the first instruction it cannot decode (many
   * AVX-512 ones): skipping such bytes keeps the rest of the function. */
  capstone.option (handle, CS_OPT_SKIPDATA, CS_OPT_ON);
  decode (self, context, handle, bytes);
  capstone.close (&handle);
  return TRUE;
}

static gboolean
check_image (SpElfImage *image,
             const char *path,
             GError **error)
{
  if (sp_elf_image_get_machine (image) == EM_X86_64)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               "%s: disassembly is for x86-64 code only (this file is for ELF machine %u)", path,
               sp_elf_image_get_machine (image));
  return FALSE;
}

static void
set_no_symbol_error (SpElfImage *image,
                     const SpAnnotationPlace *p,
                     GError **error)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s: no symbol with a size for %s%s", p->module,
               p->function,
               sp_elf_image_has_symtab (image) ? ""
                                               : " (the file is stripped and its debug file was not found)");
}

SpDisassembly *
sp_disassembly_new (SpProfile *profile,
                    SpAnnotation *annotation,
                    guint place,
                    GError **error)
{
  guint n_places;
  const SpAnnotationPlace *p = &sp_annotation_get_places (annotation, &n_places)[place];
  g_autoptr (SpElfImage) image = NULL;
  g_autoptr (SpDisassembly) self = NULL;
  LineContext context = { _sp_profile_get_symbolizer (profile), { 0 }, NULL, annotation };
  const guint8 *bytes;
  SpElfSymbol symbol;

  g_return_val_if_fail (place < n_places, NULL);
  if ((image = sp_elf_image_open (p->module, p->inode, error)) == NULL || !check_image (image, p->module, error))
    return NULL;
  context.module.path = p->module;
  context.module.path_len = strlen (p->module);
  context.module.inode = p->inode;
  context.image = image;
  /* A stripped module's function bounds are in its separate debug file. */
  sp_elf_image_use_symbolizer_debug_file (image, context.symbolizer, &context.module);
  if (!find_function (image, annotation, place, &symbol) || symbol.size == 0 || symbol.size > MAX_FUNCTION_SIZE
      || (bytes = sp_elf_image_get_bytes (image, symbol.start, symbol.size)) == NULL)
    {
      set_no_symbol_error (image, p, error);
      return NULL;
    }
  self = g_new0 (SpDisassembly, 1);
  self->strings = g_string_chunk_new (4096);
  self->function = g_string_chunk_insert_const (self->strings, symbol.name);
  self->start = symbol.start;
  self->size = symbol.size;
  self->instructions = g_array_new (FALSE, TRUE, sizeof (SpInstruction));
  if (!disassemble (self, &context, bytes, error))
    return NULL;
  add_costs (self, annotation, place);
  set_note (self, annotation, place);
  return g_steal_pointer (&self);
}

const char *sp_disassembly_get_function (SpDisassembly *self) { return self->function; }
guint64 sp_disassembly_get_start (SpDisassembly *self) { return self->start; }
guint64 sp_disassembly_get_size (SpDisassembly *self) { return self->size; }
const char *sp_disassembly_get_note (SpDisassembly *self) { return self->note; }

const SpInstruction *
sp_disassembly_get_instructions (SpDisassembly *self,
                                 guint *n_instructions)
{
  *n_instructions = self->instructions->len;
  return (const SpInstruction *) (gconstpointer) self->instructions->data;
}

guint
sp_disassembly_find (SpDisassembly *self,
                     guint64 vaddr)
{
  const SpInstruction *insns = (const SpInstruction *) (gconstpointer) self->instructions->data;
  guint lo = 0;
  guint hi = self->instructions->len;

  /* The last instruction that starts at or before vaddr. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (insns[mid].vaddr <= vaddr)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || vaddr - insns[lo - 1].vaddr >= insns[lo - 1].size)
    return SP_ANNOTATION_NONE;
  return lo - 1;
}

void
sp_disassembly_get_line_instructions (SpDisassembly *self,
                                      guint annotation_file,
                                      guint line,
                                      GArray *rows)
{
  for (guint i = 0; i < self->instructions->len; i++)
    {
      const SpInstruction *insn = &g_array_index (self->instructions, SpInstruction, i);

      if (insn->annotation_file == annotation_file && insn->line == line)
        g_array_append_val (rows, i);
    }
}
