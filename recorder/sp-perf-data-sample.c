/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-perf-data-sample.c: reading a perf.data sample by its event's
 * sample_type, field by field in the kernel's order
 * (<linux/perf_event.h>, PERF_RECORD_SAMPLE), and writing it again in the
 * live recorder's layout. */
#include "sp-perf-data-sample.h"

#include <stdio.h>
#include <string.h>

#include "sp-byte-cursor.h"
#include "sp-unwinder.h"

#define MAX_RECORD 65535

typedef struct {
  uint64_t        ip;
  uint64_t        pid_tid;
  uint64_t        time;
  uint64_t        n_callchain;
  const uint64_t *callchain;
  uint64_t        regs_abi;
  const uint64_t *regs;
  uint64_t        stack_size;
  const uint8_t  *stack;
  uint64_t        stack_used;
} Fields;

/* PERF_SAMPLE_READ: one value, or a group's, with what read_format adds. */
static bool
skip_read (SpByteCursor *c,
           uint64_t read_format)
{
  uint64_t per_value = 1 + !!(read_format & PERF_FORMAT_ID) + !!(read_format & PERF_FORMAT_LOST);
  uint64_t times = !!(read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);
  uint64_t nr = 1;

  if ((read_format & PERF_FORMAT_GROUP) && (!sp_byte_cursor_take_u64 (c, &nr) || nr > 4096))
    return false;
  return sp_byte_cursor_skip (c, (times + nr * per_value) * 8);
}

static bool
skip_raw (SpByteCursor *c)
{
  uint32_t size;

  if (c->end - c->p < 4)
    return false;
  memcpy (&size, c->p, 4);
  /* The u32 size and the bytes together fill whole u64s. */
  return sp_byte_cursor_skip (c, ((uint64_t) size + 4 + 7) & ~UINT64_C (7));
}

static bool
skip_branch_stack (SpByteCursor *c,
                   const struct perf_event_attr *attr)
{
  uint64_t nr;

  if (!sp_byte_cursor_take_u64 (c, &nr) || nr > 4096)
    return false;
  if ((attr->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) && !sp_byte_cursor_skip (c, 8))
    return false;
  return sp_byte_cursor_skip (c, nr * 24);
}

/* Every field up to STACK_USER (those after it are not needed). */
static bool
parse_fields (const struct perf_event_attr *attr,
              const struct perf_event_header *header,
              Fields *f)
{
  SpByteCursor c = { (const uint8_t *) (header + 1), (const uint8_t *) header + header->size };
  uint64_t type = attr->sample_type, ignored;

  memset (f, 0, sizeof *f);
  if ((type & PERF_SAMPLE_IDENTIFIER) && !sp_byte_cursor_take_u64 (&c, &ignored))
    return false;
  if ((type & PERF_SAMPLE_IP) && !sp_byte_cursor_take_u64 (&c, &f->ip))
    return false;
  if ((type & PERF_SAMPLE_TID) && !sp_byte_cursor_take_u64 (&c, &f->pid_tid))
    return false;
  if ((type & PERF_SAMPLE_TIME) && !sp_byte_cursor_take_u64 (&c, &f->time))
    return false;
  if ((type & PERF_SAMPLE_ADDR) && !sp_byte_cursor_take_u64 (&c, &ignored))
    return false;
  if ((type & PERF_SAMPLE_ID) && !sp_byte_cursor_take_u64 (&c, &ignored))
    return false;
  if ((type & PERF_SAMPLE_STREAM_ID) && !sp_byte_cursor_take_u64 (&c, &ignored))
    return false;
  if ((type & PERF_SAMPLE_CPU) && !sp_byte_cursor_take_u64 (&c, &ignored))
    return false;
  if ((type & PERF_SAMPLE_PERIOD) && !sp_byte_cursor_take_u64 (&c, &ignored))
    return false;
  if ((type & PERF_SAMPLE_READ) && !skip_read (&c, attr->read_format))
    return false;
  if ((type & PERF_SAMPLE_CALLCHAIN)
      && (!sp_byte_cursor_take_u64 (&c, &f->n_callchain)
          || !sp_byte_cursor_take_u64_array (&c, f->n_callchain, &f->callchain)))
    return false;
  if ((type & PERF_SAMPLE_RAW) && !skip_raw (&c))
    return false;
  if ((type & PERF_SAMPLE_BRANCH_STACK) && !skip_branch_stack (&c, attr))
    return false;
  if (type & PERF_SAMPLE_REGS_USER)
    {
      if (!sp_byte_cursor_take_u64 (&c, &f->regs_abi))
        return false;
      if (f->regs_abi != PERF_SAMPLE_REGS_ABI_NONE
          && !sp_byte_cursor_take_u64_array (&c, (uint64_t) __builtin_popcountll (attr->sample_regs_user),
                                             &f->regs))
        return false;
    }
  if (type & PERF_SAMPLE_STACK_USER)
    {
      if (!sp_byte_cursor_take_u64 (&c, &f->stack_size))
        return false;
      f->stack = c.p;
      if (f->stack_size > 0
          && (!sp_byte_cursor_skip (&c, f->stack_size) || !sp_byte_cursor_take_u64 (&c, &f->stack_used)))
        return false;
    }
  return true;
}

bool
sp_perf_data_converter_init (SpPerfDataConverter *conv,
                             const SpPerfData *data,
                             long event,
                             char *message,
                             size_t message_size)
{
  const struct perf_event_attr *attr = &data->events[event].attr;
  uint64_t want = sp_unwinder_regs_mask ();
  uint64_t have = attr->sample_regs_user;
  uint64_t user_state = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;

  memset (conv, 0, sizeof *conv);
  conv->data = data;
  conv->event = event;
  conv->unwind = (attr->sample_type & user_state) == user_state && attr->sample_stack_user > 0;
  conv->layout.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN;
  if (!conv->unwind)
    return true;
  if ((have & want) != want)
    {
      snprintf (message, message_size, "its DWARF samples (--call-graph dwarf) lack user registers the unwinder needs "
                "(sample_regs_user 0x%llx, needed 0x%llx)", (unsigned long long) have, (unsigned long long) want);
      return false;
    }
  for (unsigned bit = 0; bit < 64; bit++)
    if ((want & (UINT64_C (1) << bit)) && conv->n_regs < SP_PERF_DATA_MAX_REGS)
      conv->reg_index[conv->n_regs++] = (size_t) __builtin_popcountll (have & ((UINT64_C (1) << bit) - 1));
  conv->layout.sample_type |= user_state;
  conv->layout.n_user_regs = conv->n_regs;
  conv->layout.stack_size = attr->sample_stack_user;
  return true;
}

long
sp_perf_data_sample_event (const SpPerfData *data,
                           const struct perf_event_header *header)
{
  uint64_t type = data->events[0].attr.sample_type;
  const uint8_t *body = (const uint8_t *) (header + 1);
  size_t body_size = header->size - sizeof *header;
  size_t position = 0;
  uint64_t id;

  if (data->n_events == 1)
    return 0;
  /* IDENTIFIER comes first; else ID after IP, TID, TIME and ADDR (perf
   * gives every event the same fields up to there). */
  if (!(type & PERF_SAMPLE_IDENTIFIER))
    {
      if (!(type & PERF_SAMPLE_ID))
        return -1;
      position = 8 * (!!(type & PERF_SAMPLE_IP) + !!(type & PERF_SAMPLE_TID) + !!(type & PERF_SAMPLE_TIME)
                      + !!(type & PERF_SAMPLE_ADDR));
    }
  if (position + 8 > body_size)
    return -1;
  memcpy (&id, body + position, 8);
  return sp_perf_data_event_for_id (data, id);
}

static uint64_t *
put (uint64_t *p,
     const void *bytes,
     size_t size)
{
  /* No field (a sample without a callchain) has no bytes to copy. */
  if (size > 0)
    memcpy (p, bytes, size);
  return p + (size + 7) / 8;
}

/* As the live recorder cuts a copy before it queues it (sp-recorder.c):
 * the bytes above where the thread's stack is known to end are never read
 * by the unwinder, and perf copies its whole --call-graph dwarf size
 * whatever the depth. The kernel's dyn_size stays, which still says
 * whether the copy ran out. */
static uint64_t
kept_stack_bytes (const SpPerfDataConverter *conv,
                  const Fields *f,
                  const uint64_t *regs)
{
  uint64_t top, sp, keep;

  if (conv->unwinder == NULL || f->stack_size == 0)
    return f->stack_size;
  top = sp_unwinder_stack_top (conv->unwinder, (int32_t) (f->pid_tid >> 32));
  sp = sp_unwinder_user_sp (regs);
  if (top <= sp || top - sp >= f->stack_size)
    return f->stack_size;
  keep = (top - sp + 7) & ~(uint64_t) 7;
  return keep < f->stack_size ? keep : f->stack_size;
}

bool
sp_perf_data_encode_sample (SpPerfDataConverter *conv,
                            const struct perf_event_header *header,
                            uint64_t *out)
{
  const struct perf_event_attr *attr = &conv->data->events[conv->event].attr;
  struct perf_event_header *copy = (struct perf_event_header *) out;
  uint64_t *p = out + 1;
  const uint64_t *regs;
  Fields f;
  size_t size;

  if (sp_perf_data_sample_event (conv->data, header) != conv->event)
    {
      conv->n_other_events++;
      return false;
    }
  if (!parse_fields (attr, header, &f))
    {
      conv->n_malformed++;
      return false;
    }
  /* Each field is smaller than the original's or one word: the size is
   * checked before the copy. */
  size = 8 * (1 + 3 + 1 + f.n_callchain);
  if (conv->unwind)
    size += 8 * (1 + (f.regs != NULL ? conv->n_regs : 0) + 1 + (f.stack_size > 0 ? 1 : 0))
            + ((f.stack_size + 7) & ~(size_t) 7);  /* put () writes whole words */
  if (size > MAX_RECORD)
    {
      conv->n_malformed++;
      return false;
    }
  *copy = (struct perf_event_header) { PERF_RECORD_SAMPLE, header->misc, (uint16_t) size };
  *p++ = f.ip;
  *p++ = f.pid_tid;
  *p++ = f.time;
  *p++ = f.n_callchain;
  p = put (p, f.callchain, f.n_callchain * 8);
  if (!conv->unwind)
    return true;
  *p++ = f.regs != NULL ? f.regs_abi : PERF_SAMPLE_REGS_ABI_NONE;
  regs = p;
  for (size_t i = 0; f.regs != NULL && i < conv->n_regs; i++)
    *p++ = f.regs[conv->reg_index[i]];
  if (f.regs != NULL)
    f.stack_size = kept_stack_bytes (conv, &f, regs);
  *p++ = f.stack_size;
  if (f.stack_size > 0)
    {
      p = put (p, f.stack, f.stack_size);
      *p++ = f.stack_used;
    }
  copy->size = (uint16_t) ((uint8_t *) p - (uint8_t *) out);
  return true;
}

/* The sample_id trailer's fields, in the kernel's order. */
static size_t
trailer_words (uint64_t type)
{
  return !!(type & PERF_SAMPLE_TID) + !!(type & PERF_SAMPLE_TIME) + !!(type & PERF_SAMPLE_ID)
         + !!(type & PERF_SAMPLE_STREAM_ID) + !!(type & PERF_SAMPLE_CPU) + !!(type & PERF_SAMPLE_IDENTIFIER);
}

bool
sp_perf_data_encode_other (const SpPerfDataConverter *conv,
                           const struct perf_event_header *header,
                           uint64_t *out)
{
  const struct perf_event_attr *attr = &conv->data->events[0].attr;
  size_t trailer = attr->sample_id_all ? 8 * trailer_words (attr->sample_type) : 0;
  const uint8_t *tail;
  size_t body;
  uint32_t pid_tid[2] = { 0, 0 };
  uint64_t time = 0;

  if (header->size < sizeof *header + trailer || header->size - trailer + 16 > MAX_RECORD)
    return false;
  body = header->size - sizeof *header - trailer;
  tail = (const uint8_t *) (header + 1) + body;
  if (attr->sample_id_all && (attr->sample_type & PERF_SAMPLE_TID))
    {
      memcpy (pid_tid, tail, 8);
      tail += 8;
    }
  if (attr->sample_id_all && (attr->sample_type & PERF_SAMPLE_TIME))
    memcpy (&time, tail, 8);
  /* Bodies are whole u64s as the kernel writes them. */
  body &= ~(size_t) 7;
  memcpy (out, header, sizeof *header + body);
  ((struct perf_event_header *) out)->size = (uint16_t) (sizeof *header + body + 16);
  memcpy ((uint8_t *) out + sizeof *header + body, pid_tid, 8);
  memcpy ((uint8_t *) out + sizeof *header + body + 8, &time, 8);
  return true;
}
