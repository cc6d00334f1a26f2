/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-annotation-walk.c: the counted stacks that hold a function, walked.
 *
 * Only distinct stacks are walked (sp-stack-counts.h), and of them only
 * the frames whose (memoized) inline chain holds the function are looked
 * at again: their module, address, source line per inline level
 * (sp_symbolizer_resolve, cached per address) and ELF virtual address
 * (sp-elf-image.h), each once per frame. */
#include "sp-annotation-private.h"

#include <string.h>

#include "sp-elf-image.h"
#include "sp-profile-private.h"

#define MAX_DEPTH 32
/* Inline levels of one frame that are the function (recursion through
 * inlining); more are rare enough to leave out. */
#define MAX_LEVELS 4

/* What one frame (exact or as a caller, for a pid when it depends on it)
 * gives the annotation. */
typedef struct {
  guint address;              /* its address row */
  guint place;
  guint n_lines;
  guint lines[MAX_LEVELS];    /* line rows, innermost level first */
} FrameHit;

typedef struct {
  guint32 frame;
  gint32  pid;
  guint32 exact;   /* the leaf, or a user frame under a kernel one */
} FrameKey;

typedef struct {
  SpProfile           *profile;
  const SpFilter      *filter;
  const SpSpoolReader *reader;
  SpSymbolizer        *symbolizer;
  SpAnnotation        *annotation;
  const guint32       *functions;
  guint                n_functions;
  GHashTable          *hits;      /* FrameKey -> FrameHit */
  GHashTable          *images;    /* module path -> SpElfImage, NULL value: unreadable */
  GArray              *path;      /* scratch: a stack's functions */
  GArray              *stack_hits;/* scratch: FrameHit * of one stack, leaf first */
  GArray              *seen;      /* scratch: rows counted for one stack */
} Walk;

static guint
frame_key_hash (gconstpointer key)
{
  const FrameKey *k = key;

  return k->frame * 2654435761u ^ (guint) k->pid ^ k->exact;
}

static gboolean
frame_key_equal (gconstpointer a,
                 gconstpointer b)
{
  return memcmp (a, b, sizeof (FrameKey)) == 0;
}

static gboolean
is_annotated (const Walk *walk,
              guint32 function)
{
  for (guint i = 0; i < walk->n_functions; i++)
    if (walk->functions[i] == function)
      return TRUE;
  return FALSE;
}

static SpElfImage *
lookup_image (Walk *walk,
              const SpModule *module)
{
  SpElfImage *image;

  if (g_hash_table_lookup_extended (walk->images, module->path, NULL, (gpointer *) &image))
    return image;
  image = sp_elf_image_open (module->path, module->inode, NULL);
  /* The function bounds the disassembly takes (a stripped file's are in
   * its debug file): a place is one of them. */
  if (image != NULL)
    sp_elf_image_use_symbolizer_debug_file (image, walk->symbolizer, module);
  g_hash_table_insert (walk->images, g_strdup (module->path), image);
  return image;
}

/* A user frame of a file: its address (exact, or a return address less
 * one: the call) and inline chain with lines; FALSE for any other frame. */
static gboolean
resolve_user_frame (Walk *walk,
                    const FrameKey *key,
                    gint32 pid,
                    const SpModule **module,
                    guint64 *address,
                    SpSymbolFrame *symbols,
                    guint *n_symbols)
{
  guint32 module_id;
  guint64 rel_ip;

  if (!sp_spool_reader_resolve_frame_module (walk->reader, pid, key->frame, &module_id, &rel_ip))
    return FALSE;
  *module = &sp_spool_reader_get_modules (walk->reader)[module_id];
  if ((*module)->is_kernel || (*module)->path[0] != '/')
    return FALSE;
  *address = key->exact || rel_ip == 0 ? rel_ip : rel_ip - 1;
  *n_symbols = sp_symbolizer_resolve (walk->symbolizer, *module, *address, FALSE, symbols, MAX_DEPTH);
  return TRUE;
}

/* The line rows of the annotated levels of a chain (ids: the profile's,
 * innermost first; symbols: the symbolizer's for the same address, which
 * has every level even when the profile keeps only the outermost). */
static void
add_levels (Walk *walk,
            FrameHit *hit,
            const SpModule *module,
            const guint32 *ids,
            guint n_ids,
            const SpSymbolFrame *symbols,
            guint n_symbols,
            SpAnnotationAddress *row)
{
  for (guint k = 0; k < n_ids && hit->n_lines < MAX_LEVELS; k++)
    {
      const SpSymbolFrame *level;
      guint file;

      if (!is_annotated (walk, ids[k]) || n_symbols < n_ids)
        continue;
      level = &symbols[n_symbols - n_ids + k];
      if (level->decl_file != NULL)
        _sp_annotation_set_decl_file (walk->annotation,
                                      sp_symbolizer_source_path (walk->symbolizer, module, row->vaddr,
                                                                 level->decl_file));
      if (level->file == NULL || level->line == 0)
        continue;
      file = _sp_annotation_intern_file (walk->annotation,
                                         sp_symbolizer_source_path (walk->symbolizer, module, row->vaddr,
                                                                    level->file));
      hit->lines[hit->n_lines++] = _sp_annotation_intern_line (walk->annotation, file, level->line);
      if (row->file == SP_ANNOTATION_NONE)
        {
          row->file = file;
          row->line = level->line;
        }
    }
}

static FrameHit *
make_hit (Walk *walk,
          const FrameKey *key,
          gint32 pid,
          const guint32 *ids,
          guint n_ids)
{
  FrameHit *hit = g_new0 (FrameHit, 1);
  SpSymbolFrame symbols[MAX_DEPTH];
  SpAnnotationAddress row = { 0 };
  const SpModule *module = NULL;
  guint n_symbols = 0;
  SpElfImage *image;
  SpElfSymbol symbol = { 0 };

  row.file = SP_ANNOTATION_NONE;
  row.call_site = !key->exact;
  if (resolve_user_frame (walk, key, pid, &module, &row.address, symbols, &n_symbols))
    {
      image = lookup_image (walk, module);
      if (image == NULL || !sp_elf_image_offset_to_vaddr (image, row.address, &row.vaddr))
        row.vaddr = 0;
      else if (!sp_elf_image_symbol_at (image, row.vaddr, &symbol))
        symbol.start = 0;
    }
  else
    {
      const SpFrame *frame = &sp_spool_reader_get_frames (walk->reader)[key->frame];

      row.address = key->exact || frame->abs_ip == 0 ? frame->abs_ip : frame->abs_ip - 1;
    }
  /* The real function: the outermost of the chain, in the symbol that
   * holds the address (another of the same name is another place). */
  hit->place = _sp_annotation_intern_place (walk->annotation, module != NULL ? module->path : "",
                                            module != NULL ? module->inode : 0,
                                            sp_profile_get_function (walk->profile, ids[n_ids - 1])->name,
                                            symbol.start);
  row.place = hit->place;
  add_levels (walk, hit, module, ids, n_ids, symbols, n_symbols, &row);
  hit->address = _sp_annotation_intern_address (walk->annotation, &row);
  return hit;
}

/* The frame's hit, or NULL when its chain does not hold the function:
 * the profile's memo says that, so only frames that do are looked up. */
static FrameHit *
frame_hit (Walk *walk,
           guint32 frame_id,
           gint32 pid,
           gboolean exact)
{
  FrameKey key = { frame_id, 0, exact };
  FrameHit *hit;
  const guint32 *ids;
  guint n_ids = sp_profile_get_frame_functions (walk->profile, frame_id, pid, exact, &ids);
  gboolean found = FALSE;

  for (guint k = 0; k < n_ids && !found; k++)
    found = is_annotated (walk, ids[k]);
  if (!found)
    return NULL;
  if (sp_profile_frame_depends_on_pid (walk->profile, frame_id))
    key.pid = pid;
  hit = g_hash_table_lookup (walk->hits, &key);
  if (hit == NULL)
    {
      hit = make_hit (walk, &key, pid, ids, n_ids);
      g_hash_table_insert (walk->hits, g_memdup2 (&key, sizeof key), hit);
    }
  return hit;
}

/* The hits of one stack, leaf first; whether its leaf frame is the
 * first of them (for self without transforms). */
static void
collect_hits (Walk *walk,
              const SpStackCount *stack,
              gboolean *leaf_frame_hit)
{
  SpStackIter iter;
  guint32 frame_id;
  guint32 inner = SP_SPOOL_NO_ID;

  g_array_set_size (walk->stack_hits, 0);
  *leaf_frame_hit = FALSE;
  sp_stack_iter_init (&iter, walk->reader, stack->stack);
  while (sp_stack_iter_next (&iter, &frame_id))
    {
      FrameHit *hit = frame_hit (walk, frame_id, stack->pid, sp_profile_frame_is_exact (walk->profile, inner, frame_id));

      if (hit != NULL)
        {
          *leaf_frame_hit |= inner == SP_SPOOL_NO_ID;
          g_array_append_val (walk->stack_hits, hit);
        }
      inner = frame_id;
    }
}

/* Self without transforms: the leaf frame's innermost function is it. */
static gboolean
leaf_is_annotated (Walk *walk,
                   const SpStackCount *stack)
{
  SpStackIter iter;
  guint32 frame_id;
  const guint32 *ids;

  sp_stack_iter_init (&iter, walk->reader, stack->stack);
  return sp_stack_iter_next (&iter, &frame_id)
         && sp_profile_get_frame_functions (walk->profile, frame_id, stack->pid, TRUE, &ids) > 0
         && is_annotated (walk, ids[0]);
}

/* With transforms: FALSE when they leave the sample out or take the
 * function away; *is_self when it is the path's leaf. */
static gboolean
transformed_self (Walk *walk,
                  const SpStackCount *stack,
                  gboolean *is_self)
{
  gboolean found = FALSE;

  g_array_set_size (walk->path, 0);
  sp_stack_path (walk->profile, stack->stack, stack->pid, walk->path);
  if (!sp_filter_apply_transforms (walk->filter, walk->profile, walk->path))
    return FALSE;
  for (guint i = 0; i < walk->path->len && !found; i++)
    found = is_annotated (walk, g_array_index (walk->path, guint32, i));
  *is_self = found && is_annotated (walk, g_array_index (walk->path, guint32, walk->path->len - 1));
  return found;
}

/* Whether (kind, row) was counted for this stack already; marks it. */
static gboolean
seen_before (Walk *walk,
             SpAnnotationRowKind kind,
             guint row)
{
  guint64 key = (guint64) kind << 32 | row;

  for (guint i = 0; i < walk->seen->len; i++)
    if (g_array_index (walk->seen, guint64, i) == key)
      return TRUE;
  g_array_append_val (walk->seen, key);
  return FALSE;
}

static void
add_row (Walk *walk,
         SpAnnotationRowKind kind,
         guint row,
         guint64 self_cost,
         guint64 count)
{
  if (!seen_before (walk, kind, row))
    _sp_annotation_add_cost (walk->annotation, kind, row, self_cost, count);
  else if (self_cost > 0)
    _sp_annotation_add_cost (walk->annotation, kind, row, self_cost, 0);
}

/* One stack's count: self at the innermost hit's address and innermost
 * annotated line, total at every hit's, each row once. */
static void
add_stack (Walk *walk,
           guint64 count,
           gboolean is_self)
{
  g_array_set_size (walk->seen, 0);
  for (guint i = 0; i < walk->stack_hits->len; i++)
    {
      const FrameHit *hit = g_array_index (walk->stack_hits, FrameHit *, i);
      guint64 self_cost = is_self && i == 0 ? count : 0;

      add_row (walk, SP_ANNOTATION_ROW_PLACE, hit->place, self_cost, count);
      add_row (walk, SP_ANNOTATION_ROW_ADDRESS, hit->address, self_cost, count);
      for (guint l = 0; l < hit->n_lines; l++)
        add_row (walk, SP_ANNOTATION_ROW_LINE, hit->lines[l], l == 0 ? self_cost : 0, count);
    }
  _sp_annotation_add_totals (walk->annotation, is_self ? count : 0, count, 0);
}

static void
walk_stack (Walk *walk,
            const SpStackCount *stack)
{
  gboolean leaf_hit;
  gboolean is_self;

  if (SP_STACK_IS_SYNTHETIC (stack->stack))
    return;
  collect_hits (walk, stack, &leaf_hit);
  if (walk->stack_hits->len == 0)
    return;
  if (walk->filter != NULL && walk->filter->transforms->len > 0)
    {
      if (!transformed_self (walk, stack, &is_self))
        return;
    }
  else
    is_self = leaf_hit && leaf_is_annotated (walk, stack);
  add_stack (walk, stack->count, is_self);
}

static void
free_image (gpointer image)
{
  sp_elf_image_free (image);
}

SpAnnotation *
sp_annotation_new (SpProfile *profile,
                   const SpFilter *filter,
                   SpStackCounts *counts,
                   const guint32 *functions,
                   guint n_functions)
{
  g_autoptr (SpStackCounts) own_counts = counts == NULL ? sp_stack_counts_new (profile, filter) : NULL;
  Walk walk = { profile, filter, sp_profile_get_reader (profile), _sp_profile_get_symbolizer (profile),
                NULL, functions, n_functions };

  g_return_val_if_fail (n_functions > 0, NULL);
  if (counts == NULL)
    counts = own_counts;
  walk.annotation = _sp_annotation_new (sp_profile_get_function (profile, functions[0]),
                                        filter != NULL ? filter->metric : SP_METRIC_CPU);
  walk.hits = g_hash_table_new_full (frame_key_hash, frame_key_equal, g_free, g_free);
  walk.images = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, free_image);
  walk.path = g_array_new (FALSE, FALSE, sizeof (guint32));
  walk.stack_hits = g_array_new (FALSE, FALSE, sizeof (FrameHit *));
  walk.seen = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint i = 0; i < counts->stacks->len; i++)
    walk_stack (&walk, &g_array_index (counts->stacks, SpStackCount, i));
  _sp_annotation_add_totals (walk.annotation, 0, 0, counts->total);
  _sp_annotation_finish (walk.annotation);
  g_hash_table_unref (walk.hits);
  g_hash_table_unref (walk.images);
  g_array_unref (walk.path);
  g_array_unref (walk.stack_hits);
  g_array_unref (walk.seen);
  return walk.annotation;
}

/* A module given as a path, or as the file name the views show. */
static gboolean
module_matches (const char *function_module,
                const char *module)
{
  const char *slash = strrchr (module, '/');

  return g_str_equal (function_module, slash != NULL ? slash + 1 : module);
}

GArray *
sp_annotation_find_functions (SpProfile *profile,
                              const char *name,
                              const char *module)
{
  GArray *found = sp_profile_find_functions (profile, name);
  guint kept = 0;

  for (guint i = 0; i < found->len; i++)
    {
      guint32 id = g_array_index (found, guint32, i);
      const SpFunction *f = sp_profile_get_function (profile, id);

      if (f->kind != SP_FUNCTION_SYNTHETIC && f->kind != SP_FUNCTION_TRUNCATED
          && (module == NULL || module_matches (f->module, module)))
        g_array_index (found, guint32, kept++) = id;
    }
  g_array_set_size (found, kept);
  return found;
}
