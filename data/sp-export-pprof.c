/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-export-pprof.c: profile.proto (github.com/google/pprof,
 * proto/profile.proto), field numbers as published there. */
#include "sp-export-pprof.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "sp-build-id.h"
#include "sp-recorded-files.h"
#include "sp-hash-private.h"
#include "sp-profile-private.h"
#include "sp-protobuf.h"
#include "sp-stack-counts.h"
#include "sp-thread-stacks.h"

/* profile.proto's field numbers. */
enum {
  PROFILE_SAMPLE_TYPE = 1, PROFILE_SAMPLE, PROFILE_MAPPING, PROFILE_LOCATION, PROFILE_FUNCTION,
  PROFILE_STRING_TABLE, PROFILE_TIME_NANOS = 9, PROFILE_DURATION_NANOS, PROFILE_PERIOD_TYPE, PROFILE_PERIOD,
  PROFILE_COMMENT,
};
enum { VALUE_TYPE_TYPE = 1, VALUE_TYPE_UNIT };
enum { SAMPLE_LOCATION_ID = 1, SAMPLE_VALUE, SAMPLE_LABEL };
enum { LABEL_KEY = 1, LABEL_STR, LABEL_NUM };
enum {
  MAPPING_ID = 1, MAPPING_MEMORY_START, MAPPING_MEMORY_LIMIT, MAPPING_FILE_OFFSET, MAPPING_FILENAME,
  MAPPING_BUILD_ID, MAPPING_HAS_FUNCTIONS, MAPPING_HAS_FILENAMES, MAPPING_HAS_LINE_NUMBERS,
  MAPPING_HAS_INLINE_FRAMES,
};
enum { LOCATION_ID = 1, LOCATION_MAPPING_ID, LOCATION_ADDRESS, LOCATION_LINE };
enum { LINE_FUNCTION_ID = 1, LINE_LINE };
enum { FUNCTION_ID = 1, FUNCTION_NAME, FUNCTION_SYSTEM_NAME, FUNCTION_FILENAME, FUNCTION_START_LINE };

/* The inline chains the profile resolves are at most this deep. */
#define MAX_LINES 64

typedef struct {
  SpProfile           *profile;
  const SpFilter      *filter;
  const SpSpoolReader *reader;
  GHashTable          *strings;            /* string -> index + 1 */
  GPtrArray           *string_table;       /* owned strings */
  GHashTable          *functions;          /* function id + 1 -> pprof id */
  GHashTable          *frame_locations[2]; /* (frame << 32 | pid) -> pprof id; [is_leaf] */
  GHashTable          *function_locations; /* function id + 1 -> pprof id */
  GHashTable          *mappings;           /* module id + 1 -> pprof id */
  SpRecordedFiles     *recorded;          /* the side file's [module-file N] */
  GByteArray          *samples;            /* encoded fields of the Profile, by kind */
  GArray              *mapping_list;       /* Mapping, by pprof id - 1 */
  GByteArray          *location_fields;
  GByteArray          *function_fields;
  guint64              n_locations;
} Pprof;

static gint64
string_index (Pprof *p,
              const char *s)
{
  gpointer index;

  if (s == NULL)
    return 0;
  if (g_hash_table_lookup_extended (p->strings, s, NULL, &index))
    return GPOINTER_TO_SIZE (index) - 1;
  g_ptr_array_add (p->string_table, g_strdup (s));
  g_hash_table_insert (p->strings, g_ptr_array_index (p->string_table, p->string_table->len - 1),
                       GSIZE_TO_POINTER (p->string_table->len));
  return p->string_table->len - 1;
}

/* ---- Functions and mappings ------------------------------------------- */

static guint64
function_id (Pprof *p,
             guint32 function)
{
  gpointer key = GUINT_TO_POINTER (function + 1);
  guint64 id = GPOINTER_TO_SIZE (g_hash_table_lookup (p->functions, key));
  g_autoptr (GByteArray) msg = NULL;
  const SpFunction *f;

  if (id != 0)
    return id;
  id = g_hash_table_size (p->functions) + 1;
  g_hash_table_insert (p->functions, key, GSIZE_TO_POINTER (id));
  f = sp_profile_get_function (p->profile, function);
  msg = g_byte_array_new ();
  sp_proto_uint (msg, FUNCTION_ID, id);
  sp_proto_int (msg, FUNCTION_NAME, string_index (p, f->name));
  /* The profile keeps demangled names only. */
  sp_proto_int (msg, FUNCTION_SYSTEM_NAME, string_index (p, f->name));
  sp_proto_int (msg, FUNCTION_FILENAME, string_index (p, f->file));
  sp_proto_int (msg, FUNCTION_START_LINE, f->line);
  sp_proto_message (p->function_fields, PROFILE_FUNCTION, msg);
  return id;
}

/* The build-id of the file a module maps: as recorded, or for a side file
 * that does not say (an older recorder) read from the file when it is
 * still the one recorded (same inode): a rebuilt binary's would be wrong. */
static char *
module_build_id (Pprof *p,
                 const SpModule *module,
                 const char *path)
{
  const SpRecordedFile *recorded = sp_recorded_files_lookup (p->recorded, path, module->inode);
  GStatBuf st;

  if (recorded != NULL)
    return g_strdup (recorded->build_id);
  if (module->is_kernel || path[0] != '/' || g_stat (path, &st) != 0 || !S_ISREG (st.st_mode)
      || (module->inode != 0 && (guint64) st.st_ino != module->inode))
    return NULL;
  return sp_build_id_of_file (path, NULL);
}

/* A Mapping message before it is written (add_mappings orders them). */
typedef struct {
  GByteArray *message;
  guint       uses;      /* locations in it */
  gboolean    program;   /* is_program */
} Mapping;

static void
mapping_clear (gpointer data)
{
  g_byte_array_unref (((Mapping *) data)->message);
}

/* A file of code that is not the kernel, a shared library (name.so,
 * name.so.6) or anonymous memory. */
static gboolean
is_program (const SpModule *module,
            const char *path)
{
  const char *base = strrchr (path, '/');
  const char *so = base != NULL ? strstr (base, ".so") : NULL;

  if (module->is_kernel || path[0] != '/' || g_str_has_prefix (path, "/memfd:"))
    return FALSE;
  return so == NULL || (so[3] != '\0' && so[3] != '.');
}

static guint64
mapping_id (Pprof *p,
            guint32 module_id)
{
  gpointer key = GUINT_TO_POINTER (module_id + 1);
  guint64 id = GPOINTER_TO_SIZE (g_hash_table_lookup (p->mappings, key));
  const SpModule *module = &sp_spool_reader_get_modules (p->reader)[module_id];
  g_autofree char *path = g_strndup (module->path, module->path_len);
  g_autofree char *build_id = NULL;
  g_autoptr (GByteArray) msg = NULL;

  if (id != 0)
    return id;
  id = g_hash_table_size (p->mappings) + 1;
  g_hash_table_insert (p->mappings, key, GSIZE_TO_POINTER (id));
  build_id = module_build_id (p, module, path);
  msg = g_byte_array_new ();
  sp_proto_uint (msg, MAPPING_ID, id);
  sp_proto_uint (msg, MAPPING_MEMORY_START, module->start);
  sp_proto_uint (msg, MAPPING_MEMORY_LIMIT, module->end);
  sp_proto_uint (msg, MAPPING_FILE_OFFSET, module->file_offset);
  sp_proto_int (msg, MAPPING_FILENAME, string_index (p, path));
  sp_proto_int (msg, MAPPING_BUILD_ID, string_index (p, build_id));
  /* Symbolized here: pprof is not to look for the binaries. */
  sp_proto_uint (msg, MAPPING_HAS_FUNCTIONS, 1);
  sp_proto_uint (msg, MAPPING_HAS_FILENAMES, 1);
  sp_proto_uint (msg, MAPPING_HAS_LINE_NUMBERS, 1);
  sp_proto_uint (msg, MAPPING_HAS_INLINE_FRAMES, 1);
  g_array_append_val (p->mapping_list, ((Mapping) { g_steal_pointer (&msg), 0, is_program (module, path) }));
  return id;
}

/* pprof takes the profile's first mapping for its main binary (it names
 * the profile and the reports after it): the program with the most
 * locations, rather than whichever module the first sample's leaf was in
 * (often the kernel). A library only when no program was sampled. */
static void
add_mappings (Pprof *p,
              GByteArray *out)
{
  const Mapping *m = (const Mapping *) (gconstpointer) p->mapping_list->data;
  guint first = 0;

  /* A program before a library, then the most used. */
  for (guint i = 1; i < p->mapping_list->len; i++)
    if (m[i].program > m[first].program || (m[i].program == m[first].program && m[i].uses > m[first].uses))
      first = i;
  for (guint i = 0; i < p->mapping_list->len; i++)
    sp_proto_message (out, PROFILE_MAPPING, m[i == 0 ? first : i == first ? 0 : i].message);
}

/* ---- Locations ----------------------------------------------------------- */

static void
add_line (GByteArray *location,
          guint64 function,
          guint line)
{
  g_autoptr (GByteArray) msg = g_byte_array_new ();

  sp_proto_uint (msg, LINE_FUNCTION_ID, function);
  sp_proto_int (msg, LINE_LINE, line);
  sp_proto_message (location, LOCATION_LINE, msg);
}

/* The line each of a frame's n functions (innermost first) is at: only
 * the profile's functions are memoized, not their lines, so the module
 * is asked again (once per location). Zeros where unknown. */
static void
frame_lines (Pprof *p,
             const SpModule *module,
             guint64 rel_ip,
             gboolean is_leaf,
             guint n,
             guint *lines)
{
  SpSymbolFrame symbols[MAX_LINES];
  guint n_symbols;

  memset (lines, 0, n * sizeof (guint));
  /* What the profile resolves through the module's file (sp-profile.c):
   * not the kernel's, nor anonymous or JIT code, which have no lines. */
  if (module == NULL || module->is_kernel || module->path[0] != '/' || g_str_has_prefix (module->path, "/memfd:"))
    return;
  n_symbols = sp_symbolizer_resolve (_sp_profile_get_symbolizer (p->profile), module, rel_ip, !is_leaf, symbols,
                                     MAX_LINES);
  if (n_symbols == n)
    for (guint i = 0; i < n; i++)
      lines[i] = symbols[i].line;
  else if (n == 1)  /* inline frames off: the outermost */
    lines[0] = symbols[n_symbols - 1].line;
}

static guint64
add_location (Pprof *p,
              GByteArray *msg)
{
  guint64 id = ++p->n_locations;
  g_autoptr (GByteArray) with_id = g_byte_array_new ();

  sp_proto_uint (with_id, LOCATION_ID, id);
  g_byte_array_append (with_id, msg->data, msg->len);
  sp_proto_message (p->location_fields, PROFILE_LOCATION, with_id);
  return id;
}

/* A frame as pid sees it: its address, mapping and one line per function
 * of its inline chain, innermost first (as pprof has them). */
static guint64
frame_location (Pprof *p,
                guint32 frame_id,
                gint32 pid,
                gboolean is_leaf)
{
  gint32 key_pid = sp_profile_frame_depends_on_pid (p->profile, frame_id) ? pid : 0;
  guint64 key = (guint64) frame_id << 32 | (guint32) key_pid;
  GHashTable *table = p->frame_locations[is_leaf ? 1 : 0];
  guint64 *id = g_hash_table_lookup (table, &key);
  const SpFrame *frame = &sp_spool_reader_get_frames (p->reader)[frame_id];
  const SpModule *module = NULL;
  g_autoptr (GByteArray) msg = NULL;
  const guint32 *functions;
  guint lines[MAX_LINES];
  guint32 module_id;
  guint64 rel_ip = 0;
  guint n;

  if (id != NULL)
    return *id;
  n = MIN (sp_profile_get_frame_functions (p->profile, frame_id, pid, is_leaf, &functions), MAX_LINES);
  msg = g_byte_array_new ();
  if (frame->mode != SP_FRAME_TRUNCATED
      && sp_spool_reader_resolve_frame_module (p->reader, pid, frame_id, &module_id, &rel_ip))
    {
      module = &sp_spool_reader_get_modules (p->reader)[module_id];
      guint64 mapping = mapping_id (p, module_id);

      g_array_index (p->mapping_list, Mapping, mapping - 1).uses++;
      sp_proto_uint (msg, LOCATION_MAPPING_ID, mapping);
    }
  sp_proto_uint (msg, LOCATION_ADDRESS, frame->abs_ip);
  frame_lines (p, module, rel_ip, is_leaf, n, lines);
  for (guint i = 0; i < n; i++)
    add_line (msg, function_id (p, functions[i]), lines[i]);
  id = g_memdup2 (&(guint64) { add_location (p, msg) }, sizeof (guint64));
  g_hash_table_insert (table, g_memdup2 (&key, sizeof key), id);
  return *id;
}

/* A function of a transformed stack: no address (a collapsed module or a
 * merged caller is no frame), one line. */
static guint64
function_location (Pprof *p,
                   guint32 function)
{
  gpointer key = GUINT_TO_POINTER (function + 1);
  guint64 id = GPOINTER_TO_SIZE (g_hash_table_lookup (p->function_locations, key));
  g_autoptr (GByteArray) msg = NULL;

  if (id != 0)
    return id;
  msg = g_byte_array_new ();
  add_line (msg, function_id (p, function), 0);
  id = add_location (p, msg);
  g_hash_table_insert (p->function_locations, key, GSIZE_TO_POINTER (id));
  return id;
}

/* ---- Samples ------------------------------------------------------------- */

static gboolean
has_transforms (const SpFilter *filter)
{
  return filter != NULL && filter->transforms != NULL && filter->transforms->len > 0;
}

/* The stack's locations, leaf first; FALSE when the transforms drop it. */
static gboolean
sample_locations (Pprof *p,
                  const SpThreadStack *s,
                  GArray *ids,
                  GArray *path)
{
  g_array_set_size (ids, 0);
  if (!has_transforms (p->filter) && !SP_STACK_IS_SYNTHETIC (s->stack))
    {
      SpStackIter iter;
      guint32 frame_id;
      gboolean leaf = TRUE;

      sp_stack_iter_init (&iter, p->reader, s->stack);
      for (; sp_stack_iter_next (&iter, &frame_id); leaf = FALSE)
        g_array_append_val (ids, ((guint64) { frame_location (p, frame_id, s->pid, leaf) }));
      return TRUE;
    }
  g_array_set_size (path, 0);
  sp_stack_path (p->profile, s->stack, s->pid, path);
  if (p->filter != NULL && !sp_filter_apply_transforms (p->filter, p->profile, path))
    return FALSE;
  for (guint i = path->len; i > 0; i--)
    g_array_append_val (ids, ((guint64) { function_location (p, g_array_index (path, guint32, i - 1)) }));
  return TRUE;
}

static void
add_label (Pprof *p,
           GByteArray *sample,
           const char *key,
           const char *str,
           gint64 num)
{
  g_autoptr (GByteArray) msg = g_byte_array_new ();

  sp_proto_int (msg, LABEL_KEY, string_index (p, key));
  if (str != NULL)
    sp_proto_int (msg, LABEL_STR, string_index (p, str));
  else
    sp_proto_int (msg, LABEL_NUM, num);
  sp_proto_message (sample, SAMPLE_LABEL, msg);
}

static gboolean
weighs_time (const SpFilter *filter)
{
  return filter != NULL && filter->metric != SP_METRIC_CPU;
}

static void
add_sample (Pprof *p,
            const SpThreadStack *s,
            const GArray *ids,
            guint64 interval_ns)
{
  g_autoptr (GByteArray) msg = g_byte_array_new ();
  guint64 values[2] = { s->weight, s->weight * interval_ns };
  guint64 tid;
  gint32 pid;
  const char *name;

  sp_profile_get_thread (p->profile, s->thread, &pid, &tid);
  name = sp_profile_get_thread_name (p->profile, tid);
  sp_proto_packed (msg, SAMPLE_LOCATION_ID, (const guint64 *) ids->data, ids->len);
  sp_proto_packed (msg, SAMPLE_VALUE, values, weighs_time (p->filter) ? 1 : 2);
  if (name != NULL)
    add_label (p, msg, "thread", name, 0);
  add_label (p, msg, "tid", NULL, (gint64) tid);
  add_label (p, msg, "pid", NULL, pid);
  sp_proto_message (p->samples, PROFILE_SAMPLE, msg);
}

static void
add_samples (Pprof *p,
             guint64 interval_ns)
{
  guint64 total;
  g_autoptr (GArray) stacks = sp_thread_stacks_new (p->profile, p->filter, &total);
  g_autoptr (GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr (GArray) path = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < stacks->len; i++)
    {
      const SpThreadStack *s = &g_array_index (stacks, SpThreadStack, i);

      if (sample_locations (p, s, ids, path))
        add_sample (p, s, ids, interval_ns);
    }
}

/* ---- The profile --------------------------------------------------------- */

static void
add_value_type (Pprof *p,
                GByteArray *profile,
                guint field,
                const char *type,
                const char *unit)
{
  g_autoptr (GByteArray) msg = g_byte_array_new ();

  sp_proto_int (msg, VALUE_TYPE_TYPE, string_index (p, type));
  sp_proto_int (msg, VALUE_TYPE_UNIT, string_index (p, unit));
  sp_proto_message (profile, field, msg);
}

/* When the chosen part of the recording starts (wall clock, ns) and how
 * long it is: the samples' span cut to the filter's time range. */
static void
chosen_span (Pprof *p,
             guint64 *start_ns,
             guint64 *duration_ns)
{
  guint64 first, last, from, to;

  *start_ns = *duration_ns = 0;
  if (!sp_spool_reader_get_sample_time_span (p->reader, &first, &last))
    return;
  from = MAX (first, p->filter != NULL ? p->filter->from_ns : 0);
  to = MIN (last, p->filter != NULL ? p->filter->to_ns : G_MAXUINT64);
  *start_ns = sp_spool_reader_get_start_timestamp_us (p->reader) * 1000 + (from - first);
  *duration_ns = to > from ? to - from : 0;
}

static void
add_header (Pprof *p,
            GByteArray *profile,
            guint64 interval_ns)
{
  g_autofree char *comment = g_strdup_printf ("stackpulse %s: %s", SP_VERSION, sp_profile_get_path (p->profile));
  guint64 start_ns, duration_ns;

  if (weighs_time (p->filter))
    add_value_type (p, profile, PROFILE_SAMPLE_TYPE, p->filter->metric == SP_METRIC_OFF_CPU ? "off-cpu" : "wall",
                    "nanoseconds");
  else
    {
      add_value_type (p, profile, PROFILE_SAMPLE_TYPE, "samples", "count");
      add_value_type (p, profile, PROFILE_SAMPLE_TYPE, "cpu", "nanoseconds");
    }
  chosen_span (p, &start_ns, &duration_ns);
  sp_proto_int (profile, PROFILE_TIME_NANOS, (gint64) start_ns);
  sp_proto_int (profile, PROFILE_DURATION_NANOS, (gint64) duration_ns);
  add_value_type (p, profile, PROFILE_PERIOD_TYPE, "cpu", "nanoseconds");
  sp_proto_int (profile, PROFILE_PERIOD, (gint64) interval_ns);
  sp_proto_packed (profile, PROFILE_COMMENT, &(guint64) { string_index (p, comment) }, 1);
}

static GByteArray *
encode (SpProfile *profile,
        const SpFilter *filter)
{
  const SpSpoolReader *reader = sp_profile_get_reader (profile);
  Pprof p = {
    profile, filter, reader,
    g_hash_table_new (g_str_hash, g_str_equal), g_ptr_array_new_with_free_func (g_free),
    g_hash_table_new (NULL, NULL),
    { g_hash_table_new_full (_sp_int64_hash, g_int64_equal, g_free, g_free),
      g_hash_table_new_full (_sp_int64_hash, g_int64_equal, g_free, g_free) },
    g_hash_table_new (NULL, NULL), g_hash_table_new (NULL, NULL),
    sp_recorded_files_new (sp_profile_get_meta (profile)),
    g_byte_array_new (), g_array_new (FALSE, FALSE, sizeof (Mapping)), g_byte_array_new (), g_byte_array_new (), 0,
  };
  guint64 interval_ns = sp_spool_reader_get_sample_interval_us (reader) * 1000;
  GByteArray *out = g_byte_array_new ();

  g_array_set_clear_func (p.mapping_list, mapping_clear);

  string_index (&p, "");  /* string_table[0] must be "" */
  add_header (&p, out, interval_ns);
  add_samples (&p, interval_ns);
  g_byte_array_append (out, p.samples->data, p.samples->len);
  add_mappings (&p, out);
  g_byte_array_append (out, p.location_fields->data, p.location_fields->len);
  g_byte_array_append (out, p.function_fields->data, p.function_fields->len);
  for (guint i = 0; i < p.string_table->len; i++)
    {
      const char *s = g_ptr_array_index (p.string_table, i);

      sp_proto_bytes (out, PROFILE_STRING_TABLE, s, strlen (s));
    }
  g_hash_table_unref (p.strings);
  g_ptr_array_unref (p.string_table);
  g_hash_table_unref (p.functions);
  g_hash_table_unref (p.frame_locations[0]);
  g_hash_table_unref (p.frame_locations[1]);
  g_hash_table_unref (p.function_locations);
  g_hash_table_unref (p.mappings);
  sp_recorded_files_free (p.recorded);
  g_byte_array_unref (p.samples);
  g_array_unref (p.mapping_list);
  g_byte_array_unref (p.location_fields);
  g_byte_array_unref (p.function_fields);
  return out;
}

/* gzip, as pprof reads it (and writes it). */
static gboolean
write_gzip (const GByteArray *data,
            FILE *out)
{
  g_autoptr (GZlibCompressor) gzip = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
  guint8 buffer[1 << 16];
  gsize in_pos = 0;
  GConverterResult result;

  do
    {
      gsize read = 0, written = 0;

      result = g_converter_convert (G_CONVERTER (gzip), data->data + in_pos, data->len - in_pos, buffer,
                                    sizeof buffer, G_CONVERTER_INPUT_AT_END, &read, &written, NULL);
      if (result == G_CONVERTER_ERROR)
        return FALSE;
      in_pos += read;
      if (written > 0 && fwrite (buffer, 1, written, out) != written)
        return FALSE;
    }
  while (result != G_CONVERTER_FINISHED);
  return TRUE;
}

gboolean
sp_export_pprof (SpProfile *profile,
                 const SpFilter *filter,
                 FILE *out)
{
  g_autoptr (GByteArray) encoded = encode (profile, filter);

  return write_gzip (encoded, out) && fflush (out) == 0 && !ferror (out);
}
