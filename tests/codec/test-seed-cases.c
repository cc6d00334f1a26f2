/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-seed-cases.c: the seed's unit tests, ported, and their neighbours.
 *
 * seed/spool.rs pins the writer side of the format with small tests: the
 * module table (overlaps, inodes, exec, frame modes), the module context a
 * frame without a module is read in (future modules, deactivated modules,
 * re-interning after a change), the truncated-stack marker and the
 * timestamp deltas the writer refuses. Each is ported here under the Rust
 * test's name, so a difference from the seed points at one rule; a few
 * more cases of the same rules (empty areas, duplicates, fork, kernel
 * modules across exec) follow. test-roundtrip.c checks the same rules at
 * random. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "sp-module-table.h"
#include "sp-spool-reader.h"
#include "sp-spool-writer.h"

static char *tmp_dir;

/* ---- Fixture and helpers ---------------------------------------------- */

/* A writer (start 123 µs, interval 10 µs, like the seed's tests) with its
 * module table, and the reader once the writer is finished. */
typedef struct {
  char          *path;
  SpSpoolWriter *writer;
  SpModuleTable *table;
  SpSpoolReader *reader;
} Fixture;

static void
fixture_setup (Fixture *f,
               gconstpointer data)
{
  static guint n_spools;
  g_autofree char *name = g_strdup_printf ("case-%u.spool", n_spools++);
  SpSpoolError err;

  f->path = g_build_filename (tmp_dir, name, NULL);
  f->writer = sp_spool_writer_create (f->path, 123, 10, &err);
  g_assert_nonnull (f->writer);
  f->table = sp_module_table_new ();
  f->reader = NULL;
}

static void
fixture_teardown (Fixture *f,
                  gconstpointer data)
{
  SpSpoolError err;

  if (f->writer != NULL)
    g_assert_true (sp_spool_writer_close (f->writer, &err));
  sp_module_table_free (f->table);
  sp_spool_reader_free (f->reader);
  g_unlink (f->path);
  g_free (f->path);
}

/* The seed's module(): offset 0, inode 0. */
static SpModule
module (gint32 pid,
        guint64 start,
        guint64 end,
        const char *path,
        gboolean is_kernel)
{
  SpModule m = { start, end, 0, 0, path, strlen (path), pid, is_kernel };

  return m;
}

/* The seed's frame(): a user frame in no module. */
static SpFrame
frame (guint64 abs_ip)
{
  SpFrame f = { abs_ip, abs_ip, SP_SPOOL_NO_ID, SP_FRAME_USER };

  return f;
}

static guint32
intern (Fixture *f,
        SpModule m)
{
  SpSpoolError err;
  guint32 id = 0;

  g_assert_true (sp_module_table_intern (f->table, f->writer, &m, &id, &err));
  return id;
}

static void
deactivate (Fixture *f,
            gint32 pid)
{
  SpSpoolError err;

  g_assert_true (sp_module_table_deactivate_process (f->table, f->writer, pid, &err));
}

/* The module id the table resolves addr to, or SP_SPOOL_NO_ID. */
static guint32
resolve (Fixture *f,
         gint32 pid,
         guint64 addr,
         SpFrameMode mode)
{
  return sp_module_table_resolve_frame (f->table, pid, addr, mode).module_id;
}

/* A sample of pid 7, tid 11 (the seed's choice); returns its stack id. */
static guint32
sample (Fixture *f,
        guint64 timestamp_ns,
        const SpFrame *frames,
        gsize n_frames)
{
  SpSpoolError err;
  guint32 stack_id = 0;

  g_assert_true (sp_spool_writer_write_sample (f->writer, timestamp_ns, 7, 11, frames, n_frames, &stack_id, &err));
  return stack_id;
}

static guint32
sample_at (Fixture *f,
           guint64 timestamp_ns,
           guint64 abs_ip)
{
  SpFrame one = frame (abs_ip);

  return sample (f, timestamp_ns, &one, 1);
}

/* Closes the writer and reads the file back. */
static SpSpoolReader *
finish (Fixture *f)
{
  SpSpoolError err;

  g_assert_true (sp_spool_writer_close (f->writer, &err));
  f->writer = NULL;
  f->reader = sp_spool_reader_open (f->path, &err);
  if (f->reader == NULL)
    g_error ("%s: %s", f->path, err.message);
  return f->reader;
}

/* A stack as the reader walks it, leaf first, one frame per word:
 * "u:0x1000", "k:0x…", "t" for the marker; with_modules adds the module
 * the frame resolves to for a sample of pid: "u:0x1010=/first+0x110". */
static char *
stack_to_string (const SpSpoolReader *reader,
                 guint32 stack_id,
                 gboolean with_modules,
                 gint32 pid)
{
  const SpFrame *frames = sp_spool_reader_get_frames (reader);
  const SpModule *modules = sp_spool_reader_get_modules (reader);
  GString *s = g_string_new (NULL);
  SpStackIter iter;
  guint32 frame_id;

  sp_stack_iter_init (&iter, reader, stack_id);
  while (sp_stack_iter_next (&iter, &frame_id))
    {
      const SpFrame *fr = &frames[frame_id];
      guint32 module_id;
      guint64 rel_ip;

      if (s->len > 0)
        g_string_append_c (s, ' ');
      if (fr->mode == SP_FRAME_TRUNCATED)
        g_string_append (s, "t");
      else
        g_string_append_printf (s, "%c:0x%" G_GINT64_MODIFIER "x", fr->mode == SP_FRAME_KERNEL ? 'k' : 'u', fr->abs_ip);
      if (with_modules && sp_spool_reader_resolve_frame_module (reader, pid, frame_id, &module_id, &rel_ip))
        g_string_append_printf (s, "=%s+0x%" G_GINT64_MODIFIER "x", modules[module_id].path, rel_ip);
    }
  return g_string_free (s, FALSE);
}

/* The modules of the table: "id:path" and "-" for a deactivated one. */
static char *
table_to_string (const SpModuleTable *table)
{
  GString *s = g_string_new (NULL);

  for (guint32 id = 0; id < sp_module_table_get_n_modules (table); id++)
    {
      const SpModule *m = sp_module_table_get_module (table, id);

      g_string_append_printf (s, "%s%u:%s%s", id > 0 ? " " : "", id, m->path,
                              sp_module_table_is_active (table, id) ? "" : "-");
    }
  return g_string_free (s, FALSE);
}

#define assert_stack(reader, stack_id, pid, want) G_STMT_START {            \
    g_autofree char *got_ = stack_to_string ((reader), (stack_id), TRUE, (pid)); \
    g_assert_cmpstr (got_, ==, (want));                                      \
  } G_STMT_END

#define assert_table(table, want) G_STMT_START {                            \
    g_autofree char *got_ = table_to_string (table);                         \
    g_assert_cmpstr (got_, ==, (want));                                      \
  } G_STMT_END

/* ---- ModuleTable ------------------------------------------------------ */

/* module_table_resolves_with_index_and_latest_overlap_wins */
static void
test_latest_overlap_wins (Fixture *f,
                          gconstpointer data)
{
  guint32 first = intern (f, module (7, 0x1000, 0x3000, "/first", FALSE));
  guint32 second = intern (f, module (7, 0x0800, 0x4000, "/second", FALSE));

  g_assert_cmpuint (first, ==, 0);
  g_assert_cmpuint (second, ==, 1);
  g_assert_cmpuint (resolve (f, 7, 0x2000, SP_FRAME_USER), ==, second);
  /* Only in the newer area, and past both. */
  g_assert_cmpuint (resolve (f, 7, 0x0900, SP_FRAME_USER), ==, second);
  g_assert_cmpuint (resolve (f, 7, 0x4000, SP_FRAME_USER), ==, SP_SPOOL_NO_ID);
}

/* module_table_keeps_same_path_mappings_with_different_inodes_distinct */
static void
test_same_path_different_inode (Fixture *f,
                                gconstpointer data)
{
  SpModule first = module (7, 0x1000, 0x2000, "/same", FALSE);
  SpModule second = first;
  guint32 first_id, second_id;

  first.inode = 1;
  second.inode = 2;
  first_id = intern (f, first);
  second_id = intern (f, second);
  g_assert_cmpuint (first_id, !=, second_id);
  g_assert_cmpuint (resolve (f, 7, 0x1008, SP_FRAME_USER), ==, second_id);
}

/* module_table_rebuilds_index_after_deactivation */
static void
test_rebuild_after_deactivation (Fixture *f,
                                 gconstpointer data)
{
  guint32 first = intern (f, module (7, 0x1000, 0x3000, "/first", FALSE));
  guint32 resolved;

  intern (f, module (7, 0x0800, 0x4000, "/second", FALSE));
  deactivate (f, 7);
  intern (f, module (7, 0x1000, 0x3000, "/first", FALSE));
  resolved = resolve (f, 7, 0x2000, SP_FRAME_USER);
  g_assert_cmpuint (resolved, !=, first);
  g_assert_cmpuint (resolved, !=, SP_SPOOL_NO_ID);
  assert_table (f->table, "0:/first- 1:/second- 2:/first");
}

/* module_table_respects_frame_mode_when_resolving_modules */
static void
test_frame_mode (Fixture *f,
                 gconstpointer data)
{
  SpFrame kernel_in_user, user_in_kernel;

  intern (f, module (7, 0x1000, 0x2000, "/user", FALSE));
  intern (f, module (-1, 0x3000, 0x4000, "[kernel]", TRUE));
  kernel_in_user = sp_module_table_resolve_frame (f->table, 7, 0x1008, SP_FRAME_KERNEL);
  user_in_kernel = sp_module_table_resolve_frame (f->table, 7, 0x3008, SP_FRAME_USER);
  g_assert_cmpuint (kernel_in_user.module_id, ==, SP_SPOOL_NO_ID);
  g_assert_cmpuint (kernel_in_user.rel_ip, ==, 0x1008);
  g_assert_cmpuint (user_in_kernel.module_id, ==, SP_SPOOL_NO_ID);
  g_assert_cmpuint (user_in_kernel.rel_ip, ==, 0x3008);
}

/* Areas with end <= start are ignored and write nothing. */
static void
test_empty_ranges (Fixture *f,
                   gconstpointer data)
{
  guint64 size = sp_spool_writer_get_size (f->writer);

  g_assert_cmpuint (intern (f, module (7, 0x1000, 0x1000, "/empty", FALSE)), ==, SP_SPOOL_NO_ID);
  g_assert_cmpuint (intern (f, module (7, 0x2000, 0x1000, "/reversed", FALSE)), ==, SP_SPOOL_NO_ID);
  g_assert_cmpuint (intern (f, module (-1, G_MAXUINT64, 0, "[kernel]", TRUE)), ==, SP_SPOOL_NO_ID);
  g_assert_cmpuint (sp_module_table_get_n_modules (f->table), ==, 0);
  g_assert_cmpuint (sp_spool_writer_get_size (f->writer), ==, size);
  g_assert_cmpuint (resolve (f, 7, 0x1000, SP_FRAME_USER), ==, SP_SPOOL_NO_ID);
}

/* An identical active module is reused without a record; once deactivated
 * it is not, and the seed's comparison leaves out is_kernel. */
static void
test_duplicates (Fixture *f,
                 gconstpointer data)
{
  SpModule libc = module (7, 0x1000, 0x2000, "/libc", FALSE);
  SpModule kernel = module (-1, 0x3000, 0x4000, "[kernel]", TRUE);
  SpModule kernel_as_user = kernel;
  guint64 size;

  g_assert_cmpuint (intern (f, libc), ==, 0);
  g_assert_cmpuint (intern (f, kernel), ==, 1);
  size = sp_spool_writer_get_size (f->writer);
  g_assert_cmpuint (intern (f, libc), ==, 0);
  kernel_as_user.is_kernel = FALSE;
  g_assert_cmpuint (intern (f, kernel_as_user), ==, 1);
  g_assert_cmpuint (sp_spool_writer_get_size (f->writer), ==, size);
  /* Another pid is another module. */
  libc.pid = 8;
  g_assert_cmpuint (intern (f, libc), ==, 2);
  libc.pid = 7;
  deactivate (f, 7);
  g_assert_cmpuint (intern (f, libc), ==, 3);
  assert_table (f->table, "0:/libc- 1:[kernel] 2:/libc 3:/libc");
}

/* Kernel modules belong to every process and survive exec; exec writes a
 * deactivation only when something was active. */
static void
test_exec_keeps_kernel_modules (Fixture *f,
                                gconstpointer data)
{
  guint32 kernel = intern (f, module (-1, 0xffff0000, 0xffff1000, "[kernel]", TRUE));
  guint32 kernel_of_7 = intern (f, module (7, 0xffff1000, 0xffff2000, "ext4", TRUE));
  guint64 size;

  intern (f, module (7, 0x1000, 0x2000, "/app", FALSE));
  deactivate (f, 7);
  assert_table (f->table, "0:[kernel] 1:ext4 2:/app-");
  g_assert_cmpuint (resolve (f, 9, 0xffff0010, SP_FRAME_KERNEL), ==, kernel);
  g_assert_cmpuint (resolve (f, 9, 0xffff1010, SP_FRAME_KERNEL), ==, kernel_of_7);
  g_assert_cmpuint (resolve (f, 7, 0x1010, SP_FRAME_USER), ==, SP_SPOOL_NO_ID);
  size = sp_spool_writer_get_size (f->writer);
  deactivate (f, 7);
  deactivate (f, 12345);
  g_assert_cmpuint (sp_spool_writer_get_size (f->writer), ==, size);
}

/* fork: the child gets new records for the parent's active user modules
 * only; modules it already has are reused. */
static void
test_fork (Fixture *f,
           gconstpointer data)
{
  SpSpoolError err;
  guint32 child_lib;

  intern (f, module (7, 0x1000, 0x2000, "/old", FALSE));
  deactivate (f, 7);
  intern (f, module (7, 0x5000, 0x6000, "/new", FALSE));
  intern (f, module (7, 0xffff0000, 0xffff1000, "ext4", TRUE));
  intern (f, module (8, 0x7000, 0x8000, "/lib", FALSE));
  child_lib = intern (f, module (8, 0x5000, 0x6000, "/new", FALSE));

  g_assert_true (sp_module_table_clone_process (f->table, f->writer, 7, 8, &err));
  g_assert_true (sp_module_table_clone_process (f->table, f->writer, 7, 9, &err));
  assert_table (f->table, "0:/old- 1:/new 2:ext4 3:/lib 4:/new 5:/new");
  g_assert_cmpint (sp_module_table_get_module (f->table, 5)->pid, ==, 9);
  g_assert_cmpuint (resolve (f, 8, 0x5010, SP_FRAME_USER), ==, child_lib);
  g_assert_cmpuint (resolve (f, 9, 0x5010, SP_FRAME_USER), ==, 5);
  g_assert_cmpuint (resolve (f, 9, 0x1010, SP_FRAME_USER), ==, SP_SPOOL_NO_ID);
}

/* ---- Module context of frames without a module ------------------------- */

/* reader_exposes_no_copy_stacks_and_module_contexts */
static void
test_module_contexts (Fixture *f,
                      gconstpointer data)
{
  SpModule first = { 0x1000, 0x2000, 0x100, 1, "/first", 6, 7, FALSE };
  SpModule second = { 0x3000, 0x4000, 0x200, 2, "/second", 7, 7, FALSE };
  SpModule kernel = { G_GUINT64_CONSTANT (0xffffffff81000000), G_GUINT64_CONSTANT (0xffffffff81010000),
                      0, 0, "[kernel]", 8, -1, TRUE };
  SpFrame frames[] = {
    { 0x110, 0x1010, 0, SP_FRAME_USER },
    frame (0x3010),
    { G_GUINT64_CONSTANT (0xffffffff81000010), G_GUINT64_CONSTANT (0xffffffff81000010),
      SP_SPOOL_NO_ID, SP_FRAME_KERNEL },
  };
  SpSpoolError err;
  SpSpoolReader *reader;
  SpSample got;
  guint32 stack_id;

  g_assert_true (sp_spool_writer_write_module (f->writer, 0, &first, &err));
  g_assert_true (sp_spool_writer_write_module (f->writer, 1, &second, &err));
  g_assert_true (sp_spool_writer_write_module (f->writer, 2, &kernel, &err));
  stack_id = sample (f, 1000, frames, 3);
  reader = finish (f);

  g_assert_cmpuint (sp_spool_reader_get_start_timestamp_us (reader), ==, 123);
  g_assert_cmpuint (sp_spool_reader_get_sample_interval_us (reader), ==, 10);
  g_assert_cmpuint (sp_spool_reader_get_n_frames (reader), ==, 3);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (reader), ==, 1);
  sp_spool_reader_get_sample (reader, 0, &got);
  g_assert_cmpuint (got.stack, ==, stack_id);
  g_assert_cmpuint (sp_spool_reader_get_stack_nodes (reader)[stack_id].depth, ==, 3);
  assert_stack (reader, stack_id, 7,
                "u:0x1010=/first+0x110 u:0x3010=/second+0x210 k:0xffffffff81000010=[kernel]+0x10");
}

/* reader_does_not_resolve_moduleless_frames_to_future_modules */
static void
test_future_module (Fixture *f,
                    gconstpointer data)
{
  SpModule future = module (7, 0x1000, 0x2000, "/future", FALSE);
  SpSpoolError err;
  SpSpoolReader *reader;
  guint32 stack_id = sample_at (f, 1000, 0x1500);

  future.inode = 1;
  g_assert_true (sp_spool_writer_write_module (f->writer, 0, &future, &err));
  reader = finish (f);
  g_assert_cmpuint (sp_spool_reader_get_frames (reader)[0].module_id, ==, SP_SPOOL_NO_ID);
  assert_stack (reader, stack_id, 7, "u:0x1500");
}

/* reader_does_not_resolve_moduleless_frames_to_deactivated_modules */
static void
test_deactivated_module (Fixture *f,
                         gconstpointer data)
{
  guint32 stack_id;

  intern (f, module (7, 0x1000, 0x2000, "/old", FALSE));
  deactivate (f, 7);
  stack_id = sample_at (f, 1000, 0x1500);
  assert_stack (finish (f), stack_id, 7, "u:0x1500");
}

/* reader_resolves_moduleless_frames_before_later_deactivation */
static void
test_pre_deactivation (Fixture *f,
                       gconstpointer data)
{
  SpModule old = module (7, 0x1000, 0x2000, "/old", FALSE);
  SpSpoolError err;
  guint32 stack_id;

  g_assert_true (sp_spool_writer_write_module (f->writer, 0, &old, &err));
  stack_id = sample_at (f, 1000, 0x1500);
  g_assert_true (sp_spool_writer_write_module_deactivation (f->writer, 7, &err));
  assert_stack (finish (f), stack_id, 7, "u:0x1500=/old+0x500");
}

/* writer_reinterns_moduleless_frames_when_module_context_changes */
static void
test_reintern_after_context_change (Fixture *f,
                                    gconstpointer data)
{
  SpModule new_module = module (7, 0x1000, 0x2000, "/new", FALSE);
  SpSpoolError err;
  SpSpoolReader *reader;
  guint32 first, second;

  first = sample_at (f, 1000, 0x1500);
  g_assert_true (sp_spool_writer_write_module (f->writer, 0, &new_module, &err));
  second = sample_at (f, 2000, 0x1500);
  reader = finish (f);
  g_assert_cmpuint (first, !=, second);
  assert_stack (reader, first, 7, "u:0x1500");
  assert_stack (reader, second, 7, "u:0x1500=/new+0x500");
}

/* reader_rejects_non_sequential_module_ids: the writer writes the id it is
 * given; the reader insists on the next number. */
static void
test_non_sequential_module_id (Fixture *f,
                               gconstpointer data)
{
  SpModule bad = module (7, 0x1000, 0x2000, "/bad", FALSE);
  SpSpoolError err;

  bad.inode = 1;
  g_assert_true (sp_spool_writer_write_module (f->writer, 7, &bad, &err));
  g_assert_true (sp_spool_writer_close (f->writer, &err));
  f->writer = NULL;
  g_assert_null (sp_spool_reader_open (f->path, &err));
  g_assert_cmpint (err.code, ==, SP_SPOOL_ERROR_INVALID);
  g_assert_cmpstr (err.message, ==, "module id 7 did not match expected 0");
}

/* ---- Truncated-stack marker ------------------------------------------ */

/* truncated_stack_marker_round_trips_through_spool, and
 * module_for_frame_ignores_truncated_stack_marker. */
static void
test_marker_round_trip (Fixture *f,
                        gconstpointer data)
{
  SpFrame frames[] = { frame (0x1000), sp_frame_truncated_marker () };
  guint32 stack_id;

  intern (f, module (7, 0, 1, "/module", FALSE));
  stack_id = sample (f, 1000, frames, 2);
  assert_stack (finish (f), stack_id, 7, "u:0x1000 t");
}

/* truncated_stack_marker_only_stack_round_trips_through_spool */
static void
test_marker_only (Fixture *f,
                  gconstpointer data)
{
  SpFrame marker = sp_frame_truncated_marker ();
  guint32 stack_id = sample (f, 1000, &marker, 1);
  SpSpoolReader *reader = finish (f);

  assert_stack (reader, stack_id, 7, "t");
  g_assert_cmpuint (sp_spool_reader_get_n_samples (reader), ==, 1);
}

/* writer_treats_truncated_stack_marker_as_stack_identity */
static void
test_marker_identity (Fixture *f,
                      gconstpointer data)
{
  SpFrame frames[] = { frame (0x1000), sp_frame_truncated_marker () };
  guint32 plain = sample (f, 0, frames, 1);
  guint32 marked = sample (f, 1, frames, 2);
  guint32 plain_again = sample (f, 2, frames, 1);

  g_assert_cmpuint (plain, !=, marked);
  g_assert_cmpuint (plain, ==, plain_again);
}

/* ---- Timestamps -------------------------------------------------------- */

/* The writer refuses a delta outside i64 and writes nothing for it. */
static void
expect_refused (Fixture *f,
                guint64 timestamp_ns,
                guint64 abs_ip,
                const char *message)
{
  SpFrame one = frame (abs_ip);
  guint64 size = sp_spool_writer_get_size (f->writer);
  SpSpoolError err;

  g_assert_false (sp_spool_writer_write_sample (f->writer, timestamp_ns, 7, 11, &one, 1, NULL, &err));
  g_assert_cmpint (err.code, ==, SP_SPOOL_ERROR_USAGE);
  g_assert_cmpstr (err.message, ==, message);
  g_assert_cmpuint (sp_spool_writer_get_size (f->writer), ==, size);
}

/* writer_rejects_positive_sample_timestamp_delta_out_of_range */
static void
test_delta_positive_out_of_range (Fixture *f,
                                  gconstpointer data)
{
  expect_refused (f, (guint64) G_MAXINT64 + 1, 1,
                  "sample timestamp delta 9223372036854775808 out of range");
  /* i64::MAX itself fits. */
  sample_at (f, G_MAXINT64, 1);
}

/* writer_rejects_negative_sample_timestamp_delta_out_of_range. The seed
 * sets last_timestamp_ns to u64::MAX directly; here samples walk there in
 * deltas that fit. */
static void
test_delta_negative_out_of_range (Fixture *f,
                                  gconstpointer data)
{
  const SpSpoolReader *reader;

  sample_at (f, G_GUINT64_CONSTANT (1) << 62, 1);
  sample_at (f, G_GUINT64_CONSTANT (1) << 63, 1);
  sample_at (f, G_MAXUINT64, 1);
  expect_refused (f, 0, 2, "sample timestamp delta -18446744073709551615 out of range");
  /* The refused sample left no trace: i64::MIN from u64::MAX fits. */
  sample_at (f, G_MAXUINT64 - ((guint64) G_MAXINT64 + 1), 2);
  reader = finish (f);
  g_assert_cmpuint (sp_spool_reader_get_n_samples (f->reader), ==, 4);
  g_assert_cmpuint (sp_spool_reader_get_sample_timestamp (reader, 2), ==, G_MAXUINT64);
  g_assert_cmpuint (sp_spool_reader_get_sample_timestamp (reader, 3), ==, (guint64) G_MAXINT64);
}

/* No frames: nothing written, whatever the timestamp (the seed returns
 * before it checks the delta). */
static void
test_empty_sample (Fixture *f,
                   gconstpointer data)
{
  guint64 size = sp_spool_writer_get_size (f->writer);
  guint32 stack_id = sample (f, G_MAXUINT64, NULL, 0);

  g_assert_cmpuint (stack_id, ==, SP_SPOOL_NO_ID);
  g_assert_cmpuint (sp_spool_writer_get_size (f->writer), ==, size);
  /* ... and the next sample's delta is still from 0. */
  sample_at (f, 5, 1);
  g_assert_cmpuint (sp_spool_reader_get_sample_timestamp (finish (f), 0), ==, 5);
}

static void
add (const char *path,
     void (*func) (Fixture *, gconstpointer))
{
  g_test_add (path, Fixture, NULL, fixture_setup, func, fixture_teardown);
}

int
main (int argc,
      char **argv)
{
  g_autoptr (GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("sp-seed-cases-XXXXXX", &error);
  g_assert_no_error (error);

  add ("/codec/seed/module-table/latest-overlap-wins", test_latest_overlap_wins);
  add ("/codec/seed/module-table/same-path-different-inode", test_same_path_different_inode);
  add ("/codec/seed/module-table/rebuild-after-deactivation", test_rebuild_after_deactivation);
  add ("/codec/seed/module-table/frame-mode", test_frame_mode);
  add ("/codec/module-table/empty-ranges", test_empty_ranges);
  add ("/codec/module-table/duplicates", test_duplicates);
  add ("/codec/module-table/exec-keeps-kernel-modules", test_exec_keeps_kernel_modules);
  add ("/codec/module-table/fork", test_fork);
  add ("/codec/seed/context/module-contexts", test_module_contexts);
  add ("/codec/seed/context/future-module", test_future_module);
  add ("/codec/seed/context/deactivated-module", test_deactivated_module);
  add ("/codec/seed/context/pre-deactivation", test_pre_deactivation);
  add ("/codec/seed/context/reintern-after-change", test_reintern_after_context_change);
  add ("/codec/seed/reader/non-sequential-module-id", test_non_sequential_module_id);
  add ("/codec/seed/marker/round-trip", test_marker_round_trip);
  add ("/codec/seed/marker/only", test_marker_only);
  add ("/codec/seed/marker/identity", test_marker_identity);
  add ("/codec/seed/writer/delta-positive-out-of-range", test_delta_positive_out_of_range);
  add ("/codec/seed/writer/delta-negative-out-of-range", test_delta_negative_out_of_range);
  add ("/codec/writer/empty-sample", test_empty_sample);

  status = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
