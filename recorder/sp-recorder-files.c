/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-recorder-files.c: the recording's files while it runs.
 *
 * The spool is flushed every 100 ms and the side file refreshed after a
 * flush; each flush point is noted, so that on a full disk the spool can
 * give back its last whole records to make room for the last side file.
 * A spool that another program overwrote in place is given up at once. */
#include "sp-recorder-private.h"

#include "sp-perf-access.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FLUSH_INTERVAL_NS     (100 * 1000000ull)
/* The side file is rewritten after a flush that changed its counts,
 * unless its last writing took more than this share of the time since (a
 * recording of thousands of threads has a large one); and at least this
 * often (names and exits of threads). */
#define SIDE_FILE_MAX_SHARE   20
#define SIDE_FILE_INTERVAL_NS (2000 * 1000000ull)
/* On a full disk the last side file gets room by the spool giving back
 * its last records, this much at a time (whole tmpfs pages). */
#define SPOOL_GIVE_BACK_BYTES (8 * 1024)

/* Notes where the spool ends after a flush (once per size). */
static void
note_flush_point (SpRecorder *r)
{
  SpFlushPoint point = { sp_spool_writer_get_flushed_size (r->writer),
                         sp_spool_writer_get_flushed_samples (r->writer) };

  if (r->n_flush_points > 0 && r->flush_points[r->n_flush_points - 1].bytes == point.bytes)
    return;
  if (r->n_flush_points == r->flush_points_size)
    {
      size_t size = r->flush_points_size > 0 ? 2 * r->flush_points_size : 64;
      SpFlushPoint *points = realloc (r->flush_points, size * sizeof *points);

      if (points == NULL)
        return;  /* then the spool gives back less */
      r->flush_points = points;
      r->flush_points_size = size;
    }
  r->flush_points[r->n_flush_points++] = point;
}

/* With the counts of what the file holds now (call it after a flush);
 * false with the message. */
static bool
try_side_file (SpRecorder *r,
               const SpKallsyms *kallsyms,
               char *message,
               size_t message_size)
{
  uint64_t start = _sp_recorder_monotonic_ns ();
  bool written;

  if (r->writer != NULL)
    {
      r->side.spool_bytes = sp_spool_writer_get_flushed_size (r->writer);
      r->side.spool_samples = sp_spool_writer_get_flushed_samples (r->writer);
    }
  r->side_lost = r->rec.n_lost;
  r->side_dropped = r->rec.n_dropped;
  if (r->off_cpu.writer != NULL)
    {
      r->side.off_cpu_bytes = sp_offcpu_recording_bytes (&r->off_cpu);
      r->side.off_cpu_switches = r->off_cpu.flushed_switches;
      /* The sampling rings' losses are the off-CPU data's only where they
       * carry switch records. */
      r->side.off_cpu_lost = sp_offcpu_recording_lost (&r->off_cpu,
                                                       r->events.switch_records_shared ? r->rec.n_lost : 0);
      r->side.off_cpu_dropped = r->off_cpu.n_dropped;
      if (r->unwinder != NULL && !r->events.switch_refused && r->events.n_switch_rings > 0)
        {
          r->side.off_cpu_stack_size = r->events.config.switch_stack_size;
          r->side.off_cpu_fp_tails = r->rec.n_switch_fp_tails;
          r->side.off_cpu_truncated = r->rec.n_switch_truncated;
        }
    }
  /* With the recorder's rights: the target may map files its user reads
   * and the invoker (pkexec's caller) may not. */
  sp_module_files_read_new (&r->rec.module_files);
  /* The invoker's files, written with the invoker's rights. */
  sp_invoker_files_begin (r->options->invoker);
  written = sp_side_file_write (&r->side_file, &r->side, &r->rec, kallsyms, message, message_size);
  sp_invoker_files_end (r->options->invoker);
  r->side_cost_ns = _sp_recorder_monotonic_ns () - start;
  return written;
}

static void
warn_side_file (SpRecorder *r,
                bool written,
                bool was_orphaned,
                const char *message)
{
  /* A refresh that fails is said only if the last side file fails too
   * (it may make good for it, as on a disk nearly full); a spool that is
   * not ours any more, at once. */
  if (written)
    r->side_file.failed = false;
  else if ((r->side.complete || r->side_file.orphaned) && !was_orphaned)
    {
      fprintf (stderr, "\nstackpulse-record: warning: %s\n", message);
      r->side_file.failed = true;
    }
}

static void
write_side_file (SpRecorder *r,
                 const SpKallsyms *kallsyms)
{
  char message[4400];
  bool was_orphaned = r->side_file.orphaned;

  warn_side_file (r, try_side_file (r, kallsyms, message, sizeof message), was_orphaned, message);
}

/* The spool's last flush point at least SPOOL_GIVE_BACK_BYTES before
 * bytes, else its first; NULL when there is none before bytes. */
static const SpFlushPoint *
earlier_flush_point (const SpRecorder *r,
                     uint64_t bytes)
{
  const SpFlushPoint *found = NULL;

  for (size_t i = 0; i < r->n_flush_points && r->flush_points[i].bytes < bytes; i++)
    if (found == NULL || r->flush_points[i].bytes + SPOOL_GIVE_BACK_BYTES <= bytes)
      found = &r->flush_points[i];
  return found;
}

/* On a full disk, even after the room kept was given back, the spool
 * gives back its last records until the side file fits. */
bool
_sp_recorder_write_last_side_file (SpRecorder *r,
                      const SpKallsyms *kallsyms)
{
  char message[4400];
  bool was_orphaned = r->side_file.orphaned;
  uint64_t samples_before = r->side.spool_samples;
  bool written = try_side_file (r, kallsyms, message, sizeof message);
  const SpFlushPoint *point;
  bool cut;

  while (!written && r->side_file.disk_full && (point = earlier_flush_point (r, r->side.spool_bytes)) != NULL)
    {
      sp_invoker_files_begin (r->options->invoker);
      cut = sp_output_truncate_spool (&r->output, point->bytes);
      sp_invoker_files_end (r->options->invoker);
      if (!cut)
        break;
      r->side.spool_bytes = point->bytes;
      r->side.spool_samples = point->samples;
      if (r->side.error == NULL)
        r->side.error = strerror (ENOSPC);
      written = try_side_file (r, kallsyms, message, sizeof message);
    }
  if (!written && r->side_file.disk_full)
    {
      /* Still no room: the recording's own keys, without the processes,
       * threads and kernel symbols. */
      r->side_file.recording_only = true;
      written = try_side_file (r, kallsyms, message, sizeof message);
    }
  if (r->side.spool_samples != samples_before)
    fprintf (stderr, "stackpulse-record: the disk is full: %s was cut back to %llu samples (from %llu) to make "
             "room for its side file\n", r->options->output, (unsigned long long) r->side.spool_samples,
             (unsigned long long) samples_before);
  warn_side_file (r, written, was_orphaned, message);
  /* Records given back are a recording cut short: it failed. */
  return (written || r->side_file.orphaned) && r->side.spool_samples == samples_before;
}

static void
note_write_failure (SpRecorder *r,
                    const SpSpoolError *err)
{
  if (!r->rec.failed)
    {
      r->rec.failed = true;
      r->rec.error = *err;
    }
}

/* A program (the command, say) that wrote over the spool in place has
 * lost the recording; it stops here, and nothing more is written there. */
bool
_sp_recorder_check_spool_intact (SpRecorder *r)
{
  if (r->spool_overwritten)
    return false;
  if (sp_output_spool_intact (&r->output, sp_spool_writer_get_flushed_size (r->writer)))
    return true;
  r->spool_overwritten = true;
  r->side_file.orphaned = true;
  sp_output_forsake_spool (&r->output);
  fprintf (stderr, "\nstackpulse-record: '%s' was overwritten in place by another program: the recording "
           "stops here and is lost\n", r->options->output);
  return false;
}

/* Whether the spool or the losses grew since the last side file. */
static bool
side_counts_changed (SpRecorder *r)
{
  return sp_spool_writer_get_flushed_size (r->writer) != r->side.spool_bytes || r->rec.n_lost != r->side_lost
         || r->rec.n_dropped != r->side_dropped;
}

/* Each round: the spool is flushed every FLUSH_INTERVAL_NS, and the side
 * file refreshed after a flush, so that its counts describe the spool as
 * it is in the file (spool_bytes) even when the recorder is killed. */
void
_sp_recorder_flush (SpRecorder *r,
                    uint64_t now)
{
  SpSpoolError err;
  bool flushed = false;

  if (now - r->last_flush_ns >= FLUSH_INTERVAL_NS)
    {
      /* Checked before (nothing more lands in what a program wrote
       * there) and after (what it wrote while this was written). */
      if (_sp_recorder_check_spool_intact (r))
        {
          flushed = sp_spool_writer_flush (r->writer, &err);
          if (!flushed)
            note_write_failure (r, &err);
          else
            note_flush_point (r);
          /* After the spool: a follower finds what the SYNCs promise. */
          if (flushed)
            sp_offcpu_recording_flush (&r->off_cpu);
          flushed = flushed && _sp_recorder_check_spool_intact (r);
        }
      r->last_flush_ns = now;
    }
  if (flushed && now - r->last_side_ns >= SIDE_FILE_MAX_SHARE * r->side_cost_ns
      && (side_counts_changed (r) || now - r->last_side_ns >= SIDE_FILE_INTERVAL_NS))
    {
      write_side_file (r, NULL);
      r->last_side_ns = now;
    }
}

void
_sp_recorder_close_spool (SpRecorder *r)
{
  SpSpoolError err;

  if (_sp_recorder_check_spool_intact (r) && !sp_spool_writer_flush (r->writer, &err))
    note_write_failure (r, &err);
  if (!r->rec.failed)
    _sp_recorder_check_spool_intact (r);
  r->side.spool_bytes = sp_spool_writer_get_flushed_size (r->writer);
  r->side.spool_samples = sp_spool_writer_get_flushed_samples (r->writer);
  if (r->rec.failed)
    r->side.error = r->rec.error.sys_errno != 0 ? strerror (r->rec.error.sys_errno) : r->rec.error.message;
  if (!sp_spool_writer_close (r->writer, &err))
    note_write_failure (r, &err);
  r->writer = NULL;
}

/* With the invoker's rights, as it was made. */
void
_sp_recorder_discard_spool (SpRecorder *r)
{
  sp_invoker_files_begin (r->options->invoker);
  sp_output_discard (&r->output);
  sp_invoker_files_end (r->options->invoker);
}

bool
_sp_recorder_create_spool (SpRecorder *r)
{
  const SpRecorderOptions *o = r->options;
  SpOutputInputs inputs = { o->command, o->directory, o->pids, o->n_pids };
  char message[4400];
  SpSpoolError err;
  bool opened;

  /* The invoker's file, created with the invoker's rights. */
  sp_invoker_files_begin (o->invoker);
  opened = sp_output_open (&r->output, o->output, &inputs, message, sizeof message);
  if (opened && o->off_cpu && !sp_output_open_offcpu (&r->output, &inputs, message, sizeof message))
    {
      sp_output_discard (&r->output);
      close (r->output.spool_fd);
      opened = false;
    }
  sp_invoker_files_end (o->invoker);
  if (!opened)
    {
      fprintf (stderr, "stackpulse-record: %s\n", message);
      return false;
    }
  sp_side_file_init (&r->side_file, &r->output);
  r->side.spool_start_us = _sp_recorder_wall_us ();
  r->writer = sp_spool_writer_new_for_fd (r->output.spool_fd, true, r->side.spool_start_us, 1000000 / o->frequency_hz,
                                          &err);
  if (r->writer != NULL && sp_spool_writer_flush (r->writer, &err))
    {
      note_flush_point (r);
      return true;
    }
  fprintf (stderr, "stackpulse-record: cannot write %s: %s\n", o->output,
           err.sys_errno != 0 ? strerror (err.sys_errno) : err.message);
  _sp_recorder_discard_spool (r);
  return false;
}

/* How the context-switch samples went, for the side file. */
static void
describe_offcpu_stacks (SpRecorder *r)
{
  static char reason[512];
  const SpPerfEvents *events = &r->events;

  if (!events->switch_refused && events->n_switch_rings > 0)
    {
      r->side.off_cpu_stacks = r->side.kernel_stacks ? "kernel+user" : "user";
      r->side.off_cpu_stacks_reason = NULL;
      /* A thread blocks inside libc's system-call wrappers, which keep no
       * frame pointer: the kernel's walk skips the function that waited. */
      if (r->options->call_graph == SP_CALL_GRAPH_FP)
        fprintf (stderr, "stackpulse-record: note: with --call-graph fp, blocked stacks skip the functions without "
                 "frame pointers they wait in (libc's read, futex and sleep wrappers); the default, auto, keeps "
                 "them\n");
      return;
    }
  r->side.off_cpu_stacks = "none";
  if (events->switch_errno == EACCES || events->switch_errno == EPERM)
    sp_perf_offcpu_stacks_reason (sp_perf_paranoid (), reason, sizeof reason);
  else
    snprintf (reason, sizeof reason, "context-switch samples could not be had: %s",
              strerror (events->switch_errno != 0 ? events->switch_errno : ENOTSUP));
  r->side.off_cpu_stacks_reason = reason;
  fprintf (stderr, "stackpulse-record: warning: off-CPU stacks are not recorded: %s; thread states and off-CPU "
           "times are recorded all the same\n", reason);
}

/* --off-cpu: the companion's writer (its file is created with the spool). */
bool
_sp_recorder_start_offcpu (SpRecorder *r)
{
  SpSpoolError err;

  if (!r->options->off_cpu)
    return true;
  r->side.off_cpu = true;
  if (sp_offcpu_recording_init (&r->off_cpu, &r->rec, r->output.offcpu_fd, &err))
    return true;
  fprintf (stderr, "stackpulse-record: cannot write %s.offcpu: %s\n", r->options->output,
           err.sys_errno != 0 ? strerror (err.sys_errno) : err.message);
  return false;
}

/* The spool replaces an earlier recording at its name, if any. */
void
_sp_recorder_place_spool (SpRecorder *r)
{
  char message[4400];

  bool placed;

  if (r->side.off_cpu)
    describe_offcpu_stacks (r);
  if (r->output.replacing)
    fprintf (stderr, "stackpulse-record: replacing the existing recording %s\n", r->options->output);
  sp_invoker_files_begin (r->options->invoker);
  placed = sp_output_commit (&r->output, message, sizeof message);
  sp_invoker_files_end (r->options->invoker);
  if (!placed)
    fprintf (stderr, "stackpulse-record: warning: %s\n", message);
  write_side_file (r, NULL);
}
