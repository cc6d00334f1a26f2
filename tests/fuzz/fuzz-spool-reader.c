/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fuzz-spool-reader.c: libFuzzer target for the spool reader.
 *
 * The viewer opens spools from anywhere, and the recorder's output may be
 * cut or damaged, so the reader must survive any bytes. Each input is read
 * three ways: whole-file, followed in one update and finished, and followed
 * while it grows in three pieces. Beyond "no crash, no sanitizer report"
 * the three must agree: the same verdict, the same damage, the same
 * records (whole-file mode has none when it rejects), and tables whose ids
 * and depths hold together. Accepted files, and the records kept from
 * damaged ones (what the viewer shows), are dumped to /dev/null. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sp-spool-dump.h"
#include "sp-spool-reader.h"

/* Dumps repeat each sample's whole stack and scan the modules for every
 * frame without one: inputs of a few KB can ask for billions of steps. */
#define DUMP_BUDGET (UINT64_C (1) << 24)

#define CHECK(cond) \
  do { \
    if (!(cond)) \
      { \
        fprintf (stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #cond); \
        abort (); \
      } \
  } while (0)

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static int spool_fd = -1;
static char spool_path[64];
static FILE *dev_null;

/* The input lives in a memfd that the reader opens by path. */
static void
setup (void)
{
  if (spool_fd >= 0)
    return;
  spool_fd = memfd_create ("fuzz-spool", MFD_CLOEXEC);
  CHECK (spool_fd >= 0);
  snprintf (spool_path, sizeof spool_path, "/proc/self/fd/%d", spool_fd);
  dev_null = fopen ("/dev/null", "w");
  CHECK (dev_null != NULL);
}

static void
set_size (size_t size)
{
  CHECK (ftruncate (spool_fd, (off_t) size) == 0);
}

static void
put_bytes (const uint8_t *data,
           size_t from,
           size_t to)
{
  while (from < to)
    {
      ssize_t n = pwrite (spool_fd, data + from, to - from, (off_t) from);

      CHECK (n > 0);
      from += (size_t) n;
    }
}

/* ---- Invariants --------------------------------------------------------- */

static void
check_frames (const SpSpoolReader *r)
{
  const SpModule *modules = sp_spool_reader_get_modules (r);
  const SpFrame *frames = sp_spool_reader_get_frames (r);
  size_t n_modules = sp_spool_reader_get_n_modules (r);

  for (size_t i = 0; i < sp_spool_reader_get_n_frames (r); i++)
    {
      const SpFrame *f = &frames[i];

      if (f->mode == SP_FRAME_TRUNCATED)
        CHECK (f->module_id == SP_SPOOL_NO_ID && f->rel_ip == 0 && f->abs_ip == 0);
      else if (f->module_id == SP_SPOOL_NO_ID)
        CHECK (f->rel_ip == f->abs_ip);
      else
        {
          const SpModule *m;

          CHECK (f->module_id < n_modules);
          m = &modules[f->module_id];
          CHECK (f->rel_ip >= m->file_offset && m->end >= m->start);
          CHECK (f->rel_ip - m->file_offset < m->end - m->start);
          CHECK (f->abs_ip == m->start + (f->rel_ip - m->file_offset));
          CHECK (f->mode == (m->is_kernel ? SP_FRAME_KERNEL : SP_FRAME_USER));
        }
    }
}

/* References point backwards; a node is one deeper than its prefix. */
static void
check_stacks_and_samples (const SpSpoolReader *r)
{
  const SpStackNode *nodes = sp_spool_reader_get_stack_nodes (r);
  size_t n_nodes = sp_spool_reader_get_n_stack_nodes (r);

  for (size_t i = 0; i < n_nodes; i++)
    {
      CHECK (nodes[i].frame_id < sp_spool_reader_get_n_frames (r));
      if (nodes[i].prefix == SP_SPOOL_NO_ID)
        CHECK (nodes[i].depth == 1);
      else
        {
          CHECK (nodes[i].prefix < i);
          CHECK (nodes[i].depth == nodes[nodes[i].prefix].depth + 1);
        }
    }
  for (size_t i = 0; i < sp_spool_reader_get_n_samples (r); i++)
    {
      SpSample sample;

      sp_spool_reader_get_sample (r, i, &sample);
      CHECK (sample.thread < sp_spool_reader_get_n_threads (r));
      CHECK (sample.stack < n_nodes);
      CHECK (sample.timestamp_ns == sp_spool_reader_get_sample_timestamp (r, i));
      CHECK (sample.stack == sp_spool_reader_get_sample_stacks (r)[i]);
    }
}

/* A lookup finds a module defined before the frame, of the right kind. */
static void
check_resolution (const SpSpoolReader *r)
{
  const SpModule *modules = sp_spool_reader_get_modules (r);
  const SpFrame *frames = sp_spool_reader_get_frames (r);
  const SpThread *threads = sp_spool_reader_get_threads (r);
  int32_t pid = sp_spool_reader_get_n_threads (r) > 0 ? threads[0].pid : -1;

  for (size_t i = 0; i < sp_spool_reader_get_n_frames (r); i++)
    {
      uint32_t module_id;
      uint64_t rel_ip;

      if (!sp_spool_reader_resolve_frame_module (r, pid, (uint32_t) i, &module_id, &rel_ip))
        {
          CHECK (frames[i].module_id == SP_SPOOL_NO_ID);
          continue;
        }
      CHECK (module_id < sp_spool_reader_get_n_modules (r));
      if (frames[i].module_id != SP_SPOOL_NO_ID)
        CHECK (module_id == frames[i].module_id && rel_ip == frames[i].rel_ip);
      else
        CHECK (frames[i].abs_ip >= modules[module_id].start && frames[i].abs_ip < modules[module_id].end);
    }
}

/* The dump's cost, roughly: one line per frame of every sample, each
 * scanning the modules. */
static uint64_t
dump_cost (const SpSpoolReader *r)
{
  const SpStackNode *nodes = sp_spool_reader_get_stack_nodes (r);
  const uint32_t *stacks = sp_spool_reader_get_sample_stacks (r);
  uint64_t lines = sp_spool_reader_get_n_frames (r) + sp_spool_reader_get_n_modules (r);

  for (size_t i = 0; i < sp_spool_reader_get_n_samples (r); i++)
    lines += nodes[stacks[i]].depth;
  return lines * (1 + sp_spool_reader_get_n_modules (r));
}

static void
check_reader (const SpSpoolReader *r)
{
  uint64_t lookups = (uint64_t) sp_spool_reader_get_n_frames (r) * (1 + sp_spool_reader_get_n_modules (r));

  check_frames (r);
  check_stacks_and_samples (r);
  if (lookups <= DUMP_BUDGET)
    check_resolution (r);
  if (dump_cost (r) <= DUMP_BUDGET)
    CHECK (sp_spool_dump (r, dev_null));
}

/* ---- Three readings ----------------------------------------------------- */

typedef struct {
  size_t n[6];
} Counts;

static Counts
counts_of (const SpSpoolReader *r)
{
  Counts c = { {
    sp_spool_reader_get_n_modules (r),
    sp_spool_reader_get_n_frames (r),
    sp_spool_reader_get_n_stack_nodes (r),
    sp_spool_reader_get_n_threads (r),
    sp_spool_reader_get_n_samples (r),
    sp_spool_reader_get_n_process_execs (r),
  } };

  return c;
}

static void
check_same_error (const SpSpoolError *a,
                  const SpSpoolError *b)
{
  CHECK (a->code == b->code);
  CHECK (a->record_offset == b->record_offset);
  CHECK (a->offset == b->offset);
  CHECK (strcmp (a->message, b->message) == 0);
}

/* The input grows in three pieces, an update after each; the cut points
 * come from the input, so that mutations move them. */
static SpSpoolReader *
follow_in_pieces (const uint8_t *data,
                  size_t size,
                  bool *ok,
                  SpSpoolError *err)
{
  uint32_t hash = 2166136261u;
  size_t cuts[3];
  SpSpoolReader *r;

  for (size_t i = 0; i < size; i++)
    hash = (hash ^ data[i]) * 16777619u;
  cuts[0] = size == 0 ? 0 : hash % (size + 1);
  cuts[1] = size == 0 ? 0 : cuts[0] + (hash >> 16) % (size - cuts[0] + 1);
  cuts[2] = size;

  set_size (0);
  r = sp_spool_reader_open_follow (spool_path, err);
  CHECK (r != NULL);
  *ok = true;
  for (size_t i = 0; i < 3; i++)
    {
      put_bytes (data, i == 0 ? 0 : cuts[i - 1], cuts[i]);
      *ok = sp_spool_reader_update (r, err) && *ok;
      CHECK (sp_spool_reader_get_parsed_size (r) <= cuts[i]);
    }
  *ok = sp_spool_reader_finish (r, err) && *ok;
  return r;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t size)
{
  SpSpoolError whole_err, follow_err, pieces_err, update_err;
  SpSpoolReader *whole, *follow, *pieces;
  bool updated, finished, pieces_ok;
  Counts follow_counts;

  setup ();
  set_size (0);
  put_bytes (data, 0, size);

  whole = sp_spool_reader_open (spool_path, &whole_err);
  follow = sp_spool_reader_open_follow (spool_path, &follow_err);
  CHECK (follow != NULL);
  updated = sp_spool_reader_update (follow, &update_err);
  finished = sp_spool_reader_finish (follow, &follow_err);
  follow_counts = counts_of (follow);

  /* Both agree whether the file is valid; following keeps what it read. */
  CHECK ((whole != NULL) == finished);
  CHECK (!finished || updated);
  if (whole != NULL)
    {
      Counts whole_counts = counts_of (whole);

      CHECK (memcmp (&whole_counts, &follow_counts, sizeof (Counts)) == 0);
      CHECK (sp_spool_reader_get_parsed_size (whole) == size);
      check_reader (whole);
    }
  else
    {
      CHECK (whole_err.code == SP_SPOOL_ERROR_TRUNCATED || whole_err.code == SP_SPOOL_ERROR_INVALID);
      check_same_error (&whole_err, &follow_err);
      CHECK (sp_spool_reader_get_damage (follow) != NULL);
      check_same_error (sp_spool_reader_get_damage (follow), &follow_err);
      /* Damage from an update is final; otherwise the tail was cut. */
      if (!updated)
        check_same_error (&update_err, &follow_err);
      else
        CHECK (follow_err.code == SP_SPOOL_ERROR_TRUNCATED);
      CHECK (sp_spool_reader_get_parsed_size (follow) == follow_err.record_offset);
      CHECK (follow_err.record_offset <= follow_err.offset && follow_err.offset <= size);
    }
  check_reader (follow);

  /* Growing in pieces changes nothing. */
  pieces = follow_in_pieces (data, size, &pieces_ok, &pieces_err);
  CHECK (pieces_ok == finished);
  if (!finished)
    check_same_error (&pieces_err, &follow_err);
  {
    Counts pieces_counts = counts_of (pieces);

    CHECK (memcmp (&pieces_counts, &follow_counts, sizeof (Counts)) == 0);
  }
  CHECK (sp_spool_reader_get_parsed_size (pieces) == sp_spool_reader_get_parsed_size (follow));

  sp_spool_reader_free (pieces);
  sp_spool_reader_free (follow);
  sp_spool_reader_free (whole);
  return 0;
}
