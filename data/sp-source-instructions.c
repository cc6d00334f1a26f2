/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-instructions.c: a place's instructions and their costs
 * (sp-source-instructions-private.h). */
#include "sp-source-instructions-private.h"

#include <string.h>

#include "sp-disassembly.h"


/* The sampled addresses of the place, as rows without text: what the page
 * shows where the code could not be disassembled. */
static GArray *
sampled_addresses (SpAnnotation *annotation,
                   guint place)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (SpSourceInstruction));
  guint n_addresses = 0;
  const SpAnnotationAddress *addresses = sp_annotation_get_addresses (annotation, &n_addresses);

  for (guint i = 0; i < n_addresses; i++)
    {
      const SpAnnotationAddress *a = &addresses[i];
      SpSourceInstruction row = { .size = 1, .text = "", .callee = SP_SOURCE_NO_CALLEE };

      if (a->place != place || a->vaddr == 0)
        continue;
      row.vaddr = a->vaddr;
      row.self = a->self;
      row.total = a->total;
      row.line = a->file == 0 ? a->line : 0;
      /* A call site and the leaf after it share an address: one row. */
      if (rows->len > 0 && g_array_index (rows, SpSourceInstruction, rows->len - 1).vaddr == row.vaddr)
        {
          SpSourceInstruction *last = &g_array_index (rows, SpSourceInstruction, rows->len - 1);

          last->self += row.self;
          last->total += row.total;
          continue;
        }
      g_array_append_val (rows, row);
    }
  return rows;
}

/* The id of a call's callee in this profile: the function of that name,
 * in the place's module when there are several; SP_SOURCE_NO_CALLEE when
 * no sample met it (it has no id, and nothing to show). A call into a PLT
 * stub ("strtol@plt") is one into the function it jumps to, in another
 * module. */
static guint32
callee_id (SpProfile *profile,
           const char *callee,
           const char *module)
{
  gboolean plt = g_str_has_suffix (callee, "@plt");
  g_autofree char *name = plt ? g_strndup (callee, strlen (callee) - strlen ("@plt")) : g_strdup (callee);
  g_autoptr (GArray) ids = sp_profile_find_functions (profile, name);
  g_autofree char *base = g_path_get_basename (module);
  guint32 found = SP_SOURCE_NO_CALLEE;

  for (guint i = 0; i < ids->len; i++)
    {
      guint32 id = g_array_index (ids, guint32, i);
      const SpFunction *function = sp_profile_get_function (profile, id);

      if (!g_str_equal (function->name, name))
        continue;
      if (found == SP_SOURCE_NO_CALLEE || g_str_equal (function->module, base) != plt)
        found = id;
    }
  return found;
}

static GArray *
from_disassembly (SpProfile *profile,
                  SpAnnotation *annotation,
                  guint place,
                  SpDisassembly *disassembly,
                  GStringChunk *strings)
{
  guint n = 0, n_places = 0;
  const SpInstruction *instructions = sp_disassembly_get_instructions (disassembly, &n);
  const SpAnnotationPlace *places = sp_annotation_get_places (annotation, &n_places);
  GArray *rows = g_array_sized_new (FALSE, TRUE, sizeof (SpSourceInstruction), n);

  for (guint i = 0; i < n; i++)
    {
      const SpInstruction *insn = &instructions[i];
      SpSourceInstruction row = {
        .vaddr = insn->vaddr, .size = insn->size, .self = insn->self, .total = insn->total,
        .line = insn->annotation_file == 0 ? insn->line : 0, .callee = SP_SOURCE_NO_CALLEE,
      };

      row.text = g_string_chunk_insert_const (strings, insn->text);
      if (insn->is_call && insn->callee != NULL)
        {
          row.callee_name = g_string_chunk_insert_const (strings, insn->callee);
          row.callee = callee_id (profile, insn->callee, places[place].module);
        }
      g_array_append_val (rows, row);
    }
  return rows;
}

GArray *
_sp_source_instructions_new (SpProfile *profile,
                             SpAnnotation *annotation,
                             guint place,
                             GStringChunk *strings,
                             char **problem)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (SpDisassembly) disassembly = NULL;
  guint n_places = 0;

  *problem = NULL;
  sp_annotation_get_places (annotation, &n_places);
  if (place >= n_places)
    return g_array_new (FALSE, TRUE, sizeof (SpSourceInstruction));
  disassembly = sp_disassembly_new (profile, annotation, place, &error);
  if (disassembly != NULL)
    {
      *problem = g_strdup (sp_disassembly_get_note (disassembly));
      return from_disassembly (profile, annotation, place, disassembly, strings);
    }
  *problem = g_strdup_printf ("Not disassembled (%s): only the sampled addresses are listed.", error->message);
  return sampled_addresses (annotation, place);
}
