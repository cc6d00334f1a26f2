/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-profile.h: a recording as the views see it.
 *
 * Wraps the codec's reader (whole file, or following a growing file) and
 * the side file, and turns raw frames into functions: each frame, as a
 * stack leaf or as a caller, becomes its chain of (inlined) functions,
 * resolved once and memoized. Functions are interned by (module, name), so
 * aggregation works on small integers. One thread (the analysis worker,
 * sp-analysis.h) updates and aggregates a profile at a time; another
 * thread may meanwhile read only the functions a finished tree or list
 * names (they never move, and were whole when it was handed over).
 * Everything else the main thread needs comes as immutable copies. */
#pragma once

#include <glib.h>

#include "sp-spool-reader.h"
#include "sp-symbolizer.h"
#include "sp-thread-states.h"

G_BEGIN_DECLS

typedef enum {
  SP_FUNCTION_USER,        /* in the program or a library */
  SP_FUNCTION_KERNEL,
  SP_FUNCTION_UNRESOLVED,  /* "module+0x1f0" or "[unknown]" */
  SP_FUNCTION_TRUNCATED,   /* the truncated-stack marker */
  SP_FUNCTION_SYNTHETIC,   /* made by a transform, e.g. a collapsed module */
} SpFunctionKind;

typedef struct {
  const char     *name;    /* demangled function name, or a stand-in */
  const char     *module;  /* the module's file name ("libc.so.6"), "" for none */
  SpFunctionKind  kind;
  const char     *file;    /* the source file defining it (DWARF), NULL when unknown */
  guint           line;    /* the line there, 0 when unknown */
} SpFunction;

typedef struct _SpProfile SpProfile;

/* Reads the whole file. A damaged file still opens, with every record
 * before the damage (sp_profile_get_damage says what is wrong); a file
 * that cannot be read at all, or is no spool (empty, a perf.data, a
 * program, text…: the error says which), fails. */
SpProfile *sp_profile_open (const char *path,
                            GError **error);

/* sp_profile_open without the reading, for options to be set first; then
 * sp_profile_finish or sp_profile_finish_resolving_ahead. */
SpProfile *sp_profile_open_unread (const char *path,
                                   GError **error);

/* Opens a spool that is still being written (it may still be empty);
 * call sp_profile_update. */
SpProfile *sp_profile_open_follow (const char *path,
                                   GError **error);

/* Parses what was appended (and re-reads a changed side file). Returns
 * FALSE once the file is found damaged. */
gboolean sp_profile_update (SpProfile *self);

/* The followed spool is being recorded on this machine now: until the
 * side file names a thread, its name comes from /proc (updates, until
 * sp_profile_finish). */
void sp_profile_set_recorded_here (SpProfile *self);

/* Ends following: an incomplete tail becomes damage. */
void sp_profile_finish (SpProfile *self);

/* sp_profile_finish for a recording opened with sp_profile_open_unread
 * (or _follow) and not read yet, whose frames are then resolved: the user frames of
 * the spool's start are resolved on a second thread while the rest is
 * read (their modules' symbols and DWARF read in the meantime). Set the
 * symbol options (inline frames, DWARF, symbol cache, debuginfod) first. */
void sp_profile_finish_resolving_ahead (SpProfile *self);

/* Waits until the frames resolved ahead are all resolved (anything that
 * needs the symbolizer rather stops that at the frame in hand): for tests
 * and benchmarks. */
void sp_profile_wait_for_resolving_ahead (SpProfile *self);

/* Reference-counted: every view and result that names the profile's
 * functions holds a reference, so no teardown order is needed. */
SpProfile *sp_profile_ref (SpProfile *self);
void sp_profile_unref (SpProfile *self);

const char *sp_profile_get_path (SpProfile *self);
const char *sp_profile_get_damage (SpProfile *self);
const SpSpoolReader *sp_profile_get_reader (SpProfile *self);
/* The side file, or NULL when there is none. */
GKeyFile *sp_profile_get_meta (SpProfile *self);
/* Why the side file there is was not read (not a regular file, too
 * large, damaged), with its path; NULL when it was, or there is none. */
const char *sp_profile_get_meta_problem (SpProfile *self);

/* Whether the recording has an off-CPU companion that is read
 * (PATH.offcpu, read with the spool: docs/OFF-CPU.md): one with its
 * SPOFF1 header that belongs to this spool and its side file. */
gboolean sp_profile_has_off_cpu (SpProfile *self);
/* What is wrong with the companion, as one sentence that says what is
 * used: missing although the side file says --off-cpu, not a companion,
 * not this recording's (then it is not read), damaged or cut short (what
 * comes before is read). The spool itself is not affected. NULL when
 * nothing is wrong. */
const char *sp_profile_get_off_cpu_problem (SpProfile *self);
/* The same (its first name, from when only damage was said). */
const char *sp_profile_get_off_cpu_damage (SpProfile *self);
/* The first and last time (ns, the samples' clock) of the companion's
 * records; FALSE without any. */
gboolean sp_profile_get_off_cpu_span (SpProfile *self,
                                      guint64 *first_ns,
                                      guint64 *last_ns);
/* Each thread's running, blocked and runnable intervals and totals, from
 * the companion as read so far (thread indexes as samples carry them);
 * NULL without a companion. For the updating thread: valid until its
 * next update (take a reference to keep them; they never change). */
SpThreadStates *sp_profile_get_thread_states (SpProfile *self);

/* With inline frames off, a frame is only its outermost function. */
void sp_profile_set_inline_frames (SpProfile *self,
                                   gboolean inline_frames);

/* With FALSE, functions come from symbol tables only (no inline frames, no
 * source lines): much less to read where debug info is large. Set it
 * before anything is resolved. */
void sp_profile_set_dwarf (SpProfile *self,
                           gboolean use_dwarf);

/* How modules without debug info use debuginfod (sp-symbolizer.h's
 * SpSymbolizerDebuginfod: by default, only what earlier fetches left in
 * the cache). Set it before anything is resolved. */
void sp_profile_set_debuginfod (SpProfile *self,
                                SpSymbolizerDebuginfod mode,
                                SpSymbolizerFetchProgress progress,
                                gpointer user_data);

/* The modules whose debug file a debuginfod server may have
 * (SpMissingDebugInfo); the updating thread's, like the symbol problems. */
const GArray *sp_profile_get_missing_debug_info (SpProfile *self);

/* Resolves every frame again from the module files (and their debug
 * files, which a fetch may have brought meanwhile). Functions already
 * interned stay (a tree may name them); frames resolve to new ones. */
void sp_profile_reload_symbols (SpProfile *self);

guint sp_profile_get_n_functions (SpProfile *self);
const SpFunction *sp_profile_get_function (SpProfile *self,
                                           guint32 function_id);

/* Where function is defined, as "parser.c:120" (the file's base name and
 * the line), or NULL when unknown; newly allocated. */
char *sp_function_get_location (const SpFunction *function);

/* Interns a function (transforms make synthetic ones). */
guint32 sp_profile_intern_function (SpProfile *self,
                                    const char *name,
                                    const char *module,
                                    SpFunctionKind kind);

/* Function ids whose name matches name, in the best tier any does
 * (sp-name-match.h: exactly, then the last path component, then without
 * a compiler suffix, then as a substring); none for an empty name. The
 * array is newly allocated. */
GArray *sp_profile_find_functions (SpProfile *self,
                                   const char *name);

/* Whether a frame's address is the instruction that ran (exact), not a
 * return address (whose call is the instruction before it): the stack's
 * leaf (inner_frame_id SP_SPOOL_NO_ID), and a user frame right under a
 * kernel frame, whose address is the user registers' ip (the instruction
 * a fault, an interrupt or a system call stopped at), as perf takes it.
 * inner_frame_id: the frame just inside it, nearer the leaf. */
gboolean sp_profile_frame_is_exact (SpProfile *self,
                                    guint32 inner_frame_id,
                                    guint32 frame_id);

/* The functions of frame_id as sample of pid sees it, innermost (inlined)
 * first; is_exact (sp_profile_frame_is_exact) says whether its address
 * is the instruction that ran (the leaf), not a return address. */
guint sp_profile_get_frame_functions (SpProfile *self,
                                      guint32 frame_id,
                                      gint32 pid,
                                      gboolean is_exact,
                                      const guint32 **function_ids);

/* Whether what a frame resolves to depends on the sample's pid: a user
 * frame without a module (SPOOL-FORMAT.md's lookup, JIT maps). */
gboolean sp_profile_frame_depends_on_pid (SpProfile *self,
                                          guint32 frame_id);

/* The recording's threads (index = the thread index samples carry); for
 * the updating thread (others get SpThreadRow copies, sp-thread-rows.h). */
guint sp_profile_get_n_threads (SpProfile *self);
void sp_profile_get_thread (SpProfile *self,
                            guint thread,
                            gint32 *pid,
                            guint64 *tid);

/* A thread's name from the side file, or NULL; see
 * sp_profile_set_recorded_here. */
const char *sp_profile_get_thread_name (SpProfile *self,
                                        guint64 tid);

/* Problems met while resolving frames (missing files, no symbols). */
const GPtrArray *sp_profile_get_symbol_problems (SpProfile *self);
/* The same with their kind and file (SpSymbolProblem, sp-symbolizer.h);
 * the updating thread's, like the function memos: another thread copies
 * them there (sp_symbol_problems_copy). */
const GArray *sp_profile_get_symbol_problem_details (SpProfile *self);

/* Whether frames are resolved through the persistent symbol cache (the
 * default; docs/SYMBOL-CACHE.md). Before the first frame is resolved. */
void sp_profile_set_symbol_cache (SpProfile *self,
                                  gboolean use);
/* How the persistent symbol cache served the frames resolved so far
 * (docs/SYMBOL-CACHE.md); the updating thread's. */
void sp_profile_get_symbol_cache_stats (SpProfile *self,
                                        SpSymbolCacheStats *stats);
/* Writes the addresses resolved from the module files since the last
 * save to the symbol cache (freeing the profile does too): in the
 * updating thread, once a recording is read. */
void sp_profile_save_symbol_cache (SpProfile *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpProfile, sp_profile_unref)

G_END_DECLS
