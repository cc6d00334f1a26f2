/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-annotation.c: the annotation's rows, sorted and indexed once. */
#include "sp-annotation-private.h"

#include <string.h>

/* A line row while it is built: its file travels with it. */
typedef struct {
  guint   file;
  guint   line;
  guint64 self;
  guint64 total;
} LineRow;

struct _SpAnnotation
{
  gatomicrefcount ref_count;
  GStringChunk   *strings;
  const char     *function;
  const char     *decl_file;
  guint           decl_line;
  gboolean        decl_file_set; /* made absolute by the walk */
  SpMetric        metric;
  guint64         self;
  guint64         total;
  guint64         all;
  guint           n_modules;

  GArray         *places;      /* SpAnnotationPlace */
  GArray         *addresses;   /* SpAnnotationAddress */
  GArray         *files;       /* SpAnnotationFile */
  GArray         *line_rows;   /* LineRow, while building; then by file and line */
  GArray         *file_lines;  /* SpAnnotationLine, by file then line: files[i].lines point in */

  /* Building only: row lookups. */
  GHashTable     *place_index; /* "module\x1ffunction\x1fstart" -> index + 1 */
  GHashTable     *file_index;  /* path -> index + 1 */
  GHashTable     *line_index;  /* (file << 32 | line) -> index + 1 */
  GHashTable     *address_index; /* (place << 48 ^ address) key struct -> index + 1 */
};

typedef struct {
  guint   place;
  guint64 address;
} AddressKey;

static guint
address_key_hash (gconstpointer key)
{
  const AddressKey *k = key;

  return g_int64_hash (&k->address) ^ (k->place * 2654435761u);
}

static gboolean
address_key_equal (gconstpointer a,
                   gconstpointer b)
{
  const AddressKey *ka = a;
  const AddressKey *kb = b;

  return ka->place == kb->place && ka->address == kb->address;
}

SpAnnotation *
_sp_annotation_new (const SpFunction *function,
                    SpMetric metric)
{
  SpAnnotation *self = g_new0 (SpAnnotation, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->strings = g_string_chunk_new (4096);
  self->function = g_string_chunk_insert_const (self->strings, function->name);
  self->decl_file = function->file != NULL ? g_string_chunk_insert_const (self->strings, function->file) : NULL;
  self->decl_line = function->line;
  self->metric = metric;
  self->places = g_array_new (FALSE, TRUE, sizeof (SpAnnotationPlace));
  self->addresses = g_array_new (FALSE, TRUE, sizeof (SpAnnotationAddress));
  self->files = g_array_new (FALSE, TRUE, sizeof (SpAnnotationFile));
  self->line_rows = g_array_new (FALSE, TRUE, sizeof (LineRow));
  self->file_lines = g_array_new (FALSE, TRUE, sizeof (SpAnnotationLine));
  self->place_index = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->file_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->line_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->address_index = g_hash_table_new_full (address_key_hash, address_key_equal, g_free, NULL);
  return self;
}

static void
drop_indexes (SpAnnotation *self)
{
  g_clear_pointer (&self->place_index, g_hash_table_unref);
  g_clear_pointer (&self->file_index, g_hash_table_unref);
  g_clear_pointer (&self->line_index, g_hash_table_unref);
  g_clear_pointer (&self->address_index, g_hash_table_unref);
}

SpAnnotation *
sp_annotation_ref (SpAnnotation *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
sp_annotation_unref (SpAnnotation *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  drop_indexes (self);
  g_array_unref (self->places);
  g_array_unref (self->addresses);
  g_array_unref (self->files);
  g_array_unref (self->line_rows);
  g_array_unref (self->file_lines);
  g_string_chunk_free (self->strings);
  g_free (self);
}

/* ---- Building ------------------------------------------------------------ */

void
_sp_annotation_set_decl_file (SpAnnotation *self,
                              const char *path)
{
  if (self->decl_file_set)
    return;
  self->decl_file = g_string_chunk_insert_const (self->strings, path);
  self->decl_file_set = TRUE;
}

guint
_sp_annotation_intern_place (SpAnnotation *self,
                             const char *module,
                             guint64 inode,
                             const char *function,
                             guint64 start)
{
  char *key = g_strdup_printf ("%s\x1f%s\x1f%" G_GINT64_MODIFIER "x", module, function, start);
  gpointer found = g_hash_table_lookup (self->place_index, key);
  SpAnnotationPlace place = { 0 };

  if (found != NULL)
    {
      g_free (key);
      return GPOINTER_TO_UINT (found) - 1;
    }
  place.module = g_string_chunk_insert_const (self->strings, module);
  place.inode = inode;
  place.function = g_string_chunk_insert_const (self->strings, function);
  place.start = start;
  g_array_append_val (self->places, place);
  g_hash_table_insert (self->place_index, key, GUINT_TO_POINTER (self->places->len));
  return self->places->len - 1;
}

guint
_sp_annotation_intern_file (SpAnnotation *self,
                            const char *path)
{
  gpointer found = g_hash_table_lookup (self->file_index, path);
  SpAnnotationFile file = { 0 };

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  file.path = g_string_chunk_insert_const (self->strings, path);
  g_array_append_val (self->files, file);
  g_hash_table_insert (self->file_index, (gpointer) file.path, GUINT_TO_POINTER (self->files->len));
  return self->files->len - 1;
}

guint
_sp_annotation_intern_line (SpAnnotation *self,
                            guint file,
                            guint line)
{
  gint64 key = (gint64) file << 32 | line;
  gpointer found = g_hash_table_lookup (self->line_index, &key);
  LineRow row = { file, line, 0, 0 };

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  g_array_append_val (self->line_rows, row);
  g_hash_table_insert (self->line_index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (self->line_rows->len));
  return self->line_rows->len - 1;
}

guint
_sp_annotation_intern_address (SpAnnotation *self,
                               const SpAnnotationAddress *address)
{
  AddressKey key = { address->place, address->address };
  gpointer found = g_hash_table_lookup (self->address_index, &key);

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  g_array_append_val (self->addresses, *address);
  g_hash_table_insert (self->address_index, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (self->addresses->len));
  return self->addresses->len - 1;
}

#define ADD_COSTS(row) ((row)->self += self_cost, (row)->total += total_cost)

void
_sp_annotation_add_cost (SpAnnotation *self,
                         SpAnnotationRowKind kind,
                         guint row,
                         guint64 self_cost,
                         guint64 total_cost)
{
  if (kind == SP_ANNOTATION_ROW_PLACE)
    ADD_COSTS (&g_array_index (self->places, SpAnnotationPlace, row));
  else if (kind == SP_ANNOTATION_ROW_ADDRESS)
    ADD_COSTS (&g_array_index (self->addresses, SpAnnotationAddress, row));
  else
    ADD_COSTS (&g_array_index (self->line_rows, LineRow, row));
}

void
_sp_annotation_add_totals (SpAnnotation *self,
                           guint64 self_cost,
                           guint64 total_cost,
                           guint64 all)
{
  self->self += self_cost;
  self->total += total_cost;
  self->all = all;
}

/* ---- Finishing ----------------------------------------------------------- */

typedef struct {
  GArray          *array;
  GCompareDataFunc compare;
  gpointer         data;
} SortContext;

static gint
compare_by_index (gconstpointer a,
                  gconstpointer b,
                  gpointer user_data)
{
  SortContext *context = user_data;
  gsize size = g_array_get_element_size (context->array);

  return context->compare (context->array->data + *(const guint *) a * size,
                           context->array->data + *(const guint *) b * size, context->data);
}

/* Sorts array with compare; returns old index -> new index. */
static guint *
sort_with_map (GArray *array,
               GCompareDataFunc compare,
               gpointer data)
{
  gsize size = g_array_get_element_size (array);
  g_autofree guint *order = g_new (guint, MAX (array->len, 1));
  guint *map = g_new (guint, MAX (array->len, 1));
  g_autofree guint8 *copy = g_memdup2 (array->data, MAX (array->len, 1) * size);
  SortContext context = { array, compare, data };

  for (guint i = 0; i < array->len; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) array->len, sizeof (guint), compare_by_index, &context);
  for (guint i = 0; i < array->len; i++)
    {
      memcpy (array->data + i * size, copy + order[i] * size, size);
      map[order[i]] = i;
    }
  return map;
}

static int
compare_places (gconstpointer a,
                gconstpointer b,
                gpointer data)
{
  const SpAnnotationPlace *pa = a;
  const SpAnnotationPlace *pb = b;

  if (pa->total != pb->total)
    return pa->total > pb->total ? -1 : 1;
  if (!g_str_equal (pa->function, pb->function))
    return g_strcmp0 (pa->function, pb->function);
  return pa->start < pb->start ? -1 : pa->start > pb->start;
}

static int
compare_addresses (gconstpointer a,
                   gconstpointer b)
{
  const SpAnnotationAddress *aa = a;
  const SpAnnotationAddress *ab = b;

  if (aa->place != ab->place)
    return aa->place < ab->place ? -1 : 1;
  return aa->address < ab->address ? -1 : aa->address > ab->address;
}

static int
compare_line_rows (gconstpointer a,
                   gconstpointer b)
{
  const LineRow *la = a;
  const LineRow *lb = b;

  if (la->file != lb->file)
    return la->file < lb->file ? -1 : 1;
  return la->line < lb->line ? -1 : la->line > lb->line;
}

/* Sums each file's lines (a file's total is its lines': a recursive
 * sample at two of its lines counts twice there). */
static void
sum_files (SpAnnotation *self)
{
  GArray *files = self->files;

  for (guint i = 0; i < self->line_rows->len; i++)
    {
      const LineRow *row = &g_array_index (self->line_rows, LineRow, i);
      SpAnnotationFile *file = &g_array_index (files, SpAnnotationFile, row->file);

      file->self += row->self;
      file->total += row->total;
    }
}

/* The function's own file (own_file: where it is defined) first, then
 * by total. */
static int
compare_files (gconstpointer a,
               gconstpointer b,
               gpointer own_file)
{
  const SpAnnotationFile *fa = a;
  const SpAnnotationFile *fb = b;
  gboolean own_a = own_file != NULL && g_str_equal (fa->path, own_file);
  gboolean own_b = own_file != NULL && g_str_equal (fb->path, own_file);

  if (own_a != own_b)
    return own_a ? -1 : 1;
  if (fa->total != fb->total)
    return fa->total > fb->total ? -1 : 1;
  return strcmp (fa->path, fb->path);
}

static void
sort_files (SpAnnotation *self)
{
  g_autofree guint *map = NULL;

  sum_files (self);
  map = sort_with_map (self->files, compare_files, (gpointer) self->decl_file);
  for (guint i = 0; i < self->addresses->len; i++)
    {
      SpAnnotationAddress *a = &g_array_index (self->addresses, SpAnnotationAddress, i);

      if (a->file != SP_ANNOTATION_NONE)
        a->file = map[a->file];
    }
  for (guint i = 0; i < self->line_rows->len; i++)
    g_array_index (self->line_rows, LineRow, i).file = map[g_array_index (self->line_rows, LineRow, i).file];
}

/* Lines by file and number, each file pointing at its run of them. */
static void
index_lines (SpAnnotation *self)
{
  g_array_sort (self->line_rows, compare_line_rows);
  g_array_set_size (self->file_lines, self->line_rows->len);
  for (guint i = 0; i < self->line_rows->len; i++)
    {
      const LineRow *row = &g_array_index (self->line_rows, LineRow, i);

      g_array_index (self->file_lines, SpAnnotationLine, i) = (SpAnnotationLine) { row->line, row->self, row->total };
    }
  for (guint i = 0; i < self->line_rows->len; i++)
    {
      const LineRow *row = &g_array_index (self->line_rows, LineRow, i);
      SpAnnotationFile *file = &g_array_index (self->files, SpAnnotationFile, row->file);

      if (file->n_lines++ == 0)
        file->lines = &g_array_index (self->file_lines, SpAnnotationLine, i);
    }
}

static guint
count_modules (SpAnnotation *self)
{
  g_autoptr (GHashTable) modules = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < self->places->len; i++)
    g_hash_table_add (modules, (gpointer) g_array_index (self->places, SpAnnotationPlace, i).module);
  return g_hash_table_size (modules);
}

/* Rows made for frames whose samples the transforms then left out have
 * no cost: they go. Places and files sorted by total end with theirs. */
static void
drop_empty_rows (SpAnnotation *self)
{
  guint kept = 0;

  for (guint i = 0; i < self->addresses->len; i++)
    if (g_array_index (self->addresses, SpAnnotationAddress, i).total > 0)
      g_array_index (self->addresses, SpAnnotationAddress, kept++) = g_array_index (self->addresses,
                                                                                    SpAnnotationAddress, i);
  g_array_set_size (self->addresses, kept);
  kept = 0;
  for (guint i = 0; i < self->line_rows->len; i++)
    if (g_array_index (self->line_rows, LineRow, i).total > 0)
      g_array_index (self->line_rows, LineRow, kept++) = g_array_index (self->line_rows, LineRow, i);
  g_array_set_size (self->line_rows, kept);
}

static void
drop_empty_tail (GArray *sorted,
                 gsize total_offset)
{
  while (sorted->len > 0
         && *(guint64 *) (gpointer) (sorted->data + (sorted->len - 1) * g_array_get_element_size (sorted)
                                     + total_offset) == 0)
    g_array_set_size (sorted, sorted->len - 1);
}

void
_sp_annotation_finish (SpAnnotation *self)
{
  g_autofree guint *place_map = sort_with_map (self->places, compare_places, NULL);

  drop_empty_rows (self);
  drop_empty_tail (self->places, G_STRUCT_OFFSET (SpAnnotationPlace, total));
  for (guint i = 0; i < self->addresses->len; i++)
    {
      SpAnnotationAddress *a = &g_array_index (self->addresses, SpAnnotationAddress, i);

      a->place = place_map[a->place];
    }
  g_array_sort (self->addresses, compare_addresses);
  sort_files (self);
  drop_empty_tail (self->files, G_STRUCT_OFFSET (SpAnnotationFile, total));
  index_lines (self);
  self->n_modules = count_modules (self);
  drop_indexes (self);
}

/* ---- Reading ------------------------------------------------------------- */

const char *sp_annotation_get_function (SpAnnotation *self) { return self->function; }
const char *sp_annotation_get_decl_file (SpAnnotation *self) { return self->decl_file; }
guint sp_annotation_get_decl_line (SpAnnotation *self) { return self->decl_line; }
SpMetric sp_annotation_get_metric (SpAnnotation *self) { return self->metric; }
guint64 sp_annotation_get_self (SpAnnotation *self) { return self->self; }
guint64 sp_annotation_get_total (SpAnnotation *self) { return self->total; }
guint64 sp_annotation_get_all (SpAnnotation *self) { return self->all; }
guint sp_annotation_get_n_modules (SpAnnotation *self) { return self->n_modules; }

const SpAnnotationPlace *
sp_annotation_get_places (SpAnnotation *self,
                          guint *n_places)
{
  *n_places = self->places->len;
  return (const SpAnnotationPlace *) (gconstpointer) self->places->data;
}

const SpAnnotationAddress *
sp_annotation_get_addresses (SpAnnotation *self,
                             guint *n_addresses)
{
  *n_addresses = self->addresses->len;
  return (const SpAnnotationAddress *) (gconstpointer) self->addresses->data;
}

const SpAnnotationFile *
sp_annotation_get_files (SpAnnotation *self,
                         guint *n_files)
{
  *n_files = self->files->len;
  return (const SpAnnotationFile *) (gconstpointer) self->files->data;
}

guint
sp_annotation_find_address (SpAnnotation *self,
                            guint place,
                            guint64 vaddr)
{
  for (guint i = 0; i < self->addresses->len; i++)
    {
      const SpAnnotationAddress *a = &g_array_index (self->addresses, SpAnnotationAddress, i);

      if (a->place == place && a->vaddr == vaddr)
        return i;
    }
  return SP_ANNOTATION_NONE;
}

void
sp_annotation_get_line_addresses (SpAnnotation *self,
                                  guint file,
                                  guint line,
                                  GArray *rows)
{
  for (guint i = 0; i < self->addresses->len; i++)
    {
      const SpAnnotationAddress *a = &g_array_index (self->addresses, SpAnnotationAddress, i);

      if (a->file == file && a->line == line)
        g_array_append_val (rows, i);
    }
}

guint
sp_annotation_find_line (SpAnnotation *self,
                         guint file,
                         guint line)
{
  const SpAnnotationFile *f;

  if (file >= self->files->len)
    return SP_ANNOTATION_NONE;
  f = &g_array_index (self->files, SpAnnotationFile, file);
  for (guint i = 0; i < f->n_lines; i++)
    if (f->lines[i].line == line)
      return i;
  return SP_ANNOTATION_NONE;
}
