/* SPDX-License-Identifier: GPL-3.0-or-later */
/* record-stacks.h: reading what a recording says about the workloads.
 *
 * Stacks are checked as text, leaf first, the way a person reads them:
 *
 *   "alpha_leaf;compute_alpha;worker_main;[libc.so.6]"
 *
 * Frames in a workload's module get the function name from the workload's
 * ELF symbol table (libelf); other frames show their module's file name in
 * brackets, "[kernel]", "[truncated]" or "?" (no module), and a run of equal
 * bracketed entries shows once. A frame-pointer chain holds return
 * addresses, which point just after the call: every frame but the first
 * user frame is looked up at rel_ip - 1. */
#pragma once

#include <glib.h>

#include "sp-spool-reader.h"

/* ---- Workload symbols ------------------------------------------------- */

typedef struct _SpElfSymbols SpElfSymbols;

/* The functions of the ELF file at path, in file-offset coordinates (the
 * spool's rel_ip). Fails the test if the file cannot be read. */
SpElfSymbols *sp_elf_symbols_load (const char *path);

void sp_elf_symbols_free (SpElfSymbols *symbols);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpElfSymbols, sp_elf_symbols_free)

const char *sp_elf_symbols_get_path (const SpElfSymbols *symbols);

/* The function containing file offset, or NULL. */
const char *sp_elf_symbols_lookup (const SpElfSymbols *symbols,
                                   guint64 offset);

/* The file-offset range [*start, *end) of the named function. */
gboolean sp_elf_symbols_find (const SpElfSymbols *symbols,
                              const char *name,
                              guint64 *start,
                              guint64 *end);

/* Whether offset is inside an executable section (.text, .plt, ...). */
gboolean sp_elf_symbols_in_code (const SpElfSymbols *symbols,
                                 guint64 offset);

/* ---- Stacks ------------------------------------------------------------- */

/* The description of stack stack_id of a sample in process pid; symbols
 * is a NULL-terminated list of the workloads to name functions in. */
char *sp_test_describe_stack (const SpSpoolReader *reader,
                              SpElfSymbols *const *symbols,
                              gint32 pid,
                              guint32 stack_id);

/* Whether stack_id's root-end frame is the truncated marker; fails the
 * test if the marker shows up anywhere else. */
gboolean sp_test_stack_ends_truncated (const SpSpoolReader *reader,
                                       guint32 stack_id);

/* Whether any frame of the spool is a kernel frame. */
gboolean sp_test_has_kernel_frames (const SpSpoolReader *reader);

/* The module id of the first module of pid mapping path, or -1. */
gint64 sp_test_find_module (const SpSpoolReader *reader,
                            gint32 pid,
                            const char *path);

/* Samples of thread tid (any process when pid is -1). */
gsize sp_test_count_samples (const SpSpoolReader *reader,
                             gint32 pid,
                             guint64 tid);

/* Samples of thread tid whose description contains path (e.g.
 * "alpha_leaf;compute_alpha;worker_main"); pid -1: any process. */
gsize sp_test_count_samples_with (const SpSpoolReader *reader,
                                  SpElfSymbols *const *symbols,
                                  gint32 pid,
                                  guint64 tid,
                                  const char *path);

/* The most frequent description among thread tid's samples, to say what
 * the recording did show when an expected path is missing. */
char *sp_test_most_common_stack (const SpSpoolReader *reader,
                                 SpElfSymbols *const *symbols,
                                 gint32 pid,
                                 guint64 tid);

/* ---- What the workloads report --------------------------------------- */

typedef struct {
  char    *name;
  gint32   pid;
  gint32   tid;
  guint64  cpu_ns;
} SpThreadReport;

/* The "thread NAME pid=P tid=T cpu_ns=N" lines of a workload's stdout. */
GPtrArray *sp_test_parse_thread_reports (const char *out);

/* The report of the thread named name in process pid (-1: any). */
const SpThreadReport *sp_test_find_report (GPtrArray *reports,
                                           const char *name,
                                           gint32 pid);

/* The id in the line "NAME ID" of a workload's --ready file ("main" for
 * the process id). Fails the test when there is no such line. */
gint32 sp_test_ready_id (const char *ready,
                         const char *name);

/* Checks that a thread's sample count fits its CPU time while sampled,
 * known to lie in [cpu_low_ns, cpu_high_ns], at frequency_hz: within a
 * wide band, since timer sampling loses and gains a few per second. */
void sp_test_assert_samples_fit_cpu (const char *name,
                                     gint32 tid,
                                     guint64 cpu_low_ns,
                                     guint64 cpu_high_ns,
                                     gsize n_samples,
                                     unsigned frequency_hz);

/* The same for a thread whose whole life was recorded. */
void sp_test_assert_plausible_samples (const SpThreadReport *report,
                                       gsize n_samples,
                                       unsigned frequency_hz);

/* The same for a recording whose recorder said it missed some samples
 * (lost in the rings, dropped when it fell behind: the side file's
 * lost_samples + dropped_samples, of every thread): the thread may lack
 * up to that many. */
void sp_test_assert_plausible_samples_missed (const SpThreadReport *report,
                                              gsize n_samples,
                                              unsigned frequency_hz,
                                              guint64 missed);
