/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-offcpu-lost.c: what the kernel lost in the switch samples' rings
 * counts in the side file's off_cpu_lost, not in off_cpu_dropped
 * (recorder internals: records made here, no perf needed).
 *
 * The rings of the context-switches events report their losses with
 * PERF_RECORD_LOST (id, lost) and PERF_RECORD_LOST_SAMPLES (lost); the
 * recorder retypes them as it queues them (recorder/sp-recorder.c). The
 * sampling rings' own losses (where the switch records travel) are the
 * recording's n_lost, added in. */
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "sp-offcpu-recording.h"
#include "sp-recording.h"
#include "sp-spool-writer.h"

/* A loss record with sample_id_all's trailer (pid, tid, time). */
typedef struct {
  struct perf_event_header header;
  uint64_t                 fields[2];  /* LOST: id, lost; LOST_SAMPLES: lost */
  uint32_t                 pid, tid;
  uint64_t                 time;
} LossRecord;

static LossRecord
loss_record (uint32_t type,
             uint64_t lost)
{
  LossRecord record;

  memset (&record, 0, sizeof record);
  record.header.type = type;
  record.header.size = sizeof record;
  if (type == SP_RECORD_SWITCH_LOST)
    {
      record.fields[0] = 77;  /* the event's id */
      record.fields[1] = lost;
    }
  else
    record.fields[0] = lost;
  return record;
}

static void
test_switch_ring_losses (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("stackpulse-offcpu-lost-XXXXXX", &error);
  g_autofree char *spool = g_build_filename (dir, "out.spool", NULL);
  g_autofree char *companion = g_build_filename (dir, "out.spool.offcpu", NULL);
  SpSpoolError err;
  SpSpoolWriter *writer;
  SpRecording rec;
  SpOffCpuRecording off;
  LossRecord lost = loss_record (SP_RECORD_SWITCH_LOST, 5);
  LossRecord lost_samples = loss_record (SP_RECORD_SWITCH_LOST_SAMPLES, 3);
  int fd;

  g_assert_no_error (error);
  writer = sp_spool_writer_create (spool, 0, 1000, &err);
  g_assert_nonnull (writer);
  g_assert_true (sp_recording_init (&rec, writer, 127));
  fd = open (companion, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_true (sp_offcpu_recording_init (&off, &rec, fd, &err));

  g_assert_true (sp_offcpu_recording_wants (SP_RECORD_SWITCH_LOST));
  g_assert_true (sp_offcpu_recording_wants (SP_RECORD_SWITCH_LOST_SAMPLES));
  g_assert_true (sp_offcpu_recording_is_switch_ring (SP_RECORD_SWITCH_LOST_SAMPLES));
  g_assert_false (sp_offcpu_recording_is_switch_ring (PERF_RECORD_LOST));
  sp_offcpu_recording_handle (&off, &lost.header, 1000);
  sp_offcpu_recording_handle (&off, &lost_samples.header, 2000);
  sp_offcpu_recording_handle (&off, &lost.header, 3000);
  g_assert_cmpuint (off.n_lost, ==, 13);
  g_assert_cmpuint (off.n_dropped, ==, 0);
  /* With the sampling rings' own losses (the switch records' rings). */
  rec.n_lost = 4;
  g_assert_cmpuint (sp_offcpu_recording_lost (&off, rec.n_lost), ==, 17);

  sp_offcpu_recording_clear (&off);
  sp_recording_clear (&rec);
  g_assert_true (sp_spool_writer_close (writer, &err));
  g_unlink (companion);
  g_unlink (spool);
  g_rmdir (dir);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/recorder/offcpu-lost/switch-ring-losses", test_switch_ring_losses);
  return g_test_run ();
}
