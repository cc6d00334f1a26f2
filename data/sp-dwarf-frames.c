/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-dwarf-frames.c: one address, its chain of inlined functions.
 *
 * The line table gives the innermost source line. The functions around
 * the address (sp-dwarf-scopes.c) give the chain: each
 * DW_TAG_inlined_subroutine is a function inlined into the next one out,
 * and its DW_AT_call_file/DW_AT_call_line is where, in that next
 * function, the call was written. The chain ends at the
 * DW_TAG_subprogram, the real function. */
#include "sp-symbolizer-private.h"

#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

/* A function's name: its linkage name (demangled later, so C++ keeps its
 * scope and parameters), else its plain name; both may sit on the
 * abstract origin of an inlined instance or on a declaration. */
static const char *
function_raw_name (Dwarf_Die *die)
{
  static const int attributes[] = { DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name };

  for (guint i = 0; i < G_N_ELEMENTS (attributes); i++)
    {
      Dwarf_Attribute attr;
      const char *name = dwarf_formstring (dwarf_attr_integrate (die, attributes[i], &attr));

      if (name != NULL)
        return name;
    }
  return NULL;
}

/* A source position a DIE names by a pair of attributes: a file (an
 * index into the line program of the unit the attribute is in) and a line.
 * For DW_AT_call_file/line, where an inlined instance was called; for
 * DW_AT_decl_file/line, where a function is defined (on an inlined
 * instance's abstract origin: dwarf_attr_integrate follows it). Not
 * dwarf_decl_file: elfutils 0.188 takes file 0 for none, as DWARF 4 has
 * it, but DWARF 5 (clang's default) numbers the unit's own source file 0. */
static void
source_position (Dwarf_Die *die,
                 int file_attribute,
                 int line_attribute,
                 const char **file,
                 guint *line)
{
  Dwarf_Attribute attr;
  Dwarf_Word file_index = 0;
  Dwarf_Word line_number = 0;
  Dwarf_Half version = 0;
  Dwarf_Files *files;
  size_t n_files;
  Dwarf_Die cu;

  *file = NULL;
  *line = 0;
  if (dwarf_formudata (dwarf_attr_integrate (die, line_attribute, &attr), &line_number) == 0)
    *line = (guint) line_number;
  if (dwarf_formudata (dwarf_attr_integrate (die, file_attribute, &attr), &file_index) != 0
      || dwarf_cu_die (attr.cu, &cu, &version, NULL, NULL, NULL, NULL, NULL) == NULL
      || (file_index == 0 && version < 5))
    return;
  if (dwarf_getsrcfiles (&cu, &files, &n_files) == 0 && file_index < n_files)
    *file = dwarf_filesrc (files, file_index, NULL, NULL);
}

/* The class a member function belongs to, through its object pointer
 * (the artificial `this` parameter): its type, less pointers and
 * qualifiers. */
static Dwarf_Die *
object_class (Dwarf_Die *function,
              Dwarf_Die *result)
{
  Dwarf_Attribute attr;
  Dwarf_Die param;
  Dwarf_Die *type;

  if (dwarf_formref_die (dwarf_attr_integrate (function, DW_AT_object_pointer, &attr), &param) == NULL)
    return NULL;
  type = dwarf_formref_die (dwarf_attr (&param, DW_AT_type, &attr), result);
  for (guint steps = 0; type != NULL && steps < 8; steps++)
    switch (dwarf_tag (type))
      {
      case DW_TAG_pointer_type:
      case DW_TAG_reference_type:
      case DW_TAG_rvalue_reference_type:
      case DW_TAG_const_type:
      case DW_TAG_volatile_type:
        type = dwarf_formref_die (dwarf_attr (type, DW_AT_type, &attr), result);
        break;
      default:
        return type;
      }
  return NULL;
}

/* Where a function is defined. A lambda's operator() has no position of
 * its own in GCC's DWARF (it is artificial); its closure type has the
 * lambda's, which is what a person looks for. */
static void
definition_position (Dwarf_Die *function,
                     const char **file,
                     guint *line)
{
  Dwarf_Die class_die;

  source_position (function, DW_AT_decl_file, DW_AT_decl_line, file, line);
  if (*file == NULL && *line == 0 && object_class (function, &class_die) != NULL)
    source_position (&class_die, DW_AT_decl_file, DW_AT_decl_line, file, line);
}

/* GCC gives the operator() of a lambda written in a function that is not
 * a template (nor inline) no linkage name: its name is "operator()",
 * whoever's lambda it is. Say whose: the function around its closure
 * type (an unnamed class), as "f(int)::{lambda}::operator()". NULL for
 * any other function. */
static const char *
lambda_name (SpSymbolizer *self,
             Dwarf_Die *function,
             const char *raw_name)
{
  g_autofree char *name = NULL;
  Dwarf_Die class_die;
  Dwarf_Die *scopes = NULL;
  int n;

  if (raw_name == NULL || strcmp (raw_name, "operator()") != 0
      || object_class (function, &class_die) == NULL || dwarf_diename (&class_die) != NULL)
    return NULL;
  n = dwarf_getscopes_die (&class_die, &scopes);
  for (int i = 1; i < n && name == NULL; i++)
    if (dwarf_tag (&scopes[i]) == DW_TAG_subprogram && function_raw_name (&scopes[i]) != NULL)
      name = g_strdup_printf ("%s::{lambda}::operator()",
                              _sp_symbolizer_display_name (self, function_raw_name (&scopes[i])));
  free (scopes);
  return name != NULL ? _sp_symbolizer_intern (self, name) : NULL;
}

/* The name a frame shows for function. */
static const char *
function_name (SpSymbolizer *self,
               Dwarf_Die *function)
{
  const char *raw_name = function_raw_name (function);
  const char *lambda = lambda_name (self, function, raw_name);

  return lambda != NULL ? lambda : _sp_symbolizer_display_name (self, raw_name);
}

static SpDwarfScopes *
lookup_unit (GHashTable *units,
             Dwarf_Die *cudie)
{
  Dwarf_Off offset = dwarf_dieoffset (cudie);
  SpDwarfScopes *scopes = g_hash_table_lookup (units, &offset);

  if (scopes == NULL)
    {
      scopes = _sp_dwarf_scopes_new (cudie);
      g_hash_table_insert (units, _sp_dwarf_scopes_get_key (scopes), scopes);
    }
  return scopes;
}

/* libdw finds an address's unit through .debug_aranges, which clang does
 * not write (elfutils 0.188 does not make them up from the units): then
 * each unit's own ranges are looked at, the units being indexed once. */
static Dwarf_Die *
find_unit_by_ranges (Dwfl_Module *mod,
                     GHashTable *units,
                     Dwarf_Addr address,
                     Dwarf_Addr *bias)
{
  Dwarf_Die *cudie = NULL;

  while ((cudie = dwfl_module_nextcu (mod, cudie, bias)) != NULL)
    {
      SpDwarfScopes *scopes = lookup_unit (units, cudie);

      if (_sp_dwarf_scopes_has_ranges (scopes) && _sp_dwarf_scopes_covers (scopes, address - *bias))
        return cudie;
    }
  return NULL;
}

guint
_sp_dwarf_frames (SpSymbolizer *self,
                  Dwfl_Module *mod,
                  GHashTable *units,
                  Dwarf_Addr address,
                  SpSymbolFrame *frames,
                  guint max)
{
  Dwarf_Die *dies[SP_SYMBOLIZER_MAX_DEPTH];
  Dwarf_Addr bias;
  Dwarf_Die *cudie = dwfl_module_addrdie (mod, address, &bias);
  SpDwarfScopes *scopes;
  Dwarf_Line *line_info;
  const char *file = NULL;
  int line = 0;
  guint n;

  if (cudie == NULL)
    cudie = find_unit_by_ranges (mod, units, address, &bias);
  if (cudie == NULL)
    return 0;
  scopes = lookup_unit (units, cudie);
  if (!_sp_dwarf_scopes_covers (scopes, address - bias))
    return 0;
  line_info = dwarf_getsrc_die (cudie, address - bias);
  if (line_info != NULL)
    {
      file = dwarf_linesrc (line_info, NULL, NULL);
      dwarf_lineno (line_info, &line);
    }

  n = _sp_dwarf_scopes_lookup (scopes, address - bias, dies, MIN (max, G_N_ELEMENTS (dies)));
  for (guint i = 0; i < n; i++)
    {
      guint call_line = 0;
      const char *decl_file;

      frames[i].function = function_name (self, dies[i]);
      frames[i].file = _sp_symbolizer_intern (self, file);
      frames[i].line = line > 0 ? (guint) line : 0;
      definition_position (dies[i], &decl_file, &frames[i].decl_line);
      frames[i].decl_file = _sp_symbolizer_intern (self, decl_file);
      /* The next function out is where this one was inlined. */
      if (i + 1 < n)
        source_position (dies[i], DW_AT_call_file, DW_AT_call_line, &file, &call_line);
      line = (int) call_line;
    }

  /* Line information without a function around it (assembly, say). */
  if (n == 0 && file != NULL)
    {
      frames[0] = (SpSymbolFrame) { NULL, _sp_symbolizer_intern (self, file), line > 0 ? (guint) line : 0, NULL, 0 };
      n = 1;
    }
  return n;
}
