/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-offcpu-sched-switch.c: a launch's cgroup records switch-outs as
 * sched_switch tracepoint samples and no switch records; the switch-ins
 * come from next_pid, or from the cgroup's running time on the CPU
 * (recorder internals: records made here, no perf needed; the recordings
 * of recorder-offcpu's root case check the same against the threads' own
 * clocks).
 *
 * The format is read as tracefs gives it; the samples carry TID, TIME,
 * CPU, READ (time running) and RAW, as the recorder asks for them. */
#include <fcntl.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "sp-offcpu-recording.h"
#include "sp-offcpu.h"
#include "sp-recording.h"
#include "sp-sched-switch.h"
#include "sp-spool-writer.h"

/* As Linux 6.x's tracefs says it (events/sched/sched_switch/format). */
static const char format_6x[] =
  "name: sched_switch\n"
  "ID: 372\n"
  "format:\n"
  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
  "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
  "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
  "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
  "\n"
  "\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
  "\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
  "\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
  "\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
  "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
  "\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
  "\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
  "\n"
  "print fmt: \"prev_comm=%s prev_pid=%d ...\"\n";

#define RAW_SIZE 68  /* the fields, 64 bytes, and 4 of padding */

/* A sched_switch sample as the recorder's cgroup events write it. */
typedef struct {
  struct perf_event_header header;
  uint32_t                 pid, tid;
  uint64_t                 time;
  uint32_t                 cpu, reserved;
  uint64_t                 value;
  uint64_t                 time_running;
  uint32_t                 raw_size;
  uint8_t                  raw[RAW_SIZE];
} SwitchSample;

/* No padding: the size word and the fields end the record 8-byte aligned. */
G_STATIC_ASSERT (sizeof (SwitchSample) == 120);

/* An on-CPU sample: TID and TIME alone. */
typedef struct {
  struct perf_event_header header;
  uint32_t                 pid, tid;
  uint64_t                 time;
} OnCpuSample;

#define PID 100
#define A   101
#define B   102
#define OUTSIDE 4000  /* a task outside the cgroup */

#define TASK_RUNNING        0
#define TASK_INTERRUPTIBLE  1
#define TASK_UNINTERRUPTIBLE 2
#define PREEMPTED           0x100  /* TASK_REPORT_MAX: "R+" */

typedef struct {
  char             *dir;
  char             *companion;
  SpSpoolWriter    *writer;
  SpRecording       rec;
  SpOffCpuRecording off;
} Fixture;

static void
fixture_set_up (Fixture *f,
                gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *spool = NULL;
  SpSchedSwitchFormat format;
  SpSpoolError err;
  int fd;

  (void) data;
  f->dir = g_dir_make_tmp ("stackpulse-sched-switch-XXXXXX", &error);
  g_assert_no_error (error);
  spool = g_build_filename (f->dir, "out.spool", NULL);
  f->companion = g_build_filename (f->dir, "out.spool.offcpu", NULL);
  f->writer = sp_spool_writer_create (spool, 0, 1000, &err);
  g_assert_nonnull (f->writer);
  g_assert_true (sp_recording_init (&f->rec, f->writer, 127));
  f->rec.layout.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
  f->rec.switch_layout = (SpSampleLayout) {
    PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_READ | PERF_SAMPLE_RAW, 0, 0,
    PERF_FORMAT_TOTAL_TIME_RUNNING
  };
  fd = open (f->companion, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_true (sp_offcpu_recording_init (&f->off, &f->rec, fd, &err));
  g_assert_true (sp_sched_switch_format_parse (&format, format_6x));
  g_assert_true (sp_offcpu_recording_use_sched_switch (&f->off, &format, 2));
  /* The program's two threads, running when the recording starts. */
  g_assert_nonnull (sp_recording_thread (&f->rec, PID, A));
  g_assert_nonnull (sp_recording_thread (&f->rec, PID, B));
}

static void
fixture_tear_down (Fixture *f,
                   gconstpointer data)
{
  SpSpoolError err;
  g_autofree char *spool = g_build_filename (f->dir, "out.spool", NULL);

  (void) data;
  sp_offcpu_recording_clear (&f->off);
  sp_recording_clear (&f->rec);
  g_assert_true (sp_spool_writer_close (f->writer, &err));
  g_unlink (f->companion);
  g_unlink (spool);
  g_rmdir (f->dir);
  g_free (f->companion);
  g_free (f->dir);
}

/* tid switches out on cpu at time, in state, for next; the cgroup has run
 * for running ns on that CPU so far. */
static void
switch_out (Fixture *f,
            uint32_t cpu,
            uint64_t time,
            uint64_t running,
            uint32_t tid,
            int64_t state,
            int32_t next)
{
  SwitchSample s;

  memset (&s, 0, sizeof s);
  s.header = (struct perf_event_header) { SP_RECORD_SWITCH_SAMPLE, 0, sizeof s };
  s.pid = tid == OUTSIDE ? OUTSIDE : PID;
  s.tid = tid;
  s.time = time;
  s.cpu = cpu;
  s.time_running = running;
  s.raw_size = RAW_SIZE;
  memcpy (s.raw + 24, &tid, 4);
  memcpy (s.raw + 32, &state, 8);
  memcpy (s.raw + 56, &next, 4);
  sp_offcpu_recording_handle (&f->off, &s.header, time);
}

static void
on_cpu (Fixture *f,
        uint64_t time,
        uint32_t tid)
{
  OnCpuSample s = { { PERF_RECORD_SAMPLE, 0, sizeof s }, PID, tid, time };

  sp_offcpu_recording_running (&f->off, &s.header, time);
}

static const SpThreadInfo *
thread (Fixture *f,
        int32_t tid)
{
  return sp_recording_thread (&f->rec, PID, tid);
}

/* The companion's records of a thread, as "out@T:S in@T end@T ...", in
 * file order. */
static char *
companion_records (Fixture *f,
                   int32_t tid)
{
  SpSpoolError err;
  g_autoptr (GString) text = g_string_new (NULL);
  SpOffCpuReader *reader;
  const SpOffCpuRecord *records;
  uint32_t id = thread (f, tid)->spool_id;

  sp_offcpu_recording_flush (&f->off);
  reader = sp_offcpu_reader_open_follow (f->companion, &err);
  g_assert_nonnull (reader);
  g_assert_true (sp_offcpu_reader_update (reader, &err));
  records = sp_offcpu_reader_get_records (reader);
  for (size_t i = 0; i < sp_offcpu_reader_get_n_records (reader); i++)
    {
      const SpOffCpuRecord *r = &records[i];

      if (r->tag == SP_OFFCPU_SYNC || r->thread != id)
        continue;
      if (r->tag == SP_OFFCPU_SWITCH_OUT)
        g_string_append_printf (text, "out@%" G_GUINT64_FORMAT ":%s ", r->timestamp_ns,
                                r->state == SP_OFFCPU_RUNNABLE ? "R" : "B");
      else if (r->tag == SP_OFFCPU_SWITCH_IN)
        g_string_append_printf (text, "in@%" G_GUINT64_FORMAT " ", r->timestamp_ns);
    }
  sp_offcpu_reader_free (reader);
  if (text->len > 0)
    g_string_truncate (text, text->len - 1);
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
test_format (void)
{
  SpSchedSwitchFormat format;
  g_autofree char *narrow = NULL;
  uint8_t raw[RAW_SIZE] = { 0 };
  int64_t state;
  int32_t next = 77, next_tid;
  bool runnable;
  char message[256];

  g_assert_true (sp_sched_switch_format_parse (&format, format_6x));
  g_assert_cmpuint (format.id, ==, 372);
  g_assert_cmpuint (format.prev_state_offset, ==, 32);
  g_assert_cmpuint (format.prev_state_size, ==, 8);
  g_assert_cmpuint (format.next_pid_offset, ==, 56);
  /* prev_pid is not next_pid, prev_comm is no prev_state. */
  narrow = g_strdup (format_6x);
  memcpy (strstr (narrow, "long prev_state;\toffset:32;\tsize:8"), "int  prev_state;\toffset:32;\tsize:4", 34);
  g_assert_true (sp_sched_switch_format_parse (&format, narrow));
  g_assert_cmpuint (format.prev_state_size, ==, 4);
  g_assert_false (sp_sched_switch_format_parse (&format, "name: sched_switch\nID: 372\nformat:\n"));
  g_assert_false (sp_sched_switch_format_parse (&format, "not a format at all"));

  g_assert_true (sp_sched_switch_format_parse (&format, format_6x));
  memcpy (raw + 56, &next, 4);
  for (size_t i = 0; i < 5; i++)
    {
      static const int64_t states[] = { TASK_RUNNING, PREEMPTED, TASK_INTERRUPTIBLE, TASK_UNINTERRUPTIBLE, 0x80 | 0x100 };
      static const bool expect[] = { true, true, false, false, true };

      state = states[i];
      memcpy (raw + 32, &state, 8);
      g_assert_true (sp_sched_switch_decode (&format, raw, sizeof raw, &runnable, &next_tid));
      g_assert_cmpint (runnable, ==, expect[i]);
      g_assert_cmpint (next_tid, ==, 77);
    }
  g_assert_false (sp_sched_switch_decode (&format, raw, 40, &runnable, &next_tid));
  g_assert_false (sp_sched_switch_decode (&format, NULL, 0, &runnable, &next_tid));

  /* This kernel's, where tracefs is mounted: what the recorder reads. */
  if (g_file_test ("/sys/kernel/tracing/events/sched/sched_switch/format", G_FILE_TEST_EXISTS))
    {
      g_assert_true (sp_sched_switch_format_read (&format, message, sizeof message));
      g_assert_cmpuint (format.id, >, 0);
    }
}

/* A hands over to B on CPU 0 (next_pid: B's switch-in at once); B hands
 * over to a task outside the cgroup; A comes back after it: its switch-in
 * is its switch-out less what the cgroup ran on the CPU since. */
static void
test_switch_ins (Fixture *f,
                 gconstpointer data)
{
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  (void) data;
  switch_out (f, 0, 1000, 1000, B, TASK_INTERRUPTIBLE, OUTSIDE);   /* B blocks; the CPU leaves the cgroup */
  switch_out (f, 1, 2000, 2000, A, TASK_INTERRUPTIBLE, B);         /* A blocks, B comes in on CPU 1 */
  switch_out (f, 1, 2500, 2500, B, PREEMPTED, OUTSIDE);            /* B preempted */
  switch_out (f, 0, 9000, 1000 + 3000, A, TASK_UNINTERRUPTIBLE, OUTSIDE); /* A ran 3000 on CPU 0: in at 6000 */
  switch_out (f, 1, 9500, 2500 + 500, B, TASK_INTERRUPTIBLE, OUTSIDE);    /* B ran 500 on CPU 1: in at 9000 */

  a = companion_records (f, A);
  b = companion_records (f, B);
  g_assert_cmpstr (a, ==, "out@2000:B in@6000 out@9000:B");
  g_assert_cmpstr (b, ==, "out@1000:B in@2000 out@2500:R in@9000 out@9500:B");
  g_assert_cmpuint (thread (f, A)->blocked_ns, ==, 4000);
  g_assert_cmpuint (thread (f, B)->blocked_ns, ==, 1000);
  g_assert_cmpuint (thread (f, B)->runnable_ns, ==, 6500);
  g_assert_cmpuint (f->off.n_switches, ==, 5);
}

/* A seen running by an on-CPU sample while switched out: a switch-in then
 * (a follower sees it run), made exact at its switch-out, with the time
 * counted off-CPU meanwhile taken back. */
static void
test_provisional_switch_in (Fixture *f,
                            gconstpointer data)
{
  g_autofree char *a = NULL;

  (void) data;
  switch_out (f, 0, 1000, 1000, A, TASK_INTERRUPTIBLE, OUTSIDE);
  on_cpu (f, 8000, A);
  g_assert_cmpuint (thread (f, A)->out_ns, ==, 0);
  g_assert_cmpuint (thread (f, A)->blocked_ns, ==, 7000);
  switch_out (f, 0, 10000, 1000 + 5000, A, TASK_INTERRUPTIBLE, OUTSIDE); /* in at 5000 */
  g_assert_cmpuint (thread (f, A)->blocked_ns, ==, 4000);
  /* A second sample of a thread that runs writes nothing. */
  on_cpu (f, 10500, B);
  a = companion_records (f, A);
  g_assert_cmpstr (a, ==, "out@1000:B in@8000 in@5000 out@10000:B");
}

/* A CPU's clock moves with every sample of it, the program's or not yet
 * the program's (the launch before its exec), so that what the next
 * thread ran is its own. */
static void
test_running_time_per_cpu (Fixture *f,
                           gconstpointer data)
{
  g_autofree char *a = NULL;

  (void) data;
  switch_out (f, 0, 1000, 1000, A, TASK_INTERRUPTIBLE, OUTSIDE);
  switch_out (f, 1, 1500, 700, B, TASK_INTERRUPTIBLE, OUTSIDE);
  switch_out (f, 1, 3000, 900, OUTSIDE, TASK_INTERRUPTIBLE, OUTSIDE); /* no thread of the program's */
  switch_out (f, 1, 5000, 900 + 1000, A, TASK_INTERRUPTIBLE, OUTSIDE);  /* A moved to CPU 1: in at 4000 */
  a = companion_records (f, A);
  g_assert_cmpstr (a, ==, "out@1000:B in@4000 out@5000:B");
}

/* A new thread forked by A: its FORK record, as the recorder hands it to
 * the recording and then to the off-CPU side. */
static void
fork_thread (Fixture *f,
             uint64_t time,
             uint32_t tid)
{
  struct {
    struct perf_event_header header;
    uint32_t                 pid, ppid, tid, ptid;
    uint64_t                 time;
    uint32_t                 id_pid, id_tid;  /* sample_id: TID, TIME */
    uint64_t                 id_time;
  } record = { { PERF_RECORD_FORK, 0, sizeof record }, PID, PID, tid, A, time, PID, A, time };

  sp_recording_handle (&f->rec, &record.header, time);
  sp_offcpu_recording_fork (&f->off, &record.header, time);
}

/* A new thread waits in the run queue from its creation to its first
 * switch-in: runnable, not nowhere (a try-out's 200 short threads under
 * load lost 61% of their lifetime so). C comes in after A (next_pid), D
 * after a task outside the cgroup (its switch-out less what it ran). */
static void
test_new_thread_waits (Fixture *f,
                       gconstpointer data)
{
  const int32_t C = 103, D = 104;
  g_autofree char *c = NULL;
  g_autofree char *d = NULL;

  (void) data;
  fork_thread (f, 1000, C);
  fork_thread (f, 1200, D);
  switch_out (f, 0, 3000, 3000, A, TASK_INTERRUPTIBLE, C);               /* C in at 3000 */
  switch_out (f, 0, 4000, 3000 + 1000, C, TASK_INTERRUPTIBLE, OUTSIDE);  /* C blocks */
  switch_out (f, 1, 5000, 5000, B, TASK_INTERRUPTIBLE, OUTSIDE);
  switch_out (f, 1, 9000, 5000 + 500, D, TASK_INTERRUPTIBLE, OUTSIDE);   /* D ran 500: in at 8500 */

  c = companion_records (f, C);
  d = companion_records (f, D);
  g_assert_cmpstr (c, ==, "out@1000:R in@3000 out@4000:B");
  g_assert_cmpstr (d, ==, "out@1200:R in@8500 out@9000:B");
  g_assert_cmpuint (thread (f, C)->runnable_ns, ==, 2000);
  g_assert_cmpuint (thread (f, D)->runnable_ns, ==, 7300);
  g_assert_cmpuint (thread (f, C)->switches, ==, 1);  /* its creation is no switch */
}

/* A sample the drain had no room for comes as a stub: the switch-out
 * without a stack, not a stack of its ip alone (with the callchain
 * emptied, the tracepoint's ip, __schedule, was taken for the stack: a
 * try-out's benchmark run showed a fifth of its switch-outs "in
 * __schedule"). */
static void
test_stub_has_no_stack (Fixture *f,
                        gconstpointer data)
{
  struct {
    struct perf_event_header header;
    uint64_t                 ip;
    uint32_t                 pid, tid;
    uint64_t                 time;
    uint32_t                 cpu, reserved;
    uint64_t                 value;
    uint64_t                 time_running;
    uint64_t                 n_callchain;   /* emptied by the drain */
    uint32_t                 raw_size;
    uint8_t                  raw[RAW_SIZE];
  } stub;
  int64_t state = TASK_INTERRUPTIBLE;
  int32_t tid = A, next = OUTSIDE;
  SpSpoolError err;
  SpOffCpuReader *reader;
  const SpOffCpuRecord *records;
  gsize n_outs = 0;

  (void) data;
  f->rec.switch_layout.sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
  memset (&stub, 0, sizeof stub);
  stub.header = (struct perf_event_header) { SP_RECORD_SWITCH_STUB, 0, sizeof stub };
  stub.ip = G_GUINT64_CONSTANT (0xffffffff81e01234);
  stub.pid = PID;
  stub.tid = A;
  stub.time = 1000;
  stub.time_running = 1000;
  stub.raw_size = RAW_SIZE;
  memcpy (stub.raw + 24, &tid, 4);
  memcpy (stub.raw + 32, &state, 8);
  memcpy (stub.raw + 56, &next, 4);
  sp_offcpu_recording_handle (&f->off, &stub.header, 1000);

  sp_offcpu_recording_flush (&f->off);
  reader = sp_offcpu_reader_open_follow (f->companion, &err);
  g_assert_nonnull (reader);
  g_assert_true (sp_offcpu_reader_update (reader, &err));
  records = sp_offcpu_reader_get_records (reader);
  for (size_t i = 0; i < sp_offcpu_reader_get_n_records (reader); i++)
    if (records[i].tag == SP_OFFCPU_SWITCH_OUT)
      {
        g_assert_cmpuint (records[i].stack, ==, SP_SPOOL_NO_ID);
        n_outs++;
      }
  sp_offcpu_reader_free (reader);
  g_assert_cmpuint (n_outs, ==, 1);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/recorder/sched-switch/format", test_format);
  g_test_add ("/recorder/sched-switch/switch-ins", Fixture, NULL, fixture_set_up, test_switch_ins, fixture_tear_down);
  g_test_add ("/recorder/sched-switch/provisional-switch-in", Fixture, NULL, fixture_set_up,
              test_provisional_switch_in, fixture_tear_down);
  g_test_add ("/recorder/sched-switch/stub-has-no-stack", Fixture, NULL, fixture_set_up, test_stub_has_no_stack,
              fixture_tear_down);
  g_test_add ("/recorder/sched-switch/new-thread-waits", Fixture, NULL, fixture_set_up, test_new_thread_waits,
              fixture_tear_down);
  g_test_add ("/recorder/sched-switch/running-time-per-cpu", Fixture, NULL, fixture_set_up,
              test_running_time_per_cpu, fixture_tear_down);
  return g_test_run ();
}
