/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-debug-file.c: finding a module's separate debug file, safely.
 *
 * libdwfl's standard search opens each candidate path with a blocking
 * open(): a FIFO named like a debug file beside a module the spool names
 * ("prog.debug", ".debug/prog.debug", the .gnu_debuglink name) would hang
 * the viewer. The candidates it will try are checked first, in its own
 * order (elfutils' find_debuginfo_in_path and build-id lookup); when any
 * of them is something other than a regular file, the module goes without
 * separate debug info, and says why.
 *
 * Where DEBUGINFOD_URLS is set, libdwfl's standard search would end in a
 * debuginfod query of its own: synchronous, without progress, in the
 * analysis worker. So there the search is done here, in the same order
 * (build-id folders, then the .gnu_debuglink candidates, each checked to
 * have the module's build-id), and debuginfod is asked as the symbolizer
 * allows (sp-symbolizer-debuginfod.c). */
#include "sp-symbolizer-private.h"

#include <elfutils/libdwelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sp-build-id.h"
#include "sp-debuginfod.h"

#include "sp-file-private.h"

#define DEFAULT_DEBUGINFO_PATH ":.debug:/usr/lib/debug"

/* dir/.build-id/xx/rest.debug */
static void
add_build_id_candidate (GPtrArray *candidates,
                        Dwfl_Module *mod,
                        const char *dir)
{
  const unsigned char *bits = NULL;
  GElf_Addr vaddr;
  int len = dwfl_module_build_id (mod, &bits, &vaddr);
  g_autoptr (GString) name = NULL;

  if (len < 2)
    return;
  name = g_string_new (dir);
  g_string_append_printf (name, "/.build-id/%02x/", bits[0]);
  for (int i = 1; i < len; i++)
    g_string_append_printf (name, "%02x", bits[i]);
  g_string_append (name, ".debug");
  g_ptr_array_add (candidates, g_string_free (g_steal_pointer (&name), FALSE));
}

/* An absolute element: dir/SUBDIR/link for each tail of the module's
 * directory ("a/b/c", "b/c", "c"), then dir/link. */
static void
add_absolute_candidates (GPtrArray *candidates,
                         const char *dir,
                         const char *module_dir,
                         const char *link)
{
  for (const char *sub = module_dir; sub != NULL; sub = strchr (sub + 1, '/'))
    if (sub[1] != '\0')
      g_ptr_array_add (candidates, g_build_filename (dir, sub + 1, link, NULL));
  g_ptr_array_add (candidates, g_build_filename (dir, link, NULL));
}

static GPtrArray *
candidates_of (Dwfl_Module *mod,
               const char *search_path,
               const char *file_name,
               const char *link)
{
  GPtrArray *candidates = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *module_dir = file_name != NULL ? g_path_get_dirname (file_name) : NULL;
  g_auto (GStrv) elements = g_strsplit (search_path, ":", -1);

  if (g_path_is_absolute (link))
    g_ptr_array_add (candidates, g_strdup (link));
  for (guint i = 0; elements[i] != NULL; i++)
    {
      const char *element = elements[i] + strspn (elements[i], "+-");

      if (element[0] == '/')
        add_build_id_candidate (candidates, mod, element);
      if (module_dir == NULL)
        continue;
      if (element[0] == '\0')
        g_ptr_array_add (candidates, g_build_filename (module_dir, link, NULL));
      else if (element[0] == '/')
        add_absolute_candidates (candidates, element, module_dir, link);
      else
        g_ptr_array_add (candidates, g_build_filename (module_dir, element, link, NULL));
    }
  return candidates;
}

/* A descriptor of path when it is a regular ELF file with the build-id
 * bits; -1 otherwise. */
static int
open_with_build_id (const char *path,
                    const unsigned char *bits,
                    int len)
{
  int fd = _sp_file_open_regular (path, NULL);
  Elf *elf = fd >= 0 ? elf_begin (fd, ELF_C_READ_MMAP, NULL) : NULL;
  const void *found = NULL;
  gboolean same = elf != NULL && dwelf_elf_gnu_build_id (elf, &found) == len && memcmp (found, bits, len) == 0;

  if (elf != NULL)
    elf_end (elf);
  if (!same && fd >= 0)
    {
      close (fd);
      fd = -1;
    }
  return fd;
}

static int
open_first_candidate (GPtrArray *candidates,
                      const unsigned char *bits,
                      int len,
                      char **debuginfo_file_name)
{
  for (guint i = 0; i < candidates->len; i++)
    {
      const char *path = g_ptr_array_index (candidates, i);
      int fd = open_with_build_id (path, bits, len);

      if (fd >= 0)
        {
          *debuginfo_file_name = strdup (path);
          return fd;
        }
    }
  return -1;
}

/* libdwfl's standard search without its debuginfod query, for a module
 * with a build-id: the build-id folders, then the debuglink candidates
 * (with the module's path, then with its real path, as libdwfl does),
 * then debuginfod as the symbolizer allows. An alternate (dwz) file is
 * looked for only by its build-id. */
static int
find_without_network (SpSymbolizer *self,
                      Dwfl_Module *mod,
                      const char *search_path,
                      const char *file_name,
                      const char *link,
                      gboolean is_alt,
                      GPtrArray *candidates,
                      char **debuginfo_file_name)
{
  const unsigned char *bits = NULL;
  GElf_Addr vaddr;
  int len = dwfl_module_build_id (mod, &bits, &vaddr);
  g_autofree char *real = NULL;
  g_autofree char *build_id = NULL;
  int fd = dwfl_build_id_find_debuginfo (mod, NULL, NULL, 0, NULL, NULL, 0, debuginfo_file_name);

  if (fd >= 0 || is_alt)
    return fd;
  fd = link != NULL ? open_first_candidate (candidates, bits, len, debuginfo_file_name) : -1;
  real = fd < 0 && link != NULL && file_name != NULL ? realpath (file_name, NULL) : NULL;
  if (real != NULL && !g_str_equal (real, file_name))
    {
      g_autoptr (GPtrArray) more = candidates_of (mod, search_path, real, link);

      fd = open_first_candidate (more, bits, len, debuginfo_file_name);
    }
  if (fd >= 0)
    return fd;
  build_id = sp_build_id_to_hex (bits, (gsize) len);
  return _sp_symbolizer_debuginfod_find (self, file_name, build_id, debuginfo_file_name);
}

/* Whether libdwfl asks for a DWARF's alternate file (dwz): it passes the
 * .gnu_debugaltlink name with CRC 0, where a .gnu_debuglink has its CRC. */
static gboolean
asks_for_alt (const char *debuglink_file,
              GElf_Word debuglink_crc)
{
  return debuglink_file != NULL && debuglink_crc == 0;
}

static gboolean
has_build_id (Dwfl_Module *mod)
{
  const unsigned char *bits = NULL;
  GElf_Addr vaddr;

  return dwfl_module_build_id (mod, &bits, &vaddr) > 0;
}

int
_sp_debug_file_find (Dwfl_Module *mod,
                     void **userdata,
                     const char *modname,
                     Dwarf_Addr base,
                     const char *file_name,
                     const char *debuglink_file,
                     GElf_Word debuglink_crc,
                     char **debuginfo_file_name)
{
  SpSymbolizer *self = *userdata;
  g_autofree char *base_name = file_name != NULL ? g_path_get_basename (file_name) : NULL;
  g_autofree char *invented = base_name != NULL ? g_strconcat (base_name, ".debug", NULL) : NULL;
  const char *link = debuglink_file != NULL ? debuglink_file : invented;
  const char *search_path = self != NULL && self->debuginfo_path != NULL ? self->debuginfo_path
                                                                        : DEFAULT_DEBUGINFO_PATH;
  gboolean is_alt = asks_for_alt (debuglink_file, debuglink_crc);
  g_autoptr (GPtrArray) candidates = NULL;

  if (link != NULL)
    {
      candidates = candidates_of (mod, search_path, file_name, link);
      for (guint i = 0; i < candidates->len; i++)
        if (!_sp_file_is_absent_or_regular (g_ptr_array_index (candidates, i)))
          {
            if (self != NULL)
              _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_UNREADABLE, file_name,
                                          "%s: its debug file %s is not a regular file: not read", file_name,
                                          (const char *) g_ptr_array_index (candidates, i));
            return -1;
          }
    }
  /* Without servers, or without a build-id to ask them by, libdwfl asks
   * none (only an alternate file has a build-id of its own); but for a
   * module with a build-id that it finds no file for ([vdso], a program
   * built without one) its own search opens libdebuginfod even then:
   * some thirty libraries, a tenth of a report's time. So a module's
   * own debug file (not an alternate one, which libdwfl also looks for
   * by name) is searched for here whenever it has a build-id. */
  if (sp_debuginfod_is_enabled () ? (is_alt || has_build_id (mod)) : (!is_alt && has_build_id (mod)))
    return find_without_network (self, mod, search_path, file_name, link, is_alt, candidates,
                                 debuginfo_file_name);
  return dwfl_standard_find_debuginfo (mod, userdata, modname, base, file_name, debuglink_file,
                                       debuglink_crc, debuginfo_file_name);
}

/* libdw looks for a DWARF's alternate file (.gnu_debugaltlink, from dwz)
 * itself when the callback above found none: the name as given, or
 * relative to the debug file's folder. */
gboolean
_sp_debug_file_alt_is_safe (SpSymbolizer *self,
                            Dwfl_Module *mod,
                            Dwarf *dwarf)
{
  const char *altname = NULL;
  const void *build_id = NULL;
  const char *main_file = NULL;
  const char *debug_file = NULL;
  g_autofree char *debug_dir = NULL;
  g_autofree char *candidate = NULL;

  if (dwelf_dwarf_gnu_debugaltlink (dwarf, &altname, &build_id) <= 0 || altname == NULL)
    return TRUE;
  dwfl_module_info (mod, NULL, NULL, NULL, NULL, NULL, &main_file, &debug_file);
  if (g_path_is_absolute (altname))
    candidate = g_strdup (altname);
  else if (debug_file != NULL || main_file != NULL)
    {
      debug_dir = g_path_get_dirname (debug_file != NULL ? debug_file : main_file);
      candidate = g_build_filename (debug_dir, altname, NULL);
    }
  if (candidate == NULL || _sp_file_is_absent_or_regular (candidate))
    return TRUE;
  _sp_symbolizer_add_problem (self, SP_SYMBOL_PROBLEM_UNREADABLE, main_file,
                              "%s: its debug file %s is not a regular file: not read",
                              main_file != NULL ? main_file : "?", candidate);
  return FALSE;
}
