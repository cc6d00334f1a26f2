/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-input.h: the perf.data a recording was converted from.
 *
 * stackpulse-record --input writes the side file's [input] group
 * (docs/PERF-DATA.md): the perf.data's path as it was given, perf's
 * version and command line, the event converted and the file's others,
 * and how many of its bytes were read. The summaries (stackpulse-report's
 * and the window's) say a converted recording came from there rather
 * than talk as if stackpulse-record had recorded it, and how another of
 * the file's events converts. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  char    *path;          /* the perf.data as given to the converter; "-": standard input */
  char    *event;         /* the event converted (perf's name), or NULL */
  char   **other_events;  /* the file's other events, NULL-terminated (empty when it has one) */
  char    *perf_version;  /* NULL when the file does not say */
  char    *perf_cmdline;  /* how perf was run, NULL when the file does not say */
  guint64  input_bytes;   /* bytes of the perf.data read (its records, not all of its header's sections) */
  guint64  file_size;     /* the perf.data's size now, when path is absolute and names a file; else 0 */
} SpPerfInput;

/* meta's [input] when it says format=perf.data; NULL otherwise (a live
 * recording, no side file). A relative path was the converter's, whose
 * folder is not known: only an absolute one is looked at for its size. */
SpPerfInput *sp_perf_input_new (GKeyFile *meta);

void sp_perf_input_free (SpPerfInput *input);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpPerfInput, sp_perf_input_free)

/* "perf.data /tmp/x.data (perf 6.1.187)", "a perf.data read from
 * standard input" */
char *sp_perf_input_describe_file (const SpPerfInput *input);

/* "the file's other events (page-faults) convert with stackpulse-record
 * --input /tmp/x.data --event NAME -o OUT.spool"; NULL when the file has
 * no other. path: the perf.data to name there (NULL: input's own path). */
char *sp_perf_input_other_events_hint (const SpPerfInput *input,
                                       const char *path);

G_END_DECLS
