/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-thread-rows.h: the recording's threads, as the views list them.
 *
 * Made by the thread that updates the profile, then immutable: the thread
 * list and the timeline's lanes read these instead of the growing reader
 * and the side file's names. */
#pragma once

#include <glib.h>

#include "sp-profile.h"
#include "sp-sample-index.h"
#include "sp-thread-states.h"

G_BEGIN_DECLS

typedef struct {
  guint32  thread;      /* the thread index samples carry */
  gint32   pid;
  guint64  tid;
  char    *name;        /* from the side file or /proc; NULL when unknown */
  guint64  n_samples;
  /* Samples and times in the rows' time range. With the off-CPU companion's states
   * (has_states) cpu_ns is the measured running time; without, samples
   * times the sampling interval (an estimate) and the rest stays 0. */
  gboolean has_states;
  gboolean cpu_estimated; /* cpu_ns is samples x interval (no states: the
                           * off-CPU columns may then be the side file's) */
  guint64  cpu_ns;
  guint64  blocked_ns;
  guint64  runnable_ns;
  guint64  switches;    /* switch-outs */
} SpThreadRow;

/* An array of SpThreadRow, by thread index (it clears the names), for
 * the samples with from_ns <= time < to_ns and the part of each state
 * interval inside (0, G_MAXUINT64: all); states may be NULL. Called by
 * the profile's updating thread. */
GArray *sp_thread_rows_new (SpProfile *profile,
                            const SpSampleIndex *index,
                            const SpThreadStates *states,
                            guint64 from_ns,
                            guint64 to_ns);

/* The same from the profile's own sample index and thread states, for
 * its updating thread (the report). */
GArray *sp_thread_rows_of_profile (SpProfile *profile,
                                   guint64 from_ns,
                                   guint64 to_ns);

/* Whether rows has the side file's per-thread off-CPU totals (the
 * companion missing or set aside) rather than thread states. */
gboolean sp_thread_rows_from_side_file (const GArray *rows);

/* Off-CPU (blocked + runnable) and wall-clock (cpu + off-CPU) time. */
guint64 sp_thread_row_get_off_cpu_ns (const SpThreadRow *row);
guint64 sp_thread_row_get_wall_ns (const SpThreadRow *row);

/* Whether two lists show the same (a live update changes nothing). */
gboolean sp_thread_rows_equal (const GArray *a,
                               const GArray *b);

G_END_DECLS
