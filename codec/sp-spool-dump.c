/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-spool-dump.c: header, modules, frames, samples with stacks, execs. */
#include "sp-spool-dump.h"

#include <inttypes.h>

static void
dump_path (const SpModule *module,
           FILE *out)
{
  for (size_t i = 0; i < module->path_len; i++)
    {
      unsigned char c = (unsigned char) module->path[i];

      if (c == '\\')
        fputs ("\\\\", out);
      else if (c == '\n')
        fputs ("\\n", out);
      else if (c == '\t')
        fputs ("\\t", out);
      else if (c < 0x20 || c == 0x7F)
        fprintf (out, "\\x%02x", c);
      else
        fputc (c, out);
    }
}

static void
dump_modules (const SpSpoolReader *reader,
              FILE *out)
{
  const SpModule *modules = sp_spool_reader_get_modules (reader);
  size_t n = sp_spool_reader_get_n_modules (reader);

  for (size_t i = 0; i < n; i++)
    {
      const SpModule *m = &modules[i];

      fprintf (out, "module id=%zu pid=%" PRId32 " start=0x%" PRIx64 " end=0x%" PRIx64
               " offset=0x%" PRIx64 " inode=%" PRIu64 " kernel=%d path=",
               i, m->pid, m->start, m->end, m->file_offset, m->inode, m->is_kernel ? 1 : 0);
      dump_path (m, out);
      fputc ('\n', out);
    }
}

static void
dump_frames (const SpSpoolReader *reader,
             FILE *out)
{
  static const char *const modes[] = { "user", "kernel", "truncated" };
  const SpFrame *frames = sp_spool_reader_get_frames (reader);
  size_t n = sp_spool_reader_get_n_frames (reader);

  for (size_t i = 0; i < n; i++)
    {
      const SpFrame *f = &frames[i];

      fprintf (out, "frame id=%zu mode=%s module=", i, modes[f->mode]);
      if (f->module_id == SP_SPOOL_NO_ID)
        fputc ('-', out);
      else
        fprintf (out, "%" PRIu32, f->module_id);
      fprintf (out, " rel=0x%" PRIx64 " abs=0x%" PRIx64 "\n", f->rel_ip, f->abs_ip);
    }
}

static void
dump_samples (const SpSpoolReader *reader,
              FILE *out)
{
  const SpFrame *frames = sp_spool_reader_get_frames (reader);
  const SpStackNode *nodes = sp_spool_reader_get_stack_nodes (reader);
  const SpThread *threads = sp_spool_reader_get_threads (reader);
  size_t n = sp_spool_reader_get_n_samples (reader);

  for (size_t i = 0; i < n; i++)
    {
      SpSample sample;
      const SpThread *thread;
      SpStackIter iter;
      uint32_t frame_id;

      sp_spool_reader_get_sample (reader, i, &sample);
      thread = &threads[sample.thread];
      fprintf (out, "sample ts=%" PRIu64 " us=%" PRIu64 " pid=%" PRId32 " tid=%" PRIu64
               " stack=%" PRIu32 " depth=%" PRIu32 "\n",
               sample.timestamp_ns, sp_spool_reader_get_sample_time_us (reader, i),
               thread->pid, thread->tid, sample.stack, nodes[sample.stack].depth);

      sp_stack_iter_init (&iter, reader, sample.stack);
      while (sp_stack_iter_next (&iter, &frame_id))
        {
          uint32_t module_id;
          uint64_t rel_ip;

          fprintf (out, "  at frame=%" PRIu32 " abs=0x%" PRIx64, frame_id, frames[frame_id].abs_ip);
          if (sp_spool_reader_resolve_frame_module (reader, thread->pid, frame_id, &module_id, &rel_ip))
            fprintf (out, " module=%" PRIu32 " rel=0x%" PRIx64 "\n", module_id, rel_ip);
          else
            fputs (" module=- rel=-\n", out);
        }
    }
}

static void
dump_execs (const SpSpoolReader *reader,
            FILE *out)
{
  const SpProcessExec *execs = sp_spool_reader_get_process_execs (reader);
  size_t n = sp_spool_reader_get_n_process_execs (reader);

  for (size_t i = 0; i < n; i++)
    fprintf (out, "exec ts=%" PRIu64 " pid=%" PRId32 " python=%d\n",
             execs[i].timestamp_ns, execs[i].pid, execs[i].is_python_runtime ? 1 : 0);
}

bool
sp_spool_dump (const SpSpoolReader *reader,
               FILE *out)
{
  fprintf (out, "header start_us=%" PRIu64 " interval_us=%" PRIu64 "\n",
           sp_spool_reader_get_start_timestamp_us (reader),
           sp_spool_reader_get_sample_interval_us (reader));
  dump_modules (reader, out);
  dump_frames (reader, out);
  dump_samples (reader, out);
  dump_execs (reader, out);
  return fflush (out) == 0 && !ferror (out);
}
