/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-side-file.c: writing the key file by hand (the recorder has no GLib),
 * with GKeyFile's escapes so that data/ reads it with g_key_file_*. */
#include "sp-side-file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>

#define SIDE_FILE_FORMAT 1

/* One value (or list element, when in_list) with GKeyFile's escapes. */
static void
put_escaped (FILE *out,
             const char *value,
             bool in_list)
{
  for (const char *p = value; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '\\': fputs ("\\\\", out); break;
        case '\n': fputs ("\\n", out); break;
        case '\t': fputs ("\\t", out); break;
        case '\r': fputs ("\\r", out); break;
        case ';':  fputs (in_list ? "\\;" : ";", out); break;
        case ' ':  fputs (p == value ? "\\s" : " ", out); break;
        default:   fputc (*p, out); break;
        }
    }
}

static void
put_string (FILE *out,
            const char *key,
            const char *value)
{
  fprintf (out, "%s=", key);
  put_escaped (out, value, false);
  fputc ('\n', out);
}

static void
put_u64 (FILE *out,
         const char *key,
         uint64_t value)
{
  fprintf (out, "%s=%" PRIu64 "\n", key, value);
}

static void
put_bool (FILE *out,
          const char *key,
          bool value)
{
  fprintf (out, "%s=%s\n", key, value ? "true" : "false");
}

/* --off-cpu: the companion and how its stacks went (docs/OFF-CPU.md). */
static void
write_off_cpu (FILE *out,
               const SpSideInfo *info)
{
  put_bool (out, "off_cpu", true);
  put_string (out, "off_cpu_stacks", info->off_cpu_stacks != NULL ? info->off_cpu_stacks : "none");
  if (info->off_cpu_stacks_reason != NULL)
    put_string (out, "off_cpu_stacks_reason", info->off_cpu_stacks_reason);
  if (info->off_cpu_switch_source != NULL)
    put_string (out, "off_cpu_switch_source", info->off_cpu_switch_source);
  if (info->off_cpu_switch_source_reason != NULL)
    put_string (out, "off_cpu_switch_source_reason", info->off_cpu_switch_source_reason);
  if (info->off_cpu_preempted_stacks != NULL)
    put_string (out, "off_cpu_preempted_stacks", info->off_cpu_preempted_stacks);
  put_u64 (out, "off_cpu_bytes", info->off_cpu_bytes);
  put_u64 (out, "off_cpu_switches", info->off_cpu_switches);
  put_u64 (out, "off_cpu_lost", info->off_cpu_lost);
  put_u64 (out, "off_cpu_dropped", info->off_cpu_dropped);
  if (info->off_cpu_stack_size > 0)
    {
      put_u64 (out, "off_cpu_stack_size", info->off_cpu_stack_size);
      put_u64 (out, "off_cpu_frame_pointer_tails", info->off_cpu_fp_tails);
      put_u64 (out, "off_cpu_truncated", info->off_cpu_truncated);
    }
  if (info->command == NULL)
    put_u64 (out, "off_cpu_since_ns", info->start_monotonic_ns);
}

/* -a: what was sampled, and where the samples not in the spool went. */
static void
write_system_wide (FILE *out,
                   const SpSideInfo *info,
                   const SpRecording *rec)
{
  put_bool (out, "system_wide", true);
  fputs ("cpus=", out);
  for (size_t i = 0; i < info->n_cpus; i++)
    fprintf (out, "%d;", info->cpus[i]);
  fputc ('\n', out);
  put_u64 (out, "idle_samples", rec->n_idle);
  if (info->idle_per_cpu != NULL)
    {
      fputs ("idle_samples_per_cpu=", out);
      for (size_t i = 0; i < info->n_cpus; i++)
        fprintf (out, "%" PRIu64 ";", info->idle_per_cpu[i]);
      fputc ('\n', out);
    }
  put_u64 (out, "recorder_samples", rec->n_recorder_samples);
  put_u64 (out, "processes_at_start", info->scan_processes);
  put_u64 (out, "process_scan_ns", info->scan_ns);
}

static void
write_recording (FILE *out,
                 const SpSideInfo *info,
                 const SpRecording *rec)
{
  struct utsname uts;
  char host[256] = "";

  fputs ("[recording]\n", out);
  put_u64 (out, "format", SIDE_FILE_FORMAT);
  put_bool (out, "complete", info->complete);
  if (info->command != NULL)
    {
      fputs ("command=", out);
      for (char *const *arg = info->command; *arg != NULL; arg++)
        {
          put_escaped (out, *arg, true);
          fputc (';', out);
        }
      fputc ('\n', out);
    }
  if (info->n_attached_pids > 0)
    {
      fputs ("attached_pids=", out);
      for (size_t i = 0; i < info->n_attached_pids; i++)
        fprintf (out, "%d;", info->attached_pids[i]);
      fputc ('\n', out);
    }
  gethostname (host, sizeof host - 1);
  put_string (out, "hostname", info->hostname != NULL ? info->hostname : host);
  /* Readers on this host tell a recording in progress from an interrupted
   * one by whether this process still lives. */
  put_u64 (out, "recorder_pid", (uint64_t) getpid ());
  if (info->input != NULL)
    {
      /* A conversion: the kernel that recorded it, where the file says. */
      if (info->kernel_release != NULL)
        put_string (out, "kernel_release", info->kernel_release);
      if (info->machine != NULL)
        put_string (out, "machine", info->machine);
    }
  else if (uname (&uts) == 0)
    {
      put_string (out, "kernel_release", uts.release);
      put_string (out, "machine", uts.machine);
    }
  put_u64 (out, "frequency_hz", info->frequency_hz);
  put_string (out, "call_graph", info->call_graph);
  if (info->stack_size > 0)
    put_u64 (out, "stack_size", info->stack_size);
  put_bool (out, "kernel_stacks", info->kernel_stacks);
  put_u64 (out, "start_wall_us", info->start_wall_us);
  if (info->spool_start_us != 0)
    put_u64 (out, "spool_start_us", info->spool_start_us);
  put_u64 (out, "start_monotonic_ns", info->start_monotonic_ns);
  if (info->complete)
    {
      put_u64 (out, "end_wall_us", info->end_wall_us);
      put_u64 (out, "end_monotonic_ns", info->end_monotonic_ns);
    }
  put_u64 (out, "samples", info->spool_samples);
  put_u64 (out, "spool_bytes", info->spool_bytes);
  put_u64 (out, "lost_samples", rec->n_lost);
  put_u64 (out, "throttled", rec->n_throttled);
  put_u64 (out, "truncated_stacks", rec->n_truncated);
  if (rec->unwinder != NULL || rec->n_dropped > 0)
    put_u64 (out, "dropped_samples", rec->n_dropped);
  if (info->queue_limit_bytes > 0)
    {
      put_u64 (out, "ring_bytes", info->ring_bytes);
      put_u64 (out, "ring_samples", info->ring_samples);
      put_u64 (out, "queue_limit_bytes", info->queue_limit_bytes);
      put_u64 (out, "queue_peak_bytes", info->queue_peak_bytes);
      put_u64 (out, "queue_dropped_samples", info->queue_dropped);
    }
  if (info->exit_status >= 0)
    put_u64 (out, "exit_status", (uint64_t) info->exit_status);
  if (info->error != NULL)
    put_string (out, "error", info->error);
  if (info->off_cpu)
    write_off_cpu (out, info);
  if (info->cgroup != NULL)
    put_string (out, "cgroup", info->cgroup);
  if (info->cgroup_refused != NULL)
    put_string (out, "cgroup_refused", info->cgroup_refused);
  if (info->n_cgroup_left > 0)
    {
      fputs ("cgroup_left=", out);
      for (size_t i = 0; i < info->n_cgroup_left; i++)
        fprintf (out, "%d;", info->cgroup_left[i]);
      fputc ('\n', out);
    }
  if (info->system_wide)
    write_system_wide (out, info, rec);
  else if (rec->n_idle > 0)
    put_u64 (out, "idle_samples", rec->n_idle);  /* a perf.data of perf record -a */
}

static void
write_threads (FILE *out,
               const SpRecording *rec,
               bool off_cpu)
{
  for (size_t i = 0; i < rec->thread_index.count; i++)
    {
      const SpThreadInfo *thread = &rec->threads[i];

      fprintf (out, "\n[thread %d]\npid=%d\n", thread->tid, thread->pid);
      put_string (out, "name", thread->name);
      if (thread->start_ns != 0)
        put_u64 (out, "start_ns", thread->start_ns);
      if (thread->exit_ns != 0)
        put_u64 (out, "exit_ns", thread->exit_ns);
      put_u64 (out, "samples", thread->n_samples);
      if (off_cpu)
        {
          put_u64 (out, "blocked_ns", thread->blocked_ns);
          put_u64 (out, "runnable_ns", thread->runnable_ns);
          put_u64 (out, "switches", thread->switches);
        }
    }
}

static void
write_processes (FILE *out,
                 const SpRecording *rec)
{
  for (size_t i = 0; i < rec->process_index.count; i++)
    {
      const SpProcessInfo *process = &rec->processes[i];

      fprintf (out, "\n[process %d]\n", process->pid);
      if (process->parent_pid != 0)
        fprintf (out, "parent=%d\n", process->parent_pid);
      if (process->executable != NULL)
        put_string (out, "executable", process->executable);
      if (process->exec_ns != 0)
        put_u64 (out, "exec_ns", process->exec_ns);
      put_bool (out, "python", process->python);
      put_u64 (out, "samples", process->n_samples);
      if (process->command_line != NULL)
        put_string (out, "command_line", process->command_line);
      if (process->kernel_thread)
        put_bool (out, "kernel_thread", true);
    }
}

/* stackpulse-record --input: what the file was and how much of it was
 * converted (docs/PERF-DATA.md). */
static void
write_input (FILE *out,
             const SpSideInput *input)
{
  if (input == NULL)
    return;
  fputs ("\n[input]\n", out);
  put_string (out, "format", input->format);
  put_string (out, "path", input->path);
  put_string (out, "mode", input->mode);
  put_string (out, "event", input->event);
  put_string (out, "events", input->events);
  if (input->perf_version != NULL)
    put_string (out, "perf_version", input->perf_version);
  if (input->perf_cmdline != NULL)
    put_string (out, "perf_cmdline", input->perf_cmdline);
  if (input->nr_cpus_online > 0)
    put_u64 (out, "nr_cpus_online", input->nr_cpus_online);
  put_u64 (out, "input_bytes", input->input_bytes);
  if (input->file_size > 0)
    put_u64 (out, "file_size", input->file_size);
  put_u64 (out, "records", input->records);
  put_u64 (out, "other_event_samples", input->other_event_samples);
  put_u64 (out, "malformed_samples", input->malformed_samples);
  if (input->unfinished)
    put_bool (out, "input_unfinished", true);
  if (input->damaged_at >= 0)
    {
      put_u64 (out, "input_damaged_at", (uint64_t) input->damaged_at);
      put_string (out, "input_damage", input->damage);
    }
  put_string (out, "kernel_symbols", input->kernel_symbols);
  put_u64 (out, "modules_changed", input->modules_changed);
}

/* How user stacks were unwound, overall and per module the stacks ran
 * through, so a reader can tell which file stops them and why. */
static void
write_unwinding (FILE *out,
                 const SpUnwinder *unwinder)
{
  SpUnwindStats stats;
  size_t n = 0;

  if (unwinder == NULL)
    return;
  sp_unwinder_get_stats (unwinder, &stats);
  fputs ("\n[unwinding]\n", out);
  put_u64 (out, "samples", stats.samples);
  put_u64 (out, "frame_pointer", stats.frame_pointer);
  put_u64 (out, "complete", stats.complete);
  put_u64 (out, "truncated", stats.truncated);
  put_u64 (out, "stopped", stats.stopped);
  put_u64 (out, "outer_frames_reused", stats.outer_frames_reused);
  put_u64 (out, "files", stats.files);
  put_u64 (out, "files_read", stats.files_read);
  put_u64 (out, "files_unloaded", stats.files_unloaded);
  put_u64 (out, "dwfl_open", stats.dwfl_open);
  put_u64 (out, "dwfl_evicted", stats.dwfl_evicted);
  if (stats.checked)
    {
      put_u64 (out, "checked", stats.n_checked);
      put_u64 (out, "check_mismatches", stats.n_check_mismatches);
    }
  for (size_t i = 0; i < sp_unwinder_get_n_files (unwinder); i++)
    {
      SpUnwindFileStats file;

      sp_unwinder_get_file_stats (unwinder, i, &file);
      if (file.samples == 0)
        continue;
      fprintf (out, "\n[unwind-module %zu]\n", n++);
      put_string (out, "path", file.path);
      put_bool (out, "readable", file.readable);
      put_bool (out, "eh_frame", file.eh_frame);
      put_bool (out, "debug_frame", file.debug_frame);
      put_bool (out, "debuglink", file.debuglink);
      put_bool (out, "symbols", file.symbols);
      put_u64 (out, "functions", file.functions);
      put_u64 (out, "frame_pointer_functions", file.frame_pointer_functions);
      put_u64 (out, "samples", file.samples);
      put_u64 (out, "frame_pointer", file.frame_pointer);
      put_u64 (out, "truncated", file.truncated);
      put_u64 (out, "stopped", file.stopped);
    }
}

/* What each mapped file was while it was recorded (sp-module-files.h). */
static void
write_module_files (FILE *out,
                    const SpRecording *rec)
{
  size_t n = 0;

  for (size_t i = 0; i < sp_module_files_count (&rec->module_files); i++)
    {
      const SpModuleFile *file = &rec->module_files.files[i];

      if (file->path == NULL || !file->found)
        continue;
      fprintf (out, "\n[module-file %zu]\n", n++);
      put_string (out, "path", file->path);
      put_u64 (out, "inode", file->inode);
      if (file->build_id[0] != '\0')
        put_string (out, "build_id", file->build_id);
      put_u64 (out, "mtime_ns", file->mtime_ns);
      put_u64 (out, "size", file->size);
    }
}

/* One entry per distinct symbol that a sampled kernel address falls in. */
static void
write_kernel_symbols (FILE *out,
                      const SpRecording *rec,
                      const SpKallsyms *kallsyms)
{
  uint8_t *seen;

  if (kallsyms == NULL || kallsyms->n_symbols == 0)
    return;
  seen = calloc (kallsyms->n_symbols, 1);
  if (seen == NULL)
    return;
  fputs ("\n[kernel-symbols]\nsource=/proc/kallsyms\n", out);
  for (size_t i = 0; i < rec->kernel_addresses.count; i++)
    {
      uint64_t address = sp_intern_table_key (&rec->kernel_addresses, (uint32_t) i)[0];
      long s = sp_kallsyms_lookup (kallsyms, address);
      const char *name, *module;
      size_t name_len, module_len;
      uint64_t size;

      if (s < 0 || seen[s])
        continue;
      seen[s] = 1;
      size = (size_t) s + 1 < kallsyms->n_symbols
             ? kallsyms->symbols[s + 1].address - kallsyms->symbols[s].address : 0;
      sp_kallsyms_get_name (kallsyms, (size_t) s, &name, &name_len, &module, &module_len);
      fprintf (out, "%" PRIx64 "=%" PRIu64 ";%.*s;%.*s;\n", kallsyms->symbols[s].address, size,
               (int) name_len, name, (int) module_len, module);
    }
  free (seen);
}

/* Room kept beyond twice the side file: the last one has more keys, and
 * kernel symbols. */
#define SPARE_SLACK_BYTES (16 * 1024)

/* Room kept before the spool takes any: the first side files are small,
 * but a disk nearly full must still leave the spool some. */
#define INITIAL_SPARE_BYTES (16 * 1024)
#define PAGE_BYTES          4096

/* What the spare may take at first: INITIAL_SPARE_BYTES, but at most half
 * the free room, in whole pages. */
static uint64_t
initial_spare (int dir_fd)
{
  struct statvfs st;
  uint64_t half;

  if (fstatvfs (dir_fd, &st) != 0)
    return INITIAL_SPARE_BYTES;
  half = (uint64_t) st.f_bavail * st.f_frsize / 2 / PAGE_BYTES * PAGE_BYTES;
  return half < INITIAL_SPARE_BYTES ? half : INITIAL_SPARE_BYTES;
}

void
sp_side_file_init (SpSideFile *side_file,
                   const SpOutput *output)
{
  uint64_t spare = initial_spare (output->dir_fd);

  *side_file = (SpSideFile) { output, -1, 0, false, false, false, false };
  side_file->spare_fd = openat (output->dir_fd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (side_file->spare_fd >= 0 && spare > 0 && fallocate (side_file->spare_fd, 0, 0, (off_t) spare) == 0)
    side_file->spare_bytes = spare;
}

void
sp_side_file_clear (SpSideFile *side_file)
{
  if (side_file->spare_fd >= 0)
    close (side_file->spare_fd);
  side_file->spare_fd = -1;
  side_file->spare_bytes = 0;
}

/* Grows the room kept to twice size (and the slack); no room is no
 * error: the disk may just be full. */
static void
keep_room_for (SpSideFile *side_file,
               uint64_t size)
{
  uint64_t want = 2 * size + SPARE_SLACK_BYTES;

  if (side_file->spare_fd >= 0 && side_file->spare_bytes < want
      && fallocate (side_file->spare_fd, 0, 0, (off_t) want) == 0)
    side_file->spare_bytes = want;
}

/* A new file under a fresh name, which then replaces the last one: a
 * reader never sees half of it, and no link is followed. */
static bool
write_once (const SpSideFile *side_file,
            const SpSideInfo *info,
            const SpRecording *rec,
            const SpKallsyms *kallsyms,
            uint64_t *size,
            bool *orphaned)
{
  const SpOutput *output = side_file->output;
  char tmp[4096];
  int fd = sp_output_create_temp (output->dir_fd, output->meta_name, tmp, sizeof tmp);
  FILE *out = fd >= 0 ? fdopen (fd, "w") : NULL;
  bool ok;
  int saved;

  if (out == NULL)
    {
      saved = errno;
      if (fd >= 0)
        {
          close (fd);
          unlinkat (output->dir_fd, tmp, 0);
        }
      errno = saved;
      return false;
    }
  fputs ("# stackpulse side file: what the spool has no room for (docs/SIDE-FILE.md)\n", out);
  write_recording (out, info, rec);
  if (side_file->recording_only)
    put_bool (out, "recording_only", true);
  else
    {
      write_input (out, info->input);
      write_processes (out, rec);
      write_threads (out, rec, info->off_cpu);
      write_unwinding (out, rec->unwinder);
      write_module_files (out, rec);
      write_kernel_symbols (out, rec, kallsyms);
    }
  ok = fflush (out) == 0 && !ferror (out);
  *size = (uint64_t) ftell (out);
  ok = fclose (out) == 0 && ok;
  /* Never over the side file of a spool that is not ours any more. */
  if (ok && !sp_output_still_ours (output))
    {
      ok = false;
      *orphaned = true;
    }
  ok = ok && renameat (output->dir_fd, tmp, output->dir_fd, output->meta_name) == 0;
  if (!ok)
    {
      saved = errno;
      unlinkat (output->dir_fd, tmp, 0);
      errno = saved;
    }
  return ok;
}

static bool
disk_full (int err)
{
  return err == ENOSPC || err == EDQUOT;
}

bool
sp_side_file_write (SpSideFile *side_file,
                    const SpSideInfo *info,
                    const SpRecording *rec,
                    const SpKallsyms *kallsyms,
                    char *message,
                    size_t message_size)
{
  uint64_t size = 0;
  bool ok;

  if (side_file->orphaned)
    {
      snprintf (message, message_size, "no side file for '%s'", side_file->output->path);
      return false;
    }
  ok = write_once (side_file, info, rec, kallsyms, &size, &side_file->orphaned);
  if (!ok && !side_file->orphaned && disk_full (errno) && info->complete && side_file->spare_fd >= 0)
    {
      /* The disk is full: the room kept is for the last side file (the
       * ones before may fail, this one says what the spool holds). */
      sp_side_file_clear (side_file);
      ok = write_once (side_file, info, rec, kallsyms, &size, &side_file->orphaned);
    }
  if (!ok && !side_file->orphaned && disk_full (errno) && info->complete && sp_output_still_ours (side_file->output))
    {
      /* The old side file (saying "in progress") and the new one do not
       * fit together: the old one goes first. */
      unlinkat (side_file->output->dir_fd, side_file->output->meta_name, 0);
      ok = write_once (side_file, info, rec, kallsyms, &size, &side_file->orphaned);
    }
  side_file->disk_full = !ok && disk_full (errno);
  if (side_file->orphaned)
    snprintf (message, message_size, "'%s' is no longer this recording's spool (removed or replaced): its side "
              "file is not written any more", side_file->output->path);
  else if (!ok)
    snprintf (message, message_size, "cannot write %s: %s", side_file->output->meta_path, strerror (errno));
  else if (!info->complete)
    keep_room_for (side_file, size);
  return ok;
}
