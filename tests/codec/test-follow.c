/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-follow.c: the reader's follow mode against the whole-file mode.
 *
 * The viewer follows a spool while the recorder writes it, so at any
 * moment the file may end anywhere: inside the header, inside a record, on
 * a record boundary. Every valid vector and a few spools from our own
 * writer are cut at (almost) every byte offset and read both ways: the
 * whole-file reader must reject a cut file unless the cut is on a record
 * boundary, and the follow reader must hold exactly the complete records
 * before the cut, pick up the rest when it is appended to the same file,
 * and report the cut as damage when following ends. Damage in the middle,
 * and a writer flushing while the reader follows, are checked as well.
 *
 * Record boundaries and counts come from a small scanner
 * (test-follow-spool.c), not from the reader under test; the writer's
 * spools from test-follow-gen.c. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "test-follow-gen.h"
#include "test-follow-spool.h"

/* Files up to this size are cut at every offset. The checks at one cut
 * read the file about four times, so that costs O(size^2): larger files
 * are cut in the header, at about STRIDED_CUTS offsets spread evenly, and
 * on and just after about STRIDED_CUTS record boundaries. */
#define ALL_OFFSETS_LIMIT   (24 * 1024)
#define STRIDED_CUTS        1500
/* Cuts per file that also compare dumps, and that append in small chunks. */
#define DUMP_CUTS           40
#define CHUNKED_CUTS        10

/* ---- One cut ------------------------------------------------------------ */

static void
check_whole_file (const Cut *cut,
                  const char *path)
{
  SpSpoolError err;
  g_autoptr (SpSpoolReader) whole = sp_spool_reader_open (path, &err);

  if (cut->at_boundary)
    {
      if (whole == NULL)
        g_test_message ("failing case: %s: %s", cut->label, err.message);
      g_assert_nonnull (whole);
      assert_records_before_cut (cut, whole);
    }
  else
    {
      if (whole != NULL)
        g_test_message ("failing case: %s", cut->label);
      g_assert_null (whole);
      assert_tail_error (cut, &err);
    }
}

/* Finishing on the cut file: damage unless it ends on a boundary, and the
 * records before the cut stay either way. */
static void
check_finish (const Cut *cut,
              const char *path)
{
  SpSpoolError err;
  g_autoptr (SpSpoolReader) reader = sp_spool_reader_open_follow (path, &err);
  gboolean ok;

  g_assert_nonnull (reader);
  ok = sp_spool_reader_finish (reader, &err);
  assert_cut_cmpuint (cut, ok, ==, cut->at_boundary);
  if (!ok)
    {
      assert_tail_error (cut, &err);
      g_assert_nonnull (sp_spool_reader_get_damage (reader));
      assert_tail_error (cut, sp_spool_reader_get_damage (reader));
    }
  else
    g_assert_null (sp_spool_reader_get_damage (reader));
  assert_records_before_cut (cut, reader);
}

/* The dump of the follow reader is the dump of the valid prefix. */
static void
check_prefix_dump (const Cut *cut,
                   const SpSpoolReader *follow)
{
  g_autofree char *prefix_path = tmp_path ("prefix.spool");
  g_autofree char *got = NULL;
  g_autofree char *want = NULL;
  g_autoptr (SpSpoolReader) whole = NULL;
  SpSpoolError err;

  if (!cut->has_header)
    return;
  set_file (prefix_path, cut->spool->data, cut->boundary);
  whole = sp_spool_reader_open (prefix_path, &err);
  g_assert_nonnull (whole);
  got = dump_to_string (follow);
  want = dump_to_string (whole);
  assert_same_dump (cut->label, got, want);
}

static void
update_ok (const Cut *cut,
           SpSpoolReader *reader)
{
  SpSpoolError err;

  if (!sp_spool_reader_update (reader, &err))
    {
      g_test_message ("failing case: %s: %s", cut->label, err.message);
      g_assert_not_reached ();
    }
  g_assert_null (sp_spool_reader_get_damage (reader));
}

static void
finish_ok (const Cut *cut,
           SpSpoolReader *reader)
{
  SpSpoolError err;

  if (!sp_spool_reader_finish (reader, &err))
    {
      g_test_message ("failing case: %s: %s", cut->label, err.message);
      g_assert_not_reached ();
    }
}

static void
check_cut (const Spool *spool,
           gsize offset,
           gboolean with_dumps)
{
  g_autofree char *path = tmp_path ("cut.spool");
  g_autoptr (SpSpoolReader) follow = NULL;
  SpSpoolError err;
  Counts have;
  Counts all;
  Cut cut;

  cut_init (&cut, spool, offset);
  set_file (path, spool->data, offset);
  check_whole_file (&cut, path);
  check_finish (&cut, path);

  follow = sp_spool_reader_open_follow (path, &err);
  g_assert_nonnull (follow);
  update_ok (&cut, follow);
  assert_records_before_cut (&cut, follow);
  if (with_dumps)
    check_prefix_dump (&cut, follow);

  append_file (path, spool->data + offset, spool->len - offset);
  update_ok (&cut, follow);
  assert_all_records (&cut, follow);
  if (with_dumps)
    {
      g_autofree char *got = dump_to_string (follow);

      assert_same_dump (cut.label, got, spool->full_dump);
    }
  finish_ok (&cut, follow);
  have = counts_of (follow);
  all = counts_of (spool->full);
  assert_counts (&cut, &have, &all);
}

/* The rest arrives in pieces of 1 to 64 bytes, an update after each. */
static void
check_chunked_append (const Spool *spool,
                      gsize offset)
{
  g_autofree char *path = tmp_path ("chunked.spool");
  g_autoptr (SpSpoolReader) follow = NULL;
  g_autofree char *got = NULL;
  SpSpoolError err;
  gsize len = offset;
  Cut cut;

  set_file (path, spool->data, offset);
  follow = sp_spool_reader_open_follow (path, &err);
  g_assert_nonnull (follow);
  do
    {
      gsize piece = (gsize) g_test_rand_int_range (1, 65);
      Counts have;

      piece = MIN (piece, spool->len - len);
      append_file (path, spool->data + len, piece);
      len += piece;
      cut_init (&cut, spool, len);
      g_strlcat (cut.label, " (chunked)", sizeof cut.label);
      update_ok (&cut, follow);
      assert_cut_cmpuint (&cut, sp_spool_reader_has_header (follow), ==, cut.has_header);
      assert_cut_cmpuint (&cut, sp_spool_reader_get_parsed_size (follow), ==, cut.boundary);
      have = counts_of (follow);
      assert_counts (&cut, &have, &cut.counts);
    }
  while (len < spool->len);

  assert_all_records (&cut, follow);
  got = dump_to_string (follow);
  assert_same_dump (cut.label, got, spool->full_dump);
  finish_ok (&cut, follow);
}

/* ---- Which cuts --------------------------------------------------------- */

/* The offsets to cut at, in order. */
static GArray *
choose_cuts (const Spool *spool)
{
  g_autofree guint8 *chosen = g_malloc0 (spool->len + 1);
  GArray *cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize stride = MAX (1, spool->len / STRIDED_CUTS);
  gsize record_stride = MAX (1, n_records (spool) / STRIDED_CUTS);

  if (spool->len <= ALL_OFFSETS_LIMIT)
    memset (chosen, 1, spool->len + 1);
  for (gsize offset = 0; offset <= spool->header_len + 64 && offset <= spool->len; offset++)
    chosen[offset] = 1;
  for (gsize offset = 0; offset <= spool->len; offset += stride)
    chosen[offset] = 1;
  for (gsize i = 0; i <= n_records (spool); i += record_stride)
    {
      gsize at = record_start (spool, i);

      chosen[at] = 1;
      chosen[MIN (at + 1, spool->len)] = 1;
    }
  chosen[spool->len] = 1;

  for (gsize offset = 0; offset <= spool->len; offset++)
    if (chosen[offset])
      g_array_append_val (cuts, offset);
  return cuts;
}

static void
test_cuts (gconstpointer data)
{
  const Spool *spool = data;
  g_autoptr (GArray) cuts = choose_cuts (spool);
  guint dump_every = MAX (1, cuts->len / DUMP_CUTS);
  guint chunked_every = MAX (1, cuts->len / CHUNKED_CUTS);

  for (guint i = 0; i < cuts->len; i++)
    {
      gsize offset = g_array_index (cuts, gsize, i);
      gboolean with_dumps = i % dump_every == 1 || offset == spool->header_len || offset == spool->len;

      check_cut (spool, offset, with_dumps);
      if (i % chunked_every == 3 || offset == 0)
        check_chunked_append (spool, offset);
    }
  g_test_message ("%s: %u cuts of %" G_GSIZE_FORMAT " bytes, %" G_GSIZE_FORMAT " records",
                  spool->name, cuts->len, spool->len, n_records (spool));
  tmp_dir_clear ();
}

/* ---- Reading a prefix of a whole file ------------------------------------ */

/* update_prefix on the whole file holds what the file cut there holds,
 * and is no damage; a second prefix and the finish then read the rest,
 * to the same dump as the whole-file reader. */
static void
test_prefix (gconstpointer data)
{
  const Spool *spool = data;
  g_autofree char *path = tmp_path ("prefix-whole.spool");
  g_autoptr (GArray) cuts = choose_cuts (spool);
  guint every = MAX (1, cuts->len / 60);

  set_file (path, spool->data, spool->len);
  for (guint i = 0; i < cuts->len; i += every)
    {
      gsize offset = g_array_index (cuts, gsize, i);
      gsize later = offset + (spool->len - offset) / 2;
      g_autoptr (SpSpoolReader) reader = NULL;
      g_autofree char *got = NULL;
      SpSpoolError err;
      Cut cut, later_cut;

      cut_init (&cut, spool, offset);
      cut_init (&later_cut, spool, later);
      reader = sp_spool_reader_open_follow (path, &err);
      g_assert_nonnull (reader);
      g_assert_true (sp_spool_reader_update_prefix (reader, offset, &err));
      g_assert_null (sp_spool_reader_get_damage (reader));
      assert_records_before_cut (&cut, reader);
      g_assert_true (sp_spool_reader_update_prefix (reader, later, &err));
      assert_records_before_cut (&later_cut, reader);
      finish_ok (&cut, reader);
      assert_all_records (&cut, reader);
      got = dump_to_string (reader);
      assert_same_dump (cut.label, got, spool->full_dump);
    }
  tmp_dir_clear ();
}

/* ---- Starting before the header ---------------------------------------- */

static void
check_finish_without_header (const char *path,
                             const char *message)
{
  SpSpoolError err;
  g_autoptr (SpSpoolReader) reader = sp_spool_reader_open_follow (path, &err);

  g_assert_nonnull (reader);
  g_assert_false (sp_spool_reader_finish (reader, &err));
  g_assert_cmpint (err.code, ==, SP_SPOOL_ERROR_TRUNCATED);
  g_assert_cmpuint (err.record_offset, ==, 0);
  g_assert_cmpstr (err.message, ==, message);
  g_assert_false (sp_spool_reader_has_header (reader));
  g_assert_cmpuint (sp_spool_reader_get_parsed_size (reader), ==, 0);
}

/* The recorder creates the file before the first flush: the viewer may
 * start on an empty file and see the header arrive byte by byte. */
static void
test_empty_start (gconstpointer data)
{
  const Spool *spool = data;
  g_autofree char *path = tmp_path ("empty.spool");
  g_autoptr (SpSpoolReader) follow = NULL;
  g_autofree char *got = NULL;
  SpSpoolError err;
  Cut cut;

  set_file (path, NULL, 0);
  check_finish_without_header (path, "failed to fill whole buffer");
  follow = sp_spool_reader_open_follow (path, &err);
  g_assert_nonnull (follow);
  cut_init (&cut, spool, 0);
  update_ok (&cut, follow);
  assert_records_before_cut (&cut, follow);

  for (gsize len = 1; len <= spool->header_len; len++)
    {
      append_file (path, spool->data + len - 1, 1);
      cut_init (&cut, spool, len);
      update_ok (&cut, follow);
      assert_records_before_cut (&cut, follow);
    }
  append_file (path, spool->data + spool->header_len, spool->len - spool->header_len);
  update_ok (&cut, follow);
  assert_all_records (&cut, follow);
  got = dump_to_string (follow);
  assert_same_dump (spool->name, got, spool->full_dump);
  finish_ok (&cut, follow);
}

/* A follower opened on every partial header, then given the rest. */
static void
test_partial_header (gconstpointer data)
{
  const Spool *spool = data;
  g_autofree char *path = tmp_path ("partial-header.spool");

  for (gsize len = 1; len < spool->header_len; len++)
    {
      g_autoptr (SpSpoolReader) follow = NULL;
      SpSpoolError err;
      Cut cut;

      set_file (path, spool->data, len);
      check_finish_without_header (path, len < 8 ? "failed to fill whole buffer" : "Reached EOF");
      follow = sp_spool_reader_open_follow (path, &err);
      g_assert_nonnull (follow);
      cut_init (&cut, spool, len);
      update_ok (&cut, follow);
      assert_records_before_cut (&cut, follow);
      append_file (path, spool->data + len, spool->len - len);
      update_ok (&cut, follow);
      assert_all_records (&cut, follow);
      finish_ok (&cut, follow);
    }
}

/* A wrong magic is damage as soon as its eight bytes are there. */
static void
test_bad_magic (gconstpointer data)
{
  const Spool *spool = data;
  g_autofree char *path = tmp_path ("bad-magic.spool");
  g_autofree guint8 *bytes = g_memdup2 (spool->data, spool->len);
  g_autoptr (SpSpoolReader) follow = NULL;
  SpSpoolError err;

  bytes[6] = '2';
  set_file (path, bytes, 4);
  follow = sp_spool_reader_open_follow (path, &err);
  g_assert_nonnull (follow);
  g_assert_true (sp_spool_reader_update (follow, &err));
  append_file (path, bytes + 4, spool->len - 4);
  g_assert_false (sp_spool_reader_update (follow, &err));
  g_assert_cmpint (err.code, ==, SP_SPOOL_ERROR_INVALID);
  g_assert_cmpuint (err.record_offset, ==, 0);
  g_assert_cmpstr (err.message, ==, "invalid stackpulse spool magic");
  g_assert_false (sp_spool_reader_has_header (follow));
  g_assert_false (sp_spool_reader_finish (follow, &err));
  g_assert_cmpstr (err.message, ==, "invalid stackpulse spool magic");
}

/* ---- Damage in the middle ----------------------------------------------- */

static void
assert_same_error (const Cut *cut,
                   const SpSpoolError *got,
                   const SpSpoolError *want)
{
  assert_cut_cmpuint (cut, got->code, ==, want->code);
  assert_cut_cmpuint (cut, got->record_offset, ==, want->record_offset);
  assert_cut_cmpuint (cut, got->offset, ==, want->offset);
  g_assert_cmpstr (got->message, ==, want->message);
}

static void
assert_damage (const Cut *cut,
               const SpSpoolError *err,
               const char *message)
{
  assert_cut_cmpuint (cut, err->code, ==, SP_SPOOL_ERROR_INVALID);
  assert_cut_cmpuint (cut, err->record_offset, ==, cut->boundary);
  assert_cut_cmpuint (cut, err->offset, >, err->record_offset);
  if (strcmp (err->message, message) != 0)
    g_test_message ("failing case: %s", cut->label);
  g_assert_cmpstr (err->message, ==, message);
}

/* bytes is the spool with record `index` broken so that the reader says
 * message. Whole-file mode rejects it; a follower keeps every record before
 * it, through later updates, more appended bytes, and finishing. */
static void
check_damaged_record (const Spool *spool,
                      const guint8 *bytes,
                      gsize index,
                      const char *message)
{
  g_autofree char *path = tmp_path ("damaged.spool");
  g_autoptr (SpSpoolReader) whole = NULL;
  g_autoptr (SpSpoolReader) follow = NULL;
  SpSpoolError err;
  SpSpoolError again;
  Cut cut;

  cut_init (&cut, spool, record_start (spool, index));
  g_snprintf (cut.label, sizeof cut.label, "%s damaged record %" G_GSIZE_FORMAT " at %" G_GSIZE_FORMAT,
              spool->name, index, cut.boundary);

  set_file (path, bytes, spool->len);
  whole = sp_spool_reader_open (path, &err);
  g_assert_null (whole);
  assert_damage (&cut, &err, message);

  set_file (path, bytes, cut.boundary);
  follow = sp_spool_reader_open_follow (path, &err);
  g_assert_nonnull (follow);
  update_ok (&cut, follow);
  assert_records_before_cut (&cut, follow);

  append_file (path, bytes + cut.boundary, spool->len - cut.boundary);
  g_assert_false (sp_spool_reader_update (follow, &err));
  assert_damage (&cut, &err, message);
  assert_records_before_cut (&cut, follow);
  g_assert_nonnull (sp_spool_reader_get_damage (follow));
  assert_same_error (&cut, sp_spool_reader_get_damage (follow), &err);

  g_assert_false (sp_spool_reader_update (follow, &again));
  assert_same_error (&cut, &again, &err);
  append_file (path, spool->data, spool->len);
  g_assert_false (sp_spool_reader_update (follow, &again));
  assert_same_error (&cut, &again, &err);
  assert_records_before_cut (&cut, follow);
  g_assert_false (sp_spool_reader_finish (follow, &again));
  assert_same_error (&cut, &again, &err);
  assert_records_before_cut (&cut, follow);
}

/* A sample's single-byte thread field set to 127, a thread not defined
 * yet: damage found in the middle of the record, not at its tag. */
static gboolean
break_sample_thread (const Spool *spool,
                     guint8 *bytes,
                     gsize index)
{
  gsize pos = record_start (spool, index);
  const Counts *before = counts_before (spool, index);

  if (bytes[pos] != 5 || before->threads >= 127)
    return FALSE;
  pos++;
  while (bytes[pos] & 0x80)
    pos++;
  pos++;
  if (bytes[pos] & 0x80)
    return FALSE;
  bytes[pos] = 127;
  return TRUE;
}

static void
test_invalid_record (gconstpointer data)
{
  const Spool *spool = data;
  gsize n = n_records (spool);
  gsize step = MAX (1, n / 12);
  g_autofree guint8 *bytes = g_memdup2 (spool->data, spool->len);

  for (gsize index = 0; index < n; index += step)
    {
      for (gsize i = index; i < n && i < index + 3; i++)
        {
          gsize at = record_start (spool, i);

          bytes[at] = 9;
          check_damaged_record (spool, bytes, i, "unknown spool record tag 9");
          bytes[at] = spool->data[at];
        }
    }
  bytes[record_start (spool, n - 1)] = 9;
  check_damaged_record (spool, bytes, n - 1, "unknown spool record tag 9");
  memcpy (bytes, spool->data, spool->len);

  for (gsize index = n / 2; index < n; index++)
    if (break_sample_thread (spool, bytes, index))
      {
        check_damaged_record (spool, bytes, index, "sample thread references missing id 127");
        break;
      }
  tmp_dir_clear ();
}

/* ---- A file cut from outside -------------------------------------------- */

/* The format only appends, but a file can still be cut from outside (a
 * recorder restarted on the same path truncates it). The reader already
 * reports a file shorter than what it parsed; bytes it has seen but not
 * parsed yet must not be read either once they are gone. These run in a
 * subprocess: reading a page past the end of a mapped file is SIGBUS. */
static void
check_shrunk (const guint8 *bytes,
              gsize len,
              gsize parsed,
              gsize shrunk)
{
  g_autofree char *path = tmp_path ("shrunk.spool");
  g_autoptr (SpSpoolReader) follow = NULL;
  SpSpoolError err;
  Counts before;
  Counts after;
  gboolean ok;

  set_file (path, bytes, len);
  follow = sp_spool_reader_open_follow (path, &err);
  g_assert_nonnull (follow);
  g_assert_true (sp_spool_reader_update (follow, &err));
  g_assert_cmpuint (sp_spool_reader_get_parsed_size (follow), ==, parsed);
  before = counts_of (follow);

  set_file (path, bytes, shrunk);
  ok = sp_spool_reader_update (follow, &err);
  after = counts_of (follow);
  g_assert_cmpuint (sp_spool_reader_get_parsed_size (follow), <=, shrunk);
  g_assert_cmpuint (after.execs, ==, before.execs);
  g_assert_cmpuint (after.samples, ==, before.samples);
  if (!ok)
    g_assert_cmpint (err.code, ==, SP_SPOOL_ERROR_INVALID);
}

/* A header, then an exec record cut inside its timestamp; the file is cut
 * back to two bytes into the record, above the parsed size. */
static void
test_shrunk_tail (void)
{
  static const guint8 bytes[] = "SPULSE1\0\0\0\x06\x85\x80\x80\x80";

  if (g_test_subprocess ())
    {
      check_shrunk (bytes, sizeof bytes - 1, 10, 12);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* A partial header, then the file is emptied. */
static void
test_shrunk_header (void)
{
  static const guint8 bytes[] = "SPULSE1\0\x80";

  if (g_test_subprocess ())
    {
      check_shrunk (bytes, sizeof bytes - 1, 0, 0);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* ---- A writer flushing while the reader follows -------------------------- */

typedef struct {
  Gen           *gen;
  SpSpoolReader *follow;
  char          *path;
  Counts         last;
} Recording;

/* Without a flush the file may end anywhere (the writer's buffer goes out
 * when it fills): whatever is there parses, and nothing goes away. */
static void
recording_update_unflushed (Recording *rec)
{
  SpSpoolError err;
  Counts now;

  g_assert_true (sp_spool_reader_update (rec->follow, &err));
  g_assert_cmpuint (sp_spool_reader_get_parsed_size (rec->follow), <=,
                    sp_spool_writer_get_size (gen_get_writer (rec->gen)));
  now = counts_of (rec->follow);
  g_assert_cmpuint (now.samples, >=, rec->last.samples);
  g_assert_cmpuint (now.modules, >=, rec->last.modules);
  g_assert_cmpuint (now.stack_nodes, >=, rec->last.stack_nodes);
  rec->last = now;
}

/* After a flush every record written so far is complete and parsed. */
static void
recording_flush_and_update (Recording *rec)
{
  SpSpoolWriter *writer = gen_get_writer (rec->gen);
  SpSpoolError err;
  Counts now;

  g_assert_true (sp_spool_writer_flush (writer, &err));
  g_assert_true (sp_spool_reader_update (rec->follow, &err));
  g_assert_true (sp_spool_reader_has_header (rec->follow));
  g_assert_cmpuint (sp_spool_reader_get_parsed_size (rec->follow), ==, sp_spool_writer_get_size (writer));
  now = counts_of (rec->follow);
  g_assert_cmpuint (now.samples, ==, gen_get_n_samples (rec->gen));
  g_assert_cmpuint (now.execs, ==, gen_get_n_execs (rec->gen));
  g_assert_cmpuint (now.modules, ==, gen_get_n_modules (rec->gen));
  g_assert_cmpuint (now.samples, >, rec->last.samples);
  rec->last = now;
}

/* The follower's tables equal a whole-file reading of the file as it is. */
static void
recording_compare_whole (Recording *rec)
{
  SpSpoolError err;
  Spool spool = { .name = (char *) "recording", .full = sp_spool_reader_open (rec->path, &err) };
  Cut cut = { .spool = &spool, .label = "recording" };
  Counts want;
  Counts have = counts_of (rec->follow);

  g_assert_nonnull (spool.full);
  want = counts_of (spool.full);
  assert_counts (&cut, &have, &want);
  assert_prefix_of_full (&cut, rec->follow);
  sp_spool_reader_free (spool.full);
}

static void
test_writer_flushing (void)
{
  Recording rec = { 0 };
  SpSpoolError err;
  g_autoptr (SpSpoolReader) whole = NULL;
  g_autofree char *got = NULL;
  g_autofree char *want = NULL;
  guint n_modules;

  rec.path = tmp_path ("recording.spool");
  rec.gen = gen_new (rec.path, 42);
  rec.follow = sp_spool_reader_open_follow (rec.path, &err);
  g_assert_nonnull (rec.follow);
  recording_update_unflushed (&rec);
  g_assert_false (sp_spool_reader_has_header (rec.follow));

  for (guint round = 0; round < 80; round++)
    {
      for (guint i = 0; i < 10 + round * 5; i++)
        gen_step (rec.gen);
      gen_sample (rec.gen);
      recording_update_unflushed (&rec);
      recording_flush_and_update (&rec);
      if (round % 20 == 0)
        recording_compare_whole (&rec);
    }

  /* A record handed over in pieces is not there until its last piece is. */
  n_modules = gen_get_n_modules (rec.gen);
  gen_long_path_module (rec.gen);
  recording_update_unflushed (&rec);
  g_assert_cmpuint (sp_spool_reader_get_n_modules (rec.follow), ==, n_modules);
  gen_sample (rec.gen);
  recording_flush_and_update (&rec);
  g_assert_cmpuint (sp_spool_reader_get_n_modules (rec.follow), ==, n_modules + 1);

  /* More threads than 16-bit indexes hold, while following. */
  for (guint round = 0; round < 7; round++)
    {
      gen_thread_flood (rec.gen, 10000);
      recording_update_unflushed (&rec);
      recording_flush_and_update (&rec);
    }
  g_assert_cmpuint (sp_spool_reader_get_n_threads (rec.follow), >, 70000);
  recording_compare_whole (&rec);

  gen_close (rec.gen);
  g_assert_true (sp_spool_reader_update (rec.follow, &err));
  g_assert_true (sp_spool_reader_finish (rec.follow, &err));
  whole = sp_spool_reader_open (rec.path, &err);
  g_assert_nonnull (whole);
  got = dump_to_string (rec.follow);
  want = dump_to_string (whole);
  assert_same_dump ("recording", got, want);
  sp_spool_reader_free (rec.follow);
  g_free (rec.path);
  tmp_dir_clear ();
}

/* ---- Setup ------------------------------------------------------------- */

static void
load_vectors (GPtrArray *spools)
{
  const char *dir = g_getenv ("SP_TEST_VECTORS");
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GDir) listing = NULL;
  g_autoptr (GError) error = NULL;
  const char *file;

  g_assert_nonnull (dir);
  listing = g_dir_open (dir, 0, &error);
  g_assert_no_error (error);
  while ((file = g_dir_read_name (listing)) != NULL)
    if (g_str_has_prefix (file, "valid-") && g_str_has_suffix (file, ".spool"))
      g_ptr_array_add (names, g_strndup (file, strlen (file) - strlen (".spool")));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  g_assert_cmpuint (names->len, >=, 8);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *base = g_strconcat (name, ".spool", NULL);
      g_autofree char *path = g_build_filename (dir, base, NULL);

      g_ptr_array_add (spools, spool_load (name, path));
    }
}

/* name, seed, events: ~3300 records (cut at every offset) and ~13000. */
static void
write_generated (GPtrArray *spools)
{
  static const struct { const char *name; guint32 seed; guint n_steps; } specs[] = {
    { "writer-1", 1, 150 },
    { "writer-2", 2, 500 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    {
      g_autofree char *file = g_strconcat (specs[i].name, ".spool", NULL);
      g_autofree char *path = tmp_path (file);

      gen_write_spool (path, specs[i].seed, specs[i].n_steps);
      g_ptr_array_add (spools, spool_load (specs[i].name, path));
      g_unlink (path);
    }
}

static void
add_spool_tests (const Spool *spool)
{
  g_autofree char *cuts = g_strdup_printf ("/codec/follow/cuts/%s", spool->name);
  g_autofree char *invalid = g_strdup_printf ("/codec/follow/invalid-record/%s", spool->name);

  g_autofree char *prefix = g_strdup_printf ("/codec/follow/prefix/%s", spool->name);

  g_test_add_data_func (cuts, spool, test_cuts);
  g_test_add_data_func (prefix, spool, test_prefix);
  if (n_records (spool) > 0)
    g_test_add_data_func (invalid, spool, test_invalid_record);
}

int
main (int argc,
      char **argv)
{
  g_autoptr (GPtrArray) spools = g_ptr_array_new_with_free_func (spool_free);
  const Spool *sample;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir_create ();

  load_vectors (spools);
  write_generated (spools);
  for (guint i = 0; i < spools->len; i++)
    add_spool_tests (g_ptr_array_index (spools, i));

  sample = g_ptr_array_index (spools, 2);
  g_test_add_data_func ("/codec/follow/empty-start", sample, test_empty_start);
  g_test_add_data_func ("/codec/follow/partial-header", sample, test_partial_header);
  g_test_add_data_func ("/codec/follow/bad-magic", sample, test_bad_magic);
  g_test_add_func ("/codec/follow/writer-flushing", test_writer_flushing);
  g_test_add_func ("/codec/follow/shrunk/tail", test_shrunk_tail);
  g_test_add_func ("/codec/follow/shrunk/header", test_shrunk_header);

  status = g_test_run ();
  tmp_dir_remove ();
  return status;
}
