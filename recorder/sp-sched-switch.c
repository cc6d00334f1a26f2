/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sp-sched-switch.c: reading sched_switch's format and its raw fields. */
#include "sp-sched-switch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* prev_state's task-state bits (TASK_REPORT: S D T t X Z P I); none set
 * is TASK_RUNNING. Above them the kernel marks a preemption
 * (TASK_REPORT_MAX, "R+"), which is runnable too. */
#define TASK_REPORT_BITS 0x7fu

static const char *const format_paths[] = {
  "/sys/kernel/tracing/events/sched/sched_switch/format",
  "/sys/kernel/debug/tracing/events/sched/sched_switch/format",
};

/* The line "field:<type> NAME;\toffset:N;\tsize:N;..." of the field named
 * name: its offset and size. */
static bool
find_field (const char *text,
            const char *name,
            uint32_t *offset,
            uint32_t *size)
{
  size_t len = strlen (name);

  for (const char *line = text; *line != '\0';)
    {
      const char *end = strchrnul (line, '\n');
      const char *semi = memchr (line, ';', (size_t) (end - line));
      const char *word = semi;
      unsigned o, s;

      if (semi != NULL && strncmp (line + strspn (line, " \t"), "field:", 6) == 0)
        {
          /* The name is the last word before the first ';'. */
          while (word > line && word[-1] != ' ' && word[-1] != '\t')
            word--;
          if ((size_t) (semi - word) == len && strncmp (word, name, len) == 0)
            {
              if (sscanf (semi, ";%*[ \t]offset:%u;%*[ \t]size:%u;", &o, &s) != 2)
                return false;
              *offset = o;
              *size = s;
              return true;
            }
        }
      line = *end != '\0' ? end + 1 : end;
    }
  return false;
}

bool
sp_sched_switch_format_parse (SpSchedSwitchFormat *format,
                              const char *text)
{
  const char *id = strncmp (text, "ID:", 3) == 0 ? text : strstr (text, "\nID:");
  uint32_t pid_size;
  char *end;

  memset (format, 0, sizeof *format);
  if (id == NULL)
    return false;
  id += *id == '\n';
  errno = 0;
  format->id = strtoull (id + 3, &end, 10);
  if (errno != 0 || end == id + 3)
    return false;
  return find_field (text, "prev_state", &format->prev_state_offset, &format->prev_state_size)
         && (format->prev_state_size == 4 || format->prev_state_size == 8)
         && find_field (text, "next_pid", &format->next_pid_offset, &pid_size) && pid_size == 4;
}

bool
sp_sched_switch_format_read (SpSchedSwitchFormat *format,
                             char *message,
                             size_t message_size)
{
  char text[8192];
  int first_errno = 0;

  for (size_t i = 0; i < sizeof format_paths / sizeof format_paths[0]; i++)
    {
      FILE *file = fopen (format_paths[i], "re");
      size_t n;

      if (file == NULL)
        {
          if (first_errno == 0)
            first_errno = errno;
          continue;
        }
      n = fread (text, 1, sizeof text - 1, file);
      fclose (file);
      text[n] = '\0';
      if (sp_sched_switch_format_parse (format, text))
        return true;
      snprintf (message, message_size, "%s does not describe sched_switch as expected", format_paths[i]);
      return false;
    }
  snprintf (message, message_size, "no tracefs with sched_switch (%s: %s)", format_paths[0], strerror (first_errno));
  return false;
}

bool
sp_sched_switch_decode (const SpSchedSwitchFormat *format,
                        const uint8_t *raw,
                        uint32_t raw_size,
                        bool *runnable,
                        int32_t *next_tid)
{
  uint64_t state = 0;

  if (raw == NULL || format->prev_state_offset + format->prev_state_size > raw_size
      || format->next_pid_offset + 4 > raw_size)
    return false;
  if (format->prev_state_size == 8)
    memcpy (&state, raw + format->prev_state_offset, 8);
  else
    {
      uint32_t state32;

      memcpy (&state32, raw + format->prev_state_offset, 4);
      state = state32;
    }
  memcpy (next_tid, raw + format->next_pid_offset, 4);
  *runnable = (state & TASK_REPORT_BITS) == 0;
  return true;
}
