/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-sample.c: reading a sample's fields in the kernel's order. */
#include "sp-perf-sample.h"

#include <string.h>

typedef struct {
  const uint8_t *p;
  const uint8_t *end;
} Cursor;

static bool
take_u64 (Cursor *c,
          uint64_t *value)
{
  if (c->end - c->p < 8)
    return false;
  memcpy (value, c->p, 8);
  c->p += 8;
  return true;
}

/* Records and their u64 fields are 8-byte aligned in the ring and in the
 * queue, so arrays of u64 are handed out in place. */
static bool
take_u64_array (Cursor *c,
                uint64_t n,
                const uint64_t **values)
{
  if (n > (uint64_t) (c->end - c->p) / 8)
    return false;
  *values = (const uint64_t *) (const void *) c->p;
  c->p += n * 8;
  return true;
}

bool
sp_perf_sample_parse (const SpSampleLayout *layout,
                      const struct perf_event_header *header,
                      SpPerfSample *sample)
{
  Cursor c = { (const uint8_t *) (header + 1), (const uint8_t *) header + header->size };
  uint64_t type = layout->sample_type;
  uint64_t pid_tid;

  memset (sample, 0, sizeof *sample);
  if ((type & PERF_SAMPLE_IP) && !take_u64 (&c, &sample->ip))
    return false;
  if (type & PERF_SAMPLE_TID)
    {
      if (!take_u64 (&c, &pid_tid))
        return false;
      memcpy (&sample->pid, &pid_tid, 4);
      memcpy (&sample->tid, (const uint8_t *) &pid_tid + 4, 4);
    }
  if ((type & PERF_SAMPLE_TIME) && !take_u64 (&c, &sample->time))
    return false;
  if ((type & PERF_SAMPLE_CALLCHAIN)
      && (!take_u64 (&c, &sample->n_callchain) || !take_u64_array (&c, sample->n_callchain, &sample->callchain)))
    return false;
  if (type & PERF_SAMPLE_REGS_USER)
    {
      if (!take_u64 (&c, &sample->regs_abi))
        return false;
      if (sample->regs_abi != PERF_SAMPLE_REGS_ABI_NONE)
        {
          if (!take_u64_array (&c, layout->n_user_regs, &sample->regs))
            return false;
          sample->n_regs = layout->n_user_regs;
        }
    }
  if (type & PERF_SAMPLE_STACK_USER)
    {
      if (!take_u64 (&c, &sample->stack_size))
        return false;
      if (sample->stack_size > 0)
        {
          if (sample->stack_size > (uint64_t) (c.end - c.p))
            return false;
          sample->stack = c.p;
          c.p += sample->stack_size;
          if (!take_u64 (&c, &sample->stack_used))
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
