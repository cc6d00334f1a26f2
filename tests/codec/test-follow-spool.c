/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-follow-spool.c: record maps of valid spools and the checks of a
 * reader against them, for test-follow.c. */
#include "test-follow-spool.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sp-spool-dump.h"

static char *tmp_dir;

/* ---- Files ------------------------------------------------------------ */

void
tmp_dir_create (void)
{
  g_autoptr (GError) error = NULL;

  tmp_dir = g_dir_make_tmp ("sp-test-follow-XXXXXX", &error);
  g_assert_no_error (error);
}

char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static void
write_all (int fd,
           const guint8 *data,
           gsize len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);

      if (n < 0 && errno == EINTR)
        continue;
      g_assert_cmpint (n, >, 0);
      data += n;
      len -= (gsize) n;
    }
}

/* Rewrites path in place: O_TRUNC on a file with data would make ext4
 * write it out at close (auto_da_alloc), at a cost far above the rest of a
 * check, so the new bytes go over the old ones and the file is cut after.
 * No rename either: a follower keeps its descriptor on the file. */
void
set_file (const char *path,
          const guint8 *data,
          gsize len)
{
  int fd = open (path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

  g_assert_cmpint (fd, >=, 0);
  write_all (fd, data, len);
  g_assert_cmpint (ftruncate (fd, (off_t) len), ==, 0);
  g_assert_cmpint (close (fd), ==, 0);
}

void
append_file (const char *path,
             const guint8 *data,
             gsize len)
{
  int fd = open (path, O_WRONLY | O_APPEND | O_CLOEXEC);

  g_assert_cmpint (fd, >=, 0);
  write_all (fd, data, len);
  g_assert_cmpint (close (fd), ==, 0);
}

char *
dump_to_string (const SpSpoolReader *reader)
{
  char *text = NULL;
  size_t len = 0;
  FILE *out = open_memstream (&text, &len);

  g_assert_true (sp_spool_dump (reader, out));
  fclose (out);
  return text;
}

/* Shows the first differing line instead of two dumps of 300 KB. */
void
assert_same_dump (const char *label,
                  const char *got,
                  const char *want)
{
  gsize i = 0;
  gsize line = 0;
  g_autofree char *got_line = NULL;
  g_autofree char *want_line = NULL;

  if (strcmp (got, want) == 0)
    return;
  while (got[i] == want[i])
    i++;
  while (i > 0 && got[i - 1] != '\n')
    i--;
  for (gsize j = 0; j < i; j++)
    line += got[j] == '\n';
  got_line = g_strndup (got + i, strcspn (got + i, "\n"));
  want_line = g_strndup (want + i, strcspn (want + i, "\n"));
  g_test_message ("failing case: %s, dump line %" G_GSIZE_FORMAT, label, line + 1);
  g_assert_cmpstr (got_line, ==, want_line);
  g_assert_cmpstr (got, ==, want);
}

/* ---- The record map, without the reader -------------------------------- */

static guint64
scan_varint (const Spool *spool,
             gsize *pos)
{
  guint64 v = 0;

  for (guint i = 0; i < 10; i++)
    {
      guint8 b;

      g_assert_cmpuint (*pos, <, spool->len);
      b = spool->data[(*pos)++];
      v |= (guint64) (b & 0x7f) << (7 * i);
      if (!(b & 0x80))
        return v;
    }
  g_assert_not_reached ();
}

/* Skips one record and counts it; varints per tag as in SPOOL-FORMAT.md. */
static void
scan_record (const Spool *spool,
             gsize *pos,
             Counts *counts)
{
  static const guint n_varints[] = { 0, 6, 3, 3, 3, 3, 2, 1 };
  guint8 tag = spool->data[(*pos)++];

  g_assert_cmpuint (tag, >=, 1);
  g_assert_cmpuint (tag, <=, 7);
  for (guint i = 0; i < n_varints[tag]; i++)
    scan_varint (spool, pos);
  switch (tag)
    {
    case 1:
      *pos += 1;                          /* is_kernel */
      *pos += scan_varint (spool, pos);   /* path */
      counts->modules++;
      break;
    case 2: counts->frames++; break;
    case 3: counts->stack_nodes++; break;
    case 4: counts->threads++; break;
    case 5: counts->samples++; break;
    case 6: *pos += 1; counts->execs++; break;
    default: break;
    }
  g_assert_cmpuint (*pos, <=, spool->len);
}

static void
scan_spool (Spool *spool)
{
  Counts counts = { 0 };
  gsize pos = 8;

  g_assert_cmpuint (spool->len, >=, 10);
  g_assert_cmpmem (spool->data, 8, "SPULSE1", 8);
  scan_varint (spool, &pos);
  scan_varint (spool, &pos);
  spool->header_len = pos;
  spool->boundaries = g_array_new (FALSE, FALSE, sizeof (gsize));
  spool->counts = g_array_new (FALSE, FALSE, sizeof (Counts));
  g_array_append_val (spool->boundaries, pos);
  g_array_append_val (spool->counts, counts);
  while (pos < spool->len)
    {
      scan_record (spool, &pos, &counts);
      g_array_append_val (spool->boundaries, pos);
      g_array_append_val (spool->counts, counts);
    }
}

gsize
n_records (const Spool *spool)
{
  return spool->boundaries->len - 1;
}

gsize
record_start (const Spool *spool,
              gsize index)
{
  return g_array_index (spool->boundaries, gsize, index);
}

const Counts *
counts_before (const Spool *spool,
               gsize index)
{
  return &g_array_index (spool->counts, Counts, index);
}

/* The index of the last boundary at or before offset (offset >= header). */
static guint
boundary_index (const Spool *spool,
                gsize offset)
{
  guint lo = 0;
  guint hi = spool->boundaries->len;

  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (record_start (spool, mid) <= offset)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

void
cut_init (Cut *cut,
          const Spool *spool,
          gsize offset)
{
  memset (cut, 0, sizeof *cut);
  cut->spool = spool;
  cut->cut = offset;
  cut->has_header = offset >= spool->header_len;
  if (cut->has_header)
    {
      guint i = boundary_index (spool, offset);

      cut->boundary = record_start (spool, i);
      cut->counts = g_array_index (spool->counts, Counts, i);
      cut->at_boundary = cut->boundary == offset;
    }
  g_snprintf (cut->label, sizeof cut->label, "%s cut at %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT,
              spool->name, offset, spool->len);
}

/* ---- What a reader holds ----------------------------------------------- */

Counts
counts_of (const SpSpoolReader *reader)
{
  Counts counts = {
    sp_spool_reader_get_n_modules (reader),
    sp_spool_reader_get_n_frames (reader),
    sp_spool_reader_get_n_stack_nodes (reader),
    sp_spool_reader_get_n_threads (reader),
    sp_spool_reader_get_n_samples (reader),
    sp_spool_reader_get_n_process_execs (reader),
  };

  return counts;
}

void
assert_counts (const Cut *cut,
               const Counts *got,
               const Counts *want)
{
  assert_cut_cmpuint (cut, got->modules, ==, want->modules);
  assert_cut_cmpuint (cut, got->frames, ==, want->frames);
  assert_cut_cmpuint (cut, got->stack_nodes, ==, want->stack_nodes);
  assert_cut_cmpuint (cut, got->threads, ==, want->threads);
  assert_cut_cmpuint (cut, got->samples, ==, want->samples);
  assert_cut_cmpuint (cut, got->execs, ==, want->execs);
}

static void
assert_same_modules (const Cut *cut,
                     const SpModule *a,
                     const SpModule *b,
                     gsize n)
{
  for (gsize i = 0; i < n; i++)
    {
      assert_cut_cmpuint (cut, a[i].start, ==, b[i].start);
      assert_cut_cmpuint (cut, a[i].end, ==, b[i].end);
      assert_cut_cmpuint (cut, a[i].file_offset, ==, b[i].file_offset);
      assert_cut_cmpuint (cut, a[i].inode, ==, b[i].inode);
      assert_cut_cmpuint (cut, a[i].pid, ==, b[i].pid);
      assert_cut_cmpuint (cut, a[i].is_kernel, ==, b[i].is_kernel);
      assert_cut_cmpuint (cut, a[i].path_len, ==, b[i].path_len);
      g_assert_cmpmem (a[i].path, a[i].path_len, b[i].path, b[i].path_len);
    }
}

static void
assert_same_frames_and_nodes (const Cut *cut,
                              const SpSpoolReader *r,
                              const SpSpoolReader *full)
{
  const SpFrame *fa = sp_spool_reader_get_frames (r);
  const SpFrame *fb = sp_spool_reader_get_frames (full);
  const SpStackNode *na = sp_spool_reader_get_stack_nodes (r);
  const SpStackNode *nb = sp_spool_reader_get_stack_nodes (full);

  for (gsize i = 0; i < sp_spool_reader_get_n_frames (r); i++)
    {
      assert_cut_cmpuint (cut, fa[i].rel_ip, ==, fb[i].rel_ip);
      assert_cut_cmpuint (cut, fa[i].abs_ip, ==, fb[i].abs_ip);
      assert_cut_cmpuint (cut, fa[i].module_id, ==, fb[i].module_id);
      assert_cut_cmpuint (cut, fa[i].mode, ==, fb[i].mode);
    }
  for (gsize i = 0; i < sp_spool_reader_get_n_stack_nodes (r); i++)
    {
      assert_cut_cmpuint (cut, na[i].prefix, ==, nb[i].prefix);
      assert_cut_cmpuint (cut, na[i].frame_id, ==, nb[i].frame_id);
      assert_cut_cmpuint (cut, na[i].depth, ==, nb[i].depth);
    }
}

static void
assert_same_threads_samples_execs (const Cut *cut,
                                   const SpSpoolReader *r,
                                   const SpSpoolReader *full)
{
  const SpThread *ta = sp_spool_reader_get_threads (r);
  const SpThread *tb = sp_spool_reader_get_threads (full);
  const SpProcessExec *ea = sp_spool_reader_get_process_execs (r);
  const SpProcessExec *eb = sp_spool_reader_get_process_execs (full);

  for (gsize i = 0; i < sp_spool_reader_get_n_threads (r); i++)
    {
      assert_cut_cmpuint (cut, ta[i].pid, ==, tb[i].pid);
      assert_cut_cmpuint (cut, ta[i].tid, ==, tb[i].tid);
    }
  for (gsize i = 0; i < sp_spool_reader_get_n_samples (r); i++)
    {
      SpSample a, b;

      sp_spool_reader_get_sample (r, i, &a);
      sp_spool_reader_get_sample (full, i, &b);
      assert_cut_cmpuint (cut, a.timestamp_ns, ==, b.timestamp_ns);
      assert_cut_cmpuint (cut, a.thread, ==, b.thread);
      assert_cut_cmpuint (cut, a.stack, ==, b.stack);
    }
  for (gsize i = 0; i < sp_spool_reader_get_n_process_execs (r); i++)
    {
      assert_cut_cmpuint (cut, ea[i].timestamp_ns, ==, eb[i].timestamp_ns);
      assert_cut_cmpuint (cut, ea[i].pid, ==, eb[i].pid);
      assert_cut_cmpuint (cut, ea[i].is_python_runtime, ==, eb[i].is_python_runtime);
    }
}

/* The records of r are the first records of full, field by field: the
 * format only appends, so a prefix parses to a prefix of every table. */
void
assert_prefix_of_full (const Cut *cut,
                       const SpSpoolReader *r)
{
  const SpSpoolReader *full = cut->spool->full;
  Counts have = counts_of (r);
  Counts all = counts_of (full);

  assert_cut_cmpuint (cut, have.modules, <=, all.modules);
  assert_cut_cmpuint (cut, have.frames, <=, all.frames);
  assert_cut_cmpuint (cut, have.stack_nodes, <=, all.stack_nodes);
  assert_cut_cmpuint (cut, have.threads, <=, all.threads);
  assert_cut_cmpuint (cut, have.samples, <=, all.samples);
  assert_cut_cmpuint (cut, have.execs, <=, all.execs);
  if (sp_spool_reader_has_header (r))
    {
      assert_cut_cmpuint (cut, sp_spool_reader_get_start_timestamp_us (r), ==,
                          sp_spool_reader_get_start_timestamp_us (full));
      assert_cut_cmpuint (cut, sp_spool_reader_get_sample_interval_us (r), ==,
                          sp_spool_reader_get_sample_interval_us (full));
    }
  assert_same_modules (cut, sp_spool_reader_get_modules (r), sp_spool_reader_get_modules (full),
                       have.modules);
  assert_same_frames_and_nodes (cut, r, full);
  assert_same_threads_samples_execs (cut, r, full);
}

/* r holds exactly the complete records before the cut. */
void
assert_records_before_cut (const Cut *cut,
                           const SpSpoolReader *r)
{
  Counts have = counts_of (r);

  assert_cut_cmpuint (cut, sp_spool_reader_has_header (r), ==, cut->has_header);
  assert_cut_cmpuint (cut, sp_spool_reader_get_parsed_size (r), ==, cut->boundary);
  assert_counts (cut, &have, &cut->counts);
  assert_prefix_of_full (cut, r);
}

/* r holds every record of the complete file. */
void
assert_all_records (const Cut *cut,
                    const SpSpoolReader *r)
{
  Counts have = counts_of (r);
  Counts all = counts_of (cut->spool->full);

  assert_cut_cmpuint (cut, sp_spool_reader_has_header (r), ==, TRUE);
  assert_cut_cmpuint (cut, sp_spool_reader_get_parsed_size (r), ==, cut->spool->len);
  assert_counts (cut, &have, &all);
  assert_prefix_of_full (cut, r);
}

/* The cut is the incomplete tail: reported as truncation, where it starts. */
void
assert_tail_error (const Cut *cut,
                   const SpSpoolError *err)
{
  assert_cut_cmpuint (cut, err->code, ==, SP_SPOOL_ERROR_TRUNCATED);
  assert_cut_cmpuint (cut, err->record_offset, ==, cut->boundary);
  assert_cut_cmpuint (cut, err->offset, >=, err->record_offset);
  assert_cut_cmpuint (cut, err->offset, <=, cut->cut);
}

Spool *
spool_load (const char *name,
            const char *path)
{
  Spool *spool = g_new0 (Spool, 1);
  g_autoptr (GError) error = NULL;
  SpSpoolError err;

  spool->name = g_strdup (name);
  g_file_get_contents (path, (char **) &spool->data, &spool->len, &error);
  g_assert_no_error (error);
  scan_spool (spool);
  spool->full = sp_spool_reader_open (path, &err);
  if (spool->full == NULL)
    g_error ("%s rejected: %s", path, err.message);
  spool->full_dump = dump_to_string (spool->full);
  return spool;
}

void
spool_free (gpointer data)
{
  Spool *spool = data;

  g_free (spool->name);
  g_free (spool->data);
  g_array_unref (spool->boundaries);
  g_array_unref (spool->counts);
  sp_spool_reader_free (spool->full);
  free (spool->full_dump);
  g_free (spool);
}

/* ---- Cleaning up ------------------------------------------------------ */

/* Tests clear the folder when they pass: a failing one leaves its files
 * behind for a look, and only those. */
void
tmp_dir_clear (void)
{
  g_autoptr (GDir) listing = g_dir_open (tmp_dir, 0, NULL);
  const char *file;

  while (listing != NULL && (file = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = tmp_path (file);

      g_unlink (path);
    }
}

void
tmp_dir_remove (void)
{
  tmp_dir_clear ();
  g_rmdir (tmp_dir);
  g_clear_pointer (&tmp_dir, g_free);
}
