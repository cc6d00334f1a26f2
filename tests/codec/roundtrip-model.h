/* SPDX-License-Identifier: GPL-3.0-or-later */
/* roundtrip-model.h: the seed's writer, module table and reader, restated.
 *
 * test-roundtrip.c runs every operation through the codec and through this
 * model, which is written from seed/spool.rs (PerfSpoolWriter, ModuleTable,
 * PerfSpoolReader) and SPOOL-FORMAT.md without calling the codec: plain
 * arrays and linear scans, so that it is obviously what the seed says. It
 * predicts the ids handed out, the bytes written and what a reader derives
 * from them. */
#pragma once

#include <glib.h>

#include "sp-spool-format.h"

#define MODEL_NEVER G_MAXUINT64

typedef struct {
  SpModule module;          /* path borrowed from the caller */
  gboolean active;          /* the module table's view */
  guint64  deactivated_at;  /* the reader's: frames defined before it, or NEVER */
  guint    op;              /* the operation that defined it */
} ModelModule;

typedef struct {
  SpFrame frame;            /* as the reader derives it from the record */
  gsize   module_limit;     /* modules defined before the frame */
  guint   op;
} ModelFrame;

typedef struct {
  guint64 timestamp_ns;
  guint32 thread;
  guint32 stack;
  gint32  pid;
  guint64 tid;
  guint   first;            /* into Model.written */
  guint   n_frames;
  guint   op;
} ModelSample;

typedef struct {
  GArray     *modules;      /* ModelModule, by id */
  GArray     *frames;       /* ModelFrame, by id */
  GArray     *nodes;        /* SpStackNode, by id */
  GArray     *threads;      /* SpThread, by id */
  GArray     *samples;      /* ModelSample */
  GArray     *execs;        /* SpProcessExec */
  GArray     *written;      /* SpFrame: every sample's frames as given, leaf first */
  GHashTable *frame_ids;    /* interning caches: key string -> id + 1 */
  GHashTable *stack_ids;
  GHashTable *thread_ids;
  guint64     epoch;        /* module context: bumped by MODULE, MODULE_DEACTIVATE */
  guint64     last_timestamp_ns;
  GByteArray *bytes;        /* the file the seed writer would write */
} Model;

void model_init (Model *model,
                 guint64 start_us,
                 guint64 interval_us);

void model_clear (Model *model);

/* ModuleTable::intern_module: the module's id, or SP_SPOOL_NO_ID. */
guint32 model_intern_module (Model *model,
                             const SpModule *module,
                             guint op);

/* ModuleTable::deactivate_process_modules. */
void model_deactivate (Model *model,
                       gint32 pid);

/* ModuleTable::clone_process_modules. */
void model_clone (Model *model,
                  gint32 parent,
                  gint32 child,
                  guint op);

/* ModuleTable::resolve_frame (user or kernel mode). */
SpFrame model_resolve (const Model *model,
                       gint32 pid,
                       guint64 addr,
                       SpFrameMode mode);

/* The frame a reader derives from the record of a written frame. */
SpFrame model_frame_as_read (const Model *model,
                             const SpFrame *frame);

/* NULL when the writer takes a sample at timestamp after one at last,
 * else the seed's message (newly allocated). */
char *model_delta_error (guint64 last,
                         guint64 timestamp);

/* PerfSpoolWriter::write_sample_frames: the stack id, SP_SPOOL_NO_ID for
 * no frames or when *error (newly allocated) says why it was refused. */
guint32 model_write_sample (Model *model,
                            guint64 timestamp_ns,
                            gint32 pid,
                            guint64 tid,
                            const SpFrame *frames,
                            gsize n_frames,
                            guint op,
                            char **error);

void model_write_exec (Model *model,
                       guint64 timestamp_ns,
                       gint32 pid,
                       gboolean is_python);

/* PerfSpoolReader::module_for_frame, for a sample of pid. */
gboolean model_reader_resolve (const Model *model,
                               gint32 pid,
                               guint32 frame_id,
                               guint32 *module_id,
                               guint64 *rel_ip);
