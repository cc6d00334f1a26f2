/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-sample.c: reading a sample's fields in the kernel's order. */
#include "sp-perf-sample.h"

#include <string.h>

#include "sp-byte-cursor.h"

/* One event's value (not a group's): the value, then the times and id
 * read_format asks for, in the kernel's order. */
static bool
take_read (uint64_t read_format,
           SpByteCursor *c,
           SpPerfSample *sample)
{
  uint64_t value;

  if (read_format & PERF_FORMAT_GROUP)
    return false;
  if (!sp_byte_cursor_take_u64 (c, &value))
    return false;
  if ((read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) && !sp_byte_cursor_take_u64 (c, &value))
    return false;
  if ((read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) && !sp_byte_cursor_take_u64 (c, &sample->time_running))
    return false;
  if ((read_format & PERF_FORMAT_ID) && !sp_byte_cursor_take_u64 (c, &value))
    return false;
  if ((read_format & PERF_FORMAT_LOST) && !sp_byte_cursor_take_u64 (c, &value))
    return false;
  return true;
}

bool
sp_perf_sample_parse (const SpSampleLayout *layout,
                      const struct perf_event_header *header,
                      SpPerfSample *sample)
{
  SpByteCursor c = { (const uint8_t *) (header + 1), (const uint8_t *) header + header->size };
  uint64_t type = layout->sample_type;
  uint64_t pid_tid;

  memset (sample, 0, sizeof *sample);
  if ((type & PERF_SAMPLE_IP) && !sp_byte_cursor_take_u64 (&c, &sample->ip))
    return false;
  if (type & PERF_SAMPLE_TID)
    {
      if (!sp_byte_cursor_take_u64 (&c, &pid_tid))
        return false;
      memcpy (&sample->pid, &pid_tid, 4);
      memcpy (&sample->tid, (const uint8_t *) &pid_tid + 4, 4);
    }
  if ((type & PERF_SAMPLE_TIME) && !sp_byte_cursor_take_u64 (&c, &sample->time))
    return false;
  if ((type & PERF_SAMPLE_CPU) && (!sp_byte_cursor_take_u32 (&c, &sample->cpu) || !sp_byte_cursor_skip (&c, 4)))
    return false;
  if ((type & PERF_SAMPLE_READ) && !take_read (layout->read_format, &c, sample))
    return false;
  if ((type & PERF_SAMPLE_CALLCHAIN)
      && (!sp_byte_cursor_take_u64 (&c, &sample->n_callchain)
          || !sp_byte_cursor_take_u64_array (&c, sample->n_callchain, &sample->callchain)))
    return false;
  if (type & PERF_SAMPLE_RAW)
    {
      /* Its size, then the fields, padded so that the record stays 8-byte
       * aligned (the size word included). */
      if (!sp_byte_cursor_take_u32 (&c, &sample->raw_size) || sample->raw_size > (uint64_t) (c.end - c.p))
        return false;
      sample->raw = c.p;
      if (!sp_byte_cursor_skip (&c, sample->raw_size))
        return false;
    }
  if (type & PERF_SAMPLE_REGS_USER)
    {
      if (!sp_byte_cursor_take_u64 (&c, &sample->regs_abi))
        return false;
      if (sample->regs_abi != PERF_SAMPLE_REGS_ABI_NONE)
        {
          if (!sp_byte_cursor_take_u64_array (&c, layout->n_user_regs, &sample->regs))
            return false;
          sample->n_regs = layout->n_user_regs;
        }
    }
  if (type & PERF_SAMPLE_STACK_USER)
    {
      if (!sp_byte_cursor_take_u64 (&c, &sample->stack_size))
        return false;
      if (sample->stack_size > 0)
        {
          if (sample->stack_size > (uint64_t) (c.end - c.p))
            return false;
          sample->stack = c.p;
          c.p += sample->stack_size;
          if (!sp_byte_cursor_take_u64 (&c, &sample->stack_used))
            return false;
        }
    }
  return true;
}

size_t
sp_perf_sample_stack_offset (const SpPerfSample *sample,
                             const struct perf_event_header *header)
{
  /* The size field is the word before the copy. */
  return (size_t) (sample->stack - (const uint8_t *) header) - 8;
}
