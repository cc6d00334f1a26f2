/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-follow-spool.h: what the follow-mode tests know about a valid spool
 * without asking the reader under test, and the checks of a reader against
 * that knowledge.
 *
 * A small scanner finds every record boundary and counts the records before
 * it. A Cut says what a file cut at some offset holds: the complete records
 * before the cut. The assert_* functions hold a reader to a Cut, table by
 * table and field by field against the whole-file reading of the complete
 * spool (the format only appends, so a prefix parses to a prefix of every
 * table). */
#pragma once

#include <glib.h>

#include "sp-spool-reader.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SpSpoolReader, sp_spool_reader_free)

typedef struct {
  gsize modules;
  gsize frames;
  gsize stack_nodes;
  gsize threads;
  gsize samples;
  gsize execs;
} Counts;

/* A valid spool, its record map and its reading as a whole. */
typedef struct {
  char          *name;
  guint8        *data;
  gsize          len;
  gsize          header_len;
  GArray        *boundaries;   /* gsize: header end, then each record's end */
  GArray        *counts;       /* Counts at each boundary */
  SpSpoolReader *full;
  char          *full_dump;
} Spool;

/* What a file cut at `cut` holds. */
typedef struct {
  const Spool *spool;
  gsize        cut;
  gboolean     has_header;
  gboolean     at_boundary;    /* the cut file is a valid spool */
  gsize        boundary;       /* end of the last complete record, or 0 */
  Counts       counts;         /* of the records before `boundary` */
  char         label[96];      /* "valid-03 cut at 1234 of 14335" */
} Cut;

/* Says which case failed before the assertion prints the values. */
#define assert_cut_cmpuint(cut, a, op, b) \
  G_STMT_START { \
    if (!((a) op (b))) \
      g_test_message ("failing case: %s", (cut)->label); \
    g_assert_cmpuint (a, op, b); \
  } G_STMT_END

/* Files, all in one temporary folder. */
void tmp_dir_create (void);
void tmp_dir_clear (void);
void tmp_dir_remove (void);
char *tmp_path (const char *name);
void set_file (const char *path,
               const guint8 *data,
               gsize len);
void append_file (const char *path,
                  const guint8 *data,
                  gsize len);

char *dump_to_string (const SpSpoolReader *reader);
void assert_same_dump (const char *label,
                       const char *got,
                       const char *want);

/* Reads path, maps its records and reads it whole; it must be valid. */
Spool *spool_load (const char *name,
                   const char *path);
void spool_free (gpointer spool);
gsize n_records (const Spool *spool);
/* The offset where record `index` starts (n_records: the file's end). */
gsize record_start (const Spool *spool,
                    gsize index);
const Counts *counts_before (const Spool *spool,
                             gsize index);

void cut_init (Cut *cut,
               const Spool *spool,
               gsize offset);

Counts counts_of (const SpSpoolReader *reader);
void assert_counts (const Cut *cut,
                    const Counts *got,
                    const Counts *want);
/* The records of r are the first records of cut->spool->full. */
void assert_prefix_of_full (const Cut *cut,
                            const SpSpoolReader *r);
/* r holds exactly the complete records before the cut. */
void assert_records_before_cut (const Cut *cut,
                                const SpSpoolReader *r);
/* r holds every record of the complete spool. */
void assert_all_records (const Cut *cut,
                         const SpSpoolReader *r);
/* err reports the cut as an incomplete record where the cut one starts. */
void assert_tail_error (const Cut *cut,
                        const SpSpoolError *err);
