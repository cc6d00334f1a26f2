/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-profile.c: reader + side file + symbolizer, and the frame memo. */
#include "sp-profile.h"

#include <glib/gstdio.h>
#include <string.h>

#include "sp-file-private.h"
#include "sp-hash-private.h"
#include "sp-name-match.h"
#include "sp-offcpu-companion-private.h"
#include "sp-profile-private.h"
#include "sp-recording-state.h"
#include "sp-spool-errors.h"
#include "sp-spool-format.h"
#include "sp-varint.h"
#include "sp-symbolizer.h"
#include "sp-symbol-warmup.h"

#define MAX_INLINE_DEPTH 32

/* Functions live in blocks that never move, so the main thread may read a
 * function a tree names while a worker (following a live spool) appends
 * new ones: ids are published to other threads only with the trees. */
#define FUNCTION_BLOCK_SIZE 4096
#define MAX_FUNCTION_BLOCKS 16384

/* What one frame resolved to, exact (the leaf) or as a caller. */
typedef struct {
  guint32     offset;     /* into function_ids */
  guint16     count;      /* 0: not resolved yet */
} FrameMemo;

struct _SpProfile
{
  gatomicrefcount ref_count;     /* views and results hold the profile they name */
  char          *path;
  SpSpoolReader *reader;
  char          *damage;
  gboolean       following;

  GKeyFile      *meta;
  gint64         meta_mtime;
  char          *meta_problem;   /* why the side file was not read, or NULL */
  GHashTable    *thread_names;   /* tid (guint64 *) -> name */
  GHashTable    *proc_names;     /* tid -> name from /proc, until the side file names it */
  GHashTable    *proc_gone;      /* tids /proc no longer has */
  gboolean       live_here;      /* being recorded on this machine now */

  SpSymbolizer  *symbolizer;     /* through symbolizer_of: a warm-up may have it */
  SpSymbolWarmup *warmup;        /* resolving the first frames on its own thread, or NULL */
  gboolean       inline_frames;

  SpFunction   **function_blocks; /* MAX_FUNCTION_BLOCKS, allocated as needed */
  guint          n_functions;
  GHashTable    *function_index; /* "kind\x1fmodule\x1fname" -> id + 1 */
  GStringChunk  *strings;

  GArray        *frame_memo;     /* FrameMemo, two per frame: caller, exact */
  GHashTable    *pid_frame_memo; /* (frame, pid, exact) -> FrameMemo * */
  GArray        *function_ids;   /* guint32 */
  guint8        *pid_dependent;  /* per frame: 0 unknown, 1 no, 2 yes */
  gsize          pid_dependent_len;

  SpTreeSkeleton *skeleton;      /* the top-down tree's shape */
  SpSampleIndex  *sample_index;  /* for time ranges */
  SpOffCpuCompanion *offcpu;     /* PATH.offcpu, when there is one */
};

/* The symbolizer, taken back from a warm-up that has it: it stops at the
 * frame it is at, and whatever it read is kept. */
static SpSymbolizer *
symbolizer_of (SpProfile *self)
{
  if (self->warmup != NULL)
    sp_symbol_warmup_join (g_steal_pointer (&self->warmup), TRUE);
  return self->symbolizer;
}

static void
set_damage (SpProfile *self,
            const SpSpoolError *err)
{
  if (self->damage == NULL)
    self->damage = sp_spool_error_describe (err);
}

/* ---- The side file ----------------------------------------------------- */

static void
index_thread_names (SpProfile *self)
{
  g_auto (GStrv) groups = g_key_file_get_groups (self->meta, NULL);

  g_hash_table_remove_all (self->thread_names);
  for (guint i = 0; groups[i] != NULL; i++)
    {
      guint64 tid;
      char *name;

      if (!g_str_has_prefix (groups[i], "thread ")
          || !g_ascii_string_to_unsigned (groups[i] + 7, 10, 0, G_MAXUINT64, &tid, NULL))
        continue;
      name = g_key_file_get_string (self->meta, groups[i], "name", NULL);
      if (name != NULL)
        g_hash_table_insert (self->thread_names, g_memdup2 (&tid, sizeof tid), name);
    }
}

/* why names the file already when it comes from opening it. */
static void
set_meta_problem (SpProfile *self,
                  const char *meta_path,
                  const char *why)
{
  g_autofree char *where = strstr (why, meta_path) == NULL ? g_strdup_printf ("%s: %s", meta_path, why) : NULL;

  g_free (self->meta_problem);
  self->meta_problem = g_strdup_printf ("the side file is unreadable or damaged (%s): "
                                        "thread names, kernel symbols and lost counts are not known",
                                        where != NULL ? where : why);
}

/* A side file that names another spool (its spool_start_us, the spool
 * header's timestamp, is not this one's): a leftover beside a new spool,
 * or copied beside the wrong one. Its command, counts and sizes would be
 * taken for this recording's. Side files before that key are trusted. */
static gboolean
meta_of_another_spool (SpProfile *self,
                       GKeyFile *meta,
                       const char *meta_path)
{
  guint64 spool_start = sp_spool_reader_get_start_timestamp_us (self->reader);
  guint64 named;

  if (!g_key_file_has_key (meta, "recording", "spool_start_us", NULL))
    return FALSE;
  /* The spool's header is not written yet: read the side file again (and
   * check it) once it is. */
  if (spool_start == 0)
    {
      self->meta_mtime = 0;
      return FALSE;
    }
  named = g_key_file_get_uint64 (meta, "recording", "spool_start_us", NULL);
  if (named == spool_start)
    return FALSE;
  /* Not one read before either (read before the header was). */
  g_clear_pointer (&self->meta, g_key_file_unref);
  g_free (self->meta_problem);
  self->meta_problem = g_strdup_printf ("the side file %s is another recording's (its spool started %.1f s %s this "
                                        "one's), so it is not used: thread names, kernel symbols and lost counts "
                                        "are not known", meta_path,
                                        (double) (named > spool_start ? named - spool_start : spool_start - named)
                                        / 1e6, named > spool_start ? "after" : "before");
  return TRUE;
}

/* (Re)loads OUT.spool.meta when it changed; the recorder rewrites it
 * atomically, so a read never sees half a file. A side file that cannot
 * be read is a problem to report, not a reason to refuse the recording;
 * one read earlier stays. */
static void
load_meta (SpProfile *self)
{
  g_autofree char *meta_path = g_strconcat (self->path, ".meta", NULL);
  g_autoptr (GKeyFile) meta = g_key_file_new ();
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  GStatBuf st;
  gint64 mtime;

  if (g_stat (meta_path, &st) != 0)
    return;
  /* The recorder may rewrite it several times a second. */
  mtime = (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) + st.st_mtim.tv_nsec;
  if (mtime == self->meta_mtime)
    return;
  self->meta_mtime = mtime;
  if (!_sp_file_read_regular (meta_path, SP_FILE_MAX_SIDE_FILE, FALSE, &contents, &length, &error)
      || !g_key_file_load_from_data (meta, contents, length, G_KEY_FILE_NONE, &error))
    {
      set_meta_problem (self, meta_path, error->message);
      return;
    }
  if (meta_of_another_spool (self, meta, meta_path))
    return;
  g_clear_pointer (&self->meta_problem, g_free);
  g_clear_pointer (&self->meta, g_key_file_unref);
  self->meta = g_steal_pointer (&meta);
  index_thread_names (self);
  /* A recording in progress has no kernel symbols in its side file yet
   * (they come at the end): until then the first kernel frame resolved
   * reads /proc/kallsyms, once, on the thread that resolves it. (Read
   * here, at the first side file, it took a live recording's window
   * 36 ms of its main thread, which opens the growing recording.) */
  if (g_key_file_has_group (self->meta, "kernel-symbols"))
    sp_symbolizer_load_kernel_symbols (symbolizer_of (self), self->meta);
  sp_symbolizer_load_module_files (symbolizer_of (self), self->meta);
}

/* A thread's current name, or NULL when /proc has it no more. */
static char *
read_proc_name (gint32 pid,
                guint64 tid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/task/%" G_GUINT64_FORMAT "/comm", pid, tid);
  char *name = NULL;

  if (!g_file_get_contents (path, &name, NULL, NULL))
    return NULL;
  g_strchomp (name);
  return name;
}

/* While a recording is made on this machine, its threads are named as
 * soon as they appear: the side file names them only when next written
 * (every 2 s). Until it does, /proc has the name, current even when the
 * thread renames itself. */
static void
name_threads_from_proc (SpProfile *self)
{
  const SpThread *threads = sp_spool_reader_get_threads (self->reader);

  if (!self->live_here)
    return;
  for (gsize t = 0; t < sp_spool_reader_get_n_threads (self->reader); t++)
    {
      guint64 tid = threads[t].tid;
      char *name;

      if (g_hash_table_contains (self->thread_names, &tid) || g_hash_table_contains (self->proc_gone, &tid))
        continue;
      name = read_proc_name (threads[t].pid, tid);
      if (name != NULL)
        g_hash_table_replace (self->proc_names, g_memdup2 (&tid, sizeof tid), name);
      else
        g_hash_table_add (self->proc_gone, g_memdup2 (&tid, sizeof tid));
    }
}

/* ---- Opening ----------------------------------------------------------- */

static SpProfile *
profile_new (const char *path,
             gboolean following,
             GError **error)
{
  SpSpoolError err;
  SpSpoolReader *reader;
  SpProfile *self;

  if (!_sp_file_check_spool (path, following, error))
    return NULL;
  reader = sp_spool_reader_open_follow (path, &err);
  if (reader == NULL)
    {
      sp_spool_error_propagate (error, &err);
      return NULL;
    }
  self = g_new0 (SpProfile, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->path = g_strdup (path);
  self->reader = reader;
  self->inline_frames = TRUE;
  self->thread_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->proc_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  self->proc_gone = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->symbolizer = sp_symbolizer_new ();
  self->function_blocks = g_new0 (SpFunction *, MAX_FUNCTION_BLOCKS);
  self->function_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->strings = g_string_chunk_new (64 * 1024);
  self->frame_memo = g_array_new (FALSE, TRUE, sizeof (FrameMemo));
  self->pid_frame_memo = g_hash_table_new_full (_sp_int64_hash, g_int64_equal, g_free, g_free);
  self->function_ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->offcpu = _sp_offcpu_companion_new (path);
  /* The header alone (when written): the side file is checked against
   * its timestamp (meta_of_another_spool). */
  sp_spool_reader_update_prefix (reader, SP_SPOOL_MAGIC_LEN + 2 * SP_VARINT_MAX_LEN, &err);
  load_meta (self);
  /* Without a side file, this machine's kernel symbols are the best guess. */
  if (self->meta == NULL)
    sp_symbolizer_load_kernel_symbols (symbolizer_of (self), NULL);
  return self;
}

SpProfile *
sp_profile_open (const char *path,
                 GError **error)
{
  SpProfile *self = profile_new (path, FALSE, error);

  if (self != NULL)
    sp_profile_finish (self);
  return self;
}

SpProfile *
sp_profile_open_unread (const char *path,
                        GError **error)
{
  return profile_new (path, FALSE, error);
}

SpProfile *
sp_profile_open_follow (const char *path,
                        GError **error)
{
  SpProfile *self = profile_new (path, TRUE, error);

  if (self != NULL)
    self->following = TRUE;
  return self;
}

gboolean
sp_profile_update (SpProfile *self)
{
  SpSpoolError err;
  gboolean ok;

  /* The companion first: the spool is then read at least as far as the
   * ids of every companion record read (the recorder writes it first). */
  _sp_offcpu_companion_update (self->offcpu);
  ok = sp_spool_reader_update (self->reader, &err);
  if (!ok)
    set_damage (self, &err);
  load_meta (self);
  _sp_offcpu_companion_check (self->offcpu, self->reader, self->meta, FALSE);
  name_threads_from_proc (self);
  return ok;
}

void
sp_profile_set_recorded_here (SpProfile *self)
{
  self->live_here = TRUE;
  name_threads_from_proc (self);
}

/* A complete recording's side file gives the spool's length
 * (spool_bytes): a spool shorter than that was cut, or copied while it
 * was recorded, even when the cut falls on a record boundary and every
 * record read is whole. Said as damage: what is shown is what was read. */
static void
check_spool_length (SpProfile *self)
{
  GStatBuf st;
  guint64 recorded;

  if (self->damage != NULL || self->meta == NULL
      || !g_key_file_get_boolean (self->meta, "recording", "complete", NULL)
      || !g_key_file_has_key (self->meta, "recording", "spool_bytes", NULL) || g_stat (self->path, &st) != 0)
    return;
  recorded = g_key_file_get_uint64 (self->meta, "recording", "spool_bytes", NULL);
  if ((guint64) st.st_size < recorded)
    self->damage = g_strdup_printf ("the spool is shorter than its recording (%" G_GUINT64_FORMAT " of %"
                                    G_GUINT64_FORMAT " bytes): it was cut, or copied while it was recorded",
                                    (guint64) st.st_size, recorded);
}

void
sp_profile_finish (SpProfile *self)
{
  SpSpoolError err;

  self->live_here = FALSE;
  _sp_offcpu_companion_finish (self->offcpu);
  if (!sp_spool_reader_finish (self->reader, &err))
    set_damage (self, &err);
  self->following = FALSE;
  load_meta (self);
  check_spool_length (self);
  _sp_offcpu_companion_check (self->offcpu, self->reader, self->meta, TRUE);
}

/* How much of a spool is read before the warm-up starts: its start holds
 * nearly every frame it will use, and the rest is read meanwhile. */
#define WARMUP_PREFIX_MIN ((guint64) 256 << 10)
#define WARMUP_PREFIX_MAX ((guint64) 4 << 20)

void
sp_profile_finish_resolving_ahead (SpProfile *self)
{
  GStatBuf st;
  SpSpoolError err;

  /* Without inline frames there is no DWARF to read ahead, and a
   * module's symbol table takes a few ms. */
  if (self->inline_frames && self->warmup == NULL && g_stat (self->path, &st) == 0
      && (guint64) st.st_size > sp_spool_reader_get_parsed_size (self->reader) + WARMUP_PREFIX_MIN)
    {
      guint64 prefix = CLAMP ((guint64) st.st_size / 16, WARMUP_PREFIX_MIN, WARMUP_PREFIX_MAX);

      /* Damage found here is found again, and said, by the finish. */
      sp_spool_reader_update_prefix (self->reader, sp_spool_reader_get_parsed_size (self->reader) + prefix, &err);
      self->warmup = sp_symbol_warmup_start (symbolizer_of (self), self->reader);
    }
  sp_profile_finish (self);
}

void
sp_profile_wait_for_resolving_ahead (SpProfile *self)
{
  g_clear_pointer (&self->warmup, sp_symbol_warmup_finish);
}

SpProfile *
sp_profile_ref (SpProfile *self)
{
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
sp_profile_unref (SpProfile *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  sp_spool_reader_free (self->reader);
  g_clear_pointer (&self->meta, g_key_file_unref);
  g_hash_table_unref (self->thread_names);
  g_hash_table_unref (self->proc_names);
  g_hash_table_unref (self->proc_gone);
  sp_symbol_warmup_join (self->warmup, TRUE);
  sp_symbolizer_free (self->symbolizer);
  for (guint i = 0; i < MAX_FUNCTION_BLOCKS && self->function_blocks[i] != NULL; i++)
    g_free (self->function_blocks[i]);
  g_free (self->function_blocks);
  g_hash_table_unref (self->function_index);
  g_string_chunk_free (self->strings);
  g_array_unref (self->frame_memo);
  g_hash_table_unref (self->pid_frame_memo);
  g_array_unref (self->function_ids);
  g_free (self->pid_dependent);
  g_clear_pointer (&self->skeleton, _sp_tree_skeleton_free);
  g_clear_pointer (&self->sample_index, sp_sample_index_unref);
  _sp_offcpu_companion_free (self->offcpu);
  g_free (self->damage);
  g_free (self->meta_problem);
  g_free (self->path);
  g_free (self);
}

const char *sp_profile_get_path (SpProfile *self) { return self->path; }
const char *sp_profile_get_damage (SpProfile *self) { return self->damage; }
const SpSpoolReader *sp_profile_get_reader (SpProfile *self) { return self->reader; }
GKeyFile *sp_profile_get_meta (SpProfile *self) { return self->meta; }
const char *sp_profile_get_meta_problem (SpProfile *self) { return self->meta_problem; }
gboolean sp_profile_has_off_cpu (SpProfile *self) { return _sp_offcpu_companion_exists (self->offcpu); }
const char *sp_profile_get_off_cpu_problem (SpProfile *self) { return _sp_offcpu_companion_get_problem (self->offcpu); }
const char *sp_profile_get_off_cpu_damage (SpProfile *self) { return sp_profile_get_off_cpu_problem (self); }

gboolean
sp_profile_get_off_cpu_span (SpProfile *self,
                             guint64 *first_ns,
                             guint64 *last_ns)
{
  return _sp_offcpu_companion_get_span (self->offcpu, self->reader, first_ns, last_ns);
}

SpThreadStates *
sp_profile_get_thread_states (SpProfile *self)
{
  return _sp_offcpu_companion_get_states (self->offcpu, self->reader, _sp_profile_get_sample_index (self));
}
/* Read by other threads (search) while a worker adds functions: the count
 * is published after the function is written (intern_function_at). */
guint sp_profile_get_n_functions (SpProfile *self) { return (guint) g_atomic_int_get ((gint *) &self->n_functions); }
const GPtrArray *sp_profile_get_symbol_problems (SpProfile *self) { return sp_symbolizer_get_problems (symbolizer_of (self)); }
const GArray *sp_profile_get_symbol_problem_details (SpProfile *self) { return sp_symbolizer_get_problem_details (symbolizer_of (self)); }
void sp_profile_set_symbol_cache (SpProfile *self, gboolean use) { sp_symbolizer_set_cache (symbolizer_of (self), use, NULL); }
void sp_profile_get_symbol_cache_stats (SpProfile *self, SpSymbolCacheStats *stats) { sp_symbolizer_get_cache_stats (symbolizer_of (self), stats); }
void sp_profile_save_symbol_cache (SpProfile *self) { sp_symbolizer_save_cache (symbolizer_of (self)); }

const SpFunction *
sp_profile_get_function (SpProfile *self,
                         guint32 function_id)
{
  return &self->function_blocks[function_id / FUNCTION_BLOCK_SIZE][function_id % FUNCTION_BLOCK_SIZE];
}

guint
sp_profile_get_n_threads (SpProfile *self)
{
  return (guint) sp_spool_reader_get_n_threads (self->reader);
}

void
sp_profile_get_thread (SpProfile *self,
                       guint thread,
                       gint32 *pid,
                       guint64 *tid)
{
  const SpThread *t = &sp_spool_reader_get_threads (self->reader)[thread];

  *pid = t->pid;
  *tid = t->tid;
}

const char *
sp_profile_get_thread_name (SpProfile *self,
                            guint64 tid)
{
  const char *name = g_hash_table_lookup (self->thread_names, &tid);

  return name != NULL ? name : g_hash_table_lookup (self->proc_names, &tid);
}

static void
forget_resolved_frames (SpProfile *self)
{
  g_array_set_size (self->frame_memo, 0);
  g_hash_table_remove_all (self->pid_frame_memo);
  g_array_set_size (self->function_ids, 0);
  g_clear_pointer (&self->skeleton, _sp_tree_skeleton_free);
}

/* Changing it forgets every resolved frame. */
void
sp_profile_set_inline_frames (SpProfile *self,
                              gboolean inline_frames)
{
  if (self->inline_frames == inline_frames)
    return;
  self->inline_frames = inline_frames;
  forget_resolved_frames (self);
}

void
sp_profile_reload_symbols (SpProfile *self)
{
  sp_symbolizer_forget_modules (symbolizer_of (self));
  forget_resolved_frames (self);
}

void
sp_profile_set_debuginfod (SpProfile *self,
                           SpSymbolizerDebuginfod mode,
                           SpSymbolizerFetchProgress progress,
                           gpointer user_data)
{
  sp_symbolizer_set_debuginfod (symbolizer_of (self), mode, progress, user_data);
}

const GArray *
sp_profile_get_missing_debug_info (SpProfile *self)
{
  return sp_symbolizer_get_missing_debug_info (symbolizer_of (self));
}

void
sp_profile_set_dwarf (SpProfile *self,
                      gboolean use_dwarf)
{
  sp_symbolizer_set_dwarf (symbolizer_of (self), use_dwarf);
}

SpTreeSkeleton **
_sp_profile_get_skeleton_slot (SpProfile *self)
{
  return &self->skeleton;
}

SpSymbolizer *
_sp_profile_get_symbolizer (SpProfile *self)
{
  return symbolizer_of (self);
}

static gpointer
ref_owner (gpointer profile)
{
  return sp_profile_ref (profile);
}

static void
unref_owner (gpointer profile)
{
  sp_profile_unref (profile);
}

SpSampleIndex *
_sp_profile_get_sample_index (SpProfile *self)
{
  /* A recording read whole is indexed over its reader; a followed one
   * copies what it needs, as its reader's tables still move. */
  if (self->sample_index == NULL)
    self->sample_index = sp_spool_reader_is_finished (self->reader)
                           ? sp_sample_index_new_over (self->reader, self, ref_owner, unref_owner)
                           : sp_sample_index_new ();
  sp_sample_index_update (self->sample_index, self->reader);
  return self->sample_index;
}

/* ---- Functions --------------------------------------------------------- */

/* A function is known by kind, module and name; where it is defined is
 * taken from the resolution that interns it (set once, before the
 * function is handed out, as another thread may be reading it). */
static guint32
intern_function_at (SpProfile *self,
                    const char *name,
                    const char *module,
                    SpFunctionKind kind,
                    const char *file,
                    guint line)
{
  g_autofree char *key = g_strdup_printf ("%d\x1f%s\x1f%s", kind, module, name);
  gpointer found = g_hash_table_lookup (self->function_index, key);
  SpFunction function;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  if (self->n_functions % FUNCTION_BLOCK_SIZE == 0)
    {
      g_assert (self->n_functions / FUNCTION_BLOCK_SIZE < MAX_FUNCTION_BLOCKS);
      self->function_blocks[self->n_functions / FUNCTION_BLOCK_SIZE] = g_new (SpFunction, FUNCTION_BLOCK_SIZE);
    }
  function.name = g_string_chunk_insert_const (self->strings, name);
  function.module = g_string_chunk_insert_const (self->strings, module);
  function.kind = kind;
  function.file = file != NULL ? g_string_chunk_insert_const (self->strings, file) : NULL;
  function.line = file != NULL ? line : 0;
  *(SpFunction *) sp_profile_get_function (self, self->n_functions) = function;
  /* A full barrier: a thread that sees the new count sees the function
   * (and its block) written. Only this thread writes the count. */
  g_atomic_int_set ((gint *) &self->n_functions, (gint) self->n_functions + 1);
  g_hash_table_insert (self->function_index, g_string_chunk_insert (self->strings, key),
                       GUINT_TO_POINTER (self->n_functions));
  return self->n_functions - 1;
}

char *
sp_function_get_location (const SpFunction *function)
{
  g_autofree char *base = NULL;

  if (function->file == NULL)
    return NULL;
  base = g_path_get_basename (function->file);
  if (function->line == 0)
    return g_steal_pointer (&base);
  return g_strdup_printf ("%s:%u", base, function->line);
}

guint32
sp_profile_intern_function (SpProfile *self,
                            const char *name,
                            const char *module,
                            SpFunctionKind kind)
{
  return intern_function_at (self, name, module, kind, NULL, 0);
}

GArray *
sp_profile_find_functions (SpProfile *self,
                           const char *name)
{
  GArray *found = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr (SpNameQuery) query = NULL;
  SpNameMatch best = SP_NAME_MATCH_NONE;

  if (name[0] == '\0')
    return found;
  query = sp_name_query_new (name);
  /* Only the best tier that matches any function: see sp-name-match.h. */
  for (guint32 i = 0; i < self->n_functions; i++)
    {
      SpNameMatch match = sp_name_query_match (query, sp_profile_get_function (self, i)->name);

      if (match == SP_NAME_MATCH_NONE || match > best)
        continue;
      if (match < best)
        g_array_set_size (found, 0);
      best = match;
      g_array_append_val (found, i);
    }
  return found;
}

/* ---- Frames ------------------------------------------------------------ */

static const char *
basename_of (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash != NULL && slash[1] != '\0' ? slash + 1 : path;
}

/* Anonymous and JIT code is named by /tmp/perf-PID.map, if anything. */
static gboolean
is_anonymous_path (const char *path)
{
  return path[0] == '\0' || g_str_has_prefix (path, "//anon") || g_str_has_prefix (path, "[anon")
         || g_str_has_prefix (path, "/memfd:") || g_str_has_prefix (path, "[heap]")
         || g_str_has_prefix (path, "[stack");
}

static void
append_function (SpProfile *self,
                 const char *name,
                 const char *module,
                 SpFunctionKind kind,
                 const SpSymbolFrame *symbol)
{
  guint32 id = intern_function_at (self, name, module, kind, symbol ? symbol->decl_file : NULL,
                                   symbol ? symbol->decl_line : 0);

  g_array_append_val (self->function_ids, id);
}

/* Appends the symbolized chain (innermost first) of one frame. */
static void
append_symbols (SpProfile *self,
                FrameMemo *memo,
                const SpSymbolFrame *symbols,
                guint n,
                const char *module,
                guint64 fallback_address,
                SpFunctionKind kind)
{
  guint first = self->inline_frames ? 0 : n - 1;

  for (guint i = first; i < n; i++)
    {
      if (symbols[i].function != NULL)
        append_function (self, symbols[i].function, module, kind, &symbols[i]);
      else
        {
          g_autofree char *name = g_strdup_printf ("%s+0x%" G_GINT64_MODIFIER "x",
                                                   module[0] ? module : "[unknown]", fallback_address);
          append_function (self, name, module, SP_FUNCTION_UNRESOLVED, NULL);
        }
    }
}

static void
resolve_frame (SpProfile *self,
               guint32 frame_id,
               gint32 pid,
               gboolean is_exact,
               FrameMemo *memo)
{
  const SpFrame *frame = &sp_spool_reader_get_frames (self->reader)[frame_id];
  SpSymbolFrame symbols[MAX_INLINE_DEPTH];
  guint32 module_id;
  guint64 rel_ip;
  guint n;

  memo->offset = self->function_ids->len;
  if (frame->mode == SP_FRAME_TRUNCATED)
    append_function (self, "[truncated stack]", "", SP_FUNCTION_TRUNCATED, NULL);
  else if (!sp_spool_reader_resolve_frame_module (self->reader, pid, frame_id, &module_id, &rel_ip))
    {
      n = sp_symbolizer_resolve_perf_map (symbolizer_of (self), pid, frame->abs_ip, symbols, MAX_INLINE_DEPTH);
      append_symbols (self, memo, symbols, n,
                      frame->mode == SP_FRAME_KERNEL ? "[kernel.kallsyms]" : "", frame->abs_ip,
                      frame->mode == SP_FRAME_KERNEL ? SP_FUNCTION_KERNEL : SP_FUNCTION_USER);
    }
  else
    {
      const SpModule *module = &sp_spool_reader_get_modules (self->reader)[module_id];
      const char *name = basename_of (module->path);
      guint64 unnamed_at = rel_ip;

      if (module->is_kernel)
        n = sp_symbolizer_resolve_kernel (symbolizer_of (self), frame->abs_ip, symbols, MAX_INLINE_DEPTH);
      else if (is_anonymous_path (module->path))
        n = sp_symbolizer_resolve_perf_map (symbolizer_of (self), module->pid, frame->abs_ip, symbols,
                                            MAX_INLINE_DEPTH);
      else if (module->path[0] == '[' && !g_str_equal (module->path, "[vdso]"))
        n = (symbols[0] = (SpSymbolFrame) { NULL, NULL, 0 }, 1);  /* [vsyscall] and the like */
      else
        {
          n = sp_symbolizer_resolve (symbolizer_of (self), module, rel_ip, !is_exact, symbols, MAX_INLINE_DEPTH);
          /* No name (a stripped file): the start of the function it is
           * in names it, so that one function's addresses are one row
           * and one frame, not one each. */
          if (n == 1 && symbols[0].function == NULL)
            sp_symbolizer_function_start (symbolizer_of (self), module, rel_ip, !is_exact, &unnamed_at);
        }
      append_symbols (self, memo, symbols, n, name, module->is_kernel ? frame->abs_ip : unnamed_at,
                      module->is_kernel ? SP_FUNCTION_KERNEL : SP_FUNCTION_USER);
    }
  memo->count = (guint16) (self->function_ids->len - memo->offset);
}

gboolean
sp_profile_frame_depends_on_pid (SpProfile *self,
                                 guint32 frame_id)
{
  gsize n_frames;

  /* Asked for every frame of every stack a tree is built from. */
  if (G_LIKELY (frame_id < self->pid_dependent_len && self->pid_dependent[frame_id] != 0))
    return self->pid_dependent[frame_id] == 2;
  n_frames = sp_spool_reader_get_n_frames (self->reader);
  if (self->pid_dependent_len < n_frames)
    {
      self->pid_dependent = g_realloc (self->pid_dependent, n_frames);
      memset (self->pid_dependent + self->pid_dependent_len, 0, n_frames - self->pid_dependent_len);
      self->pid_dependent_len = n_frames;
    }
  if (self->pid_dependent[frame_id] == 0)
    {
      const SpFrame *frame = &sp_spool_reader_get_frames (self->reader)[frame_id];
      gboolean depends = FALSE;

      /* Only a user frame without a module: the spool's module lookup and
       * the JIT map (/tmp/perf-PID.map) both go by the sample's pid. */
      depends = frame->module_id == SP_SPOOL_NO_ID && frame->mode == SP_FRAME_USER;
      self->pid_dependent[frame_id] = depends ? 2 : 1;
    }
  return self->pid_dependent[frame_id] == 2;
}

gboolean
sp_profile_frame_is_exact (SpProfile *self,
                           guint32 inner_frame_id,
                           guint32 frame_id)
{
  const SpFrame *frames = sp_spool_reader_get_frames (self->reader);

  return inner_frame_id == SP_SPOOL_NO_ID
         || (frames[inner_frame_id].mode == SP_FRAME_KERNEL && frames[frame_id].mode == SP_FRAME_USER);
}

static FrameMemo *
memo_for (SpProfile *self,
          guint32 frame_id,
          gint32 pid,
          gboolean is_exact)
{
  FrameMemo *memo;

  if (sp_profile_frame_depends_on_pid (self, frame_id))
    {
      gint64 key = (gint64) frame_id << 33 | (gint64) (guint32) pid << 1 | (is_exact ? 1 : 0);

      memo = g_hash_table_lookup (self->pid_frame_memo, &key);
      if (memo == NULL)
        {
          memo = g_new0 (FrameMemo, 1);
          g_hash_table_insert (self->pid_frame_memo, g_memdup2 (&key, sizeof key), memo);
        }
    }
  else
    {
      guint index = frame_id * 2 + (is_exact ? 1 : 0);

      if (index >= self->frame_memo->len)
        g_array_set_size (self->frame_memo, MAX (index + 1, self->frame_memo->len * 2));
      memo = &g_array_index (self->frame_memo, FrameMemo, index);
    }
  if (memo->count == 0)
    resolve_frame (self, frame_id, pid, is_exact, memo);
  return memo;
}

guint
sp_profile_get_frame_functions (SpProfile *self,
                                guint32 frame_id,
                                gint32 pid,
                                gboolean is_exact,
                                const guint32 **function_ids)
{
  FrameMemo *memo = memo_for (self, frame_id, pid, is_exact);

  *function_ids = &g_array_index (self->function_ids, guint32, memo->offset);
  return memo->count;
}

