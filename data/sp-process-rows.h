/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-process-rows.h: a recording's processes, as the Processes view and
 * `stackpulse-report processes` list them.
 *
 * The threads' rows (sp-thread-rows.h) summed by pid, busiest first, with
 * the name of the main thread and, from the side file of a recording of
 * the whole system (-a), the command line and whether it is a kernel
 * thread. The idle task is no process: its samples are the side file's
 * idle_samples, apart. */
#pragma once

#include <glib.h>

#include "sp-filter.h"

G_BEGIN_DECLS

typedef struct {
  gint32    pid;
  char     *name;          /* the main thread's (another's until it is seen); NULL when unknown */
  char     *command_line;  /* the side file's; NULL when it has none */
  gboolean  kernel_thread;
  guint64   n_samples;
  guint64   cpu_ns;
  GArray   *threads;       /* the thread indexes (guint32, SpThreadRow.thread) */
} SpProcessRow;

/* The rows (SpProcessRow) of the thread rows that filter shows (NULL: all),
 * busiest first (then by pid); meta (the side file, may be NULL) gives the
 * command lines. *total: the samples of the rows (may be NULL). */
GArray *sp_process_rows_new (const GArray *thread_rows,
                             GKeyFile *meta,
                             const SpFilter *filter,
                             guint64 *total);

/* Whether meta says the recording is of the whole system (-a). */
gboolean sp_process_rows_system_wide (GKeyFile *meta);
/* The idle task's samples of a recording of the whole system (0 else). */
guint64 sp_process_rows_idle_samples (GKeyFile *meta);
/* The CPUs it sampled (the side file's cpus), 0 when it does not say. */
guint sp_process_rows_n_cpus (GKeyFile *meta);

G_END_DECLS
