/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-symbol-cache.c: one module's resolved addresses, on disk.
 *
 * A file is a fixed header (magic, version, counts, a checksum of the
 * rest) and a body: the key, the problems, the entries (file offset,
 * first frame, frame count; by offset), the frames (five 32-bit words:
 * string ids of function, file, decl_file and the two lines) and a string
 * table (NUL-terminated strings; an id is a byte offset, NO_STRING none).
 * It is read whole: a cache file holds the addresses recordings of the
 * module used, kilobytes to a few megabytes. Native byte order: the cache
 * is this machine's. */
#include "sp-symbol-cache.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sp-symbol-cache-dir-private.h"

#define MAGIC "SPSYMC\r\n"
/* Bumped whenever the format, or what the symbolizer puts in a frame,
 * changes: older files then read as absent. */
#define FORMAT_VERSION 1u
#define NO_STRING G_MAXUINT32
#define MAX_FRAMES_PER_ENTRY 255u
#define FLAG_HAS_DWARF 1u

typedef struct {
  char    magic[8];
  guint32 version;
  guint32 flags;
  guint32 key_len;
  guint32 n_problems;
  guint32 n_entries;
  guint32 n_frames;
  guint32 strings_size;
  guint32 reserved;
  guint64 checksum;  /* of the body */
} Header;

typedef struct {
  guint32 kind;
  guint32 file;
  guint32 message;
} Problem;

typedef struct {
  guint64 offset;
  guint32 first;
  guint32 n;
} Entry;

typedef struct {
  guint32 function;
  guint32 file;
  guint32 line;
  guint32 decl_file;
  guint32 decl_line;
} Frame;

struct _SpSymbolCacheFile {
  char       *key;
  gboolean    has_dwarf;
  GArray     *problems;    /* Problem */
  GArray     *entries;     /* Entry; by offset once read, in adding order while filled */
  GArray     *frames;      /* Frame */
  GByteArray *strings;
  GHashTable *string_ids;  /* string (in strings' copy) -> id + 1; while filled */
  GHashTable *offsets;     /* the entries' offsets (guint64 *); while filled */
};

/* ---- In memory --------------------------------------------------------- */

static SpSymbolCacheFile *
file_alloc (const char *key,
            gboolean has_dwarf)
{
  SpSymbolCacheFile *file = g_new0 (SpSymbolCacheFile, 1);

  file->key = g_strdup (key);
  file->has_dwarf = has_dwarf;
  file->problems = g_array_new (FALSE, FALSE, sizeof (Problem));
  file->entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  file->frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  file->strings = g_byte_array_new ();
  return file;
}

SpSymbolCacheFile *
sp_symbol_cache_file_new (const char *key,
                          gboolean has_dwarf)
{
  SpSymbolCacheFile *file = file_alloc (key, has_dwarf);

  file->string_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  file->offsets = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  return file;
}

void
sp_symbol_cache_file_free (SpSymbolCacheFile *file)
{
  if (file == NULL)
    return;
  g_clear_pointer (&file->offsets, g_hash_table_unref);
  g_clear_pointer (&file->string_ids, g_hash_table_unref);
  g_array_unref (file->problems);
  g_array_unref (file->entries);
  g_array_unref (file->frames);
  g_byte_array_unref (file->strings);
  g_free (file->key);
  g_free (file);
}

gboolean
sp_symbol_cache_file_has_dwarf (SpSymbolCacheFile *file)
{
  return file->has_dwarf;
}

guint
sp_symbol_cache_file_get_n_entries (SpSymbolCacheFile *file)
{
  return file->entries->len;
}

guint
sp_symbol_cache_file_get_n_problems (SpSymbolCacheFile *file)
{
  return file->problems->len;
}

static const char *
string_at (SpSymbolCacheFile *file,
           guint32 id)
{
  return id == NO_STRING ? NULL : (const char *) file->strings->data + id;
}

void
sp_symbol_cache_file_get_problem (SpSymbolCacheFile *file,
                                  guint i,
                                  SpSymbolCacheProblem *problem)
{
  const Problem *p = &g_array_index (file->problems, Problem, i);

  problem->kind = (SpSymbolProblemKind) p->kind;
  problem->file = string_at (file, p->file);
  problem->message = string_at (file, p->message);
}

static const Entry *
find_entry (SpSymbolCacheFile *file,
            guint64 offset)
{
  guint low = 0;
  guint high = file->entries->len;

  while (low < high)
    {
      guint mid = low + (high - low) / 2;
      const Entry *entry = &g_array_index (file->entries, Entry, mid);

      if (entry->offset == offset)
        return entry;
      if (entry->offset < offset)
        low = mid + 1;
      else
        high = mid;
    }
  return NULL;
}

guint
sp_symbol_cache_file_lookup (SpSymbolCacheFile *file,
                             guint64 file_offset,
                             SpSymbolFrame *frames,
                             guint max)
{
  const Entry *entry = find_entry (file, file_offset);
  guint n;

  if (entry == NULL)
    return 0;
  n = MIN (entry->n, max);
  for (guint i = 0; i < n; i++)
    {
      const Frame *f = &g_array_index (file->frames, Frame, entry->first + i);

      frames[i] = (SpSymbolFrame) { string_at (file, f->function), string_at (file, f->file), f->line,
                                    string_at (file, f->decl_file), f->decl_line };
    }
  return n;
}

static guint32
add_string (SpSymbolCacheFile *file,
            const char *string)
{
  gpointer id;
  guint32 new_id;

  if (string == NULL)
    return NO_STRING;
  id = g_hash_table_lookup (file->string_ids, string);
  if (id != NULL)
    return GPOINTER_TO_UINT (id) - 1;
  new_id = file->strings->len;
  g_byte_array_append (file->strings, (const guint8 *) string, (guint) strlen (string) + 1);
  g_hash_table_insert (file->string_ids, g_strdup (string), GUINT_TO_POINTER (new_id + 1));
  return new_id;
}

void
sp_symbol_cache_file_add_problem (SpSymbolCacheFile *file,
                                  const SpSymbolCacheProblem *problem)
{
  Problem p = { problem->kind, add_string (file, problem->file), add_string (file, problem->message) };

  g_array_append_val (file->problems, p);
}

void
sp_symbol_cache_file_add (SpSymbolCacheFile *file,
                          guint64 file_offset,
                          const SpSymbolFrame *frames,
                          guint n)
{
  Entry entry = { file_offset, file->frames->len, MIN (n, MAX_FRAMES_PER_ENTRY) };

  g_return_if_fail (file->offsets != NULL && n > 0);

  if (g_hash_table_contains (file->offsets, &file_offset))
    return;
  for (guint i = 0; i < entry.n; i++)
    {
      Frame f = { add_string (file, frames[i].function), add_string (file, frames[i].file), frames[i].line,
                  add_string (file, frames[i].decl_file), frames[i].decl_line };

      g_array_append_val (file->frames, f);
    }
  g_array_append_val (file->entries, entry);
  /* Its own copy of the key: the array moves as it grows. */
  g_hash_table_add (file->offsets, g_memdup2 (&file_offset, sizeof file_offset));
}

/* ---- Bytes -------------------------------------------------------------- */

/* FNV-1a, 64 bits: enough to tell a damaged file from a whole one. */
static guint64
checksum (const guint8 *data,
          gsize size)
{
  guint64 hash = 0xcbf29ce484222325u;

  for (gsize i = 0; i < size; i++)
    hash = (hash ^ data[i]) * 0x100000001b3u;
  return hash;
}

static gint
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const Entry *ea = a;
  const Entry *eb = b;

  return ea->offset < eb->offset ? -1 : ea->offset > eb->offset;
}

static GBytes *
serialize (SpSymbolCacheFile *file)
{
  GByteArray *bytes = g_byte_array_new ();
  Header header = { MAGIC, FORMAT_VERSION, file->has_dwarf ? FLAG_HAS_DWARF : 0, (guint32) strlen (file->key),
                    file->problems->len, file->entries->len, file->frames->len, file->strings->len, 0, 0 };

  g_array_sort (file->entries, compare_entries);
  g_byte_array_append (bytes, (const guint8 *) &header, sizeof header);
  g_byte_array_append (bytes, (const guint8 *) file->key, header.key_len);
  g_byte_array_append (bytes, (const guint8 *) file->problems->data, file->problems->len * sizeof (Problem));
  g_byte_array_append (bytes, (const guint8 *) file->entries->data, file->entries->len * sizeof (Entry));
  g_byte_array_append (bytes, (const guint8 *) file->frames->data, file->frames->len * sizeof (Frame));
  g_byte_array_append (bytes, file->strings->data, file->strings->len);
  header.checksum = checksum (bytes->data + sizeof header, bytes->len - sizeof header);
  memcpy (bytes->data, &header, sizeof header);
  return g_byte_array_free_to_bytes (bytes);
}

static gboolean
string_ok (guint32 id,
           guint32 strings_size)
{
  return id == NO_STRING || id < strings_size;
}

/* Whether every id and range in file points inside it, and the entries
 * are by offset: a file whose checksum matched by chance, or written by
 * a broken writer, still cannot make a lookup read out of bounds. */
static gboolean
file_is_consistent (SpSymbolCacheFile *file)
{
  guint32 strings_size = file->strings->len;

  if (strings_size > 0 && file->strings->data[strings_size - 1] != '\0')
    return FALSE;
  for (guint i = 0; i < file->problems->len; i++)
    {
      const Problem *p = &g_array_index (file->problems, Problem, i);

      if (p->kind > SP_SYMBOL_PROBLEM_NO_DEBUG_INFO || p->message == NO_STRING || !string_ok (p->file, strings_size)
          || !string_ok (p->message, strings_size))
        return FALSE;
    }
  for (guint i = 0; i < file->entries->len; i++)
    {
      const Entry *e = &g_array_index (file->entries, Entry, i);

      if (e->n == 0 || e->n > MAX_FRAMES_PER_ENTRY || e->first > file->frames->len
          || e->n > file->frames->len - e->first
          || (i > 0 && g_array_index (file->entries, Entry, i - 1).offset >= e->offset))
        return FALSE;
    }
  for (guint i = 0; i < file->frames->len; i++)
    {
      const Frame *f = &g_array_index (file->frames, Frame, i);

      if (!string_ok (f->function, strings_size) || !string_ok (f->file, strings_size)
          || !string_ok (f->decl_file, strings_size))
        return FALSE;
    }
  return TRUE;
}

static void
take_section (GArray *array,
              const guint8 **at,
              guint n)
{
  g_array_set_size (array, n);
  if (n == 0)
    return;  /* an empty array may have no data to copy to */
  memcpy (array->data, *at, (gsize) n * g_array_get_element_size (array));
  *at += (gsize) n * g_array_get_element_size (array);
}

/* The file in data, or NULL when it is not a whole file for key. */
static SpSymbolCacheFile *
parse (const guint8 *data,
       gsize size,
       const char *key)
{
  SpSymbolCacheFile *file;
  const guint8 *at = data + sizeof (Header);
  Header header;
  guint64 expected;

  if (size < sizeof header)
    return NULL;
  memcpy (&header, data, sizeof header);
  expected = sizeof header + (guint64) header.key_len + (guint64) header.n_problems * sizeof (Problem)
             + (guint64) header.n_entries * sizeof (Entry) + (guint64) header.n_frames * sizeof (Frame)
             + header.strings_size;
  if (memcmp (header.magic, MAGIC, sizeof header.magic) != 0 || header.version != FORMAT_VERSION
      || expected != size || header.checksum != checksum (data + sizeof header, size - sizeof header)
      || header.key_len != strlen (key) || memcmp (at, key, header.key_len) != 0)
    return NULL;
  at += header.key_len;
  file = file_alloc (key, (header.flags & FLAG_HAS_DWARF) != 0);
  take_section (file->problems, &at, header.n_problems);
  take_section (file->entries, &at, header.n_entries);
  take_section (file->frames, &at, header.n_frames);
  g_byte_array_append (file->strings, at, header.strings_size);
  if (!file_is_consistent (file))
    g_clear_pointer (&file, sp_symbol_cache_file_free);
  return file;
}

/* ---- Files --------------------------------------------------------------- */

char *
sp_symbol_cache_file_name (const char *key)
{
  g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);

  return g_strdup_printf ("%.40s.sym", digest);
}

/* The file's bytes, or NULL; marks it used (its time) when mark_used. */
static guint8 *
read_cache_file (SpSymbolCacheDir *dir,
                 const char *name,
                 gboolean mark_used,
                 gsize *size)
{
  int fd = openat (_sp_symbol_cache_dir_fd (dir), name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  g_autofree guint8 *data = NULL;
  struct stat st;
  gsize done = 0;

  if (fd < 0)
    return NULL;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_uid != geteuid ()
      || (guint64) st.st_size > _sp_symbol_cache_dir_max (dir))
    {
      close (fd);
      return NULL;
    }
  data = g_malloc ((gsize) st.st_size + 1);
  while (done < (gsize) st.st_size)
    {
      gssize n = read (fd, data + done, (gsize) st.st_size - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      done += (gsize) n;
    }
  if (mark_used && done == (gsize) st.st_size)
    futimens (fd, NULL);
  close (fd);
  if (done != (gsize) st.st_size)
    return NULL;
  *size = done;
  return g_steal_pointer (&data);
}

static SpSymbolCacheFile *
load_named (SpSymbolCacheDir *dir,
            const char *name,
            const char *key,
            gboolean mark_used)
{
  gsize size = 0;
  g_autofree guint8 *data = read_cache_file (dir, name, mark_used, &size);

  return data != NULL ? parse (data, size, key) : NULL;
}

SpSymbolCacheFile *
sp_symbol_cache_load (SpSymbolCacheDir *dir,
                      const char *key)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (dir != NULL && key != NULL, NULL);

  name = sp_symbol_cache_file_name (key);
  return load_named (dir, name, key, TRUE);
}

static guint64
file_size (SpSymbolCacheFile *file)
{
  return sizeof (Header) + strlen (file->key) + (guint64) file->problems->len * sizeof (Problem)
         + (guint64) file->entries->len * sizeof (Entry) + (guint64) file->frames->len * sizeof (Frame)
         + file->strings->len;
}

/* Whether file and what is on disk together stay within a quarter of the
 * folder's bound: one module that every recording adds to (libc) must
 * not push all others out. Past it, this open's entries start afresh. */
static gboolean
merged_size_ok (SpSymbolCacheDir *dir,
                SpSymbolCacheFile *file,
                SpSymbolCacheFile *on_disk)
{
  return file_size (file) + file_size (on_disk) <= _sp_symbol_cache_dir_max (dir) / 4;
}

/* Adds what other is known to file, where file does not say already. */
static void
merge_from (SpSymbolCacheFile *file,
            SpSymbolCacheFile *other)
{
  SpSymbolFrame frames[MAX_FRAMES_PER_ENTRY];

  for (guint i = 0; i < other->entries->len; i++)
    {
      const Entry *e = &g_array_index (other->entries, Entry, i);
      guint n = sp_symbol_cache_file_lookup (other, e->offset, frames, G_N_ELEMENTS (frames));

      sp_symbol_cache_file_add (file, e->offset, frames, n);
    }
}

gboolean
sp_symbol_cache_store (SpSymbolCacheDir *dir,
                       SpSymbolCacheFile *file)
{
  g_autofree char *name = NULL;
  g_autoptr (GBytes) bytes = NULL;
  SpSymbolCacheFile *on_disk;
  gboolean stored;
  int lock;

  g_return_val_if_fail (dir != NULL && file != NULL && file->offsets != NULL, FALSE);

  name = sp_symbol_cache_file_name (file->key);
  /* Writers of one folder take turns, so that none loses what another
   * added between its read and its rename. */
  lock = _sp_symbol_cache_dir_lock (dir);
  on_disk = load_named (dir, name, file->key, FALSE);
  if (on_disk != NULL)
    {
      /* What DWARF said then is what it says now (the key covers every
       * file it came from): the entries only add up, to a bound per file. */
      if (merged_size_ok (dir, file, on_disk))
        merge_from (file, on_disk);
      sp_symbol_cache_file_free (on_disk);
    }
  bytes = serialize (file);
  stored = _sp_symbol_cache_dir_write (dir, name, bytes);
  if (stored)
    _sp_symbol_cache_dir_prune (dir, name);
  _sp_symbol_cache_dir_unlock (lock);
  return stored;
}
