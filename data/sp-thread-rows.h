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

G_BEGIN_DECLS

typedef struct {
  guint32  thread;      /* the thread index samples carry */
  gint32   pid;
  guint64  tid;
  char    *name;        /* from the side file or /proc; NULL when unknown */
  guint64  n_samples;
} SpThreadRow;

/* An array of SpThreadRow, by thread index (it clears the names). Called
 * by the profile's updating thread. */
GArray *sp_thread_rows_new (SpProfile *profile,
                            const SpSampleIndex *index);

/* Whether two lists show the same (a live update changes nothing). */
gboolean sp_thread_rows_equal (const GArray *a,
                               const GArray *b);

G_END_DECLS
