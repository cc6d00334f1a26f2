/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-sample.c: reading a sample's fields in the kernel's order. */
#include "sp-perf-sample.h"

#include <string.h>

#include "sp-byte-cursor.h"

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
  if ((type & PERF_SAMPLE_CALLCHAIN)
      && (!sp_byte_cursor_take_u64 (&c, &sample->n_callchain)
          || !sp_byte_cursor_take_u64_array (&c, sample->n_callchain, &sample->callchain)))
    return false;
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
