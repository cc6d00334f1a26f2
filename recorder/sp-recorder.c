/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recorder.c: the recording loop.
 *
 * The rings are emptied by a thread of their own (sp-ring-drain.c); this
 * loop's poll() wakes when that thread took records out, on signals
 * (signalfd), the control channel, or every 50 ms. Each round takes the
 * drained records into the time queue and writes out (unwinding them)
 * those that are safely in order; the spool is flushed every 100 ms and
 * the side file refreshed after each flush (sp-recorder-files.c). A write
 * that fails (a full disk) ends the recording at once, with the spool cut
 * back to its last record. */
#include "sp-recorder-private.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sp-perf-access.h"
#include "sp-system-target.h"

#define POLL_MS               50
#define PROGRESS_INTERVAL_NS  (1000 * 1000000ull)
/* Records this much older than the start of the drain's last pass over
 * every ring were surely all out of the rings then. */
#define ORDERING_SLACK_NS     (10 * 1000000ull)
#define KILL_GRACE_NS         (3000 * 1000000ull)
/* Unwinding gets this long per round before new records are taken, the
 * spool flushed and signals read. */
#define UNWIND_BUDGET_NS      (20 * 1000000ull)
/* Stack samples this far behind are dropped rather than unwound: the
 * recorder has fallen behind and must catch up (they are counted). A
 * second: a busy machine may keep the recorder off the CPU for a few
 * hundred ms, which its queue absorbs (with copies cut to the threads'
 * stacks, a second at 4 kHz is a few MB). */
#define UNWIND_MAX_LAG_NS     (1000 * 1000000ull)
#define FINAL_UNWIND_BUDGET_NS (5000 * 1000000ull)
/* A buffer of drained records bigger than this is freed once taken. */
#define TAKEN_KEEP_BYTES      (1u << 20)
/* The backlog's bound (queue_limit): this long of samples, never less
 * than QUEUE_LIMIT_MIN. */
#define QUEUE_LIMIT_MS        1000
#define QUEUE_LIMIT_MIN       (16u << 20)

static void
apply_record (const struct perf_event_header *header,
              uint64_t time,
              void *user_data)
{
  SpRecorder *r = user_data;

  if (r->off_cpu.writer != NULL && sp_offcpu_recording_wants (header->type))
    sp_offcpu_recording_handle (&r->off_cpu, header, time);
  else if (r->off_cpu.sched_switch && header->type == PERF_RECORD_SAMPLE)
    sp_offcpu_recording_running (&r->off_cpu, header, time);
  if (!sp_offcpu_recording_is_switch_ring (header->type))
    sp_recording_handle (&r->rec, header, time);
  if (header->type == PERF_RECORD_FORK && r->off_cpu.writer != NULL)
    sp_offcpu_recording_fork (&r->off_cpu, header, time);
}

/* The records the drain's thread took out of the rings since the last
 * time, into the time queue; returns the time before which every record
 * is out of the rings. */
uint64_t
_sp_recorder_take (SpRecorder *r)
{
  SpDrainTaken taken;
  const struct perf_event_header *header;
  uint64_t time, idle = 0, now = _sp_recorder_monotonic_ns ();
  uint64_t too_old = r->unwinder != NULL && now > UNWIND_MAX_LAG_NS ? now - UNWIND_MAX_LAG_NS : 0;
  size_t offset = 0;

  sp_ring_drain_take (&r->drain, &r->taken, r->idle_per_cpu != NULL ? r->drain_idle : NULL, &taken);
  while ((header = sp_record_buffer_next (&r->taken, &offset, &time)) != NULL)
    {
      if (header->type == SP_RECORD_EXEC_LINE)
        {
          uint32_t pid;

          memcpy (&pid, header + 1, sizeof pid);
          sp_recording_note_exec_line (&r->rec, (int32_t) pid, (const char *) (header + 1) + sizeof pid);
        }
      /* Already too far behind to be unwound: dropped now rather than
       * queued, so that the backlog's room goes to the newer samples
       * (after a long stall, such as -a's scan of /proc, the oldest go,
       * as at unwinding). A switch-out's stack goes through the queue,
       * where its dropping also ends its thread's pairing. */
      else if (header->type == PERF_RECORD_SAMPLE && time < too_old)
        r->rec.n_dropped++;
      else if (!sp_event_queue_push (&r->queue, header, time))
        r->queue_failed = true;
    }
  r->taken.used = 0;
  /* The buffer goes back to the drain as its next one: a large one (the
   * recorder was behind) is let go, so that the records' memory is not
   * held twice, here and in the time queue, after the backlog is gone. */
  if (r->taken.capacity > TAKEN_KEEP_BYTES)
    sp_record_buffer_clear (&r->taken);
  /* Left out at the backlog's bound: behind, as those the unwinding
   * drops (dropped_samples). */
  r->rec.n_dropped += taken.counts.dropped_samples;
  r->off_cpu.n_dropped += taken.counts.dropped_switch_samples;
  r->side.queue_dropped += taken.counts.dropped_samples;
  r->side.queue_peak_bytes = sp_record_backlog_peak (&r->drain.backlog);
  r->side.ring_samples = taken.ring_samples;
  r->queue_failed |= taken.counts.failed;
  if (r->idle_per_cpu != NULL)
    {
      for (size_t i = 0; i < r->events.n_rings; i++)
        {
          idle += r->drain_idle[i] - r->idle_per_cpu[i];
          r->idle_per_cpu[i] = r->drain_idle[i];
        }
      r->rec.n_idle += idle;
    }
  sp_record_backlog_hold (&r->drain.backlog, r->queue.arena_used);
  return taken.drained_through_ns;
}

/* Takes what was drained, then writes what is old enough to be in
 * order (everything when final); false when unwinding ran out of its
 * time and records are waiting. *watermark gets the time before which
 * every record was handed out when it returns true. */
static bool
pump (SpRecorder *r,
      uint64_t now,
      bool final,
      uint64_t *watermark)
{
  uint64_t drained = _sp_recorder_take (r);
  bool done;

  *watermark = final ? UINT64_MAX : drained > ORDERING_SLACK_NS ? drained - ORDERING_SLACK_NS : 0;
  if (r->unwinder == NULL)
    done = sp_event_queue_flush (&r->queue, *watermark, 0, apply_record, r);
  /* The last flush (no watermark) has FINAL_UNWIND_BUDGET_NS to unwind
   * what is waiting, which is enough but for a recorder that fell far
   * behind (-F 50000 on every CPU): what it has not unwound then is
   * dropped (counted), so that a stop stops. */
  else if (final)
    {
      r->rec.drop_before_ns = 0;
      done = sp_event_queue_flush (&r->queue, UINT64_MAX, now + FINAL_UNWIND_BUDGET_NS, apply_record, r);
      if (!done)
        {
          r->rec.drop_before_ns = UINT64_MAX;
          done = sp_event_queue_flush (&r->queue, UINT64_MAX, 0, apply_record, r);
        }
    }
  else
    {
      r->rec.drop_before_ns = now > UNWIND_MAX_LAG_NS ? now - UNWIND_MAX_LAG_NS : 0;
      done = sp_event_queue_flush (&r->queue, *watermark, now + UNWIND_BUDGET_NS, apply_record, r);
    }
  /* What the queue holds counts toward the backlog's bound. */
  sp_record_backlog_hold (&r->drain.backlog, r->queue.arena_used);
  return done;
}

static void
format_size (uint64_t bytes,
             char *out,
             size_t size)
{
  if (bytes >= 10 * 1024 * 1024)
    snprintf (out, size, "%.1f MB", bytes / 1e6);
  else
    snprintf (out, size, "%.1f kB", bytes / 1e3);
}

static void
report_progress (SpRecorder *r,
                 uint64_t now,
                 bool final)
{
  double elapsed = (now - r->side.start_monotonic_ns) / 1e9;
  uint64_t bytes = sp_spool_writer_get_size (r->writer);
  char size[32];

  format_size (bytes, size, sizeof size);
  if (r->progress_tty && !final)
    fprintf (stderr, "\rstackpulse-record: %.1f s, %llu samples, %llu lost, %llu dropped, %s  ", elapsed,
             (unsigned long long) r->rec.n_samples, (unsigned long long) r->rec.n_lost,
             (unsigned long long) r->rec.n_dropped, size);
  if (r->options->progress_fd >= 0)
    dprintf (r->options->progress_fd, "elapsed_ms=%llu samples=%llu lost=%llu dropped=%llu bytes=%llu state=%s\n",
             (unsigned long long) (elapsed * 1000), (unsigned long long) r->rec.n_samples,
             (unsigned long long) r->rec.n_lost, (unsigned long long) r->rec.n_dropped,
             (unsigned long long) bytes, final ? "done" : "recording");
}

static void
periodic_work (SpRecorder *r,
               uint64_t now)
{
  _sp_recorder_flush (r, now);
  _sp_recorder_check_cgroup (r, now);
  if (now - r->last_progress_ns >= PROGRESS_INTERVAL_NS)
    {
      report_progress (r, now, false);
      r->last_progress_ns = now;
    }
}

/* ---- Following the process tree ------------------------------------------ */

/* A task the recording saw start (or found at attach) and not yet seen
 * exit, which still runs: an EXIT record may be lost with a full ring,
 * and a thread of an attached process may end before the events were
 * enabled. /proc knows the pid and tid as a pair, so a reused pid is not
 * taken for it, and a zombie (which nobody may reap here) counts as gone. */
static bool
task_running (const SpThreadInfo *thread)
{
  return thread->exit_ns == 0 && sp_proc_task_alive ((pid_t) thread->pid, (pid_t) thread->tid);
}

static bool
process_running (const SpRecording *rec,
                 int32_t pid)
{
  for (size_t i = 0; i < rec->thread_index.count; i++)
    if (rec->threads[i].pid == pid && task_running (&rec->threads[i]))
      return true;
  return false;
}

static bool
any_task_running (const SpRecording *rec)
{
  for (size_t i = 0; i < rec->thread_index.count; i++)
    if (task_running (&rec->threads[i]))
      return true;
  return false;
}

/* Every followed task is gone, as the records applied so far say: a
 * process that forked just before its parent exited is known only once
 * the records up to then are applied, so "none" must hold until then. */
static bool
followed_all_gone (SpRecorder *r,
                   uint64_t now)
{
  if (any_task_running (&r->rec))
    {
      r->none_running_since_ns = 0;
      return false;
    }
  if (r->none_running_since_ns == 0)
    r->none_running_since_ns = now;
  return r->applied_through_ns >= r->none_running_since_ns;
}

/* Signals every followed process of a launch (the launched one first,
 * which the table may not know yet). */
static void
signal_followed (SpRecorder *r,
                 int signal_number)
{
  if (!r->child_done)
    kill (r->launch.pid, signal_number);
  for (size_t i = 0; i < r->rec.process_index.count; i++)
    {
      int32_t pid = r->rec.processes[i].pid;

      /* kill () takes 0 and -1 as "everything": never those. */
      if (pid > 0 && pid != r->launch.pid && process_running (&r->rec, pid))
        kill (pid, signal_number);
    }
}

/* Once, when the command exits and processes it started run on. */
static void
tell_following (SpRecorder *r)
{
  size_t listed = 0;

  if (r->told_following || r->stop_requested)
    return;
  r->told_following = true;
  fprintf (stderr, "%sstackpulse-record: '%s' exited; still recording the processes it left running (pid",
           r->progress_tty ? "\n" : "", r->options->command[0]);
  for (size_t i = 0; i < r->rec.process_index.count && listed < 8; i++)
    if (process_running (&r->rec, r->rec.processes[i].pid))
      fprintf (stderr, "%s %d", listed++ > 0 ? "," : "", (int) r->rec.processes[i].pid);
  fprintf (stderr, "%s) until they end or the recording is stopped\n", listed == 8 ? ", ..." : "");
}

/* ---- Stopping ---------------------------------------------------------- */

static void
request_stop (SpRecorder *r,
              int forward_signal)
{
  if (!r->stop_requested)
    {
      r->stop_requested = true;
      r->stop_requested_ns = _sp_recorder_monotonic_ns ();
    }
  if (r->launched && forward_signal != 0)
    {
      signal_followed (r, forward_signal);
      /* SIGINT: what a shell put in the background ignores it. */
      r->stop_forwarded = forward_signal != SIGINT;
    }
}

static void
reap_child (SpRecorder *r)
{
  int status;

  if (!r->launched || r->child_done)
    return;
  if (waitpid (r->launch.pid, &status, WNOHANG) == r->launch.pid)
    {
      r->child_done = true;
      r->child_status = status;
    }
}

/* Whether the launched command is in the recorder's process group (it
 * is, unless it made a session or group of its own: setsid, a shell's
 * job control). */
static bool
command_in_our_group (SpRecorder *r)
{
  return r->launched && !r->child_done && getpgid (r->launch.pid) == getpgrp ();
}

static void
read_signals (SpRecorder *r)
{
  struct signalfd_siginfo info;

  while (read (r->signal_fd, &info, sizeof info) == (ssize_t) sizeof info)
    {
      if (info.ssi_signo == SIGCHLD)
        reap_child (r);
      else if (info.ssi_signo == SIGINT)
        /* A Ctrl-C typed on a terminal (sent by the kernel) reached the
         * whole foreground group, the command too when it is in ours,
         * whether or not our stdin is that terminal; one sent by kill(2)
         * reached only us. */
        request_stop (r, info.ssi_code == SI_KERNEL && command_in_our_group (r) ? 0 : SIGINT);
      else
        request_stop (r, SIGTERM);
    }
}

/* Lines on stdin: "stop" ends the recording, as does end of input. */
static void
read_control (SpRecorder *r,
              struct pollfd *pfd)
{
  ssize_t n = read (STDIN_FILENO, r->control_line + r->control_used,
                    sizeof r->control_line - 1 - r->control_used);
  char *newline;

  if (n <= 0)
    {
      if (n == 0 || errno != EAGAIN)
        {
          pfd->fd = -1;
          request_stop (r, SIGTERM);
        }
      return;
    }
  r->control_used += (size_t) n;
  r->control_line[r->control_used] = '\0';
  while ((newline = strchr (r->control_line, '\n')) != NULL)
    {
      *newline = '\0';
      if (strcmp (r->control_line, "stop") == 0)
        request_stop (r, SIGTERM);
      memmove (r->control_line, newline + 1, strlen (newline + 1) + 1);
      r->control_used = strlen (r->control_line);
    }
  if (r->control_used == sizeof r->control_line - 1)
    r->control_used = 0;  /* an over-long line means nothing */
}

/* The duration in ns; one past what 64 bits hold is forever (converting
 * it would be undefined). */
static uint64_t
duration_ns (double seconds)
{
  return seconds < 1.8e10 ? (uint64_t) (seconds * 1e9) : UINT64_MAX;
}

/* After a stop, what ignores SIGTERM for the grace period gets SIGKILL;
 * what survives even that (a process the recorder may not signal) is
 * left running, and said so, after one more. */
static bool
stop_overdue (SpRecorder *r,
              uint64_t now)
{
  /* now may be from before the stop was asked (should_end asks for a
   * --duration's stop with the loop's now, and request_stop reads the
   * clock again): that is no grace period gone by, not an overflow. */
  if (!r->stop_requested || now < r->stop_requested_ns || now - r->stop_requested_ns < KILL_GRACE_NS)
    return false;
  if (!r->killed)
    {
      signal_followed (r, SIGKILL);
      r->killed = true;
      r->killed_ns = now;
      return false;
    }
  if (now - r->killed_ns < KILL_GRACE_NS)
    return false;
  fprintf (stderr, "%sstackpulse-record: warning: processes the command started outlived SIGKILL; "
           "they were recorded until now\n", r->progress_tty ? "\n" : "");
  return true;
}

/* A launch ends when the command and every process it started are gone
 * (so a command that leaves a worker running, or a daemon, is recorded
 * whole), an attach when every followed process is gone or on stop. */
static bool
should_end (SpRecorder *r,
            uint64_t now)
{
  const SpRecorderOptions *o = r->options;

  /* Once: each SIGTERM more would hit what the command's handler of the
   * first one runs. */
  if (o->duration_s > 0 && !r->stop_requested && now - r->side.start_monotonic_ns >= duration_ns (o->duration_s))
    request_stop (r, SIGTERM);
  if (!r->launched)
    return r->stop_requested || (!o->system_wide && followed_all_gone (r, now));
  if (!r->child_done)
    {
      /* The command's own status is worth waiting for, however long. */
      if (!r->killed)
        stop_overdue (r, now);
      return false;
    }
  if (followed_all_gone (r, now))
    return true;
  if (r->none_running_since_ns == 0)
    tell_following (r);
  /* Ctrl-C on a terminal reached the command, but not what it left in
   * the background or in a session of its own. */
  if (r->stop_requested && !r->stop_forwarded)
    {
      signal_followed (r, SIGTERM);
      r->stop_forwarded = true;
    }
  return stop_overdue (r, now);
}

static void
loop (SpRecorder *r)
{
  struct pollfd fds[3];
  bool backlog = false;

  fds[0] = (struct pollfd) { r->signal_fd, POLLIN, 0 };
  fds[1] = (struct pollfd) { r->options->control_stdin ? STDIN_FILENO : -1, POLLIN, 0 };
  /* The drain's thread says when it took records out of the rings. */
  fds[2] = (struct pollfd) { sp_ring_drain_wake_fd (&r->drain), POLLIN, 0 };
  for (;;)
    {
      uint64_t now, watermark;

      /* With records waiting to be unwound, only look, do not sleep. */
      poll (fds, 3, backlog ? 0 : POLL_MS);
      if (fds[0].revents & POLLIN)
        read_signals (r);
      if (fds[1].fd >= 0 && (fds[1].revents & (POLLIN | POLLHUP)))
        read_control (r, &fds[1]);
      reap_child (r);

      now = _sp_recorder_monotonic_ns ();
      backlog = !pump (r, now, false, &watermark);
      if (!backlog)
        r->applied_through_ns = watermark;
      periodic_work (r, now);
      if (should_end (r, now) || r->rec.failed || r->queue_failed || r->spool_overwritten)
        break;
    }
}

/* ---- Setting up ------------------------------------------------------ */

static int
setup_signals (void)
{
  sigset_t set;

  sigemptyset (&set);
  sigaddset (&set, SIGINT);
  sigaddset (&set, SIGTERM);
  sigaddset (&set, SIGHUP);
  sigaddset (&set, SIGCHLD);
  sigprocmask (SIG_BLOCK, &set, NULL);
  return signalfd (-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

typedef struct {
  SpRecorder *r;
  bool      main_thread_failed;
  char      message[1024];
} AttachState;

/* Events for one thread of an attached process. A thread that ended since
 * the listing is no loss; the main thread decides whether the process can
 * be traced at all (and when it cannot, the other threads' failures say
 * the same again: no warning for them). */
static void
add_attached_task (pid_t pid,
                   pid_t tid,
                   const char *name,
                   void *user_data)
{
  AttachState *state = user_data;
  char message[1024];

  bool off_cpu = state->r->options->off_cpu;

  sp_recording_add_task (&state->r->rec, pid, tid, name);
  if (sp_perf_events_add_task (&state->r->events, tid,
                               off_cpu && !sp_perf_events_add_switch_task (&state->r->events, tid), message,
                               sizeof message))
    return;
  if (tid == pid)
    {
      state->main_thread_failed = true;
      memcpy (state->message, message, sizeof message);
    }
  else if (!state->main_thread_failed && sp_proc_exists (tid))
    fprintf (stderr, "stackpulse-record: warning: thread %d: %s\n", (int) tid, message);
}

static void
add_existing_mapping (const SpModule *module,
                      void *user_data)
{
  sp_recording_add_mapping (user_data, module);
}

/* Every thread gets its events now, disabled; inherit=1 covers the threads
 * they create, even before the events are enabled. */
static int
setup_attach (SpRecorder *r)
{
  for (size_t i = 0; i < r->options->n_pids; i++)
    {
      AttachState state = { .r = r };
      pid_t pid = r->options->pids[i];

      if (!sp_proc_exists (pid) || sp_proc_foreach_task (pid, add_attached_task, &state) == 0)
        {
          fprintf (stderr, "stackpulse-record: no process with pid %d\n", (int) pid);
          return 1;
        }
      if (state.main_thread_failed)
        {
          fprintf (stderr, "stackpulse-record: %s\n", state.message);
          return 1;
        }
    }
  return 0;
}

typedef struct {
  SpRecorder *r;
  uint64_t    time;
} BlockedState;

static void
note_if_blocked (pid_t pid,
                 pid_t tid,
                 const char *name,
                 void *user_data)
{
  BlockedState *state = user_data;
  char letter = sp_proc_task_state (pid, tid);

  if (letter == 'S' || letter == 'D')
    sp_offcpu_recording_blocked_at_start (&state->r->off_cpu, (int32_t) pid, (int32_t) tid, state->time);
}

/* Before enabling, with --off-cpu: the attached threads that are asleep
 * now have no switch-out to come before their switch-in (and none at all
 * if they sleep through the recording): their first stretch is blocked
 * from the start. One that wakes between this look and the enabling
 * shows blocked for that moment. */
static void
note_blocked_threads (SpRecorder *r)
{
  BlockedState state = { r, r->side.start_monotonic_ns };

  if (r->off_cpu.writer == NULL)
    return;
  for (size_t i = 0; i < r->options->n_pids; i++)
    sp_proc_foreach_task (r->options->pids[i], note_if_blocked, &state);
}

/* After enabling: a mapping made meanwhile is in the rings too (and the
 * module table ignores the duplicate). */
/* The attached processes' code, and their command lines. */
static void
read_attached_mappings (SpRecorder *r)
{
  char line[4096];

  for (size_t i = 0; i < r->options->n_pids; i++)
    {
      pid_t pid = r->options->pids[i];

      sp_proc_foreach_mapping (pid, add_existing_mapping, &r->rec);
      if (sp_system_command_line (pid, line, sizeof line))
        sp_recording_describe_process (&r->rec, (int32_t) pid, line, false);
    }
}

static int
setup_launch (SpRecorder *r)
{
  char message[1024];

  if (!sp_launch_prepare (&r->launch, r->options->command, r->options->directory, r->options->invoker,
                          r->options->control_stdin,
                          message, sizeof message))
    {
      fprintf (stderr, "stackpulse-record: %s\n", message);
      return SP_RECORDER_EXIT_FAILED;
    }
  if (_sp_recorder_setup_cgroup (r))
    return 0;
  /* The switch records' own rings first: without them the cpu-clock
   * events carry the records. */
  if (!sp_perf_events_add_task (&r->events, r->launch.pid,
                                r->options->off_cpu && !sp_perf_events_add_switch_task (&r->events, r->launch.pid),
                                message, sizeof message))
    {
      sp_launch_abort (&r->launch);
      fprintf (stderr, "stackpulse-record: %s\n", message);
      return SP_RECORDER_EXIT_FAILED;
    }
  return 0;
}

static int
exit_status_of (int status)
{
  if (WIFEXITED (status))
    return WEXITSTATUS (status);
  if (WIFSIGNALED (status))
    return 128 + WTERMSIG (status);
  return SP_RECORDER_EXIT_FAILED;
}

/* The spool could not be written: what is in the file stays, a valid
 * spool up to its last whole record, and the recording ends now. */
static void
report_write_failure (SpRecorder *r)
{
  const SpSpoolError *err = &r->rec.error;

  fprintf (stderr, "stackpulse-record: cannot write %s: %s; the recording stops here (the spool keeps "
           "%llu samples)%s\n", r->options->output, err->sys_errno != 0 ? strerror (err->sys_errno) : err->message,
           (unsigned long long) r->side.spool_samples,
           r->launched && (!r->child_done || any_task_running (&r->rec)) ? ", and the program goes on unrecorded"
                                                                          : "");
}

/* Stops sampling, writes out every remaining record (unless writing
 * failed), the side file and the summary. */
static int
finish (SpRecorder *r)
{
  SpKallsyms kallsyms;
  bool have_kallsyms;
  uint64_t now = _sp_recorder_monotonic_ns ();
  int status = r->launched && r->child_done ? exit_status_of (r->child_status) : 0;
  bool side_written;
  char size[32];

  sp_perf_events_disable (&r->events);
  /* The thread ends, and the rings are drained once more: what the
   * kernel wrote until the events stopped. */
  sp_ring_drain_stop (&r->drain);
  if (!r->rec.failed && !r->spool_overwritten)
    {
      uint64_t watermark;

      pump (r, now, true, &watermark);
      sp_recording_finish (&r->rec);
    }
  sp_offcpu_recording_finish (&r->off_cpu, now);

  r->side.complete = true;
  r->side.end_monotonic_ns = now;
  r->side.end_wall_us = _sp_recorder_wall_us ();
  r->side.exit_status = r->launched && r->child_done ? status : -1;
  _sp_recorder_close_spool (r);

  have_kallsyms = r->rec.kernel_addresses.count > 0 && sp_kallsyms_load (&kallsyms, "/proc/kallsyms");
  side_written = _sp_recorder_write_last_side_file (r, have_kallsyms ? &kallsyms : NULL);
  format_size (r->side.spool_bytes, size, sizeof size);
  if (have_kallsyms)
    sp_kallsyms_clear (&kallsyms);

  if (r->progress_tty)
    fputc ('\n', stderr);
  if (r->options->progress_fd >= 0)
    dprintf (r->options->progress_fd, "state=done samples=%llu lost=%llu exit_status=%d\n",
             (unsigned long long) r->side.spool_samples, (unsigned long long) r->rec.n_lost, status);
  fprintf (stderr, "stackpulse-record: %.2f s, %llu samples (%llu lost, %llu dropped), %s written to %s\n",
           (now - r->side.start_monotonic_ns) / 1e9, (unsigned long long) r->side.spool_samples,
           (unsigned long long) r->rec.n_lost, (unsigned long long) r->rec.n_dropped, size,
           r->options->output);
  if (r->rec.failed)
    {
      report_write_failure (r);
      return SP_RECORDER_EXIT_FAILED;
    }
  if (r->side_file.orphaned)
    {
      /* Removed, replaced or overwritten: what was recorded is not there. */
      if (!r->spool_overwritten)
        fprintf (stderr, "stackpulse-record: the recording is lost: %s is no longer its spool\n", r->options->output);
      return SP_RECORDER_EXIT_FAILED;
    }
  if (!side_written)
    {
      fprintf (stderr, "stackpulse-record: the recording of %s is cut short or has no complete side file\n",
               r->options->output);
      return SP_RECORDER_EXIT_FAILED;
    }
  if (r->queue_failed)
    {
      fprintf (stderr, "stackpulse-record: out of memory while ordering records\n");
      return SP_RECORDER_EXIT_FAILED;
    }
  return status;
}

static void
cleanup (SpRecorder *r)
{
  /* The drain's thread reads the rings: it ends before they are unmapped. */
  sp_ring_drain_clear (&r->drain);
  sp_perf_events_close (&r->events);
  /* After the events: what the program left running goes on in the
   * recorder's own cgroup. */
  sp_cgroup_remove (&r->cgroup);
  sp_event_queue_clear (&r->queue);
  sp_record_buffer_clear (&r->taken);
  free (r->drain_idle);
  sp_offcpu_recording_clear (&r->off_cpu);
  sp_recording_clear (&r->rec);
  if (r->unwinder != NULL)
    {
      sp_unwinder_free (r->unwinder);
      sp_stack_tops_clear (&r->stack_tops);
    }
  if (r->writer != NULL)
    sp_spool_writer_close (r->writer, NULL);
  if (r->signal_fd >= 0)
    close (r->signal_fd);
  free (r->cpus);
  free (r->idle_per_cpu);
}

static void
warn_kernel_refused (void)
{
  fprintf (stderr,
           "stackpulse-record: warning: kernel stacks are not permitted (kernel.perf_event_paranoid is %d,\n"
           "  they need 1 or less, or CAP_PERFMON); recording user stacks only\n", sp_perf_paranoid ());
}

static void
explain_launch_failure (const SpRecorder *r,
                        SpLaunchStep step,
                        int err)
{
  const char *command = r->options->command[0];

  if (step == SP_LAUNCH_STEP_USER)
    fprintf (stderr, "stackpulse-record: cannot run '%s' as user %u: %s\n", command,
             (unsigned) r->options->invoker->uid, strerror (err));
  else if (step == SP_LAUNCH_STEP_DIRECTORY)
    fprintf (stderr, "stackpulse-record: cannot run '%s' in '%s': %s\n", command, r->options->directory,
             strerror (err));
  else
    fprintf (stderr, "stackpulse-record: cannot run '%s': %s\n", command, strerror (err));
}

/* Starts the target (or enables the events of attached ones). */
static int
start (SpRecorder *r)
{
  SpLaunchStep failed_step = SP_LAUNCH_STEP_EXEC;
  int failed_errno = 0;

  r->side.kernel_stacks = r->options->kernel_stacks && !r->events.kernel_refused;
  if (r->events.kernel_refused)
    warn_kernel_refused ();
  if (r->side.kernel_stacks && !sp_recording_add_kernel_module (&r->rec))
    return SP_RECORDER_EXIT_FAILED;
  r->side.start_wall_us = _sp_recorder_wall_us ();
  r->side.start_monotonic_ns = _sp_recorder_monotonic_ns ();
  r->last_flush_ns = r->last_side_ns = r->last_progress_ns = r->side.start_monotonic_ns;

  if (r->options->command == NULL)
    {
      note_blocked_threads (r);
      if (!sp_perf_events_enable (&r->events))
        {
          fprintf (stderr, "stackpulse-record: cannot enable the events: %s\n", strerror (errno));
          return SP_RECORDER_EXIT_FAILED;
        }
      read_attached_mappings (r);
      if (r->options->system_wide)
        _sp_recorder_scan_system (r);
      return 0;
    }
  /* Per-CPU events of the launch's cgroup count from their enabling
   * (what comes before the exec is left out by the recording). */
  if (r->cgroup.dir_fd >= 0 && !sp_perf_events_enable (&r->events))
    {
      fprintf (stderr, "stackpulse-record: cannot enable the events: %s\n", strerror (errno));
      sp_launch_abort (&r->launch);
      return SP_RECORDER_EXIT_FAILED;
    }
  r->launched = true;
  if (!sp_launch_release (&r->launch, &failed_step, &failed_errno))
    {
      r->launched = false;
      explain_launch_failure (r, failed_step, failed_errno);
      return SP_RECORDER_EXIT_NOT_FOUND;
    }
  return 0;
}

/* dwarf and auto: the unwinder, and samples laid out with registers and
 * a stack copy. */
static bool
setup_unwinding (SpRecorder *r,
                 const SpPerfConfig *config)
{
  char message[256];
  SpSampleLayout layout = { sp_perf_events_sample_type (config),
                            (size_t) __builtin_popcountll (config->regs_mask), config->stack_size };

  if (config->call_graph == SP_CALL_GRAPH_FP)
    return true;
  r->unwinder = sp_unwinder_new (config->call_graph == SP_CALL_GRAPH_AUTO, r->options->check_auto,
                                 message, sizeof message);
  if (r->unwinder == NULL)
    {
      fprintf (stderr, "stackpulse-record: %s\n", message);
      return false;
    }
  /* The drain's thread cuts the stack copies where the unwinder found
   * the threads' stacks end. */
  sp_stack_tops_init (&r->stack_tops);
  sp_unwinder_share_stack_tops (r->unwinder, &r->stack_tops);
  if (!sp_recording_set_unwinder (&r->rec, r->unwinder, &layout, config->switch_stack_size))
    {
      fprintf (stderr, "stackpulse-record: out of memory\n");
      return false;
    }
  return true;
}

/* The bound of the records waiting to be unwound: QUEUE_LIMIT_MS of
 * samples at their full size on every ring that carries stack copies, at
 * least 16 MiB and what those rings hold, at most an eighth of the
 * memory. A second: what unwinding may lag before it drops samples
 * anyway (a quarter second made a loaded machine's test drop the samples
 * of a program's first, slow, unwinds: their copies are not cut yet). The
 * memory is about twice the records it holds at worst (the time queue
 * compacts into a second arena). */
static size_t
queue_limit (const SpRecorder *r)
{
  uint64_t rings = r->events.n_rings + r->events.n_switch_rings;
  uint64_t limit = rings * r->options->frequency_hz * sp_perf_events_sample_bytes (&r->events.config)
                   * QUEUE_LIMIT_MS / 1000;
  uint64_t ring_total = rings * r->events.ring_pages * (uint64_t) sysconf (_SC_PAGESIZE);
  long pages = sysconf (_SC_PHYS_PAGES), page_size = sysconf (_SC_PAGESIZE);
  uint64_t most = pages > 0 && page_size > 0 ? (uint64_t) pages * (uint64_t) page_size / 8 : 0;

  if (r->options->queue_limit > 0)
    return r->options->queue_limit;
  if (most < QUEUE_LIMIT_MIN)
    most = QUEUE_LIMIT_MIN;
  if (limit < QUEUE_LIMIT_MIN)
    limit = QUEUE_LIMIT_MIN;
  /* A backlog smaller than the rings would drop what they could hold
   * (-a keeps 16 MiB rings whatever the frequency). */
  if (limit < ring_total)
    limit = ring_total;
  return (size_t) (limit < most ? limit : most);
}

/* The thread that drains the rings, from now on (the events are set up,
 * not yet enabled). */
static int
start_draining (SpRecorder *r)
{
  r->drain_idle = calloc (r->events.n_rings > 0 ? r->events.n_rings : 1, sizeof (uint64_t));
  if (r->drain_idle == NULL
      || !sp_ring_drain_init (&r->drain, &r->events, &r->rec.layout, r->unwinder != NULL ? &r->stack_tops : NULL,
                              r->idle_per_cpu != NULL, queue_limit (r))
      || !sp_ring_drain_start (&r->drain))
    {
      fprintf (stderr, "stackpulse-record: cannot start the thread that reads the rings: %s\n", strerror (errno));
      return SP_RECORDER_EXIT_FAILED;
    }
  r->side.ring_bytes = r->events.ring_pages * (uint64_t) sysconf (_SC_PAGESIZE);
  r->side.queue_limit_bytes = r->drain.backlog.limit;
  return 0;
}

int
sp_recorder_run (const SpRecorderOptions *o)
{
  SpRecorder r = { 0 };
  SpPerfConfig config = {
    o->frequency_hz, o->kernel_stacks, o->command != NULL, o->call_graph, o->stack_size & ~7u,
    sp_unwinder_regs_mask (), o->off_cpu, (o->switch_stack_size != 0 ? o->switch_stack_size : o->stack_size) & ~7u,
  };
  static const char *const mode_names[] = { "fp", "dwarf", "auto" };
  int status;

  r.options = o;
  r.signal_fd = -1;
  sp_cgroup_init (&r.cgroup);
  r.progress_tty = isatty (STDERR_FILENO);
  r.side = (SpSideInfo) {
    .command = o->command,
    .attached_pids = (const int *) o->pids,
    .n_attached_pids = o->n_pids,
    .call_graph = mode_names[o->call_graph],
    .stack_size = o->call_graph != SP_CALL_GRAPH_FP ? config.stack_size : 0,
    .frequency_hz = o->frequency_hz,
    .exit_status = -1,
  };
  signal (SIGPIPE, SIG_IGN);

  if (!_sp_recorder_create_spool (&r))
    {
      sp_spool_writer_close (r.writer, NULL);
      sp_output_clear (&r.output);
      free (r.flush_points);
      return SP_RECORDER_EXIT_FAILED;
    }
  r.signal_fd = setup_signals ();
  sp_perf_events_init (&r.events, &config);
  sp_event_queue_init (&r.queue);
  if (!sp_recording_init (&r.rec, r.writer, sp_perf_max_stack ()) || !setup_unwinding (&r, &config)
      || !_sp_recorder_start_offcpu (&r))
    status = SP_RECORDER_EXIT_FAILED;
  else
    {
      sp_recording_read_proc (&r.rec);
      status = o->command != NULL ? setup_launch (&r) : o->system_wide ? _sp_recorder_setup_system (&r)
                                                                       : setup_attach (&r);
    }
  if (status == 0)
    status = start_draining (&r);
  if (status == 0)
    status = start (&r);
  if (status != 0)
    {
      /* Nothing was recorded: leave no file that looks like a recording,
       * and what was there before as it was. */
      _sp_recorder_discard_spool (&r);
      cleanup (&r);
      sp_side_file_clear (&r.side_file);
      sp_output_clear (&r.output);
      free (r.flush_points);
      return status;
    }

  _sp_recorder_place_spool (&r);
  loop (&r);
  status = finish (&r);
  cleanup (&r);
  sp_side_file_clear (&r.side_file);
  sp_output_clear (&r.output);
  free (r.flush_points);
  return status;
}
