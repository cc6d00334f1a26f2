/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-source-annotation.c: the Source page's function, made in the worker
 * (sp-source-annotation.h): the annotation, one place's instructions with
 * the annotation's costs on them, and the source file's text. */
#include "sp-source-annotation.h"

#include <string.h>

#include "sp-build-id.h"
#include "sp-debuginfod.h"
#include "sp-elf-image.h"
#include "sp-profile-private.h"
#include "sp-source-file.h"
#include "sp-source-instructions-private.h"

static void
source_annotation_clear (gpointer data)
{
  SpSourceAnnotation *self = data;

  g_clear_pointer (&self->annotation, sp_annotation_unref);
  g_clear_pointer (&self->instructions, g_array_unref);
  g_free (self->disassembly_problem);
  g_free (self->wanted);
  g_free (self->no_debug_info);
  g_free (self->path);
  g_free (self->fetch_module);
  g_free (self->fetch_build_id);
  g_strfreev (self->text);
  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_clear_pointer (&self->looked, g_ptr_array_unref);
  g_free ((char *) self->name);
}

SpSourceAnnotation *
sp_source_annotation_ref (SpSourceAnnotation *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
sp_source_annotation_unref (SpSourceAnnotation *self)
{
  if (self != NULL)
    g_atomic_rc_box_release_full (self, source_annotation_clear);
}

/* The place to show: the one asked for while it exists, else the heaviest
 * (places come by total, heaviest first). */
static guint
choose_place (SpAnnotation *annotation,
              guint place)
{
  guint n_places = 0;

  sp_annotation_get_places (annotation, &n_places);
  return place < n_places ? place : 0;
}

/* The module of the place shown (a path), NULL when it has none. */
static const char *
place_module (const SpSourceAnnotation *self)
{
  guint n_places = 0;
  const SpAnnotationPlace *places = sp_annotation_get_places (self->annotation, &n_places);

  if (self->place >= n_places || !g_path_is_absolute (places[self->place].module))
    return NULL;
  return places[self->place].module;
}

/* Not on this machine: the copy an earlier fetch left in debuginfod's
 * cache, else what the window needs to fetch it (this thread never waits
 * for the network: the window fetches in the background and asks
 * again). */
static void
look_in_debuginfod_cache (SpSourceAnnotation *self)
{
  const char *module = place_module (self);
  g_autofree char *build_id = NULL;

  if (!sp_debuginfod_is_enabled () || module == NULL || !g_path_is_absolute (self->wanted))
    return;
  /* Servers know a source by the build-id of the code compiled from it. */
  build_id = sp_build_id_of_file (module, NULL);
  if (build_id == NULL)
    return;
  self->path = sp_debuginfod_find_cached_source (build_id, self->wanted);
  if (self->path != NULL)
    return;
  self->fetch_module = g_strdup (module);
  self->fetch_build_id = g_steal_pointer (&build_id);
}

/* The source text, or where it was looked for: the file DWARF names, the
 * folders the user chose for its build path, the recording's folder, then
 * debuginfod's cache. */
static void
find_source (SpSourceAnnotation *self,
             SpProfile *profile,
             const SpSourceDirs *dirs)
{
  g_autofree char *recording_dir = g_path_get_dirname (sp_profile_get_path (profile));
  const char *extra[] = { recording_dir, NULL };
  g_autoptr (GError) error = NULL;

  self->looked = g_ptr_array_new_with_free_func (g_free);
  if (self->wanted == NULL)
    return;
  self->path = sp_source_dirs_find (dirs, self->wanted, extra, self->looked);
  if (self->path == NULL)
    look_in_debuginfod_cache (self);
  if (self->path == NULL)
    return;
  self->text = sp_source_file_read_lines (self->path, &error);
  if (self->text == NULL)
    {
      g_ptr_array_add (self->looked, g_strdup (error->message));
      g_clear_pointer (&self->path, g_free);
      return;
    }
  /* A label shows only UTF-8 (a Latin-1 comment, say). */
  for (guint i = 0; self->text[i] != NULL; i++)
    if (!g_utf8_validate (self->text[i], -1, NULL))
      {
        char *valid = g_utf8_make_valid (self->text[i], -1);

        g_free (self->text[i]);
        self->text[i] = valid;
      }
}

/* The function's own file (the annotation's first) and its lines. */
static void
take_file (SpSourceAnnotation *self)
{
  guint n_files = 0;
  const SpAnnotationFile *files = sp_annotation_get_files (self->annotation, &n_files);

  if (n_files == 0)
    {
      self->wanted = g_strdup (sp_annotation_get_decl_file (self->annotation));
      return;
    }
  self->wanted = g_strdup (files[0].path);
  self->lines = files[0].lines;
  self->n_lines = files[0].n_lines;
}

/* Why the debug information names no source file: the place's module has
 * none (a stripped program whose debug file is not here). */
static void
explain_no_source (SpSourceAnnotation *self,
                   SpProfile *profile)
{
  guint n_places = 0;
  const SpAnnotationPlace *places = sp_annotation_get_places (self->annotation, &n_places);
  const SpAnnotationPlace *p = self->place < n_places ? &places[self->place] : NULL;
  SpSymbolizer *symbolizer = _sp_profile_get_symbolizer (profile);
  g_autoptr (SpElfImage) image = NULL;
  SpModule module = { 0 };

  if (self->wanted != NULL || p == NULL || p->module[0] != '/'
      || (image = sp_elf_image_open (p->module, p->inode, NULL)) == NULL)
    return;
  module.path = p->module;
  module.path_len = strlen (p->module);
  module.inode = p->inode;
  if (sp_symbolizer_get_debug_file (symbolizer, &module) != NULL || sp_elf_image_has_debug_info (image))
    return;
  self->no_debug_info = sp_elf_image_has_symtab (image)
                          ? g_strdup_printf ("%s has no debug information (built without -g?).", p->module)
                          : g_strdup_printf ("%s is stripped and its debug file was not found: it has no debug "
                                             "information.", p->module);
}

SpSourceAnnotation *
sp_source_annotation_new (SpProfile *profile,
                          const SpFilter *filter,
                          SpStackCounts *counts,
                          guint32 function,
                          guint place,
                          const SpSourceDirs *dirs)
{
  SpSourceAnnotation *self = g_atomic_rc_box_new0 (SpSourceAnnotation);
  const SpFunction *named = sp_profile_get_function (profile, function);
  /* The same function in other modules (a library loaded twice, a
   * program and its copy): the page offers each as a place. */
  g_autoptr (GArray) ids = sp_annotation_find_functions (profile, named->name, NULL);

  self->function = function;
  self->name = g_strdup (named->name);
  self->metric = filter->metric;
  if (ids->len == 0)
    g_array_append_val (ids, function);
  self->annotation = sp_annotation_new (profile, filter, counts, (const guint32 *) ids->data, ids->len);
  self->self = sp_annotation_get_self (self->annotation);
  self->total = sp_annotation_get_total (self->annotation);
  self->all = sp_annotation_get_all (self->annotation);
  self->place = choose_place (self->annotation, place);
  take_file (self);
  if (self->wanted == NULL && named->file != NULL)
    self->wanted = g_strdup (named->file);
  self->strings = g_string_chunk_new (4096);
  self->instructions = _sp_source_instructions_new (profile, self->annotation, self->place, self->strings,
                                                    &self->disassembly_problem);
  explain_no_source (self, profile);
  find_source (self, profile, dirs);
  return self;
}

static int
compare_line (gconstpointer key,
              gconstpointer element)
{
  guint line = GPOINTER_TO_UINT (key);
  const SpAnnotationLine *row = element;

  return line < row->line ? -1 : line > row->line;
}

void
sp_source_annotation_get_line_cost (const SpSourceAnnotation *self,
                                    guint line,
                                    guint64 *self_cost,
                                    guint64 *total_cost)
{
  const SpAnnotationLine *row = self->lines != NULL ? bsearch (GUINT_TO_POINTER (line), self->lines, self->n_lines,
                                                               sizeof *self->lines, compare_line)
                                                    : NULL;

  *self_cost = row != NULL ? row->self : 0;
  *total_cost = row != NULL ? row->total : 0;
}

guint
sp_source_annotation_get_hottest_line (const SpSourceAnnotation *self)
{
  const SpAnnotationLine *best = NULL;

  for (guint i = 0; i < self->n_lines; i++)
    {
      const SpAnnotationLine *row = &self->lines[i];

      if (row->line == 0)
        continue;
      if (best == NULL || row->self > best->self || (row->self == best->self && row->total > best->total))
        best = row;
    }
  return best != NULL && (best->self > 0 || best->total > 0) ? best->line : 0;
}
